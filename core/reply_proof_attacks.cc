// Captures on one board for the reply proof (reply_proof.h): the table of every piece type's
// steps and directions, read backwards from a target square, and whether a royal piece is
// capturable on a board.
#include <algorithm>
#include <vector>

#include "core/reply_proof_internal.h"

namespace fived {

namespace {

using movegen_internal::Vec;

// The captures of every piece type on one board, read backwards from a target square: for each
// direction (dx, dy) a sliding type may walk, and each step a leaping type may take, the set of
// types (bit per PieceType) that move so. Pawns and brawns are apart (their captures depend on
// colour). Built once from the move generator's vectors (movegen_internal::Vectors), so that it
// follows them; SquareAttackedOnBoard (movegen.h) answers the same, walking every type's vectors.
struct BoardAttackTable {
  struct Step {
    int8_t dx, dy;
    uint16_t slides;  // types that slide along (dx, dy)
    uint16_t leaps;   // types that take (dx, dy) as one step
  };
  std::vector<Step> steps;

  BoardAttackTable() {
    for (int t = 1; t < kPieceTypeCount; ++t) {
      const PieceType type = static_cast<PieceType>(t);
      if (IsPawnLike(type)) continue;
      for (const Vec& v : movegen_internal::Vectors(type)) {
        if (v.t != 0 || v.l != 0) continue;
        auto it = std::find_if(steps.begin(), steps.end(),
                               [&](const Step& s) { return s.dx == v.x && s.dy == v.y; });
        if (it == steps.end()) {
          steps.push_back({v.x, v.y, 0, 0});
          it = steps.end() - 1;
        }
        (IsSlider(type) ? it->slides : it->leaps) |= static_cast<uint16_t>(1u << t);
      }
    }
  }
};

}  // namespace

namespace reply_proof_internal {

bool AttackedOnBoard(const Board& board, Square square, Color attacker, bool pawns) {
  static const BoardAttackTable table;
  const int fy = attacker == Color::kWhite ? 1 : -1;
  for (int dx = -1; dx <= 1 && pawns; dx += 2) {
    const int x = square.file - dx, y = square.rank - fy;
    if (!board.Contains(x, y)) continue;
    const Piece p = board.at(x, y);
    if (!p.empty() && p.color() == attacker && IsPawnLike(p.type())) return true;
  }
  for (const BoardAttackTable::Step& step : table.steps) {
    int x = square.file - step.dx, y = square.rank - step.dy;
    if (!board.Contains(x, y)) continue;
    Piece p = board.at(x, y);
    const uint16_t near = step.slides | step.leaps;
    if (!p.empty()) {
      if (p.color() == attacker && ((near >> static_cast<int>(p.type())) & 1)) return true;
      continue;
    }
    if (step.slides == 0) continue;
    for (;;) {
      x -= step.dx;
      y -= step.dy;
      if (!board.Contains(x, y)) break;
      p = board.at(x, y);
      if (p.empty()) continue;
      if (p.color() == attacker && ((step.slides >> static_cast<int>(p.type())) & 1)) return true;
      break;
    }
  }
  return false;
}

bool RoyalAttackedOnBoard(const Board& board, Color attacker, bool surely) {
  const int last_rank = attacker == Color::kWhite ? board.height() - 1 : 0;
  return AnyRoyal(board, Opponent(attacker), [&](Square square) {
    return AttackedOnBoard(board, square, attacker, !surely || square.rank != last_rank);
  });
}

}  // namespace reply_proof_internal

}  // namespace fived
