// Mates in one; see tactics.h.
#include "core/tactics.h"

#include <cassert>
#include <cmath>
#include <span>
#include <vector>

#include "core/action.h"
#include "core/branch_escape.h"
#include "core/check.h"
#include "core/check_screen.h"
#include "core/decide.h"
#include "core/hypercuboid.h"
#include "core/reply_proof.h"
#include "core/rules.h"
#include "core/version_proof.h"

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

// The moves of the mover that give check on the boards they make: each played alone, those boards
// (on its source timeline, on the one it arrives on, or a new timeline) passed by the opponent,
// and their copies searched for a capture of an opponent royal, the other boards as they are.
// Adds the moves applied to *work.
std::vector<Move> CheckingMoves(const Position& pos, PromotionSet promotions, uint64_t* work) {
  const Color mover = pos.ToMove();
  Position scratch = pos;
  std::vector<Move> candidates, checking;
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    if (!pos.HasTimeline(l) || ColorOf(pos.TipHalf(l)) != mover) continue;
    ForEachTipMove(pos, l, promotions, [&](const Move& move, Piece) {
      candidates.push_back(move);
      return false;
    });
  }
  std::vector<BoardPlace> copies;
  for (const Move& move : candidates) {
    const Position::Mark start = scratch.GetMark();
    ApplyMove(&scratch, move);
    ++*work;
    copies.clear();
    for (int l = scratch.min_timeline(); l <= scratch.max_timeline(); ++l) {
      if (!scratch.HasTimeline(l)) continue;
      if (pos.HasTimeline(l) && scratch.TipHalf(l) == pos.TipHalf(l)) continue;
      AppendPass(&scratch, l, &copies);
    }
    if (RoyalCapturableTouching(scratch, mover, true, copies)) checking.push_back(move);
    scratch.Rollback(start);
  }
  return checking;
}

// The targeted search (FindMateAroundChecks) over `checking`, the moves CheckingMoves gives; each
// of its two passes (the moves one by one, then pairs of them on two boards) has the budget of
// the enumeration, counted from `start_work`.
std::vector<Move> MateAroundChecks(const Position& pos, std::span<const Move> checking,
                                   const MateInOneLimits& limits, uint64_t start_work,
                                   uint64_t* work) {
  const Color mover = pos.ToMove();
  const PromotionSet promotions = limits.search.promotions;
  SearchLimits reply;
  reply.promotions = promotions;
  reply.budget = limits.reply_budget;
  // The completion tries the other checking moves first: a mate often needs several checks.
  SearchLimits completing = reply;
  completing.first = checking;
  Position scratch = pos;
  std::vector<Move> action;
  // Plays `moves` in order (each checked to be a move where it stands), completes them with the
  // legal action Decide finds for the boards left, and says whether that whole action, in
  // `action`, is legal and mates.
  auto mates_around = [&](std::initializer_list<const Move*> moves) {
    const Position::Mark start = scratch.GetMark();
    action.clear();
    bool mated = false, plays = true;
    for (const Move* move : moves) {
      if (!StillAMove(scratch, *move, mover, promotions)) {
        plays = false;
        break;
      }
      ApplyMove(&scratch, *move);
      ++*work;
      action.push_back(*move);
    }
    if (plays && scratch.ToMove() == mover) {
      const Decision completion = Decide(&scratch, completing);
      *work += completion.work;
      if (completion.verdict == Decision::Verdict::kPlayable) {
        for (const Move& m : completion.witness) {
          ApplyMove(&scratch, m);
          action.push_back(m);
        }
      }
    }
    if (plays && scratch.ToMove() != mover &&
        JudgeAction(scratch, mover, PromotingCapturesCount(scratch)).problem ==
            ActionVerdict::Problem::kNone &&
        InCheck(&scratch)) {
      const Decision decision = Decide(&scratch, reply);
      *work += decision.work;
      mated = decision.verdict == Decision::Verdict::kCheckmate;
    }
    scratch.Rollback(start);
    return mated;
  };
  const uint64_t budget = limits.search.budget;
  for (const Move& move : checking) {
    // The same budget as the enumeration's: moves tried, the decisions included.
    if (budget != 0 && *work - start_work >= budget) break;
    if (mates_around({&move})) return action;
  }
  // Two checks on two boards: where each alone leaves the opponent an answer, together they may
  // not.
  const uint64_t pairs_start = *work;
  for (size_t i = 0; i < checking.size(); ++i) {
    for (size_t j = i + 1; j < checking.size(); ++j) {
      if (budget != 0 && *work - pairs_start >= budget) return {};
      if (checking[i].src_timeline == checking[j].src_timeline) continue;
      if (mates_around({&checking[i], &checking[j]})) return action;
    }
  }
  return {};
}

}  // namespace

std::vector<Move> FindMateAroundChecks(const Position& pos, const MateInOneLimits& limits,
                                       uint64_t* work) {
  const uint64_t start_work = *work;
  const std::vector<Move> checking = CheckingMoves(pos, limits.search.promotions, work);
  return MateAroundChecks(pos, checking, limits, start_work, work);
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

// An estimate of the mover's legal actions: the product, over the tips of the mover's colour, of
// one more than the moves from each (an action moves from each tip once at most). Stops
// multiplying once past `limit`.
// With `mandatory_only`, the product of the moves of the mandatory boards alone (an estimate of
// the actions that play no other board).
double EstimateActions(const Position& pos, PromotionSet promotions, double limit,
                       bool mandatory_only = false) {
  const Color mover = pos.ToMove();
  const int present = pos.Present();
  double product = 1;
  for (int l = pos.min_timeline(); l <= pos.max_timeline() && product <= limit; ++l) {
    if (!pos.HasTimeline(l) || ColorOf(pos.TipHalf(l)) != mover) continue;
    const bool mandatory = pos.IsActive(l) && pos.TipHalf(l) == present;
    if (mandatory_only && !mandatory) continue;
    uint64_t moves = 0;
    ForEachTipMove(pos, l, promotions, [&](const Move&, Piece) {
      ++moves;
      return false;
    });
    product *= static_cast<double>(moves + (mandatory_only ? 0 : 1));
  }
  return product;
}

// The budget of the enumeration (see MateInOneLimits::few_actions); *may_run_out says whether the
// estimate of the actions needs more (always, with a budget and no estimate).
uint64_t EnumerationBudget(const Position& pos, const MateInOneLimits& limits, bool* may_run_out) {
  const uint64_t budget = limits.search.budget;
  *may_run_out = budget != 0;
  if (budget == 0 || limits.few_actions.moves_per_action == 0) return budget;
  const double ceiling = static_cast<double>(limits.few_actions.max_factor) * budget;
  const double wanted = static_cast<double>(limits.few_actions.moves_per_action) *
                        EstimateActions(pos, limits.search.promotions, ceiling);
  *may_run_out = wanted > ceiling;
  return wanted > budget && wanted <= ceiling ? static_cast<uint64_t>(wanted) : budget;
}

// Whether the moves of `escape` (a legal action of the opponent after an earlier action of the
// mover), each still a move of its piece where it stands, play in order on *pos, the position after
// another action, and make a legal action of the opponent there: then the opponent is not
// checkmated. *pos is left unchanged.
bool EscapeStillPlays(Position* pos, const std::vector<Move>& escape, PromotionSet promotions) {
  if (escape.empty()) return false;
  const Color opponent = pos->ToMove();
  const Position::Mark mark = pos->GetMark();
  bool plays = true;
  for (const Move& move : escape) {
    if (!StillAMove(*pos, move, opponent, promotions)) {
      plays = false;
      break;
    }
    ApplyMove(pos, move);
  }
  plays = plays && JudgeAction(*pos, opponent, PromotingCapturesCount(*pos)).problem ==
                       ActionVerdict::Problem::kNone;
  pos->Rollback(mark);
  return plays;
}

}  // namespace

// How many times the budget the actions are counted within, where the enumeration ran out.
constexpr uint64_t kCountingFactor = 3;

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
  std::vector<Move> versions_mate;  // a mate the versions proof met (core/version_proof.h)
  if (screen == CheckScreen::kMayCheck) {
    // "No mate" proved without trying an action, by the proof `how` names.
    auto proved_none = [&out](bool MateInOne::*how) {
      out.answer = MateInOne::Answer::kNone;
      out.complete = true;
      out.*how = true;
      return out;
    };
    // One branch escape for the reply proof's versions and for the whole position.
    BranchEscape escape(pos, limits.search.promotions, &out.work);
    const ReplyProof proof = ProveNoMateByReplies(pos, limits.search.promotions, &escape);
    out.work += proof.work;
    if (proof.result == ReplyProof::Result::kNoMate) {
      return proved_none(&MateInOne::proved_by_replies);
    }
    if (limits.branch_escape && escape.ProveNoMate()) {
      return proved_none(&MateInOne::proved_by_branch);
    }
    // Where the opponent has d timelines more: the actions that create d timelines or more
    // answered by one branch, those that create fewer by a reply to each.
    if (limits.branch_escape &&
        ProveNoMateInParts(pos, limits.search.promotions, &escape, &out.work)) {
      return proved_none(&MateInOne::proved_in_parts);
    }
    // The mandatory boards' versions taken together: every action where the opponent has
    // created no more timelines; where they have created more, the actions that create none,
    // the others answered by one branch (one more) or by a reply to each (two or more).
    if (limits.version_proof) {
      const int ahead = pos.CreatedBy(Opponent(pos.ToMove())) - pos.CreatedBy(pos.ToMove());
      if (ahead <= 0 || (ahead == 1 && limits.branch_escape && escape.ProveForBranchingActions()) ||
          (ahead >= 2 && limits.branch_escape &&
           ProveNoMateByBranchingActions(pos, limits.search.promotions, &escape, &out.work))) {
        VersionProof versions = ProveNoMateByVersions(pos, limits.search.promotions,
                                                      kVersionProofFactor * limits.search.budget,
                                                      limits.reply_budget, ahead <= 0 ? -1 : 0);
        out.work += versions.work;
        if (versions.proved) return proved_none(&MateInOne::proved_by_versions);
        // A mate it met is the answer only where the enumeration finds none, as the targeted
        // search's.
        versions_mate = std::move(versions.mate);
      }
    }
  }
  SearchLimits reply;
  reply.promotions = limits.search.promotions;
  reply.budget = limits.reply_budget;
  SearchLimits search = limits.search;
  bool may_run_out = false;
  search.budget = EnumerationBudget(pos, limits, &may_run_out);
  // Where the budget may run out, the moves that check on their own boards are tried first, so
  // that the actions met by then are their combinations, where mates are; the targeted search
  // takes them afterwards.
  std::vector<Move> checking;
  uint64_t checking_work = 0;
  bool have_checking = false;
  if (limits.shortcuts && may_run_out) {
    have_checking = true;
    checking = CheckingMoves(pos, limits.search.promotions, &checking_work);
    out.work += checking_work;
    search.first = checking;
  }
  bool stopped_early = false;
  // Each action is played again on one copy of the position and rolled back: far cheaper than
  // copying the position after it (every board of the game) for InCheck and Decide.
  Position scratch = pos;
  const Color mover = pos.ToMove();
  std::vector<BoardPlace> passed;
  // The opponent's legal action after the last checking action decided playable: most checks
  // of one position are answered alike, so it is tried first.
  std::vector<Move> escape;
  const ActionVisitor visit = [&](const std::vector<Move>& moves, const Position& after) {
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
    if (limits.shortcuts && EscapeStillPlays(&scratch, escape, limits.search.promotions)) {
      out.work += escape.size();
      scratch.Rollback(mark);
      return false;
    }
    Decision decision = Decide(&scratch, reply);
    scratch.Rollback(mark);
    out.work += decision.work;
    if (decision.verdict == Decision::Verdict::kPlayable) escape = std::move(decision.witness);
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
  };
  SearchStats stats = ForEachLegalAction(pos, search, visit);
  out.work += stats.work;
  // Where the budget ran out without a mate, and the mandatory boards' moves alone would pass
  // the few-actions rule (the positions of many mandatory boards have too many actions to count)
  // or the enumeration met no action at all (there may be none),
  // the actions are counted alone (no check tested, nothing decided) within kCountingFactor
  // times the budget: when that finds them all, the estimate overcounted (boards whose moves
  // rarely combine), and the enumeration runs again to the few-actions ceiling.
  const uint64_t ceiling = limits.few_actions.max_factor * limits.search.budget;
  if (stats.end == SearchEnd::kOutOfBudget && out.mating == 0 && limits.shortcuts &&
      limits.few_actions.moves_per_action != 0 && ceiling > search.budget &&
      (out.actions == 0 ||
       EstimateActions(pos, limits.search.promotions, INFINITY, /*mandatory_only=*/true) *
               limits.few_actions.moves_per_action <=
           static_cast<double>(ceiling))) {
    SearchLimits counting;
    counting.promotions = limits.search.promotions;
    counting.budget = kCountingFactor * limits.search.budget;
    // Only whether the search ends matters: no set of the states reached is kept.
    const SearchStats counted = ForEachHypercuboidAction(
        pos, counting, [](const std::vector<Move>&, const Position&) { return false; });
    out.work += counted.work;
    if (counted.end == SearchEnd::kExhausted) {
      out.actions = out.checking = out.undecided = 0;
      escape.clear();
      search.budget = ceiling;
      stats = ForEachLegalAction(pos, search, visit);
      out.work += stats.work;
      out.recounted = true;
    }
  }
  out.complete = stats.end == SearchEnd::kExhausted && !stopped_early && out.undecided == 0;
  // A mate the versions proof proved, where the enumeration found none: it was never complete.
  assert(versions_mate.empty() || out.mating > 0 || !out.complete);
  if (out.mating == 0 && !out.complete && !versions_mate.empty()) {
    out.mating = 1;
    out.solution = std::move(versions_mate);
    out.found_by_versions = true;
  }
  if (out.mating == 0 && !out.complete && limits.shortcuts) {
    if (!have_checking) {
      checking = CheckingMoves(pos, limits.search.promotions, &checking_work);
      out.work += checking_work;
    }
    // Its budget counts the moves that found the checking ones, as FindMateAroundChecks does.
    std::vector<Move> mate =
        MateAroundChecks(pos, checking, limits, out.work - checking_work, &out.work);
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
