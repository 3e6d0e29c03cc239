// Mates in one; see tactics.h.
#include "core/tactics.h"

#include <cassert>

#include "core/action.h"
#include "core/check.h"
#include "core/check_screen.h"
#include "core/decide.h"
#include "core/reply_proof.h"
#include "core/rules.h"

namespace fived {

namespace {

// Plays the opponent's pass on timeline l of *pos: a copy of its tip, without an en passant
// square, appended; `passed` gets its place.
void AppendPass(Position* pos, int l, std::vector<BoardPlace>* passed) {
  Board board = pos->Tip(l);
  board.ClearEnPassant();
  pos->Append(l, board);
  passed->push_back({l, pos->TipHalf(l)});
}

}  // namespace

std::vector<Move> FindMateAroundChecks(const Position& pos, const MateInOneLimits& limits,
                                       uint64_t* work) {
  const Color mover = pos.ToMove();
  SearchLimits reply;
  reply.promotions = limits.search.promotions;
  reply.budget = limits.reply_budget;
  Position scratch = pos;
  std::vector<Move> candidates;
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    if (!pos.HasTimeline(l) || ColorOf(pos.TipHalf(l)) != mover) continue;
    ForEachTipMove(pos, l, limits.search.promotions, [&](const Move& move, Piece) {
      candidates.push_back(move);
      return false;
    });
  }
  std::vector<BoardPlace> copies;
  const uint64_t start_work = *work;
  for (const Move& move : candidates) {
    // The same budget as the enumeration's: moves tried, the decisions included.
    if (limits.search.budget != 0 && *work - start_work >= limits.search.budget) break;
    const Position::Mark start = scratch.GetMark();
    ApplyMove(&scratch, move);
    ++*work;
    // The boards the move made (on its source timeline, on the one it arrives on, or a new
    // timeline), passed by the opponent: the mover's new tips.
    copies.clear();
    for (int l = scratch.min_timeline(); l <= scratch.max_timeline(); ++l) {
      if (!scratch.HasTimeline(l)) continue;
      if (pos.HasTimeline(l) && scratch.TipHalf(l) == pos.TipHalf(l)) continue;
      AppendPass(&scratch, l, &copies);
    }
    const bool checks = RoyalCapturableTouching(scratch, mover, true, copies);
    scratch.Rollback(start);
    if (!checks) continue;
    ApplyMove(&scratch, move);
    bool mated = false;
    std::vector<Move> action{move};
    if (scratch.ToMove() == mover) {
      const Decision completion = Decide(&scratch, reply);
      *work += completion.work;
      if (completion.verdict == Decision::Verdict::kPlayable) {
        for (const Move& m : completion.witness) {
          ApplyMove(&scratch, m);
          action.push_back(m);
        }
      }
    }
    if (scratch.ToMove() != mover &&
        JudgeAction(scratch, mover, PromotingCapturesCount(scratch)).problem ==
            ActionVerdict::Problem::kNone &&
        InCheck(&scratch)) {
      const Decision decision = Decide(&scratch, reply);
      *work += decision.work;
      mated = decision.verdict == Decision::Verdict::kCheckmate;
    }
    scratch.Rollback(start);
    if (mated) return action;
  }
  return {};
}

namespace {

// Whether the opponent of `mover` is in check in *pos, the position after an action of `mover`
// (InCheck, legal.h), when the position before the action let the mover capture no royal piece
// even by a promoting capture: then every capture after the opponent's pass involves one of the
// boards the pass makes (the action's own boards are the opponent's colour, which no capture by
// the mover crosses; see check_screen.h), and only those are searched. *pos is left unchanged.
bool InCheckAfterQuietPosition(Position* pos, Color mover, std::vector<BoardPlace>* passed) {
  const Position::Mark mark = pos->GetMark();
  const int present = pos->Present();
  passed->clear();
  for (int l = pos->min_timeline(); l <= pos->max_timeline(); ++l) {
    if (!pos->HasTimeline(l) || !pos->IsActive(l) || pos->TipHalf(l) != present) continue;
    AppendPass(pos, l, passed);
  }
  const bool check = RoyalCapturableTouching(*pos, mover, PromotingCapturesCount(*pos), *passed);
  pos->Rollback(mark);
  return check;
}

}  // namespace

MateInOne FindMateInOne(const Position& pos, const MateInOneLimits& limits) {
  MateInOne out;
  const CheckScreen screen =
      limits.shortcuts ? ScreenChecks(pos, limits.search.promotions) : CheckScreen::kNotApplicable;
  if (screen == CheckScreen::kNoCheck) {
    out.answer = MateInOne::Answer::kNone;
    out.complete = true;
    out.screened = true;
    return out;
  }
  if (screen == CheckScreen::kMayCheck) {
    const ReplyProof proof = ProveNoMateByReplies(pos, limits.search.promotions);
    out.work += proof.work;
    if (proof.result == ReplyProof::Result::kNoMate) {
      out.answer = MateInOne::Answer::kNone;
      out.complete = true;
      out.proved_by_replies = true;
      return out;
    }
  }
  SearchLimits reply;
  reply.promotions = limits.search.promotions;
  reply.budget = limits.reply_budget;
  bool stopped_early = false;
  // Each action is played again on one copy of the position and rolled back: far cheaper than
  // copying the position after it (every board of the game) for InCheck and Decide.
  Position scratch = pos;
  const Color mover = pos.ToMove();
  std::vector<BoardPlace> passed;
  const SearchStats stats = ForEachLegalAction(
      pos, limits.search, [&](const std::vector<Move>& moves, const Position& after) {
        ++out.actions;
        const Position::Mark mark = scratch.GetMark();
        for (const Move& move : moves) ApplyMove(&scratch, move);
        assert(scratch.StateKey() == after.StateKey());
        (void)after;
        // A checkmate needs a check: the rest are not decided.
        const bool check = screen == CheckScreen::kMayCheck
                               ? InCheckAfterQuietPosition(&scratch, mover, &passed)
                               : InCheck(&scratch);
        if (!check) {
          scratch.Rollback(mark);
          return false;
        }
        ++out.checking;
        const Decision decision = Decide(&scratch, reply);
        scratch.Rollback(mark);
        out.work += decision.work;
        if (decision.verdict == Decision::Verdict::kUnknown) {
          ++out.undecided;
        } else if (decision.verdict == Decision::Verdict::kCheckmate) {
          if (out.mating++ == 0) out.solution = moves;
          if (limits.stop_at_first) {
            stopped_early = true;
            return true;
          }
        }
        return false;
      });
  out.work += stats.work;
  out.complete = stats.end == SearchEnd::kExhausted && !stopped_early && out.undecided == 0;
  if (out.mating == 0 && !out.complete && limits.shortcuts) {
    std::vector<Move> mate = FindMateAroundChecks(pos, limits, &out.work);
    if (!mate.empty()) {
      out.mating = 1;
      out.solution = std::move(mate);
      out.found_by_targeted_search = true;
    }
  }
  if (out.mating > 0) {
    out.answer = MateInOne::Answer::kMates;
  } else if (out.complete) {
    out.answer = MateInOne::Answer::kNone;
  } else {
    out.answer = MateInOne::Answer::kUnknown;
  }
  return out;
}

const char* MateInOneAnswerName(MateInOne::Answer answer) {
  switch (answer) {
    case MateInOne::Answer::kMates:
      return "mates";
    case MateInOne::Answer::kNone:
      return "none";
    case MateInOne::Answer::kUnknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace fived
