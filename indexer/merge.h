// 5d-index merge OUT IN...: puts databases indexed separately (on several machines, or in shards
// on one) into one, as if their inputs had been indexed together, in the order given, without
// replaying a game: game rows, headers, rejections, sources and dictionaries are copied, posting
// chunks are copied with their game ids renumbered, copies across the databases are found as the
// indexer finds them (schema/copies.h: the moves of an earlier original, compared in full, and
// players, date and result that agree) and the per-position action statistics are counted again
// over the originals of the result.
#ifndef FIVED_INDEXER_MERGE_H_
#define FIVED_INDEXER_MERGE_H_

#include <string>
#include <vector>

#include "core/status.h"

namespace fived {

struct MergeOptions {
  std::string output;               // created when missing; may hold games already (appended to)
  std::vector<std::string> inputs;  // databases of this schema and key version
};

// What a merge did, counting only what was committed: after an error, the inputs merged before it.
struct MergeSummary {
  long databases = 0;   // inputs merged
  long games = 0;       // games of the inputs merged
  long merged = 0;      // games added to the output
  long duplicates = 0;  // of the added, copies of an earlier game (across inputs too)
  long skipped = 0;     // already in the output (same source, place and text)
  long rejected = 0;    // rejections added
  Status database;      // the database error that stopped the merge; ok when none did
};

// What a merge did: its summary, and what stopped it if anything did.
struct MergeResult {
  enum class Failure {
    kNone,        // every input was merged
    kRefused,     // an input is not one to merge here (or is the output): nothing was written
    kUnreadable,  // a database could not be opened or read before anything was written
    kStopped,     // a database failed during the merge: the inputs merged before it stay
  };
  MergeSummary summary;
  Failure failure = Failure::kNone;
  std::string message;  // what failed, naming the database; empty when nothing did
};

// Runs the merge. Every input is checked first (a 5dpgn-db database of this schema and key
// version, made with the same position statistics depth and the same choice of state MD5s as
// the others and the output) and nothing is written when one is refused. The output is written
// in one transaction per input, then one that counts the opening statistics again. When a
// database fails, the inputs merged before stay (summary.databases counts them) and running the
// same merge again completes it (the games already there are skipped). Prints nothing
// (indexer/report.h says the result as 5d-index does).
MergeResult RunMerge(const MergeOptions& options);

}  // namespace fived

#endif  // FIVED_INDEXER_MERGE_H_
