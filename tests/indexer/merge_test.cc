// 5d-index merge (indexer/merge.h): databases indexed apart, merged, hold what one database
// indexed from all their inputs in the same order holds: the same games under the same ids, the
// same copies (across the inputs too), headers, rejections, postings and position statistics.
#include "indexer/merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "indexer/index.h"
#include "schema/db.h"
#include "schema/game_columns.h"
#include "schema/pattern_index.h"
#include "schema/postings.h"
#include "tests/indexer/db_check.h"
#include "tests/indexer/fault_vfs.h"
#include "tests/indexer/run_as_tool.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::Rows;
using ::fived::testing::TempDir;

const std::string kCorpus = std::string(FIVED_SOURCE_DIR) + "/corpus/";

int Index(const std::string& db, const std::vector<std::string>& inputs,
          bool all_state_md5 = false) {
  IndexOptions options;
  options.database = db;
  options.inputs = inputs;
  options.jobs = 2;
  options.all_state_md5 = all_state_md5;
  std::ostringstream out, err;
  return testing::IndexAsTool(options, out, err);
}

int Merge(const std::string& output, const std::vector<std::string>& inputs,
          std::string* messages = nullptr, MergeSummary* summary = nullptr) {
  MergeOptions options;
  options.output = output;
  options.inputs = inputs;
  std::ostringstream out, err;
  const int status = testing::MergeAsTool(options, out, err, summary);
  if (messages) *messages = err.str();
  return status;
}

// Every posting of a table, by key, game and value, one line each.
std::string Postings(const std::string& db_path, PostingTable table) {
  Result<Database> db = OpenDatabase(db_path, OpenMode::kReadOnly);
  EXPECT_TRUE(db.ok());
  Result<PostingReader> reader = PostingReader::Create(db.value(), table);
  EXPECT_TRUE(reader.ok());
  std::vector<Posting> all;
  EXPECT_TRUE(reader.value()
                  .ForEach([&](const Posting& p) {
                    all.push_back(p);
                    return true;
                  })
                  .ok());
  std::sort(all.begin(), all.end(), [](const Posting& a, const Posting& b) {
    return std::tie(a.key, a.game_id, a.value) < std::tie(b.key, b.game_id, b.value);
  });
  std::string out;
  for (const Posting& p : all) {
    out += std::to_string(p.key) + " " + std::to_string(p.game_id) + " " + std::to_string(p.value) +
           "\n";
  }
  return out;
}

// The pattern index as text: each game's board stream (by id), each feature's count and games.
std::string PatternIndex(const std::string& db_path) {
  Result<Database> db = OpenDatabase(db_path, OpenMode::kReadOnly);
  EXPECT_TRUE(db.ok());
  Result<PatternIndexReader> reader = PatternIndexReader::Create(db.value());
  EXPECT_TRUE(reader.ok());
  std::string out;
  EXPECT_TRUE(reader.value()
                  .ForEachStream([&](int64_t id, std::string_view stream) {
                    out += std::to_string(id) + " " +
                           std::to_string(std::hash<std::string_view>()(stream)) + "\n";
                    return true;
                  })
                  .ok());
  Result<Statement> counts =
      db.value().Prepare("SELECT feature, games FROM piece_counts ORDER BY feature");
  EXPECT_TRUE(counts.ok());
  while (counts.value().Step().value() == StepResult::kRow) {
    const uint32_t feature = static_cast<uint32_t>(counts.value().Int64(0));
    out += "feature " + std::to_string(feature) + ": " + std::to_string(counts.value().Int64(1)) +
           " games:";
    Result<std::vector<int64_t>> games = reader.value().GamesWithAny(std::span(&feature, 1));
    EXPECT_TRUE(games.ok());
    for (int64_t id : games.value()) out += " " + std::to_string(id);
    out += "\n";
  }
  return out;
}

void ExpectSameDatabases(const std::string& together, const std::string& merged) {
  for (const char* sql :
       {"SELECT g.id, s.path, s.member, g.byte_offset, g.game_index, g.text_hash, g.variant, "
        "g.white, g.black, g.result, g.date, g.actions, g.timelines, g.final_md5, g.start_key, "
        "g.final_key, g.identity, g.duplicate_of, g.verdict, g.checked_side, g.witness, "
        "g.result_conflict, g.white_key, g.date_min FROM games g JOIN sources s ON s.id = "
        "g.source_id ORDER BY g.id",
        "SELECT name, value, game_id, position FROM headers ORDER BY game_id, position",
        "SELECT s.path, r.byte_offset, r.line, r.col, r.token, r.message, r.text FROM rejected r "
        "JOIN sources s ON s.id = r.source_id ORDER BY r.id",
        "SELECT state_key, action, text, games, white_wins, draws, black_wins, derived, "
        "first_day, last_day FROM position_actions ORDER BY state_key, action",
        "SELECT path, member, size, content_hash, resume_offset FROM sources ORDER BY path, "
        "member"}) {
    EXPECT_EQ(Rows(together, sql), Rows(merged, sql)) << sql;
  }
  for (PostingTable table :
       {PostingTable::kStates, PostingTable::kBoardKeys, PostingTable::kStateMd5s}) {
    EXPECT_EQ(Postings(together, table), Postings(merged, table)) << PostingTableName(table);
  }
  EXPECT_EQ(PatternIndex(together), PatternIndex(merged));
}

TEST(MergeTest, ShardsMergedHoldWhatOneIndexingOfTheirInputsHolds) {
  TempDir dir;
  const std::string a = kCorpus + "adri326-5dchess-notation.5dpgn";
  const std::string club = kCorpus + "club-games.5dpgn";
  const std::string rejected = kCorpus + "rejected/teln0-vs-shad-simple-no-queens.5dpgn";
  // The club games repeat games of the first file: copies across the shards.
  ASSERT_EQ(Index(dir.File("a.sqlite"), {a, rejected}), 1);
  ASSERT_EQ(Index(dir.File("b.sqlite"), {club}), 0);
  ASSERT_EQ(Index(dir.File("together.sqlite"), {a, rejected, club}), 1);
  std::string messages;
  ASSERT_EQ(
      Merge(dir.File("merged.sqlite"), {dir.File("a.sqlite"), dir.File("b.sqlite")}, &messages), 0)
      << messages;
  ExpectSameDatabases(dir.File("together.sqlite"), dir.File("merged.sqlite"));
  EXPECT_GT(std::stoi(Rows(dir.File("merged.sqlite"),
                           "SELECT count(*) FROM games WHERE duplicate_of IS NOT NULL")),
            0);
  // Merging a shard again adds nothing: its games are there, from the same files.
  ASSERT_EQ(Merge(dir.File("merged.sqlite"), {dir.File("b.sqlite")}, &messages), 0);
  EXPECT_NE(messages.find(" 0 merged, 0 copies, 8 already there"), std::string::npos) << messages;
  ExpectSameDatabases(dir.File("together.sqlite"), dir.File("merged.sqlite"));
}

// Every column of games, as schema.sql makes it, is one a merge copies: a value of the game, of
// the type schema/game_columns.h gives it, or an id that the merge renumbers. A column added to
// the schema and not to game_columns.h fails here instead of being left out of every merge; and
// every value of every game reaches the output as it was.
TEST(MergeTest, EveryColumnOfGamesIsCopied) {
  TempDir dir;
  const std::string input = dir.File("a.sqlite");
  const std::string output = dir.File("merged.sqlite");
  ASSERT_EQ(Index(input, {kCorpus + "club-games.5dpgn"}), 0);
  std::string messages;
  ASSERT_EQ(Merge(output, {input}, &messages), 0) << messages;

  Result<Database> db = OpenDatabase(input, OpenMode::kReadOnly);
  ASSERT_TRUE(db.ok());
  Result<Statement> columns =
      db.value().Prepare("SELECT name, type FROM pragma_table_info('games') ORDER BY cid");
  ASSERT_TRUE(columns.ok());
  size_t values = 0;
  while (columns.value().Step().value() == StepResult::kRow) {
    const std::string name(columns.value().Text(0));
    const std::string type(columns.value().Text(1));
    if (std::find(kGameReferenceColumns.begin(), kGameReferenceColumns.end(), name) !=
        kGameReferenceColumns.end()) {
      continue;
    }
    const size_t k = GameValueColumn(name);
    ASSERT_LT(k, kGameValueColumns.size())
        << "games." << name << " is not copied by 5d-index merge (schema/game_columns.h)";
    const ColumnType described = kGameValueColumns[k].type;
    EXPECT_EQ(type, described == ColumnType::kInteger ? "INTEGER"
                    : described == ColumnType::kText  ? "TEXT"
                                                      : "BLOB")
        << "games." << name;
    ++values;
    const std::string sql = "SELECT quote(" + name + ") FROM games ORDER BY id";
    EXPECT_EQ(Rows(input, sql), Rows(output, sql)) << "games." << name;
  }
  // No column is described that the table lacks.
  EXPECT_EQ(values, kGameValueColumns.size());
}

// Games with the same moves in both shards: copies of an original of the other shard (the same
// players, date and result where both have them) and games that only share the moves (other
// players or results), recorded as indexing both files together records them.
TEST(MergeTest, CopiesAcrossShardsAreTheCopiesOfOneIndexing) {
  TempDir dir;
  const auto game = [](const std::string& headers) {
    return "[Board \"Standard\"]\n" + headers + "\n1. e3 / e6\n2. Nf3 / Nf6\n\n";
  };
  const std::string a = dir.File("a.5dpgn");
  const std::string b = dir.File("b.5dpgn");
  {
    std::ofstream(a, std::ios::binary)
        << game("[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n")
        << game("[White \"Cat\"]\n[Black \"Dan\"]\n[Result \"0-1\"]\n")
        << game("[White \"Eve\"]\n[Black \"Fay\"]\n[Result \"*\"]\n");
    // A copy of Cat-Dan, one of Eve-Fay (its result says more), one of Ann-Bob (no headers),
    // and Ann-Bob drawn: an original.
    std::ofstream(b, std::ios::binary)
        << game("[White \"cat\"]\n[Black \"dan\"]\n[Date \"2021.01.01\"]\n")
        << game("[White \"Eve\"]\n[Black \"Fay\"]\n[Result \"1-0\"]\n") << game("")
        << game("[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1/2-1/2\"]\n");
  }
  ASSERT_EQ(Index(dir.File("a.sqlite"), {a}), 0);
  ASSERT_EQ(Index(dir.File("b.sqlite"), {b}), 0);
  ASSERT_EQ(Index(dir.File("together.sqlite"), {a, b}), 0);
  ASSERT_EQ(Merge(dir.File("merged.sqlite"), {dir.File("a.sqlite"), dir.File("b.sqlite")}), 0);
  EXPECT_EQ(Rows(dir.File("together.sqlite"), "SELECT id, duplicate_of FROM games ORDER BY id"),
            "1||\n2||\n3||\n4|2|\n5|3|\n6|1|\n7||\n");
  ExpectSameDatabases(dir.File("together.sqlite"), dir.File("merged.sqlite"));
}

TEST(MergeTest, EveryStateMd5IsMergedAndSettingsMustAgree) {
  TempDir dir;
  const std::string a = kCorpus + "adri326-5dchess-notation.5dpgn";
  const std::string club = kCorpus + "club-games.5dpgn";
  ASSERT_EQ(Index(dir.File("a.sqlite"), {a}, true), 0);
  ASSERT_EQ(Index(dir.File("b.sqlite"), {club}, true), 0);
  ASSERT_EQ(Index(dir.File("together.sqlite"), {a, club}, true), 0);
  ASSERT_EQ(Merge(dir.File("merged.sqlite"), {dir.File("a.sqlite"), dir.File("b.sqlite")}), 0);
  ExpectSameDatabases(dir.File("together.sqlite"), dir.File("merged.sqlite"));
  EXPECT_EQ(Rows(dir.File("merged.sqlite"), "SELECT value FROM meta WHERE key = 'state_md5'"),
            "all|\n");
  // A database of final MD5s does not go with them; nor does a file that is no database.
  ASSERT_EQ(Index(dir.File("final.sqlite"), {club}), 0);
  std::string messages;
  EXPECT_EQ(
      Merge(dir.File("other.sqlite"), {dir.File("a.sqlite"), dir.File("final.sqlite")}, &messages),
      2);
  EXPECT_NE(messages.find("made with other settings"), std::string::npos) << messages;
  EXPECT_EQ(Merge(dir.File("other.sqlite"), {a}, &messages), 2);
  EXPECT_NE(messages.find("not a 5dpgn-db database"), std::string::npos) << messages;
  EXPECT_FALSE(std::filesystem::exists(dir.File("other.sqlite")));
}

// A merge run again (after an error, say) adds nothing, not even a copy of a record dictionary:
// an input's dictionary already in the output is the one its games use.
TEST(MergeTest, AShardMergedAgainAddsNoDictionary) {
  TempDir dir;
  std::string games;
  for (int i = 0; i < 100; ++i) {
    games += "[Event \"game " + std::to_string(i) + "\"]\n[White \"player " +
             std::to_string(i % 7) + "\"]\n\n1. e3 / e6\n2. Nf3 / Nf6\n\n";
  }
  { std::ofstream(dir.File("games.5dpgn")) << games; }
  const std::string shard = dir.File("shard.sqlite");
  ASSERT_EQ(Index(shard, {dir.File("games.5dpgn")}), 0);
  ASSERT_EQ(Rows(shard, "SELECT count(*) FROM dictionaries"), "1|\n");
  const std::string merged = dir.File("merged.sqlite");
  ASSERT_EQ(Merge(merged, {shard}), 0);
  std::string messages;
  ASSERT_EQ(Merge(merged, {shard}, &messages), 0);
  EXPECT_NE(messages.find(" 0 merged, 0 copies, 100 already there"), std::string::npos) << messages;
  EXPECT_EQ(Rows(merged, "SELECT count(*) FROM dictionaries"), "1|\n");
  EXPECT_EQ(Rows(merged, "SELECT count(*) FROM games WHERE dictionary_id = 1"), "100|\n");
}

// The disk fills up anywhere in a merge: the summary counts the inputs merged (committed) before
// the error and their games only, a message says which inputs were merged and which were not,
// the output is sound, and the same merge run again makes what a merge that never failed makes
// (the games merged before are skipped as already there).
TEST(MergeTest, ADiskThatFillsUpAnywhereLeavesTheInputsMergedBeforeAndSaysWhichTheyAre) {
  TempDir dir;
  const std::string a = dir.File("a.sqlite");
  const std::string b = dir.File("b.sqlite");
  ASSERT_EQ(Index(a, {kCorpus + "adri326-5dchess-notation.5dpgn",
                      kCorpus + "rejected/teln0-vs-shad-simple-no-queens.5dpgn"}),
            1);
  ASSERT_EQ(Index(b, {kCorpus + "club-games.5dpgn"}), 0);
  ASSERT_EQ(
      Index(dir.File("together.sqlite"), {kCorpus + "adri326-5dchess-notation.5dpgn",
                                          kCorpus + "rejected/teln0-vs-shad-simple-no-queens.5dpgn",
                                          kCorpus + "club-games.5dpgn"}),
      1);
  long total = 0;  // bytes written by the merge that never fails
  {
    testing::FaultVfs disk(dir.path().string());
    ASSERT_EQ(Merge(dir.File("clean.sqlite"), {a, b}), 0);
    total = disk.written();
  }
  const std::string rejections_of_a = Rows(a, "SELECT count(*) FROM rejected");
  constexpr int kSteps = 40;
  int none = 0, first = 0, both = 0;  // failed runs, by the inputs merged before the error
  for (int step = 0; step < kSteps; ++step) {
    SCOPED_TRACE("the disk full after " + std::to_string(step) + "/" + std::to_string(kSteps) +
                 " of the bytes");
    const std::string output = dir.File("merged" + std::to_string(step) + ".sqlite");
    std::string messages;
    MergeSummary summary;
    int status = 0;
    {
      testing::FaultVfs disk(dir.path().string());
      disk.FillAfter(total * step / kSteps);
      status = Merge(output, {a, b}, &messages, &summary);
    }
    if (!summary.database.ok()) {
      EXPECT_EQ(status, 3);
      EXPECT_EQ(summary.database.message().substr(0, 36), "database or disk is full (statement:");
      EXPECT_EQ(Rows(output, "SELECT count(*) FROM games"), std::to_string(summary.merged) + "|\n");
      EXPECT_EQ(Rows(output, "SELECT count(*) FROM rejected"),
                std::to_string(summary.rejected) + "|\n");
      const std::string said = "5d-index: " + output + ": ";
      if (summary.databases == 0) {
        ++none;
        EXPECT_EQ(summary.merged + summary.rejected, 0);
        EXPECT_NE(
            messages.find(said + "no input was merged before the error: running the same merge "
                                 "again merges them\n"),
            std::string::npos)
            << messages;
      } else if (summary.databases == 1) {
        ++first;
        EXPECT_EQ(Rows(output, "SELECT count(*) FROM games"),
                  Rows(a, "SELECT count(*) FROM games"));
        EXPECT_EQ(std::to_string(summary.rejected) + "|\n", rejections_of_a);
        EXPECT_NE(messages.find(said + "the inputs up to " + a +
                                " (1 of 2) were merged before the error, those from " + b +
                                " on are not: running the same merge again completes it, "
                                "skipping what is already there\n"),
                  std::string::npos)
            << messages;
      } else {
        ++both;
        EXPECT_NE(messages.find(said + "every input was merged before the error, but the indexes "
                                       "are not built again: running the same merge again builds "
                                       "them\n"),
                  std::string::npos)
            << messages;
      }
      testing::ExpectSoundAndWhole(output);
    } else if (status == 3) {
      // The output could not even be made: the merge says so and claims nothing.
      EXPECT_EQ(summary.databases + summary.merged, 0) << messages;
    } else {
      EXPECT_EQ(status, 0) << messages;
    }
    ASSERT_EQ(Merge(output, {a, b}, &messages, &summary), 0) << messages;
    ExpectSameDatabases(dir.File("together.sqlite"), output);
  }
  EXPECT_GT(none, 0);
  EXPECT_GT(first, 0);
  EXPECT_GT(both, 0);
}

}  // namespace
}  // namespace fived
