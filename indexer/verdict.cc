// The verdict on a game's final position; see verdict.h.
#include "indexer/verdict.h"

#include <optional>

#include "core/action.h"
#include "core/pgn_writer.h"

namespace fived {

FinalVerdict DecideFinalPosition(const Replayer& replayer, uint64_t budget) {
  // Usually the replay's position is the final one and is decided as it is, without a copy; an
  // unfinished last action's moves are on it, so then the position after the last submitted
  // action is rebuilt.
  std::optional<Position> rebuilt;
  if (!replayer.unfinished().moves.empty()) {
    rebuilt.emplace(replayer.setup().start);
    for (const PlayedAction& action : replayer.actions()) {
      for (const PlayedMove& played : action.moves) ApplyMove(&*rebuilt, played.move);
    }
  }
  const Position& final_position = rebuilt ? *rebuilt : replayer.position();

  SearchLimits limits;
  limits.promotions = PromotionChoices(replayer.setup(), final_position);
  limits.budget = budget;
  Decision decision = Decide(final_position, limits);

  FinalVerdict out;
  out.verdict = decision.verdict;
  out.to_move = final_position.ToMove();
  out.work = decision.work;
  switch (decision.verdict) {
    case Decision::Verdict::kCheckmate:
      out.in_check = true;
      break;
    case Decision::Verdict::kStalemate:
      out.in_check = false;
      break;
    case Decision::Verdict::kPlayable: {
      // A move's text needs the position before it, so the witness is played on a copy (checked
      // for check first, which InCheck leaves as it was).
      Position scratch = final_position;
      out.in_check = InCheck(&scratch);
      for (const Move& move : decision.witness) {
        if (!out.witness.empty()) out.witness += ' ';
        AppendMoveText(scratch, move, &out.witness);
        ApplyMove(&scratch, move);
      }
      break;
    }
    case Decision::Verdict::kUnknown:
      out.in_check = InCheck(final_position);
      break;
  }
  return out;
}

}  // namespace fived
