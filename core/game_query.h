// A position query over a whole game (docs/patterns.md): board patterns (core/pattern.h), related
// to each other in place, with conditions on material and on the state, evaluated along a game's
// board stream (core/board_stream.h) to find the first action after which everything held.
//
//   board patterns   each must match some board of the game; a pattern whose pins are relative
//                    ("=", "=+N", "=-N") must match a board placed so relative to the board the
//                    pattern before it matched: the same timeline two turns on
//                    (":=:=+2:="), the next timeline at the same turn (":=+1:=:=")
//   material         on some board ("board: Q>=2", any size) or across the present's boards
//                    ("present: Q>=2, q=0"): counts of a piece, a class or a set, compared with a
//                    number or with another count ("Q>q")
//   state            the timelines (all, active), the present's turn, the side to move, the
//                    side in check and on how many boards
//                    ("timelines>=4, active>=3, turn>=10, to-move=b, check=b, checks>=2")
//
// Parsing fails (kInvalidArgument) with the column of the offending character in the Status's
// place() and a message pointing at it (TextErrorAt, core/status.h).
#ifndef FIVED_CORE_GAME_QUERY_H_
#define FIVED_CORE_GAME_QUERY_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/board_stream.h"
#include "core/pattern.h"
#include "core/status.h"

namespace fived {

// A comparison of a term with a value.
enum class Comparison : uint8_t { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual };
bool Compare(int left, Comparison op, int right);

// One term of material: the number of pieces in `left` compared with a number or with the number
// of pieces in `right` (when right_set is not 0).
struct MaterialTerm {
  PieceSet left = 0;
  Comparison op = Comparison::kEqual;
  PieceSet right_set = 0;
  int right_number = 0;
};

struct MaterialCondition {
  bool present = true;  // across the present's boards; false: on some one board
  std::vector<MaterialTerm> terms;
};

// "[board:|present:] TERM, TERM...": TERM is SET OP NUMBER or SET OP SET, SET a piece letter
// (either colour as written; with '*', unmoved), '!' (any piece), 'A'/'a' (a colour) or a bracket
// set ("[QR]"), OP one of = != < <= > >=. Without a scope, present.
Result<MaterialCondition> ParseMaterial(std::string_view text);

// One term about the state after an action.
struct StateTerm {
  enum class Field : uint8_t { kTimelines, kActive, kTurn, kToMove, kCheck, kChecks };
  Field field = Field::kTimelines;
  Comparison op = Comparison::kEqual;
  int value = 0;  // to-move: 0 white, 1 black; check: 0 none, 1 white, 2 black (= and != only)
};

// "TERM, TERM...": timelines, active, turn OP NUMBER; to-move = w|b; check = w|b|none (the side
// in check: the side to move when it is in check, core/legal.h InCheck); checks OP NUMBER (the
// number of boards on which the side to move is in check, core/legal.h BoardsInCheck; 0 when
// not in check).
Result<std::vector<StateTerm>> ParseState(std::string_view text);

struct GameQuery {
  std::vector<BoardPattern> boards;
  std::vector<MaterialCondition> material;
  std::vector<StateTerm> state;
  bool empty() const { return boards.empty() && material.empty() && state.empty(); }
  // Whether a term needs the position itself (check): MatchGame then finds the first action
  // where everything else held, and HoldsAt decides the state from there on.
  bool needs_position() const;
};

// Checks what parsing each part alone cannot: a relative pin on the first board pattern
// (kInvalidArgument saying so).
Status CheckGameQuery(const GameQuery& query);

struct GameMatch {
  int action = -1;                 // the first action after which everything held; -1: never
  std::vector<PatternHit> boards;  // per board pattern, the board it matched there
};

// Whether the conditions on the state and the present's material hold in `pos` (board patterns
// and board material are MatchGame's): the check of a query that needs_position.
bool HoldsAt(const GameQuery& query, const Position& pos);

// Evaluates `query` on the game whose board stream is `stream`. Returns false when the stream is
// damaged. Board patterns without relations stop reading at their first match when nothing else
// is asked; relations and conditions read the whole game. Not thread-safe for the same reader;
// the scratch it keeps is per thread.
bool MatchGame(const GameQuery& query, std::string_view stream, BoardStreamReader& reader,
               GameMatch* match);

}  // namespace fived

#endif  // FIVED_CORE_GAME_QUERY_H_
