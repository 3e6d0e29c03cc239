// The benchmark programs' reading of 5dpgn collections: each file split into games
// (core/game_splitter.h), each game parsed and replayed, and the thread's CPU time to time them
// with. Header-only: the programs link fived_core and no test library.
#ifndef FIVED_TESTS_BENCH_BENCH_GAMES_H_
#define FIVED_TESTS_BENCH_BENCH_GAMES_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "core/game_splitter.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"

namespace fived::bench {

// Reads the command line "[--budget N] FILE..." several programs here take: *budget is left as
// it is unless given. False when no file is named.
inline bool ReadBudgetAndFiles(int argc, char** argv, uint64_t* budget,
                               std::vector<std::string>* files) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--budget" && i + 1 < argc) {
      *budget = std::strtoull(argv[++i], nullptr, 10);
    } else {
      files->push_back(arg);
    }
  }
  return !files->empty();
}

// Milliseconds of CPU time this thread has used (other jobs on the machine change it little).
inline double ThreadCpuMs() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

// What reading the games cost and left out.
struct GamesRead {
  double replay_ms = 0;  // CPU time parsing and replaying them
  int rejected = 0;      // games that did not parse or replay
};

// Calls visit(file, raw, replayer) for each game of `files`, in order, that parses and replays
// (`replayer` may be changed: its position is the game's final one). False, said on standard
// error, when a file cannot be read; the files before it were visited.
template <typename Visit>
bool ForEachReplayedGame(const std::vector<std::string>& files, GamesRead* read, Visit&& visit) {
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read\n", file.c_str());
      return false;
    }
    GameSplitter splitter(in);
    while (std::optional<RawGame> raw = splitter.Next()) {
      const double start = ThreadCpuMs();
      SyntaxResult syntax = ParseGameSyntax(raw->text, raw->first_line);
      ReplayOutcome outcome;
      if (syntax.status.ok()) outcome = ReplayGame(syntax.game);
      read->replay_ms += ThreadCpuMs() - start;
      if (!syntax.status.ok() || !outcome.status.ok() || !outcome.replayer) {
        ++read->rejected;
        continue;
      }
      visit(file, *raw, *outcome.replayer);
    }
  }
  return true;
}

}  // namespace fived::bench

#endif  // FIVED_TESTS_BENCH_BENCH_GAMES_H_
