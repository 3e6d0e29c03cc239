// The tactics of a game; see tactics.h.
#include "indexer/tactics.h"

#include "core/action.h"
#include "core/pgn_writer.h"
#include "core/rules.h"
#include "core/tactics.h"

namespace fived {

namespace {

// The moves as canonical move texts joined by ' ', each written in the position before it.
std::string ActionTexts(const Position& before, const std::vector<Move>& moves) {
  Position pos = before;
  std::string text;
  for (const Move& move : moves) {
    if (!text.empty()) text += ' ';
    AppendMoveText(pos, move, &text);
    ApplyMove(&pos, move);
  }
  return text;
}

}  // namespace

GameTactics FindGameTactics(const Replayer& replayer,
                            std::optional<Decision::Verdict> final_verdict, uint64_t budget) {
  GameTactics out;
  const std::vector<PlayedAction>& actions = replayer.actions();
  Position pos = replayer.setup().start;
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
      if (!row.unknown) row.solution = ActionTexts(pos, found.solution);
      out.rows.push_back(std::move(row));
    }
    if (last) break;
    for (const PlayedMove& played : actions[action].moves) ApplyMove(&pos, played.move);
  }
  // Whether the action played from a mate-in-one position mated: only the last action can (after
  // a checkmate no action is legal), and it did when the final position is a proven checkmate.
  // Every earlier one was followed by a legal action, so it did not.
  std::optional<Decision::Verdict> verdict = final_verdict;
  for (PositionTactics& row : out.rows) {
    if (row.unknown || row.action == static_cast<int>(actions.size())) continue;
    if (row.action + 1 < static_cast<int>(actions.size())) {
      row.played = false;
      continue;
    }
    if (!verdict || *verdict == Decision::Verdict::kUnknown) {
      SearchLimits limits;
      limits.promotions = PromotionChoices(replayer.setup(), pos);
      limits.budget = budget;
      verdict = Decide(&pos, limits).verdict;
    }
    if (*verdict != Decision::Verdict::kUnknown) {
      row.played = *verdict == Decision::Verdict::kCheckmate;
    }
  }
  return out;
}

}  // namespace fived
