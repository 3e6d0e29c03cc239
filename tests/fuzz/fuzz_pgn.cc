// libFuzzer harness: the 5dpgn reader with replay. The input is cut into games as 5d-index cuts a
// file, and each game goes through everything the indexer does with it (parse, replay, canonical
// movetext, keys, every state's MD5, the ending's decision and every position's mates in one
// with small budgets), with the analyzer's own cross-checks. Any crash, sanitizer report or
// failed assert is a finding.
// Build and run: make fuzz (docs/FUZZING.md).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "core/game_splitter.h"
#include "indexer/analyze.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  fived::GameSplitter splitter(in);
  fived::AnalyzeOptions options;
  options.verdict_budget = 200;  // the decision's search is fuzzed, not its patience
  options.opening_actions = 3;
  options.all_state_md5 = true;
  options.tactics_budget = 10;
  int games = 0;
  while (std::optional<fived::RawGame> raw = splitter.Next()) {
    // The tactics pass searches every position: on the first game alone, so that a run stays short.
    options.tactics = games == 0;
    fived::GameRecord record = fived::AnalyzeGame(std::move(*raw), options);
    // What the writer relies on.
    if (!record.rejected) {
      if (record.states.size() != static_cast<size_t>(record.actions) + 1) __builtin_trap();
      if (record.state_md5s.size() != record.states.size()) __builtin_trap();
      if (record.final_md5.size() != 32) __builtin_trap();
      if (options.tactics && record.tactics_positions != static_cast<long>(record.states.size())) {
        __builtin_trap();
      }
    }
    if (++games == 64) break;
  }
  return 0;
}
