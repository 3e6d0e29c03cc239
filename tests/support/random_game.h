// Random legal games played by our own engine, for benchmarks and tests that need many varied
// games with real time travel. Each action plays every mandatory board (and sometimes an optional
// one) with randomly chosen pseudo-legal moves, preferring jumps by a tunable weight, and is kept
// only when JudgeAction accepts it; otherwise the action is rolled back and tried again, then
// more carefully (each move must leave no royal piece capturable). This samples legal actions
// without enumerating them (5D actions are combinatorial). When none is found, the previous
// action is taken back and replayed a few times before the game ends there.
//
// Everything here is deterministic given the seed: the generator uses its own PRNG (xoshiro256**
// seeded through splitmix64), never std::random_device or a standard distribution, so the same
// seed gives the same games on every platform. No I/O: games come back as values and text.
#ifndef FIVED_TESTS_SUPPORT_RANDOM_GAME_H_
#define FIVED_TESTS_SUPPORT_RANDOM_GAME_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/replay.h"

namespace fived {

// The pseudo-random numbers of the generator: xoshiro256** (Blackman and Vigna), its state
// filled by splitmix64 from one 64-bit seed. Not for cryptography.
class GameRng {
 public:
  explicit GameRng(uint64_t seed);
  uint64_t Next();
  // Uniform in [0, n); n must be in [1, 2^32). The tiny bias of the multiply-shift is harmless.
  uint32_t Below(uint32_t n) {
    return static_cast<uint32_t>(((Next() >> 32) * static_cast<uint64_t>(n)) >> 32);
  }
  // Uniform in [0, 1).
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // True with probability p.
  bool Chance(double p) { return Unit() < p; }

 private:
  uint64_t state_[4];
};

// splitmix64's output function: a bijective 64-bit mix, used to derive independent seeds.
uint64_t MixSeed(uint64_t value);

struct RandomGameOptions {
  uint64_t seed = 1;
  // The game's length is drawn uniformly from [min_actions, max_actions] (an action is one
  // player's sub-turn). min_actions <= max_actions, both >= 0.
  int min_actions = 10;
  int max_actions = 60;
  // Probability that a move is chosen among the jumps of its board (when it has both jumps and
  // physical moves), so that games really branch. With 0, a jump is still played when no
  // physical move of the board will do.
  double jump_bias = 0.3;
  // No branching jump is chosen once the game has this many timelines (non-branching ones are).
  int max_timelines = 8;
  // Probability of playing one more optional board (a tip of the mover's colour that is not
  // mandatory) after the mandatory ones, asked again after each optional move.
  double optional_move_chance = 0.25;
  // Random tries of one action before deciding that it has no legal action.
  int action_tries = 8;
  // When no legal action is found for the side to move, the previous action is taken back and
  // played again at random, at most this many times per game; then the game ends there.
  // Random play mates often (a king stands on many past boards, all open to attacks through
  // time), so this lengthens games, at a cost: 4 makes generation about twice as slow as 0.
  int backtracks = 4;
  // Games that end before min_actions (no legal action was found) are played again from the
  // start with a new stream derived from the seed, at most this many times in all.
  int game_attempts = 8;
};

struct RandomGame {
  std::vector<PlayedAction> actions;
  int target_actions = 0;   // the length drawn for the game; actions.size() <= target_actions
  int attempts = 0;         // streams played (1 when the first reached min_actions)
  Position final_position;  // the position after the last action
};

// Plays one random legal game from setup.start, promoting to setup.promotions. Returns the first
// attempt that reaches min_actions, else the longest attempt (shorter than min_actions only when
// every attempt reached a position where no legal action was found, even after backtracking).
// Returns nullopt when no attempt found even one legal action. Thread-compatible: a
// RandomGameGenerator keeps scratch buffers, so use one per thread.
class RandomGameGenerator {
 public:
  std::optional<RandomGame> Generate(const GameSetup& setup, const RandomGameOptions& options);

 private:
  // Plays one attempt from setup.start into `game`, aiming at `target` actions.
  void PlayAttempt(const GameSetup& setup, const RandomGameOptions& options, GameRng& rng,
                   int target, RandomGame* game);
  // Tries to play one legal action for the side to move; appends it and returns true, or leaves
  // the position as it was and returns false.
  bool PlayAction(const GameSetup& setup, const RandomGameOptions& options, GameRng& rng,
                  Position* pos, PlayedAction* action);
  // Picks the next board to play: a mandatory one (a board no earlier try could play safely
  // first, else a random one with moves), or, when none is left, with probability
  // optional_move_chance an optional one. Fills the move lists for it. Returns false when there
  // is no board to play; *mandatory then says whether mandatory boards were left.
  bool ChooseBoard(const RandomGameOptions& options, GameRng& rng, const Position& pos,
                   const GameSetup& setup, Color mover, bool careful, bool* mandatory,
                   int* timeline);
  // Fills physical_, jumps_ and rescues_ with the moves from the tip of `timeline` (leaving out
  // branching jumps once the game has max_timelines timelines). Returns whether there are any.
  bool CollectMoves(const GameSetup& setup, const RandomGameOptions& options, const Position& pos,
                    int timeline);
  // Removes a move and returns it: a rescue if any, else a random jump with probability
  // jump_bias (when there are both kinds), else a random physical move. One list must have moves.
  Move TakeMove(const RandomGameOptions& options, GameRng& rng);
  static bool HasPieceOf(const Board& board, Color color);

  std::vector<Move> physical_;     // reused per board: its physical moves
  std::vector<Move> jumps_;        // and its jumps,
  std::vector<Move> rescues_;      // but for those onto a board in dead_
  std::vector<int> dead_;          // mandatory boards without a piece of the mover
  std::vector<int> boards_;        // reused: candidate timelines
  std::vector<int> stuck_boards_;  // boards with no safe move in a try of the current action
  std::vector<Position::Mark> action_marks_;  // the position before each action of the attempt
};

// One game with a fresh generator.
std::optional<RandomGame> GenerateGame(const GameSetup& setup, const RandomGameOptions& options);

// The official variants a collection cycles through by default: one- and two-timeline starts,
// a turn-zero start, three-timeline starts, small boards and the fairy pieces (princess, brawn,
// royal queen, common king, unicorn, dragon).
std::vector<std::string> DefaultCollectionVariants();

// A random start of one 8x8 board, white to move, as its 5DFEN board (`[<pieces>:0:1:w]`): a king
// of each side (each on its home square, unmoved, two times in five), rooks unmoved in their
// corners now and then, and 2 to 14 more pawns, knights, bishops, rooks and queens of either side
// on random squares (pawns off the first and last ranks, unmoved on their starting rank); kings
// never side by side, and black's king never capturable by white (white moves first). The same
// seed gives the same board.
std::string RandomCustomBoard(uint64_t seed);

struct CollectionOptions {
  uint64_t seed = 1;
  int min_actions = 10;
  int max_actions = 60;
  double jump_bias = 0.3;
  int max_timelines = 8;
  std::vector<std::string> variants = DefaultCollectionVariants();  // official names
  // Every game starts instead from its own RandomCustomBoard (seeded from the game's seed),
  // written as a custom game ([Board "custom"], [Size "8x8"], [Promotions], and the 5DFEN board).
  bool custom_boards = false;
  // The letters of a Promotions header every game gets (pawns promote to those pieces only), as
  // "Q"; empty: none, so that pawns promote to any piece the replay accepts, except in custom
  // games, whose header is "Q" then (as the official game and the other engines promote).
  std::string promotions;
};

// Writes numbered random games in canonical 5dpgn. Game i (0-based) is played in variant
// variants[i % n] (or from its own custom board, custom_boards) with a seed derived from (seed, i)
// alone, so any game can be made on its own, in any order or on any thread, and comes out the same.
// Headers, in order: Event
// ("Random game <i+1> (seed <seed>)"), White and Black (made-up names), Date (a made-up date that
// varies with i), Result "*", Board (the variant's official name), Mode "5D". The movetext ends
// with the result "*".
// Thread-compatible: use one CollectionGenerator per thread.
class CollectionGenerator {
 public:
  // Returns an error message naming an unknown variant (or bad lengths); empty on success. An
  // error changes nothing; Game() needs one successful Init first.
  std::string Init(const CollectionOptions& options);

  // The text of game `index` (a blank line follows it, so texts concatenate into a collection).
  // If `game` is given it receives the game played. A game with no legal action at all is
  // written with no moves.
  std::string Game(int index, RandomGame* game = nullptr);

 private:
  CollectionOptions options_;
  std::vector<GameSetup> setups_;
  RandomGameGenerator generator_;
};

// Games 0 .. games-1 of a collection, concatenated; or the error of CollectionGenerator::Init.
std::string GenerateCollection(int games, const CollectionOptions& options,
                               std::string* error = nullptr);

}  // namespace fived

#endif  // FIVED_TESTS_SUPPORT_RANDOM_GAME_H_
