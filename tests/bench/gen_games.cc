// Writes a collection of random legal games (tests/support/random_game.h) in canonical 5dpgn, for
// the indexing benchmark and for tests that need many games. The output depends only on the
// options, never on --jobs: game i is played from a seed derived from (seed, i) and games are
// written in order. Prints what it made and how long it took to stderr.
//
// Usage: gen_games --games N --seed S [--min-actions A] [--max-actions B] [--jump-bias P]
//                  [--max-timelines T] [--variants V1,V2,...] [--custom] [--promotions P]
//                  [--jobs J] [--out FILE]
// --variants plays only the official variants named (comma-separated, as [Board] writes them);
// --custom starts every game from a random 8x8 board of its own instead (RandomCustomBoard), as a
// custom game with its 5DFEN; --promotions gives every game that Promotions header ("Q": pawns
// promote to queens only, as other engines read games).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/random_game.h"

namespace {

constexpr const char* kUsage =
    "usage: gen_games --games N --seed S [--min-actions A] [--max-actions B] [--jump-bias P]\n"
    "                 [--max-timelines T] [--variants V1,V2,...] [--custom] [--promotions P]\n"
    "                 [--jobs J] [--out FILE]\n";

struct Batch {
  std::string text;
  long actions = 0;
  long short_games = 0;  // games shorter than min_actions
};

// Plays games [begin, end) with one generator.
void PlayRange(const fived::CollectionOptions& options, int begin, int end, Batch* batch) {
  fived::CollectionGenerator generator;
  const std::string error = generator.Init(options);
  (void)error;  // checked by main before any batch starts
  fived::RandomGame game;
  for (int i = begin; i < end; ++i) {
    batch->text += generator.Game(i, &game);
    batch->actions += static_cast<long>(game.actions.size());
    if (static_cast<int>(game.actions.size()) < options.min_actions) ++batch->short_games;
  }
}

bool ParseLong(const char* text, long* value) {
  char* end = nullptr;
  *value = std::strtol(text, &end, 10);
  return end != text && *end == 0;
}

}  // namespace

int main(int argc, char** argv) {
  fived::CollectionOptions options;
  long games = -1;
  long jobs = 1;
  std::string out_path;
  bool seed_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "-h" || flag == "--help") {
      std::cout << kUsage;
      return 0;
    }
    if (flag == "--custom") {
      options.custom_boards = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::cerr << "gen_games: " << flag << " needs a value\n" << kUsage;
      return 2;
    }
    const char* value = argv[++i];
    long number = 0;
    bool ok = true;
    if (flag == "--games") {
      ok = ParseLong(value, &games) && games >= 0 && games <= 2000000000;
    } else if (flag == "--seed") {
      char* end = nullptr;
      options.seed = std::strtoull(value, &end, 10);
      ok = end != value && *end == 0;
      seed_given = true;
    } else if (flag == "--min-actions") {
      ok = ParseLong(value, &number) && number >= 0 && number <= 100000;
      options.min_actions = static_cast<int>(number);
    } else if (flag == "--max-actions") {
      ok = ParseLong(value, &number) && number >= 0 && number <= 100000;
      options.max_actions = static_cast<int>(number);
    } else if (flag == "--max-timelines") {
      ok = ParseLong(value, &number) && number >= 1 && number <= 1000;
      options.max_timelines = static_cast<int>(number);
    } else if (flag == "--jump-bias") {
      char* end = nullptr;
      options.jump_bias = std::strtod(value, &end);
      ok = end != value && *end == 0 && options.jump_bias >= 0 && options.jump_bias <= 1;
    } else if (flag == "--variants") {
      options.variants.clear();
      std::string list = value;
      for (size_t start = 0; start <= list.size();) {
        const size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start) options.variants.push_back(list.substr(start, comma - start));
        start = comma + 1;
      }
      ok = !options.variants.empty();
    } else if (flag == "--promotions") {
      options.promotions = value;
    } else if (flag == "--jobs") {
      ok = ParseLong(value, &jobs) && jobs >= 1 && jobs <= 256;
    } else if (flag == "--out") {
      out_path = value;
    } else {
      std::cerr << "gen_games: unknown option " << flag << "\n" << kUsage;
      return 2;
    }
    if (!ok) {
      std::cerr << "gen_games: bad value for " << flag << ": " << value << "\n";
      return 2;
    }
  }
  if (games < 0 || !seed_given) {
    std::cerr << kUsage;
    return 2;
  }
  {
    fived::CollectionGenerator check;
    const std::string error = check.Init(options);
    if (!error.empty()) {
      std::cerr << "gen_games: " << error << "\n";
      return 2;
    }
  }

  std::ofstream file;
  if (!out_path.empty()) {
    file.open(out_path, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "gen_games: cannot write " << out_path << "\n";
      return 1;
    }
  }
  std::ostream& out = out_path.empty() ? std::cout : file;

  // Rounds of `jobs` batches: each thread plays a contiguous range, then the main thread writes
  // the batches in order, so memory stays bounded and the output does not depend on --jobs.
  constexpr long kBatchGames = 500;
  const auto start = std::chrono::steady_clock::now();
  long actions = 0, short_games = 0, bytes = 0;
  for (long first = 0; first < games; first += kBatchGames * jobs) {
    std::vector<Batch> batches(static_cast<size_t>(jobs));
    std::vector<std::thread> threads;
    for (long j = 0; j < jobs; ++j) {
      const long begin = std::min(games, first + j * kBatchGames);
      const long end = std::min(games, begin + kBatchGames);
      if (begin >= end) break;
      threads.emplace_back(PlayRange, std::cref(options), static_cast<int>(begin),
                           static_cast<int>(end), &batches[static_cast<size_t>(j)]);
    }
    for (std::thread& thread : threads) thread.join();
    for (const Batch& batch : batches) {
      out.write(batch.text.data(), static_cast<std::streamsize>(batch.text.size()));
      actions += batch.actions;
      short_games += batch.short_games;
      bytes += static_cast<long>(batch.text.size());
    }
  }
  out.flush();
  if (!out) {
    std::cerr << "gen_games: write failed\n";
    return 1;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr,
               "gen_games: %ld games (%ld shorter than %d actions), %ld actions, %.1f MB in %.2f s "
               "(%.0f games/s, %.0f actions/s, %ld job%s)\n",
               games, short_games, options.min_actions, actions, bytes / 1e6, seconds,
               seconds > 0 ? games / seconds : 0.0, seconds > 0 ? actions / seconds : 0.0, jobs,
               jobs == 1 ? "" : "s");
  return 0;
}
