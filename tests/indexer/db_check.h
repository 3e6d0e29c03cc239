// Checks on a 5dpgn-db database shared by the indexer tests: soundness, and that every game is
// whole (its states are all posted, its boards all in the pattern index).
#ifndef FIVED_TESTS_INDEXER_DB_CHECK_H_
#define FIVED_TESTS_INDEXER_DB_CHECK_H_

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "core/board_stream.h"
#include "schema/db.h"
#include "schema/pattern_index.h"
#include "schema/postings.h"
#include "schema/record.h"

namespace fived::testing {

// The rows of `sql` on the database at `db_path` (opened read-only), one line each, every column
// followed by '|'.
inline std::string Rows(const std::string& db_path, const std::string& sql) {
  Result<Database> db = OpenDatabase(db_path, OpenMode::kReadOnly);
  EXPECT_TRUE(db.ok());
  if (!db.ok()) return {};
  Result<Statement> statement = db.value().Prepare(sql);
  EXPECT_TRUE(statement.ok()) << sql;
  if (!statement.ok()) return {};
  std::string out;
  while (statement.value().Step().value() == StepResult::kRow) {
    for (int c = 0; c < statement.value().ColumnCount(); ++c) {
      out += std::string(statement.value().Text(c)) + "|";
    }
    out += "\n";
  }
  return out;
}

struct PostingSummary {
  std::map<int64_t, int> states_per_game;
  std::set<int64_t> games_with_starting_boards;
  long states = 0;
  long boards = 0;
  uint64_t key_sum = 0;  // sum of all posted keys and games, order-free
};

inline PostingSummary Summarize(Database& db) {
  PostingSummary summary;
  Result<PostingReader> states = PostingReader::Create(db, PostingTable::kStates);
  EXPECT_TRUE(states.ok());
  if (!states.ok()) return summary;
  EXPECT_TRUE(states.value()
                  .ForEach([&](const Posting& p) {
                    ++summary.states_per_game[p.game_id];
                    ++summary.states;
                    summary.key_sum += p.key * 3 + static_cast<uint64_t>(p.game_id) * 7 + p.value;
                    return true;
                  })
                  .ok());
  // Boards: every game's board stream in the pattern index, read whole.
  Result<PatternIndexReader> patterns = PatternIndexReader::Create(db);
  EXPECT_TRUE(patterns.ok());
  if (!patterns.ok()) return summary;
  BoardStreamReader reader;
  EXPECT_TRUE(patterns.value()
                  .ForEachStream([&](int64_t game_id, std::string_view stream) {
                    bool starting = false;
                    if (reader.Start(stream, /*keep_squares=*/true)) {
                      const bool read = reader.Read([&](const BoardStreamReader::Entry& entry) {
                        starting = starting || entry.action == 0;
                        ++summary.boards;
                        return true;
                      });
                      if (!read) starting = false;
                    }
                    if (starting) summary.games_with_starting_boards.insert(game_id);
                    summary.key_sum += std::hash<std::string_view>()(stream) * 5 +
                                       static_cast<uint64_t>(game_id) * 11;
                    return true;
                  })
                  .ok());
  return summary;
}

// The database passes PRAGMA integrity_check and every game has actions + 1 state postings and
// its starting boards.
inline void ExpectSoundAndWhole(const std::string& path) {
  Result<Database> opened = OpenDatabase(path, OpenMode::kReadOnly);
  ASSERT_TRUE(opened.ok()) << opened.error().message();
  Database& db = opened.value();
  Result<std::string> check = db.IntegrityCheck();
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(check.value(), "ok");
  const PostingSummary summary = Summarize(db);
  Result<Statement> games = db.Prepare("SELECT id, actions FROM games");
  ASSERT_TRUE(games.ok());
  long count = 0, broken = 0;
  while (games.value().Step().value() == StepResult::kRow) {
    const int64_t id = games.value().Int64(0);
    const int actions = static_cast<int>(games.value().Int64(1));
    auto it = summary.states_per_game.find(id);
    const int states = it == summary.states_per_game.end() ? 0 : it->second;
    if (states != actions + 1 || !summary.games_with_starting_boards.count(id)) ++broken;
    ++count;
  }
  EXPECT_EQ(broken, 0) << "of " << count << " games";
  EXPECT_EQ(static_cast<long>(summary.states_per_game.size()), count) << "postings of no game";
}

// The original text and canonical moves of game `id`, read back from its compressed record.
inline bool GameTexts(const std::string& path, int64_t id, std::string* text, std::string* moves) {
  Result<Database> opened = OpenDatabase(path, OpenMode::kReadOnly);
  if (!opened.ok()) return false;
  Result<Statement> select = opened.value().Prepare(
      "SELECT g.record, d.data FROM games g LEFT JOIN dictionaries d ON d.id = g.dictionary_id "
      "WHERE g.id = ?1");
  if (!select.ok()) return false;
  select.value().Bind(1, id);
  Result<StepResult> step = select.value().Step();
  if (!step.ok() || step.value() != StepResult::kRow) return false;
  const std::span<const uint8_t> dictionary = select.value().Blob(1);
  RecordCodec codec(
      std::string_view(reinterpret_cast<const char*>(dictionary.data()), dictionary.size()));
  return codec.Decompress(select.value().Blob(0), text, moves);
}

}  // namespace fived::testing

#endif  // FIVED_TESTS_INDEXER_DB_CHECK_H_
