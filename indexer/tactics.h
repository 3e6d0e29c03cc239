// The tactics of a replayed game (5d-index --tactics): for every position of the game, whether
// the side to move had a mate in one (core/tactics.h), how many mating actions, one of them, and
// whether the action played there mated (found) or not (missed). Computed by the indexer's
// workers beside the rest of a game's analysis (analyze.h) and stored in the tactics table
// (schema/tactics.h).
#ifndef FIVED_INDEXER_TACTICS_H_
#define FIVED_INDEXER_TACTICS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "core/decide.h"
#include "core/replay.h"
#include "schema/tactics.h"

namespace fived {

// What the search said of a game's positions.
struct GameTactics {
  // The positions with a proven mate in one or left unknown, by action (what the table keeps; a
  // position not listed was proved to have none).
  std::vector<PositionTactics> rows;
  long positions = 0;  // positions searched: every state of the game, the start included
};

// Searches every position of a replayed game, the start and the position after each submitted
// action (the moves of an unfinished last action are left out), with `budget` moves for the
// search of the legal actions and `budget` for each decision after a checking action (core/
// tactics.h's MateInOneLimits). `final_verdict` is the verdict already proved on the final
// position, if any (kUnknown or nullopt: decided here with the same budget): it says whether
// the last action mated. Claims only what is proved: a mate by its solution's checkmate, a
// missed mate because the game went on (or its final position is proved not checkmate), "none"
// (no row) once every action was tried. A game that ends in a proven checkmate proves a mate in
// one before its last action, the action played: a search that ran out of budget there gives
// that mate (found, with its count incomplete) rather than unknown. Thread-safe for distinct
// replayers; never fails.
GameTactics FindGameTactics(const Replayer& replayer,
                            std::optional<Decision::Verdict> final_verdict, uint64_t budget);

}  // namespace fived

#endif  // FIVED_INDEXER_TACTICS_H_
