// The reply proof's versions and replies (reply_proof.h): every board one move of the mover can
// leave on a slot, a reply on that board keeping the opponent's royal pieces safe there (and off
// the squares, and rid of the pieces, that earlier rounds marked), and the union of the boards
// the replies make.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "core/action.h"
#include "core/reply_proof_internal.h"

namespace fived::reply_proof_internal {

// Gives every version of every slot a safe reply, the unions made afresh. False when some
// version has none.
bool Prover::ChooseReplies() {
  for (Slot& slot : slots_) {
    std::fill(slot.cells.begin(), slot.cells.end(), 0);
    slot.has_reply = false;
    slot.makers.clear();
    slot.tip_version = false;
  }
  deferred_.clear();
  making_ = nullptr;
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
  return ResolveDeferred();
}

// Plays `move` on the scratch position and gives a reply to each slot's version it makes.
// False when one of them has none.
bool Prover::VersionsOf(const Move& move) {
  const int src_slot = SlotOf(move.src_timeline);
  int arrival_slot = -1, branch_slot = -1;
  const bool onto_tip = move.IsJump() && pos_.TipHalf(move.dst_timeline) == move.dst_half;
  if (onto_tip) arrival_slot = SlotOf(move.dst_timeline);
  // A jump onto a tip branches instead when that tip was played before it; the new timeline's
  // first board is then the same board.
  if (move.IsJump() && move.dst_half <= present_ && active_new_ > 0) {
    if (move.dst_half + 1 <= branch_present_) {
      branch_slot = NewTimelineSlot(move.dst_half + 1);
    } else {
      left_out_late_ = true;
    }
  }
  if (src_slot < 0 && arrival_slot < 0 && branch_slot < 0) return true;
  const Position::Mark mark = scratch_.GetMark();
  const MoveEffect effect = ApplyMove(&scratch_, move);
  ++work_;
  making_ = &move;
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
  making_ = nullptr;
  scratch_.Rollback(mark);
  return ok;
}

// Gives the version on the tip of `timeline` of the scratch position (the opponent's board) a
// safe reply, and adds the board it makes to the union of `slot` and of `also` (another slot
// the same board may stand for, or -1). True when the version has a safe reply or cannot be
// part of a legal action.
bool Prover::ReplyToVersion(int timeline, int slot, int also) {
  // A copy: replies are played on the scratch position while the version is read.
  const Board version = scratch_.Tip(timeline);
  // The action that leaves this board is illegal: it stays the opponent's tip.
  if (RoyalAttackedOnBoard(version, opponent_, /*surely=*/true)) return true;
  ++versions_;
  if (making_ != nullptr) {
    slots_[slot].makers.push_back(*making_);
  } else {
    slots_[slot].tip_version = true;
  }
  // A version with no reply on its own board may still have one across two boards: left to
  // ResolveDeferred when it stands on a timeline of the position, whatever the action did (not
  // a board a jump may put on a new timeline instead), and was made by a move on its own board
  // or is the opponent's tip. `fallback`: it may have one on its own board once its hot pieces
  // are given up, tried when none across two boards captures them.
  auto defer = [&](bool fallback) {
    if (also >= 0 || SlotOf(timeline) != slot || (making_ != nullptr && making_->IsJump()) ||
        deferred_.size() >= kMaxDeferred) {
      return false;
    }
    deferred_.push_back(
        {slot, timeline, making_ == nullptr, fallback, making_ ? *making_ : Move{}});
    return true;
  };
  const int half = scratch_.TipHalf(timeline);
  if (slots_[slot].has_reply && TryReply(timeline, half, slots_[slot].reply, slot, also)) {
    return true;
  }
  CollectReplies(version, timeline, half);
  if (TryReplies(timeline, half, slot, also)) return true;
  if (Escaped(timeline, slot, also)) return true;
  // No reply captures every hot piece the version holds: a move from another board may, else
  // they are left to the royal pieces from the next round on, and this round goes on without
  // asking their capture.
  if (HoldsHot(version, slot) && defer(/*fallback=*/true)) return true;
  // Both slots' hot pieces are given up (no short cut).
  const bool gave_up = GiveUpHot(version, slot);
  if (!(also >= 0 && GiveUpHot(version, also)) && !gave_up) return defer(false);
  return TryReplies(timeline, half, slot, also) || defer(false);
}

// Whether the version on the tip of `timeline` of the scratch position, which has no reply on its
// own board, has a branch of the opponent that answers every action making it alone (the branch
// escape, core/branch_escape.h): those actions need no reply on any other board, so the version
// adds nothing to the unions. Only for a version that stands on a timeline of the position and
// for one slot: a board a jump may put on a new timeline instead stands elsewhere in some
// actions.
// The answer does not change from round to round: it is asked once per version.
bool Prover::Escaped(int timeline, int slot, int also) {
  if (also >= 0 || SlotOf(timeline) != slot) return false;
  const Move made = making_ != nullptr ? *making_ : Move{};
  for (const EscapeAsked& asked : escapes_asked_) {
    if (asked.timeline == timeline && asked.made == made) return asked.escaped;
  }
  if (escape_ == nullptr) {
    owned_escape_ = std::make_unique<BranchEscape>(pos_, promotions_, &work_);
    escape_ = owned_escape_.get();
  }
  const bool escaped = escape_->Answers(&scratch_, timeline);
  escapes_asked_.push_back({timeline, made, escaped});
  if (escaped) ++escaped_;
  return escaped;
}

// Collects in replies_ the moves of the opponent's pieces on `version`, the tip of `timeline`
// (at `half`) of the scratch position, that stay on it: the moves of the other pieces first, as a
// royal piece that stays where it is keeps the union's royals in one place. Collected before any
// is played on the scratch position.
void Prover::CollectReplies(const Board& version, int timeline, int half) {
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
}

bool Prover::TryReplies(int timeline, int half, int slot, int also) {
  for (const Move& reply : replies_) {
    if (TryReply(timeline, half, reply, slot, also, /*generated=*/true)) return true;
  }
  return false;
}

// Gives each deferred version a reply across two boards (PairReply): a move of the opponent
// between its board and the board of another slot B, which every action makes (the opponent's
// tip, or the board after a tip of the mover on the present). A slot some of whose versions are
// answered so (paired) is no B, and each B serves one paired slot only, so that no action asks
// two replies of one board. The versions with no reply on their own board come first: their
// slots are paired whatever happens; a version that has one once its hot pieces are given up
// takes it when no B is left for it, or when its own slot serves as a B already. False when a
// deferred version has no reply.
bool Prover::ResolveDeferred() {
  if (deferred_.empty()) return true;
  std::vector<uint8_t> paired(slots_.size(), 0);
  for (const Deferred& d : deferred_) {
    if (!d.fallback) paired[d.slot] = 1;
  }
  std::vector<int> serves(slots_.size(), -1);
  for (int pass = 0; pass < 2; ++pass) {
    for (const Deferred& d : deferred_) {
      if (d.fallback != (pass == 1)) continue;
      bool answered = false;
      if (serves[d.slot] < 0) {
        for (int l = pos_.min_timeline(); l <= pos_.max_timeline() && !answered; ++l) {
          const int other = SlotOf(l);
          if (other < 0 || other == d.slot || paired[other] ||
              (serves[other] >= 0 && serves[other] != d.slot)) {
            continue;
          }
          const int tip_half = pos_.TipHalf(l);
          if (ColorOf(tip_half) == mover_ && !(pos_.IsActive(l) && tip_half == present_)) continue;
          if (PairReply(d.tip ? nullptr : &d.move, d.timeline, d.slot, l, other)) {
            serves[other] = d.slot;
            paired[d.slot] = 1;
            answered = true;
          }
        }
      }
      if (!answered && d.fallback) answered = FallBack(d);
      if (!answered) return false;
    }
  }
  return true;
}

// The reply on its own board of a deferred version that no move across two boards answered,
// its hot pieces given up (as ReplyToVersion would have).
bool Prover::FallBack(const Deferred& d) {
  const Position::Mark mark = scratch_.GetMark();
  if (!d.tip) {
    ApplyMove(&scratch_, d.move);
    ++work_;
  }
  const Board version = scratch_.Tip(d.timeline);
  GiveUpHot(version, d.slot);
  const int half = scratch_.TipHalf(d.timeline);
  CollectReplies(version, d.timeline, half);
  const bool answered = TryReplies(d.timeline, half, d.slot, -1);
  scratch_.Rollback(mark);
  return answered;
}

// Calls visit(move) for each move of the opponent from the tip of one of `timeline` and
// `other_timeline` of the scratch position onto the tip of the other, crossing no third board (a
// slider or a pawn moves one step in time and timeline at most).
template <typename Visit>
void Prover::ForEachPairMove(int timeline, int other_timeline, Visit&& visit) {
  const MoveView view(scratch_);
  for (int direction = 0; direction < 2; ++direction) {
    const int from_timeline = direction == 0 ? other_timeline : timeline;
    const int to_timeline = direction == 0 ? timeline : other_timeline;
    const int from_half = scratch_.TipHalf(from_timeline);
    const Board& board = scratch_.Tip(from_timeline);
    if (ColorOf(from_half) != opponent_ || ColorOf(scratch_.TipHalf(to_timeline)) != opponent_) {
      continue;
    }
    const TargetBoard target{to_timeline, scratch_.TipHalf(to_timeline)};
    for (int rank = 0; rank < height_; ++rank) {
      for (int file = 0; file < width_; ++file) {
        const Piece piece = board.at(file, rank);
        if (piece.empty() || piece.color() != opponent_) continue;
        const bool steps = IsSlider(piece.type()) || IsPawnLike(piece.type());
        ForEachPieceMove(
            view, from_timeline, from_half,
            Square{static_cast<int8_t>(file), static_cast<int8_t>(rank)}, piece, GenMode::kAll,
            promotions_,
            [&](const Move& move, Piece) {
              // The generator gives the moves on the piece's own board too: only those onto the
              // other board are pair moves.
              if (move.dst_timeline != to_timeline || move.dst_half != target.half_turn) {
                return false;
              }
              if (!steps || (std::abs(move.dst_timeline - move.src_timeline) <= 1 &&
                             std::abs(move.dst_half - move.src_half) <= 2)) {
                visit(move);
              }
              return false;
            },
            &target);
      }
    }
  }
}

// Whether the boards a pair move just played on the scratch position made on `timeline` and
// `other_timeline` are safe: as TryReply asks of one reply's board, on each, but for the hot
// pieces of the other board (the versions of `other` hold them whatever this move does; its own
// versions answer for them, or give them up).
bool Prover::PairSafe(int timeline, int slot, int other_timeline, int other) {
  for (int side = 0; side < 2; ++side) {
    const int l = side == 0 ? timeline : other_timeline;
    const int s = side == 0 ? slot : other;
    const Board& made = scratch_.Tip(l);
    const std::vector<uint8_t>& danger = slots_[s].danger;
    if (RoyalAttackedOnBoard(made, mover_, /*surely=*/false) ||
        AnyRoyal(made, opponent_, [&](Square q) { return danger[q.rank * width_ + q.file]; }) ||
        (side == 0 && HoldsHot(made, s))) {
      return false;
    }
  }
  return true;
}

// Looks for one move of the opponent between the version of `slot` on `timeline` (made by
// `making` on the position, or the tip) and the board of `other` on `other_timeline`, played
// from either, that is a move there and leaves both boards safe whatever version of `other` the
// same action makes (each made by a move from another tip than `making`'s, played after it; or
// the tip). Merges the boards it makes into both unions. Rules out nothing when it fails.
bool Prover::PairReply(const Move* making, int timeline, int slot, int other_timeline, int other) {
  const Position::Mark start = scratch_.GetMark();
  if (making != nullptr) {
    ApplyMove(&scratch_, *making);
    ++work_;
  }
  // Calls f() with each version of `other` the action may make played; false when f stopped it.
  auto each_version = [&](auto&& f) {
    if (slots_[other].tip_version && !f()) return false;
    for (const Move& maker : slots_[other].makers) {
      if (making != nullptr && maker.src_timeline == making->src_timeline) continue;
      const Position::Mark mark = scratch_.GetMark();
      ApplyMove(&scratch_, maker);
      ++work_;
      const bool go = f();
      scratch_.Rollback(mark);
      if (!go) return false;
    }
    return true;
  };
  std::vector<Move> candidates;
  bool first = true;
  each_version([&] {
    std::vector<Move> kept;
    ForEachPairMove(timeline, other_timeline, [&](const Move& move) {
      if (!first && std::find(candidates.begin(), candidates.end(), move) == candidates.end()) {
        return;
      }
      const Position::Mark mark = scratch_.GetMark();
      ApplyMove(&scratch_, move);
      ++work_;
      if (PairSafe(timeline, slot, other_timeline, other)) kept.push_back(move);
      scratch_.Rollback(mark);
    });
    candidates = std::move(kept);
    first = false;
    return !candidates.empty();
  });
  const bool found = !first && !candidates.empty();
  if (found) {
    const Move chosen = candidates.front();
    each_version([&] {
      const Position::Mark mark = scratch_.GetMark();
      ApplyMove(&scratch_, chosen);
      Merge(scratch_.Tip(timeline), slot);
      Merge(scratch_.Tip(other_timeline), other);
      scratch_.Rollback(mark);
      return true;
    });
  }
  scratch_.Rollback(start);
  return found;
}

// Marks the hot pieces of `board` unanswerable on the slot; false when there were none.
bool Prover::GiveUpHot(const Board& board, int slot) {
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
bool Prover::TryReply(int timeline, int half, Move reply, int slot, int also, bool generated) {
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
bool Prover::HoldsHot(const Board& board, int slot) const {
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
bool Prover::IsGenerated(int timeline, int half, Piece piece, const Move& reply) {
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

void Prover::Merge(const Board& board, int slot) {
  union_cells::MergeBoard(board, &slots_[slot].cells);
}
}  // namespace fived::reply_proof_internal
