// Whether the player to move has a legal action, found or disproved by cutting away whole blocks of
// the action space at once (the "hypercuboid" search that penteract's cwmtt introduced for 5D
// chess; this is our own implementation of the idea, written from its published description).
//
// The action space. Every move of an action starts from a tip of the mover's colour (a playable
// board), and every board an action creates is of the opponent's colour, so every move of an
// action is one of the moves generated on the position before the action, and each playable
// board takes part in at most one move: as the source of a physical move, as the board a piece
// leaves by a jump, as the tip a piece arrives on by a non-branching jump, or not at all (a
// pass). So an action is a point of a product of axes, one axis per playable board whose values
// are those four kinds of choice, plus one axis per timeline the action may create (the k-th new
// timeline of the mover), whose values are "not created" and every jump that could branch,
// taken in creation order. Not every point is an action: a piece that leaves must arrive exactly
// once, a branch onto a tip needs that tip played before it, and new timelines are created in
// order. A point that is an action is legal when the present has passed to the opponent and no
// royal piece of the mover can be captured (JudgeAction's rules).
//
// The search. Take a point of the remaining space whose jumps match: which boards the jumps join
// is a matching problem on the axes, small whatever the number of moves (its state is the set
// of boards used), solved exactly; a cuboid without such a point holds no action and is dropped
// whole. If the point is a legal action, done. Otherwise the reason it fails names a block of
// points that all fail for the same reason, as a product of a subset of each axis (a
// cross-section): a capture of a royal piece fails every point whose new boards hold the same
// pieces on the capture's squares (the attacker, the empty squares it crosses, the royal piece),
// whatever the other boards do; a present that stays with the mover fails every point that
// passes the same board and creates no earlier active timeline; an inconsistent point (a branch
// onto a tip left unplayed; any, when the matching took too long and a point was taken greedily)
// fails with every point sharing the inconsistency. The block is cut out and the rest of the
// space, kept as a list of disjoint hypercuboids, is searched on; a block on one axis alone (a
// choice that fails whatever the others do) is left out of every hypercuboid still to search.
// When nothing is left, no legal action exists: that is a proof, not a guess.
//
// Not thread-safe per call; keeps no state between calls.
#ifndef FIVED_CORE_HYPERCUBOID_H_
#define FIVED_CORE_HYPERCUBOID_H_

#include <cstdint>
#include <vector>

#include "core/legal.h"
#include "core/movegen.h"
#include "core/position.h"

namespace fived {

struct LegalActionSearch {
  // kStopped: `action` is a legal action; kExhausted: there is none; kOutOfBudget: the work
  // budget ran out first.
  SearchEnd end = SearchEnd::kExhausted;
  std::vector<Move> action;  // in an order ApplyMove accepts, for kStopped
  // Moves played (a point not played counts one, and so do 16 steps of the search for a
  // matching point).
  uint64_t work = 0;
};

// Finds one legal action of pos.ToMove(), or proves there is none, testing at most
// limits.budget points (0: no limit). Pawns and brawns promote to limits.promotions.
LegalActionSearch FindLegalAction(const Position& pos, const SearchLimits& limits);

// Calls visit(moves, after) once per legal point of the action space: every legal action, told
// apart by which move each playable board makes and by which jump creates each new timeline,
// so that two branches onto the same board in either order are two points even where they
// reach the same state (ForEachLegalAction, legal.h, visits states once). The moves come in
// play order: the moves that create no timeline by source timeline (a non-branching jump under
// the timeline it arrives on), then the branching jumps in the order they create timelines;
// `after` is the position they reach, with its keys. Both are valid only during the call;
// visit returns true to stop. The search is the one FindLegalAction runs, which does not stop
// at the first legal point but cuts it away alone and searches on, so that every point is
// visited exactly once and the points it cuts as failing are proven to fail (hypercuboid.h).
// Points are visited in search order (stable for a given position and build). The work budget
// counts as in FindLegalAction; kOutOfBudget: more points may exist.
SearchStats ForEachHypercuboidAction(const Position& pos, const SearchLimits& limits,
                                     const ActionVisitor& visit);

}  // namespace fived

#endif  // FIVED_CORE_HYPERCUBOID_H_
