// The puzzles command of 5d-query: every position of the stored games where the side to move had
// a proven mate in one (table tactics, 5d-index --tactics), written as a puzzle: a custom game
// whose 5DFEN boards are that whole position (every board, history included, so that time
// travel is possible), with the Branched 5DPGN header [Puzzle "mate in 1"], the source game, the
// side to move, and the solution as its movetext. Each puzzle is read back before it is given
// out: its start must replay to the same side to move and its solution must checkmate there
// (core/decide.h); a puzzle that does not (a custom start makes every timeline it holds an
// initial, active one, which can change who must move where) is left out and counted.
#ifndef FIVED_QUERY_PUZZLES_H_
#define FIVED_QUERY_PUZZLES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/types.h"
#include "query/find.h"
#include "query/request.h"
#include "query/store.h"

namespace fived {

struct Puzzle {
  int64_t game_id = 0;
  int action = 0;              // the source game's position after this many actions
  Color side = Color::kWhite;  // to move
  uint64_t solutions = 0;      // mating actions found (exact when `complete`)
  bool complete = false;
  std::string solution;  // canonical move texts joined by ' '
  std::string text;      // the puzzle as 5dpgn, ending with a blank line
};

// The puzzle of one position: `game_text` (a stored game's text), the position after `action`
// actions of it, `solution` (its mating action in canonical move texts). The headers name the
// source (`game_id`, `white`, `black`, `date` when not empty). nullopt when the game no longer
// replays to that position, or when the puzzle does not read back with its solution mating.
std::optional<std::string> MakePuzzle(const std::string& game_text, int action,
                                      const std::string& solution, int64_t game_id,
                                      const GameRow& source);

struct PuzzlesAnswer {
  std::vector<Puzzle> puzzles;
  OutputFormat format = OutputFormat::kPgn;  // 5dpgn or json
  long left_out = 0;                         // positions whose puzzle did not read back as a mate
  std::vector<std::string> hints;            // for people (a database without tactics)
};

// puzzles on `store` (CheckRequest included): the filters' games' mate-in-one positions, by game
// id and action; with "only-move", only those with exactly one mating action (every action
// tried). "format" is 5dpgn (the default) or json. Not thread-safe, as the store is not.
Result<PuzzlesAnswer> RunPuzzles(GameStore& store, const Request& request);

// The puzzles as 5dpgn (one after another) or as a JSON array of {"game", "action", "side",
// "solutions", "complete", "solution", "pgn"}.
std::string WritePuzzles(const PuzzlesAnswer& answer);

}  // namespace fived

#endif  // FIVED_QUERY_PUZZLES_H_
