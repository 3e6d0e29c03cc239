// A proof that the player to move has no mate in one, by the boards their action leaves the
// opponent to play, taken together: for every combination of the versions those boards can take,
// the opponent is shown a legal reply on the worst position such an action can leave. The
// mate-in-one search (core/tactics.h) runs it where the reply proof and the branch escape failed.
// The combinations are taken in boxes (below), so that most of them are answered together.
//
// Why it proves. Write M for the mover, O for the opponent, P for the present (a half-turn of M).
// A mandatory board is a tip of M on P on an active timeline. Every move of an action is a move
// of the position, and each tip takes part in one move at most, so the board an action leaves
// after a mandatory tip (its version) is the tip after one move of the position: a move from it,
// a piece leaving it by a jump, or a piece arriving on it by a non-branching jump. Its versions
// are gathered by playing every move of every tip of M once.
//
// The actions that create no active timeline on P + 1 or before. Such an action plays every
// mandatory board (the present must pass to O) and creates no board of O's before P + 1, so O
// must play exactly the boards it left after the mandatory tips, O's own tips on P + 1 aside,
// which no action changes.
// For one combination v of versions, let W(v) be the position with those boards appended and
// nothing else played. After any such action A making v, and any action R of O playable on
// W(v):
//   - R is a sequence of moves there too: its sources and targets are boards of O's colour, and
//     A adds to W(v) only boards of O's colour that O need not play (after tips of M ahead of
//     the present or on inactive timelines, or the first board of a new timeline, inactive or
//     ahead of the present), onto none of which R
//     moves, since they are not in W(v); and it leaves the present with M, as on W(v): a board
//     A adds lies after P + 1 or on an inactive timeline, a timeline R creates is active at
//     least as often after A, M having created as many or more, and starts on M's colour. But
//     the timelines R creates may activate M's: where O had created o and R creates r, M's k-th
//     for o + 1 < k <= o + r + 1. One the position holds (k at most M's count) may have a tip of
//     M's colour that A played, leaving a board of O's colour one half-turn later, which W(v)
//     lacks; one A created (the (k - m)-th, m M's count) has a first board of O's colour one
//     half-turn after the board its jump landed on. So the present after R is read on W(v)
//     without those tips: it must be M's, lie on or before each of them, and, where R
//     activates a timeline A creates, on or before every board a jump of M lands on. Then no
//     such board of O's joins the present after A and R. Where R creates one timeline and only
//     that last bound fails, R activates one branch of A (its first where M has created one
//     timeline more, its second where as many), whose board O must then play too: R still
//     answers where, for every jump J of M landing before that present, O has a move staying
//     on J's board after which no royal piece of O can be captured (tested on W(v) + R with J's
//     board started on its timeline, a stand-in for A's first branch where J is the second;
//     the present is then M's again). Where R activates one timeline of M the position holds
//     whose tip lies before that present (its tip, M's, on an inactive timeline), and, where R
//     activates a timeline A creates, every jump of M lands two half-turns after that tip or
//     later: an action leaving the tip unplayed leaves the present there, M's; one playing it
//     leaves a version of it (the tip after a move of M from it or onto it), O's to play. R
//     still answers where O has, on each version, a move staying on it after which no royal
//     piece of O can be captured (tested on W(v) + R with the version appended). A box's
//     witness (below) is held to both tests on the box's unions. (Where the actions asked for
//     create no timeline, with O ahead, R's timelines are inactive and activate none of M's, all
//     active: any R will do);
//   - no piece of M can capture a royal piece of O afterwards where none can on W(v) + R: a
//     capture runs from a tip of M's colour across and onto boards of M's colour. The boards of
//     M's colour after A + R are the position's (A and R leave them as they are) and R's own,
//     the same as on W(v) + R; the tips of M among them are R's and the tips of the position A
//     left unplayed, all of which W(v) leaves unplayed. A new timeline of A holds one board, of
//     O's colour, and lies beyond every other timeline: no capture of M lands on it or crosses
//     it. Whether a pawn's capture onto the last rank counts (PromotingCapturesCount)
//     is the same on both when it already counts on the position or no move of M promotes.
// So where O is not in check on W(v), or has a legal action there (Decide, core/decide.h), no
// such action making v mates. (The last few actions of O found so are tried on each worst
// position before Decide: most are answered alike.)
//
// Boxes. The combinations are taken a box at a time: a set of versions for each mandatory board,
// every combination of them. Whether O may be in check on some W(v) of a box is read on the
// union of their boards: W(v) with O's pass played (as InCheck, core/legal.h, plays it), each
// mandatory board's passed copy read as what its square may hold in some version of the box
// (union_cells.h), every other board as it is. Where no piece of M can capture a royal piece of
// O there (a slider crossing the squares that may be empty), none can on any W(v) of the box:
// all its combinations are answered. Otherwise the capture found is undone by splitting the box
// on a board whose versions differ on a square it uses (the attacker's, the royal's, one
// crossed): those holding it there, and the others. Where none differs, every combination of
// the box leaves O in check; then one move of O may still answer them all: a branch onto a past
// board that moves the present back, from a board every combination holds alike (a tip of O
// that is no mandatory board's version, or one the box fixes to one version), on or before
// P + 1 (a slider's path back from a later board could cross the versions). On each W(v) it is
// the same move (its path crosses boards of the position only), and whether it is a legal
// action that answers every action (as above) depends on the boards of M's colour after it, the
// position's and its own: the versions are boards of O's colour, which no capture of M starts
// from, crosses or lands on. Failing that, O's legal action on the box's first combination (its
// witness) is played on them all. Where each square its moves leave, reach or cross on a
// mandatory board (every square of one it has played and then jumps onto, starting a timeline
// on a copy of it) is held alike by the box's versions of that board, they are the same moves on
// every combination, and the boards they make of a version are those versions with the same
// squares changed: read as a union again. Where no piece of M can then capture a royal piece of
// O (on the boards of M's colour after the action: the position's, the action's own, the unions),
// the action is legal on every combination (its timelines, and so the present it makes, are the
// same on each), and where it answers every action by the bound, or by the tests for the
// branches and played tips it activates read on the unions, all are answered. A square some
// versions hold otherwise, or one the capture found uses, splits the box: the half holding the
// first combination is tried with the same action, the other afresh. Where the witness castles or
// takes en passant, or the capture uses no square that splits, each combination of the box is
// played, within the budget. (Builds with assertions play each combination of a small box the
// witness answered, to hold it to that.)
//
// The actions that create an active timeline. M's first new timeline is active iff O has
// created as many timelines as M or more; its later ones and O's inactive timelines only when O
// has created more. Where M has created more, no action creates an active timeline: the above is
// the whole proof. Where both have created as many, only an action's first branch J can be
// active, O has no inactive timeline, and its later branches are as above (boards of O's colour
// on inactive timelines). J starts its timeline one half-turn after the board it lands on:
//   - before P + 1: the present moves back there, O must play J's board alone, and M's mandatory
//     boards need not be played. W(J), the position with J alone played, leaves every other tip
//     of M unplayed, and the argument above holds for every action whose first branch is J;
//   - on P + 1 (J lands on a board of P: a tip of M an earlier move of the action played, or a
//     past board of a timeline further ahead): every mandatory board is played, and O must play
//     their versions and J's board. W(J, v) appends the versions of the mandatory boards but
//     J's source, then plays J;
//   - later: J's board is ahead of the present, and the actions are those of the first part.
// Where O has created more timelines (one more, with ProveForBranchingActions of
// core/branch_escape.h, which answers every action creating a timeline; two or more, with
// ProveNoMateByBranchingActions of core/reply_proof.h), only the actions that create none can be
// proved here (`created_at_most` 0).
//
// Thread-safe: no state is kept between calls.
#ifndef FIVED_CORE_VERSION_PROOF_H_
#define FIVED_CORE_VERSION_PROOF_H_

#include <cstdint>

#include "core/movegen.h"
#include "core/position.h"

namespace fived {

struct VersionProof {
  // Why it stopped.
  enum class Stop : uint8_t {
    kProved,
    kOpponentAhead,     // every action asked for, but the opponent has created more timelines
    kPromotion,         // PromotingCapturesCount false, and some move promotes
    kTooMany,           // a box whose every combination leaves O in check, unanswered by one
                        // branch or one witness, has more combinations than the budget
    kBudget,            // the budget ran out
    kPresentStays,      // a worst position leaves the mover to move (a timeline reactivated)
    kMated,             // O is checkmated on a worst position (A may still not be an action)
    kUndecided,         // Decide (or the search for a reply that does) ran out of its budget
    kReplyBranches,     // O's only legal actions there create timelines that may activate others
    kUnexpectedBranch,  // a jump onto P did not start a timeline on P + 1 where expected
  };
  Stop stop = Stop::kBudget;
  bool proved = false;                // no action of the kind asked for mates
  double combinations = 0;            // of the mandatory boards' versions (their product)
  uint64_t boxes = 0;                 // boxes read as unions
  uint64_t box_branches = 0;          // boxes in check throughout answered by one branch of O
  uint64_t box_witnesses = 0;         // boxes in check throughout answered by one action of O
  uint64_t branches_answered = 0;     // replies of O shown to answer the branches they activate
  uint64_t played_tips_answered = 0;  // replies of O shown to answer the played tips they activate
  uint64_t positions = 0;             // worst positions built (W(v), W(J), W(J, v))
  uint64_t decided = 0;               // of which O was in check there, and so decided (by an
                                      // action that answered another, or Decide)
  uint64_t work = 0;                  // moves applied, and Decide's work
  // Where O was checkmated on a worst position W(v) whose versions the moves that made them,
  // played alone, make: that action, in play order, when it is legal and Decide proves the
  // checkmate after it (a mate in one, found but not counted: kMated).
  std::vector<Move> mate;
};

// Tries the proof for pos.ToMove() and the actions whose pawns and brawns promote to pieces of
// `promotions`: with `created_at_most` -1, every action (possible only where the opponent has
// created no more timelines than the mover); with 0, the actions that create no timeline (no other
// value is accepted). Fails (proves nothing) where a worst position is checkmate or Decide runs
// out of `decide_budget` there, or once `budget` moves (Decide's included, a box read as a union
// counting one and one more for every 16 versions merged) are spent.
VersionProof ProveNoMateByVersions(const Position& pos, PromotionSet promotions, uint64_t budget,
                                   uint64_t decide_budget, int created_at_most = -1);

// "proved", "opponent ahead", "promotion", "too many combinations", "budget", "present stays",
// "mated", "undecided", "reply branches", "unexpected branch".
const char* VersionProofStopName(VersionProof::Stop stop);

}  // namespace fived

#endif  // FIVED_CORE_VERSION_PROOF_H_
