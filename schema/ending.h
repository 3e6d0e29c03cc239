// How a game ends, as the database stores it (games.verdict, games.checked_side,
// games.result_conflict): the frozen integers of the verdicts, and the two rules that read a
// verdict against a game's result. The indexer applies them when it stores a game and 5d-query
// when it counts results, so both live here, beside the values they interpret.
//
// The verdict is core/decide.h's Decide on the final position, for the side to move there. A
// checkmate is a loss of that side and a stalemate a draw (RULES.md); playable and unknown say
// nothing about the result.
#ifndef FIVED_SCHEMA_ENDING_H_
#define FIVED_SCHEMA_ENDING_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/decide.h"
#include "core/types.h"

namespace fived {

// games.verdict. Frozen: these integers are in every database of schema version 5 and later, and
// a golden test pins them. NULL (no value) means the final position was not decided.
inline constexpr int64_t kVerdictCheckmate = 1;
inline constexpr int64_t kVerdictStalemate = 2;
inline constexpr int64_t kVerdictPlayable = 3;
inline constexpr int64_t kVerdictUnknown = 4;

// games.checked_side: the side in check at the end (the side to move, when it is in check).
// Frozen, as Color's values in state_postings: 0 white, 1 black; NULL when no side is.
int64_t SideToSql(Color side);
Color SideFromSql(int64_t value);

// The stored integer of a verdict, and back (nullopt for a value no version wrote).
int64_t VerdictToSql(Decision::Verdict verdict);
std::optional<Decision::Verdict> VerdictFromSql(int64_t value);
// A verdict from its name as VerdictName writes it ("checkmate", "stalemate", "playable",
// "unknown"; ASCII case ignored); nullopt for anything else.
std::optional<Decision::Verdict> VerdictFromName(std::string_view name);

// The result a proven ending settles, in the standard tokens: a checkmate of `to_move` is won by
// the other side ("1-0" when black is mated, "0-1" when white is), a stalemate is "1/2-1/2".
// Empty for playable and unknown, which settle nothing.
std::string_view ResultOfEnding(Decision::Verdict verdict, Color to_move);

// Whether a claimed result contradicts the verdict on the final position, where `to_move` is the
// side to move there. `claimed` is a Result header's value or the result token closing the
// movetext, compared exactly: "1-0", "0-1", "1/2-1/2" or "*"; any other text (or none) claims
// nothing and never conflicts. A conflict is
// - a checkmate of the side the result says won or drew;
// - a stalemate with a decisive result;
// - "*" (unfinished) for a game that is over, by checkmate or stalemate.
bool ResultContradicts(std::string_view claimed, Decision::Verdict verdict, Color to_move);

// The result a game counts with in statistics (5d-query tree and stats): its own result
// (games.result) unless that is missing or "*" and the final position is proven over, in which
// case the result the ending settles (ResultOfEnding; a checkmate's loser is the side in check,
// games.checked_side). `derived` says the result came from the ending. A result that is neither
// missing nor "*" is kept as it is, even when it conflicts with the ending: the conflict is
// reported apart (games.result_conflict), and only the game's own record says what was agreed.
struct CountedResult {
  std::string_view result;  // points into `stored` or static storage
  bool derived = false;
};
CountedResult ResultToCount(std::string_view stored, std::optional<Decision::Verdict> verdict,
                            std::optional<Color> checked_side);

}  // namespace fived

#endif  // FIVED_SCHEMA_ENDING_H_
