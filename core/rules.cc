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

}  // namespace fived
