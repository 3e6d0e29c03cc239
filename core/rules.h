// The rules a game is played under: its setup (variant, starting position, promotions) and the
// promotion rules the replay, the legal actions and the mate search share. What the headers of a
// 5dpgn game say is read into a GameSetup by core/replay.h SetupGame.
#ifndef FIVED_CORE_RULES_H_
#define FIVED_CORE_RULES_H_

#include <string>

#include "core/movegen.h"
#include "core/position.h"

namespace fived {

// The rules a game is played under, from its headers.
struct GameSetup {
  std::string variant;  // the official name, or "custom"
  Position start;
  // Pieces a written promotion may name: the Promotions header's, or without one every piece a
  // recorded game might have promoted to (replay accepts what was played; what a player could
  // choose is PromotionChoices below). Not only the pieces the game contains: real
  // files promote to a queen in variants without one, as the official game does (the
  // specification's invasion.5dpgn, 5dchess-tools' issue-1.5dpgn, Slavrick's ctp1.5dpgn).
  PromotionSet promotions;
  bool promotions_written = false;                  // the Promotions header gave `promotions`
  PieceType default_promotion = PieceType::kQueen;  // when a move does not say
};

// The pieces a pawn or brawn of `pos` may become, as a player chooses them (RULES.md): the
// Promotions header's pieces when the game has one; otherwise every piece type the game contains
// that is neither royal nor a pawn or brawn: on the starting boards of an official variant (so
// Standard offers Q, R, B, N and Reversed Royalty C, R, B, N), on every board of `pos`, past
// ones included, for a custom game. Possibly empty: then a pawn cannot move onto its last rank.
// The reference implementation chooses the same way, except that it never offers a unicorn or
// a dragon.
PromotionSet PromotionChoices(const GameSetup& setup, const Position& pos);

// Whether a pawn's or brawn's capture onto its last rank counts as a capture of the royal piece
// it lands on: when some board of `pos`, past ones included, holds a piece a pawn could become
// (neither royal nor a pawn or brawn). That is the reference implementation's rule, which the
// oracle's games follow: it looks at the boards, not at the Promotions header (a game of pawns
// and kings with a Promotions header counts no such capture until a pawn has promoted).
bool PromotingCapturesCount(const Position& pos);

// The latest present an action of pos.ToMove() that creates `created` timelines or more (at
// least 1) can leave, where the opponent has created two timelines more or more: such an action
// activates the opponent's first `created` inactive timelines (all of them, at most), and the
// present after it lies no later than the board each holds then, its tip where that is the
// opponent's, or one half-turn later where it is the mover's and the action played it (left
// unplayed, it would hold the present on the mover's colour, and the action would be none).
// The earliest of those half-turns; INT_MAX where the opponent has created fewer than two
// timelines more. Once the opponent has played the boards on that present, it is the mover's
// again: a board of the opponent after it is never one their reply must play.
int LatestPresentAfterBranching(const Position& pos, int created);

}  // namespace fived

#endif  // FIVED_CORE_RULES_H_
