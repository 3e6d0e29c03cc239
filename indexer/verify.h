// 5d-index verify: whether a database file is sound. SQLite's own checks (PRAGMA integrity_check
// and foreign_key_check) and the database's invariants: every game's row matches its checksum
// (schema/game_check.h) and its record decompresses; replaying the record's text gives the row's
// keys and the game's headers, state postings (and state MD5s), board keys, board stream and piece
// features; piece_counts and position_actions agree with a recount from the records; the meta
// settings are known values. The report names the games concerned.
#ifndef FIVED_INDEXER_VERIFY_H_
#define FIVED_INDEXER_VERIFY_H_

#include <cstdint>
#include <string>
#include <vector>

namespace fived {

struct VerifyReport {
  enum class Verdict {
    kSound,       // nothing wrong was found
    kDamaged,     // `problems` says what is wrong
    kUnreadable,  // the file cannot be read as a 5dpgn-db database of this version: `error`
  };
  Verdict verdict = Verdict::kSound;
  std::string error;  // why the file is unreadable, naming it ("games.db: ...")
  // One line per thing wrong, without the file name: "game 812: record damaged",
  // "integrity_check: ...", "position_actions: ...". At most kMaxProblems of them;
  // `more_problems` counts the rest.
  std::vector<std::string> problems;
  long more_problems = 0;
  // The games found damaged (their row, record, postings or pattern index), sorted.
  std::vector<int64_t> damaged_games;
  long games = 0;     // rows of games read
  long rejected = 0;  // rows of rejected
};

inline constexpr size_t kMaxProblems = 1000;

// Verifies the database at `path`, opened read-only (a writer may append meanwhile: the check
// reads one snapshot). Replays every game, so it takes about as long as indexing without
// endings. Never throws; thread-compatible.
VerifyReport VerifyDatabase(const std::string& path);

}  // namespace fived

#endif  // FIVED_INDEXER_VERIFY_H_
