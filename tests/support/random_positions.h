// The games of a random collection (random_game.h) replayed, for tests that hold one part of the
// engine to another (or to brute force) on many varied positions with real time travel: each
// game with its replayer, each position between its actions, or the position before each move.
// This is the set-up those tests share: make game i of the collection, parse it, replay it, walk
// it. Games are made one at a time by a CollectionGenerator, so game i is the same text that
// GenerateCollection(n, options) holds at its place i, whatever n.
//
// Errors are values: each function returns "" when every game replayed, else a message naming
// what failed (an unknown variant or bad lengths, as CollectionGenerator::Init says them, or the
// syntax or replay error of a game with its number and text). A game that fails stops the walk
// there; f has then been called for every game before it, and for none of that game's positions
// (ForEachRandomMove: for the moves its replay reached). The games of the generator always
// replay, so an error means the engine or the generator broke.
//
// Deterministic given the options, like the generator. Not thread-safe in itself (f is called on
// the calling thread, in order); separate calls may run on separate threads.
#ifndef FIVED_TESTS_SUPPORT_RANDOM_POSITIONS_H_
#define FIVED_TESTS_SUPPORT_RANDOM_POSITIONS_H_

#include <cstddef>
#include <functional>
#include <string>

#include "core/movegen.h"
#include "core/position.h"
#include "core/replay.h"
#include "tests/support/random_game.h"

namespace fived {

// One game of the collection, replayed; valid during the call of f that receives it.
struct RandomGameReplay {
  int index;                 // 0-based: the game's number, as in CollectionGenerator::Game(index)
  const std::string& text;   // its 5dpgn text
  const Replayer& replayer;  // every action replayed: setup(), actions(), the final position()
};

// Makes and replays games 0 .. games-1 of the collection `options`, calling f(game) after each
// replay.
std::string ForEachRandomGame(const CollectionOptions& options, int games,
                              const std::function<void(const RandomGameReplay& game)>& f);

// Makes and replays games 0 .. games-1 of the collection `options`, calling f(game, position,
// action) for every position of each game in order: the start, then the position after each
// action. `action` is the number of actions played to reach the position, so the position is the
// one before game.replayer.actions()[action], or the final one (game.replayer.position()) when
// action == game.replayer.actions().size(). The position is a copy of setup().start with the
// actions' moves applied; it is valid during the call only.
std::string ForEachRandomPosition(
    const CollectionOptions& options, int games,
    const std::function<void(const RandomGameReplay& game, const Position& position,
                             size_t action)>& f);

// Makes and replays games 0 .. games-1 of the collection `options`, calling f(position, move)
// before each move is played, inside actions too, with the replay's position of that moment
// (Replayer::SetMoveHook). The position is valid during the call only.
std::string ForEachRandomMove(
    const CollectionOptions& options, int games,
    const std::function<void(const Position& position, const Move& move)>& f);

}  // namespace fived

#endif  // FIVED_TESTS_SUPPORT_RANDOM_POSITIONS_H_
