// How games end, as 5d-query searches and counts it: the --ending and --result-conflict filters,
// the stored verdict, check and witness of each game, and tree and stats counting a proven
// checkmate or stalemate as the result where a game has none or "*". The games are tiny custom
// positions whose endings are worked out by hand below, indexed by the real 5d-index.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "query/filter.h"
#include "query/find.h"
#include "query/stats.h"
#include "query/tree.h"
#include "schema/game_check.h"
#include "tests/query/query_test_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::TempDir;
using Verdict = Decision::Verdict;

// A 4x4 board: black king a4; white king c2, queen b1; white to move. Four games from it, one
// action each (game ids in this order):
//   1 Ann-Bob  (none)  1. Qb3  black king a4: a3 and b4 are the queen's (b3-a3 rank, b3-b4
//                              file), b3 is guarded by the king on c2, and b3-a4 is check:
//                              checkmate, so white won (derived).
//   2 Cat-Dan  *       1. Qb2  a3 (b2-a3 diagonal), b3 and b4 (b-file) are the queen's; a4 itself
//                              is not (b2 reaches neither along a line): stalemate, a draw
//                              (derived), and "*" is a result conflict.
//   3 Ann-Dan  (none)  1. Kd2  a3 is free (b1 reaches a2, not a3): playable, no result.
//   4 Bob-Ann  0-1     1. Kd1  the same: playable; black won (resigned, say), not derived.
// One board and no earlier black board: no move leaves the board, so nothing else is legal.
constexpr const char* kStart = "[k3/4/2K1/1Q2:0:1:w]\n";
std::string Game(const std::string& white, const std::string& black, const std::string& result,
                 const std::string& moves) {
  std::string text =
      "[Board \"custom\"]\n[Size \"4x4\"]\n[White \"" + white + "\"]\n[Black \"" + black + "\"]\n";
  if (!result.empty()) text += "[Result \"" + result + "\"]\n";
  return text + kStart + "\n" + moves + "\n\n";
}
const std::string kCollection =
    Game("Ann", "Bob", "", "1. Qb3") + Game("Cat", "Dan", "*", "1. Qb2") +
    Game("Ann", "Dan", "", "1. Kd2") + Game("Bob", "Ann", "0-1", "1. Kd1");

// The state key of the start.
uint64_t StartKey() {
  const SyntaxResult syntax =
      ParseGameSyntax("[Board \"custom\"]\n[Size \"4x4\"]\n" + std::string(kStart));
  ReplayOutcome outcome = ReplayGame(syntax.game);
  EXPECT_TRUE(outcome.status.ok());
  return outcome.replayer ? outcome.replayer->position().StateKey() : 0;
}

std::vector<int64_t> Ids(GameStore& store, const GameFilter& filter) {
  FindRequest request;
  request.filter = filter;
  auto games = FindGames(store, request);
  EXPECT_TRUE(games.ok());
  std::vector<int64_t> ids;
  if (games.ok()) {
    for (const FoundGame& g : games.value()) ids.push_back(g.row.id);
  }
  return ids;
}

GameFilter Ending(Verdict verdict) {
  GameFilter filter;
  filter.ending = verdict;
  return filter;
}

TEST(Endings, FiltersFindTheGamesThatEndSo) {
  TempDir dir;
  GameStore store = testing::IndexCollection(dir, kCollection);
  EXPECT_EQ(Ids(store, Ending(Verdict::kCheckmate)), (std::vector<int64_t>{1}));
  EXPECT_EQ(Ids(store, Ending(Verdict::kStalemate)), (std::vector<int64_t>{2}));
  EXPECT_EQ(Ids(store, Ending(Verdict::kPlayable)), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(Ids(store, Ending(Verdict::kUnknown)), (std::vector<int64_t>{}));
  GameFilter conflict;
  conflict.result_conflict = true;
  EXPECT_FALSE(conflict.empty());
  EXPECT_EQ(Ids(store, conflict), (std::vector<int64_t>{2}));
  // Combined with the other filters.
  conflict.ending = Verdict::kPlayable;
  EXPECT_EQ(Ids(store, conflict), (std::vector<int64_t>{}));
  GameFilter ann_playable = Ending(Verdict::kPlayable);
  ann_playable.player = "ann";
  EXPECT_EQ(Ids(store, ann_playable), (std::vector<int64_t>{3, 4}));
  ann_playable.white = "ann";
  EXPECT_EQ(Ids(store, ann_playable), (std::vector<int64_t>{3}));
  FindRequest count;
  count.filter = Ending(Verdict::kPlayable);
  Result<int64_t> counted = CountGames(store, count);
  ASSERT_TRUE(counted.ok());
  EXPECT_EQ(counted.value(), 2);
}

TEST(Endings, RowsHoldTheVerdictTheCheckAndAWitnessThatReplays) {
  TempDir dir;
  GameStore store = testing::IndexCollection(dir, kCollection);
  auto row = [&](int64_t id) {
    Result<std::optional<GameRow>> found = store.Row(id);
    EXPECT_TRUE(found.ok() && found.value());
    return found.ok() && found.value() ? *found.value() : GameRow{};
  };
  const GameRow mate = row(1);
  EXPECT_EQ(mate.verdict, Verdict::kCheckmate);
  EXPECT_EQ(mate.checked_side, Color::kBlack);
  EXPECT_EQ(mate.witness, "");
  EXPECT_FALSE(mate.result_conflict);
  const GameRow stalemate = row(2);
  EXPECT_EQ(stalemate.verdict, Verdict::kStalemate);
  EXPECT_EQ(stalemate.checked_side, std::nullopt);
  EXPECT_TRUE(stalemate.result_conflict);
  for (int64_t id : {3, 4}) {
    const GameRow playable = row(id);
    EXPECT_EQ(playable.verdict, Verdict::kPlayable);
    EXPECT_EQ(playable.checked_side, std::nullopt);
    EXPECT_FALSE(playable.result_conflict);
    // The witness is black's answer in canonical move texts: the game goes on with it.
    Result<GameTexts> texts = store.Texts(id);
    ASSERT_TRUE(texts.ok());
    const std::string longer = texts.value().text + " / " + playable.witness + "\n";
    const SyntaxResult syntax = ParseGameSyntax(longer);
    ASSERT_TRUE(syntax.status.ok()) << longer;
    ReplayOutcome outcome = ReplayGame(syntax.game);
    EXPECT_TRUE(outcome.status.ok()) << longer;
    ASSERT_TRUE(outcome.replayer);
    EXPECT_EQ(outcome.replayer->actions().size(), 2u) << longer;
  }
}

TEST(Endings, TreeCountsProvenEndingsAsResultsAndSaysSo) {
  TempDir dir;
  GameStore store = testing::IndexCollection(dir, kCollection);
  Result<TreeNode> built = BuildTree(store, StartKey(), {}, 1);
  ASSERT_TRUE(built.ok());
  const TreeNode& tree = built.value();
  // Results: 1-0 (game 1, derived), 1/2-1/2 (game 2, derived from the stalemate, "*" set aside),
  // 0-1 (game 4, its own); game 3 has none. Score (1 + 0.5) / 3.
  EXPECT_EQ(tree.games, 4);
  EXPECT_EQ(tree.white_wins, 1);
  EXPECT_EQ(tree.draws, 1);
  EXPECT_EQ(tree.black_wins, 1);
  EXPECT_EQ(tree.derived, 2);
  ASSERT_TRUE(tree.score());
  EXPECT_DOUBLE_EQ(*tree.score(), 50.0);
  // One game each, so sorted by action text.
  ASSERT_EQ(tree.children.size(), 4u);
  const TreeNode& kd1 = tree.children[0];
  const TreeNode& kd2 = tree.children[1];
  const TreeNode& qb2 = tree.children[2];
  const TreeNode& qb3 = tree.children[3];
  EXPECT_EQ(kd1.action, "(0T1)Kd1");
  EXPECT_EQ(kd1.black_wins, 1);
  EXPECT_EQ(kd1.derived, 0);
  EXPECT_EQ(kd2.action, "(0T1)Kd2");
  EXPECT_EQ(kd2.results(), 0);
  EXPECT_FALSE(kd2.score()) << "a node without results has no score, not 0%";
  EXPECT_EQ(qb2.action, "(0T1)Qb2");
  EXPECT_EQ(qb2.draws, 1);
  EXPECT_EQ(qb2.derived, 1);
  EXPECT_EQ(qb3.action, "(0T1)Qb3");
  EXPECT_EQ(qb3.white_wins, 1);
  EXPECT_EQ(qb3.derived, 1);

  std::string table;
  WriteTreeTable(tree, 0, &table);
  EXPECT_EQ(
      table,
      "action      share  games  results  white wins  draws  black wins  derived   score  dates\n"
      "(position)             4        3           1      1           1        2   50.0%\n"
      "(0T1)Kd1    25.0%      1        1           0      0           1        0    0.0%\n"
      "(0T1)Kd2    25.0%      1        0           0      0           0        0       -\n"
      "(0T1)Qb2    25.0%      1        1           0      1           0        1   50.0%\n"
      "(0T1)Qb3    25.0%      1        1           1      0           0        1  100.0%\n");
  std::string json;
  WriteTreeJson(tree, &json);
  EXPECT_EQ(json.rfind("{\"games\":4,\"results\":3,\"white_wins\":1,\"draws\":1,\"black_wins\":1,"
                       "\"derived\":2,\"score\":50,",
                       0),
            0u)
      << json;
}

TEST(Endings, StatsCountEndingsConflictsAndDerivedResults) {
  TempDir dir;
  GameStore store = testing::IndexCollection(dir, kCollection);
  Result<DatabaseStats> computed = ComputeStats(store, {}, 10);
  ASSERT_TRUE(computed.ok());
  const DatabaseStats& stats = computed.value();
  EXPECT_EQ(stats.checkmates, 1);
  EXPECT_EQ(stats.stalemates, 1);
  EXPECT_EQ(stats.playable, 2);
  EXPECT_EQ(stats.unknown, 0);
  EXPECT_EQ(stats.undecided, 0);
  EXPECT_EQ(stats.result_conflicts, 1);
  EXPECT_EQ(stats.white_wins, 1);
  EXPECT_EQ(stats.draws, 1);
  EXPECT_EQ(stats.black_wins, 1);
  EXPECT_EQ(stats.derived_results, 2);
  // Players' records count the derived results too. Ann: won game 1 (mate, derived) and game 4
  // (as black, 0-1); game 3 has no result. Bob lost both. Cat and Dan drew game 2 (stalemate).
  ASSERT_EQ(stats.players.size(), 4u);
  auto record = [&](const std::string& name) {
    for (const PlayerStats& p : stats.players) {
      if (p.name == name) return std::vector<int64_t>{p.games, p.wins, p.draws, p.losses};
    }
    return std::vector<int64_t>{};
  };
  EXPECT_EQ(record("Ann"), (std::vector<int64_t>{3, 2, 0, 0}));
  EXPECT_EQ(record("Bob"), (std::vector<int64_t>{2, 0, 0, 2}));
  EXPECT_EQ(record("Cat"), (std::vector<int64_t>{1, 0, 1, 0}));
  EXPECT_EQ(record("Dan"), (std::vector<int64_t>{2, 0, 1, 0}));
  // A filter restricts them like everything else.
  Result<DatabaseStats> mates = ComputeStats(store, Ending(Verdict::kCheckmate), 0);
  ASSERT_TRUE(mates.ok());
  EXPECT_EQ(mates.value().games, 1);
  EXPECT_EQ(mates.value().checkmates, 1);
  EXPECT_EQ(mates.value().playable, 0);
  EXPECT_EQ(mates.value().white_wins, 1);
  EXPECT_EQ(mates.value().derived_results, 1);
}

TEST(Endings, AnUnknownVerdictProvesNothing) {
  // With one move tried per position, no mate or stalemate can be proved: black's king has three
  // squares to try (a3, b3, b4). Games 1 and 2 are unknown: no derived result, no conflict.
  TempDir dir;
  const std::string input = dir.File("games.5dpgn");
  const std::string database = dir.File("games.sqlite");
  {
    std::ofstream out(input, std::ios::binary);
    out << kCollection;
  }
  ASSERT_EQ(testing::RunIndexer(database, {input}, {"--verdict-budget", "1"}), 0);
  Result<GameStore> opened = GameStore::Open(database);
  ASSERT_TRUE(opened.ok());
  GameStore& store = opened.value();
  const std::vector<int64_t> unknown = Ids(store, Ending(Verdict::kUnknown));
  ASSERT_GE(unknown.size(), 2u);
  EXPECT_EQ(unknown[0], 1);
  EXPECT_EQ(unknown[1], 2);
  EXPECT_EQ(Ids(store, Ending(Verdict::kCheckmate)), (std::vector<int64_t>{}));
  EXPECT_EQ(Ids(store, Ending(Verdict::kStalemate)), (std::vector<int64_t>{}));
  Result<DatabaseStats> stats = ComputeStats(store, {}, 0);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats.value().derived_results, 0);
  EXPECT_EQ(stats.value().result_conflicts, 0);
  EXPECT_EQ(stats.value().black_wins, 1);  // game 4's own result
  EXPECT_EQ(stats.value().white_wins + stats.value().draws, 0);
}

TEST(Endings, GamesWithoutAVerdictAreCountedAsNotDecided) {
  // No version of 5d-index leaves a verdict out, but the schema allows it (NULL): such a game
  // counts as not decided and derives nothing.
  TempDir dir;
  { GameStore store = testing::IndexCollection(dir, kCollection); }
  {
    Result<Database> db = OpenDatabase(dir.File("games.sqlite"), OpenMode::kReadWrite);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db.value()
                    .Exec("UPDATE games SET verdict = NULL, checked_side = NULL, verdict_work = "
                          "NULL WHERE id = 1")
                    .ok());
    // As a writer would store it: with the checksum of the row it wrote (schema/game_check.h).
    ASSERT_TRUE(db.value()
                    .Exec(std::string("UPDATE games SET checksum = ") + kGameCheckFunction + "(" +
                          kGameCheckColumns + ") WHERE id = 1")
                    .ok());
  }
  Result<GameStore> opened = GameStore::Open(dir.File("games.sqlite"));
  ASSERT_TRUE(opened.ok());
  Result<DatabaseStats> stats = ComputeStats(opened.value(), {}, 0);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats.value().undecided, 1);
  EXPECT_EQ(stats.value().checkmates, 0);
  EXPECT_EQ(stats.value().derived_results, 1);  // game 2's stalemate only
  Result<std::optional<GameRow>> row = opened.value().Row(1);
  ASSERT_TRUE(row.ok() && row.value());
  EXPECT_EQ(row.value()->verdict, std::nullopt);
  std::string table;
  WriteStatsTable(stats.value(), &table);
  EXPECT_NE(table.find("endings     0 checkmate, 1 stalemate, 2 playable, 0 unknown, 1 not "
                       "decided; 1 result conflict\n"),
            std::string::npos)
      << table;
}

}  // namespace
}  // namespace fived
