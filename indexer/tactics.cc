// The tactics of a game; see tactics.h.
#include "indexer/tactics.h"

#include <algorithm>

#include "core/action.h"
#include "core/pgn_writer.h"
#include "core/rules.h"
#include "core/tactics.h"

namespace fived {

GameTactics FindGameTactics(const Replayer& replayer,
                            std::optional<Decision::Verdict> final_verdict, uint64_t budget) {
  GameTactics out;
  const std::vector<PlayedAction>& actions = replayer.actions();
  Position pos = replayer.setup().start;
  std::optional<Position> before_last;  // the position the last action was played from
  for (size_t action = 0;; ++action) {
    MateInOneLimits limits;
    limits.search.promotions = PromotionChoices(replayer.setup(), pos);
    limits.search.budget = budget;
    limits.reply_budget = budget;
    const MateInOne found = FindMateInOne(pos, limits);
    ++out.positions;
    const bool last = action == actions.size();
    if (found.answer != MateInOne::Answer::kNone) {
      PositionTactics row;
      row.action = static_cast<int>(action);
      row.side = pos.ToMove();
      row.unknown = found.answer == MateInOne::Answer::kUnknown;
      row.mating = found.mating;
      row.complete = found.complete;
      if (!row.unknown) row.solution = ActionText(pos, found.solution);
      out.rows.push_back(std::move(row));
    }
    if (last) break;
    if (action + 1 == actions.size()) before_last = pos;
    for (const PlayedMove& played : actions[action].moves) ApplyMove(&pos, played.move);
  }
  if (!before_last) return out;
  // Whether the action played from a mate-in-one position mated: only the last action can (after
  // a checkmate no action is legal), and it did when the final position is a proven checkmate.
  // Every earlier one was followed by a legal action, so it did not.
  const int last_played = static_cast<int>(actions.size()) - 1;
  auto row_of_last =
      std::find_if(out.rows.begin(), out.rows.end(),
                   [&](const PositionTactics& row) { return row.action >= last_played; });
  const bool last_has_row = row_of_last != out.rows.end() && row_of_last->action == last_played;
  if (out.rows.empty() && final_verdict && *final_verdict != Decision::Verdict::kCheckmate) {
    return out;
  }
  std::optional<Decision::Verdict> verdict = final_verdict;
  if (!verdict || *verdict == Decision::Verdict::kUnknown) {
    SearchLimits limits;
    limits.promotions = PromotionChoices(replayer.setup(), pos);
    limits.budget = budget;
    verdict = Decide(&pos, limits).verdict;
  }
  if (!last_has_row && *verdict == Decision::Verdict::kCheckmate) {
    // The game ends in a proven checkmate, yet the search found no mate among the actions it
    // offers: the action played promotes to a piece the replay accepts but the players' choices
    // do not offer (core/rules.h). The game proves a mate in one all the same; claiming none
    // would contradict its ending. Settled below, from the action played.
    PositionTactics row;
    row.action = last_played;
    row.side = before_last->ToMove();
    row.unknown = true;
    out.rows.insert(row_of_last, std::move(row));
  }
  for (PositionTactics& row : out.rows) {
    if (row.action < last_played) {
      if (!row.unknown) row.played = false;
    } else if (row.action == last_played && *verdict != Decision::Verdict::kUnknown) {
      const bool mated = *verdict == Decision::Verdict::kCheckmate;
      if (row.unknown && mated) {
        // The search ran out of budget, but the game proves a mate in one: the action played,
        // legal (the replay accepted it) and followed by a proven checkmate.
        std::vector<Move> moves;
        for (const PlayedMove& played : actions.back().moves) moves.push_back(played.move);
        row.unknown = false;
        row.mating = 1;
        row.complete = false;
        row.solution = ActionText(*before_last, moves);
      }
      if (!row.unknown) row.played = mated;
    }
  }
  return out;
}

}  // namespace fived
