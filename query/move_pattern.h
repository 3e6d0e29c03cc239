// Move patterns (docs/patterns.md): "a move like this was played", matched against a game's
// canonical movetext (core/pgn_writer.h), which every game's record keeps: no replay.
//
//   --move 'N branch capture actions=10-20'
//
// Words, in any order, each optional:
//   a piece letter     the piece that moved: upper case white, lower case black (P for pawns)
//   physical           a move on its own board
//   jump               a jump to another board that creates no timeline (to a board at the
//                      present of its timeline)
//   branch             a jump that creates a timeline (to a past board)
//   travel             either kind of jump
//   capture            the move captures
//   check              the action that played it left the opponent in check (core/legal.h
//                      InCheck after the action), as a '+' would mark it: decided by replaying
//                      the game, at the actions whose move the other words match
//   actions=A-B        in actions A to B (1 is the first action; "A-" and "-B" leave a bound open)
#ifndef FIVED_QUERY_MOVE_PATTERN_H_
#define FIVED_QUERY_MOVE_PATTERN_H_

#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/pattern.h"
#include "core/status.h"
#include "core/types.h"

namespace fived {

struct MovePattern {
  enum class Kind { kAny, kPhysical, kJump, kBranch, kTravel };
  std::optional<PieceType> piece;
  std::optional<Color> color;
  Kind kind = Kind::kAny;
  bool capture = false;
  bool check = false;
  int first_action = 1;
  int last_action = std::numeric_limits<int>::max();
};

// Parses the words above. Fails (kInvalidArgument) pointing at the word: the place's column and
// reason, and TextErrorAt's message (core/status.h).
Result<MovePattern> ParseMovePattern(std::string_view text);

// The actions (1-based, increasing) of `movetext` (canonical, as records keep it) with a move the
// pattern matches, leaving `check` aside.
std::vector<int> MoveActions(const MovePattern& pattern, std::string_view movetext);

// The first action of `movetext` with a move the pattern matches, or -1. For a pattern with
// `check`, `checking` must hold the actions after which the opponent was in check (sorted; see
// CheckingActions); otherwise it is not read.
int FirstMoveAction(const MovePattern& pattern, std::string_view movetext,
                    std::span<const int> checking = {});

// Of `actions` (sorted), those after which the side to move is in check, by replaying the game
// `game_text` (a 5dpgn game as records keep it). Empty when the game cannot be replayed.
std::vector<int> CheckingActions(std::string_view game_text, std::span<const int> actions);

}  // namespace fived

#endif  // FIVED_QUERY_MOVE_PATTERN_H_
