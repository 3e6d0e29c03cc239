// The verdict on a replayed game's final position: checkmate, stalemate, playable (with one
// legal action as the witness) or unknown, and whether the side to move is in check. Shared by
// `5d-index --check --verdict` and the indexer, which stores it for every game (schema/ending.h).
#ifndef FIVED_INDEXER_VERDICT_H_
#define FIVED_INDEXER_VERDICT_H_

#include <cstdint>
#include <string>

#include "core/decide.h"
#include "core/replay.h"
#include "core/types.h"

namespace fived {

struct FinalVerdict {
  Decision::Verdict verdict = Decision::Verdict::kUnknown;
  Color to_move = Color::kWhite;  // the side the verdict is for
  bool in_check = false;          // InCheck of the final position (true for every checkmate)
  // The witness of kPlayable: its moves in canonical move texts (core/pgn_writer.h), separated
  // by single spaces, in the order played; empty otherwise.
  std::string witness;
  uint64_t work = 0;  // moves tried by Decide
};

// Decides the final position of a replayed game for the side to move there, with the game's
// promotion choices and `budget` moves tried (at least 1; kUnknown when it runs out). The moves
// of an unfinished last action (Replayer::unfinished) are left out, as they were never
// submitted: the position is then rebuilt from the start; otherwise the replayer's own position
// is decided in place (the moves tried on it are rolled back: it is left as it was). Thread-safe
// for distinct replayers; never fails.
FinalVerdict DecideFinalPosition(Replayer* replayer, uint64_t budget);

}  // namespace fived

#endif  // FIVED_INDEXER_VERDICT_H_
