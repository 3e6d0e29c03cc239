// Mates in one; see tactics.h.
#include "core/tactics.h"

#include "core/decide.h"

namespace fived {

MateInOne FindMateInOne(const Position& pos, const MateInOneLimits& limits) {
  MateInOne out;
  SearchLimits reply;
  reply.promotions = limits.search.promotions;
  reply.budget = limits.reply_budget;
  bool stopped_early = false;
  Position after_copy;
  const SearchStats stats = ForEachLegalAction(
      pos, limits.search, [&](const std::vector<Move>& moves, const Position& after) {
        ++out.actions;
        after_copy = after;
        // A checkmate needs a check: the rest are not decided.
        if (!InCheck(&after_copy)) return false;
        const Decision decision = Decide(&after_copy, reply);
        out.work += decision.work;
        if (decision.verdict == Decision::Verdict::kUnknown) {
          ++out.undecided;
        } else if (decision.verdict == Decision::Verdict::kCheckmate) {
          if (out.mating++ == 0) out.solution = moves;
          if (limits.stop_at_first) {
            stopped_early = true;
            return true;
          }
        }
        return false;
      });
  out.work += stats.work;
  out.complete = stats.end == SearchEnd::kExhausted && !stopped_early && out.undecided == 0;
  if (out.mating > 0) {
    out.answer = MateInOne::Answer::kMates;
  } else if (out.complete) {
    out.answer = MateInOne::Answer::kNone;
  } else {
    out.answer = MateInOne::Answer::kUnknown;
  }
  return out;
}

const char* MateInOneAnswerName(MateInOne::Answer answer) {
  switch (answer) {
    case MateInOne::Answer::kMates:
      return "mates";
    case MateInOne::Answer::kNone:
      return "none";
    case MateInOne::Answer::kUnknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace fived
