// Writing canonical 5dpgn: headers one per line, the 5DFEN boards of a custom game, then one
// numbered line per turn where every move names its board, marks captures with 'x', jumps with
// '>' or '>>' and promotions with '=X'. Physical moves use SAN with the least disambiguation that
// makes them unique on their board; jumps write the piece letter (P for pawns) and both squares.
// A written game reads back (pgn_syntax.h + replay.h) to the same states.
#ifndef FIVED_CORE_PGN_WRITER_H_
#define FIVED_CORE_PGN_WRITER_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/replay.h"

namespace fived {

// The notation of a board: "(0T5)", "(-1T6)", "(+0T3)".
std::string BoardRefText(const Position& pos, int timeline, int half_turn);
// Appends BoardRefText(pos, timeline, half_turn) to `out`, without temporaries.
void AppendBoardRef(const Position& pos, int timeline, int half_turn, std::string* out);
// Writes BoardRefText(pos, timeline, half_turn) at `end` (room for kMaxBoardRefChars); returns
// the end of what it wrote.
constexpr size_t kMaxBoardRefChars = TimelineLabeling::kMaxLabelChars + 14;
char* PutBoardRef(const Position& pos, int timeline, int half_turn, char* end);

// The text of one move, written in the position before it (`pos`).
std::string MoveText(const Position& pos, const Move& move);
// The same, appended to `out`.
void AppendMoveText(const Position& pos, const Move& move, std::string* out);
// The texts of an action's moves, in play order, each written in the position before it (the
// first in `before`), joined by spaces: "(0T3)Nxc1 (-1T3)Qc4>x(+1T3)c2".
std::string ActionText(const Position& before, const std::vector<Move>& moves);

// Lays out movetext from the texts of moves, action by action: "N." before white's action,
// " /" before black's, "Nb." when black opens a turn, one line per turn.
class MovetextBuilder {
 public:
  void BeginAction(Color mover);
  void AddMove(std::string_view text);
  void EndAction();
  // The movetext, then the result when not empty, and a final line break. Resets the builder.
  std::string Finish(const std::string& result);

 private:
  std::string out_;
  int turn_ = 0;
  bool line_open_ = false;
  Color mover_ = Color::kWhite;
};

// The movetext of a game: turn lines, then the result when not empty. `start` is the starting
// position (a copy is replayed internally); `actions` the played actions from it.
std::string WriteMovetext(const Position& start, const std::vector<PlayedAction>& actions,
                          const std::string& result);

// A whole game: headers in the given order (a Board header is written as given; for a custom
// game the starting boards follow the headers), a blank line, the movetext, a blank line.
std::string WriteGame(const std::vector<std::pair<std::string, std::string>>& headers,
                      const GameSetup& setup, const std::vector<PlayedAction>& actions,
                      const std::string& result);

}  // namespace fived

#endif  // FIVED_CORE_PGN_WRITER_H_
