// The rules a game is played under; see rules.h.
#include "core/rules.h"

#include <algorithm>
#include <climits>

namespace fived {

PromotionSet PromotionChoices(const GameSetup& setup, const Position& pos) {
  if (setup.promotions_written) return setup.promotions;
  PromotionSet choices;
  const Position& boards = setup.variant == "custom" ? pos : setup.start;
  boards.ForEachBoard([&](int, int, const Board& board) {
    for (int rank = 0; rank < board.height(); ++rank) {
      for (int file = 0; file < board.width(); ++file) {
        const Piece piece = board.at(file, rank);
        if (piece.empty() || IsRoyal(piece.type()) || IsPawnLike(piece.type())) continue;
        choices.Add(piece.type());
      }
    }
  });
  return choices;
}

bool PromotingCapturesCount(const Position& pos) {
  // Stopping at the first such piece: almost always on the first board.
  return pos.AnyBoard([](int, int, const Board& board) {
    for (int rank = 0; rank < board.height(); ++rank) {
      for (int file = 0; file < board.width(); ++file) {
        const Piece piece = board.at(file, rank);
        if (!piece.empty() && !IsRoyal(piece.type()) && !IsPawnLike(piece.type())) return true;
      }
    }
    return false;
  });
}

int LatestPresentAfterBranching(const Position& pos, int created) {
  const Color mover = pos.ToMove(), opponent = Opponent(mover);
  const int mine = pos.CreatedBy(mover), theirs = pos.CreatedBy(opponent);
  int latest = INT_MAX;
  // The opponent's i-th inactive timeline is the (mine + 1 + i)-th they created.
  for (int i = 1; i <= std::max(created, 1) && mine + 1 + i <= theirs; ++i) {
    const int timeline = opponent == Color::kWhite ? pos.initial_max() + mine + 1 + i
                                                   : pos.initial_min() - mine - 1 - i;
    if (!pos.HasTimeline(timeline)) break;
    const int tip = pos.TipHalf(timeline);
    latest = std::min(latest, tip + (ColorOf(tip) == mover ? 1 : 0));
  }
  return latest;
}

}  // namespace fived
