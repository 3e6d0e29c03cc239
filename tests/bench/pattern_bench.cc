// bench_pattern DB [ROUNDS] [JOBS] [KIND]: times pattern searches (query/pattern_search.h) on a
// database, in process, and prints for each kind of pattern the median and slowest of ROUNDS runs
// in milliseconds, with the games found and the candidates matched. The patterns are made from the
// boards of the database's own games (fixed seed), so that they find games:
//   one piece        one square of a board kept, the rest '?' (a single-board pattern)
//   two pieces       two occupied squares of one board kept (the selective kind)
//   piece and class  a named piece and an 'A'/'a' class on another square
//   empty squares    a whole rank's squares kept, empty ones as numbers
//   whole board      every square of a board
//   two patterns     two one-piece patterns from two boards of one game
//   two rare pieces  the two pieces of an 8x8 board that fewest games of the database have on
//                    their squares (piece_counts): the selective kind of the goals, "my queen on
//                    d4 against a king on h8"
//   rare pair        the same, among the boards whose rarest pieces few games hold together:
//                    the two of their four rarest pieces fewest games have both of (as the
//                    postings say, on any boards), when fewer than 1,000 games do (so that at
//                    most 1,000 games match). What a player
//                    asks in a real archive ("my queen on d4 against a king on h8"), where such
//                    pairs are rare; random games scatter pieces so evenly that "two rare
//                    pieces" above still match several percent of the games
// Every kind is sampled from 8x8 boards only.
//   classes only     'A' and 'a' on two squares, nothing named: no piece narrows the search
//   empty board      every square empty: nothing narrows and no board matches, so every board
//                    of every 8x8 game is read (the slowest kind there is)
// Each search is timed as `5d-query --pattern P --count` answers (the matches, counted) and as
// its first page (`--limit 50`, rows read). KIND, when given, times only the kinds whose name
// contains it (for profiling one). Run by scripts/bench-query.sh.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iterator>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/board_stream.h"
#include "core/pattern.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "query/find.h"
#include "query/pattern_search.h"
#include "query/store.h"
#include "schema/pattern_index.h"

namespace {

using Clock = std::chrono::steady_clock;

// CPU time of the process (every thread), in milliseconds.
double CpuMs() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

template <typename T>
T Must(fived::Result<T> result) {
  if (!result.ok()) {
    std::fprintf(stderr, "bench_pattern: %s\n", result.error().message().c_str());
    std::exit(1);
  }
  return std::move(result).value();
}

// The squares of a board, top rank first, as pattern tokens ("K*", "p", "1" for empty).
std::vector<std::string> Tokens(const fived::Board& board) {
  std::vector<std::string> out;
  for (int rank = board.height() - 1; rank >= 0; --rank) {
    for (int file = 0; file < board.width(); ++file) {
      const fived::Piece p = board.at(file, rank);
      if (p.empty()) {
        out.push_back("1");
        continue;
      }
      std::string token(1, p.color() == fived::Color::kWhite
                               ? fived::PieceLetter(p.type())
                               : static_cast<char>(fived::PieceLetter(p.type()) | 0x20));
      if (p.unmoved() && fived::TracksUnmoved(p.type())) token += '*';
      out.push_back(token);
    }
  }
  return out;
}

// A pattern keeping the squares in `kept` (indexes into the tokens), '?' elsewhere; runs of
// empty squares kept are merged into numbers.
std::string Pattern(const std::vector<std::string>& tokens, int width,
                    const std::vector<size_t>& kept) {
  std::string out;
  int empties = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0 && i % static_cast<size_t>(width) == 0) {
      if (empties) out += std::to_string(empties);
      empties = 0;
      out += '/';
    }
    const bool keep = std::find(kept.begin(), kept.end(), i) != kept.end();
    if (keep && tokens[i] == "1") {
      ++empties;
      continue;
    }
    if (empties) out += std::to_string(empties);
    empties = 0;
    out += keep ? tokens[i] : "?";
  }
  if (empties) out += std::to_string(empties);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_pattern DB [ROUNDS] [JOBS] [KIND]\n");
    return 2;
  }
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 20;
  const int jobs = argc > 3 ? std::max(0, std::atoi(argv[3])) : 0;  // 0: every core
  const std::string only = argc > 4 ? argv[4] : "";
  fived::GameStore store = Must(fived::GameStore::Open(argv[1]));
  int64_t max_id = 0;
  {
    auto s = Must(store.db().Prepare("SELECT max(id) FROM games"));
    (void)Must(s.Step());
    max_id = s.Int64(0);
  }
  fived::PatternIndexReader patterns_index = Must(fived::PatternIndexReader::Create(store.db()));
  std::mt19937_64 rng(1);
  const char* kinds[] = {"one piece",   "two pieces",   "piece and class", "empty squares",
                         "whole board", "two patterns", "two rare pieces", "classes only",
                         "empty board", "rare pair"};
  constexpr size_t kRarePair = 9;
  constexpr size_t kFewGames = 1000;
  std::vector<std::vector<std::vector<std::string>>> samples(std::size(kinds));
  // Rare pairs are looked for among at most this many boards.
  const int boards_for_pairs = 200 * rounds;
  for (int tried = 0;
       static_cast<int>(samples[0].size()) < rounds ||
       (static_cast<int>(samples[kRarePair].size()) < rounds && tried < boards_for_pairs);) {
    const int64_t id = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_id));
    auto row = Must(store.Row(id));
    if (!row || row->actions < 4) continue;
    const fived::GameTexts texts = Must(store.Texts(id));
    auto outcome = fived::ReplayGame(fived::ParseGameSyntax(texts.text).game);
    if (!outcome.replayer) continue;
    const fived::Position& pos = outcome.replayer->position();
    std::vector<const fived::Board*> boards;
    pos.ForEachBoard([&](int, int, const fived::Board& b) { boards.push_back(&b); });
    const fived::Board& board = *boards[rng() % boards.size()];
    const std::vector<std::string> tokens = Tokens(board);
    std::vector<size_t> occupied;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (tokens[i] != "1") occupied.push_back(i);
    }
    if (occupied.size() < 2) continue;
    std::shuffle(occupied.begin(), occupied.end(), rng);
    const int width = board.width();
    if (board.width() != 8 || board.height() != 8) continue;
    // The two occupied squares whose pieces fewest games hold there.
    std::vector<std::pair<int64_t, size_t>> rarity;
    for (size_t i : occupied) {
      const int rank = 7 - static_cast<int>(i) / 8, file = static_cast<int>(i) % 8;
      const uint32_t feature =
          fived::PieceFeature(8, 8, rank * 8 + file, board.at(file, rank).bits());
      rarity.emplace_back(Must(patterns_index.GamesWith(feature)), i);
    }
    std::sort(rarity.begin(), rarity.end());
    ++tried;
    if (static_cast<int>(samples[kRarePair].size()) < rounds) {
      std::vector<std::vector<int64_t>> holding;
      const size_t rarest = std::min<size_t>(4, rarity.size());
      for (size_t k = 0; k < rarest; ++k) {
        // The games holding a piece the square's token accepts ("K": moved or not).
        const size_t i = rarity[k].second;
        const int square = (7 - static_cast<int>(i) / 8) * 8 + static_cast<int>(i) % 8;
        const auto parsed = fived::ParseBoardPattern(Pattern(tokens, width, {i}));
        const fived::PieceSet set = parsed.value().squares[square];
        std::vector<uint32_t> features;
        for (int bits = 1; bits < 64; ++bits) {
          if (set >> bits & 1) features.push_back(fived::PieceFeature(8, 8, square, bits));
        }
        holding.push_back(Must(patterns_index.GamesWithAny(features)));
      }
      size_t best = kFewGames, best_a = 0, best_b = 0;
      for (size_t a = 0; a < rarest; ++a) {
        for (size_t b = a + 1; b < rarest; ++b) {
          std::vector<int64_t> both;
          std::set_intersection(holding[a].begin(), holding[a].end(), holding[b].begin(),
                                holding[b].end(), std::back_inserter(both));
          if (both.size() < best) {
            best = both.size();
            best_a = rarity[a].second;
            best_b = rarity[b].second;
          }
        }
      }
      if (best < kFewGames)
        samples[kRarePair].push_back({Pattern(tokens, width, {best_a, best_b})});
    }
    if (static_cast<int>(samples[0].size()) >= rounds) continue;
    samples[6].push_back({Pattern(tokens, width, {rarity[0].second, rarity[1].second})});
    {
      std::vector<std::string> classed = tokens;
      for (size_t k : {occupied[0], occupied[1]}) {
        classed[k] = (tokens[k][0] >= 'A' && tokens[k][0] <= 'Z') ? "A" : "a";
      }
      samples[7].push_back({Pattern(classed, width, {occupied[0], occupied[1]})});
    }
    samples[8].push_back({"8/8/8/8/8/8/8/8"});
    samples[0].push_back({Pattern(tokens, width, {occupied[0]})});
    samples[1].push_back({Pattern(tokens, width, {occupied[0], occupied[1]})});
    {
      std::vector<std::string> classed = tokens;
      const std::string& t = tokens[occupied[1]];
      classed[occupied[1]] = (t[0] >= 'A' && t[0] <= 'Z') ? "A" : "a";
      samples[2].push_back({Pattern(classed, width, {occupied[0], occupied[1]})});
    }
    {
      std::vector<size_t> rank;
      const size_t start = occupied[0] / static_cast<size_t>(width) * static_cast<size_t>(width);
      for (int f = 0; f < width; ++f) rank.push_back(start + static_cast<size_t>(f));
      samples[3].push_back({Pattern(tokens, width, rank)});
    }
    {
      std::vector<size_t> all(tokens.size());
      for (size_t i = 0; i < all.size(); ++i) all[i] = i;
      samples[4].push_back({Pattern(tokens, width, all)});
    }
    {
      const fived::Board& other = *boards[rng() % boards.size()];
      const std::vector<std::string> other_tokens = Tokens(other);
      std::vector<size_t> other_occupied;
      for (size_t i = 0; i < other_tokens.size(); ++i) {
        if (other_tokens[i] != "1") other_occupied.push_back(i);
      }
      samples[5].push_back(
          {samples[0].back().front(),
           Pattern(other_tokens, width, {other_occupied[rng() % other_occupied.size()]})});
    }
  }
  std::printf("database %s, %lld games, %d rounds per kind\n", argv[1],
              static_cast<long long>(max_id), rounds);
  for (size_t kind = 0; kind < std::size(kinds); ++kind) {
    if (std::string(kinds[kind]).find(only) == std::string::npos) continue;
    for (bool page : {false, true}) {
      std::vector<double> ms;
      double cpu_ms = 0;
      size_t found = 0;
      int64_t candidates = 0, narrowed = 0, boards = 0;
      const int taken = static_cast<int>(samples[kind].size());
      if (taken == 0) {
        std::printf("%-16s none found among %d boards\n", kinds[kind], boards_for_pairs);
        break;
      }
      for (int i = 0; i < taken; ++i) {
        std::vector<fived::BoardPattern> patterns;
        for (const std::string& text : samples[kind][i]) {
          auto parsed = fived::ParseBoardPattern(text);
          if (!parsed.ok()) {
            std::fprintf(stderr, "bench_pattern: cannot read %s\n", text.c_str());
            return 1;
          }
          patterns.push_back(std::move(parsed).value());
        }
        const auto start = Clock::now();
        const double cpu_start = CpuMs();
        fived::PatternSearchStats stats;
        fived::FindRequest request;
        request.positions = Must(fived::FindPatterns(store, patterns, &stats, jobs));
        if (page) {
          request.limit = 50;
          Must(fived::FindGames(store, request));
        } else {
          Must(fived::CountGames(store, request));
        }
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        cpu_ms += CpuMs() - cpu_start;
        found += request.positions->size();
        candidates += stats.candidates;
        boards += stats.boards;
        narrowed += stats.narrowed;
      }
      std::sort(ms.begin(), ms.end());
      std::printf(
          "%-16s %-5s median %7.2f ms  max %7.2f ms  cpu %7.2f ms  games %7.0f  candidates "
          "%7.0f  boards %9.0f (%4.1f ns cpu each)  narrowed %d/%d\n",
          kinds[kind], page ? "page" : "count", ms[ms.size() / 2], ms.back(), cpu_ms / taken,
          static_cast<double>(found) / taken, static_cast<double>(candidates) / taken,
          static_cast<double>(boards) / taken, boards > 0 ? cpu_ms * 1e6 / boards : 0.0,
          static_cast<int>(narrowed), taken);
    }
  }
  std::printf("e.g. %s\n", samples[1][0][0].c_str());
  return 0;
}
