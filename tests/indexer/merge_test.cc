// 5d-index merge (indexer/merge.h): databases indexed apart, merged, hold what one database
// indexed from all their inputs in the same order holds: the same games under the same ids, the
// same copies (across the inputs too), headers, rejections, postings and position statistics.
#include "indexer/merge.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "indexer/index.h"
#include "schema/db.h"
#include "schema/postings.h"
#include "tests/indexer/db_check.h"
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
  options.progress = false;
  options.all_state_md5 = all_state_md5;
  std::ostringstream out, err;
  return RunIndex(options, out, err);
}

int Merge(const std::string& output, const std::vector<std::string>& inputs,
          std::string* messages = nullptr) {
  MergeOptions options;
  options.output = output;
  options.inputs = inputs;
  std::ostringstream out, err;
  const int status = RunMerge(options, out, err);
  if (messages) *messages = err.str();
  return status;
}

// Every posting of a table, by key, game and value, one line each.
std::string Postings(const std::string& db_path, PostingTable table) {
  DbResult<Database> db = OpenDatabase(db_path, OpenMode::kReadOnly);
  EXPECT_TRUE(db.ok());
  DbResult<PostingReader> reader = PostingReader::Create(db.value(), table);
  EXPECT_TRUE(reader.ok());
  std::vector<Posting> all;
  EXPECT_FALSE(reader.value().ForEach([&](const Posting& p) {
    all.push_back(p);
    return true;
  }));
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
       {PostingTable::kStates, PostingTable::kBoards, PostingTable::kStateMd5s}) {
    EXPECT_EQ(Postings(together, table), Postings(merged, table)) << PostingTableName(table);
  }
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

}  // namespace
}  // namespace fived
