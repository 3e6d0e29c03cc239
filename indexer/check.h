// The check mode of 5d-index: read collections, replay and validate every game, report.
#ifndef FIVED_INDEXER_CHECK_H_
#define FIVED_INDEXER_CHECK_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace fived {

struct CheckOptions {
  enum class Output { kSummary, kHashes, kFen, kVerdict, kCountActions, kListActions };
  Output output = Output::kSummary;
  // kVerdict: moves tried (core/decide.h Decide) before a game's final position is called
  // unknown; also bounds each count of kCountActions.
  uint64_t verdict_budget = 1000000;
  // kCountActions, kListActions: counts stop here and are written ">=N".
  uint64_t count_cap = 100000;
  // kListActions: the position after this action (0 the start); -1 the final position.
  // kCountActions: only the position after this action; -1 every position.
  int at_action = -1;
};

struct CheckSummary {
  long games = 0;
  long replayed = 0;
  long rejected = 0;
  long warnings = 0;
  long unreadable_files = 0;
};

// Checks every game of every file ("-" is standard input). Per-game lines (hashes, FENs,
// verdicts of the final position, legal action counts after every action, the legal actions of
// one position) go to
// `out`; rejections and the summary go to `out` in summary mode and to `err` otherwise, so that
// `out` stays machine-readable. File names and messages, which quote the input, are written
// escaped (core/utf8.h: controls and invalid UTF-8 as \xNN), so that a line never holds a raw
// tab, line break or terminal control. Never throws on bad input.
CheckSummary CheckFiles(const std::vector<std::string>& paths, const CheckOptions& options,
                        std::ostream& out, std::ostream& err);

}  // namespace fived

#endif  // FIVED_INDEXER_CHECK_H_
