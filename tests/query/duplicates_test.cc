// Duplicate groups (query/duplicates.h) on small collections indexed by the 5d-index binary:
// exact copies (the same moves, and the players' names in other spellings), games that only share
// their moves, an unfinished copy and a chain of them, a short game that begins two diverging
// games, twins and near-twins, games that match nothing; the export keeps the most complete copy
// of each set and every game of a same-moves group; the table and JSON texts.
#include "query/duplicates.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/query/query_test_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::IndexCollection;
using ::fived::testing::TempDir;

// Ids in the order given, games 1 to 13 (a fourteenth is rejected):
//   1  Ann-Bob 2021.03.04, 8 actions
//   2  a copy of 1 with other headers and a comment
//   3  the first 3 actions of 1
//   4  1 and 3 more actions (11): 3 and 1 are its start
//   5  Cat-Dan 2020.05.06, 6 actions
//   6  cat-DAN 2020.05.06: the first 4 actions of 5, then others (a twin of 5 from 4 actions)
//   7  Cat-Dan 2020.05.06, other moves from the second action
//   8  Cat-Dan 2020.05.07: the first 4 actions of 5, another day
//   9  Eve-Fay, 12 actions, the same first 2 actions as 1, then others
//  10  no players: 1. e3 / e6, the start of 1, 3, 4 and 9; 9 is the longest
//  11  Gil-gil, no move (the start of every Standard game, so left out)
//  12  Turn Zero: 1. d3 / d6
//  13  a branching game (two timelines), 7 actions
constexpr const char* kCollection =
    "[White \"Ann\"]\n[Black \"Bob\"]\n[Date \"2021.03.04\"]\n[Result \"1-0\"]\n\n"
    "1. e3 / e6\n2. Nf3 / Nf6\n3. Nc3 / Nc6\n4. Bb5 / Bb4\n\n"
    "[Event \"Copy\"]\n[Site \"Elsewhere\"]\n[White \"ann\"]\n[Black \"BOB\"]\n"
    "[Date \"2021.03.04\"]\n[Result \"1-0\"]\n\n"
    "1. e3 / e6 {the usual}\n2. Nf3 / Nf6\n3. Nc3 / Nc6\n4. Bb5 / Bb4\n\n"
    "[White \"Ann\"]\n[Black \"Bob\"]\n[Date \"2021.03.04\"]\n[Result \"*\"]\n\n"
    "1. e3 / e6\n2. Nf3\n\n"
    "[White \"Ann\"]\n[Black \"Bob\"]\n[Date \"2021.03.04\"]\n[Result \"0-1\"]\n\n"
    "1. e3 / e6\n2. Nf3 / Nf6\n3. Nc3 / Nc6\n4. Bb5 / Bb4\n5. a3 / a6\n6. h3\n\n"
    "[White \"Cat\"]\n[Black \"Dan\"]\n[Date \"2020.05.06\"]\n[Result \"1/2-1/2\"]\n\n"
    "1. d3 / d6\n2. Bd2 / Bd7\n3. Nc3 / Nc6\n\n"
    "[White \"cat\"]\n[Black \"DAN\"]\n[Date \"2020.05.06\"]\n[Result \"1-0\"]\n\n"
    "1. d3 / d6\n2. Bd2 / Bd7\n3. Nf3 / Nf6\n\n"
    "[White \"Cat\"]\n[Black \"Dan\"]\n[Date \"2020.05.06\"]\n[Result \"0-1\"]\n\n"
    "1. d3 / e6\n2. Bd2 / Bd6\n3. Nf3 / Nf6\n\n"
    "[White \"Cat\"]\n[Black \"Dan\"]\n[Date \"2020.05.07\"]\n[Result \"*\"]\n\n"
    "1. d3 / d6\n2. Bd2 / Bd7\n3. h3 / h6\n\n"
    "[White \"Eve\"]\n[Black \"Fay\"]\n[Date \"2019-01-01\"]\n[Result \"1-0\"]\n\n"
    "1. e3 / e6\n2. h3 / h6\n3. a3 / a6\n4. b3 / b6\n5. g3 / g6\n6. Nf3 / Nf6\n\n"
    "[Board \"Standard\"]\n\n1. e3 / e6\n\n"
    "[White \"Gil\"]\n[Black \"gil\"]\n[Date \"????.??.??\"]\n[Result \"*\"]\n\n"
    "[Board \"Standard - Turn Zero\"]\n\n1. d3 / d6\n\n"
    "[Board \"Standard\"]\n\n1. e3 / Nf6\n2. Nf3 / Nc6\n3. Bb5 / Nb4\n4. (0T4)Nb1>>(0T3)b3\n\n"
    "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. e4 / Nxe5\n";

std::vector<DuplicateGroup> Find(GameStore& store, int twin_actions) {
  DuplicateOptions options;
  options.twin_actions = twin_actions;
  Result<std::vector<DuplicateGroup>> groups = FindDuplicates(store, options);
  EXPECT_TRUE(groups.ok()) << (groups.ok() ? "" : groups.error().message());
  return groups.ok() ? groups.value() : std::vector<DuplicateGroup>{};
}

void ExpectGroup(const DuplicateGroup& group, const std::string& kind,
                 const std::vector<int64_t>& ids, const std::string& reason) {
  EXPECT_EQ(group.kind, kind);
  EXPECT_EQ(group.ids, ids);
  EXPECT_EQ(group.reason, reason);
}

TEST(Duplicates, FindsExactCopiesPrefixesAndTwins) {
  TempDir dir;
  int status = 0;
  GameStore store = IndexCollection(dir, kCollection, &status);
  EXPECT_EQ(status, 1);  // the last game is rejected
  const std::vector<DuplicateGroup> groups = Find(store, 4);
  ASSERT_EQ(groups.size(), 4u);
  // 2 is 1: the same players in other spellings, the same date and result; another event and a
  // comment.
  ExpectGroup(groups[0], "exact", {1, 2},
              "same variant (Standard), start and 8 actions; same players, date and result where "
              "both have them");
  // The chain 3 < 1 < 4 is one group, the complete game first; 2 stands with its copy 1.
  ExpectGroup(groups[1], "prefix", {4, 1, 3},
              "games 1 (8 actions) and 3 (3 actions) are the start of game 4 (11 actions)");
  // 10 begins 1, 3, 4 and 9, which diverge: it goes with the longest.
  ExpectGroup(groups[2], "prefix", {9, 10},
              "game 10 (2 actions) is the start of game 9 (12 actions)");
  // 5 and 6 agree on 4 actions; 7 differs at its second, 8 is of another day.
  ExpectGroup(groups[3], "twin", {5, 6},
              "same players (Cat, Dan), date 2020.05.06 and first 4 actions");
  // Each group names its games' players, dates and results as written, and which one a copy
  // copies; missing headers are empty.
  ASSERT_EQ(groups[0].games.size(), 2u);
  EXPECT_EQ(groups[0].games[0].id, 1);
  EXPECT_EQ(groups[0].games[0].white, "Ann");
  EXPECT_EQ(groups[0].games[0].black, "Bob");
  EXPECT_EQ(groups[0].games[0].date, "2021.03.04");
  EXPECT_EQ(groups[0].games[0].result, "1-0");
  EXPECT_EQ(groups[0].games[0].duplicate_of, 0);
  EXPECT_EQ(groups[0].games[1].id, 2);
  EXPECT_EQ(groups[0].games[1].white, "ann");
  EXPECT_EQ(groups[0].games[1].black, "BOB");
  EXPECT_EQ(groups[0].games[1].duplicate_of, 1);
  ASSERT_EQ(groups[2].games.size(), 2u);
  EXPECT_EQ(groups[2].games[1].id, 10);
  EXPECT_EQ(groups[2].games[1].white, "");
  EXPECT_EQ(groups[2].games[1].date, "");
  for (const DuplicateGroup& group : groups) {
    ASSERT_EQ(group.games.size(), group.ids.size());
    for (size_t i = 0; i < group.ids.size(); ++i) EXPECT_EQ(group.games[i].id, group.ids[i]);
  }
}

TEST(Duplicates, TwinsNeedTheirFirstActionsOnBothSides) {
  TempDir dir;
  int status = 0;
  GameStore store = IndexCollection(dir, kCollection, &status);
  // 5 and 6 have 6 actions: with the default of 10 they are not twins.
  std::vector<DuplicateGroup> groups = Find(store, DuplicateOptions{}.twin_actions);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[2].kind, "prefix");
  // Agreeing on their first action only, 7 joins 5 and 6; 8 is still of another day.
  groups = Find(store, 1);
  ASSERT_EQ(groups.size(), 4u);
  ExpectGroup(groups[3], "twin", {5, 6, 7},
              "same players (Cat, Dan), date 2020.05.06 and first 1 action");
}

TEST(Duplicates, GamesThatMatchNothingGiveNoGroup) {
  TempDir dir;
  int status = 0;
  // Another start (Turn Zero), a game without moves and a branching game.
  GameStore store = IndexCollection(dir,
                                    "[Board \"Standard - Turn Zero\"]\n\n1. d3 / d6\n\n"
                                    "[White \"Gil\"]\n[Black \"Hal\"]\n\n"
                                    "[Board \"Standard\"]\n\n1. e3 / Nf6\n2. Nf3 / Nc6\n"
                                    "3. Bb5 / Nb4\n4. (0T4)Nb1>>(0T3)b3\n\n"
                                    "[Board \"Standard\"]\n\n1. e3\n",
                                    &status);
  EXPECT_EQ(status, 0);
  // The last game is the start of the third; the game without moves begins both but is left
  // out.
  const std::vector<DuplicateGroup> groups = Find(store, 1);
  ASSERT_EQ(groups.size(), 1u);
  ExpectGroup(groups[0], "prefix", {3, 4}, "game 4 (1 action) is the start of game 3 (7 actions)");
  std::string table;
  WriteDuplicatesTable({}, &table);
  EXPECT_EQ(table, "no duplicates\n");
}

std::string Export(GameStore& store, const std::vector<DuplicateGroup>& groups, bool collapse_twins,
                   int* written) {
  ExportUniqueOptions options;
  options.collapse_twins = collapse_twins;
  std::ostringstream out;
  Result<int> result = ExportUnique(store, groups, out, options);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message());
  *written = result.ok() ? result.value() : -1;
  return out.str();
}

TEST(Duplicates, ExportKeepsTheLongestCopyOfEachSet) {
  TempDir dir;
  int status = 0;
  GameStore store = IndexCollection(dir, kCollection, &status);
  const std::vector<DuplicateGroup> groups = Find(store, 4);
  // {1, 2} and {4, 1, 3} are one set, of which 4 is the longest; of {9, 10} 9 is kept; the twins
  // 5 and 6 are both kept.
  int written = 0;
  const std::string exported = Export(store, groups, false, &written);
  EXPECT_EQ(written, 9);
  std::string expected;
  for (int64_t id : {4, 5, 6, 7, 8, 9, 11, 12, 13}) {
    Result<GameTexts> texts = store.Texts(id);
    ASSERT_TRUE(texts.ok());
    std::string text = texts.value().text;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    if (!expected.empty()) expected += "\n";
    expected += text + "\n";
  }
  EXPECT_EQ(exported, expected);
  EXPECT_NE(exported.find("6. h3\n"), std::string::npos);

  // Collapsed, the twins keep one game: 5 and 6 have as many actions and headers and no
  // comment, so the lower id.
  const std::string collapsed = Export(store, groups, true, &written);
  EXPECT_EQ(written, 8);
  EXPECT_EQ(collapsed.find("[White \"cat\"]"), std::string::npos);
  EXPECT_NE(collapsed.find("3. Nc3 / Nc6\n"), std::string::npos);
}

TEST(Duplicates, ExportPrefersHeadersThenCommentsThenTheLowestId) {
  TempDir dir;
  int status = 0;
  GameStore store = IndexCollection(dir,
                                    "[White \"P\"]\n[Black \"Q\"]\n\n1. e3 / e6\n\n"
                                    "[White \"P\"]\n[Black \"Q\"]\n\n1. e3 {good} / e6\n\n"
                                    "[White \"P\"]\n[Black \"Q\"]\n[Event \"E\"]\n\n1. e3 / e6\n\n"
                                    "[White \"R\"]\n\n1. d3 / d6\n\n"
                                    "[White \"R\"]\n\n1. d3 {x} / d6\n\n"
                                    "[White \"S\"]\n\n1. h3\n\n"
                                    "[White \"S\"]\n\n1. h3\n",
                                    &status);
  EXPECT_EQ(status, 0);
  const std::vector<DuplicateGroup> groups = Find(store, 10);
  ASSERT_EQ(groups.size(), 3u);
  const std::string copies = "; same players, date and result where both have them";
  ExpectGroup(groups[0], "exact", {1, 2, 3},
              "same variant (Standard), start and 2 actions" + copies);
  ExpectGroup(groups[2], "exact", {6, 7}, "same variant (Standard), start and 1 action" + copies);
  int written = 0;
  EXPECT_EQ(Export(store, groups, false, &written),
            "[White \"P\"]\n[Black \"Q\"]\n[Event \"E\"]\n\n1. e3 / e6\n\n"
            "[White \"R\"]\n\n1. d3 {x} / d6\n\n"
            "[White \"S\"]\n\n1. h3\n");
  EXPECT_EQ(written, 3);
  // Without groups, everything is written.
  Export(store, {}, false, &written);
  EXPECT_EQ(written, 7);
}

// Games that only share their moves are different games: a same-moves group, whose games the
// prefix search names together and the twin search takes one by one.
//   1  A-B 2021.01.01 1-0   1. e3 / e6
//   2  C-D 2021.01.02 1-0   1. e3 / e6          the same moves as 1, other players and date
//   3  E-F 2021.01.03       1. e3 / e6 ... 3. Nc3 / Nc6 (6 actions): 1 and 2 are its start
//   4  C-D 2021.01.02       1. e3 / e6          a copy of 2 (no result: nothing conflicts)
//   5  G-H 2022.05.05 1-0   1. d3 / d6 2. Bd2 / Bd7
//   6  G-H 2022.05.05 0-1   the same moves as 5: another result
//   7  G-H 2022.05.05 *     1. d3 / d6 2. Nc3 / Nc6: a twin of 5 and 6 for 2 actions
TEST(Duplicates, GamesWithTheSameMovesAreAGroupOfTheirOwn) {
  TempDir dir;
  int status = 0;
  GameStore store = IndexCollection(
      dir,
      "[White \"A\"]\n[Black \"B\"]\n[Date \"2021.01.01\"]\n[Result \"1-0\"]\n\n1. e3 / e6\n\n"
      "[White \"C\"]\n[Black \"D\"]\n[Date \"2021.01.02\"]\n[Result \"1-0\"]\n\n1. e3 / e6\n\n"
      "[White \"E\"]\n[Black \"F\"]\n[Date \"2021.01.03\"]\n\n"
      "1. e3 / e6\n2. Nf3 / Nf6\n3. Nc3 / Nc6\n\n"
      "[White \"C\"]\n[Black \"D\"]\n[Date \"2021.01.02\"]\n\n1. e3 / e6\n\n"
      "[White \"G\"]\n[Black \"H\"]\n[Date \"2022.05.05\"]\n[Result \"1-0\"]\n\n"
      "1. d3 / d6\n2. Bd2 / Bd7\n\n"
      "[White \"G\"]\n[Black \"H\"]\n[Date \"2022.05.05\"]\n[Result \"0-1\"]\n\n"
      "1. d3 / d6\n2. Bd2 / Bd7\n\n"
      "[White \"G\"]\n[Black \"H\"]\n[Date \"2022.05.05\"]\n[Result \"*\"]\n\n"
      "1. d3 / d6\n2. Nc3 / Nc6\n",
      &status);
  EXPECT_EQ(status, 0);
  const std::vector<DuplicateGroup> groups = Find(store, 2);
  ASSERT_EQ(groups.size(), 5u);
  ExpectGroup(groups[0], "exact", {2, 4},
              "same variant (Standard), start and 2 actions; same players, date and result where "
              "both have them");
  ExpectGroup(groups[1], "same-moves", {1, 2},
              "same variant (Standard), start and 2 actions; different players or dates");
  ExpectGroup(groups[2], "same-moves", {5, 6},
              "same variant (Standard), start and 4 actions; different results");
  ExpectGroup(groups[3], "prefix", {3, 1, 2},
              "games 1 (2 actions) and 2 (2 actions) are the start of game 3 (6 actions)");
  ExpectGroup(groups[4], "twin", {5, 6, 7},
              "same players (G, H), date 2022.05.05 and first 2 actions");
  // 5 and 6 alone are not twins: they played the same moves throughout.
  const std::vector<DuplicateGroup> without_7 = Find(store, 4);
  for (const DuplicateGroup& group : without_7) EXPECT_NE(group.kind, "twin");

  // {2, 4} and {3, 1, 2} are one set, of which 3 is the longest; 5 and 6 are different games,
  // and so is their twin 7, unless twins are collapsed (then 5, the lowest id of equals).
  int written = 0;
  Export(store, groups, false, &written);
  EXPECT_EQ(written, 4);
  std::vector<int64_t> ids;
  std::ostringstream out;
  ASSERT_TRUE(ExportUnique(store, groups, out, {}, &ids).ok());
  EXPECT_EQ(ids, (std::vector<int64_t>{3, 5, 6, 7}));
  ids.clear();
  ASSERT_TRUE(ExportUnique(store, groups, out, {.collapse_twins = true}, &ids).ok());
  EXPECT_EQ(ids, (std::vector<int64_t>{3, 5}));
}

TEST(Duplicates, TableAndJson) {
  const std::vector<DuplicateGroup> groups = {
      {"exact",
       {1, 2},
       "same variant (Standard), start and 8 actions",
       {{1, "Ann", "Bob", "2021.03.04", "1-0", 0}, {2, "ann", "BOB", "", "", 1}}},
      {"same-moves", {7, 9}, "same variant (Standard), start and 4 actions; different results", {}},
      {"prefix",
       {4, 1, 3},
       "games 1 (8 actions) and 3 (3 actions) are the start of game 4 (11 actions)",
       {}},
      {"twin", {5, 6}, "same players (Cat, \"Dan\"), date 2020.05.06 and first 4 actions", {}}};
  std::string table;
  WriteDuplicatesTable(groups, &table);
  EXPECT_EQ(table,
            "exact      ids 1, 2\n"
            "           same variant (Standard), start and 8 actions\n\n"
            "same-moves ids 7, 9\n"
            "           same variant (Standard), start and 4 actions; different results\n\n"
            "prefix     ids 4, 1, 3\n"
            "           games 1 (8 actions) and 3 (3 actions) are the start of game 4 (11 "
            "actions)\n\n"
            "twin       ids 5, 6\n"
            "           same players (Cat, \"Dan\"), date 2020.05.06 and first 4 actions\n\n"
            "4 groups of 9 games: 1 exact, 1 same-moves, 1 prefix, 1 twin\n");
  std::string json;
  WriteDuplicatesJson(groups, &json);
  EXPECT_EQ(
      json,
      "[{\"kind\":\"exact\",\"ids\":[1,2],\"reason\":\"same variant (Standard), start and 8 "
      "actions\",\"games\":[{\"id\":1,\"white\":\"Ann\",\"black\":\"Bob\",\"date\":"
      "\"2021.03.04\",\"result\":\"1-0\",\"duplicate_of\":null},{\"id\":2,\"white\":\"ann\","
      "\"black\":\"BOB\",\"date\":\"\",\"result\":\"\",\"duplicate_of\":1}]},"
      "{\"kind\":\"same-moves\",\"ids\":[7,9],\"reason\":\"same variant (Standard), "
      "start and 4 actions; different results\",\"games\":[]},{\"kind\":\"prefix\",\"ids\":"
      "[4,1,3],\"reason\":\"games 1 (8 actions) and 3 (3 actions) are the start of game 4 (11 "
      "actions)\",\"games\":[]},{\"kind\":\"twin\",\"ids\":[5,6],\"reason\":\"same players "
      "(Cat, \\\"Dan\\\"), date 2020.05.06 and first 4 actions\",\"games\":[]}]\n");
  json.clear();
  WriteDuplicatesJson({}, &json);
  EXPECT_EQ(json, "[]\n");
}

}  // namespace
}  // namespace fived
