// The proof by the mandatory boards' versions taken together; see version_proof.h for why it
// proves.
#include "core/version_proof.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <vector>

#include "core/action.h"
#include "core/decide.h"
#include "core/legal.h"
#include "core/rules.h"

namespace fived {

namespace {

bool SameBoard(const Board& a, const Board& b) {
  if (!a.SameContent(b) || a.has_en_passant() != b.has_en_passant()) return false;
  if (!a.has_en_passant()) return true;
  return a.en_passant_square() == b.en_passant_square() &&
         a.en_passant_victim() == b.en_passant_victim();
}

class Prover {
 public:
  Prover(const Position& pos, PromotionSet promotions, uint64_t budget, uint64_t decide_budget,
         VersionProof* out)
      : pos_(pos),
        scratch_(pos),
        mover_(pos.ToMove()),
        present_(pos.Present()),
        budget_(budget),
        out_(out) {
    decide_.promotions = promotions;
    decide_.budget = decide_budget;
  }

  bool Prove(int created_at_most) {
    assert(created_at_most == -1 || created_at_most == 0);
    const int ahead = pos_.CreatedBy(Opponent(mover_)) - pos_.CreatedBy(mover_);
    if (created_at_most != 0 && ahead > 0) return Fail(VersionProof::Stop::kOpponentAhead);
    any_reply_ = created_at_most == 0;
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || ColorOf(pos_.TipHalf(l)) != mover_) continue;
      if (pos_.IsActive(l) && pos_.TipHalf(l) == present_) mandatory_.push_back(l);
      // An inactive tip an action may play, turning it the opponent's.
      if (!pos_.IsActive(l)) reply_present_bound_ = std::min(reply_present_bound_, pos_.TipHalf(l));
      ForEachTipMove(pos_, l, decide_.promotions, [&](const Move& move, Piece) {
        moves_.push_back(move);
        // A timeline a jump creates starts one half-turn after the board it lands on.
        if (move.IsJump()) {
          reply_present_bound_ = std::min<int>(reply_present_bound_, move.dst_half);
        }
        return false;
      });
    }
    if (!PromotingCapturesCount(pos_)) {
      // A promotion the worst position leaves out could make a pawn's capture count.
      for (const Move& move : moves_) {
        if (move.promotion != PieceType::kNone) return Fail(VersionProof::Stop::kPromotion);
      }
    }
    if (!GatherVersions()) return false;
    // Each worst position costs one move at least: where their count exceeds the budget, the
    // proof cannot end within it.
    double combinations = 1;
    for (const std::vector<Board>& versions : versions_) combinations *= versions.size();
    if (budget_ != 0 && combinations > static_cast<double>(budget_)) {
      return Fail(VersionProof::Stop::kTooMany);
    }
    std::vector<char> all(mandatory_.size(), 1);
    if (!EachCombination(all, nullptr)) return false;
    // Where M has created more timelines, no action creates an active one; with created_at_most
    // 0, the actions that create one are not asked for.
    if (ahead < 0 || created_at_most == 0) return true;
    return BranchingActions();
  }

 private:
  // The versions of each mandatory board: its tip after every move of the position that
  // changes it.
  bool GatherVersions() {
    versions_.assign(mandatory_.size(), {});
    makers_.assign(mandatory_.size(), {});
    for (const Move& move : moves_) {
      if (!Spend(1)) return false;
      const Position::Mark mark = scratch_.GetMark();
      ApplyMove(&scratch_, move);
      for (size_t i = 0; i < mandatory_.size(); ++i) {
        const int l = mandatory_[i];
        if (scratch_.TipHalf(l) == pos_.TipHalf(l)) continue;
        const Board& board = scratch_.Tip(l);
        bool known = false;
        for (const Board& other : versions_[i]) known = known || SameBoard(other, board);
        if (!known) {
          versions_[i].push_back(board);
          makers_[i].push_back(move);
        }
      }
      scratch_.Rollback(mark);
    }
    return true;
  }

  // Every combination of the versions of the boards marked in `use`, appended to the position,
  // then `branch` played when given (it must create a timeline starting on P + 1): each worst
  // position must leave O a legal action or no check.
  bool EachCombination(const std::vector<char>& use, const Move* branch) {
    for (size_t i = 0; i < mandatory_.size(); ++i) {
      if (use[i] && versions_[i].empty()) return true;  // no action plays that board
    }
    std::vector<size_t> index(mandatory_.size(), 0);
    for (;;) {
      const Position::Mark mark = scratch_.GetMark();
      for (size_t i = 0; i < mandatory_.size(); ++i) {
        if (use[i]) scratch_.Append(mandatory_[i], versions_[i][index[i]]);
      }
      bool answered = true;
      if (branch != nullptr) {
        const int created = pos_.CreatedBy(mover_);
        ApplyMove(&scratch_, *branch);
        const int timeline = NewTimeline();
        answered = (scratch_.CreatedBy(mover_) == created + 1 &&
                    scratch_.StartHalf(timeline) == present_ + 1) ||
                   Fail(VersionProof::Stop::kUnexpectedBranch);
      }
      answered = answered && Answered();
      scratch_.Rollback(mark);
      if (!answered) {
        if (out_->stop == VersionProof::Stop::kMated && branch == nullptr) Realize(index);
        return false;
      }
      size_t k = 0;
      while (k < index.size() && (!use[k] || ++index[k] == versions_[k].size())) {
        if (use[k]) index[k] = 0;
        ++k;
      }
      if (k == index.size()) return true;
    }
  }

  // With as many timelines on each side: the actions whose first branch, active, is J.
  bool BranchingActions() {
    const int created = pos_.CreatedBy(mover_);
    for (const Move& move : moves_) {
      if (!move.IsJump()) continue;
      if (!Spend(1)) return false;
      const Position::Mark mark = scratch_.GetMark();
      ApplyMove(&scratch_, move);
      const bool branches = scratch_.CreatedBy(mover_) != created;
      const int start = branches ? scratch_.StartHalf(NewTimeline()) : 0;
      if (branches && start < present_ + 1) {
        // The present moves back onto J's board: W(J).
        const bool answered = Answered();
        scratch_.Rollback(mark);
        if (!answered) return false;
        continue;
      }
      scratch_.Rollback(mark);
      // J lands on P: a past board of P, or a mandatory tip played earlier in the action (which
      // the position's move reaches without branching).
      const bool onto_tip = !branches && move.dst_half == present_ &&
                            move.dst_timeline != move.src_timeline &&
                            pos_.TipHalf(move.dst_timeline) == present_;
      if (!(branches && start == present_ + 1) && !onto_tip) continue;
      std::vector<char> use(mandatory_.size(), 1);
      for (size_t i = 0; i < mandatory_.size(); ++i) {
        if (mandatory_[i] == move.src_timeline) use[i] = 0;
      }
      if (!EachCombination(use, &move)) return false;
    }
    return true;
  }

  // Where O is checkmated on W(v): whether the moves that made v's versions, played alone, make
  // v and are a legal action after which O is checkmated (then out_->mate is that action).
  void Realize(const std::vector<size_t>& index) {
    std::vector<Move> moves;
    for (size_t i = 0; i < mandatory_.size(); ++i) {
      const Move& move = makers_[i][index[i]];
      bool known = false;
      for (const Move& other : moves) known = known || other == move;
      if (!known) moves.push_back(move);
    }
    Position trial = pos_;
    for (const Move& move : moves) {
      // Each from a tip of the position, onto one where it lands on a tip.
      if (trial.TipHalf(move.src_timeline) != move.src_half) return;
      if (pos_.TipHalf(move.dst_timeline) == move.dst_half &&
          trial.TipHalf(move.dst_timeline) != move.dst_half) {
        return;
      }
      ApplyMove(&trial, move);
    }
    if (trial.ToMove() == mover_ || trial.CreatedBy(mover_) != pos_.CreatedBy(mover_)) return;
    for (size_t i = 0; i < mandatory_.size(); ++i) {
      const int l = mandatory_[i];
      if (trial.TipHalf(l) != present_ + 1 || !SameBoard(trial.Tip(l), versions_[i][index[i]])) {
        return;
      }
    }
    if (JudgeAction(trial, mover_, PromotingCapturesCount(trial)).problem !=
            ActionVerdict::Problem::kNone ||
        !InCheck(&trial)) {
      return;
    }
    const Decision decision = Decide(&trial, decide_);
    out_->work += decision.work;
    if (decision.verdict == Decision::Verdict::kCheckmate) out_->mate = std::move(moves);
  }

  // The timeline the mover created last on scratch_.
  int NewTimeline() const {
    return mover_ == Color::kWhite ? scratch_.max_timeline() : scratch_.min_timeline();
  }

  // Whether the opponent, to move on scratch_ (a worst position), is not in check or has a legal
  // action there.
  bool Answered() {
    ++out_->positions;
    if (!Spend(1)) return false;
    if (scratch_.ToMove() == mover_) return Fail(VersionProof::Stop::kPresentStays);
    if (!InCheck(&scratch_)) return true;
    const Decision decision = Decide(&scratch_, decide_);
    if (!Spend(decision.work)) return false;
    ++out_->decided;
    if (decision.verdict != Decision::Verdict::kPlayable) {
      return Fail(decision.verdict == Decision::Verdict::kUnknown ? VersionProof::Stop::kUndecided
                                                                  : VersionProof::Stop::kMated);
    }
    if (any_reply_) return true;
    // A reply that creates timelines may activate one of M's that the worst position holds
    // inactive and unplayed, or one an action created and the worst position lacks: the board
    // of O's colour an action left there must then lie after the present the reply makes.
    const Position::Mark mark = scratch_.GetMark();
    for (const Move& move : decision.witness) ApplyMove(&scratch_, move);
    const bool answers = ReplyAnswersAll(scratch_);
    scratch_.Rollback(mark);
    if (!Spend(decision.witness.size())) return false;
    if (answers) return true;
    // Decide's action does not do; another of O's legal actions may.
    bool found = false;
    const SearchStats stats =
        ForEachLegalAction(scratch_, decide_, [&](const std::vector<Move>&, const Position& after) {
          found = ReplyAnswersAll(after);
          return found;
        });
    if (!Spend(stats.work)) return false;
    if (found) return true;
    return Fail(stats.end == SearchEnd::kOutOfBudget ? VersionProof::Stop::kUndecided
                                                     : VersionProof::Stop::kReplyBranches);
  }

  // Whether `after`, a worst position followed by a legal action of O, shows that action
  // answering every action the worst position stands for (above).
  bool ReplyAnswersAll(const Position& after) const {
    const Color opponent = Opponent(mover_);
    return after.CreatedBy(opponent) == pos_.CreatedBy(opponent) ||
           reply_present_bound_ >= after.Present();
  }

  bool Spend(uint64_t work) {
    out_->work += work;
    return budget_ == 0 || out_->work <= budget_ || Fail(VersionProof::Stop::kBudget);
  }

  // Records why the proof stopped; false.
  bool Fail(VersionProof::Stop stop) {
    out_->stop = stop;
    return false;
  }

  const Position& pos_;
  Position scratch_;
  const Color mover_;
  const int present_;
  const uint64_t budget_;
  // Whether any legal action of O answers: the actions create no timeline (created_at_most 0).
  bool any_reply_ = false;
  // Where O's reply creates timelines, the present it makes must lie on or before the earliest
  // tip of an inactive timeline of M and the earliest board a jump of M lands on.
  int reply_present_bound_ = INT_MAX;
  SearchLimits decide_;
  VersionProof* out_;
  std::vector<int> mandatory_;
  std::vector<Move> moves_;
  std::vector<std::vector<Board>> versions_;
  std::vector<std::vector<Move>> makers_;  // the move that made each version first
};

}  // namespace

VersionProof ProveNoMateByVersions(const Position& pos, PromotionSet promotions, uint64_t budget,
                                   uint64_t decide_budget, int created_at_most) {
  VersionProof out;
  Prover prover(pos, promotions, budget, decide_budget, &out);
  out.proved = prover.Prove(created_at_most);
  if (out.proved) out.stop = VersionProof::Stop::kProved;
  return out;
}

const char* VersionProofStopName(VersionProof::Stop stop) {
  switch (stop) {
    case VersionProof::Stop::kProved:
      return "proved";
    case VersionProof::Stop::kOpponentAhead:
      return "opponent ahead";
    case VersionProof::Stop::kPromotion:
      return "promotion";
    case VersionProof::Stop::kTooMany:
      return "too many combinations";
    case VersionProof::Stop::kBudget:
      return "budget";
    case VersionProof::Stop::kPresentStays:
      return "present stays";
    case VersionProof::Stop::kMated:
      return "mated";
    case VersionProof::Stop::kUndecided:
      return "undecided";
    case VersionProof::Stop::kReplyBranches:
      return "reply branches";
    case VersionProof::Stop::kUnexpectedBranch:
      return "unexpected branch";
  }
  return "budget";
}

}  // namespace fived
