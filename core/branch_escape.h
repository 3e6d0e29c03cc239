// A proof that the player to move has no mate in one by one reply of the opponent that answers
// every action at once: a branch into the past that makes an active timeline, which moves the
// present back onto the mover's board and so ends the opponent's turn there, whatever boards the
// action left them to play. The mate-in-one search (core/tactics.h) runs it where the reply proof
// (core/reply_proof.h) failed: that proof plays every board the opponent must play, this one
// none but the one it branches from.
//
// Why it proves. Write M for the mover, O for the opponent, P for the present (a half-turn of M).
// The source is a board S of O that every action makes alike or in a few known ways:
//   (a) a tip of O's colour in the position: no move of M lands on a board of O's colour, so every
//       action leaves it as it is;
//   (b) the board after a tip T of M on P, when no timeline M can create is active: then no
//       action moves the present back, every action plays T, and the first move of the action
//       that touches T (from it, or a non-branching jump onto it) makes S and nothing later
//       changes it (a board moved from or onto is no longer a tip of M). Those moves are moves
//       of the position (their source tips and the boards of M's colour they read are as the
//       position has them), so S's versions are the boards each of them makes. A version on
//       which a piece of O could capture a royal piece of M is left out (not one on O's last
//       rank, where a pawn's capture counts only if some board holds a piece to promote to): S
//       stays O's tip, so no legal action makes it.
// For each version, a move R of O from S to a past board X of O's colour is sought such that:
//   - the timeline R starts is active after any action: O's n-th timeline is active iff M has
//     created n-1, and an action only adds to M's (the position after the version's move counts
//     those it made);
//   - it moves the present to M: the board it starts is M's, on X's half-turn + 1, and it must
//     come before every board of O's colour that may lie on an active timeline after the action
//     and R. The boards an action makes after M's tips of the present lie on P + 1 (so the new
//     board must be on P or earlier); O's tips are required to lie later, the inactive ones an
//     action may activate included; a tip of M on an inactive timeline that R's timeline
//     activates (O's n-th timeline activates M's (n+1)-th) may be played by the action and leave
//     a board of O's colour one half-turn later, so it must lie late enough too; and where R's
//     timeline may activate the timelines the action creates (or they are active anyway), each
//     starts a half-turn after a board of M's colour some jump of the position lands on (a jump
//     onto a tip branches once an earlier move of the action played that tip), so the earliest
//     such board must lie after X;
//   - after it, no royal piece of O can be captured: a capture runs from a tip of M's colour onto
//     boards of M's colour across boards of M's colour. After the action and R, those are the
//     position's (an action makes boards of O's colour only, and leaves those of M's colour as
//     they were: fewer of them tips) plus the two R makes. So RoyalCapturable on the position
//     with the version's move and R played, every tip of M still a tip, answers for every
//     action that makes that version: no capture there, none after any of them. Where every
//     action the escape answers plays every tip of M on P (M's next timeline inactive, so that
//     none moves the present back; or, with as many timelines on each side, once the actions
//     whose first branch does are answered on that branch's board, below), those tips are no
//     tips after it, and the test leaves them out (each given a board of O's colour on P + 1,
//     which no capture of M starts from, crosses or lands on); so does the test of a move on
//     the board of a branch R activates (below), a branch of such an action.
// With as many timelines on each side, M's first new timeline is active and may move the present
// back, but only onto its own first board N (M's second is inactive until R, O has no inactive
// timeline): O must then play N alone, and any move on N that stays there makes the present M's.
// So where every branch of M onto a board before P leaves O a move on N after which no royal
// piece of O can be captured (tested as above, on the position with the branch and the move
// played), the actions whose first branch lands there are answered, and the escape need only
// answer the others: they play every tip of M on P (so (b) holds for them), and their branches
// bound X only when some jump of M lands on or after P (a first branch that does not move the
// present back, and a second that R's timeline activates).
// A branch of M that R's timeline activates and that lands before X need not defeat R either:
// its first board (O's) is then on the present, and O plays it too, with a move that stays on
// it, after which the present is M's. R's timeline activates exactly one branch of an action:
// its first where M has one timeline more than O, its second where they have as many (the first
// then did not move the present back, the others stay inactive). So where each such branch of
// the position (its source not played by the version, the version not itself a branch) leaves O
// a move on its board after which no royal piece of O can be captured, tested on the position
// with the version's move, R, the branch (numbered as in the action: a stand-in timeline of O's
// colour takes the first number when it is the second) and that move played, R answers those
// actions too.
// R is a move after the action too: its source S and target X are as in the position played
// there, and a path crosses boards of O's colour that exist there, which no action changes.
// So every action leaves O a legal action (R, with a move on the board of a branch R activates
// where one is needed, or a move on the board of its first branch back), and none mates.
//
// Where O has created d >= 1 timelines more than M, R's own timeline (O's next) is active only
// after an action that creates d timelines or more, and then always. So ProveForBranchingActions
// proves "no mate" for those actions alone, from O's tips (source (a)), with R's timeline taken as
// active; a proof for the actions that create fewer (the reply proof with at most d - 1 new
// timelines' boards to play: ProveNoMateByReplies with `created_at_most`) completes it. M has no
// inactive timeline then; O's inactive ones are active after such an action, so an inactive tip of
// M's colour must lie late enough, as O's tips must. After R, M's first d + 2 new timelines are
// active. A branch of M landing before X puts a board of O's on the present, which O plays too:
// where every jump of M landing before X leaves one board (so no action holds two), each is
// answered on its board as above, tested as the action's first to (d + 2)-th branch (numbered by
// stand-in timelines).
//
// ProveNoMateByBranchEscape is thread-safe: no state is kept between calls.
#ifndef FIVED_CORE_BRANCH_ESCAPE_H_
#define FIVED_CORE_BRANCH_ESCAPE_H_

#include <cstdint>
#include <memory>

#include "core/movegen.h"
#include "core/position.h"

namespace fived {

// The proof's search for one position, for the whole proof or for one board at a time: one
// object serves both (the mate-in-one search hands its own to the reply proof), so that the
// mover's moves are generated and the position copied once, when first needed. Reads `pos`,
// which must outlive it; not thread-safe (one per thread).
class BranchEscape {
 public:
  BranchEscape(const Position& pos, PromotionSet promotions, uint64_t* work);
  ~BranchEscape();
  BranchEscape(const BranchEscape&) = delete;
  BranchEscape& operator=(const BranchEscape&) = delete;

  // ProveNoMateByBranchEscape's answer.
  bool ProveNoMate(uint64_t* branches_answered = nullptr);

  // Asked of one version: whether the opponent's tip on `timeline` of `after` has a branch R
  // that answers every action making that board so. `after` is the position with at most one
  // move of the mover played, the one that made that board, which stands on a timeline of the
  // position, and every action holding that move must leave the board as `after` has it (the
  // reply proof's versions, core/reply_proof.h, which asks it of those it finds no reply for
  // on their own board). R is sought as above, with the source that version; the argument is the
  // same for the actions that make it (with as many timelines on each side, those whose first
  // branch moves the present back are answered on that branch's board, whichever versions they
  // make). Moves played on `after` are rolled back.
  bool Answers(Position* after, int timeline);

  // Where the opponent has created d >= 1 timelines more than the mover: whether every action
  // that creates d timelines or more has the escape R from a tip of the opponent (source (a)),
  // whose own timeline is then active. Together with a proof for the actions that create fewer
  // (ProveNoMateByReplies with created_at_most d - 1), it proves that no action mates
  // (ProveNoMateInParts, core/reply_proof.h, runs both). Asked again, the first answer stands
  // (the mate-in-one search asks it for the versions proof too).
  bool ProveForBranchingActions();

 private:
  class Search;
  std::unique_ptr<Search> search_;
};

// Whether the proof above holds for pos.ToMove() and the actions whose pawns and brawns promote
// to pieces of `promotions`. False proves nothing. Adds the moves it applied to *work. Costs one
// move generation of the mover's boards, and for each source tried one move generation of each
// of its versions and a capture test per branch tried.
// *branches_answered (when given) receives how many times the proof answered a branch of the
// mover that R's timeline activates on that branch's board (below), 0 when it failed.
bool ProveNoMateByBranchEscape(const Position& pos, PromotionSet promotions, uint64_t* work,
                               uint64_t* branches_answered = nullptr);

}  // namespace fived

#endif  // FIVED_CORE_BRANCH_ESCAPE_H_
