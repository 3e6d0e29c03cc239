// bench_stream DB [ROUNDS] [GAMES]: the cost of reading board streams (core/board_stream.h) and
// matching patterns on them (core/game_query.h MatchGame), in memory and on one thread, without
// SQLite: the first GAMES games' streams (default 100,000) are loaded once, then each round reads
// every board of every game (BoardStreamReader::Read alone), and matches the empty 8x8 board
// (which no board matches, so every board is read: a full scan's worst case) and a one-piece
// pattern. Prints the median nanoseconds per board of each, for before/after comparisons of the
// hot path a full scan spends its time in.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/board_stream.h"
#include "core/game_query.h"
#include "core/pattern.h"
#include "query/store.h"
#include "schema/pattern_index.h"

namespace {

using Clock = std::chrono::steady_clock;

template <typename T>
T Must(fived::Result<T> result) {
  if (!result.ok()) {
    std::fprintf(stderr, "bench_stream: %s\n", result.error().message().c_str());
    std::exit(1);
  }
  return std::move(result).value();
}

fived::GameQuery Query(const char* text) {
  auto parsed = fived::ParseBoardPattern(text);
  if (!parsed.ok()) {
    std::fprintf(stderr, "bench_stream: cannot read %s\n", text);
    std::exit(1);
  }
  fived::GameQuery query;
  query.boards.push_back(std::move(parsed).value());
  return query;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_stream DB [ROUNDS] [GAMES]\n");
    return 2;
  }
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 7;
  const size_t limit = argc > 3 ? static_cast<size_t>(std::atoll(argv[3])) : 100000;
  fived::GameStore store = Must(fived::GameStore::Open(argv[1]));
  fived::PatternIndexReader index = Must(fived::PatternIndexReader::Create(store.db()));
  std::vector<std::string> streams;
  if (fived::Status error = index.ForEachStream([&](int64_t, std::string_view stream) {
        streams.emplace_back(stream);
        return streams.size() < limit;
      });
      !error.ok()) {
    std::fprintf(stderr, "bench_stream: %s\n", error.message().c_str());
    return 1;
  }
  fived::BoardStreamReader reader;
  int64_t boards = 0;
  for (const std::string& stream : streams) {
    if (!reader.Start(stream)) continue;
    reader.Read([&](const fived::BoardStreamReader::Entry&) { return ++boards > 0; });
  }
  std::printf("%zu games, %lld boards, %d rounds\n", streams.size(), static_cast<long long>(boards),
              rounds);

  const fived::GameQuery empty = Query("8/8/8/8/8/8/8/8");
  // A white king on d5: few boards hold it, so nearly every board is read, the misses counted
  // change by change.
  const fived::GameQuery rare =
      Query(R"(????????/????????/????????/???K????/????????/????????/????????/????????)");
  struct Kind {
    const char* name;
    const fived::GameQuery* query;  // null: Next alone
  } kinds[] = {{"Read alone", nullptr}, {"empty board", &empty}, {"rare piece", &rare}};
  for (const Kind& kind : kinds) {
    std::vector<double> ns;
    int64_t read = 0, matched = 0;
    for (int r = 0; r < rounds; ++r) {
      read = 0;
      matched = 0;
      fived::GameMatch match;
      const auto start = Clock::now();
      for (const std::string& stream : streams) {
        if (kind.query == nullptr) {
          if (!reader.Start(stream)) continue;
          reader.Read([&](const fived::BoardStreamReader::Entry&) { return ++read > 0; });
        } else {
          fived::MatchGame(*kind.query, stream, reader, &match);
          read += reader.boards_read();
          matched += match.action >= 0;
        }
      }
      ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - start).count() /
                   static_cast<double>(std::max<int64_t>(read, 1)));
    }
    std::sort(ns.begin(), ns.end());
    std::printf(
        "%-12s median %6.2f ns a board  best %6.2f  (%lld boards read, %lld games matched)\n",
        kind.name, ns[ns.size() / 2], ns.front(), static_cast<long long>(read),
        static_cast<long long>(matched));
  }
  return 0;
}
