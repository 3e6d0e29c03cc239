// Replay benchmark: splits, parses and replays a 5dpgn collection on one thread with full
// validation (every move resolved, every action checked for mandatory boards and for royal
// captures), and prints games and actions per second. A program, not a test: it judges nothing.
//
// Usage: bench_replay [FILE] [ROUNDS]   (default ../shared/oracle/public/all.5dpgn, 5 rounds)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/pgn_syntax.h"
#include "core/replay.h"

namespace {

struct Round {
  long games = 0;
  long actions = 0;
  long rejected = 0;
  double seconds = 0;
};

Round ReplayAll(const std::string& text) {
  Round round;
  const auto start = std::chrono::steady_clock::now();
  std::istringstream in(text);
  fived::GameSplitter splitter(in);
  while (std::optional<fived::RawGame> raw = splitter.Next()) {
    ++round.games;
    fived::SyntaxResult syntax = fived::ParseGameSyntax(raw->text, raw->first_line);
    if (!syntax.status.ok()) {
      ++round.rejected;
      continue;
    }
    fived::ReplayOutcome outcome = fived::ReplayGame(syntax.game);
    if (!outcome.status.ok()) ++round.rejected;
    if (outcome.replayer) round.actions += static_cast<long>(outcome.replayer->actions().size());
  }
  round.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return round;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path =
      argc > 1 && argv[1][0] != 0 ? argv[1] : FIVED_SHARED_DIR "/oracle/public/all.5dpgn";
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::cerr << "bench_replay: cannot open " << path << "\n";
    return 2;
  }
  std::stringstream buffer;
  buffer << file.rdbuf();
  const std::string text = buffer.str();

  std::vector<Round> results;
  for (int i = 0; i < rounds; ++i) results.push_back(ReplayAll(text));
  std::sort(results.begin(), results.end(),
            [](const Round& a, const Round& b) { return a.seconds < b.seconds; });
  const Round& median = results[results.size() / 2];
  const Round& best = results.front();
  std::printf("file: %s (%.1f MB)\n", path.c_str(), text.size() / 1e6);
  std::printf("games: %ld, actions: %ld, rejected: %ld\n", median.games, median.actions,
              median.rejected);
  std::printf("rounds: %d, one thread, full validation\n", rounds);
  std::printf("median: %.3f s, %.0f actions/s, %.0f games/s, %.1f MB/s\n", median.seconds,
              median.actions / median.seconds, median.games / median.seconds,
              text.size() / 1e6 / median.seconds);
  std::printf("best:   %.3f s, %.0f actions/s, %.0f games/s\n", best.seconds,
              best.actions / best.seconds, best.games / best.seconds);
  return 0;
}
