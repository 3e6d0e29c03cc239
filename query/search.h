// Position searches: turning what users type (a movetext, 5DFEN boards, an MD5, one board) into
// keys, and keys into the games that reached them, through the posting lists the indexer wrote
// (schema/postings.h): an exact position is one bucket read, never a scan of the games. A board
// is found as a pattern (query/pattern_search.h).
//
// Errors in user input are kInvalidArgument with messages meant for the terminal, pointing at the
// problem ("--moves: col 14: Qh9: ..."); database failures are kDatabase.
#ifndef FIVED_QUERY_SEARCH_H_
#define FIVED_QUERY_SEARCH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/status.h"
#include "query/store.h"

namespace fived {

// The official name of a variant as the reader matches [Board] names ("standard" and
// "Standard" are "Standard"; "custom" for the names of custom boards), or kInvalidArgument naming
// the unknown variant.
Result<std::string> ResolveVariantName(std::string_view name);

// The position after replaying `moves` (5dpgn movetext) from the start of `variant` (an official
// name). Movetext without turn numbers and without '/' ("e3 e6 Nf3") is read as one move per
// action, the players in turn (in a file, moves on one line without a number make one action). On
// an illegal or unreadable move, kInvalidArgument with a message giving the column of the move in
// `moves`, the move and the reason, followed by the movetext and a caret under the move; its
// place() holds where, for a caller that points at it (the API): the column, 1-based in `moves`
// (0 when the error is about no one move, or `moves` has several lines), and the move and the
// reason ("Qh9: ...") without the column or the caret. With `last_action`, the moves of the last
// action as played go there (none when `moves` plays no action), for a picture to draw them
// (query/picture.h).
Result<Position> PositionFromMoves(std::string_view variant, std::string_view moves,
                                   std::vector<Move>* last_action = nullptr);
// The same from the position `boards` (5DFEN boards, as PositionFromState reads them) instead of
// a variant's start: what explores a custom start. When a board does not read, kInvalidArgument
// "--state: ..." without a place.
Result<Position> PositionFromStateAndMoves(std::string_view boards, std::string_view moves,
                                           std::vector<Move>* last_action = nullptr);
// The position made of `boards`: 5DFEN boards with their coordinates ("[...:0:1:w][...]"),
// separated by nothing, spaces or line breaks. kInvalidArgument ("--state: ...", no place) when
// a board does not parse or the boards do not form timelines.
Result<Position> PositionFromState(std::string_view boards);

// One board to look for. Without coordinates it may stand anywhere.
struct BoardQuery {
  Board board;
  uint64_t key = 0;  // BoardContentKey
  bool placed = false;
  // With coordinates: the timeline as written and the half-turn.
  bool timeline_negative = false;
  bool timeline_signed_zero = false;
  int timeline_magnitude = 0;
  int half_turn = 0;
};
// Parses "[pieces]" or "[pieces:L:T:c]" (brackets optional). Pieces are canonical 5DFEN: '*'
// marks unmoved pawns, brawns, kings and rooks, as 5d-index --check --fen writes them.
// kInvalidArgument ("--board: TEXT: why") when it does not read.
Result<BoardQuery> ParseBoardQuery(std::string_view text);

// A game that reached the position, and the first action after which it stood (0: the start).
struct PositionMatch {
  int64_t game_id = 0;
  int action = 0;
  // Pattern searches (query/pattern_search.h): the boards that matched, "L:T:c" each, separated
  // by spaces; empty otherwise.
  std::string boards;
};

// Games that reached the state `key`, in game order.
Result<std::vector<PositionMatch>> FindState(GameStore& store, uint64_t key);
// Games whose final state has the specification's MD5 `md5` (32 hex digits, any case).
Result<std::vector<PositionMatch>> FindFinalStateMd5(GameStore& store, std::string_view md5);
// Whether the database indexes the MD5 of every state (meta.state_md5 'all', 5d-index
// --all-state-md5) rather than of final states only.
Result<bool> IndexesEveryStateMd5(GameStore& store);
// Games that passed through a state with MD5 `md5` (32 hex digits, any case), with the first
// action after which they stood there, from md5_postings (matched on the MD5's first 64 bits):
// for a database that IndexesEveryStateMd5; on another it finds nothing.
Result<std::vector<PositionMatch>> FindStateMd5(GameStore& store, std::string_view md5);
// Games in `candidates` (game ids) that reached a state with MD5 `md5` at any action: each game
// is replayed from its text, on `jobs` threads (this one reads the texts). Slow (a fraction of a
// millisecond per game and thread); for databases of final MD5s and narrowed searches.
Result<std::vector<PositionMatch>> ScanStateMd5(GameStore& store, std::string_view md5,
                                                const std::vector<int64_t>& candidates,
                                                int jobs = 1);
// Games that had the board (anywhere, or at its coordinates when placed), found through the
// pattern index as the pattern of exactly this board (query/pattern_search.h). `action` is the
// first action after which it stood.
Result<std::vector<PositionMatch>> FindBoard(GameStore& store, const BoardQuery& query);

// Whether text is 32 hex digits.
bool IsMd5(std::string_view text);

}  // namespace fived

#endif  // FIVED_QUERY_SEARCH_H_
