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
//   actions=A-B        in actions A to B (1 is the first action; "A-" and "-B" leave a bound open)
#ifndef FIVED_QUERY_MOVE_PATTERN_H_
#define FIVED_QUERY_MOVE_PATTERN_H_

#include <limits>
#include <optional>
#include <string_view>
#include <variant>

#include "core/pattern.h"
#include "core/types.h"

namespace fived {

struct MovePattern {
  enum class Kind { kAny, kPhysical, kJump, kBranch, kTravel };
  std::optional<PieceType> piece;
  std::optional<Color> color;
  Kind kind = Kind::kAny;
  bool capture = false;
  int first_action = 1;
  int last_action = std::numeric_limits<int>::max();
};

// Parses the words above; errors point at the word.
std::variant<MovePattern, PatternError> ParseMovePattern(std::string_view text);

// The first action (1-based) of `movetext` (canonical, as records keep it) with a move the
// pattern matches, or -1.
int FirstMoveAction(const MovePattern& pattern, std::string_view movetext);

}  // namespace fived

#endif  // FIVED_QUERY_MOVE_PATTERN_H_
