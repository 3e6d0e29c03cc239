// Database statistics (query/stats.h) of a small collection indexed by the 5d-index binary: the
// counts, the variants, the players' records, the dates and the distributions, with and without
// a filter; the table and JSON texts.
#include "query/stats.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "tests/query/query_test_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::IndexCollection;
using ::fived::testing::TempDir;

// 14 games: 13 indexed (game 2 a copy of game 1), the last one rejected.
//   id  players   date        result   actions  timelines
//   1   Ann-Bob   2021.03.04  1-0      8        1
//   2   ann-BOB   2021.03.04  1-0      8        1   copy of 1
//   3   Ann-Bob   2021.03.04  *        3        1
//   4   Ann-Bob   2021.03.04  0-1      11       1
//   5   Cat-Dan   2020.05.06  1/2      6        1
//   6   cat-DAN   2020.05.06  1-0      6        1
//   7   Cat-Dan   2020.05.06  0-1      6        1
//   8   Cat-Dan   2020.05.07  *        6        1
//   9   Eve-Fay   2019-01-01  1-0      12       1
//   10  -                              2        1
//   11  Gil-gil   ????.??.??  *        0        1
//   12  - (Turn Zero)                  2        1
//   13  -                              7        2
constexpr const char* kCollection =
    "[White \"Ann\"]\n[Black \"Bob\"]\n[Date \"2021.03.04\"]\n[Result \"1-0\"]\n\n"
    "1. e3 / e6\n2. Nf3 / Nf6\n3. Nc3 / Nc6\n4. Bb5 / Bb4\n\n"
    "[Event \"Copy\"]\n[White \"ann\"]\n[Black \"BOB\"]\n[Date \"2021.03.04\"]\n"
    "[Result \"1-0\"]\n\n1. e3 / e6\n2. Nf3 / Nf6\n3. Nc3 / Nc6\n4. Bb5 / Bb4\n\n"
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

DatabaseStats Compute(GameStore& store, const GameFilter& filter, int top_players) {
  Result<DatabaseStats> stats = ComputeStats(store, filter, top_players);
  EXPECT_TRUE(stats.ok()) << (stats.ok() ? "" : stats.error().message());
  return stats.ok() ? stats.value() : DatabaseStats{};
}

void ExpectPlayer(const PlayerStats& player, const std::string& name, int64_t games, int64_t wins,
                  int64_t draws, int64_t losses) {
  EXPECT_EQ(player.name, name);
  EXPECT_EQ(player.games, games) << name;
  EXPECT_EQ(player.wins, wins) << name;
  EXPECT_EQ(player.draws, draws) << name;
  EXPECT_EQ(player.losses, losses) << name;
}

// The games of each bucket, in order.
std::vector<int64_t> Counts(const std::vector<CountBucket>& buckets) {
  std::vector<int64_t> counts;
  for (const CountBucket& bucket : buckets) counts.push_back(bucket.games);
  return counts;
}

TEST(Stats, CountsTheWholeDatabase) {
  TempDir dir;
  GameStore store = IndexCollection(dir, kCollection);
  const DatabaseStats stats = Compute(store, GameFilter{}, 10);
  // 13 games indexed, of which game 2 is a copy.
  EXPECT_EQ(stats.games, 12);
  EXPECT_EQ(stats.copies, 1);
  EXPECT_EQ(stats.rejected, 1);
  EXPECT_EQ(stats.sources, 1);
  ASSERT_EQ(stats.variants.size(), 2u);
  EXPECT_EQ(stats.variants[0].variant, "Standard");
  EXPECT_EQ(stats.variants[0].games, 11);
  EXPECT_EQ(stats.variants[0].copies, 1);
  EXPECT_EQ(stats.variants[1].variant, "Standard - Turn Zero");
  EXPECT_EQ(stats.variants[1].games, 1);
  EXPECT_EQ(stats.variants[1].copies, 0);

  // The copy (game 2) does not count; names group whatever their case and show as first
  // written; Gil plays himself once, as White.
  ASSERT_EQ(stats.players.size(), 7u);
  ExpectPlayer(stats.players[0], "Cat", 4, 1, 1, 1);
  ExpectPlayer(stats.players[1], "Dan", 4, 1, 1, 1);
  ExpectPlayer(stats.players[2], "Ann", 3, 1, 0, 1);
  ExpectPlayer(stats.players[3], "Bob", 3, 1, 0, 1);
  ExpectPlayer(stats.players[4], "Eve", 1, 1, 0, 0);
  ExpectPlayer(stats.players[5], "Fay", 1, 0, 0, 1);
  ExpectPlayer(stats.players[6], "Gil", 1, 0, 0, 0);

  // "????.??.??" is no date; "2019-01-01" is read as 2019.01.01.
  EXPECT_EQ(stats.first_day, 20190101);
  EXPECT_EQ(stats.last_day, 20210304);
  // Per year, the copy left out.
  ASSERT_EQ(stats.years.size(), 3u);
  EXPECT_EQ(stats.years[0].year, 2019);
  EXPECT_EQ(stats.years[0].games, 1);
  EXPECT_EQ(stats.years[1].year, 2020);
  EXPECT_EQ(stats.years[1].games, 4);
  EXPECT_EQ(stats.years[2].year, 2021);
  EXPECT_EQ(stats.years[2].games, 3);
  EXPECT_EQ(stats.total_actions, 8 + 3 + 11 + 4 * 6 + 12 + 2 + 0 + 2 + 7);
  EXPECT_EQ(Counts(stats.timelines), (std::vector<int64_t>{11, 1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(Counts(stats.lengths), (std::vector<int64_t>{1, 9, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0}));

  // The top players only.
  const DatabaseStats top = Compute(store, GameFilter{}, 3);
  ASSERT_EQ(top.players.size(), 3u);
  EXPECT_EQ(top.players[2].name, "Ann");
  EXPECT_TRUE(Compute(store, GameFilter{}, 0).players.empty());
}

TEST(Stats, FilterRestrictsTheGamesButNotTheRejected) {
  TempDir dir;
  GameStore store = IndexCollection(dir, kCollection);
  GameFilter cat;
  cat.player = "CAT";
  DatabaseStats stats = Compute(store, cat, 10);
  EXPECT_EQ(stats.games, 4);
  EXPECT_EQ(stats.copies, 0);
  EXPECT_EQ(stats.rejected, 1);
  EXPECT_EQ(stats.sources, 1);
  ASSERT_EQ(stats.variants.size(), 1u);
  EXPECT_EQ(stats.variants[0].games, 4);
  ASSERT_EQ(stats.players.size(), 2u);
  ExpectPlayer(stats.players[0], "Cat", 4, 1, 1, 1);
  ExpectPlayer(stats.players[1], "Dan", 4, 1, 1, 1);
  EXPECT_EQ(stats.first_day, 20200506);
  EXPECT_EQ(stats.last_day, 20200507);
  ASSERT_EQ(stats.years.size(), 1u);
  EXPECT_EQ(stats.years[0].year, 2020);
  EXPECT_EQ(stats.years[0].games, 4);
  EXPECT_EQ(stats.total_actions, 24);
  EXPECT_EQ(Counts(stats.lengths)[1], 4);

  // A filter on the copy's headers finds it and counts it as a copy, left out of the games.
  GameFilter copy;
  copy.headers = {{"event", "copy"}};
  stats = Compute(store, copy, 10);
  EXPECT_EQ(stats.games, 0);
  EXPECT_EQ(stats.copies, 1);
  EXPECT_TRUE(stats.players.empty());
  EXPECT_EQ(stats.first_day, 0);

  GameFilter turn_zero;
  turn_zero.variant = "Standard - Turn Zero";
  stats = Compute(store, turn_zero, 10);
  EXPECT_EQ(stats.games, 1);
  EXPECT_TRUE(stats.players.empty());
  EXPECT_EQ(Counts(stats.lengths)[1], 1);
}

DatabaseStats SmallStats() {
  DatabaseStats stats;
  stats.games = 1200;
  stats.copies = 4;
  stats.rejected = 3;
  stats.sources = 2;
  stats.total_actions = 30000;
  stats.variants = {{"Standard", 998, 2}, {"custom", 202, 2}};
  stats.players = {{"Ann", 12, 5, 2, 4}};
  stats.first_day = 20200101;
  stats.last_day = 20211231;
  stats.dated = 1150;
  stats.unreadable_dates = 2;
  stats.years = {{2020, 600}, {2021, 550}};
  stats.white_wins = 300;
  stats.draws = 1;
  stats.black_wins = 250;
  stats.derived_results = 12;
  stats.checkmates = 20;
  stats.stalemates = 1;
  stats.playable = 1170;
  stats.unknown = 6;
  stats.undecided = 3;
  stats.result_conflicts = 1;
  stats.timelines = {{1, 1, 900}, {2, -1, 300}};
  stats.lengths = {{0, 0, 0}, {1, 10, 1200}};
  return stats;
}

TEST(Stats, Table) {
  std::string table;
  WriteStatsTable(SmallStats(), &table);
  EXPECT_EQ(table,
            "games       1,200 (4 copies left out)\n"
            "rejected    3\n"
            "sources     2\n"
            "actions     30,000\n"
            "dates       2020.01.01 to 2021.12.31, 1,150 dated, 50 not (2 have dates that "
            "cannot be read)\n"
            "results     551: 300 white wins, 1 draw, 250 black wins (12 derived from the "
            "ending)\n"
            "endings     20 checkmate, 1 stalemate, 1,170 playable, 6 unknown, 3 not decided; 1 "
            "result conflict\n"
            "\n"
            "variant   games  copies\n"
            "Standard    998       2\n"
            "custom      202       2\n"
            "\n"
            "player  games  wins  draws  losses\n"
            "Ann        12     5      2       4\n"
            "\n"
            "timelines  games\n"
            "1            900\n"
            "2+           300\n"
            "\n"
            "actions  games\n"
            "0            0\n"
            "1-10     1,200\n"
            "\n"
            "year  games\n"
            "2020    600\n"
            "2021    550\n");
  // An empty database: the counts only.
  table.clear();
  WriteStatsTable(DatabaseStats{}, &table);
  EXPECT_EQ(table,
            "games       0 (0 copies left out)\n"
            "rejected    0\n"
            "sources     0\n"
            "actions     0\n");
}

TEST(Stats, Json) {
  std::string json;
  WriteStatsJson(SmallStats(), &json);
  EXPECT_EQ(json,
            "{\"games\":1200,\"copies\":4,\"rejected\":3,\"sources\":2,"
            "\"actions\":30000,\"variants\":[{\"variant\":\"Standard\",\"games\":998,"
            "\"copies\":2},{\"variant\":\"custom\",\"games\":202,\"copies\":2}],"
            "\"players\":[{\"name\":\"Ann\",\"games\":12,\"wins\":5,\"draws\":2,\"losses\":4}],"
            "\"dates\":{\"first\":\"2020.01.01\",\"last\":\"2021.12.31\",\"dated\":1150,"
            "\"undated\":50,\"unreadable\":2,\"years\":[{\"year\":2020,\"games\":600},"
            "{\"year\":2021,\"games\":550}]},"
            "\"results\":{\"white_wins\":300,\"draws\":1,\"black_wins\":250,\"derived\":12},"
            "\"endings\":{\"checkmate\":20,\"stalemate\":1,\"playable\":1170,\"unknown\":6,"
            "\"undecided\":3},\"result_conflicts\":1,"
            "\"timelines\":[{\"range\":\"1\",\"min\":1,\"max\":1,\"games\":900},"
            "{\"range\":\"2+\",\"min\":2,\"max\":null,\"games\":300}],"
            "\"lengths\":[{\"range\":\"0\",\"min\":0,\"max\":0,\"games\":0},"
            "{\"range\":\"1-10\",\"min\":1,\"max\":10,\"games\":1200}]}\n");
  json.clear();
  WriteStatsJson(DatabaseStats{}, &json);
  EXPECT_NE(json.find("\"dates\":{\"first\":null,\"last\":null,\"dated\":0,\"undated\":0,"
                      "\"unreadable\":0,\"years\":[]}"),
            std::string::npos);
}

TEST(Stats, DatesThatCannotBeReadAreCountedAndOutsideTheRange) {
  TempDir dir;
  // One game per date; each plays other moves, so none is a duplicate.
  const std::vector<std::string> dates = {"6-14-2021", "2021.13.01", "????.??.??", "",
                                          "2021.03",   "2020.02.29", "yesterday"};
  const char* const moves[] = {"e3", "d3", "c3", "b3", "a3", "f3", "g3"};
  std::string collection;
  for (size_t i = 0; i < dates.size(); ++i) {
    collection += "[Event \"game " + std::to_string(i + 1) + "\"]\n";
    if (!dates[i].empty()) collection += "[Date \"" + dates[i] + "\"]\n";
    collection += std::string("\n1. ") + moves[i] + "\n\n";
  }
  GameStore store = IndexCollection(dir, collection);
  const DatabaseStats stats = Compute(store, GameFilter{}, 0);
  ASSERT_EQ(stats.games, 7);
  EXPECT_EQ(stats.dated, 2);
  EXPECT_EQ(stats.unreadable_dates, 3);  // "????.??.??" and no Date at all are not unreadable
  EXPECT_EQ(stats.first_day, 20200229);
  EXPECT_EQ(stats.last_day, 20210331);
  // "2021.03" counts in 2021, "2020.02.29" in 2020.
  ASSERT_EQ(stats.years.size(), 2u);
  EXPECT_EQ(stats.years[0].year, 2020);
  EXPECT_EQ(stats.years[0].games, 1);
  EXPECT_EQ(stats.years[1].year, 2021);
  EXPECT_EQ(stats.years[1].games, 1);
}

}  // namespace
}  // namespace fived
