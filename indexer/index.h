// The index mode of 5d-index: reads collections through the parallel pipeline and stores every
// game (or its rejection) in an SQLite database of schema/.
#ifndef FIVED_INDEXER_INDEX_H_
#define FIVED_INDEXER_INDEX_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "indexer/index_summary.h"
#include "schema/db.h"

namespace fived {

// The database file used when --db is not given, in the current directory (shared with 5d-query).
inline constexpr const char* kDefaultDatabase = kDefaultDatabaseFile;

struct IndexOptions {
  std::string database = kDefaultDatabase;
  std::vector<std::string> inputs;  // files, directories, "-"
  int jobs = 0;                     // worker threads; 0 = one per core
  long commit_every = 0;            // commit at least every N games (0: by size only)
  // Moves tried when deciding each game's final position (AnalyzeOptions); 0 decides nothing
  // (--skip-endings: the endings are stored undecided). Lower than --check's default: the
  // benchmark collection's figures are in docs/BENCHMARKS.md.
  uint64_t verdict_budget = 20000;
  // Index the MD5 of every state (md5_postings), not only the final one. Only a database without
  // games can take it up (meta.state_md5 becomes 'all'); a database that has it keeps it, with
  // or without this option.
  bool all_state_md5 = false;
  // Search every position of every game for mates in one (indexer/tactics.h) and store them in
  // the tactics table. Only a database without games can take it up (meta.tactics becomes
  // 'on'); a database that has it keeps it, with or without this option.
  bool tactics = false;
  // Moves tried per position by the legal search and by each decision after a checking action;
  // a position it cannot settle is stored as unknown and claims nothing.
  uint64_t tactics_budget = 2000;
};

// What a run did: its summary, or why it could not open the database.
struct IndexResult {
  IndexSummary summary;
  // Failed when the database could not be opened or prepared (the message names it; kDatabase
  // with SQLite's code, or kInvalidArgument when it refuses a setting asked for): nothing was
  // read into it, and the summary counts only the inputs found.
  Status open_status;
};

// Runs the index mode. Prints nothing: what it meets on the way (inputs that cannot be read,
// rejections, progress) goes to `reporter` when given, as it happens, and what it did is the
// result (indexer/report.h says it as 5d-index does).
//
// A game already in the database is skipped: from a file, when the file's source row holds the
// same text at the same offset; from standard input ("-"), also when the database held a game
// (or, for a rejected game, a rejection) with exactly the same text from any source before this
// run. Games stored by this run never count, so a stream holding a game twice stores both.
//
// When no input can be opened, the database is not opened (nor created). When this run created
// the database and every input failed while it was read, the files it created are removed.
//
// When the database fails during the run (a full disk, say), what was committed before stays:
// the summary counts only that (database, not_stored, input_unread).
// Running the same command again adds what is not stored.
IndexResult RunIndex(const IndexOptions& options, IndexReporter* reporter = nullptr);

}  // namespace fived

#endif  // FIVED_INDEXER_INDEX_H_
