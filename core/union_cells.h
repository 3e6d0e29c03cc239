// Boards as sets of what each square may hold, and the walk of a piece's captures over them:
// the ground the check screen (check_screen.cc) and the reply proof (reply_proof*.cc) share.
// Both look at the union of every board an action (or the replies to it) could make, and ask
// where a piece of the mover standing on such a union may capture. Internal to core.
#ifndef FIVED_CORE_UNION_CELLS_H_
#define FIVED_CORE_UNION_CELLS_H_

#include <cstdint>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/types.h"

namespace fived::union_cells {

// What a square may hold, as a bit set: bit 0 when it may be empty, bit (piece byte & 0x1f) when
// it may hold that piece (colour and type; whether it has moved does not matter to a capture).
using Cell = uint32_t;
constexpr Cell kEmptyCell = 1;

inline Cell CellOf(Piece piece) {
  return piece.empty() ? kEmptyCell : Cell{1} << (piece.bits() & 0x1f);
}

// Adds to the union board `cells` (rank by rank) what each square of `board` holds.
inline void MergeBoard(const Board& board, std::vector<Cell>* cells) {
  for (int rank = 0; rank < board.height(); ++rank) {
    for (int file = 0; file < board.width(); ++file) {
      (*cells)[rank * board.width() + file] |= CellOf(board.at(file, rank));
    }
  }
}

// The bits of the pieces of `color`.
constexpr Cell PiecesOf(Color color) { return color == Color::kWhite ? 0x0000fffe : 0xfffe0000; }

// The bits of the royal pieces of `color`.
inline Cell RoyalsOf(Color color) {
  return CellOf(Piece(PieceType::kKing, color)) | CellOf(Piece(PieceType::kRoyalQueen, color));
}

// The pieces of `mover` on its colour's tips on an active timeline at `present` (on_present), or
// on its other tips: AnyUnplayedTipPiece and AnyPresentTipPiece below.
template <typename F>
bool AnyTipPiece(const Position& pos, Color mover, int present, bool on_present, F&& f) {
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    if (!pos.HasTimeline(l)) continue;
    const int tip_half = pos.TipHalf(l);
    if (ColorOf(tip_half) != mover || (pos.IsActive(l) && tip_half == present) != on_present) {
      continue;
    }
    const Board& tip = pos.Tip(l);
    for (int rank = 0; rank < tip.height(); ++rank) {
      for (int file = 0; file < tip.width(); ++file) {
        const Piece piece = tip.at(file, rank);
        if (piece.empty() || piece.color() != mover) continue;
        if (f(l, tip_half, file, rank, piece.type())) return true;
      }
    }
  }
  return false;
}

// Calls f(timeline, half, file, rank, type) for each piece of `mover` on a tip that an action of
// the mover may leave unplayed without moving the present back: a tip of its colour not on an
// active timeline at `present` (an action that leaves the present where it is plays those, else
// the present would not pass: they are no tips after it, and only their copies may hold
// attackers; see AnyPresentTipPiece for the actions that move it back). Stops and returns true as
// soon as f does.
template <typename F>
bool AnyUnplayedTipPiece(const Position& pos, Color mover, int present, F&& f) {
  return AnyTipPiece(pos, mover, present, /*on_present=*/false, f);
}

// Calls f(timeline, half, file, rank, type) for each piece of `mover` on the tips
// AnyUnplayedTipPiece leaves out: its colour's tips on active timelines at `present`, the boards
// every action must play unless it moves the present back. A branch into the past that makes (or
// activates) an active timeline does: the present then passes with those boards unplayed, and their
// pieces may capture on the boards the opponent then plays, copies at or before `present` (every
// other board they reach is a board of the position, where the position being quiet rules a capture
// out).
// The branch comes from another tip of the mover (a board moved from is played): with one tip,
// none.
template <typename F>
bool AnyPresentTipPiece(const Position& pos, Color mover, int present, F&& f) {
  int tips = 0;
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    tips += pos.HasTimeline(l) && ColorOf(pos.TipHalf(l)) == mover ? 1 : 0;
  }
  return tips > 1 && AnyTipPiece(pos, mover, present, /*on_present=*/true, f);
}

// Calls f(file, rank, bit) for each piece of `color` the union board `cells` (width x height,
// rank by rank) may hold, bit its Cell bit (its type is bit & 0x0f); stops and returns true as
// soon as f does.
template <typename F>
bool AnyPieceOf(const std::vector<Cell>& cells, int width, int height, Color color, F&& f) {
  for (int rank = 0; rank < height; ++rank) {
    for (int file = 0; file < width; ++file) {
      Cell pieces = cells[rank * width + file] & PiecesOf(color);
      while (pieces != 0) {
        const int bit = __builtin_ctz(pieces);
        pieces &= pieces - 1;
        if (f(file, rank, bit)) return true;
      }
    }
  }
  return false;
}

// Walks the captures of a piece of `mover` of type `type` on (timeline, half, file, rank):
// calls visit(place, x, y) for every square it may capture on, a slider going on across squares
// that may be empty; stops and returns true as soon as visit does. at(timeline, half) gives the
// board at a place (a value with exists()), cell_at(place, x, y) what its square may hold; boards
// are width x height. With `across_only`, the vectors that stay on the piece's board are left
// out.
// WalkCapturesRays is the same walk, calling ray() before the squares of each vector (a pawn's
// capture is a vector of one square), so that visit can tell the squares a capture crosses.
template <typename At, typename CellAt, typename Ray, typename Visit>
bool WalkCapturesRays(Color mover, int width, int height, int timeline, int half, int file,
                      int rank, PieceType type, bool across_only, const At& at,
                      const CellAt& cell_at, Ray&& ray, Visit&& visit) {
  using movegen_internal::Vec;
  auto contains = [&](int x, int y) { return x >= 0 && x < width && y >= 0 && y < height; };
  if (IsPawnLike(type)) {
    const int fy = mover == Color::kWhite ? 1 : -1;
    const int fl = mover == Color::kWhite ? -1 : 1;
    auto capture = [&](const Vec& c) {
      if (across_only && c.t == 0 && c.l == 0) return false;
      const int x = file + c.x, y = rank + c.y * fy;
      if (!contains(x, y)) return false;
      ray();
      const auto place = at(timeline + c.l * fl, half + 2 * c.t);
      return place.exists() && visit(place, x, y);
    };
    for (const Vec& c : movegen_internal::kPawnCaptures) {
      if (capture(c)) return true;
    }
    if (type == PieceType::kBrawn) {
      for (const Vec& c : movegen_internal::kBrawnCaptures) {
        if (capture(c)) return true;
      }
    }
    return false;
  }
  const bool slides = IsSlider(type);
  for (const Vec& v : movegen_internal::Vectors(type)) {
    if (across_only && v.t == 0 && v.l == 0) continue;
    ray();
    int x = file, y = rank, l = timeline, h = half;
    for (;;) {
      x += v.x;
      y += v.y;
      l += v.l;
      h += 2 * v.t;
      if (!contains(x, y)) break;
      const auto place = at(l, h);
      if (!place.exists()) break;
      if (visit(place, x, y)) return true;
      if (!slides || (cell_at(place, x, y) & kEmptyCell) == 0) break;
    }
  }
  return false;
}

template <typename At, typename CellAt, typename Visit>
bool WalkCaptures(Color mover, int width, int height, int timeline, int half, int file, int rank,
                  PieceType type, bool across_only, const At& at, const CellAt& cell_at,
                  Visit&& visit) {
  return WalkCapturesRays(
      mover, width, height, timeline, half, file, rank, type, across_only, at, cell_at, [] {},
      visit);
}

}  // namespace fived::union_cells

#endif  // FIVED_CORE_UNION_CELLS_H_
