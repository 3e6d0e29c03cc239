// Whether any action could give check, from a union of the boards actions could make; see
// check_screen.h for why the answer kNoCheck is a proof.
#include "core/check_screen.h"

#include <algorithm>
#include <memory>
#include <span>
#include <vector>

#include "core/action.h"
#include "core/check.h"
#include "core/rules.h"
#include "core/union_cells.h"

namespace fived {

namespace {

using union_cells::Cell;
using union_cells::CellOf;
using union_cells::kEmptyCell;

// A board of the union: each square's possible contents, rank by rank.
struct UnionBoard {
  std::vector<Cell> cells;
};

class BoardUnion {
 public:
  BoardUnion(const Position& pos, PromotionSet promotions)
      : pos_(pos),
        mover_(pos.ToMove()),
        present_(pos.Present()),
        width_(pos.width()),
        height_(pos.height()) {
    Build(promotions);
  }

  // Whether some piece of the mover on a board it may move from could capture an opponent
  // royal on the union's boards.
  bool FindCapture() const {
    const Cell royals = union_cells::RoyalsOf(Opponent(mover_));
    if (union_cells::AnyUnplayedTipPiece(pos_, mover_, present_,
                                         [&](int l, int half, int file, int rank, PieceType type) {
                                           return Reaches(l, half, file, rank, type, royals);
                                         })) {
      return true;
    }
    // An action that moves the present back may leave the boards on the present unplayed.
    if (union_cells::AnyPresentTipPiece(pos_, mover_, present_,
                                        [&](int l, int half, int file, int rank, PieceType type) {
                                          return ReachesBack(l, half, file, rank, type, royals);
                                        })) {
      return true;
    }
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      const int index = copy_index_[l - pos_.min_timeline()];
      if (index >= 0 &&
          UnionReaches(boards_[index], l, copy_half_[l - pos_.min_timeline()], royals)) {
        return true;
      }
    }
    for (size_t half = 0; half < new_by_half_.size(); ++half) {
      if (new_by_half_[half] < 0) continue;
      for (int l = new_low_; l <= new_high_; ++l) {
        if (UnionReaches(boards_[new_by_half_[half]], l, static_cast<int>(half), royals)) {
          return true;
        }
      }
    }
    return false;
  }

 private:
  // A board of the union at a place: a board of the position (whose squares hold one thing
  // each), a union board, or none.
  struct Place {
    const Board* board = nullptr;
    const UnionBoard* merged = nullptr;
    bool exists() const { return board != nullptr || merged != nullptr; }
  };

  Place At(int timeline, int half) const {
    Place place;
    place.board = pos_.BoardAt(timeline, half);
    if (place.board != nullptr) return place;
    if (timeline >= pos_.min_timeline() && timeline <= pos_.max_timeline()) {
      const int i = timeline - pos_.min_timeline();
      if (copy_index_[i] >= 0 && copy_half_[i] == half) place.merged = &boards_[copy_index_[i]];
    } else if (timeline >= new_low_ && timeline <= new_high_ && half >= 0 &&
               static_cast<size_t>(half) < new_by_half_.size() && new_by_half_[half] >= 0) {
      place.merged = &boards_[new_by_half_[half]];
    }
    return place;
  }

  Cell CellAt(const Place& place, int file, int rank) const {
    if (place.board != nullptr) return CellOf(place.board->at(file, rank));
    return place.merged->cells[rank * width_ + file];
  }

  // Whether a piece of the mover of type `type` on (timeline, half, file, rank) may capture a
  // cell that may hold one of `royals`, crossing cells that may be empty.
  bool Reaches(int timeline, int half, int file, int rank, PieceType type, Cell royals) const {
    return union_cells::WalkCaptures(
        mover_, width_, height_, timeline, half, file, rank, type, /*across_only=*/false,
        [this](int l, int h) { return At(l, h); },
        [this](const Place& place, int x, int y) { return CellAt(place, x, y); },
        [&](const Place& place, int x, int y) { return (CellAt(place, x, y) & royals) != 0; });
  }

  // Reaches for a piece on a tip of the mover on the present, which stays unplayed only when the
  // action moves the present back: then the boards after the present do not exist, and its
  // captures onto boards of the position are ruled out (the position is quiet), so only those
  // onto union boards count.
  bool ReachesBack(int timeline, int half, int file, int rank, PieceType type, Cell royals) const {
    return union_cells::WalkCaptures(
        mover_, width_, height_, timeline, half, file, rank, type, /*across_only=*/true,
        [this](int l, int h) { return h > present_ ? Place{} : At(l, h); },
        [this](const Place& place, int x, int y) { return CellAt(place, x, y); },
        [&](const Place& place, int x, int y) {
          return place.merged != nullptr && (CellAt(place, x, y) & royals) != 0;
        });
  }

  // Reaches for every piece of the mover a union board at (timeline, half) may hold.
  bool UnionReaches(const UnionBoard& board, int timeline, int half, Cell royals) const {
    return union_cells::AnyPieceOf(
        board.cells, width_, height_, mover_, [&](int file, int rank, int bit) {
          return Reaches(timeline, half, file, rank, static_cast<PieceType>(bit & 0x0f), royals);
        });
  }

  // Whether playing `move` exposes a royal piece of the mover through boards it alone fixes, so
  // that no legal action holds it: a royal piece stepping next to an opponent royal is the common
  // case the union would otherwise count as a check. The capture is looked for after the move
  // alone: its attacker stands on a tip of the opponent, which no move of the mover can change
  // (the mover's moves leave from and land on boards of its own colour), and its squares are on
  // boards that exist after the move, which no other move changes. Only royal pieces' moves are
  // tried (the union's looseness is theirs), and not a jump onto a tip of the mover, which may
  // branch instead of arriving, depending on the order of the action; nor a branching jump when
  // the mover has another tip to branch from, since a branch played before it would number its
  // new timeline one further out, next to another board than alone.
  bool ExposesAlone(const Move& move) {
    if (move.IsJump() && pos_.TipHalf(move.dst_timeline) == move.dst_half) return false;
    // Any other jump lands on an older board: it branches.
    if (move.IsJump() && playable_ > 1) return false;
    if (!scratch_) {
      scratch_ = std::make_unique<Position>(pos_);
      quiet_for_opponent_ = !RoyalCapturable(pos_, Opponent(mover_), true);
    }
    const Position::Mark mark = scratch_->GetMark();
    const MoveEffect effect = ApplyMove(scratch_.get(), move);
    BoardPlace fresh[2] = {{move.src_timeline, move.src_half + 1}, {}};
    size_t count = 1;
    if (effect.branching) {
      fresh[count++] = {effect.new_timeline, move.dst_half + 1};
    } else if (move.IsJump()) {
      fresh[count++] = {move.dst_timeline, move.dst_half + 1};
    }
    const bool exposed = quiet_for_opponent_
                             ? RoyalCapturableTouching(*scratch_, Opponent(mover_), false,
                                                       std::span<const BoardPlace>(fresh, count))
                             : RoyalCapturable(*scratch_, Opponent(mover_), false);
    scratch_->Rollback(mark);
    return exposed;
  }

  int NewUnionBoard(const Board& base) {
    UnionBoard merged;
    merged.cells.resize(static_cast<size_t>(width_) * height_);
    for (int rank = 0; rank < height_; ++rank) {
      for (int file = 0; file < width_; ++file) {
        merged.cells[rank * width_ + file] = CellOf(base.at(file, rank));
      }
    }
    boards_.push_back(std::move(merged));
    return static_cast<int>(boards_.size()) - 1;
  }

  void Build(PromotionSet promotions) {
    const int count = pos_.max_timeline() - pos_.min_timeline() + 1;
    copy_index_.assign(count > 0 ? count : 0, -1);
    copy_half_.assign(copy_index_.size(), 0);
    playable_ = 0;
    // The passing copies of the existing timelines, first as their tips. An action must play
    // every board on the present (half-turn P) for the present to pass (unless it moves the
    // present back, when those boards may stay unplayed tips: FindCapture walks their pieces), so
    // the present after it is at most P + 1, and a timeline active now has a copy only if its tip
    // then is the present: a board of the mover on P, played, or a board of the opponent on
    // P + 1. A timeline inactive now may be activated by the timelines the action creates: its
    // copy is counted wherever it would be.
    const int present = present_;
    // Only an action that creates a timeline activates one, and where the opponent is two
    // timelines ahead or more it leaves no board of theirs after this on the present.
    const int branch_present = LatestPresentAfterBranching(pos_, 1);
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l)) continue;
      const int tip_half = pos_.TipHalf(l);
      const bool mine = ColorOf(tip_half) == mover_;
      playable_ += mine ? 1 : 0;
      const int copy_half = tip_half + (mine ? 2 : 1);
      if (pos_.IsActive(l) && copy_half != present + 2) continue;
      if (!pos_.IsActive(l) && copy_half - 1 > branch_present) continue;
      // An inactive timeline of the mover's side stays inactive: only the opponent's timelines
      // make it active, and the action creates the mover's. It is never mandatory.
      if (!pos_.IsActive(l) &&
          (mover_ == Color::kWhite ? l > pos_.initial_max() : l < pos_.initial_min())) {
        continue;
      }
      copy_index_[l - pos_.min_timeline()] = NewUnionBoard(pos_.Tip(l));
      copy_half_[l - pos_.min_timeline()] = copy_half;
    }
    // Each branching jump creates one of at most `playable_` new timelines, in any order; only
    // those that will be active can be mandatory and have a copy: the n-th timeline of a player
    // is active when the opponent created at least n - 1.
    const int active_new = std::min(
        playable_, std::max(0, pos_.CreatedBy(Opponent(mover_)) - pos_.CreatedBy(mover_) + 1));
    if (mover_ == Color::kWhite) {
      new_low_ = pos_.max_timeline() + 1;
      new_high_ = pos_.max_timeline() + active_new;
    } else {
      new_low_ = pos_.min_timeline() - active_new;
      new_high_ = pos_.min_timeline() - 1;
    }
    // Then what each move of the mover could leave on them.
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || ColorOf(pos_.TipHalf(l)) != mover_) continue;
      const Board& tip = pos_.Tip(l);
      // Its copy, if it may have one (boards_ grows: no reference into it is kept). The moves of
      // a board without one still count for the timelines their jumps may create.
      const int own = copy_index_[l - pos_.min_timeline()];
      ForEachTipMove(pos_, l, promotions, [&](const Move& move, Piece) {
        const Piece piece = tip.at(move.from);
        if (IsRoyal(piece.type()) && ExposesAlone(move)) return false;
        const Piece landed =
            move.promotion == PieceType::kNone ? piece : Piece(move.promotion, piece.color());
        if (own >= 0) boards_[own].cells[move.from.rank * width_ + move.from.file] |= kEmptyCell;
        if (!move.IsJump()) {
          if (own < 0) return false;
          boards_[own].cells[move.to.rank * width_ + move.to.file] |= CellOf(landed);
          if (move.flags & Move::kCastle) {
            boards_[own].cells[move.from.rank * width_ + move.rook_from_file] |= kEmptyCell;
            boards_[own].cells[move.from.rank * width_ + move.rook_to_file] |=
                CellOf(tip.at(move.rook_from_file, move.from.rank));
          }
          if (move.flags & Move::kEnPassant) {
            const Square victim = tip.en_passant_victim();
            boards_[own].cells[victim.rank * width_ + victim.file] |= kEmptyCell;
          }
          return false;
        }
        // A jump onto a tip of the mover's colour arrives there when that tip is not played
        // before it, and branches otherwise; onto an older board it always branches.
        const int arrived = copy_index_[move.dst_timeline - pos_.min_timeline()];
        if (pos_.TipHalf(move.dst_timeline) == move.dst_half && arrived >= 0) {
          boards_[arrived].cells[move.to.rank * width_ + move.to.file] |= CellOf(landed);
        }
        // A new timeline's first board follows the one landed on; it has a copy only if it is
        // then the present, at most P + 1, which needs a board landed on at P or before.
        if (move.dst_half > present || active_new == 0 || move.dst_half + 1 > branch_present) {
          return false;
        }
        const size_t copy_half = static_cast<size_t>(move.dst_half) + 2;
        if (new_by_half_.size() <= copy_half) new_by_half_.resize(copy_half + 1, -1);
        const Board& base = *pos_.BoardAt(move.dst_timeline, move.dst_half);
        if (new_by_half_[copy_half] < 0) {
          new_by_half_[copy_half] = NewUnionBoard(base);
        } else {
          union_cells::MergeBoard(base, &boards_[new_by_half_[copy_half]].cells);
        }
        boards_[new_by_half_[copy_half]].cells[move.to.rank * width_ + move.to.file] |=
            CellOf(landed);
        return false;
      });
    }
  }

  const Position& pos_;
  Color mover_;
  int present_;
  int width_;
  int height_;
  std::vector<UnionBoard> boards_;
  std::vector<int> copy_index_;  // by timeline - min_timeline: its passing copy in boards_
  std::vector<int> copy_half_;   // and the copy's half-turn
  int new_low_ = 0;              // the timelines an action may create
  int new_high_ = -1;
  std::vector<int> new_by_half_;       // by half-turn: the union of new timelines' copies there
  std::unique_ptr<Position> scratch_;  // for ExposesAlone, made at its first call
  bool quiet_for_opponent_ = false;    // no royal of the mover capturable in pos_
  int playable_ = 0;                   // tips of the mover's colour in pos_ (Build)
};

}  // namespace

CheckScreen ScreenChecks(const Position& pos, PromotionSet promotions) {
  if (RoyalCapturable(pos, pos.ToMove(), /*promoting_captures=*/true)) {
    return CheckScreen::kNotApplicable;
  }
  BoardUnion boards(pos, promotions);
  return boards.FindCapture() ? CheckScreen::kMayCheck : CheckScreen::kNoCheck;
}

const char* CheckScreenName(CheckScreen screen) {
  switch (screen) {
    case CheckScreen::kNoCheck:
      return "no check";
    case CheckScreen::kMayCheck:
      return "may check";
    case CheckScreen::kNotApplicable:
      return "not applicable";
  }
  return "not applicable";
}

}  // namespace fived
