// Applying moves and judging actions; see action.h.
#include "core/action.h"

#include <cassert>

#include "core/check.h"

namespace fived {

namespace {

// Puts the arriving piece on a square, promoting it if the move says so. A piece that moved is
// no longer unmoved.
void Land(Board* board, Square to, Piece piece, PieceType promotion) {
  if (promotion != PieceType::kNone) piece = Piece(promotion, piece.color());
  board->Set(to, piece.Moved());
}

}  // namespace

MoveEffect ApplyMove(Position* pos, const Move& move) {
  assert(pos->HasTimeline(move.src_timeline));
  assert(pos->TipHalf(move.src_timeline) == move.src_half);
  MoveEffect effect;
  const Board& source = pos->Tip(move.src_timeline);
  const Piece piece = source.at(move.from);
  assert(!piece.empty());
  effect.moved = piece;

  // Each new board is copied where the position keeps it and changed there.
  if (!move.IsJump()) {
    pos->AppendEdited(move.src_timeline, source, [&](Board& next) {
      next.ClearEnPassant();
      effect.captured = next.at(move.to);
      next.Set(move.from, Piece());
      if (move.flags & Move::kEnPassant) {
        const Square victim = source.en_passant_victim();
        effect.captured = next.at(victim);
        next.Set(victim, Piece());
      }
      if (move.flags & Move::kCastle) {
        const Square rook_from{move.rook_from_file, move.from.rank};
        const Square rook_to{move.rook_to_file, move.from.rank};
        const Piece rook = next.at(rook_from);
        next.Set(rook_from, Piece());
        next.Set(rook_to, rook.Moved());
      }
      Land(&next, move.to, piece, move.promotion);
      if (move.flags & Move::kDoubleStep) {
        const Square passed{move.from.file,
                            static_cast<int8_t>((move.from.rank + move.to.rank) / 2)};
        next.SetEnPassant(passed, move.to);
      }
    });
    return effect;
  }

  pos->AppendEdited(move.src_timeline, source, [&](Board& departed) {
    departed.ClearEnPassant();
    departed.Set(move.from, Piece());
  });

  const Board* target = pos->BoardAt(move.dst_timeline, move.dst_half);
  assert(target != nullptr);
  auto arrive = [&](Board& arrived) {
    arrived.ClearEnPassant();
    effect.captured = arrived.at(move.to);
    Land(&arrived, move.to, piece, move.promotion);
  };
  if (pos->TipHalf(move.dst_timeline) == move.dst_half) {
    pos->AppendEdited(move.dst_timeline, *target, arrive);
  } else {
    effect.branching = true;
    effect.new_timeline =
        pos->CreateTimelineEdited(piece.color(), move.dst_half + 1, *target, arrive);
  }
  return effect;
}

ActionVerdict JudgeAction(const Position& pos, Color mover, bool promoting_captures) {
  ActionVerdict verdict;
  const int present = pos.Present();
  if (ColorOf(present) == mover) {
    verdict.problem = ActionVerdict::Problem::kMandatoryBoardsLeft;
    for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
      if (pos.HasTimeline(l) && pos.IsActive(l) && pos.TipHalf(l) == present) {
        verdict.mandatory_left.push_back(l);
      }
    }
    return verdict;
  }
  if (RoyalCapturable(pos, Opponent(mover), promoting_captures)) {
    verdict.problem = ActionVerdict::Problem::kRoyalCapturable;
    // The scan names the capture on the nearest boards (on the royal's own board, when there
    // is one): the plainest one to report.
    movegen_internal::RoyalCapturableByScan(pos, Opponent(mover), promoting_captures,
                                            &verdict.capture);
  }
  return verdict;
}

}  // namespace fived
