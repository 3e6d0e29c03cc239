// What 5d-index says about its runs: the messages, the summaries (as text or as JSON) and the
// exit statuses of an index run and of a merge, made from their results (index.h, merge.h), which
// print nothing themselves. indexer/main.cc writes them out; the tests that pin those texts and
// statuses make them the same way.
#ifndef FIVED_INDEXER_REPORT_H_
#define FIVED_INDEXER_REPORT_H_

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "indexer/index.h"
#include "indexer/index_summary.h"
#include "indexer/merge.h"

namespace fived {

// The exit statuses of 5d-index.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRejected = 1;  // some games rejected (recorded); verify: damaged
inline constexpr int kExitUsage = 2;     // a usage error, or a merge input refused
inline constexpr int kExitFailed = 3;    // an input could not be read or a database failed

// Rejections said one by one before the rest are only counted (all are in the database).
inline constexpr long kPrintedRejections = 20;

// What the tool writes once a run is over, and the status it exits with.
struct ToolReport {
  std::string out;  // for standard output
  std::string err;  // for standard error
  int status = kExitOk;
};

// Says what an index run tells while it runs on `err`, a line each, as it comes: inputs that
// cannot be read ("5d-index: MESSAGE") and the first kPrintedRejections rejections ("SOURCE:
// MESSAGE"), escaped for a terminal (core/utf8.h). With `progress_line`, when standard error is
// a terminal, keeps a live line there of how far the run is, cleared before each message and by
// Finish. `err` must outlive it; one thread.
class IndexMessages : public IndexReporter {
 public:
  IndexMessages(std::ostream& err, bool progress_line);

  void InputError(std::string_view message) override;
  void Rejected(std::string_view source, std::string_view message) override;
  void Progress(uint64_t bytes, uint64_t total_bytes, const IndexSummary& committed,
                const IndexSummary& uncommitted) override;
  // Clears the progress line: call when the run has returned, before its report is written.
  void Finish();

 private:
  std::ostream& err_;
  const bool progress_line_;
  long rejections_ = 0;  // said so far
  const std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_drawn_{};
};

// What 5d-index says once an index run into `database` is over: why the database could not be
// opened, or its failure and what was not stored, how many rejections were not said one by one,
// and the summary: with `json` one JSON object on standard output (its keys in a fixed order,
// new ones at the end), otherwise lines on standard error. The status is 0 when every game was
// indexed (or was already there), 1 when some were rejected, now or by an earlier run, 3 when an
// input could not be read or the database failed.
ToolReport ReportIndex(const IndexResult& result, const std::string& database, bool json);

// What 5d-index says once a merge is over: what stopped it, which inputs were merged before a
// database failed (running the same merge again completes it), and the summary (JSON on standard
// output with `json`, else a line on standard error). The status is 0 when every input was
// merged, 2 when an input was refused, 3 when a database could not be read or failed.
ToolReport ReportMerge(const MergeResult& result, const MergeOptions& options, bool json);

// Writes the report's texts to `out` and `err`; returns its status.
int Emit(const ToolReport& report, std::ostream& out, std::ostream& err);

}  // namespace fived

#endif  // FIVED_INDEXER_REPORT_H_
