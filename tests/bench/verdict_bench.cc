// Times Decide (core/decide.h) on the final position of every game of a 5dpgn collection, one
// thread: how long a position takes to decide (in the thread's CPU time, so that other jobs on
// the machine change the figures little), separately for proven endings (checkmate and
// stalemate) and playable positions, the unknown verdicts, and the slowest positions. Prints
// figures; asserts nothing.
// Usage: bench_verdict [--budget N] [--slowest K] [--save-unknown OUT] FILE...   (budget in moves
// tried, default 1,000,000; the slowest 10 positions by default; OUT receives the games whose
// verdict is unknown, to study them)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/decide.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "tests/bench/bench_games.h"

namespace {

struct Timed {
  double ms = 0;
  std::string where;
  fived::Decision::Verdict verdict = fived::Decision::Verdict::kUnknown;
  fived::Decision::Step step = fived::Decision::Step::kSearch;
  uint64_t work = 0;
};

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t i = std::min(values.size() - 1, static_cast<size_t>(p * (values.size() - 1) + 0.5));
  return values[i];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fived;
  using bench::ThreadCpuMs;
  uint64_t budget = 1000000;
  size_t slowest = 10;
  std::vector<std::string> files;
  std::string save_unknown;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--save-unknown" && i + 1 < argc) {
      save_unknown = argv[++i];
    } else if ((arg == "--budget" || arg == "--slowest") && i + 1 < argc) {
      (arg == "--budget" ? budget : slowest) = std::strtoull(argv[++i], nullptr, 10);
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr,
                 "usage: bench_verdict [--budget N] [--slowest K] [--save-unknown OUT] FILE...\n");
    return 2;
  }
  std::vector<Timed> timed;
  std::ofstream unknown_out;
  if (!save_unknown.empty()) unknown_out.open(save_unknown, std::ios::binary);
  bench::GamesRead read;
  const bool all_read = bench::ForEachReplayedGame(
      files, &read, [&](const std::string& file, const RawGame& game, Replayer& replayer) {
        const RawGame* raw = &game;
        // Decided in place, as the indexer does (indexer/verdict.h).
        Position& pos = *replayer.mutable_position();
        SearchLimits limits;
        limits.promotions = PromotionChoices(replayer.setup(), pos);
        limits.budget = budget;
        const double start = ThreadCpuMs();
        const Decision decision = Decide(&pos, limits);
        Timed t;
        t.ms = ThreadCpuMs() - start;
        t.where = files.size() > 1 ? file + " game " + std::to_string(raw->index)
                                   : "game " + std::to_string(raw->index);
        t.verdict = decision.verdict;
        t.step = decision.step;
        t.work = decision.work;
        if (unknown_out.is_open() && decision.verdict == Decision::Verdict::kUnknown) {
          unknown_out << raw->text << "\n\n";
        }
        timed.push_back(t);
      });
  if (!all_read) return 3;
  const double replay_ms = read.replay_ms;
  const int rejected = read.rejected;
  std::vector<double> endings, playable, unknown;
  uint64_t work[3] = {0, 0, 0};  // moves tried: mates, playable, unknown
  double total = 0;
  for (const Timed& t : timed) {
    total += t.ms;
    switch (t.verdict) {
      case Decision::Verdict::kCheckmate:
      case Decision::Verdict::kStalemate:
        endings.push_back(t.ms);
        work[0] += t.work;
        break;
      case Decision::Verdict::kPlayable:
        playable.push_back(t.ms);
        work[1] += t.work;
        break;
      case Decision::Verdict::kUnknown:
        unknown.push_back(t.ms);
        work[2] += t.work;
        break;
    }
  }
  std::printf("%zu files: %zu positions decided (%d games not replayed), budget %llu moves\n",
              files.size(), timed.size(), rejected, static_cast<unsigned long long>(budget));
  std::printf("replay %.0f ms, decide %.0f ms (%.1f%% of replay)\n", replay_ms, total,
              replay_ms > 0 ? 100 * total / replay_ms : 0.0);
  auto line = [](const char* name, const std::vector<double>& ms, uint64_t moves) {
    double sum = 0;
    for (double v : ms) sum += v;
    std::printf(
        "%-10s %7zu  median %8.3f ms  p99 %9.3f ms  max %9.3f ms  total %9.0f ms  %11llu moves\n",
        name, ms.size(), Percentile(ms, 0.5), Percentile(ms, 0.99),
        ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()), sum,
        static_cast<unsigned long long>(moves));
  };
  line("mates", endings, work[0]);
  line("playable", playable, work[1]);
  line("unknown", unknown, work[2]);
  // Which step of Decide settled how many positions (core/decide.h), and in how much time.
  const char* const kSteps[] = {"quick try", "local proof", "search"};
  for (int step = 0; step < 3; ++step) {
    size_t count[2] = {0, 0};  // without an action, playable
    double ms = 0;
    for (const Timed& t : timed) {
      if (static_cast<int>(t.step) != step || t.verdict == Decision::Verdict::kUnknown) continue;
      ++count[t.verdict == Decision::Verdict::kPlayable];
      ms += t.ms;
    }
    std::printf("%-12s %7zu playable %7zu without an action  total %9.0f ms\n", kSteps[step],
                count[1], count[0], ms);
  }
  std::sort(timed.begin(), timed.end(), [](const Timed& a, const Timed& b) { return a.ms > b.ms; });
  std::printf("slowest:\n");
  for (size_t i = 0; i < std::min(slowest, timed.size()); ++i) {
    std::printf("  %-9s %10.3f ms %9llu moves tried  %s\n", VerdictName(timed[i].verdict),
                timed[i].ms, static_cast<unsigned long long>(timed[i].work),
                timed[i].where.c_str());
  }
  return 0;
}
