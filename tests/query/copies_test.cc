// Copies and games that only share their moves (issue 26), through the request layer that the
// command line and the explorer share: games with the same moves under other players, dates or
// results are different games, and tree, stats, find and the duplicates report count them alike;
// only copies (the same moves, and the same players, date and result where both games have them)
// are left out of statistics, and lists say how many of their games are copies. Every expected
// figure is worked out from the games written below; the last test holds the counts of tree,
// stats and find to each other on the public corpus.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "query/request.h"
#include "tests/core/test_util.h"
#include "tests/query/query_test_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::IndexCollection;
using ::fived::testing::TempDir;

// A Standard game of `headers` ([Name "value"] lines) and the moves.
std::string Game(const std::string& headers,
                 const std::string& moves = "1. e3 / e6\n2. Nf3 / Nf6") {
  return headers + "\n" + moves + "\n\n";
}

// The five games: different players and dates, results 1-0, 0-1, *, *, *, all playing
// 1. e3 / e6 2. Nf3 / Nf6 (4 actions).
const std::string kFive =
    Game("[White \"Ann\"]\n[Black \"Bob\"]\n[Date \"2021.01.01\"]\n[Result \"1-0\"]\n") +
    Game("[White \"Cat\"]\n[Black \"Dan\"]\n[Date \"2021.02.02\"]\n[Result \"0-1\"]\n") +
    Game("[White \"Eve\"]\n[Black \"Fay\"]\n[Date \"2021.03.03\"]\n[Result \"*\"]\n") +
    Game("[White \"Gil\"]\n[Black \"Hal\"]\n[Date \"2021.04.04\"]\n[Result \"*\"]\n") +
    Game("[White \"Ida\"]\n[Black \"Jon\"]\n[Date \"2021.05.05\"]\n[Result \"*\"]\n");

// The five games, then:
//   6   the text of game 2 again: a copy of 2 (its players conflict with 1's)
//   7   game 3's players in other spellings, its date written with dashes, another event, the
//       moves on one line with a comment: a copy of 3
//   8   Gil-Hal without date or result: a copy of 4, the first original it agrees with
//   9   no headers: a copy of 1, the first original (nothing of it conflicts)
//   10  Ann-Bob 2021.01.01 like game 1, but 0-1: its result conflicts with 1's, its players with
//       the others': an original
const std::string kWithCopies =
    kFive + Game("[White \"Cat\"]\n[Black \"Dan\"]\n[Date \"2021.02.02\"]\n[Result \"0-1\"]\n") +
    Game(
        "[Event \"Live\"]\n[White \" EVE \"]\n[Black \"fay\"]\n[Date \"2021-03-03\"]\n"
        "[Result \"*\"]\n",
        "1. e3 {the usual} / e6 2. Nf3 / Nf6") +
    Game("[White \"Gil\"]\n[Black \"Hal\"]\n") + Game("[Board \"Standard\"]\n") +
    Game("[White \"Ann\"]\n[Black \"Bob\"]\n[Date \"2021.01.01\"]\n[Result \"0-1\"]\n");

Request Make(std::string command, std::map<std::string, std::string> params = {}) {
  Request request;
  request.command = std::move(command);
  for (auto& [name, value] : params) request.params[name] = {value};
  return request;
}

TreeNode Tree(GameStore& store, std::map<std::string, std::string> params = {}) {
  Result<TreeAnswer> answer = RunTree(store, Make("tree", std::move(params)));
  EXPECT_TRUE(answer.ok()) << (answer.ok() ? "" : answer.error().message());
  return answer.ok() ? answer.value().root : TreeNode{};
}

DatabaseStats Stats(GameStore& store, std::map<std::string, std::string> params = {}) {
  Result<StatsAnswer> answer = RunStats(store, Make("stats", std::move(params)));
  EXPECT_TRUE(answer.ok()) << (answer.ok() ? "" : answer.error().message());
  return answer.ok() ? answer.value().stats : DatabaseStats{};
}

// find --count with `params`.
int64_t Count(GameStore& store, std::map<std::string, std::string> params = {}) {
  params["count"] = "";
  Result<FindAnswer> answer = RunFind(store, Make("find", std::move(params)));
  EXPECT_TRUE(answer.ok()) << (answer.ok() ? "" : answer.error().message());
  return answer.ok() && answer.value().count ? *answer.value().count : -1;
}

std::vector<DuplicateGroup> Duplicates(GameStore& store) {
  Result<DuplicatesAnswer> answer = RunDuplicates(store, Make("duplicates"));
  EXPECT_TRUE(answer.ok()) << (answer.ok() ? "" : answer.error().message());
  return answer.ok() ? answer.value().groups : std::vector<DuplicateGroup>{};
}

// games.duplicate_of of every game in id order, 0 for an original.
std::vector<int64_t> CopiesOf(GameStore& store) {
  Result<Statement> select =
      store.db().Prepare("SELECT coalesce(duplicate_of, 0) FROM games ORDER BY id");
  EXPECT_TRUE(select.ok());
  std::vector<int64_t> out;
  while (select.ok() && select.value().Step().value() == StepResult::kRow) {
    out.push_back(select.value().Int64(0));
  }
  return out;
}

TEST(Copies, GamesThatOnlyShareTheirMovesAreDifferentGames) {
  TempDir dir;
  GameStore store = IndexCollection(dir, kFive);
  EXPECT_EQ(CopiesOf(store), (std::vector<int64_t>{0, 0, 0, 0, 0}));

  // The start and every action of the line: five games, one white win and one black win.
  const TreeNode tree = Tree(store, {{"depth", "4"}});
  EXPECT_EQ(tree.games, 5);
  EXPECT_EQ(tree.white_wins, 1);
  EXPECT_EQ(tree.black_wins, 1);
  EXPECT_EQ(tree.draws, 0);
  const TreeNode* node = &tree;
  for (const char* action : {"(0T1)e3", "(0T1)e6", "(0T2)Nf3", "(0T2)Nf6"}) {
    ASSERT_EQ(node->children.size(), 1u) << action;
    node = &node->children[0];
    EXPECT_EQ(node->action, action);
    EXPECT_EQ(node->games, 5) << action;
    EXPECT_EQ(node->white_wins, 1) << action;
    EXPECT_EQ(node->black_wins, 1) << action;
  }
  // The tree read from the statistics kept at ingest (depth 1) counts them alike.
  const TreeNode kept = Tree(store);
  EXPECT_EQ(kept.games, 5);
  EXPECT_EQ(kept.white_wins, 1);
  EXPECT_EQ(kept.black_wins, 1);

  const DatabaseStats stats = Stats(store);
  EXPECT_EQ(stats.games, 5);
  EXPECT_EQ(stats.copies, 0);
  EXPECT_EQ(stats.white_wins, 1);
  EXPECT_EQ(stats.black_wins, 1);
  EXPECT_EQ(stats.players.size(), 10u);

  EXPECT_EQ(Count(store), 5);
  EXPECT_EQ(Count(store, {{"unique", ""}}), 5);
  EXPECT_EQ(Count(store, {{"moves", "1. e3 / e6 2. Nf3 / Nf6"}, {"unique", ""}}), 5);

  const std::vector<DuplicateGroup> groups = Duplicates(store);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].kind, "same-moves");
  EXPECT_EQ(groups[0].ids, (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(groups[0].reason,
            "same variant (Standard), start and 4 actions; different players, dates or results");
}

TEST(Copies, CopiesAreLeftOutOfStatisticsAndCountedInLists) {
  TempDir dir;
  GameStore store = IndexCollection(dir, kWithCopies);
  EXPECT_EQ(CopiesOf(store), (std::vector<int64_t>{0, 0, 0, 0, 0, 2, 3, 4, 1, 0}));

  // Games 1 to 5 and 10: 1-0 (1), 0-1 (2 and 10).
  const TreeNode tree = Tree(store, {{"depth", "2"}});
  EXPECT_EQ(tree.games, 6);
  EXPECT_EQ(tree.white_wins, 1);
  EXPECT_EQ(tree.black_wins, 2);
  ASSERT_EQ(tree.children.size(), 1u);
  EXPECT_EQ(tree.children[0].games, 6);
  EXPECT_EQ(Tree(store).games, 6);
  // A copy whose headers the filter keeps counts no more than its original: 9 has no players.
  EXPECT_EQ(Tree(store, {{"white", "ann"}, {"depth", "2"}}).games, 2);

  const DatabaseStats stats = Stats(store);
  EXPECT_EQ(stats.games, 6);
  EXPECT_EQ(stats.copies, 4);
  EXPECT_EQ(stats.white_wins, 1);
  EXPECT_EQ(stats.black_wins, 2);
  ASSERT_EQ(stats.variants.size(), 1u);
  EXPECT_EQ(stats.variants[0].games, 6);
  EXPECT_EQ(stats.variants[0].copies, 4);

  // Lists hold every game unless asked for unique ones; the copies reconcile the two.
  EXPECT_EQ(Count(store), 10);
  EXPECT_EQ(Count(store, {{"unique", ""}}), 6);
  EXPECT_EQ(Count(store, {{"moves", "1. e3"}, {"unique", ""}}), tree.children[0].games);
  EXPECT_EQ(Count(store, {{"white", "ann"}, {"unique", ""}}), 2);

  const std::vector<DuplicateGroup> groups = Duplicates(store);
  ASSERT_EQ(groups.size(), 5u);
  const std::string moves = "same variant (Standard), start and 4 actions";
  const std::string copies = moves + "; same players, date and result where both have them";
  const std::vector<std::vector<int64_t>> exact = {{1, 9}, {2, 6}, {3, 7}, {4, 8}};
  for (size_t i = 0; i < exact.size(); ++i) {
    EXPECT_EQ(groups[i].kind, "exact");
    EXPECT_EQ(groups[i].ids, exact[i]);
    EXPECT_EQ(groups[i].reason, copies);
  }
  EXPECT_EQ(groups[4].kind, "same-moves");
  EXPECT_EQ(groups[4].ids, (std::vector<int64_t>{1, 2, 3, 4, 5, 10}));
  EXPECT_EQ(groups[4].reason, moves + "; different players, dates or results");
}

// The public corpus (../shared/corpus/public): the opening tree of every official variant and
// its actions count what find --unique finds there, and stats count the endings find --unique
// finds; find without --unique finds as many more as there are copies.
TEST(Copies, TreeStatsAndFindCountAlikeOnTheCorpus) {
  const std::string shared = testing::SharedDir();
  if (shared.empty()) GTEST_SKIP() << "../shared is absent";
  TempDir dir;
  const std::string database = dir.File("corpus.sqlite");
  ASSERT_LE(testing::RunIndexer(database, {shared + "/corpus/public"}), 1);
  Result<GameStore> opened = GameStore::Open(database);
  ASSERT_TRUE(opened.ok()) << opened.error().message();
  GameStore& store = opened.value();

  const DatabaseStats stats = Stats(store);
  ASSERT_GT(stats.copies, 0);  // else the comparisons below would not tell anything
  EXPECT_EQ(Count(store, {{"unique", ""}}), stats.games);
  EXPECT_EQ(Count(store), stats.games + stats.copies);
  const std::map<std::string, int64_t> endings = {{"checkmate", stats.checkmates},
                                                  {"stalemate", stats.stalemates},
                                                  {"playable", stats.playable},
                                                  {"unknown", stats.unknown}};
  for (const auto& [ending, counted] : endings) {
    EXPECT_EQ(Count(store, {{"ending", ending}, {"unique", ""}}), counted) << ending;
  }
  EXPECT_GT(Count(store, {{"ending", "checkmate"}}), stats.checkmates);

  int compared = 0;
  for (const VariantStats& variant : stats.variants) {
    if (variant.variant == "custom") continue;
    const TreeNode tree = Tree(store, {{"variant", variant.variant}, {"depth", "2"}});
    EXPECT_EQ(tree.games, variant.games) << variant.variant;
    EXPECT_EQ(Count(store, {{"variant", variant.variant}, {"unique", ""}}), tree.games);
    for (const TreeNode& action : tree.children) {
      EXPECT_EQ(
          Count(store,
                {{"variant", variant.variant}, {"moves", "1. " + action.action}, {"unique", ""}}),
          action.games)
          << variant.variant << " " << action.action;
      for (const TreeNode& answer : action.children) {
        EXPECT_EQ(Count(store, {{"variant", variant.variant},
                                {"moves", "1. " + action.action + " / " + answer.action},
                                {"unique", ""}}),
                  answer.games)
            << variant.variant << " " << action.action << " / " << answer.action;
        ++compared;
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 40);
}

}  // namespace
}  // namespace fived
