// The rules a game is played under; see rules.h.
#include "core/rules.h"

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
  // Board by board, stopping at the first such piece: almost always on the first board.
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    if (!pos.HasTimeline(l)) continue;
    for (int h = pos.StartHalf(l); h <= pos.TipHalf(l); ++h) {
      const Board& board = *pos.BoardAt(l, h);
      for (int rank = 0; rank < board.height(); ++rank) {
        for (int file = 0; file < board.width(); ++file) {
          const Piece piece = board.at(file, rank);
          if (!piece.empty() && !IsRoyal(piece.type()) && !IsPawnLike(piece.type())) return true;
        }
      }
    }
  }
  return false;
}

}  // namespace fived
