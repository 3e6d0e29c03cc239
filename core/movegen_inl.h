// Inline body of ForEachPieceMove (movegen.h): kept in a header so that each visitor is inlined
// into the loop that calls it.
#ifndef FIVED_CORE_MOVEGEN_INL_H_
#define FIVED_CORE_MOVEGEN_INL_H_

namespace fived {

namespace movegen_internal {

// Emits a move to (l, h, x, y), once per allowed promotion when a pawn-like piece reaches its
// last rank. Returns true if the visitor stopped.
template <typename Visitor>
bool Emit(Move move, Piece piece, Piece captured, int height, GenMode mode, PromotionSet promotions,
          Visitor& visit) {
  if (IsPawnLike(piece.type())) {
    const int last = piece.color() == Color::kWhite ? height - 1 : 0;
    // Onto the last rank only with a piece to promote to; captures once, with the first one
    // (the check test asks whether a capture exists, not which piece it makes).
    if (move.to.rank == last) {
      for (int t = 1; t < kPieceTypeCount; ++t) {
        const PieceType type = static_cast<PieceType>(t);
        if (!promotions.Contains(type)) continue;
        move.promotion = type;
        if (visit(move, captured)) return true;
        if (mode == GenMode::kCaptures) break;
      }
      return false;
    }
  }
  return visit(move, captured);
}

template <typename Visitor>
bool PawnMoves(const MoveView& view, int l, int h, Square from, Piece piece, GenMode mode,
               PromotionSet promotions, Visitor& visit) {
  const Color color = piece.color();
  const int fy = color == Color::kWhite ? 1 : -1;
  const int fl = color == Color::kWhite ? -1 : 1;
  const Board* here = view.At(l, h);
  const int height = here->height();
  Move base;
  base.src_timeline = static_cast<int16_t>(l);
  base.src_half = static_cast<int16_t>(h);
  base.from = from;

  auto target = [&](int x, int y, int t, int dl, const Board** board) {
    *board = view.At(l + dl, h + 2 * t);
    return *board != nullptr && (*board)->Contains(x, y);
  };
  auto make = [&](int x, int y, int t, int dl) {
    Move m = base;
    m.dst_timeline = static_cast<int16_t>(l + dl);
    m.dst_half = static_cast<int16_t>(h + 2 * t);
    m.to = Square{static_cast<int8_t>(x), static_cast<int8_t>(y)};
    return m;
  };

  if (mode == GenMode::kAll) {
    // Quiet steps along the rank axis and the timeline axis, with the unmoved double step.
    for (int axis = 0; axis < 2; ++axis) {
      const int dy = axis == 0 ? fy : 0;
      const int dl = axis == 0 ? 0 : fl;
      const Board* b = nullptr;
      if (!target(from.file, from.rank + dy, 0, dl, &b) ||
          !b->at(from.file, from.rank + dy).empty()) {
        continue;
      }
      if (Emit(make(from.file, from.rank + dy, 0, dl), piece, Piece(), height, mode, promotions,
               visit)) {
        return true;
      }
      if (!piece.unmoved()) continue;
      if (!target(from.file, from.rank + 2 * dy, 0, 2 * dl, &b) ||
          !b->at(from.file, from.rank + 2 * dy).empty()) {
        continue;
      }
      Move m = make(from.file, from.rank + 2 * dy, 0, 2 * dl);
      m.flags |= Move::kDoubleStep;
      if (Emit(m, piece, Piece(), height, mode, promotions, visit)) return true;
    }
  }

  // Captures (kPawnCaptures, kBrawnCaptures).
  auto try_capture = [&](const Vec& c) {
    const int x = from.file + c.x;
    const int y = from.rank + c.y * fy;
    const int dl = c.l * fl;
    const Board* b = nullptr;
    if (!target(x, y, c.t, dl, &b)) return false;
    const Piece victim = b->at(x, y);
    if (!victim.empty()) {
      if (victim.color() == color) return false;
      return Emit(make(x, y, c.t, dl), piece, victim, height, mode, promotions, visit);
    }
    // En passant: same board, onto the square a pawn just passed over.
    if (mode == GenMode::kAll && c.t == 0 && dl == 0 && b->has_en_passant() &&
        b->en_passant_square() == Square{static_cast<int8_t>(x), static_cast<int8_t>(y)}) {
      const Piece passed = b->at(b->en_passant_victim());
      if (!passed.empty() && passed.color() != color && IsPawnLike(passed.type())) {
        Move m = make(x, y, 0, 0);
        m.flags |= Move::kEnPassant;
        return Emit(m, piece, passed, height, mode, promotions, visit);
      }
    }
    return false;
  };
  for (const Vec& c : kPawnCaptures) {
    if (try_capture(c)) return true;
  }
  if (piece.type() == PieceType::kBrawn) {
    for (const Vec& c : kBrawnCaptures) {
      if (try_capture(c)) return true;
    }
  }
  return false;
}

template <typename Visitor>
bool CastlingMoves(const MoveView& view, int l, int h, Square from, Piece king, Visitor& visit) {
  const Board& board = *view.At(l, h);
  const Color enemy = Opponent(king.color());
  bool checked_king_square = false;
  for (int dir = -1; dir <= 1; dir += 2) {
    int x = from.file + dir;
    while (board.Contains(x, from.rank) && board.at(x, from.rank).empty()) x += dir;
    if (!board.Contains(x, from.rank)) continue;
    const Piece rook = board.at(x, from.rank);
    if (rook.type() != PieceType::kRook || rook.color() != king.color() || !rook.unmoved())
      continue;
    const int crossed = from.file + dir;
    const int landing = from.file + 2 * dir;
    // The king needs its two squares; the rook may stand on the landing square's far side only.
    if ((x - landing) * dir < 1) continue;
    if (!checked_king_square) {
      if (SquareAttackedOnBoard(board, from, enemy)) return false;
      checked_king_square = true;
    }
    const Square crossed_sq{static_cast<int8_t>(crossed), from.rank};
    const Square landing_sq{static_cast<int8_t>(landing), from.rank};
    if (SquareAttackedOnBoard(board, crossed_sq, enemy) ||
        SquareAttackedOnBoard(board, landing_sq, enemy)) {
      continue;
    }
    Move m;
    m.src_timeline = m.dst_timeline = static_cast<int16_t>(l);
    m.src_half = m.dst_half = static_cast<int16_t>(h);
    m.from = from;
    m.to = landing_sq;
    m.flags = Move::kCastle;
    m.rook_from_file = static_cast<int8_t>(x);
    m.rook_to_file = static_cast<int8_t>(crossed);
    if (visit(m, Piece())) return true;
  }
  return false;
}

}  // namespace movegen_internal

template <typename Visitor>
bool ForEachPieceMove(const MoveView& view, int timeline, int half_turn, Square from, Piece piece,
                      GenMode mode, PromotionSet promotions, Visitor&& visit,
                      const TargetBoard* only_target, int before_half) {
  using namespace movegen_internal;
  const PieceType type = piece.type();
  if (IsPawnLike(type)) {
    return PawnMoves(view, timeline, half_turn, from, piece, mode, promotions, visit);
  }
  const Color color = piece.color();
  const bool slides = IsSlider(type);
  Move base;
  base.src_timeline = static_cast<int16_t>(timeline);
  base.src_half = static_cast<int16_t>(half_turn);
  base.from = from;
  int target_dl = 0, target_dt = 0;
  if (only_target != nullptr) {
    const int dh = only_target->half_turn - half_turn;
    if (dh % 2 != 0) return false;  // a board of the other colour: no move lands there
    target_dl = only_target->timeline - timeline;
    target_dt = dh / 2;
  }
  for (const VecGroup& group : VectorGroups(type)) {
    // A line's first board is its latest when it goes back in time, its earliest otherwise.
    if (group.t >= 0 && half_turn + 2 * group.t >= before_half) continue;
    if (only_target != nullptr) {
      // The group's line passes through the target (in one step for leapers).
      const int k = GroupSteps(group, target_dt, target_dl);
      if (k == 0 || (!slides && k != 1)) continue;
    }
    const Board* first = view.At(timeline + group.l, half_turn + 2 * group.t);
    if (first == nullptr) continue;
    for (const Vec& v : group.vectors) {
      int x = from.file, y = from.rank, h = half_turn, l = timeline;
      const Board* b = first;
      for (int step = 0;; ++step) {
        x += v.x;
        y += v.y;
        h += 2 * v.t;
        l += v.l;
        if (step > 0) b = view.At(l, h);
        if (b == nullptr || !b->Contains(x, y)) break;
        const Piece there = b->at(x, y);
        if (!there.empty() && there.color() == color) break;
        if (mode == GenMode::kAll || !there.empty()) {
          Move m = base;
          m.dst_timeline = static_cast<int16_t>(l);
          m.dst_half = static_cast<int16_t>(h);
          m.to = Square{static_cast<int8_t>(x), static_cast<int8_t>(y)};
          if (visit(m, there)) return true;
        }
        if (!there.empty() || !slides) break;
      }
    }
  }
  if (mode == GenMode::kAll && type == PieceType::kKing && piece.unmoved() &&
      half_turn < before_half && (only_target == nullptr || (target_dl == 0 && target_dt == 0))) {
    return CastlingMoves(view, timeline, half_turn, from, piece, visit);
  }
  return false;
}

}  // namespace fived

#endif  // FIVED_CORE_MOVEGEN_INL_H_
