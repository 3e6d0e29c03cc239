// The check test: whether a royal piece can be captured in one move; see check.h.
#include "core/check.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <vector>

namespace fived {

namespace {

using movegen_internal::Vec;
using movegen_internal::VecGroup;
using movegen_internal::VectorGroups;

// Boards along a line, reused between calls (one per thread).
std::vector<const Board*>& LineScratch() {
  thread_local std::vector<const Board*> line;
  return line;
}

// Whether a slider moves along vectors that change `axes` axes, as a bit table by piece type:
// bit n set when n axes are allowed.
bool SliderUses(PieceType type, int axes) {
  static constexpr uint8_t kAxes[kPieceTypeCount] = {
      0,     // none
      0,     // pawn
      0,     // brawn
      0,     // king
      0,     // common king
      0x1e,  // queen: 1 to 4
      0x1e,  // royal queen
      0x06,  // princess: 1 or 2
      0,     // knight
      0x02,  // rook: 1
      0x04,  // bishop: 2
      0x08,  // unicorn: 3
      0x10,  // dragon: 4
  };
  return (kAxes[static_cast<int>(type)] >> axes) & 1;
}

Move MakeMove(int l, int h, Square from, int dst_l, int dst_h, Square to) {
  Move m;
  m.src_timeline = static_cast<int16_t>(l);
  m.src_half = static_cast<int16_t>(h);
  m.from = from;
  m.dst_timeline = static_cast<int16_t>(dst_l);
  m.dst_half = static_cast<int16_t>(dst_h);
  m.to = to;
  return m;
}

// Which captures of a tip to look at: those onto the boards at offsets (dt, dl) in -2..2 (bit
// (dt + 2) * 5 + dl + 2 of `near`; the centre bit, the tip's own board, also covers sliders on
// it), and those of sliders along the line of boards in time and timeline direction (gt, gl)
// (bit (gt + 1) * 3 + gl + 1 of `lines`, the centre unused).
struct Reach {
  uint32_t near = (uint32_t{1} << 25) - 1;
  uint16_t lines = 0x1ef;
  bool Near(int dt, int dl) const { return (near >> ((dt + 2) * 5 + dl + 2)) & 1; }
  bool Line(int gt, int gl) const { return (lines >> ((gt + 1) * 3 + gl + 1)) & 1; }
  bool Own() const { return Near(0, 0); }
  bool Any() const { return near != 0 || lines != 0; }
};

// Whether a non-pawn piece can capture a royal of `victim`. On its own board and for one-step
// pieces it looks at the recorded royals of the boards it could land on (a royal at distance d
// on the board is reachable only by the vector (dx/d, dy/d)); off the board, sliders walk the
// boards of each vector group once, following the rays still open.
// Which boards exist around a source board, at time and timeline offsets -2..2: every group of
// every piece on it starts on one of them.
struct Neighbours {
  bool exists[5][5];
  Neighbours(const Position& pos, int l, int h) {
    for (int t = -2; t <= 2; ++t) {
      for (int dl = -2; dl <= 2; ++dl) exists[t + 2][dl + 2] = pos.BoardAt(l + dl, h + 2 * t);
    }
  }
};

// Whether a piece of `attacker` standing on `square` of the tip board is of a type that `is`
// accepts, and returns it through `piece`.
template <typename Pred>
bool AttackerAt(const Board& tip, int file, int rank, Color attacker, Pred is, Piece* piece) {
  if (!tip.Contains(file, rank)) return false;
  *piece = tip.at(file, rank);
  return !piece->empty() && piece->color() == attacker && is(piece->type());
}

// Captures of royals that end within two boards of the tip (all that kings, knights and pawns
// can do, and sliders on their own board), read backwards from each royal: which square of the
// tip would a capturing piece stand on, and does such a piece stand there. A royal has few such
// squares, a tip has many pieces, so this is much cheaper than generating every piece's moves.
bool NearCapturesRoyal(const Position& pos, const Neighbours& near, int l, int h, Color attacker,
                       bool promoting_captures, Reach reach, Move* found) {
  const Color victim = Opponent(attacker);
  const Board& tip = *pos.BoardAt(l, h);
  const int fy = attacker == Color::kWhite ? 1 : -1;
  const int fl = attacker == Color::kWhite ? -1 : 1;
  const int last = attacker == Color::kWhite ? tip.height() - 1 : 0;
  auto capture = [&](int from_file, int from_rank, int bl, int bh, Square royal) {
    if (found) {
      *found =
          MakeMove(l, h, Square{static_cast<int8_t>(from_file), static_cast<int8_t>(from_rank)}, bl,
                   bh, royal);
    }
    return true;
  };
  // Knight vectors by their time and timeline part, built once.
  static const auto knights = [] {
    std::array<std::array<std::span<const Vec>, 5>, 5> out{};
    for (const VecGroup& group : VectorGroups(PieceType::kKnight)) {
      out[group.t + 2][group.l + 2] = group.vectors;
    }
    return out;
  }();
  Piece piece;
  for (int dt = -2; dt <= 2; ++dt) {
    for (int dl = -2; dl <= 2; ++dl) {
      if (!near.exists[dt + 2][dl + 2] || !reach.Near(dt, dl)) continue;
      const int bl = l + dl, bh = h + 2 * dt;
      const Board& board = *pos.BoardAt(bl, bh);
      for (int r = 0; r < board.royal_count(victim); ++r) {
        const Square royal = board.royal(victim, r);
        // Knights whose vector has this time and timeline part.
        for (const Vec& v : knights[dt + 2][dl + 2]) {
          if (AttackerAt(
                  tip, royal.file - v.x, royal.rank - v.y, attacker,
                  [](PieceType t) { return t == PieceType::kKnight; }, &piece)) {
            return capture(royal.file - v.x, royal.rank - v.y, bl, bh, royal);
          }
        }
        // Kings and common kings: one step on every axis.
        if (std::abs(dt) <= 1 && std::abs(dl) <= 1) {
          for (int x = -1; x <= 1; ++x) {
            for (int y = -1; y <= 1; ++y) {
              if (x == 0 && y == 0 && dt == 0 && dl == 0) continue;
              if (AttackerAt(
                      tip, royal.file - x, royal.rank - y, attacker,
                      [](PieceType t) {
                        return t == PieceType::kKing || t == PieceType::kCommonKing;
                      },
                      &piece)) {
                return capture(royal.file - x, royal.rank - y, bl, bh, royal);
              }
            }
          }
        }
        // Pawns and brawns; a capture that would promote does not count (the reference's rule).
        if (promoting_captures || royal.rank != last) {
          auto pawn_captures = [&](std::span<const Vec> vectors, bool brawn_only) {
            for (const Vec& c : vectors) {
              if (c.t != dt || c.l * fl != dl) continue;
              const int x = royal.file - c.x, y = royal.rank - c.y * fy;
              if (AttackerAt(
                      tip, x, y, attacker,
                      [&](PieceType t) {
                        return t == PieceType::kBrawn || (!brawn_only && t == PieceType::kPawn);
                      },
                      &piece)) {
                return capture(x, y, bl, bh, royal);
              }
            }
            return false;
          };
          if (pawn_captures(movegen_internal::kPawnCaptures, false) ||
              pawn_captures(movegen_internal::kBrawnCaptures, true)) {
            return true;
          }
        }
        // Sliders on the royal's own board, when that board is the tip: walk back from the royal.
        if (dt == 0 && dl == 0) {
          for (int vx = -1; vx <= 1; ++vx) {
            for (int vy = -1; vy <= 1; ++vy) {
              if (vx == 0 && vy == 0) continue;
              const int axes = std::abs(vx) + std::abs(vy);
              int x = royal.file - vx, y = royal.rank - vy;
              while (tip.Contains(x, y) && tip.at(x, y).empty()) {
                x -= vx;
                y -= vy;
              }
              if (AttackerAt(
                      tip, x, y, attacker,
                      [&](PieceType t) { return IsSlider(t) && SliderUses(t, axes); }, &piece)) {
                return capture(x, y, bl, bh, royal);
              }
            }
          }
        }
      }
    }
  }
  return false;
}

struct TipSlider {
  Square from;
  PieceType type;
};

// Whether a slider of a tip can capture a royal of `victim` off its board. Every slider of the tip
// moving in a time and timeline direction (t, l) crosses the same line of boards, so the line is
// walked once for all of them, looking only at its royals: a royal k boards away is reachable
// only by the ray (dx/k, dy/k, t, l), whose path is then checked on the boards already walked.
// Rays that move on the board leave it after at most max(width, height) boards; beyond that only
// rays that stay on their square can go on, while that square stays empty.
bool SlidersCaptureRoyal(const Position& pos, const Neighbours& near, int l, int h,
                         std::span<const TipSlider> sliders, Color victim, Reach reach,
                         Move* found) {
  const Board* here = pos.BoardAt(l, h);
  const int side = std::max(here->width(), here->height());
  std::vector<const Board*>& line = LineScratch();
  uint64_t pure_open[4];  // bit i: slider i's ray that stays on its square is still open
  for (int gt = -1; gt <= 1; ++gt) {
    for (int gl = -1; gl <= 1; ++gl) {
      if ((gt == 0 && gl == 0) || !near.exists[gt + 2][gl + 2] || !reach.Line(gt, gl)) continue;
      const int axes = std::abs(gt) + std::abs(gl);
      std::fill(std::begin(pure_open), std::end(pure_open), 0);
      bool any = false, any_pure = false;
      for (size_t i = 0; i < sliders.size(); ++i) {
        const PieceType type = sliders[i].type;
        any = any || SliderUses(type, axes) || SliderUses(type, axes + 1) ||
              SliderUses(type, axes + 2);
        if (SliderUses(type, axes)) {
          pure_open[i / 64] |= uint64_t{1} << (i % 64);
          any_pure = true;
        }
      }
      if (!any) continue;
      line.clear();
      for (int k = 1;; ++k) {
        if (k > side && !any_pure) break;
        const int bl = l + k * gl, bh = h + 2 * k * gt;
        const Board* board = pos.BoardAt(bl, bh);
        if (board == nullptr) break;
        line.push_back(board);
        for (int r = 0; r < board->royal_count(victim); ++r) {
          const Square royal = board->royal(victim, r);
          for (const TipSlider& slider : sliders) {
            const int dx = royal.file - slider.from.file, dy = royal.rank - slider.from.rank;
            if ((dx != 0 && std::abs(dx) != k) || (dy != 0 && std::abs(dy) != k)) continue;
            const int vx = dx / k, vy = dy / k;
            if (!SliderUses(slider.type, std::abs(vx) + std::abs(vy) + axes)) continue;
            bool clear = true;
            for (int j = 1; j < k && clear; ++j) {
              clear = line[j - 1]->at(slider.from.file + j * vx, slider.from.rank + j * vy).empty();
            }
            if (!clear) continue;
            if (found) *found = MakeMove(l, h, slider.from, bl, bh, royal);
            return true;
          }
        }
        if (any_pure) {
          // A ray that stays on its square stops at the first piece there.
          any_pure = false;
          for (size_t i = 0; i < sliders.size(); ++i) {
            uint64_t& word = pure_open[i / 64];
            const uint64_t bit = uint64_t{1} << (i % 64);
            if (!(word & bit)) continue;
            if (!board->at(sliders[i].from).empty()) {
              word &= ~bit;
            } else {
              any_pure = true;
            }
          }
        }
      }
    }
  }
  return false;
}

// The check test on bitboards (boards no larger than 8x8): the same captures as the scan below,
// read a whole board at a time.
//
// Leapers, kings and pawns: for each board within their reach that holds a royal, a table gives
// the squares of the tip from which a piece of that kind captures it; one AND with the tip's
// pieces of that kind answers. Sliders: see TipCapturesRoyal.
struct AttackTables {
  // [dt + 2][dl + 2][royal square]: tip squares of a knight that captures on that square of the
  // board dt turns and dl timelines away.
  uint64_t knight[5][5][64] = {};
  // The same for kings and common kings, pawns and brawns, and the brawn's own captures
  // ([dt + 1][dl + 1], by attacker colour for pawns).
  uint64_t king[3][3][64] = {};
  uint64_t pawn[2][3][3][64] = {};
  uint64_t brawn[2][3][3][64] = {};
  // [d][square]: the squares from which a ray in on-board direction d = (dx + 1) * 3 + (dy + 1)
  // reaches `square` after one or more steps (none for the middle d, which stays).
  uint64_t ray_into[9][64] = {};
  AttackTables() {
    constexpr int kSide = Board::kBitboardSide;
    auto add = [](uint64_t* mask, int royal, int dx, int dy) {
      const int file = royal % kSide - dx, rank = royal / kSide - dy;
      if (file < 0 || file >= kSide || rank < 0 || rank >= kSide) return;
      *mask |= uint64_t{1} << (rank * kSide + file);
    };
    for (int r = 0; r < kSide * kSide; ++r) {
      for (const VecGroup& group : VectorGroups(PieceType::kKnight)) {
        for (const Vec& v : group.vectors) add(&knight[v.t + 2][v.l + 2][r], r, v.x, v.y);
      }
      for (int dt = -1; dt <= 1; ++dt) {
        for (int dl = -1; dl <= 1; ++dl) {
          for (int x = -1; x <= 1; ++x) {
            for (int y = -1; y <= 1; ++y) {
              if (x == 0 && y == 0 && dt == 0 && dl == 0) continue;
              add(&king[dt + 1][dl + 1][r], r, x, y);
            }
          }
        }
      }
      for (int d = 0; d < 9; ++d) {
        const int dx = d / 3 - 1, dy = d % 3 - 1;
        if (dx == 0 && dy == 0) continue;
        for (int k = 1; k < kSide; ++k) add(&ray_into[d][r], r, k * dx, k * dy);
      }
      for (int c = 0; c < 2; ++c) {
        const int fy = c == 0 ? 1 : -1, fl = c == 0 ? -1 : 1;
        for (const Vec& v : movegen_internal::kPawnCaptures) {
          add(&pawn[c][v.t + 1][v.l * fl + 1][r], r, v.x, v.y * fy);
        }
        for (const Vec& v : movegen_internal::kBrawnCaptures) {
          add(&brawn[c][v.t + 1][v.l * fl + 1][r], r, v.x, v.y * fy);
        }
      }
    }
  }
};

const AttackTables& GetAttackTables() {
  static const AttackTables tables;
  return tables;
}

// Which squares of a tip can start a capture of the victim's royal pieces at all, from every
// square where some board of the position holds one (Position::royal_squares): a slider only on
// a ray that crosses such a square, a knight within two squares of one, a king or pawn within
// one. Computed once per check test; most pieces of most tips stand on none of them, and most
// lines of boards are then not walked at all.
struct RoyalLines {
  uint64_t aligned[9];  // [d]: squares whose ray in on-board direction d crosses a royal square
  uint64_t any = 0;     // the union of aligned[]: every square a slider may capture from
  uint64_t near1 = 0;   // within one square of a royal square (the square itself included)
  uint64_t near2 = 0;   // within two squares

  explicit RoyalLines(uint64_t royal_squares) {
    const AttackTables& tables = GetAttackTables();
    std::fill(std::begin(aligned), std::end(aligned), 0);
    aligned[4] = royal_squares;  // the ray that stays on its square
    for (uint64_t rest = royal_squares; rest != 0; rest &= rest - 1) {
      const int r = std::countr_zero(rest);
      for (int d = 0; d < 9; ++d) aligned[d] |= tables.ray_into[d][r];
    }
    for (uint64_t a : aligned) any |= a;
    near1 = Dilate(royal_squares);
    near2 = Dilate(near1);
  }

  // The squares within one square (king's step) of `bits`, on the 8x8 grid.
  static uint64_t Dilate(uint64_t bits) {
    constexpr uint64_t kFileA = 0x0101010101010101ull;
    constexpr uint64_t kFileH = kFileA << 7;
    const uint64_t sideways = bits | ((bits & ~kFileH) << 1) | ((bits & ~kFileA) >> 1);
    return sideways | (sideways << 8) | (sideways >> 8);
  }
};

// Moves every ray of rays[D..8] one square in its direction D = (dx + 1) * 3 + (dy + 1) on the
// 8x8 grid (squares pushed off it are dropped): hits[D] receives the royals each meets, rays[D]
// keeps those that land on an empty square and go on. Unrolled at compile time: the shifts and
// masks are constants, and nothing branches.
template <int D>
inline void StepRays(uint64_t* rays, uint64_t royals, uint64_t empty, uint64_t* hits,
                     uint64_t* any_hit, uint64_t* open) {
  if constexpr (D < 9) {
    constexpr int dx = D / 3 - 1, dy = D % 3 - 1;
    constexpr uint64_t kFileA = 0x0101010101010101ull;
    constexpr uint64_t keep = dx > 0 ? ~(kFileA << 7) : dx < 0 ? ~kFileA : ~uint64_t{0};
    constexpr int shift = dx + dy * Board::kBitboardSide;
    const uint64_t kept = rays[D] & keep;
    const uint64_t moved =
        shift > 0 ? kept << (shift > 0 ? shift : 0) : kept >> (shift < 0 ? -shift : 0);
    hits[D] = moved & royals;
    *any_hit |= hits[D];
    rays[D] = moved & empty;
    *open |= rays[D];
    StepRays<D + 1>(rays, royals, empty, hits, any_hit, open);
  }
}

Square BitSquare(int bit) {
  return Square{static_cast<int8_t>(bit % Board::kBitboardSide),
                static_cast<int8_t>(bit / Board::kBitboardSide)};
}

// Whether a piece of `attacker` on the tip (l, h) can capture a royal of the other side, looking
// at the captures `reach` names; `lines` are the victim's (RoyalLines).
bool TipCapturesRoyal(const Position& pos, int l, int h, Color attacker, bool promoting_captures,
                      Reach reach, const RoyalLines& lines, Move* found) {
  const AttackTables& tables = GetAttackTables();
  const Color victim = Opponent(attacker);
  const Board& tip = *pos.BoardAt(l, h);
  const uint64_t own = tip.colour_bits(attacker);
  auto of = [&](PieceType t) { return tip.type_bits(t); };
  // Only the pieces close enough to some royal square can capture one.
  const uint64_t knights = of(PieceType::kKnight) & own & lines.near2;
  const uint64_t kings = (of(PieceType::kKing) | of(PieceType::kCommonKing)) & own & lines.near1;
  const uint64_t brawns = of(PieceType::kBrawn) & own & lines.near1;
  const uint64_t pawns = (of(PieceType::kPawn) & own & lines.near1) | brawns;
  // Sliders by the number of axes their vectors change (1 to 4).
  const uint64_t queens = of(PieceType::kQueen) | of(PieceType::kRoyalQueen);
  const uint64_t princesses = of(PieceType::kPrincess);
  const uint64_t by_axes[5] = {
      0,
      (queens | princesses | of(PieceType::kRook)) & own,
      (queens | princesses | of(PieceType::kBishop)) & own,
      (queens | of(PieceType::kUnicorn)) & own,
      (queens | of(PieceType::kDragon)) & own,
  };
  // A pawn's capture onto the attacker's last rank would promote, and does not count.
  const int last_rank = attacker == Color::kWhite ? tip.height() - 1 : 0;
  const uint64_t last = uint64_t{0xff} << (last_rank * Board::kBitboardSide);
  const int c = static_cast<int>(attacker);
  // Records the capture of the royal on `royal` of board (bl, bh) by one of `from` (not empty).
  auto capture = [&](uint64_t from, int bl, int bh, int royal) {
    if (found) *found = MakeMove(l, h, BitSquare(std::countr_zero(from)), bl, bh, BitSquare(royal));
    return true;
  };

  if ((knights | kings | pawns) && reach.near != 0) {
    for (int dl = -2; dl <= 2; ++dl) {
      const Position::TimelineView line = pos.ViewOf(l + dl);
      for (int dt = -2; dt <= 2; ++dt) {
        if (!reach.Near(dt, dl)) continue;
        const Board* board = line.At(h + 2 * dt);
        if (board == nullptr) continue;
        const int bl = l + dl, bh = h + 2 * dt;
        const bool close = dt >= -1 && dt <= 1 && dl >= -1 && dl <= 1;
        for (uint64_t royals = board->royal_bits(victim); royals != 0; royals &= royals - 1) {
          const int r = std::countr_zero(royals);
          if (const uint64_t from = knights & tables.knight[dt + 2][dl + 2][r]) {
            return capture(from, bl, bh, r);
          }
          if (!close) continue;
          if (const uint64_t from = kings & tables.king[dt + 1][dl + 1][r]) {
            return capture(from, bl, bh, r);
          }
          if (promoting_captures || (royals & -royals & last) == 0) {
            const uint64_t from = (pawns & tables.pawn[c][dt + 1][dl + 1][r]) |
                                  (brawns & tables.brawn[c][dt + 1][dl + 1][r]);
            if (from) return capture(from, bl, bh, r);
          }
        }
      }
    }
  }

  if (((by_axes[1] | by_axes[2] | by_axes[3] | by_axes[4]) & lines.any) == 0) return false;
  // Sliders: the rays of all sliders of the tip that go the same way (one of 9 directions on the
  // board, times one of 9 lines of boards through time and timelines, or the tip itself) move
  // together as one bitboard, one square per board along the line; a ray stops at the first piece
  // it meets and captures when that piece is a royal. The 9 directions advance together, without
  // branches, and the walk ends when every ray has stopped. The lines into the past first: the
  // capture they name leaves fewer squares of the present boards to blame, and the hypercuboid
  // search cuts larger blocks with it.
  // start[a][d]: the rays going in on-board direction d = (dx + 1) * 3 + (dy + 1) (the middle one,
  // dx = dy = 0, stays on its square) along a line of boards changing `a` axes (0: the tip
  // itself); only those that cross some royal square can capture (RoyalLines).
  uint64_t start[3][9];
  uint64_t any[3];
  for (int a = 0; a < 3; ++a) {
    const uint64_t orthogonal = by_axes[a + 1], diagonal = by_axes[a + 2];
    const uint64_t pure = a == 0 ? 0 : by_axes[a];
    any[a] = 0;
    for (int d = 0; d < 9; ++d) {
      const int dx = d / 3 - 1, dy = d % 3 - 1;
      const uint64_t sliders = dx == 0 && dy == 0   ? pure
                               : dx != 0 && dy != 0 ? diagonal
                                                    : orthogonal;
      start[a][d] = sliders & lines.aligned[d];
      any[a] |= start[a][d];
    }
  }
  const Position::TimelineView own_line = pos.ViewOf(l);
  for (int g = 0; g < 9; ++g) {
    const int gt = g / 3 - 1, gl = g % 3 - 1;
    const int line_axes = (gt != 0) + (gl != 0);
    if (any[line_axes] == 0) continue;
    if (line_axes == 0 ? !reach.Own() : !reach.Line(gt, gl)) continue;
    uint64_t rays[9];
    std::copy(std::begin(start[line_axes]), std::end(start[line_axes]), rays);
    for (int k = 1;; ++k) {
      const int bl = l + k * gl, bh = h + 2 * k * gt;
      const Board* board = line_axes == 0 ? &tip : gl == 0 ? own_line.At(bh) : pos.BoardAt(bl, bh);
      if (board == nullptr) break;
      const uint64_t royals = board->royal_bits(victim);
      const uint64_t empty = ~board->occupied_bits();
      uint64_t hits[9];
      uint64_t any_hit = 0, open = 0;
      StepRays<0>(rays, royals, empty, hits, &any_hit, &open);
      if (any_hit != 0) {
        for (int d = 0; d < 9; ++d) {
          if (hits[d] == 0) continue;
          if (found) {
            // The ray moved one square per board: it started k squares back.
            const int dx = d / 3 - 1, dy = d % 3 - 1;
            const int r = std::countr_zero(hits[d]);
            const int from = r - k * (dx + dy * Board::kBitboardSide);
            *found = MakeMove(l, h, BitSquare(from), line_axes == 0 ? l : bl,
                              line_axes == 0 ? h : bh, BitSquare(r));
          }
          return true;
        }
      }
      if (open == 0) break;
    }
  }
  return false;
}

// Whether a piece of `attacker` on the tip (l, h) of a board of any size can capture a royal of
// the other side, looking at the captures `reach` names.
bool TipCapturesRoyalByScan(const Position& pos, const MoveView& view, int l, int h, Color attacker,
                            bool promoting_captures, Reach reach, Move* found) {
  const Board& board = pos.Tip(l);
  if (!pos.royal_overflow()) {
    const Neighbours near(pos, l, h);
    if (NearCapturesRoyal(pos, near, l, h, attacker, promoting_captures, reach, found)) {
      return true;
    }
    if (reach.lines == 0) return false;
    TipSlider sliders[kMaxSquares];
    size_t slider_count = 0;
    if (!board.sliders_overflow(attacker)) {
      for (int i = 0; i < board.slider_count(attacker); ++i) {
        const Square square = board.slider(attacker, i);
        sliders[slider_count++] = TipSlider{square, board.at(square).type()};
      }
    } else {
      for (int rank = 0; rank < board.height(); ++rank) {
        for (int file = 0; file < board.width(); ++file) {
          const Piece piece = board.at(file, rank);
          if (piece.empty() || piece.color() != attacker || !IsSlider(piece.type())) continue;
          sliders[slider_count++] =
              TipSlider{Square{static_cast<int8_t>(file), static_cast<int8_t>(rank)}, piece.type()};
        }
      }
    }
    return slider_count > 0 &&
           SlidersCaptureRoyal(pos, near, l, h, std::span<const TipSlider>(sliders, slider_count),
                               Opponent(attacker), reach, found);
  }
  // More royals on a board than Board records: generate every capture.
  PromotionSet promotions;  // any piece to promote to lets the generator make a promoting capture
  if (promoting_captures) promotions.Add(PieceType::kQueen);
  for (int rank = 0; rank < board.height(); ++rank) {
    for (int file = 0; file < board.width(); ++file) {
      const Piece piece = board.at(file, rank);
      if (piece.empty() || piece.color() != attacker) continue;
      const Square from{static_cast<int8_t>(file), static_cast<int8_t>(rank)};
      const bool stopped = ForEachPieceMove(view, l, h, from, piece, GenMode::kCaptures, promotions,
                                            [&](const Move& m, Piece captured) {
                                              if (!IsRoyal(captured.type())) return false;
                                              if (found != nullptr) *found = m;
                                              return true;
                                            });
      if (stopped) return true;
    }
  }
  return false;
}

// The captures of the tip (l, h) that involve one of `fresh`: standing on it (all of them), or
// onto, across or beyond it.
Reach ReachOf(int l, int h, std::span<const BoardPlace> fresh) {
  Reach reach;
  reach.near = 0;
  reach.lines = 0;
  for (const BoardPlace& b : fresh) {
    if ((b.half_turn - h) % 2 != 0) continue;  // the other side's board: no capture lands there
    const int dl = b.timeline - l, dt = (b.half_turn - h) / 2;
    if (dl == 0 && dt == 0) return Reach{};
    if (dl >= -2 && dl <= 2 && dt >= -2 && dt <= 2)
      reach.near |= uint32_t{1} << ((dt + 2) * 5 + dl + 2);
    if (dl == 0 || dt == 0 || std::abs(dl) == std::abs(dt)) {
      const int gt = (dt > 0) - (dt < 0), gl = (dl > 0) - (dl < 0);
      reach.lines |= static_cast<uint16_t>(1u << ((gt + 1) * 3 + gl + 1));
    }
  }
  return reach;
}

// RoyalCapturable and RoyalCapturableTouching: every tip of `attacker`, the captures `reach_of`
// names.
template <typename ReachOfTip>
bool CapturableFromTips(const Position& pos, Color attacker, bool promoting_captures,
                        ReachOfTip reach_of, Move* found) {
  const bool bits = pos.width() <= Board::kBitboardSide && pos.height() <= Board::kBitboardSide;
  if (bits && pos.royal_squares(Opponent(attacker)) == 0) return false;
  const RoyalLines lines(bits ? pos.royal_squares(Opponent(attacker)) : 0);
  const MoveView view(pos);
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    if (!pos.HasTimeline(l)) continue;
    const int tip = pos.TipHalf(l);
    if (ColorOf(tip) != attacker) continue;
    const Reach reach = reach_of(l, tip);
    if (!reach.Any()) continue;
    if (bits ? TipCapturesRoyal(pos, l, tip, attacker, promoting_captures, reach, lines, found)
             : TipCapturesRoyalByScan(pos, view, l, tip, attacker, promoting_captures, reach,
                                      found)) {
      return true;
    }
  }
  return false;
}

}  // namespace

namespace movegen_internal {

bool RoyalCapturableByBits(const Position& pos, Color attacker, bool promoting_captures,
                           Move* found) {
  assert(pos.width() <= Board::kBitboardSide && pos.height() <= Board::kBitboardSide);
  const RoyalLines lines(pos.royal_squares(Opponent(attacker)));
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    if (!pos.HasTimeline(l)) continue;
    const int tip = pos.TipHalf(l);
    if (ColorOf(tip) == attacker &&
        TipCapturesRoyal(pos, l, tip, attacker, promoting_captures, Reach{}, lines, found)) {
      return true;
    }
  }
  return false;
}

bool RoyalCapturableByScan(const Position& pos, Color attacker, bool promoting_captures,
                           Move* found) {
  const MoveView view(pos);
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    if (!pos.HasTimeline(l)) continue;
    const int tip = pos.TipHalf(l);
    if (ColorOf(tip) == attacker &&
        TipCapturesRoyalByScan(pos, view, l, tip, attacker, promoting_captures, Reach{}, found)) {
      return true;
    }
  }
  return false;
}

}  // namespace movegen_internal

uint64_t SquaresReachingRoyals(uint64_t royal_squares) {
  const RoyalLines lines(royal_squares);
  return lines.any | lines.near2;
}

bool RoyalCapturable(const Position& pos, Color attacker, bool promoting_captures, Move* found) {
  return CapturableFromTips(
      pos, attacker, promoting_captures, [](int, int) { return Reach{}; }, found);
}

bool RoyalCapturableTouching(const Position& pos, Color attacker, bool promoting_captures,
                             std::span<const BoardPlace> fresh, Move* found) {
  return CapturableFromTips(
      pos, attacker, promoting_captures, [&](int l, int h) { return ReachOf(l, h, fresh); }, found);
}

}  // namespace fived
