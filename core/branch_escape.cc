// The proof that no action mates by one branching reply that answers them all (see
// branch_escape.h for why it proves).
#include "core/branch_escape.h"

#include <algorithm>
#include <climits>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/action.h"
#include "core/check.h"

namespace fived {

class BranchEscape::Search {
 public:
  Search(const Position& pos, PromotionSet promotions, uint64_t* work)
      : pos_(pos),
        promotions_(promotions),
        work_(work),
        mover_(pos.ToMove()),
        opponent_(Opponent(mover_)),
        present_(pos.Present()) {}

  uint64_t branches_answered() const { return branches_answered_; }

  bool Prepare() {
    if (prepared_) return applicable_;
    prepared_ = true;
    if (RoyalCapturable(pos_, mover_, /*promoting_captures=*/true)) return false;
    applicable_ = true;
    scratch_ = pos_;
    scratch_.DropKeys();
    // Whether M's next timeline is active now, and once O has created one more.
    mover_activates_ = pos_.CreatedBy(mover_) <= pos_.CreatedBy(opponent_);
    activated_by_reply_ = pos_.CreatedBy(mover_) <= pos_.CreatedBy(opponent_) + 1;
    // Every move of M, for the versions of the boards after its tips and the earliest board of
    // M's colour a branch of M lands on.
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || ColorOf(pos_.TipHalf(l)) != mover_) continue;
      ForEachTipMove(pos_, l, promotions_, [&](const Move& move, Piece) {
        moves_.push_back(move);
        // A jump onto a tip branches too once an earlier move of the action played that tip.
        if (move.IsJump()) {
          earliest_branch_ = std::min(earliest_branch_, static_cast<int>(move.dst_half));
          late_first_ = late_first_ || move.dst_half >= present_;
        }
        return false;
      });
    }
    // Which branches of M the escape must come before: any, where M's new timelines may be
    // active after R; with as many timelines on each side, only those of an action whose first
    // branch does not move the present back, once every action whose first branch does is
    // answered on that branch's board.
    branch_bound_ = activated_by_reply_;
    if (pos_.CreatedBy(mover_) == pos_.CreatedBy(opponent_) && EveryBranchBackAnswered()) {
      branches_back_answered_ = true;
      branch_bound_ = late_first_;
      activated_branch_ = 2;
    } else if (pos_.CreatedBy(mover_) == pos_.CreatedBy(opponent_) + 1) {
      activated_branch_ = 1;
    }
    return true;
  }

  // Whether the opponent's tip on `timeline` of `after` (the position with at most one move of
  // M played, which made that board, on a timeline of the position) has an escape answering
  // every action that makes it so.
  bool Answers(Position* after, int timeline) {
    if (!Prepare()) return false;
    on_ = after;
    version_branched_ = after->CreatedBy(mover_) != pos_.CreatedBy(mover_);
    const bool escapes = Escapes(timeline);
    version_branched_ = false;
    on_ = &scratch_;
    return escapes;
  }

  bool ProveForBranchingActions() {
    // It depends on the position alone: asked again, the first answer stands.
    if (branching_answer_.has_value()) return *branching_answer_;
    ahead_ = pos_.CreatedBy(opponent_) - pos_.CreatedBy(mover_);
    if (!Prepare() || ahead_ < 1) {
      branching_answer_ = false;
      return false;
    }
    extra_work_ = 0;
    branching_actions_ = true;
    branching_answer_ = SomeTipOfOEscapes();
    branching_actions_ = false;
    return *branching_answer_;
  }

  bool Prove() {
    if (!Prepare()) return false;
    extra_work_ = 0;  // a budget of its own, whatever Answers spent
    // (a) the tips of O's colour.
    if (SomeTipOfOEscapes()) return true;
    // (b) the boards after the mandatory tips of M, when every action the escape answers plays
    // them.
    if (mover_activates_ && !branches_back_answered_) return false;
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || !pos_.IsActive(l) || pos_.TipHalf(l) != present_) continue;
      branches_answered_ = 0;
      if (EveryVersionEscapes(l)) return true;
    }
    return false;
  }

 private:
  // Whether the escape from one of O's tips (source (a)) answers every action.
  bool SomeTipOfOEscapes() {
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || ColorOf(pos_.TipHalf(l)) != opponent_) continue;
      branches_answered_ = 0;
      if (Escapes(l)) return true;
    }
    return false;
  }

  // With as many timelines on each side: whether every action whose first branch lands on a
  // board before the present (its timeline active, the present moved back onto its board, the
  // only one O must play then) leaves O a safe move on that board. The board depends only on
  // that branch: the position with it played, every tip of M still a tip, answers for them all.
  bool EveryBranchBackAnswered() {
    for (const Move& move : moves_) {
      if (!move.IsJump() || move.dst_half >= present_ ||
          move.dst_half >= pos_.TipHalf(move.dst_timeline)) {
        continue;
      }
      const Position::Mark mark = scratch_.GetMark();
      const MoveEffect effect = ApplyMove(&scratch_, move);
      ++*work_;
      const bool answered =
          effect.branching && SafeMoveOnItsBoard(&scratch_, effect.new_timeline, false);
      scratch_.Rollback(mark);
      if (!answered) return false;
    }
    return true;
  }

  // Whether every version of the board after the tip of M on `timeline` has an escape.
  bool EveryVersionEscapes(int timeline) {
    for (const Move& move : moves_) {
      const bool from = move.src_timeline == timeline;
      const bool onto = move.dst_timeline == timeline && move.dst_half == present_;
      if (!from && !onto) continue;
      const Position::Mark mark = scratch_.GetMark();
      version_branched_ = ApplyMove(&scratch_, move).branching;
      ++*work_;
      const bool escapes = Illegal(scratch_.Tip(timeline)) || Escapes(timeline);
      version_branched_ = false;
      scratch_.Rollback(mark);
      if (!escapes) return false;
    }
    return true;
  }

  // Whether O has a move that stays on its tip of `timeline` in *pos (the first board of a branch
  // of M), after which no royal piece of O can be captured (tested on *pos, which is left as it
  // was). `budgeted`: the moves count towards kMaxExtraWork, past which the search stops.
  bool SafeMoveOnItsBoard(Position* pos, int timeline, bool budgeted) {
    bool safe = false;
    ForEachMoveStaying(pos, timeline, promotions_, [&](Position& after) {
      ++*work_;
      if (budgeted) ++extra_work_;
      // An activated branch belongs to an action the escape answers (budgeted); one that moves
      // the present back may leave the tips of M on the present unplayed.
      safe = budgeted ? !CapturableAfterActions(&after, {{timeline, 0}})
                      : !CapturableTouching(after, {{timeline, 0}});
      return safe || (budgeted && extra_work_ > kMaxExtraWork);
    });
    return safe;
  }

  // Whether M can capture a royal piece of O in *pos, where the boards added since a position
  // with no such capture are the tips of `timelines` (their half-turns are filled in here).
  // Every position tested qualifies: Prepare found no capture in pos_, and a move of M (a
  // version, an activated branch) adds only boards of O's colour, which no capture of M starts
  // from, crosses or lands on, while taking a tip from M; so every capture after O's move
  // (an escape, a reply on a branch's board) involves a board that move made.
  bool CapturableTouching(const Position& pos, std::initializer_list<BoardPlace> timelines) const {
    BoardPlace fresh[2];
    size_t n = 0;
    for (const BoardPlace& place : timelines)
      fresh[n++] = {place.timeline, pos.TipHalf(place.timeline)};
    return RoyalCapturableTouching(pos, mover_, /*promoting_captures=*/true,
                                   std::span<const BoardPlace>(fresh, n));
  }

  // CapturableTouching for R just played on *pos (from `source`, starting `created`), as after
  // the actions the escape answers: where each of them plays every tip of M on the present
  // (MandatoryPlayed), those tips are no tips then, and their pieces capture nothing; each is
  // given a board of O's colour on the present for the test (what it holds does not matter: no
  // capture of M starts from, crosses or lands on a board of O's colour). *pos is left as it was.
  bool CapturableAfterActions(Position* pos, std::initializer_list<BoardPlace> fresh) const {
    if (!MandatoryPlayed()) return CapturableTouching(*pos, fresh);
    const Position::Mark mark = pos->GetMark();
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || !pos_.IsActive(l) || pos_.TipHalf(l) != present_) continue;
      if (pos->TipHalf(l) == present_) pos->Append(l, pos->Tip(l));
    }
    const bool capturable = CapturableTouching(*pos, fresh);
    pos->Rollback(mark);
    return capturable;
  }

  // Whether every action the escape answers plays every tip of M on the present. Where M's next
  // timeline is inactive, none moves the present back, so each must play them all for the present
  // to pass; with as many timelines on each side, the actions whose first branch moves it back
  // are answered on that branch's board (EveryBranchBackAnswered), and the others play them all.
  // For the actions that create d timelines or more where O has d more (ProveForBranchingActions),
  // not: their branches may move the present back.
  bool MandatoryPlayed() const {
    return !branching_actions_ && (!mover_activates_ || branches_back_answered_);
  }

  // Whether a version leaves a royal piece of M capturable on its own board, which stays O's
  // tip: no legal action makes it. A royal on O's last rank is not counted (a pawn's capture
  // there counts only where some board holds a piece to promote to).
  bool Illegal(const Board& version) const {
    const int last_rank = opponent_ == Color::kWhite ? version.height() - 1 : 0;
    for (int rank = 0; rank < version.height(); ++rank) {
      if (rank == last_rank) continue;
      for (int file = 0; file < version.width(); ++file) {
        const Piece piece = version.at(file, rank);
        if (piece.empty() || piece.color() != mover_ || !IsRoyal(piece.type())) continue;
        const Square square{static_cast<int8_t>(file), static_cast<int8_t>(rank)};
        if (SquareAttackedOnBoard(version, square, opponent_)) return true;
      }
    }
    return false;
  }

  // Whether O has, from its tip on `timeline` in scratch_, a branch that answers every action
  // making that board.
  bool Escapes(int timeline) {
    // The tips of O other than the source, all of which must lie after the new board.
    int earliest_other = INT_MAX;
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (l == timeline || !pos_.HasTimeline(l)) continue;
      if (ColorOf(pos_.TipHalf(l)) == opponent_) {
        earliest_other = std::min(earliest_other, pos_.TipHalf(l));
      }
    }
    bool found = false;
    ForEachTipMove(*on_, timeline, promotions_, [&](const Move& reply, Piece) {
      if (reply.dst_half >= on_->TipHalf(reply.dst_timeline)) return false;  // no branch
      // The new board (M's) must come before every board of O's colour an action leaves on an
      // active timeline: the boards after M's tips (P + 1 or later), O's tips, and the first
      // boards of M's new timelines wherever R may make them active.
      const int new_board = reply.dst_half + 1;
      if (new_board > present_ || new_board >= earliest_other) return false;
      // A branch of M before X that R's timeline activates: answered on its own board where
      // that can be tried (ActivatedBranchesAnswered), else R is no answer.
      const bool bounded = branch_bound_ && earliest_branch_ <= reply.dst_half;
      // For the actions that create d timelines or more (where O has d more), every branch of M
      // is active after R up to the (d + 2)-th: one before X is answered on its board as any of
      // them, where no action holds two (their sources are one board).
      const bool one_before = branching_actions_ && bounded && OneSourceBefore(reply.dst_half);
      if (bounded && !one_before && (activated_branch_ == 0 || version_branched_)) return false;
      const Position::Mark mark = on_->GetMark();
      const MoveEffect effect = ApplyMove(on_, reply);
      ++*work_;
      // For the actions that create d timelines or more where O has d more, R's is active: O's
      // timelines then number M's at most.
      found = effect.branching && (branching_actions_ || on_->IsActive(effect.new_timeline)) &&
              !ActivatesEarlier(new_board, /*any_inactive=*/branching_actions_) &&
              !CapturableAfterActions(on_, {{reply.src_timeline, 0}, {effect.new_timeline, 0}}) &&
              (!bounded ||
               (one_before ? AnsweredAsAnyActiveBranch(reply.dst_half)
                           : ActivatedBranchesAnswered(reply.dst_half, activated_branch_ - 1)));
      on_->Rollback(mark);
      return found || extra_work_ > kMaxExtraWork;
    });
    return found;
  }

  // With R just played on scratch_ (landing on `x_half`): whether each branch of M before X that
  // R's timeline activates (the activated_branch_-th of the action: its first where M has one
  // timeline more, else its second, after a first that did not move the present back) leaves O
  // a move on its board after which no royal piece of O can be captured. O plays that board
  // too, which makes the present M's again. Tested on the position with the branch played (at
  // the timeline it has in the action: a stand-in timeline of O's colour numbers the first when
  // it is the second) and the move, every tip of M the branch and the version left still a tip.
  // `stand_ins`: how many branches come before it in the action (stand-in timelines number them).
  // The branch that failed last is tried first: the escapes tried one after another mostly fail
  // on the same branch, and every branch must be answered, in any order.
  bool ActivatedBranchesAnswered(int x_half, int stand_ins) {
    uint64_t answered_here = 0;
    for (size_t k = 0; k <= moves_.size(); ++k) {
      // k = 0: the branch that failed last (if any); then every other one in order.
      const size_t i = k == 0 ? last_failed_ : k - 1;
      if (i >= moves_.size() || (k > 0 && i == last_failed_)) continue;
      const Move& branch = moves_[i];
      if (!branch.IsJump() || branch.dst_half >= x_half) continue;
      // A jump onto a tip before X branches only after a move that played that tip: not tried.
      if (branch.dst_half >= pos_.TipHalf(branch.dst_timeline)) return false;
      // Its source played by the version: no action holds both.
      if (on_->TipHalf(branch.src_timeline) != branch.src_half) continue;
      if (extra_work_ > kMaxExtraWork) return false;
      const Position::Mark mark = on_->GetMark();
      for (int s = 0; s < stand_ins; ++s) {
        on_->CreateTimeline(mover_, present_ + 1, on_->Tip(branch.src_timeline));
      }
      const MoveEffect effect = ApplyMove(on_, branch);
      ++*work_;
      ++extra_work_;
      bool answered = false;
      if (effect.branching && !on_->IsActive(effect.new_timeline)) {
        answered = true;  // not activated after all: no board of O's on the present
      } else if (effect.branching) {
        answered = SafeMoveOnItsBoard(on_, effect.new_timeline, true);
      }
      on_->Rollback(mark);
      if (!answered) {
        last_failed_ = i;
        return false;
      }
      ++answered_here;
    }
    branches_answered_ += answered_here;
    return true;
  }

  // Whether each branch of M before X is answered on its board (ActivatedBranchesAnswered) as
  // any of the branches of an action active after R: the first to the (ahead_ + 2)-th.
  bool AnsweredAsAnyActiveBranch(int x_half) {
    for (int before = 0; before <= ahead_ + 1; ++before) {
      if (!ActivatedBranchesAnswered(x_half, before)) return false;
    }
    return true;
  }

  // Whether every jump of M landing before `x_half` leaves one board (so no action holds two).
  bool OneSourceBefore(int x_half) const {
    int source = INT_MIN;
    for (const Move& move : moves_) {
      if (!move.IsJump() || move.dst_half >= x_half) continue;
      if (source != INT_MIN && move.src_timeline != source) return false;
      source = move.src_timeline;
    }
    return true;
  }

  // Whether R (just played on on_) activates an inactive timeline whose tip, of M's colour, an
  // action may play before `new_board`: the board of O's colour it leaves there would then be on
  // the present. `any_inactive`: any inactive timeline counts (the actions that create enough
  // timelines to make R's active make every timeline active).
  bool ActivatesEarlier(int new_board, bool any_inactive) const {
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || pos_.IsActive(l)) continue;
      if (!any_inactive && !on_->IsActive(l)) continue;
      if (ColorOf(pos_.TipHalf(l)) == mover_ && pos_.TipHalf(l) + 1 < new_board) return true;
    }
    return false;
  }

  const Position& pos_;
  Position scratch_;  // a copy of pos_, made by Prepare
  PromotionSet promotions_;
  uint64_t* work_;
  Color mover_;
  Color opponent_;
  int present_;
  bool mover_activates_ = false;         // M's next timeline is active
  bool activated_by_reply_ = false;      // it is once O created one more (R's)
  bool late_first_ = false;              // some jump of M lands on or after the present
  bool branch_bound_ = false;            // R must land before every jump of M
  bool branches_back_answered_ = false;  // EveryBranchBackAnswered
  // Which branch of an action R's timeline activates, where ActivatedBranchesAnswered may answer
  // it (1 or 2), or 0.
  int activated_branch_ = 0;
  bool version_branched_ = false;
  bool branching_actions_ = false;        // ProveForBranchingActions is asking
  std::optional<bool> branching_answer_;  // its answer, once asked
  int ahead_ = 0;                         // how many timelines more O has created, for it
  bool prepared_ = false;
  bool applicable_ = false;
  Position* on_ = &scratch_;  // where Escapes plays: scratch_, or the position Answers got
  // Moves applied by ActivatedBranchesAnswered, which stops past kMaxExtraWork (80,000: on the
  // first 300 random games 20,000 left 1,532 positions unknown, 80,000 1,500, 320,000 1,498; no
  // CPU difference measured, docs/BENCHMARKS.md).
  static constexpr uint64_t kMaxExtraWork = 80000;
  uint64_t extra_work_ = 0;
  size_t last_failed_ = SIZE_MAX;  // the index in moves_ of the branch ActivatedBranchesAnswered
                                   // last found unanswered
  // Activated branches answered on their own boards for the last source tried.
  uint64_t branches_answered_ = 0;
  int earliest_branch_ = INT_MAX;
  std::vector<Move> moves_;
};

BranchEscape::BranchEscape(const Position& pos, PromotionSet promotions, uint64_t* work)
    : search_(std::make_unique<Search>(pos, promotions, work)) {}

BranchEscape::~BranchEscape() = default;

bool BranchEscape::ProveNoMate(uint64_t* branches_answered) {
  const bool proved = search_->Prove();
  if (branches_answered != nullptr) *branches_answered = proved ? search_->branches_answered() : 0;
  return proved;
}

bool BranchEscape::ProveForBranchingActions() { return search_->ProveForBranchingActions(); }

bool BranchEscape::Answers(Position* after, int timeline) {
  return search_->Answers(after, timeline);
}

bool ProveNoMateByBranchEscape(const Position& pos, PromotionSet promotions, uint64_t* work,
                               uint64_t* branches_answered) {
  BranchEscape escape(pos, promotions, work);
  return escape.ProveNoMate(branches_answered);
}

}  // namespace fived
