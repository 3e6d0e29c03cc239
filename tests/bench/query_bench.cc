// bench_query DB [ROUNDS]: times each kind of 5d-query search on a database, in process (the
// database opened once, as a long-running tool or a server would), and prints the median and the
// slowest of ROUNDS runs in milliseconds. The searched positions, boards and players are picked
// from the database itself (fixed seed), so every search finds games. Run by
// scripts/bench-query.sh on the 100,000-game benchmark collection.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "query/duplicates.h"
#include "query/find.h"
#include "query/search.h"
#include "query/stats.h"
#include "query/store.h"
#include "query/tree.h"

namespace {

using Clock = std::chrono::steady_clock;

// Runs `f` `rounds` times (each with the round number) and prints median and maximum ms.
void Time(const char* what, int rounds, const std::function<size_t(int)>& f) {
  std::vector<double> ms;
  size_t found = 0;
  for (int i = 0; i < rounds; ++i) {
    const auto start = Clock::now();
    found = f(i);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%-52s median %8.2f ms  max %8.2f ms  (%zu results, last round)\n", what,
              ms[ms.size() / 2], ms.back(), found);
}

template <typename T>
T Must(fived::Result<T> result) {
  if (!result.ok()) {
    std::fprintf(stderr, "bench_query: %s\n", result.error().message().c_str());
    std::exit(1);
  }
  return std::move(result).value();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_query DB [ROUNDS]\n");
    return 2;
  }
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 20;
  fived::GameStore store = Must(fived::GameStore::Open(argv[1]));

  // Samples: for each round a game, a state inside it and a board of its final state.
  std::mt19937_64 rng(1);
  int64_t max_id = 0;
  {
    auto s = Must(store.db().Prepare("SELECT max(id) FROM games"));
    (void)Must(s.Step());
    max_id = s.Int64(0);
  }
  struct Sample {
    uint64_t state_key;
    fived::BoardQuery board;
    fived::BoardQuery placed;
    std::string player;
  };
  std::vector<Sample> samples;
  while (static_cast<int>(samples.size()) < rounds) {
    const int64_t id = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_id));
    auto row = Must(store.Row(id));
    if (!row || row->actions < 4) continue;
    const fived::GameTexts texts = Must(store.Texts(id));
    const int target = 2 + static_cast<int>(rng() % static_cast<uint64_t>(row->actions - 2));
    uint64_t key = 0;
    auto outcome = fived::ReplayGame(fived::ParseGameSyntax(texts.text).game,
                                     [&](int action, const fived::Position& pos) {
                                       if (action == target) key = pos.StateKey();
                                     });
    if (!outcome.replayer) continue;
    const fived::Position& pos = outcome.replayer->position();
    const int l = pos.max_timeline();
    const std::string fen = pos.BoardFen(l, pos.TipHalf(l));
    auto placed = fived::ParseBoardQuery(fen);
    auto anywhere = fived::ParseBoardQuery(fen.substr(0, fen.find(':')) + "]");
    samples.push_back({key, anywhere.value(), placed.value(), row->white});
  }
  std::printf("database %s, %lld games, %d rounds per query\n", argv[1],
              static_cast<long long>(max_id), rounds);

  Time("exact position (--state/--moves), rows fetched", rounds, [&](int i) {
    fived::FindRequest request;
    request.positions = Must(fived::FindState(store, samples[i].state_key));
    return Must(fived::FindGames(store, request)).size();
  });
  Time("board anywhere (--board '[pieces]'), rows fetched", rounds, [&](int i) {
    fived::FindRequest request;
    request.positions = Must(fived::FindBoard(store, samples[i].board));
    return Must(fived::FindGames(store, request)).size();
  });
  Time("board at coordinates (--board '[pieces:L:T:c]')", rounds, [&](int i) {
    fived::FindRequest request;
    request.positions = Must(fived::FindBoard(store, samples[i].placed));
    return Must(fived::FindGames(store, request)).size();
  });
  Time("player (--player NAME --count)", rounds, [&](int i) {
    fived::FindRequest request;
    request.filter.player = samples[i].player;
    return static_cast<size_t>(Must(fived::CountGames(store, request)));
  });
  Time("player (--player NAME --limit 100), rows fetched", rounds, [&](int i) {
    fived::FindRequest request;
    request.filter.player = samples[i].player;
    request.limit = 100;
    return Must(fived::FindGames(store, request)).size();
  });
  Time("player, every game listed (--player NAME)", rounds, [&](int i) {
    fived::FindRequest request;
    request.filter.player = samples[i].player;
    return Must(fived::FindGames(store, request)).size();
  });
  Time("player pattern (--player 'random a*' --count)", rounds, [&](int) {
    fived::FindRequest request;
    request.filter.player = "random a*";
    return static_cast<size_t>(Must(fived::CountGames(store, request)));
  });

  auto start = fived::PositionFromMoves("Standard", "");
  const uint64_t start_key = start.value().StateKey();
  Time("opening tree of the Standard start (tree)", rounds, [&](int) {
    return Must(fived::BuildTree(store, start_key, fived::GameFilter(), 1)).children.size();
  });
  Time("opening tree, depth 3 (tree --depth 3)", std::max(1, rounds / 4), [&](int) {
    return Must(fived::BuildTree(store, start_key, fived::GameFilter(), 3)).children.size();
  });
  Time("duplicate report (duplicates)", std::max(1, rounds / 10),
       [&](int) { return Must(fived::FindDuplicates(store, fived::DuplicateOptions())).size(); });
  Time("statistics (stats)", std::max(1, rounds / 4), [&](int) {
    Must(fived::ComputeStats(store, fived::GameFilter(), 10));
    return size_t{1};
  });
  return 0;
}
