// Mates in one from 5d-query: the --mate-in-one and --missed-mate filters with their JSON rows,
// what a database made without --tactics or by an earlier search says, and the puzzles command,
// whose puzzles must read back with 5d-index as games that end in checkmate. The games are
// tests/cli/tactics.5dpgn, whose mates are worked out by hand there and in
// tests/indexer/tactics_test.cc.
#include "query/puzzles.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "query/find.h"
#include "query/request.h"
#include "query/show.h"
#include "schema/db.h"
#include "schema/meta.h"
#include "schema/sqlite.h"
#include "tests/query/query_test_util.h"

namespace fived {
namespace {

using ::fived::testing::RunIndexer;
using ::fived::testing::TempDir;

constexpr const char* kGames = FIVED_SOURCE_DIR "/tests/cli/tactics.5dpgn";

class PuzzlesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    store_ = testing::NewIndexedStore(dir_->File("tactics.sqlite"), {kGames}, {"--tactics"});
    ASSERT_NE(store_, nullptr);
  }
  static void TearDownTestSuite() {
    delete store_;
    delete dir_;
  }

  static Request Make(std::string command, std::vector<std::string> flags,
                      std::map<std::string, std::string> params = {}) {
    Request request;
    request.command = std::move(command);
    for (const std::string& flag : flags) request.params[flag].push_back("");
    for (auto& [name, value] : params) request.params[name].push_back(value);
    return request;
  }

  static std::vector<int64_t> Ids(const FindAnswer& answer) {
    std::vector<int64_t> ids;
    for (const FoundGame& game : answer.games) ids.push_back(game.row.id);
    return ids;
  }

  static TempDir* dir_;
  static GameStore* store_;
};

TempDir* PuzzlesTest::dir_ = nullptr;
GameStore* PuzzlesTest::store_ = nullptr;

TEST_F(PuzzlesTest, FindsGamesWithMatesAndMissedMates) {
  Result<FindAnswer> mates = RunFind(*store_, Make("find", {"mate-in-one"}));
  ASSERT_TRUE(mates.ok()) << mates.error().message();
  EXPECT_EQ(Ids(mates.value()), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(mates.value().hints.empty());
  Result<FindAnswer> missed = RunFind(*store_, Make("find", {"missed-mate"}));
  ASSERT_TRUE(missed.ok());
  EXPECT_EQ(Ids(missed.value()), (std::vector<int64_t>{2, 5}));
  Result<FindAnswer> count = RunFind(*store_, Make("find", {"missed-mate", "count"}));
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count.value().count, 2);
}

TEST_F(PuzzlesTest, JsonRowsListTheMates) {
  Result<FindAnswer> found =
      RunFind(*store_, Make("find", {"mate-in-one"}, {{"format", "json"}, {"limit", "3"}}));
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found.value().mates);
  std::ostringstream out;
  ASSERT_TRUE(WriteGames(*store_, found.value().games, OutputFormat::kJson, false, false, out,
                         false, found.value().mates)
                  .ok());
  const nlohmann::ordered_json rows = nlohmann::ordered_json::parse(out.str());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["mates"].dump(),
            R"([{"action":0,"side":"white","played":"found","solutions":1,"complete":true,)"
            R"("solution":"(0T1)Qb3","allowed":false}])");
  EXPECT_EQ(rows[1]["mates"][0]["played"], "missed");
  EXPECT_EQ(rows[2]["mates"].dump(),
            R"([{"action":1,"side":"black","played":"found","solutions":1,"complete":true,)"
            R"("solution":"(0T1)Qb2","allowed":true}])");
  // Without the filters, rows are as they were.
  Result<FindAnswer> plain = RunFind(*store_, Make("find", {}, {{"format", "json"}}));
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain.value().mates);
}

TEST_F(PuzzlesTest, ADatabaseWithoutTacticsSaysSo) {
  TempDir dir;
  const std::string database = dir.File("plain.sqlite");
  ASSERT_EQ(RunIndexer(database, {kGames}), 0);
  Result<GameStore> store = GameStore::Open(database);
  ASSERT_TRUE(store.ok());
  Result<FindAnswer> found = RunFind(store.value(), Make("find", {"mate-in-one"}));
  ASSERT_TRUE(found.ok());
  EXPECT_TRUE(found.value().games.empty());
  ASSERT_EQ(found.value().hints.size(), 1u);
  EXPECT_EQ(found.value().hints[0],
            "this database was made without 5d-index --tactics: it holds no mates in one (index "
            "the collections again into a new database with --tactics)");
  Result<PuzzlesAnswer> puzzles = RunPuzzles(store.value(), Make("puzzles", {}));
  ASSERT_TRUE(puzzles.ok());
  EXPECT_TRUE(puzzles.value().puzzles.empty());
  EXPECT_EQ(puzzles.value().hints, found.value().hints);
}

// A database whose mates in one an earlier build found (meta.tactics_version below this build's)
// says so wherever they are read: the searches, the puzzles and the game page's JSON.
TEST_F(PuzzlesTest, ADatabaseOfAnEarlierSearchSaysSo) {
  Request show = Make("show", {});
  show.args = {"2"};
  Result<ShowAnswer> current_game = RunShow(*store_, show);
  ASSERT_TRUE(current_game.ok());
  Result<Json> current_json = ShowJson(*store_, current_game.value());
  ASSERT_TRUE(current_json.ok());
  EXPECT_TRUE(current_json.value().contains("mates"));
  EXPECT_FALSE(current_json.value().contains("mates_note"));

  TempDir dir;
  const std::string database = dir.File("earlier.sqlite");
  ASSERT_EQ(RunIndexer(database, {kGames}, {"--tactics"}), 0);
  {
    Result<Database> db = OpenDatabase(database, OpenMode::kReadWrite);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db.value().Exec("DELETE FROM meta WHERE key = 'tactics_version'").ok());
  }
  Result<GameStore> store = GameStore::Open(database);
  ASSERT_TRUE(store.ok());
  const std::vector<std::string> said = {OlderTacticsText(1)};
  Result<FindAnswer> found = RunFind(store.value(), Make("find", {"missed-mate"}));
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(Ids(found.value()), (std::vector<int64_t>{2, 5}));  // the rows are still read
  EXPECT_EQ(found.value().hints, said);
  Result<PuzzlesAnswer> puzzles = RunPuzzles(store.value(), Make("puzzles", {}));
  ASSERT_TRUE(puzzles.ok());
  EXPECT_FALSE(puzzles.value().puzzles.empty());
  EXPECT_EQ(puzzles.value().hints, said);
  Result<ShowAnswer> game = RunShow(store.value(), show);
  ASSERT_TRUE(game.ok());
  Result<Json> json = ShowJson(store.value(), game.value());
  ASSERT_TRUE(json.ok());
  EXPECT_TRUE(json.value().contains("mates"));
  EXPECT_EQ(json.value().value("mates_note", ""), said[0]);
  // Searches that read no mates say nothing of them.
  Result<FindAnswer> plain = RunFind(store.value(), Make("find", {}));
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain.value().hints.empty());
}

TEST_F(PuzzlesTest, OnlyMoveKeepsTheSingleSolutions) {
  Result<PuzzlesAnswer> all = RunPuzzles(*store_, Make("puzzles", {}));
  ASSERT_TRUE(all.ok()) << all.error().message();
  EXPECT_EQ(all.value().left_out, 0);
  std::vector<std::pair<int64_t, int>> places;
  for (const Puzzle& puzzle : all.value().puzzles)
    places.push_back({puzzle.game_id, puzzle.action});
  EXPECT_EQ(places,
            (std::vector<std::pair<int64_t, int>>{{1, 0}, {2, 0}, {3, 1}, {4, 0}, {5, 0}, {6, 0}}));

  Result<PuzzlesAnswer> only = RunPuzzles(*store_, Make("puzzles", {"only-move"}));
  ASSERT_TRUE(only.ok());
  for (const Puzzle& puzzle : only.value().puzzles) {
    EXPECT_EQ(puzzle.solutions, 1u);
    EXPECT_TRUE(puzzle.complete);
  }
  ASSERT_GE(only.value().puzzles.size(), 3u);
  // The first game's position, worked out by hand: its only mate.
  EXPECT_EQ(only.value().puzzles[0].text,
            "[Board \"custom\"]\n[Size \"4x4\"]\n[Puzzle \"mate in 1\"]\n[ToMove \"white\"]\n"
            "[Source \"game 1, after action 0\"]\n[k3/4/2K1/1Q2:0:1:w]\n\n1. (0T1)Qb3\n\n");
  // Black to move, the whole position: the start and the board after Ka1.
  const std::string& black = only.value().puzzles[2].text;
  EXPECT_NE(black.find("[ToMove \"black\"]\n[Source \"game 3, after action 1\"]\n"
                       "[1q2/2k1/K3/4:0:1:w]\n[1q2/2k1/4/K3:0:1:b]\n"),
            std::string::npos)
      << black;
  // Filters narrow the games.
  Result<PuzzlesAnswer> none = RunPuzzles(*store_, Make("puzzles", {}, {{"min-actions", "3"}}));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none.value().puzzles.empty());
}

TEST_F(PuzzlesTest, PuzzlesReadBackAsMates) {
  Result<PuzzlesAnswer> all = RunPuzzles(*store_, Make("puzzles", {}));
  ASSERT_TRUE(all.ok());
  TempDir dir;
  const std::string file = dir.File("puzzles.5dpgn");
  std::ofstream(file, std::ios::binary) << WritePuzzles(all.value());
  const std::string database = dir.File("puzzles.sqlite");
  ASSERT_EQ(RunIndexer(database, {file}), 0);
  Result<Database> db = OpenDatabase(database, OpenMode::kReadOnly);
  ASSERT_TRUE(db.ok());
  // Every puzzle is a game of one action that ends in a proven checkmate (verdict 1).
  EXPECT_EQ(QueryInt(db.value(), "SELECT count(*) FROM games").value(),
            static_cast<int64_t>(all.value().puzzles.size()));
  EXPECT_EQ(
      QueryInt(db.value(), "SELECT count(*) FROM games WHERE verdict = 1 AND actions = 1").value(),
      static_cast<int64_t>(all.value().puzzles.size()));

  // JSON holds the same puzzles.
  PuzzlesAnswer json = all.value();
  json.format = OutputFormat::kJson;
  const nlohmann::json parsed = nlohmann::json::parse(WritePuzzles(json));
  ASSERT_EQ(parsed.size(), all.value().puzzles.size());
  EXPECT_EQ(parsed[0]["pgn"], all.value().puzzles[0].text);
  EXPECT_EQ(parsed[0]["solution"], "(0T1)Qb3");
  EXPECT_EQ(parsed[0]["side"], "white");
}

}  // namespace
}  // namespace fived
