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
      if (!row.unknown) row.solution = ActionTexts(pos, found.solution);
      out.rows.push_back(std::move(row));
    }
    if (last) break;
    if (action + 1 == actions.size()) before_last = pos;
    for (const PlayedMove& played : actions[action].moves) ApplyMove(&pos, played.move);
  }
  if (out.rows.empty() || !before_last) return out;
  // Whether the action played from a mate-in-one position mated: only the last action can (after
  // a checkmate no action is legal), and it did when the final position is a proven checkmate.
  // Every earlier one was followed by a legal action, so it did not.
  std::optional<Decision::Verdict> verdict = final_verdict;
  if (!verdict || *verdict == Decision::Verdict::kUnknown) {
    SearchLimits limits;
    limits.promotions = PromotionChoices(replayer.setup(), pos);
    limits.budget = budget;
    verdict = Decide(&pos, limits).verdict;
  }
  const int last_played = static_cast<int>(actions.size()) - 1;
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
        row.solution = ActionTexts(*before_last, moves);
      }
      if (!row.unknown) row.played = mated;
    }
  }
  return out;
}

}  // namespace fived
