// The opening tree (query/tree.h) on small databases written by the real indexer: counts,
// results, scores over finished games, shares, dates, order, depth, the position's own counts
// with the games that end there, copies left out (and games that only share moves counted each),
// transposed moves of one action counted as one, filters, and the table and JSON output. Every
// expected figure is worked out from the games written below.
#include "query/tree.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "query/find.h"
#include "query/search.h"
#include "query/store.h"
#include "schema/position_stats.h"
#include "tests/query/query_test_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::TempDir;

// Standard games. Game ids follow the order of the file.
//   1 Alice-Bob   1-0      2021.03.01  e3 e6 Qh5 Nf6
//   2 Bob-Alice   0-1      2022.01.05  e3 e6 Nf3 Nf6
//   3 Carol-Alice 1/2-1/2  2021.??.??  e3 d6
//   4 Alice-Carol *        (no date)   Nf3 Nf6
//   5 the text of game 1 again: a copy of game 1
//   6 Zed-Bob     1-0      2023.01.01  game 1's moves, another player: another game, no copy
//   7 Dan-Eve     0-1      2020-12-24  d3 e6 (a date written with dashes)
//   8 Eve-Dan     (none)   ????.??.??  e3 e6 (ends after black's first action)
//   9 Dan-Alice   1-0      2021        no moves: ends at the start
constexpr std::string_view kStandardGames =
    "[Board \"Standard\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n"
    "[Date \"2021.03.01\"]\n\n1. e3 / e6 2. Qh5 / Nf6 1-0\n\n"
    "[Board \"Standard\"]\n[White \"Bob\"]\n[Black \"Alice\"]\n[Result \"0-1\"]\n"
    "[Date \"2022.01.05\"]\n\n1. e3 / e6 2. Nf3 / Nf6 0-1\n\n"
    "[Board \"Standard\"]\n[White \"Carol\"]\n[Black \"Alice\"]\n[Result \"1/2-1/2\"]\n"
    "[Date \"2021.??.??\"]\n\n1. e3 / d6 1/2-1/2\n\n"
    "[Board \"Standard\"]\n[White \"Alice\"]\n[Black \"Carol\"]\n[Result \"*\"]\n\n"
    "1. Nf3 / Nf6 *\n\n"
    "[Board \"Standard\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n"
    "[Date \"2021.03.01\"]\n\n1. e3 / e6 2. Qh5 / Nf6 1-0\n\n"
    "[Board \"Standard\"]\n[White \"Zed\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n"
    "[Date \"2023.01.01\"]\n\n1. e3 / e6 2. Qh5 / Nf6 1-0\n\n"
    "[Board \"Standard\"]\n[White \"Dan\"]\n[Black \"Eve\"]\n[Result \"0-1\"]\n"
    "[Date \"2020-12-24\"]\n\n1. d3 / e6 0-1\n\n"
    "[Board \"Standard\"]\n[White \"Eve\"]\n[Black \"Dan\"]\n[Date \"????.??.??\"]\n\n"
    "1. e3 / e6\n\n"
    "[Board \"Standard\"]\n[White \"Dan\"]\n[Black \"Alice\"]\n[Result \"1-0\"]\n"
    "[Date \"2021\"]\n\n1-0\n";

// Two timelines: white moves on both boards in one action, in either order.
//   10 1-0  2021.05.01  (-0)e3 (+0)e3  / (-0)e6 (+0)e6
//   11 0-1  2021.06.01  (+0)e3 (-0)e3  / (+0)e6 (-0)e6   (both actions transposed)
//   12 0-1  2021/4      (-0)Nf3 (+0)Nf3 / (-0)Nf6 (+0)Nf6   (shown 2021.04.??)
constexpr std::string_view kTwoTimelineGames =
    "[Board \"Standard - Two Timelines\"]\n[White \"Ann\"]\n[Black \"Ben\"]\n[Result \"1-0\"]\n"
    "[Date \"2021.05.01\"]\n\n1. (-0T1)e3 (+0T1)e3 / (-0T1)e6 (+0T1)e6 1-0\n\n"
    "[Board \"Standard - Two Timelines\"]\n[White \"Ann\"]\n[Black \"Ben\"]\n[Result \"0-1\"]\n"
    "[Date \"2021.06.01\"]\n\n1. (+0T1)e3 (-0T1)e3 / (+0T1)e6 (-0T1)e6 0-1\n\n"
    "[Board \"Standard - Two Timelines\"]\n[White \"Ann\"]\n[Black \"Ben\"]\n[Result \"0-1\"]\n"
    "[Date \"2021/4\"]\n\n1. (-0T1)Nf3 (+0T1)Nf3 / (-0T1)Nf6 (+0T1)Nf6 0-1\n";

// A copy of game 4 that says more than it: its date (game 4 has none), Alice and Carol as in 4.
//   13 Alice-Carol *     2019.01.01  Nf3 Nf6
constexpr std::string_view kCopyGames =
    "[Board \"Standard\"]\n[White \"Alice\"]\n[Black \"Carol\"]\n[Result \"*\"]\n"
    "[Date \"2019.01.01\"]\n\n1. Nf3 / Nf6 *\n";

// The state key after `moves` from the start of `variant`.
uint64_t StateKeyAfter(std::string_view variant, std::string_view moves) {
  const std::string text = "[Board \"" + std::string(variant) + "\"]\n\n" + std::string(moves);
  SyntaxResult syntax = ParseGameSyntax(text);
  EXPECT_TRUE(syntax.status.ok()) << text;
  ReplayOutcome outcome = ReplayGame(syntax.game);
  EXPECT_TRUE(outcome.status.ok()) << text;
  EXPECT_TRUE(outcome.replayer) << text;
  return outcome.replayer ? outcome.replayer->position().StateKey() : 0;
}

// A database of the test games, written by 5d-index, opened for the tests of this suite.
class TreeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const std::string input = dir_->File("games.5dpgn");
    {
      std::ofstream out(input, std::ios::binary);
      out << kStandardGames << "\n" << kTwoTimelineGames << "\n" << kCopyGames;
    }
    const std::string db = dir_->File("games.sqlite");
    ASSERT_EQ(fived::testing::RunIndexer(db, {input}), 0);
    Result<GameStore> store = GameStore::Open(db);
    ASSERT_TRUE(store.ok()) << store.error().message();
    store_ = new GameStore(std::move(store).value());
  }
  static void TearDownTestSuite() {
    delete store_;
    store_ = nullptr;
    delete dir_;
    dir_ = nullptr;
  }

  void SetUp() override { ASSERT_NE(store_, nullptr); }

  // The position `key` with the actions from it as children.
  static TreeNode Tree(uint64_t key, const GameFilter& filter = {}, int depth = 1) {
    Result<TreeNode> tree = BuildTree(*store_, key, filter, depth);
    EXPECT_TRUE(tree.ok()) << (tree.ok() ? "" : tree.error().message());
    return tree.ok() ? std::move(tree).value() : TreeNode{};
  }

  static TempDir* dir_;
  static GameStore* store_;
};

TempDir* TreeTest::dir_ = nullptr;
GameStore* TreeTest::store_ = nullptr;

// What a node holds, for one EXPECT per node.
struct Counts {
  std::string action;
  int64_t games, white_wins, draws, black_wins;
  std::string first_date, last_date;
  bool operator==(const Counts&) const = default;
};
std::ostream& operator<<(std::ostream& out, const Counts& c) {
  return out << "{" << c.action << ", " << c.games << " games, " << c.white_wins << "/" << c.draws
             << "/" << c.black_wins << ", '" << c.first_date << "' - '" << c.last_date << "'}";
}
Counts CountsOf(const TreeNode& node) {
  return {node.action,     node.games,      node.white_wins, node.draws,
          node.black_wins, node.first_date, node.last_date};
}
std::vector<Counts> CountsOf(const std::vector<TreeNode>& nodes) {
  std::vector<Counts> out;
  for (const TreeNode& node : nodes) out.push_back(CountsOf(node));
  return out;
}

TEST_F(TreeTest, StartCountsEachActionOnceSortedByGames) {
  // e3: games 1, 2, 3, 6 and 8 (5 is a copy of 1; 6 has 1's moves between other players); 9
  // ends at the start and plays nothing. Game 8's date has no year; game 3's "2021.??.??" lies
  // between 2021.03.01 and 2023.01.01. Nf3 (4; 13 is its copy) and d3 have one game each:
  // "(0T1)Nf3" sorts before "(0T1)d3" ('N' < 'd').
  const TreeNode tree = Tree(StateKeyAfter("Standard", ""));
  EXPECT_EQ(CountsOf(tree.children), (std::vector<Counts>{
                                         {"(0T1)e3", 5, 2, 1, 1, "2021.03.01", "2023.01.01"},
                                         {"(0T1)Nf3", 1, 0, 0, 0, "", ""},
                                         {"(0T1)d3", 1, 0, 0, 1, "2020.12.24", "2020.12.24"},
                                     }));
  ASSERT_EQ(tree.children.size(), 3u);
  for (const TreeNode& node : tree.children) {
    EXPECT_FALSE(node.expanded) << node.action;
    EXPECT_TRUE(node.children.empty()) << node.action;
  }
}

TEST_F(TreeTest, ScoreIsOverTheGamesWithAResult) {
  const TreeNode tree = Tree(StateKeyAfter("Standard", ""));
  ASSERT_EQ(tree.children.size(), 3u);
  const TreeNode& e3 = tree.children[0];
  const TreeNode& nf3 = tree.children[1];
  const TreeNode& d3 = tree.children[2];
  // e3: games 1 and 6 won by white, 2 by black, 3 drawn; game 8 has no result and counts in
  // games only.
  EXPECT_EQ(e3.games, 5);
  EXPECT_EQ(e3.results(), 4);
  ASSERT_TRUE(e3.score().has_value());
  EXPECT_DOUBLE_EQ(*e3.score(), (2 + 0.5) / 4 * 100);
  // Nf3: game 4 is unfinished ("*"), so nothing says how Nf3 fares: no score, not 0.
  EXPECT_EQ(nf3.games, 1);
  EXPECT_EQ(nf3.results(), 0);
  EXPECT_FALSE(nf3.score().has_value());
  // d3: game 7 won by black.
  EXPECT_EQ(d3.results(), 1);
  ASSERT_TRUE(d3.score().has_value());
  EXPECT_DOUBLE_EQ(*d3.score(), 0);
}

TEST_F(TreeTest, PositionCountsEveryGameThatReachedItAlsoThoseThatEndThere) {
  // The start: games 1, 2, 3, 4, 6, 7, 8 and 9 (5 and 13 are copies); 9 ends there. White won
  // 1, 6 and 9, black 2 and 7, 3 was drawn, 4 and 8 have no result. Dates from game 7's
  // 2020-12-24 to game 6's; game 9's "2021" is 2021.??.??, inside.
  const TreeNode start = Tree(StateKeyAfter("Standard", ""));
  EXPECT_EQ(start.action, "");
  EXPECT_TRUE(start.expanded);
  EXPECT_EQ(CountsOf(start), (Counts{"", 8, 3, 1, 2, "2020.12.24", "2023.01.01"}));
  EXPECT_EQ(start.results(), 6);
  ASSERT_TRUE(start.score().has_value());
  EXPECT_DOUBLE_EQ(*start.score(), (3 + 0.5) / 6 * 100);
  // The actions hold every game but 9.
  int64_t playing = 0;
  for (const TreeNode& node : start.children) playing += node.games;
  EXPECT_EQ(playing, start.games - 1);

  // After 1. e3 / e6: games 1 and 6 (Qh5), 2 (Nf3) and 8, which ends there without a result.
  const TreeNode after_e6 = Tree(StateKeyAfter("Standard", "1. e3 / e6"));
  EXPECT_EQ(CountsOf(after_e6), (Counts{"", 4, 2, 0, 1, "2021.03.01", "2023.01.01"}));
  EXPECT_EQ(after_e6.results(), 3);
  EXPECT_EQ(CountsOf(after_e6.children),
            (std::vector<Counts>{{"(0T2)Qh5", 2, 2, 0, 0, "2021.03.01", "2023.01.01"},
                                 {"(0T2)Nf3", 1, 0, 0, 1, "2022.01.05", "2022.01.05"}}));
}

TEST_F(TreeTest, SharesAreOfTheGamesOfTheNodeAbove) {
  const TreeNode start = Tree(StateKeyAfter("Standard", ""), {}, 2);
  ASSERT_EQ(start.children.size(), 3u);
  // Of the start's 8 games (game 9 among them, which plays nothing): e3 5, Nf3 1, d3 1.
  EXPECT_DOUBLE_EQ(start.children[0].ShareOf(start), 5.0 / 8 * 100);
  EXPECT_DOUBLE_EQ(start.children[1].ShareOf(start), 1.0 / 8 * 100);
  EXPECT_DOUBLE_EQ(start.children[2].ShareOf(start), 1.0 / 8 * 100);
  // Of e3's 5 games: e6 4 (games 1, 2, 6 and 8), d6 1 (game 3).
  const TreeNode& e3 = start.children[0];
  ASSERT_EQ(e3.children.size(), 2u);
  EXPECT_DOUBLE_EQ(e3.children[0].ShareOf(e3), 4.0 / 5 * 100);
  EXPECT_DOUBLE_EQ(e3.children[1].ShareOf(e3), 1.0 / 5 * 100);
  // A position nobody reached has no games to share.
  EXPECT_DOUBLE_EQ(TreeNode{}.ShareOf(TreeNode{}), 0);
}

TEST_F(TreeTest, DepthTwoExpandsEveryAction) {
  const TreeNode start = Tree(StateKeyAfter("Standard", ""), {}, 2);
  const std::vector<TreeNode>& tree = start.children;
  ASSERT_EQ(tree.size(), 3u);
  for (const TreeNode& node : tree) EXPECT_TRUE(node.expanded) << node.action;
  // After e3: e6 by games 1, 2, 6 and 8, d6 by game 3.
  EXPECT_EQ(CountsOf(tree[0].children),
            (std::vector<Counts>{{"(0T1)e6", 4, 2, 0, 1, "2021.03.01", "2023.01.01"},
                                 {"(0T1)d6", 1, 0, 1, 0, "2021.??.??", "2021.??.??"}}));
  EXPECT_EQ(CountsOf(tree[1].children), (std::vector<Counts>{{"(0T1)Nf6", 1, 0, 0, 0, "", ""}}));
  EXPECT_EQ(CountsOf(tree[2].children),
            (std::vector<Counts>{{"(0T1)e6", 1, 0, 0, 1, "2020.12.24", "2020.12.24"}}));
  // The last level is not expanded.
  for (const TreeNode& node : tree) {
    for (const TreeNode& child : node.children) {
      EXPECT_FALSE(child.expanded) << child.action;
      EXPECT_TRUE(child.children.empty()) << child.action;
    }
  }
}

TEST_F(TreeTest, DepthThreeFollowsEachGameAndStopsWhereItEnds) {
  const std::vector<TreeNode> tree = Tree(StateKeyAfter("Standard", ""), {}, 3).children;
  ASSERT_EQ(tree.size(), 3u);
  ASSERT_EQ(tree[0].children.size(), 2u);
  // After e3 e6: Qh5 (games 1 and 6), Nf3 (game 2); game 8 ends there. After e3 d6 game 3 ends:
  // the node was looked past, so it is expanded, with no children.
  EXPECT_EQ(CountsOf(tree[0].children[0].children),
            (std::vector<Counts>{{"(0T2)Qh5", 2, 2, 0, 0, "2021.03.01", "2023.01.01"},
                                 {"(0T2)Nf3", 1, 0, 0, 1, "2022.01.05", "2022.01.05"}}));
  EXPECT_TRUE(tree[0].children[1].expanded);
  EXPECT_TRUE(tree[0].children[1].children.empty());
}

TEST_F(TreeTest, LaterPositionLeavesOutOfItsActionsGamesThatEndThere) {
  // Black to move after 1. e3: the answers.
  EXPECT_EQ(CountsOf(Tree(StateKeyAfter("Standard", "1. e3")).children),
            (std::vector<Counts>{{"(0T1)e6", 4, 2, 0, 1, "2021.03.01", "2023.01.01"},
                                 {"(0T1)d6", 1, 0, 1, 0, "2021.??.??", "2021.??.??"}}));
  // The final position of game 3 has no continuation, but game 3 reached it.
  const TreeNode end = Tree(StateKeyAfter("Standard", "1. e3 / d6"));
  EXPECT_TRUE(end.children.empty());
  EXPECT_EQ(CountsOf(end), (Counts{"", 1, 0, 1, 0, "2021.??.??", "2021.??.??"}));
}

TEST_F(TreeTest, UnknownStateHasNoGames) {
  const TreeNode tree = Tree(StateKeyAfter("Standard - Turn Zero", ""));
  EXPECT_EQ(CountsOf(tree), (Counts{"", 0, 0, 0, 0, "", ""}));
  EXPECT_FALSE(tree.score().has_value());
  EXPECT_TRUE(tree.children.empty());
}

TEST_F(TreeTest, TransposedMovesAreOneActionNamedByTheFirstGame) {
  // Games 10 and 11 play the same two moves in both actions, in different orders; game 10 has
  // the lower id, so its order names the action.
  const std::vector<TreeNode> tree =
      Tree(StateKeyAfter("Standard - Two Timelines", ""), {}, 2).children;
  EXPECT_EQ(CountsOf(tree),
            (std::vector<Counts>{{"(-0T1)e3 (+0T1)e3", 2, 1, 0, 1, "2021.05.01", "2021.06.01"},
                                 {"(-0T1)Nf3 (+0T1)Nf3", 1, 0, 0, 1, "2021.04.??", "2021.04.??"}}));
  ASSERT_EQ(tree.size(), 2u);
  EXPECT_EQ(CountsOf(tree[0].children),
            (std::vector<Counts>{{"(-0T1)e6 (+0T1)e6", 2, 1, 0, 1, "2021.05.01", "2021.06.01"}}));
}

TEST_F(TreeTest, GamesWithTheSameMovesCountEachAndCopiesNever) {
  // Game 6 plays game 1's moves with Zed as white: a game of its own, in Zed's repertoire with
  // its own result and date (and beside game 1 without a filter, above).
  GameFilter zed;
  zed.player = "zed";
  const TreeNode tree = Tree(StateKeyAfter("Standard", ""), zed);
  EXPECT_EQ(CountsOf(tree), (Counts{"", 1, 1, 0, 0, "2023.01.01", "2023.01.01"}));
  EXPECT_EQ(CountsOf(tree.children),
            (std::vector<Counts>{{"(0T1)e3", 1, 1, 0, 0, "2023.01.01", "2023.01.01"}}));
  // Game 13, a copy of 4, is the only game of 2019: the filter keeps it and not its original,
  // and still nothing counts, as 5d-query --unique finds nothing there.
  GameFilter in_2019;
  in_2019.date_from = 20190101;
  in_2019.date_to = 20191231;
  EXPECT_EQ(CountsOf(Tree(StateKeyAfter("Standard", ""), in_2019)),
            (Counts{"", 0, 0, 0, 0, "", ""}));
  FindRequest find;
  find.filter = in_2019;
  EXPECT_EQ(CountGames(*store_, find).value(), 1);
  find.filter.originals_only = true;
  EXPECT_EQ(CountGames(*store_, find).value(), 0);
}

TEST_F(TreeTest, FilterRestrictsTheGamesCounted) {
  // Alice's games: 1, 2, 3, 4 and 9 (5 is a copy of 1); 9 ends at the start. White won 1 and 9,
  // black 2, 3 was drawn, 4 is unfinished; "2021.03.01" sorts before game 9's "2021.??.??".
  GameFilter alice;
  alice.player = "Alice";
  const TreeNode alice_tree = Tree(StateKeyAfter("Standard", ""), alice);
  EXPECT_EQ(CountsOf(alice_tree), (Counts{"", 5, 2, 1, 1, "2021.03.01", "2022.01.05"}));
  EXPECT_EQ(CountsOf(alice_tree.children),
            (std::vector<Counts>{{"(0T1)e3", 3, 1, 1, 1, "2021.03.01", "2022.01.05"},
                                 {"(0T1)Nf3", 1, 0, 0, 0, "", ""}}));
  // Alice with white: games 1 and 4.
  GameFilter alice_white;
  alice_white.white = "alice";
  EXPECT_EQ(CountsOf(Tree(StateKeyAfter("Standard", ""), alice_white).children),
            (std::vector<Counts>{{"(0T1)Nf3", 1, 0, 0, 0, "", ""},
                                 {"(0T1)e3", 1, 1, 0, 0, "2021.03.01", "2021.03.01"}}));
  // Black wins: games 2 and 7.
  GameFilter black_wins;
  black_wins.result = "0-1";
  EXPECT_EQ(CountsOf(Tree(StateKeyAfter("Standard", ""), black_wins).children),
            (std::vector<Counts>{{"(0T1)d3", 1, 0, 0, 1, "2020.12.24", "2020.12.24"},
                                 {"(0T1)e3", 1, 0, 0, 1, "2022.01.05", "2022.01.05"}}));
  // Nobody.
  GameFilter nobody;
  nobody.player = "Nobody";
  const TreeNode nobody_tree = Tree(StateKeyAfter("Standard", ""), nobody);
  EXPECT_EQ(nobody_tree.games, 0);
  EXPECT_TRUE(nobody_tree.children.empty());
}

TEST_F(TreeTest, TableStartsWithThePositionAndIndentsChildren) {
  // The figures of PositionCountsEveryGameThatReachedItAlsoThoseThatEndThere, ScoreIsOverThe-
  // GamesWithAResult and SharesAreOfTheGamesOfTheNodeAbove: 5/8 = 62.5%, 1/8 = 12.5%, scores
  // 3.5/6 = 58.3% and 2/3 = 66.7%; Nf3 and its answer have no result ("-"); the position has no
  // share.
  const TreeNode tree = Tree(StateKeyAfter("Standard", ""), {}, 2);
  std::string table;
  WriteTreeTable(tree, 0, &table);
  EXPECT_EQ(
      table,
      "action       share  games  results  white wins  draws  black wins  derived  score  dates\n"
      "(position)              8        6           3      1           2        0  58.3%  "
      "2020.12.24 - 2023.01.01\n"
      "(0T1)e3      62.5%      5        4           2      1           1        0  62.5%  "
      "2021.03.01 - 2023.01.01\n"
      "  (0T1)e6    80.0%      4        3           2      0           1        0  66.7%  "
      "2021.03.01 - 2023.01.01\n"
      "  (0T1)d6    20.0%      1        1           0      1           0        0  50.0%  "
      "2021.??.??\n"
      "(0T1)Nf3     12.5%      1        0           0      0           0        0      -\n"
      "  (0T1)Nf6  100.0%      1        0           0      0           0        0      -\n"
      "(0T1)d3      12.5%      1        1           0      0           1        0   0.0%  "
      "2020.12.24\n"
      "  (0T1)e6   100.0%      1        1           0      0           1        0   0.0%  "
      "2020.12.24\n");
}

TEST_F(TreeTest, TableLimitSumsUpTheRest) {
  // The rest of e3's answers is d6 (1 of 5 games); the rest of the start's actions are Nf3 and d3
  // (2 of 8: games 4, unfinished, and 7, won by black).
  const TreeNode tree = Tree(StateKeyAfter("Standard", ""), {}, 2);
  std::string table;
  WriteTreeTable(tree, 1, &table);
  EXPECT_EQ(
      table,
      "action              share  games  results  white wins  draws  black wins  derived  score  "
      "dates\n"
      "(position)                     8        6           3      1           2        0  58.3%  "
      "2020.12.24 - 2023.01.01\n"
      "(0T1)e3             62.5%      5        4           2      1           1        0  62.5%  "
      "2021.03.01 - 2023.01.01\n"
      "  (0T1)e6           80.0%      4        3           2      0           1        0  66.7%  "
      "2021.03.01 - 2023.01.01\n"
      "  (1 other action)  20.0%      1        1           0      1           0        0  50.0%  "
      "2021.??.??\n"
      "(2 other actions)   25.0%      2        1           0      0           1        0   0.0%  "
      "2020.12.24\n");
}

TEST_F(TreeTest, TableOfNothing) {
  std::string table;
  WriteTreeTable(TreeNode{}, 0, &table);
  EXPECT_EQ(
      table,
      "action      share  games  results  white wins  draws  black wins  derived  score  dates\n"
      "(position)             0        0           0      0           0        0      -\n");
}

TEST_F(TreeTest, JsonIsThePositionWithItsActions) {
  // After 1. e3: games 1, 2, 3, 6 and 8 (white won 1 and 6, black 2, 3 drawn, 8 unfinished). e6
  // has 4 of them (1, 2, 6 and 8: 80%), d6 1 (20%); after e6, Qh5 has 2 of 4 (50%), Nf3 1 (25%).
  const TreeNode tree = Tree(StateKeyAfter("Standard", "1. e3"), {}, 2);
  std::string json;
  WriteTreeJson(tree, &json);
  EXPECT_EQ(
      json,
      "{\"games\":5,\"results\":4,\"white_wins\":2,\"draws\":1,\"black_wins\":1,\"derived\":0,"
      "\"score\":62.5,\"first_date\":\"2021.03.01\",\"last_date\":\"2023.01.01\","
      "\"actions\":["
      "{\"action\":\"(0T1)e6\",\"games\":4,\"share\":80,\"results\":3,\"white_wins\":2,"
      "\"draws\":0,\"black_wins\":1,\"derived\":0,\"score\":66.67,\"first_date\":"
      "\"2021.03.01\",\"last_date\":\"2023.01.01\",\"children\":["
      "{\"action\":\"(0T2)Qh5\",\"games\":2,\"share\":50,\"results\":2,\"white_wins\":2,"
      "\"draws\":0,\"black_wins\":0,\"derived\":0,\"score\":100,\"first_date\":\"2021.03.01\","
      "\"last_date\":\"2023.01.01\"},"
      "{\"action\":\"(0T2)Nf3\",\"games\":1,\"share\":25,\"results\":1,\"white_wins\":0,"
      "\"draws\":0,\"black_wins\":1,\"derived\":0,\"score\":0,\"first_date\":\"2022.01.05\","
      "\"last_date\":\"2022.01.05\"}]},"
      "{\"action\":\"(0T1)d6\",\"games\":1,\"share\":20,\"results\":1,\"white_wins\":0,"
      "\"draws\":1,\"black_wins\":0,\"derived\":0,\"score\":50,\"first_date\":\"2021.??.??\","
      "\"last_date\":\"2021.??.??\",\"children\":[]}]}");
}

TEST_F(TreeTest, JsonHasChildrenExactlyWhenExpandedAndNullsForWhatIsUnknown) {
  // At depth 1 no action is expanded. Nf3's only game (4) is unfinished and has no date.
  std::string flat;
  WriteTreeJson(Tree(StateKeyAfter("Standard", ""), {}, 1), &flat);
  EXPECT_EQ(flat.find("children"), std::string::npos);
  EXPECT_NE(flat.find("{\"action\":\"(0T1)Nf3\",\"games\":1,\"share\":12.5,\"results\":0,"
                      "\"white_wins\":0,\"draws\":0,\"black_wins\":0,\"derived\":0,\"score\":null,"
                      "\"first_date\":null,\"last_date\":null}"),
            std::string::npos)
      << flat;
  std::string empty;
  WriteTreeJson(TreeNode{}, &empty);
  EXPECT_EQ(empty,
            "{\"games\":0,\"results\":0,\"white_wins\":0,\"draws\":0,\"black_wins\":0,"
            "\"derived\":0,\"score\":null,\"first_date\":null,\"last_date\":null,\"actions\":[]}");
}

}  // namespace
}  // namespace fived

namespace fived {
namespace {

// The trees of depth 1 at every position within the first actions of every game, as the
// statistics kept at ingest give them (no filter) and as the games' records give them (a filter
// that keeps every counted game: originals only), on the sample collections and on games written
// by 5d-index in two runs (the second adds to the first's statistics).
TEST(TreeStatsTest, KeptStatisticsGiveTheTreeTheGamesGive) {
  TempDir dir;
  const std::string db = dir.File("games.sqlite");
  const std::string first = dir.File("first.5dpgn");
  {
    std::ofstream out(first, std::ios::binary);
    out << kStandardGames << "\n" << kTwoTimelineGames;
  }
  ASSERT_EQ(fived::testing::RunIndexer(db, {first}), 0);
  const std::string root = FIVED_SOURCE_DIR;
  ASSERT_LE(fived::testing::RunIndexer(db, {root + "/corpus"}), 1);
  Result<GameStore> opened = GameStore::Open(db);
  ASSERT_TRUE(opened.ok()) << opened.error().message();
  GameStore& store = opened.value();
  Result<Statement> keys =
      store.db().Prepare("SELECT id FROM games WHERE duplicate_of IS NULL ORDER BY id");
  ASSERT_TRUE(keys.ok());
  std::vector<int64_t> ids;
  while (keys.value().Step().value() == StepResult::kRow) ids.push_back(keys.value().Int64(0));
  keys.value().Reset();
  ASSERT_GT(ids.size(), 20u);
  GameFilter every;
  every.originals_only = true;
  int compared = 0;
  for (const int64_t id : ids) {
    Result<GameTexts> texts = store.Texts(id);
    ASSERT_TRUE(texts.ok());
    SyntaxResult syntax = ParseGameSyntax(texts.value().text);
    ASSERT_TRUE(syntax.status.ok());
    std::vector<uint64_t> states;
    ReplayOutcome outcome = ReplayGame(syntax.game, [&](int action, const Position& position) {
      if (action < kPositionStatsActions) states.push_back(position.StateKey());
    });
    ASSERT_TRUE(outcome.status.ok());
    for (const uint64_t key : states) {
      Result<TreeNode> kept = BuildTree(store, key, {}, 1);
      Result<TreeNode> read = BuildTree(store, key, every, 1);
      ASSERT_TRUE(kept.ok() && read.ok());
      std::string kept_json, read_json;
      WriteTreeJson(kept.value(), &kept_json);
      WriteTreeJson(read.value(), &read_json);
      EXPECT_EQ(kept_json, read_json) << "game " << id;
      ++compared;
    }
  }
  EXPECT_GT(compared, 60);
  // A variant's tree (as the explorer asks for it) from the kept statistics, and from the games
  // with a filter that keeps the same ones, agree at every official start in the collection.
  Result<Statement> variants = store.db().Prepare(
      "SELECT DISTINCT variant FROM games WHERE variant <> 'custom' ORDER BY variant");
  ASSERT_TRUE(variants.ok());
  int variants_compared = 0;
  while (variants.value().Step().value() == StepResult::kRow) {
    GameFilter variant;
    variant.variant = std::string(variants.value().Text(0));
    auto start = PositionFromMoves(variant.variant, "");
    ASSERT_TRUE(start.ok()) << variant.variant;
    GameFilter read_filter = variant;
    read_filter.originals_only = true;
    Result<TreeNode> kept = BuildTree(store, start.value().StateKey(), variant, 1);
    Result<TreeNode> read = BuildTree(store, start.value().StateKey(), read_filter, 1);
    ASSERT_TRUE(kept.ok() && read.ok());
    std::string kept_json, read_json;
    WriteTreeJson(kept.value(), &kept_json);
    WriteTreeJson(read.value(), &read_json);
    EXPECT_EQ(kept_json, read_json) << variant.variant;
    ++variants_compared;
  }
  EXPECT_GE(variants_compared, 2);
  // The statistics were used: the start of Standard has rows.
  Result<int64_t> rows =
      QueryInt(store.db(), "SELECT count(*) FROM position_actions WHERE games > 1");
  ASSERT_TRUE(rows.ok());
  EXPECT_GT(rows.value(), 0);
}

// A custom game that starts where Standard starts reaches Standard's positions: the tree of
// Standard's games leaves it out, although the statistics kept at ingest count it.
TEST(TreeStatsTest, AVariantsTreeLeavesOutCustomGamesThatReachItsPositions) {
  TempDir dir;
  const std::string db = dir.File("games.sqlite");
  const std::string games = dir.File("games.5dpgn");
  {
    std::ofstream out(games, std::ios::binary);
    out << "[Board \"Standard\"]\n[Result \"1-0\"]\n\n1. (0T1)e3 / (0T1)e6\n\n"
        << "[Board \"custom\"]\n[Size \"8x8\"]\n[Result \"0-1\"]\n"
        << "[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]\n\n"
        << "1. (0T1)d3 / (0T1)d6\n\n";
  }
  ASSERT_EQ(fived::testing::RunIndexer(db, {games}), 0);
  Result<GameStore> opened = GameStore::Open(db);
  ASSERT_TRUE(opened.ok()) << opened.error().message();
  auto start = PositionFromMoves("Standard", "");
  ASSERT_TRUE(start.ok());
  const uint64_t key = start.value().StateKey();
  Result<TreeNode> every = BuildTree(opened.value(), key, {}, 1);
  ASSERT_TRUE(every.ok());
  EXPECT_EQ(every.value().games, 2);
  GameFilter standard;
  standard.variant = "Standard";
  Result<TreeNode> tree = BuildTree(opened.value(), key, standard, 1);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(tree.value().games, 1);
  ASSERT_EQ(tree.value().children.size(), 1u);
  EXPECT_EQ(tree.value().children[0].action, "(0T1)e3");
  EXPECT_EQ(tree.value().white_wins, 1);
  EXPECT_EQ(tree.value().black_wins, 0);
}

}  // namespace
}  // namespace fived
