// What an index run counts (IndexSummary) and what it tells while it runs (IndexReporter): the
// vocabulary the writer and the index mode share, below both, so that the writer needs nothing
// of the mode that drives it (index.h).
#ifndef FIVED_INDEXER_INDEX_SUMMARY_H_
#define FIVED_INDEXER_INDEX_SUMMARY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace fived {

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
  // With tactics (5d-index --tactics, or a database made with it): the positions of the indexed
  // games searched for mates in one, those with a proven mate, of these the ones where the
  // action played mated (found) or did not (missed), and the positions left unknown.
  bool tactics = false;
  long tactic_positions = 0;
  long tactic_mates = 0;
  long tactic_found = 0;
  long tactic_missed = 0;
  long tactic_unknown = 0;
  // meta.tactics_version (schema/meta.h): below kTacticsVersion when an earlier build's search
  // found the mates in one of games indexed before this run.
  int tactics_version = 0;
  long io_errors = 0;
  double seconds = 0;
  Status database;  // the database error that stopped the run (its SQLite code in detail()); ok
                    // when none did
  // After a database error: the games read since the last commit, which are not stored, and
  // whether the run stopped before the end of its input (the rest of which is not read).
  long not_stored = 0;
  bool input_unread = false;
};

// What an index run tells while it runs, for a tool to show at once; every method is called on
// the thread that runs the index mode, and does nothing unless overridden. The texts are raw:
// they may hold any bytes of file names and input, which whoever shows them escapes.
class IndexReporter {
 public:
  virtual ~IndexReporter() = default;
  // An input that cannot be found, opened or read: `message` names it.
  virtual void InputError(std::string_view /*message*/) {}
  // A rejection this run stored (every one, in input order): `source` as SourceName names it
  // (writer.h) and `message`, why the game was rejected ("game 3, line 17, col 9: ...").
  virtual void Rejected(std::string_view /*source*/, std::string_view /*message*/) {}
  // How far the run is: `bytes` of the inputs' `total_bytes` read, and the counts committed and
  // those of the open transaction. Called after every batch of games.
  virtual void Progress(uint64_t /*bytes*/, uint64_t /*total_bytes*/,
                        const IndexSummary& /*committed*/, const IndexSummary& /*uncommitted*/) {}
};

}  // namespace fived

#endif  // FIVED_INDEXER_INDEX_SUMMARY_H_
