// A proof that the player to move has no mate in one, made without enumerating their actions: for
// every action of the mover, the opponent is shown a legal reply, so that no action leaves them
// checkmated. The mate-in-one search (core/tactics.h) runs it where the check screen
// (core/check_screen.h) could not rule out every check.
//
// Why it proves. Write M for the mover, O for the opponent, P for the present (a half-turn of M).
// After an action A of M, the opponent must play every active timeline whose tip is theirs and
// lies on the new present, which is at most P + 1 (every board of M on P was played, unless A
// moved the present back, below). Those boards (the slots) can only be: the board M's action
// leaves after a board of M on P; a board of O on P + 1; the tip of an inactive timeline of O's
// side that the timelines A creates may activate; the first board of a new, active timeline A
// branches onto a board at or before P.
// Where O has created two timelines more than M or more, an action that creates a timeline also
// activates O's first inactive timeline T (one that creates j, the first j), and T's board after
// it lies on T's tip (O's) or one half-turn later (M's tip, played: an unplayed tip of M there
// would leave the present on M's colour, and A would be no action). The present after A lies no
// later, and once O has played the boards on it the present is M's: a board of O later than T's,
// on a new or an inactive timeline, is never on the present after such an action, and is no slot.
// For the actions that create at least one timeline (created_at_least, below), neither are the
// boards of P + 1 when T's lies before them.
// On each slot exactly one move of A decides the board (the first move from it, onto it or
// creating it: the board it makes is O's and no later move of M changes it), so the boards a
// slot can hold (its versions) are the position's tip or the board one move of M makes there,
// enumerated here move by move. A version on which a piece of O could capture a royal piece of M
// on that board alone is left out: the action that makes it is illegal, since that board stays
// O's tip (a pawn's capture onto O's last rank aside: it counts only where some board holds a
// piece to promote to). For every other version one move of O on that board (the reply) is chosen
// after which no royal piece of O on the board M then gets is capturable by a piece of M on that
// board.
//
// A version with no such reply on its own board (a check the opponent can only answer from
// elsewhere, or a board left without a piece of theirs) may be answered across two boards: one
// move of O between that board, S, and the board of another slot B, from either onto the other
// (a piece arriving to block or capture, a royal stepping out), crossing no third board. B must
// be made by every action (O's tip, or the board after a tip of M on the present), and the move
// must be one there and leave both boards safe, as above, whatever version of B the same action
// makes: each version of B made by a move of M from another tip than the move that made S's
// version (that move is on S's own board, or S is O's tip, so any action playing it plays it
// before a move onto S, which then branches, and the other moves make B's versions alike), or
// O's tip. Those pairs of boards join the unions of S and B. B then holds no version that asks
// for such a reply itself, and serves one slot S only, so that the reply to any action plays
// each board once.
//
// A version with no reply on its own board that stands on a timeline of the position may also be
// answered by a branch of the opponent that moves the present back (core/branch_escape.h): every
// action that makes it then has a legal reply, whatever else it did (the branch, with a move on
// a board the branch activates, or for some actions a move on their own branch's board, as that
// proof says), so the version asks nothing of the other slots and adds nothing to the unions
// below.
//
// The reply R to any other action is then the chosen move on every slot that is mandatory after it.
// It moves the present to M (every board on O's present is played, and a move on a board creates no
// timeline), so R is legal unless a piece of M can capture a royal piece of O afterwards. Such a
// capture runs on boards of M's colour, which are the boards of the position, or the boards R
// makes (the action's own boards are O's). One that only reads boards of the position starts on
// a tip of M the action left unplayed, a tip now: it would be a capture now, and the proof asks
// that there is none (promoting captures counted). One on a single board R made was excluded by
// the choice of the reply. The rest cross boards: they are searched on the union of every board
// R may make on each slot (every square holding what some version's reply left there, the new
// timelines' slots wherever those timelines may be), with every tip of M that may stay unplayed
// as an attacker (the tips of M on P too, onto the slots at or before P: an action whose new
// timeline starts before P moves the present back there and may leave them unplayed, the slots
// after P unmade), empty-or-not squares crossable and possibly-royal squares capturable, along
// every vector that changes time or timeline. None found: every action has a legal reply, and
// none mates. When one is found, the replies are chosen again (at most six rounds in all) to
// break the captures the previous round's union holds: a piece of the mover that stands where it
// stood whatever the action did is answered by the royal pieces, which keep off every square it
// reaches; a piece some move of the action put there, or one that reaches a royal piece on a
// board of the position, by the replies of the versions that hold it, which must capture it
// (where one cannot, the piece is answered by the royal pieces from the next round on).
// Whatever the rounds chose, only the last round's union is searched: the rounds steer the choice
// and prove nothing themselves.
//
// Thread-safe: no state is kept between calls.
#ifndef FIVED_CORE_REPLY_PROOF_H_
#define FIVED_CORE_REPLY_PROOF_H_

#include <cstdint>

#include "core/branch_escape.h"
#include "core/movegen.h"
#include "core/position.h"

namespace fived {

struct ReplyProof {
  enum class Result : uint8_t {
    kNoMate,         // proved: every action of the mover leaves the opponent a legal action
    kNoSafeReply,    // some version of a slot has no reply that keeps its own royals safe
    kCrossCapture,   // the union of the replies' boards holds a capture across boards
    kNotApplicable,  // the mover can already capture an opponent royal: the argument fails
  };
  Result result = Result::kNotApplicable;
  uint64_t slots = 0;     // boards the opponent may have to play (existing timelines)
  uint64_t versions = 0;  // versions given a reply
  uint64_t escaped = 0;   // of which answered by the branch escape (core/branch_escape.h)
  // Some board of the opponent on a new timeline, or on an inactive one, was left out: it lies
  // after the latest present an action creating a timeline can leave (above).
  bool left_out_late = false;
  uint64_t work = 0;  // moves applied (the mover's and the replies tried)
  // Rounds of reply choice run (0 when kNotApplicable, else 1 to 6): kNoSafeReply after round 1
  // means a version with no reply safe on its own board; after a later round, one whose royal
  // pieces could not keep off the squares the earlier rounds marked.
  int rounds = 0;
};

// Tries the proof for pos.ToMove() and the actions whose pawns and brawns promote to pieces of
// `promotions` (those the legal search of the same promotions tries). Never fails; positions of
// any board size are accepted. Costs about one move generation of every board of the mover, one
// application per move that makes a slot's board, and a few replies tried per version.
// `escape` (optional): the branch escape of the same position and promotions to ask of the
// versions with no reply on their own board; without it the proof makes one when first needed.
// `created_at_most` (when not -1): the proof for the actions that create at most that many
// timelines only (no more new timelines' boards to play), which
// BranchEscape::ProveForBranchingActions completes where the opponent has created that many
// timelines more than the mover, plus one. `created_at_least` (when above 0): the proof for the
// actions that create at least that many only (j): the boards of P + 1 are then no slots where
// the board of one of O's first j inactive timelines lies before them (above).
ReplyProof ProveNoMateByReplies(const Position& pos, PromotionSet promotions,
                                BranchEscape* escape = nullptr, int created_at_most = -1,
                                int created_at_least = 0);

// The proof in two parts, where the opponent has created d >= 1 timelines more than the mover:
// the branch escape for the actions that create d timelines or more
// (BranchEscape::ProveForBranchingActions; `escape` is the position's, of the same promotions),
// the reply proof for those that create fewer (created_at_most d - 1). True when both hold: no
// action mates. Adds the reply proof's work to *work (the escape counts its own).
bool ProveNoMateInParts(const Position& pos, PromotionSet promotions, BranchEscape* escape,
                        uint64_t* work);

// Where the opponent has created d >= 2 timelines more than the mover: whether every action that
// creates a timeline leaves the opponent a legal reply, by the reply proof for the actions that
// create j or more (created_at_least j), for j from 1, and where that fails for those that create
// exactly j and on with j + 1; for j = d, the branch escape may answer instead
// (BranchEscape::ProveForBranchingActions). The versions proof (core/version_proof.h) for the
// actions that create none completes it. Adds the reply proofs' work to *work.
bool ProveNoMateByBranchingActions(const Position& pos, PromotionSet promotions,
                                   BranchEscape* escape, uint64_t* work);

// "no mate", "no safe reply", "cross capture", "not applicable".
const char* ReplyProofResultName(ReplyProof::Result result);

namespace reply_proof_internal {

// Whether a piece of `attacker` on `board` may capture on `square` by a move on that board: what
// SquareAttackedOnBoard (core/movegen.h) answers, from a table of every type's steps and
// directions built once; exposed so that tests can hold the two to each other. Without `pawns`,
// the captures of pawns and brawns are left out.
bool AttackedOnBoard(const Board& board, Square square, Color attacker, bool pawns = true);

}  // namespace reply_proof_internal

}  // namespace fived

#endif  // FIVED_CORE_REPLY_PROOF_H_
