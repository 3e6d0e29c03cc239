// Deciding a position: whether the player to move is checkmated, stalemated or can play (with one
// legal action to show), proved, never guessed.
//
// Decide tries the cheap ways first and the exhaustive one last:
// 1. A quick try (quick_try.cc) plays the mandatory boards one after the other, each by one of
//    its own moves or by a piece arriving from another playable board, the boards whose pass
//    alone would expose a royal piece first (they have the fewest ways out). Most playable
//    positions end here.
// 2. A local proof (local_proof.cc): when nothing the mover can do takes the present away from
//    them (no timeline they could create or activate would be active before the present), every
//    mandatory board must be played. If one of them has no choice that survives on its own
//    (every move on it, every piece leaving it and every piece arriving on it exposes a royal
//    piece through boards that this choice alone fixes), no legal action exists. Most checkmates
//    end here. When no board fails alone, a board whose pass exposes a royal piece none of whose
//    surviving choices can be played together with some choice of every other board that must
//    be played proves the same (the pair proof).
// 3. The hypercuboid search (core/hypercuboid.h), which proves or finds within the work budget.
// Steps 1 and 2 only ever claim what they have shown: an action they name is checked like any
// other, and step 2 proves nothing unless every choice of the board fails whatever else the
// action holds (see local_proof.cc for why each failure is final).
//
// Thread-safe: no state is kept between calls.
#ifndef FIVED_CORE_DECIDE_H_
#define FIVED_CORE_DECIDE_H_

#include <cstdint>
#include <vector>

#include "core/legal.h"
#include "core/movegen.h"
#include "core/position.h"

namespace fived {

// Whether the player to move can play, and if not, why.
struct Decision {
  enum class Verdict : uint8_t { kCheckmate, kStalemate, kPlayable, kUnknown };
  Verdict verdict = Verdict::kUnknown;
  std::vector<Move> witness;  // one legal action in play order, for kPlayable
  uint64_t work = 0;          // moves tried
  bool in_check = false;      // InCheck (legal.h) of the position, whatever the verdict
  // Which step settled it (for benchmarks and tests): the quick try, the local proof or the
  // hypercuboid search (also for kUnknown, when its budget ran out).
  enum class Step : uint8_t { kQuickTry, kLocalProof, kSearch };
  Step step = Step::kSearch;
};

// Decides `pos` for pos.ToMove(): kPlayable with a witness, kCheckmate (InCheck, no legal action)
// or kStalemate (not in check, no legal action) only when proved, kUnknown when limits.budget
// (moves tried, 0 for none) ran out first.
Decision Decide(const Position& pos, const SearchLimits& limits);
// The same without copying the position: moves are played on *pos and rolled back, so that it
// is left as it was (keys included).
Decision Decide(Position* pos, const SearchLimits& limits);

// "checkmate", "stalemate", "playable", "unknown".
const char* VerdictName(Decision::Verdict verdict);

}  // namespace fived

#endif  // FIVED_CORE_DECIDE_H_
