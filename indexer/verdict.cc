// The verdict on a game's final position; see verdict.h.
#include "indexer/verdict.h"

#include <optional>

#include "core/action.h"
#include "core/pgn_writer.h"

namespace fived {

FinalVerdict DecideFinalPosition(Replayer* replayer, uint64_t budget) {
  // Usually the replay's position is the final one and is decided in place, without a copy; an
  // unfinished last action's moves are on it, so then the position after the last submitted
  // action is rebuilt.
  std::optional<Position> rebuilt;
  if (!replayer->unfinished().moves.empty()) {
    rebuilt.emplace(replayer->setup().start);
    for (const PlayedAction& action : replayer->actions()) {
      for (const PlayedMove& played : action.moves) ApplyMove(&*rebuilt, played.move);
    }
  }
  Position& final_position = rebuilt ? *rebuilt : *replayer->mutable_position();

  SearchLimits limits;
  limits.promotions = PromotionChoices(replayer->setup(), final_position);
  limits.budget = budget;
  Decision decision = Decide(&final_position, limits);

  FinalVerdict out;
  out.verdict = decision.verdict;
  out.to_move = final_position.ToMove();
  out.work = decision.work;
  out.in_check = decision.in_check;
  if (decision.verdict == Decision::Verdict::kPlayable) {
    // A move's text needs the position before it: the witness is played, then rolled back.
    const Position::Mark mark = final_position.GetMark();
    for (const Move& move : decision.witness) {
      if (!out.witness.empty()) out.witness += ' ';
      AppendMoveText(final_position, move, &out.witness);
      ApplyMove(&final_position, move);
    }
    final_position.Rollback(mark);
  }
  return out;
}

}  // namespace fived
