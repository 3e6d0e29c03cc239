// The proof that no action mates, by a safe reply on every board the opponent may have to play;
// see reply_proof.h for why it proves.
#include "core/reply_proof.h"

#include <algorithm>
#include <vector>

#include "core/action.h"
#include "core/check.h"

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

}  // namespace reply_proof_internal

namespace {

using reply_proof_internal::AttackedOnBoard;

// What a square of a union board may hold, as a bit set: bit 0 when it may be empty, bit (piece
// byte & 0x1f) when it may hold that piece (colour and type).
using Cell = uint32_t;
constexpr Cell kEmptyCell = 1;

Cell CellOf(Piece piece) { return piece.empty() ? kEmptyCell : Cell{1} << (piece.bits() & 0x1f); }

// Calls f(square) for each royal piece of `color` on `board`; returns true as soon as f does.
template <typename F>
bool AnyRoyal(const Board& board, Color color, F&& f) {
  if (!board.royals_overflow()) {
    const int count = board.royal_count(color);
    for (int i = 0; i < count; ++i) {
      if (f(board.royal(color, i))) return true;
    }
    return false;
  }
  for (int rank = 0; rank < board.height(); ++rank) {
    for (int file = 0; file < board.width(); ++file) {
      const Piece piece = board.at(file, rank);
      if (!piece.empty() && piece.color() == color && IsRoyal(piece.type()) &&
          f(Square{static_cast<int8_t>(file), static_cast<int8_t>(rank)})) {
        return true;
      }
    }
  }
  return false;
}

// Whether a piece of `attacker` on `board` can capture a royal piece of the other colour there.
// A pawn's capture onto the attacker's last rank counts only when it surely would (JudgeAction
// counts it when some board holds a piece to promote to): with `surely`, it is not counted, so
// that a true answer holds whatever the position; without, it is counted, so that a false one
// does.
bool RoyalAttackedOnBoard(const Board& board, Color attacker, bool surely) {
  const int last_rank = attacker == Color::kWhite ? board.height() - 1 : 0;
  return AnyRoyal(board, Opponent(attacker), [&](Square square) {
    return AttackedOnBoard(board, square, attacker, !surely || square.rank != last_rank);
  });
}

// A board the opponent may have to play, and the union of the boards its replies make.
struct Slot {
  int reply_half = 0;       // the half-turn of the boards the replies make
  std::vector<Cell> cells;  // the union of those boards, rank by rank
  bool has_reply = false;   // `reply` worked on an earlier version: tried first on the next
  Move reply;
  // Squares of the replies' boards that a capture across boards may reach (found by an earlier
  // round): a reply leaves no royal piece there.
  std::vector<uint8_t> danger;
  // Pieces of the mover (Cell bits) that a capture across boards may start from, by square of
  // the replies' boards: a reply leaves none of them there (it captures them, as a rule).
  std::vector<Cell> hot;
  // The hot pieces some version could not capture: answered by the royal pieces instead (their
  // squares' danger), as the pieces that stand there whatever the action did.
  std::vector<Cell> unanswerable;
};

class Prover {
 public:
  Prover(const Position& pos, PromotionSet promotions)
      : pos_(pos),
        scratch_(pos),
        promotions_(promotions),
        mover_(pos.ToMove()),
        opponent_(Opponent(pos.ToMove())),
        present_(pos.Present()),
        width_(pos.width()),
        height_(pos.height()) {
    scratch_.DropKeys();
  }

  ReplyProof Run() {
    ReplyProof out;
    out.result = Prove(&out);
    out.work = work_;
    out.versions = versions_;
    return out;
  }

 private:
  ReplyProof::Result Prove(ReplyProof* out) {
    if (RoyalCapturable(pos_, mover_, /*promoting_captures=*/true)) {
      return ReplyProof::Result::kNotApplicable;
    }
    MakeSlots();
    out->slots = slots_.size();
    // Each round chooses the replies again, keeping the royal pieces off the squares that the
    // earlier rounds' unions let a capture across boards reach; the last round's union is the
    // one searched, so the proof holds whatever the earlier rounds found.
    for (int round = 0;; ++round) {
      if (!ChooseReplies()) return ReplyProof::Result::kNoSafeReply;
      if (!CrossCapture()) return ReplyProof::Result::kNoMate;
      if (round + 1 == kRounds || !MarkDanger()) return ReplyProof::Result::kCrossCapture;
    }
  }

  static constexpr int kRounds = 3;

  // Gives every version of every slot a safe reply, the unions made afresh. False when some
  // version has none.
  bool ChooseReplies() {
    for (Slot& slot : slots_) {
      std::fill(slot.cells.begin(), slot.cells.end(), 0);
      slot.has_reply = false;
    }
    // The slots whose board is the opponent's tip already: one version, the tip.
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      const int slot = SlotOf(l);
      if (slot < 0 || ColorOf(pos_.TipHalf(l)) != opponent_) continue;
      if (!ReplyToVersion(l, slot, -1)) return false;
    }
    // Every move of the mover that makes a slot's board: the versions.
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || ColorOf(pos_.TipHalf(l)) != mover_) continue;
      bool failed = false;
      ForEachTipMove(pos_, l, promotions_, [&](const Move& move, Piece) {
        failed = !VersionsOf(move);
        return failed;
      });
      if (failed) return false;
    }
    return true;
  }

  int SlotOf(int timeline) const {
    if (timeline < pos_.min_timeline() || timeline > pos_.max_timeline()) return -1;
    return slot_of_[timeline - pos_.min_timeline()];
  }

  int NewSlot(int reply_half) {
    slots_.emplace_back();
    slots_.back().reply_half = reply_half;
    slots_.back().cells.assign(static_cast<size_t>(width_) * height_, 0);
    slots_.back().danger.assign(static_cast<size_t>(width_) * height_, 0);
    slots_.back().hot.assign(static_cast<size_t>(width_) * height_, 0);
    slots_.back().unanswerable.assign(static_cast<size_t>(width_) * height_, 0);
    return static_cast<int>(slots_.size()) - 1;
  }

  // The slots of the existing timelines, and the range of the new ones (as the check screen
  // counts the timelines that may be mandatory, core/check_screen.cc).
  void MakeSlots() {
    const int count = pos_.max_timeline() - pos_.min_timeline() + 1;
    slot_of_.assign(std::max(count, 0), -1);
    int playable = 0;
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l)) continue;
      const int tip_half = pos_.TipHalf(l);
      const bool mine = ColorOf(tip_half) == mover_;
      playable += mine ? 1 : 0;
      // The half-turn of the opponent's board there after the action.
      const int board_half = tip_half + (mine ? 1 : 0);
      if (pos_.IsActive(l)) {
        if (board_half != present_ + 1) continue;
      } else {
        // Only the opponent's timelines are activated by the mover's new ones; a board past
        // P + 1 is never on the present after the action.
        if (mover_ == Color::kWhite ? l > pos_.initial_max() : l < pos_.initial_min()) continue;
        if (board_half > present_ + 1) continue;
      }
      slot_of_[l - pos_.min_timeline()] = NewSlot(board_half + 1);
    }
    active_new_ =
        std::min(playable, std::max(0, pos_.CreatedBy(opponent_) - pos_.CreatedBy(mover_) + 1));
    if (mover_ == Color::kWhite) {
      new_low_ = pos_.max_timeline() + 1;
      new_high_ = pos_.max_timeline() + active_new_;
    } else {
      new_low_ = pos_.min_timeline() - active_new_;
      new_high_ = pos_.min_timeline() - 1;
    }
  }

  // The slot of the new timelines whose first board (the opponent's) is on `board_half`, made on
  // first use.
  int NewTimelineSlot(int board_half) {
    const size_t index = static_cast<size_t>(board_half);
    if (new_by_half_.size() <= index) new_by_half_.resize(index + 1, -1);
    if (new_by_half_[index] < 0) new_by_half_[index] = NewSlot(board_half + 1);
    return new_by_half_[index];
  }

  // Plays `move` on the scratch position and gives a reply to each slot's version it makes.
  // False when one of them has none.
  bool VersionsOf(const Move& move) {
    const int src_slot = SlotOf(move.src_timeline);
    int arrival_slot = -1, branch_slot = -1;
    const bool onto_tip = move.IsJump() && pos_.TipHalf(move.dst_timeline) == move.dst_half;
    if (onto_tip) arrival_slot = SlotOf(move.dst_timeline);
    // A jump onto a tip branches instead when that tip was played before it; the new timeline's
    // first board is then the same board.
    if (move.IsJump() && move.dst_half <= present_ && active_new_ > 0) {
      branch_slot = NewTimelineSlot(move.dst_half + 1);
    }
    if (src_slot < 0 && arrival_slot < 0 && branch_slot < 0) return true;
    const Position::Mark mark = scratch_.GetMark();
    const MoveEffect effect = ApplyMove(&scratch_, move);
    ++work_;
    bool ok = true;
    if (src_slot >= 0) ok = ReplyToVersion(move.src_timeline, src_slot, -1);
    if (ok && move.IsJump()) {
      const int made = effect.branching ? effect.new_timeline : move.dst_timeline;
      if (effect.branching) {
        if (branch_slot >= 0) ok = ReplyToVersion(made, branch_slot, -1);
      } else if (arrival_slot >= 0 || branch_slot >= 0) {
        ok = ReplyToVersion(made, arrival_slot >= 0 ? arrival_slot : branch_slot,
                            arrival_slot >= 0 ? branch_slot : -1);
      }
    }
    scratch_.Rollback(mark);
    return ok;
  }

  // Gives the version on the tip of `timeline` of the scratch position (the opponent's board) a
  // safe reply, and adds the board it makes to the union of `slot` and of `also` (another slot
  // the same board may stand for, or -1). True when the version has a safe reply or cannot be
  // part of a legal action.
  bool ReplyToVersion(int timeline, int slot, int also) {
    // A copy: replies are played on the scratch position while the version is read.
    const Board version = scratch_.Tip(timeline);
    // The action that leaves this board is illegal: it stays the opponent's tip.
    if (RoyalAttackedOnBoard(version, opponent_, /*surely=*/true)) return true;
    ++versions_;
    const int half = scratch_.TipHalf(timeline);
    if (slots_[slot].has_reply && TryReply(timeline, half, slots_[slot].reply, slot, also)) {
      return true;
    }
    // The moves of the other pieces first: a royal piece that stays where it is keeps the
    // union's royals in one place. Collected before any is played on the scratch position.
    const MoveView view(scratch_);
    const TargetBoard own_board{timeline, half};
    replies_.clear();
    for (int pass = 0; pass < 2; ++pass) {
      for (int rank = 0; rank < height_; ++rank) {
        for (int file = 0; file < width_; ++file) {
          const Piece piece = version.at(file, rank);
          if (piece.empty() || piece.color() != opponent_) continue;
          if (IsRoyal(piece.type()) != (pass == 1)) continue;
          const Square from{static_cast<int8_t>(file), static_cast<int8_t>(rank)};
          ForEachPieceMove(
              view, timeline, half, from, piece, GenMode::kAll, promotions_,
              [&](const Move& reply, Piece) {
                if (!reply.IsJump()) replies_.push_back(reply);
                return false;
              },
              &own_board);
        }
      }
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
      for (const Move& reply : replies_) {
        if (TryReply(timeline, half, reply, slot, also, /*generated=*/true)) return true;
      }
      // No reply captures every hot piece the version holds: those are left to the royal
      // pieces from the next round on, and this round goes on without asking their capture.
      if (attempt > 0) break;
      // Both slots' hot pieces are given up (no short cut).
      const bool gave_up = GiveUpHot(version, slot);
      if (!(also >= 0 && GiveUpHot(version, also)) && !gave_up) return false;
    }
    return false;
  }

  // Marks the hot pieces of `board` unanswerable on the slot; false when there were none.
  bool GiveUpHot(const Board& board, int slot) {
    Slot& owner = slots_[slot];
    bool any = false;
    for (int rank = 0; rank < height_; ++rank) {
      for (int file = 0; file < width_; ++file) {
        const int i = rank * width_ + file;
        const Piece piece = board.at(file, rank);
        if (piece.empty() || piece.color() != mover_) continue;
        const Cell bit = CellOf(piece) & owner.hot[i] & ~owner.unanswerable[i];
        if (bit == 0) continue;
        owner.unanswerable[i] |= bit;
        any = true;
      }
    }
    return any;
  }

  // Plays `reply` (a move generated on the board at (timeline, half) of the scratch position, or
  // the slot's earlier reply, checked to be one here) and keeps it when no royal piece of the
  // opponent on the board it makes is capturable by the mover there.
  bool TryReply(int timeline, int half, Move reply, int slot, int also, bool generated = false) {
    reply.src_timeline = reply.dst_timeline = static_cast<int16_t>(timeline);
    reply.src_half = reply.dst_half = static_cast<int16_t>(half);
    const Board& version = scratch_.Tip(timeline);
    const Piece piece = version.at(reply.from);
    if (piece.empty() || piece.color() != opponent_) return false;
    if (!generated && !IsGenerated(timeline, half, piece, reply)) return false;
    const Position::Mark mark = scratch_.GetMark();
    ApplyMove(&scratch_, reply);
    ++work_;
    const Board& made = scratch_.Tip(timeline);
    const std::vector<uint8_t>& danger = slots_[slot].danger;
    const bool safe =
        !RoyalAttackedOnBoard(made, mover_, /*surely=*/false) &&
        !AnyRoyal(made, opponent_, [&](Square s) { return danger[s.rank * width_ + s.file]; }) &&
        (also < 0 ||
         !AnyRoyal(made, opponent_,
                   [&](Square s) { return slots_[also].danger[s.rank * width_ + s.file]; })) &&
        !HoldsHot(made, slot) && (also < 0 || !HoldsHot(made, also));
    if (safe) {
      Merge(made, slot);
      if (also >= 0) Merge(made, also);
      slots_[slot].has_reply = true;
      slots_[slot].reply = reply;
    }
    scratch_.Rollback(mark);
    return safe;
  }

  // Whether `board` holds a piece of the mover on a square where the slot's hot mask has it.
  bool HoldsHot(const Board& board, int slot) const {
    const std::vector<Cell>& hot = slots_[slot].hot;
    for (int rank = 0; rank < height_; ++rank) {
      for (int file = 0; file < width_; ++file) {
        const Cell cell =
            hot[rank * width_ + file] & ~slots_[slot].unanswerable[rank * width_ + file];
        if (cell == 0) continue;
        const Piece piece = board.at(file, rank);
        if (!piece.empty() && (cell & CellOf(piece)) != 0) return true;
      }
    }
    return false;
  }

  // Whether the move generator gives `reply` on its board: a remembered reply may not be a move
  // on another version.
  bool IsGenerated(int timeline, int half, Piece piece, const Move& reply) {
    const MoveView view(scratch_);
    const TargetBoard own_board{timeline, half};
    bool generated = false;
    ForEachPieceMove(
        view, timeline, half, reply.from, piece, GenMode::kAll, promotions_,
        [&](const Move& move, Piece) {
          generated = move == reply;
          return generated;
        },
        &own_board);
    return generated;
  }

  void Merge(const Board& board, int slot) {
    std::vector<Cell>& cells = slots_[slot].cells;
    for (int rank = 0; rank < height_; ++rank) {
      for (int file = 0; file < width_; ++file) {
        cells[rank * width_ + file] |= CellOf(board.at(file, rank));
      }
    }
  }

  // A board of the mover's colour after an action and its reply: one of the position, a slot's
  // union, or none.
  struct Place {
    const Board* board = nullptr;
    const std::vector<Cell>* merged = nullptr;
    int slot = -1;  // the slot of `merged`
    bool exists() const { return board != nullptr || merged != nullptr; }
  };

  Place At(int timeline, int half) const {
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

  Cell CellAt(const Place& place, int file, int rank) const {
    if (place.board != nullptr) return CellOf(place.board->at(file, rank));
    return (*place.merged)[rank * width_ + file];
  }

  bool Contains(int file, int rank) const {
    return file >= 0 && file < width_ && rank >= 0 && rank < height_;
  }

  // Whether a piece of the mover of type `type` on (timeline, half, file, rank) may capture a
  // cell that may hold one of `royals` along a vector that leaves its board, crossing cells
  // that may be empty. Captures on one board are the replies' business.
  bool ReachesAcross(int timeline, int half, int file, int rank, PieceType type,
                     Cell royals) const {
    if (IsPawnLike(type)) {
      const int fy = mover_ == Color::kWhite ? 1 : -1;
      const int fl = mover_ == Color::kWhite ? -1 : 1;
      auto capture = [&](const Vec& c) {
        if (c.t == 0 && c.l == 0) return false;
        const int x = file + c.x, y = rank + c.y * fy;
        if (!Contains(x, y)) return false;
        const Place place = At(timeline + c.l * fl, half + 2 * c.t);
        return place.exists() && (CellAt(place, x, y) & royals) != 0;
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
      if (v.t == 0 && v.l == 0) continue;
      int x = file, y = rank, l = timeline, h = half;
      for (;;) {
        x += v.x;
        y += v.y;
        l += v.l;
        h += 2 * v.t;
        if (!Contains(x, y)) break;
        const Place place = At(l, h);
        if (!place.exists()) break;
        const Cell cell = CellAt(place, x, y);
        if ((cell & royals) != 0) return true;
        if (!slides || (cell & kEmptyCell) == 0) break;
      }
    }
    return false;
  }

  bool UnionReaches(const std::vector<Cell>& cells, int timeline, int half, Cell royals) const {
    const Cell mover_bits = mover_ == Color::kWhite ? 0x0000fffe : 0xfffe0000;
    for (int rank = 0; rank < height_; ++rank) {
      for (int file = 0; file < width_; ++file) {
        Cell pieces = cells[rank * width_ + file] & mover_bits;
        while (pieces != 0) {
          const int bit = __builtin_ctz(pieces);
          pieces &= pieces - 1;
          const PieceType type = static_cast<PieceType>(bit & 0x0f);
          if (ReachesAcross(timeline, half, file, rank, type, royals)) return true;
        }
      }
    }
    return false;
  }

  // Whether the union of the replies' boards holds a capture of an opponent royal across boards,
  // from a tip of the mover that the action may leave unplayed or from a reply's board.
  bool CrossCapture() const {
    const Cell royals = CellOf(Piece(PieceType::kKing, opponent_)) |
                        CellOf(Piece(PieceType::kRoyalQueen, opponent_));
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l)) continue;
      const int tip_half = pos_.TipHalf(l);
      const bool played = pos_.IsActive(l) && tip_half == present_;
      if (ColorOf(tip_half) == mover_ && !played) {
        const Board& tip = pos_.Tip(l);
        for (int rank = 0; rank < height_; ++rank) {
          for (int file = 0; file < width_; ++file) {
            const Piece piece = tip.at(file, rank);
            if (piece.empty() || piece.color() != mover_) continue;
            if (ReachesAcross(l, tip_half, file, rank, piece.type(), royals)) return true;
          }
        }
      }
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
  // capture it (the slot's hot mask); and no royal piece steps onto a square such a piece
  // reaches. False when nothing new was marked (another round would choose the same).
  bool MarkDanger() {
    const Cell royals = CellOf(Piece(PieceType::kKing, opponent_)) |
                        CellOf(Piece(PieceType::kRoyalQueen, opponent_));
    bool marked = false, hits = false, fixed = true;
    auto mark = [&](const Place& place, int x, int y) {
      const bool royal = (CellAt(place, x, y) & royals) != 0;
      if (place.slot < 0) {
        if (royal) hits = true;
        return;
      }
      if (royal && !fixed) {
        hits = true;
        return;
      }
      uint8_t& square = slots_[place.slot].danger[y * width_ + x];
      if (square == 0 && royal) marked = true;
      square = 1;
    };
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l)) continue;
      const int tip_half = pos_.TipHalf(l);
      const bool played = pos_.IsActive(l) && tip_half == present_;
      if (ColorOf(tip_half) == mover_ && !played) {
        const Board& tip = pos_.Tip(l);
        for (int rank = 0; rank < height_; ++rank) {
          for (int file = 0; file < width_; ++file) {
            const Piece piece = tip.at(file, rank);
            if (piece.empty() || piece.color() != mover_) continue;
            fixed = true;
            WalkAcross(l, tip_half, file, rank, piece.type(), mark);
          }
        }
      }
    }
    const Cell mover_bits = mover_ == Color::kWhite ? 0x0000fffe : 0xfffe0000;
    // `base`: the position's tip the slot's boards follow (nullptr for new timelines).
    auto walk_union = [&](int slot, int timeline, const Board* base) {
      Slot& from = slots_[slot];
      for (int rank = 0; rank < height_; ++rank) {
        for (int file = 0; file < width_; ++file) {
          Cell pieces = from.cells[rank * width_ + file] & mover_bits;
          while (pieces != 0) {
            const int bit = __builtin_ctz(pieces);
            pieces &= pieces - 1;
            hits = false;
            fixed = (base != nullptr && (CellOf(base->at(file, rank)) & (Cell{1} << bit)) != 0) ||
                    (from.unanswerable[rank * width_ + file] & (Cell{1} << bit)) != 0;
            WalkAcross(timeline, from.reply_half, file, rank, static_cast<PieceType>(bit & 0x0f),
                       mark);
            Cell& hot = from.hot[rank * width_ + file];
            if (hits && (hot & (Cell{1} << bit)) == 0) {
              hot |= Cell{1} << bit;
              marked = true;
            }
          }
        }
      }
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

  // Calls mark(place, file, rank) for every square a piece of the mover of type `type` on
  // (timeline, half, file, rank) may land on by a capture along a vector that leaves its board.
  template <typename Mark>
  void WalkAcross(int timeline, int half, int file, int rank, PieceType type, Mark& mark) const {
    if (IsPawnLike(type)) {
      const int fy = mover_ == Color::kWhite ? 1 : -1;
      const int fl = mover_ == Color::kWhite ? -1 : 1;
      auto capture = [&](const Vec& c) {
        if (c.t == 0 && c.l == 0) return;
        const int x = file + c.x, y = rank + c.y * fy;
        if (!Contains(x, y)) return;
        const Place place = At(timeline + c.l * fl, half + 2 * c.t);
        if (place.exists()) mark(place, x, y);
      };
      for (const Vec& c : movegen_internal::kPawnCaptures) capture(c);
      if (type == PieceType::kBrawn) {
        for (const Vec& c : movegen_internal::kBrawnCaptures) capture(c);
      }
      return;
    }
    const bool slides = IsSlider(type);
    for (const Vec& v : movegen_internal::Vectors(type)) {
      if (v.t == 0 && v.l == 0) continue;
      int x = file, y = rank, l = timeline, h = half;
      for (;;) {
        x += v.x;
        y += v.y;
        l += v.l;
        h += 2 * v.t;
        if (!Contains(x, y)) break;
        const Place place = At(l, h);
        if (!place.exists()) break;
        mark(place, x, y);
        if (!slides || (CellAt(place, x, y) & kEmptyCell) == 0) break;
      }
    }
  }

  const Position& pos_;
  Position scratch_;  // the position with one move of the mover and one reply played at most
  PromotionSet promotions_;
  Color mover_;
  Color opponent_;
  int present_;
  int width_;
  int height_;
  std::vector<Slot> slots_;
  std::vector<int> slot_of_;      // by timeline - min_timeline: its slot in slots_, or -1
  std::vector<int> new_by_half_;  // by the new timelines' first half-turn: their slot, or -1
  int active_new_ = 0;            // how many new timelines may be active
  int new_low_ = 0;
  int new_high_ = -1;
  std::vector<Move> replies_;  // the replies of one version, collected before they are tried
  uint64_t work_ = 0;
  uint64_t versions_ = 0;
};

}  // namespace

ReplyProof ProveNoMateByReplies(const Position& pos, PromotionSet promotions) {
  Prover prover(pos, promotions);
  return prover.Run();
}

const char* ReplyProofResultName(ReplyProof::Result result) {
  switch (result) {
    case ReplyProof::Result::kNoMate:
      return "no mate";
    case ReplyProof::Result::kNoSafeReply:
      return "no safe reply";
    case ReplyProof::Result::kCrossCapture:
      return "cross capture";
    case ReplyProof::Result::kNotApplicable:
      return "not applicable";
  }
  return "not applicable";
}

}  // namespace fived
