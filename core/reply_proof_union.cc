// The reply proof's search across boards (reply_proof.h): whether the union of the replies'
// boards, with the mover's tips an action may leave unplayed, holds a capture of an opponent
// royal piece along a vector that leaves its board, and what the next round's replies must break
// when it does.
#include <vector>

#include "core/reply_proof_internal.h"

namespace fived::reply_proof_internal {

// Calls mark(place, file, rank) for every square a piece of the mover of type `type` on
// (timeline, half, file, rank) may land on by a capture along a vector that leaves its board.
// Boards past max_half are left out (see ReachesBack).
template <typename Mark>
void Prover::WalkAcross(int timeline, int half, int file, int rank, PieceType type, Mark& mark,
                        int max_half) const {
  union_cells::WalkCaptures(
      mover_, width_, height_, timeline, half, file, rank, type, /*across_only=*/true,
      [&](int l, int h) { return h > max_half ? Place{} : AtFrom(timeline, half, l, h); },
      [this](const Place& place, int x, int y) { return CellAt(place, x, y); },
      [&](const Place& place, int x, int y) {
        mark(place, x, y);
        return false;
      });
}

Prover::Place Prover::At(int timeline, int half) const {
  Place place;
  place.board = pos_.BoardAt(timeline, half);
  if (place.board != nullptr) return place;
  int slot = -1;
  if (timeline >= pos_.min_timeline() && timeline <= pos_.max_timeline()) {
    slot = SlotOf(timeline);
  } else if (timeline >= new_low_ && timeline <= new_high_ && half >= 1 &&
             static_cast<size_t>(half - 1) < new_by_half_.size()) {
    slot = new_by_half_[half - 1];
  }
  if (slot >= 0 && slots_[slot].reply_half == half) {
    place.merged = &slots_[slot].cells;
    place.slot = slot;
  }
  return place;
}

// At(timeline, half) as a piece on (from_timeline, from_half) sees it: a new timeline has one
// board of the mover after the reply, so the piece on one sees no other board of its own timeline
// (the unions of the new timelines' other slots stand for timelines that begin at other times).
Prover::Place Prover::AtFrom(int from_timeline, int from_half, int timeline, int half) const {
  const bool new_timeline = timeline < pos_.min_timeline() || timeline > pos_.max_timeline();
  if (new_timeline && timeline == from_timeline && half != from_half) return Place{};
  return At(timeline, half);
}

// Whether a piece of the mover of type `type` on (timeline, half, file, rank) may capture a
// cell that may hold one of `royals` along a vector that leaves its board, crossing cells
// that may be empty. Captures on one board are the replies' business.
bool Prover::ReachesAcross(int timeline, int half, int file, int rank, PieceType type,
                           Cell royals) const {
  return union_cells::WalkCaptures(
      mover_, width_, height_, timeline, half, file, rank, type, /*across_only=*/true,
      [&](int l, int h) { return AtFrom(timeline, half, l, h); },
      [this](const Place& place, int x, int y) { return CellAt(place, x, y); },
      [&](const Place& place, int x, int y) { return (CellAt(place, x, y) & royals) != 0; });
}

bool Prover::UnionReaches(const std::vector<Cell>& cells, int timeline, int half,
                          Cell royals) const {
  return union_cells::AnyPieceOf(cells, width_, height_, mover_, [&](int file, int rank, int bit) {
    return ReachesAcross(timeline, half, file, rank, static_cast<PieceType>(bit & 0x0f), royals);
  });
}

// Whether a piece of the mover on a tip on the present (one every action plays, unless it moves
// the present back and leaves it unplayed) may capture a cell of a reply's union that may hold
// one of `royals`: the boards after the present do not exist then, and a capture onto a board of
// the position would be one now (the proof asks that there is none).
bool Prover::ReachesBack(int timeline, int half, int file, int rank, PieceType type,
                         Cell royals) const {
  return union_cells::WalkCaptures(
      mover_, width_, height_, timeline, half, file, rank, type, /*across_only=*/true,
      [&](int l, int h) { return h > present_ ? Place{} : AtFrom(timeline, half, l, h); },
      [this](const Place& place, int x, int y) { return CellAt(place, x, y); },
      [&](const Place& place, int x, int y) {
        return place.slot >= 0 && (CellAt(place, x, y) & royals) != 0;
      });
}

// Whether the union of the replies' boards holds a capture of an opponent royal across boards,
// from a tip of the mover that the action may leave unplayed or from a reply's board.
bool Prover::CrossCapture() const {
  const Cell royals = union_cells::RoyalsOf(opponent_);
  if (union_cells::AnyUnplayedTipPiece(pos_, mover_, present_,
                                       [&](int l, int half, int file, int rank, PieceType type) {
                                         return ReachesAcross(l, half, file, rank, type, royals);
                                       }) ||
      union_cells::AnyPresentTipPiece(pos_, mover_, present_,
                                      [&](int l, int half, int file, int rank, PieceType type) {
                                        return ReachesBack(l, half, file, rank, type, royals);
                                      })) {
    return true;
  }
  for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
    const int slot = SlotOf(l);
    if (slot >= 0 && UnionReaches(slots_[slot].cells, l, slots_[slot].reply_half, royals)) {
      return true;
    }
  }
  for (size_t board_half = 0; board_half < new_by_half_.size(); ++board_half) {
    const int slot = new_by_half_[board_half];
    if (slot < 0) continue;
    for (int l = new_low_; l <= new_high_; ++l) {
      if (UnionReaches(slots_[slot].cells, l, slots_[slot].reply_half, royals)) return true;
    }
  }
  return false;
}

// Marks what the current unions let a capture across boards use, so that the next round's
// replies break it: a piece of the mover that stands there whatever the action did (on a tip the
// action may leave unplayed, or on a slot's board as on the position's tip) is answered by the
// royal pieces, which keep off every square it reaches (the slot's danger); a piece that some
// move of the action put there, or one that reaches a royal piece on a board of the position
// (which no reply moves), is answered by the replies of the versions that hold it, which must
// capture it (the slot's hot mask). False when nothing new was marked (another round would
// choose the same).
bool Prover::MarkDanger() {
  const Cell royals = union_cells::RoyalsOf(opponent_);
  bool marked = false, hits = false, fixed = true;
  auto mark = [&](const Place& place, int x, int y) {
    const bool royal = (CellAt(place, x, y) & royals) != 0;
    if (place.slot < 0) {
      if (royal) hits = true;
      return;
    }
    // A piece the replies must capture marks nothing: where one of them cannot, it is given
    // up, and the next round's royal pieces keep off its squares.
    if (!fixed) {
      hits = hits || royal;
      return;
    }
    uint8_t& square = slots_[place.slot].danger[y * width_ + x];
    if (square == 0 && royal) marked = true;
    square = 1;
  };
  union_cells::AnyUnplayedTipPiece(pos_, mover_, present_,
                                   [&](int l, int half, int file, int rank, PieceType type) {
                                     fixed = true;
                                     WalkAcross(l, half, file, rank, type, mark);
                                     return false;
                                   });
  // The tips on the present, unplayed when the action moves the present back: only the boards at
  // or before it (a hit on a board of the position is none, the position being quiet).
  union_cells::AnyPresentTipPiece(pos_, mover_, present_,
                                  [&](int l, int half, int file, int rank, PieceType type) {
                                    fixed = true;
                                    WalkAcross(l, half, file, rank, type, mark, present_);
                                    return false;
                                  });
  // `base`: the position's tip the slot's boards follow (nullptr for new timelines).
  auto walk_union = [&](int slot, int timeline, const Board* base) {
    Slot& from = slots_[slot];
    union_cells::AnyPieceOf(from.cells, width_, height_, mover_, [&](int file, int rank, int bit) {
      hits = false;
      fixed = (base != nullptr && (CellOf(base->at(file, rank)) & (Cell{1} << bit)) != 0) ||
              (from.unanswerable[rank * width_ + file] & (Cell{1} << bit)) != 0;
      WalkAcross(timeline, from.reply_half, file, rank, static_cast<PieceType>(bit & 0x0f), mark);
      Cell& hot = from.hot[rank * width_ + file];
      if (hits && (hot & (Cell{1} << bit)) == 0) {
        hot |= Cell{1} << bit;
        marked = true;
      }
      return false;
    });
  };
  for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
    const int slot = SlotOf(l);
    if (slot >= 0) walk_union(slot, l, &pos_.Tip(l));
  }
  for (size_t board_half = 0; board_half < new_by_half_.size(); ++board_half) {
    const int slot = new_by_half_[board_half];
    if (slot < 0) continue;
    for (int l = new_low_; l <= new_high_; ++l) walk_union(slot, l, nullptr);
  }
  return marked;
}
}  // namespace fived::reply_proof_internal
