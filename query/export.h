// Writing stored games as a 5dpgn collection that reads back game for game. A game's stored text
// was cut from its source by the splitter (core/pgn_syntax.h) among the neighbours it had there;
// written next to other games it may not stand alone: movetext without headers joins the game
// before it (a game without a result token, or one with headers only, goes on across a blank
// line), and a text the splitter reads as ending inside a comment swallows the games after it.
// The canonical form is built from parts and must read back the same way. Both writers of
// 5d-query (`--format 5dpgn` and `duplicates --export-unique`) go through here.
#ifndef FIVED_QUERY_EXPORT_H_
#define FIVED_QUERY_EXPORT_H_

#include <optional>
#include <string>
#include <string_view>

#include "query/store.h"
#include "schema/db.h"

namespace fived {

enum class ExportForm {
  kOriginal,   // the game's text as found in its source
  kCanonical,  // its headers and 5DFEN boards, then its canonical movetext
};

// The text of a stored game (its row and texts, as GameStore reads them) as one game of a
// collection: it ends with a line break, and games written one after another with a blank line
// between them read back (splitter, then indexer) as the same games in the same order, each with
// the same variant, actions, final state, headers and result. To that end:
//   kOriginal   the original text, with a [Board "<variant>"] line in front when the text does not
//               start with a header line, without a byte-order mark at its start;
//   kCanonical  the headers and 5DFEN board lines in their order, one per line (values escaped
//               again: \" and \\), a [Board "<variant>"] line when there are none, a blank
//               line, the canonical movetext (with the moves of an unfinished last action, which
//               count for the final state) and the stored result when it is a result token (1-0,
//               0-1, 1/2-1/2, *); another value (say "Stuck looking for legal moves") came from
//               the Result header, which keeps it. A game without actions or result token is its
//               headers alone.
// When the splitter would read either text as still inside a comment at its end ('{' in a header
// name), a line "{}" is added (it closes that comment, and is an empty comment to the parser).
// When a canonical text still does not stand alone (header names such as "a{b" and "c}d" on lines
// of their own) the original form is used, and the other way round. nullopt when neither does
// (never seen; the writers report it as an error).
std::optional<std::string> ExportedGameText(const GameRow& row, const GameTexts& texts,
                                            ExportForm form);

// ExportedGameText of game `row` of `store`, which reads its texts. Fails when the record cannot
// be read, or with a message naming the game when it cannot be written to stand alone.
Result<std::string> ExportGame(GameStore& store, const GameRow& row, ExportForm form);

// Whether `text` reads back as exactly itself and one game when written between a game of headers
// only and a game that starts with a header line, a blank line on either side; that neighbour
// before it is the one that joins the most text, so a text that stands alone there stands alone
// after any game that does. `text` should end with a line break.
bool StandsAlone(std::string_view text);

}  // namespace fived

#endif  // FIVED_QUERY_EXPORT_H_
