// The proof that no action mates, by a safe reply on every board the opponent may have to play
// (see reply_proof.h for why it proves): the rounds, and the slots, the boards the opponent may
// have to play after the mover's action. The replies are reply_proof_replies.cc, the search of
// their unions reply_proof_union.cc.
#include "core/reply_proof.h"

#include <algorithm>
#include <vector>

#include "core/check.h"
#include "core/reply_proof_internal.h"
#include "core/rules.h"

namespace fived {

namespace reply_proof_internal {

ReplyProof::Result Prover::Prove(ReplyProof* out) {
  if (RoyalCapturable(pos_, mover_, /*promoting_captures=*/true)) {
    return ReplyProof::Result::kNotApplicable;
  }
  MakeSlots();
  out->slots = slots_.size();
  // Each round chooses the replies again, keeping the royal pieces off the squares that the
  // earlier rounds' unions let a capture across boards reach; the last round's union is the
  // one searched, so the proof holds whatever the earlier rounds found.
  for (int round = 0;; ++round) {
    out->rounds = round + 1;
    if (!ChooseReplies()) return ReplyProof::Result::kNoSafeReply;
    if (!CrossCapture()) return ReplyProof::Result::kNoMate;
    if (round + 1 == kRounds || !MarkDanger()) return ReplyProof::Result::kCrossCapture;
  }
}

int Prover::NewSlot(int reply_half) {
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
void Prover::MakeSlots() {
  const int count = pos_.max_timeline() - pos_.min_timeline() + 1;
  slot_of_.assign(std::max(count, 0), -1);
  // Where the opponent is two timelines ahead or more, no board of theirs after this is on the
  // present an action creating a timeline (created_at_least of them) leaves (reply_proof.h).
  branch_present_ = LatestPresentAfterBranching(pos_, std::max(created_at_least_, 1));
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
    // Only an action that creates a timeline activates an inactive one; with created_at_least,
    // only such actions are asked for, which leave no board after branch_present_ on the present.
    if ((created_at_least_ > 0 || !pos_.IsActive(l)) && board_half > branch_present_) {
      left_out_late_ = true;
      continue;
    }
    slot_of_[l - pos_.min_timeline()] = NewSlot(board_half + 1);
  }
  active_new_ =
      std::min(playable, std::max(0, pos_.CreatedBy(opponent_) - pos_.CreatedBy(mover_) + 1));
  // The actions that create at most n timelines leave at most n new boards to play.
  if (created_at_most_ >= 0) active_new_ = std::min(active_new_, created_at_most_);
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
int Prover::NewTimelineSlot(int board_half) {
  const size_t index = static_cast<size_t>(board_half);
  if (new_by_half_.size() <= index) new_by_half_.resize(index + 1, -1);
  if (new_by_half_[index] < 0) new_by_half_[index] = NewSlot(board_half + 1);
  return new_by_half_[index];
}
}  // namespace reply_proof_internal

ReplyProof ProveNoMateByReplies(const Position& pos, PromotionSet promotions, BranchEscape* escape,
                                int created_at_most, int created_at_least) {
  reply_proof_internal::Prover prover(pos, promotions, escape, created_at_most, created_at_least);
  return prover.Run();
}

bool ProveNoMateInParts(const Position& pos, PromotionSet promotions, BranchEscape* escape,
                        uint64_t* work) {
  const int ahead = pos.CreatedBy(Opponent(pos.ToMove())) - pos.CreatedBy(pos.ToMove());
  if (ahead < 1 || !escape->ProveForBranchingActions()) return false;
  const ReplyProof fewer = ProveNoMateByReplies(pos, promotions, escape, ahead - 1);
  *work += fewer.work;
  return fewer.result == ReplyProof::Result::kNoMate;
}

bool ProveNoMateByBranchingActions(const Position& pos, PromotionSet promotions,
                                   BranchEscape* escape, uint64_t* work) {
  const int ahead = pos.CreatedBy(Opponent(pos.ToMove())) - pos.CreatedBy(pos.ToMove());
  if (ahead < 2) return false;
  // The actions that create j timelines or more, for j from 1: at once where that proves, else
  // those that create exactly j, and on.
  for (int j = 1; j < ahead; ++j) {
    const ReplyProof rest = ProveNoMateByReplies(pos, promotions, escape, -1, j);
    *work += rest.work;
    if (rest.result == ReplyProof::Result::kNoMate) return true;
    const ReplyProof exactly = ProveNoMateByReplies(pos, promotions, escape, j, j);
    *work += exactly.work;
    if (exactly.result != ReplyProof::Result::kNoMate) return false;
  }
  const ReplyProof rest = ProveNoMateByReplies(pos, promotions, escape, -1, ahead);
  *work += rest.work;
  return rest.result == ReplyProof::Result::kNoMate || escape->ProveForBranchingActions();
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
