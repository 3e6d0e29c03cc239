// The index mode of 5d-index: reads collections through the parallel pipeline and stores every
// game (or its rejection) in an SQLite database of schema/.
#ifndef FIVED_INDEXER_INDEX_H_
#define FIVED_INDEXER_INDEX_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "schema/db.h"

namespace fived {

// The database file used when --db is not given, in the current directory (shared with 5d-query).
inline constexpr const char* kDefaultDatabase = kDefaultDatabaseFile;

struct IndexOptions {
  std::string database = kDefaultDatabase;
  std::vector<std::string> inputs;  // files, directories, "-"
  int jobs = 0;                     // worker threads; 0 = one per core
  bool progress = true;             // a live line on stderr when it is a terminal
  bool json = false;                // the summary as one JSON object on stdout
  long commit_every = 0;            // commit at least every N games (0: by size only)
  // Moves tried when deciding each game's final position (AnalyzeOptions); 0 decides nothing
  // (--skip-endings: the endings are stored undecided). Lower than --check's default: the
  // benchmark collection's figures are in docs/BENCHMARKS.md.
  uint64_t verdict_budget = 20000;
  // Index the MD5 of every state (md5_postings), not only the final one. Only a database without
  // games can take it up (meta.state_md5 becomes 'all'); a database that has it keeps it, with
  // or without this option.
  bool all_state_md5 = false;
};

// What a run did. The games read are counted as they are read, what became of them once it is
// committed: after a database error the summary counts what the database holds, and
// games = indexed + rejected + skipped + not_stored.
struct IndexSummary {
  long files = 0;
  long games = 0;            // games read (with those of unchanged files, which are not read)
  long indexed = 0;          // new games stored
  long rejected = 0;         // new rejections stored
  long duplicates = 0;       // of the indexed games, copies of an earlier one (schema/copies.h)
  long skipped = 0;          // games (or rejections) already in the database ("already indexed"),
                             // those of unchanged files included
  long rejected_before = 0;  // of the skipped, those recorded as rejected by an earlier run
  long warnings = 0;
  long unchanged_files = 0;  // files skipped: the same as when last read completely
  long members_passed = 0;   // archive members that are not game files (by their names)
  // The endings of the indexed games (their final positions' verdicts), and of those the games
  // whose verdict contradicts their result (schema/ending.h).
  long checkmates = 0;
  long stalemates = 0;
  long playable = 0;
  long unknown = 0;
  long undecided = 0;  // indexed with --skip-endings
  long result_conflicts = 0;
  long io_errors = 0;
  double seconds = 0;
  bool database_failed = false;
  std::string database_error;
  // After a database error: the games read since the last commit, which are not stored, and
  // whether the run stopped before the end of its input (the rest of which is not read).
  long not_stored = 0;
  bool input_unread = false;
};

// Runs the index mode. Messages (rejections, errors, the summary) go to `err`, or with `json`
// the summary goes to `out`; they quote file names and input escaped (core/utf8.h).
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
// the summary counts only that, and a message says how many games are not stored and whether the
// rest of the input was read. Running the same command again adds what is not stored.
//
// Returns the exit status: 0 every game indexed (or already there), 1 some games rejected, now or
// by an earlier run (they are recorded), 3 an input could not be read or the database failed.
int RunIndex(const IndexOptions& options, std::ostream& out, std::ostream& err,
             IndexSummary* summary = nullptr);

}  // namespace fived

#endif  // FIVED_INDEXER_INDEX_H_
