// Movement tables, PieceReaches and castling's attack test; the generator itself is in
// movegen_inl.h, the check test in check.cc.
#include "core/movegen.h"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cassert>
#include <cstdlib>
#include <vector>

namespace fived {

namespace movegen_internal {

namespace {

// A vector with components in -2..2 as an index in [0, 625).
int VectorIndex(int x, int y, int t, int l) {
  return (((x + 2) * 5 + (y + 2)) * 5 + (t + 2)) * 5 + (l + 2);
}

// For each piece type, its unit vectors. Built once, read-only afterwards (thread-safe).
struct Tables {
  std::array<std::vector<Vec>, kPieceTypeCount> vectors;
  std::array<std::vector<VecGroup>, kPieceTypeCount> groups;
  // has[type][index]: whether the type has the vector of VectorIndex(index) (components -2..2).
  std::array<std::bitset<625>, kPieceTypeCount> has;

  Tables() {
    // Every vector with components in {-1, 0, 1}, grouped by how many axes move.
    std::array<std::vector<Vec>, 5> by_axes;
    for (int x = -1; x <= 1; ++x) {
      for (int y = -1; y <= 1; ++y) {
        for (int t = -1; t <= 1; ++t) {
          for (int l = -1; l <= 1; ++l) {
            const int n = std::abs(x) + std::abs(y) + std::abs(t) + std::abs(l);
            if (n == 0) continue;
            by_axes[n].push_back(Vec{static_cast<int8_t>(x), static_cast<int8_t>(y),
                                     static_cast<int8_t>(t), static_cast<int8_t>(l)});
          }
        }
      }
    }
    auto set = [&](PieceType type, std::initializer_list<int> axes) {
      auto& out = vectors[static_cast<int>(type)];
      for (int n : axes) out.insert(out.end(), by_axes[n].begin(), by_axes[n].end());
    };
    set(PieceType::kRook, {1});
    set(PieceType::kBishop, {2});
    set(PieceType::kUnicorn, {3});
    set(PieceType::kDragon, {4});
    set(PieceType::kQueen, {1, 2, 3, 4});
    set(PieceType::kRoyalQueen, {1, 2, 3, 4});
    set(PieceType::kPrincess, {1, 2});
    set(PieceType::kKing, {1, 2, 3, 4});
    set(PieceType::kCommonKing, {1, 2, 3, 4});
    // Knight: two along one axis and one along another.
    auto& knight = vectors[static_cast<int>(PieceType::kKnight)];
    for (int a = 0; a < 4; ++a) {
      for (int b = 0; b < 4; ++b) {
        if (a == b) continue;
        for (int sa = -2; sa <= 2; sa += 4) {
          for (int sb = -1; sb <= 1; sb += 2) {
            int8_t c[4] = {0, 0, 0, 0};
            c[a] = static_cast<int8_t>(sa);
            c[b] = static_cast<int8_t>(sb);
            knight.push_back(Vec{c[0], c[1], c[2], c[3]});
          }
        }
      }
    }
    for (int type = 0; type < kPieceTypeCount; ++type) {
      for (const Vec& v : vectors[type]) has[type].set(VectorIndex(v.x, v.y, v.t, v.l));
    }
    // Sort each list by (t, l) and cut it into groups.
    for (int type = 0; type < kPieceTypeCount; ++type) {
      auto& list = vectors[type];
      std::stable_sort(list.begin(), list.end(), [](const Vec& a, const Vec& b) {
        return a.t != b.t ? a.t < b.t : a.l < b.l;
      });
      for (size_t i = 0; i < list.size();) {
        size_t j = i;
        while (j < list.size() && list[j].t == list[i].t && list[j].l == list[i].l) ++j;
        bool pure = false;
        for (size_t k = i; k < j; ++k) pure = pure || (list[k].x == 0 && list[k].y == 0);
        groups[type].push_back(
            VecGroup{list[i].t, list[i].l, pure, std::span<const Vec>(list.data() + i, j - i)});
        i = j;
      }
    }
  }
  Tables(const Tables&) = delete;
};

const Tables& GetTables() {
  static const Tables tables;
  return tables;
}

}  // namespace

std::span<const Vec> Vectors(PieceType type) { return GetTables().vectors[static_cast<int>(type)]; }

bool HasVector(PieceType type, int x, int y, int t, int l) {
  if (std::abs(x) > 2 || std::abs(y) > 2 || std::abs(t) > 2 || std::abs(l) > 2) return false;
  return GetTables().has[static_cast<int>(type)].test(VectorIndex(x, y, t, l));
}

std::span<const VecGroup> VectorGroups(PieceType type) {
  return GetTables().groups[static_cast<int>(type)];
}

}  // namespace movegen_internal

bool PieceTypeMayLandOnBoard(PieceType type, int dt, int dl, int width, int height) {
  if (IsPawnLike(type)) return MayLandOnBoard(dt, dl);
  const bool slides = IsSlider(type);
  for (const movegen_internal::VecGroup& group : movegen_internal::VectorGroups(type)) {
    const int k = movegen_internal::GroupSteps(group, dt, dl);
    if (k == 0) continue;
    if (k == 1) return true;
    if (!slides) continue;
    if (group.pure) return true;
    for (const movegen_internal::Vec& v : group.vectors) {
      if (std::abs(k * v.x) < width && std::abs(k * v.y) < height) return true;
    }
  }
  return false;
}

bool PieceReaches(const MoveView& view, int timeline, int half_turn, Square from, Piece piece,
                  int dst_timeline, int dst_half, Square to, Move* move) {
  using movegen_internal::HasVector;
  assert(!IsPawnLike(piece.type()));
  const int dh = dst_half - half_turn;
  if (dh % 2 != 0) return false;  // a board of the other colour
  const int d[4] = {to.file - from.file, to.rank - from.rank, dh / 2, dst_timeline - timeline};
  int k = 0;
  for (int c : d) k = std::max(k, std::abs(c));
  if (k == 0) return false;
  int v[4];
  if (IsSlider(piece.type())) {
    // A slider reaches the square k steps along a unit vector.
    for (int i = 0; i < 4; ++i) {
      if (d[i] != 0 && std::abs(d[i]) != k) return false;
      v[i] = d[i] / k;
    }
  } else {
    std::copy(std::begin(d), std::end(d), v);
    k = 1;
  }
  if (!HasVector(piece.type(), v[0], v[1], v[2], v[3])) return false;
  const Board* target = view.At(dst_timeline, dst_half);
  if (target == nullptr || !target->Contains(to.file, to.rank)) return false;
  const Piece there = target->at(to);
  if (!there.empty() && there.color() == piece.color()) return false;
  // The squares passed over (on the boards between, which must exist) are empty.
  for (int j = 1; j < k; ++j) {
    const Board* b = view.At(timeline + j * v[3], half_turn + 2 * j * v[2]);
    if (b == nullptr || !b->at(from.file + j * v[0], from.rank + j * v[1]).empty()) return false;
  }
  if (move != nullptr) {
    *move = Move();
    move->src_timeline = static_cast<int16_t>(timeline);
    move->src_half = static_cast<int16_t>(half_turn);
    move->from = from;
    move->dst_timeline = static_cast<int16_t>(dst_timeline);
    move->dst_half = static_cast<int16_t>(dst_half);
    move->to = to;
  }
  return true;
}

bool SquareAttackedOnBoard(const Board& board, Square square, Color attacker) {
  // Attacks are read backwards: a piece of the attacker's kind standing where a piece on
  // `square` could reach it by the same movement (pawns are asymmetric and handled apart).
  using movegen_internal::Vec;
  using movegen_internal::Vectors;
  const int fy = attacker == Color::kWhite ? 1 : -1;
  for (int dx = -1; dx <= 1; dx += 2) {
    const int x = square.file - dx, y = square.rank - fy;
    if (!board.Contains(x, y)) continue;
    const Piece p = board.at(x, y);
    if (!p.empty() && p.color() == attacker && IsPawnLike(p.type())) return true;
  }
  for (int t = 1; t < kPieceTypeCount; ++t) {
    const PieceType type = static_cast<PieceType>(t);
    if (IsPawnLike(type)) continue;
    const bool slides = IsSlider(type);
    for (const Vec& v : Vectors(type)) {
      if (v.t != 0 || v.l != 0) continue;
      int x = square.file, y = square.rank;
      while (true) {
        x -= v.x;
        y -= v.y;
        if (!board.Contains(x, y)) break;
        const Piece p = board.at(x, y);
        if (!p.empty()) {
          if (p.color() == attacker && p.type() == type) return true;
          break;
        }
        if (!slides) break;
      }
    }
  }
  return false;
}

bool StillAMove(const Position& pos, const Move& move, Color color, PromotionSet promotions) {
  const Board* source = pos.BoardAt(move.src_timeline, move.src_half);
  if (source == nullptr || !pos.HasTimeline(move.src_timeline) ||
      pos.TipHalf(move.src_timeline) != move.src_half || ColorOf(move.src_half) != color) {
    return false;
  }
  const Piece piece = source->at(move.from);
  if (piece.empty() || piece.color() != color) return false;
  bool generated = false;
  ForEachPieceMove(MoveView(pos), move.src_timeline, move.src_half, move.from, piece, GenMode::kAll,
                   promotions, [&](const Move& candidate, Piece) {
                     generated = candidate == move;
                     return generated;
                   });
  return generated;
}

}  // namespace fived
