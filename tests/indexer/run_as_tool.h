// The index mode and the merge as 5d-index runs them (indexer/main.cc), for the indexer tests
// that pin what the tool says: the library's result said by indexer/report.h, its messages and
// summary written to the streams given, and the tool's exit status returned.
#ifndef FIVED_TESTS_INDEXER_RUN_AS_TOOL_H_
#define FIVED_TESTS_INDEXER_RUN_AS_TOOL_H_

#include <ostream>

#include "indexer/index.h"
#include "indexer/merge.h"
#include "indexer/report.h"

namespace fived::testing {

// Runs the index mode without a progress line; its summary goes to *summary when given, and as
// JSON to `out` with `json`.
inline int IndexAsTool(const IndexOptions& options, std::ostream& out, std::ostream& err,
                       IndexSummary* summary = nullptr, bool json = false) {
  IndexMessages messages(err, /*progress_line=*/false);
  const IndexResult result = RunIndex(options, &messages);
  if (summary != nullptr) *summary = result.summary;
  return Emit(ReportIndex(result, options.database, json), out, err);
}

// Runs a merge; its summary goes to *summary when given.
inline int MergeAsTool(const MergeOptions& options, std::ostream& out, std::ostream& err,
                       MergeSummary* summary = nullptr) {
  const MergeResult result = RunMerge(options);
  if (summary != nullptr) *summary = result.summary;
  return Emit(ReportMerge(result, options, /*json=*/false), out, err);
}

}  // namespace fived::testing

#endif  // FIVED_TESTS_INDEXER_RUN_AS_TOOL_H_
