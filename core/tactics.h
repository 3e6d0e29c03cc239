// Mates in one: whether the player to move can end the game at once, with how many actions, and
// one of them; the ground the tactics of every game (found, missed and allowed mates) and the
// puzzles mined from them stand on.
//
// A mating action is a legal action (core/legal.h) after which the opponent is checkmated, as
// Decide (core/decide.h) proves it. Every claim is proved: a mate by Decide's proof of the
// checkmate after the action (the action is one the legal search produced, or one checked by
// JudgeAction), "no mate in one" only when no action can give check (the check screen), when
// every action leaves the opponent a legal reply (the reply proof), or once every legal action was
// tried and none of them left the opponent checkmated. When a budget runs
// out first, the answer says what was found and that it is incomplete.
//
// A checkmate needs a check. First the check screen (core/check_screen.h) asks, without
// enumerating the actions, whether any of them could give check; when it proves that none can,
// the answer is kNone at once (complete, no action tried). Where it could not rule out a check,
// the reply proof (core/reply_proof.h) may prove kNone by showing the opponent a legal reply to
// every action (complete, no action tried), and failing that the branch escape
// (core/branch_escape.h) by one branch of the opponent that answers every action, or, where the
// opponent has created d timelines more, by the two in parts: the escape for the actions that
// create d or more, the reply proof for those that create fewer; and failing those, the versions
// proof (core/version_proof.h): a legal action of the opponent, or no check, on the worst
// position each combination of the mandatory boards' versions leaves, the combinations taken in
// boxes answered together where they can be (within kVersionProofFactor times the budget); where
// the opponent is ahead, for the actions that create no timeline, the others answered by the
// escape (d = 1) or by the reply proof for them alone (d >= 2: the boards of the present such an
// action leaves lie no later than the opponent's first inactive timeline's,
// ProveNoMateByBranchingActions).
// Otherwise the
// search tries every legal action, but decides only those after which the opponent is in check
// (InCheck is cheap next to Decide). Before deciding, it replays the opponent's legal action Decide
// found after the last checking action: when its moves are still moves where they stand and make a
// legal action (JudgeAction), the opponent is not checkmated (most checks of a position are
// answered alike). A position of few actions is enumerated to the end whatever the budget, up to a
// ceiling (MateInOneLimits::few_actions), and so is one whose enumeration ran out of budget where
// counting its actions alone (no check tested, nothing decided) finds them all within a few times
// the budget (the estimate overcounts where boards' moves rarely combine; a position without
// legal actions has no mate either); in one whose budget may run out, the moves that give check on
// the boards they make are tried first (SearchLimits::first), so that the actions met before it
// does are their combinations. When that enumeration runs out of budget without a mate, a
// targeted search tries the actions built around each single move that gives check (the move,
// completed by a legal action of the other boards), then around each pair of them on two boards:
// a mate it finds is proved like any other (the action is legal and Decide proves the checkmate
// after it), while finding none proves nothing and the answer stays kUnknown. Thread-safe: no
// state is kept between calls.
#ifndef FIVED_CORE_TACTICS_H_
#define FIVED_CORE_TACTICS_H_

#include <cstdint>
#include <vector>

#include "core/legal.h"
#include "core/movegen.h"
#include "core/position.h"

namespace fived {

// Which build's search found the mates in one a database holds (meta.tactics_version,
// schema/meta.h). Raised whenever a fix changes an answer the search could give, so that a
// database whose tactics an earlier build found can say so:
//   1  until 2026-11-27: "no mate in one" could be claimed wrongly (rarely) where an action
//      that moves the present back leaves a board of the present unplayed, or where a branch
//      played first numbers another branch's timeline further out.
//   2  until 2026-11-28: the versions proof could take a reply of the opponent that branches
//      where the present it made was the very tip of one of the mover's timelines it activated,
//      a tip the action may have played (none found; core/version_proof.h).
//   3  until the evening of 2026-11-28: the versions proof read the board a box's witness
//      started by jumping back onto a mandatory board it had played from the box's first
//      combination alone, not from each version of that board (none found;
//      core/version_proof.h).
//   4  since that fix.
constexpr int kTacticsVersion = 4;

// How many times the search's budget the versions proof (core/version_proof.h) may spend.
constexpr uint64_t kVersionProofFactor = 3;

struct MateInOne {
  enum class Answer : uint8_t {
    kMates,    // at least `mating` mating actions (all of them when `complete`)
    kNone,     // proved: no legal action mates
    kUnknown,  // no mate found, and not every action could be tried or decided
  };
  Answer answer = Answer::kUnknown;
  uint64_t mating = 0;  // mating actions found
  // Every legal action was tried and decided, or the screen proved that none checks: `mating`
  // is exact.
  bool complete = false;
  std::vector<Move> solution;  // the first mating action found, in play order (kMates)
  uint64_t actions = 0;        // legal actions tried
  uint64_t checking = 0;       // of which those after which the opponent is in check
  uint64_t undecided = 0;      // actions after which Decide ran out of its budget
  uint64_t work = 0;           // moves tried by the legal search and the decisions
  bool screened = false;       // kNone proved by the check screen, no action enumerated
  // kNone proved by a safe reply to every action (core/reply_proof.h), no action enumerated.
  bool proved_by_replies = false;
  // kNone proved by one branch of the opponent answering every action (core/branch_escape.h).
  bool proved_by_branch = false;
  // kNone proved in two parts, where the opponent has created d timelines more: the actions that
  // create d or more by one branch of the opponent answering them all (core/branch_escape.h),
  // the others by a reply to each (core/reply_proof.h).
  bool proved_in_parts = false;
  // kNone proved by the mandatory boards' versions taken together (core/version_proof.h): every
  // action, or, where the opponent has created more timelines, those that create none, the
  // others answered by one branch of the opponent (core/branch_escape.h) where they have one
  // more, by a reply to each (ProveNoMateByBranchingActions, core/reply_proof.h) where two or
  // more.
  bool proved_by_versions = false;
  // The solution came from the targeted search: `mating` is then 1 and not complete.
  bool found_by_targeted_search = false;
  // The solution came from the versions proof (core/version_proof.h), where the enumeration
  // found none: `mating` is then 1 and not complete.
  bool found_by_versions = false;
  // The enumeration ran out of budget, the actions counted alone were few, and it ran again to
  // the few-actions ceiling (MateInOneLimits::few_actions).
  bool recounted = false;
};

struct MateInOneLimits {
  SearchLimits search;         // the legal actions' search: promotions, and its budget
  uint64_t reply_budget = 0;   // Decide's budget for each position after an action (0: none)
  bool stop_at_first = false;  // stop at the first mate (then `complete` is false when more
                               // actions remained)
  bool shortcuts = true;       // the check screen, the reply proof, the replayed escape and the
                               // targeted search (false: only the enumeration, each checking
                               // action decided, as the brute-force tests want it)
  bool branch_escape = true;   // with the shortcuts, the branch escape too (false: the tests of
                               // what follows it, on positions it settles)
  bool version_proof = true;   // with the shortcuts, the proof by the mandatory boards' versions
                               // (core/version_proof.h) too
  // A position of few actions is enumerated to the end rather than to search.budget: when
  // moves_per_action times the product, over the mover's boards, of one more than the moves from
  // each (an estimate of the actions) exceeds search.budget, that is the enumeration's budget,
  // unless it exceeds max_factor times search.budget (then search.budget stands). The decisions'
  // budget (reply_budget) is not changed. moves_per_action 0: always search.budget.
  struct FewActions {
    uint64_t moves_per_action = 10;
    uint64_t max_factor = 50;
  } few_actions;
};

// Looks for the mates in one of pos.ToMove().
MateInOne FindMateInOne(const Position& pos, const MateInOneLimits& limits);

// The targeted search alone (FindMateInOne runs it when its enumeration runs out of budget without
// a mate): for each move of the mover that gives check on the boards it makes (their passing
// copies searched for a capture of an opponent royal, the other boards as they are), the move is
// completed by the legal action Decide (limits.reply_budget) finds for the rest of the boards, and
// the whole action is returned, in play order, if it is legal (JudgeAction) and Decide proves
// the opponent checkmated after it. Then the same for each pair of those moves from two boards,
// the second played after the first where it is still a move (two checks together take away
// answers each leaves alone). Empty when no such action mates: that proves nothing (a check made
// by two moves together, three checks, or a completion that spoils the check, is not tried), nor
// does running out of limits.search.budget (moves tried, its decisions included; 0: none), which
// stops each of the two passes. Adds the moves it tried to *work.
std::vector<Move> FindMateAroundChecks(const Position& pos, const MateInOneLimits& limits,
                                       uint64_t* work);

// "mates", "none", "unknown".
const char* MateInOneAnswerName(MateInOne::Answer answer);

}  // namespace fived

#endif  // FIVED_CORE_TACTICS_H_
