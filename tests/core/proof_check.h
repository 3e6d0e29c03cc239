// Holding a proof of "no mate in one" to trying every action: the brute force (the mate search
// without any shortcut) and a run of it over every position of random games, shared by the tests
// of the reply proof, the branch escape and the versions proof, and the random games they run on.
#ifndef FIVED_TESTS_CORE_PROOF_CHECK_H_
#define FIVED_TESTS_CORE_PROOF_CHECK_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/rules.h"
#include "core/tactics.h"
#include "tests/support/random_positions.h"

namespace fived::testing {

// The mate-in-one answer of trying every action, without any shortcut.
inline MateInOne BruteForce(const Position& pos, const SearchLimits& limits) {
  MateInOneLimits plain;
  plain.search = limits;
  plain.reply_budget = limits.budget;
  plain.shortcuts = false;
  return FindMateInOne(pos, plain);
}

// Jump-heavy random games on many timelines (seeded), where one side is often ahead in timelines
// and the other can branch actively.
inline CollectionOptions JumpHeavyGames(uint64_t seed) {
  CollectionOptions options;
  options.seed = seed;
  options.min_actions = 8;
  options.max_actions = 24;
  options.jump_bias = 0.8;
  options.max_timelines = 10;
  return options;
}

// Two collections where one side is often two timelines ahead or more: the jump-heavy games
// (seed), and jump-heavy games of small boards (seed + 1), whose positions the brute force more
// often searches to the end.
inline std::vector<CollectionOptions> FarAheadCollections(uint64_t seed) {
  CollectionOptions small = JumpHeavyGames(seed + 1);
  small.variants = {"Very Small", "Very Small - Open", "Focused - Just Kings", "Small - Open",
                    "Checkmate Practice - Rook"};
  small.max_actions = 30;
  return {JumpHeavyGames(seed), small};
}

// What HoldToBruteForce met: positions, those with a mate (found by the brute force), those the
// proof settled, of which searched completely by the brute force, of which with a checking action.
struct ProofCheck {
  int positions = 0;
  int with_mates = 0;
  int proved = 0;
  int proved_and_compared = 0;
  int checks_answered = 0;

  // Prints the counts, naming the proof.
  void Print(const char* proof) const {
    std::printf(
        "%d positions (%d with a mate): %s proved %d, %d of them searched completely (%d with a "
        "checking action)\n",
        positions, with_mates, proof, proved, proved_and_compared, checks_answered);
  }
};

// Runs `proves(pos, promotions)` on every position of the first `games` games of the collection
// `options` and the brute force within 3,000 moves, and fails the test wherever the proof says
// no mate and the brute force finds one (complete or not).
inline ProofCheck HoldToBruteForce(
    const CollectionOptions& options, int games,
    const std::function<bool(const Position& pos, PromotionSet promotions)>& proves) {
  ProofCheck out;
  const std::string error = ForEachRandomPosition(
      options, games, [&](const RandomGameReplay& game, const Position& pos, size_t action) {
        ++out.positions;
        SearchLimits limits;
        limits.promotions = PromotionChoices(game.replayer.setup(), pos);
        limits.budget = 3000;
        const bool proved = proves(pos, limits.promotions);
        const MateInOne reference = BruteForce(pos, limits);
        if (reference.mating > 0) ++out.with_mates;
        if (!proved) return;
        ++out.proved;
        EXPECT_EQ(reference.mating, 0u)
            << "game " << game.index + 1 << " before action " << action << ": " << pos.StateFen();
        if (reference.complete) {
          ++out.proved_and_compared;
          if (reference.checking > 0) ++out.checks_answered;
        }
      });
  EXPECT_EQ(error, "");
  return out;
}

}  // namespace fived::testing

#endif  // FIVED_TESTS_CORE_PROOF_CHECK_H_
