// The tactics of indexed games (5d-index --tactics): every position's mates in one, found,
// missed and allowed, as FindGameTactics finds them and as the database keeps them, with the
// summary's counts. The positions are built by hand and their mating actions counted beside
// them; each count is also held to a brute force that decides the position after every legal
// action, check or not.
#include "indexer/tactics.h"

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "core/rules.h"
#include "core/tactics.h"
#include "indexer/index.h"
#include "indexer/merge.h"
#include "schema/db.h"
#include "schema/meta.h"
#include "schema/tactics.h"
#include "tests/core/game_util.h"
#include "tests/indexer/run_as_tool.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::TempDir;

constexpr uint64_t kBudget = 1'000'000;

// The games of tests/cli/tactics.5dpgn, in order (each starts with its Event header):
// 0. 4x4, white to move: black king a4, white king c2, queen b1. Qb3 mates (a3 and b4 are the
//    queen's, b3 is guarded by the king). The other checks leave a square: Qa1+ and Qa2+ leave
//    b4, Qb4+ is taken by the king (c2 does not guard b4). One mating action; the game plays it.
// 1. The same start; the game plays Qa1+ instead (the king would escape to b4): missed.
// 2. 4x4, white to move: white king a2, black queen b4, king c3. White's only move is Ka1 (b1,
//    b2, b3 and a3 are the queen's or the king's), which allows Qb2#: a2 and b1 are the queen's,
//    b2 is guarded by the king. Qb1+ is taken (c3 does not guard b1), Qa4+ and Qa3+ leave b1;
//    the queen cannot pass its king to d2 or d4. Black plays the mate.
// 3. 8x8, white to move: black king a8, white king b6 (a7, b7), rooks c1 to h1. Each rook up its
//    file to the eighth rank checks along it and covers b8: six mates. Nothing else checks but
//    Rc1-a1/b1 (the king leaves by b8). White plays Rh8.
// 4. Two timelines, 4x4, white to move on both: on L0 black king a4 and white king c2, on L1 a
//    white queen b3. (1T1)Qb3>(0T1)b3 mates across the timelines: on L0 it is game 0's mate, and
//    the king's steps onto L1 (a4, a3, b4, b3 there) are all the queen's, one timeline over;
//    black has nothing else and must also play L1. Not played: white plays Kd1 and Qd3 instead.
// 5. Two timelines, white to move on L0 at T1; L1 (white king c2, queen b3 on each board) is a
//    turn ahead. (1T2)Qb3>(0T1)b3 travels back a turn onto L0's board, game 0's mate. The king's
//    ways out: onto L1's tip at T2 (a4, a3, b4, b3), which the queen covers from L0's next board
//    one turn and one timeline away; onto L1's past board at T1, a new timeline whose copy holds
//    the queen b3 and the king c2. The game plays it.
std::vector<std::string> Games() {
  std::ifstream in(FIVED_SOURCE_DIR "/tests/cli/tactics.5dpgn", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  std::vector<std::string> games;
  for (size_t begin = 0; begin < all.size();) {
    size_t end = all.find("\n[Event ", begin);
    end = end == std::string::npos ? all.size() : end + 1;
    games.push_back(all.substr(begin, end - begin));
    begin = end;
  }
  return games;
}

// Every mating action of the position, by brute force: every legal action's position decided.
uint64_t BruteMates(const Position& pos, const SearchLimits& limits) {
  uint64_t mates = 0;
  const SearchStats stats =
      ForEachLegalAction(pos, limits, [&](const std::vector<Move>&, const Position& after) {
        if (Decide(after, limits).verdict == Decision::Verdict::kCheckmate) ++mates;
        return false;
      });
  EXPECT_EQ(stats.end, SearchEnd::kExhausted);
  return mates;
}

struct Replayed {
  std::optional<Replayer> replayer;
  std::vector<Position> positions;
};

Replayed Replay(const std::string& text) {
  Replayed out;
  const SyntaxResult syntax = ParseGameSyntax(text);
  EXPECT_TRUE(syntax.status.ok()) << text;
  ReplayOutcome outcome =
      ReplayGame(syntax.game, [&](int, const Position& pos) { out.positions.push_back(pos); });
  EXPECT_TRUE(outcome.status.ok())
      << text << (!outcome.status.ok() ? outcome.status.message() : "");
  out.replayer = std::move(outcome.replayer);
  return out;
}

GameTactics Tactics(const Replayed& game) {
  return FindGameTactics(*game.replayer, std::nullopt, kBudget);
}

// The row's mate count, held to the brute force on its position.
void ExpectBruteCount(const Replayed& game, const PositionTactics& row) {
  const Position& pos = game.positions.at(row.action);
  SearchLimits limits;
  limits.promotions = PromotionChoices(game.replayer->setup(), pos);
  EXPECT_EQ(BruteMates(pos, limits), row.mating);
}

// The games of one timeline, whose mates are counted by hand above: each has one row.
struct RowCase {
  int game;  // in Games()
  long positions;
  int action;
  Color side;
  uint64_t mating;
  bool played;
  std::string solution;  // empty: any of the mates
};

TEST(GameTactics, OneTimeline) {
  const RowCase cases[] = {
      {0, 2, 0, Color::kWhite, 1, true, "(0T1)Qb3"},   // found
      {1, 2, 0, Color::kWhite, 1, false, "(0T1)Qb3"},  // missed
      // White had nothing (a lone king checks nothing); Ka1 allowed black's mate, found.
      {2, 3, 1, Color::kBlack, 1, true, "(0T1)Qb2"},
      {3, 2, 0, Color::kWhite, 6, true, ""},  // many mating actions
  };
  for (const RowCase& c : cases) {
    SCOPED_TRACE("game " + std::to_string(c.game));
    const Replayed game = Replay(Games().at(c.game));
    const GameTactics tactics = Tactics(game);
    EXPECT_EQ(tactics.positions, c.positions);
    ASSERT_EQ(tactics.rows.size(), 1u);
    const PositionTactics& row = tactics.rows[0];
    EXPECT_EQ(row.action, c.action);
    EXPECT_EQ(row.side, c.side);
    EXPECT_FALSE(row.unknown);
    EXPECT_EQ(row.mating, c.mating);
    EXPECT_TRUE(row.complete);
    EXPECT_EQ(row.played, c.played);
    if (!c.solution.empty()) {
      EXPECT_EQ(row.solution, c.solution);
    }
    ExpectBruteCount(game, row);
  }
}

// A game of two timelines (4 or 5): the start's mates, counted by the brute force, include
// `mate`, the one worked out by hand, which replays and checkmates; the game played one or not.
void ExpectMateOfTwoTimelines(int index, bool played, const std::string& mate) {
  const Replayed game = Replay(Games().at(index));
  const GameTactics tactics = Tactics(game);
  ASSERT_FALSE(tactics.rows.empty());
  const PositionTactics& row = tactics.rows[0];
  EXPECT_EQ(row.action, 0);
  EXPECT_FALSE(row.unknown);
  EXPECT_TRUE(row.complete);
  EXPECT_GE(row.mating, 1u);
  EXPECT_EQ(row.played, played);
  ExpectBruteCount(game, row);
  std::string text = Games().at(index);
  text = text.substr(0, text.find("1. ")) + "1. " + mate + "\n";
  const Replayed mated = Replay(text);
  SearchLimits limits;
  limits.promotions = PromotionChoices(mated.replayer->setup(), mated.positions.back());
  EXPECT_EQ(Decide(mated.positions.back(), limits).verdict, Decision::Verdict::kCheckmate);
}

TEST(GameTactics, MateAcrossTimelines) { ExpectMateOfTwoTimelines(4, false, "(1T1)Qb3>(0T1)b3"); }

TEST(GameTactics, MateThroughTime) { ExpectMateOfTwoTimelines(5, true, "(1T2)Qb3>(0T1)b3"); }

TEST(GameTactics, OutOfBudgetClaimsNothing) {
  // The missed mate's game: its search stops long before every action is tried (a budget of 1
  // move, which a position of few actions may raise to 50 at most, 5 actions: the first position
  // has more).
  const Replayed game = Replay(Games().at(1));
  const GameTactics tactics = FindGameTactics(*game.replayer, std::nullopt, 1);
  ASSERT_FALSE(tactics.rows.empty());
  EXPECT_TRUE(tactics.rows[0].unknown);
  EXPECT_TRUE(tactics.rows[0].solution.empty());
  EXPECT_FALSE(tactics.rows[0].played.has_value());
}

TEST(GameTactics, AGameEndingInCheckmateProvesTheMateBeforeIt) {
  // Six mates, Rh8 played, and the ending proved a checkmate (as the indexer decides it): the
  // search runs out of budget, but the action played is a mate.
  const Replayed game = Replay(Games().at(3));
  const GameTactics tactics =
      FindGameTactics(*game.replayer, Decision::Verdict::kCheckmate, /*budget=*/3);
  ASSERT_FALSE(tactics.rows.empty());  // the mated position may be unknown at this budget
  const PositionTactics& row = tactics.rows[0];
  EXPECT_EQ(row.action, 0);
  EXPECT_FALSE(row.unknown);
  EXPECT_EQ(row.mating, 1u);
  EXPECT_FALSE(row.complete);
  EXPECT_EQ(row.solution, "(0T1)Rh8");
  EXPECT_EQ(row.played, true);
}

TEST(GameTactics, AMateByAPromotionTheChoicesDoNotOfferIsStillAMate) {
  // No board holds a piece a pawn could become, so the players' choices offer none (core/rules.h)
  // and the search finds no mate; but the replay accepts c4=Q, as real files promote, and the
  // queen mates (Kb2 covers a3 and b3, the queen b4 and the fourth rank). The game ends in a
  // proven checkmate: the position before it had a mate in one, found.
  const Replayed game =
      Replay("[Board \"custom\"]\n[Size \"4x4\"]\n[k3/2P1/1K2/4:0:1:w]\n\n1. c4=Q\n");
  ASSERT_TRUE(game.replayer);
  // The ending as the indexer decided it, or not decided (5d-index --skip-endings): the same.
  for (const std::optional<Decision::Verdict> ending :
       {std::optional<Decision::Verdict>(Decision::Verdict::kCheckmate),
        std::optional<Decision::Verdict>()}) {
    const GameTactics tactics = FindGameTactics(*game.replayer, ending, kBudget);
    ASSERT_EQ(tactics.rows.size(), 1u);
    const PositionTactics& row = tactics.rows[0];
    EXPECT_EQ(row.action, 0);
    EXPECT_EQ(row.side, Color::kWhite);
    EXPECT_FALSE(row.unknown);
    EXPECT_EQ(row.mating, 1u);
    EXPECT_FALSE(row.complete);
    EXPECT_EQ(row.solution, "(0T1)c4=Q");
    EXPECT_EQ(row.played, true);
  }
}

// What the tactics table holds for a database's games, as "game:action:side:mating:played:
// solution" lines.
std::vector<std::string> StoredRows(const std::string& path) {
  std::vector<std::string> out;
  Result<Database> db = OpenDatabase(path, OpenMode::kReadOnly);
  EXPECT_TRUE(db.ok());
  if (!db.ok()) return out;
  for (int64_t game = 1; game <= 5; ++game) {
    Result<std::vector<PositionTactics>> rows = ReadGameTactics(db.value(), game);
    EXPECT_TRUE(rows.ok());
    for (const PositionTactics& row : rows.value()) {
      out.push_back(std::to_string(game) + ":" + std::to_string(row.action) + ":" +
                    (row.side == Color::kWhite ? "w" : "b") + ":" + std::to_string(row.mating) +
                    ":" + (row.played ? (*row.played ? "found" : "missed") : "-") + ":" +
                    row.solution);
    }
  }
  return out;
}

TEST(IndexTactics, StoresTheMatesAndCountsThem) {
  TempDir dir;
  const std::string input = dir.File("games.5dpgn");
  const std::vector<std::string> games = Games();
  std::ofstream(input) << games.at(0) << games.at(1) << games.at(2) << games.at(3);
  IndexOptions options;
  options.database = dir.File("games.sqlite");
  options.inputs = {input};
  options.tactics = true;
  std::ostringstream out, err;
  IndexSummary summary;
  ASSERT_EQ(testing::IndexAsTool(options, out, err, &summary), 0) << err.str();
  EXPECT_TRUE(summary.tactics);
  EXPECT_EQ(summary.tactic_positions, 2 + 2 + 3 + 2);
  EXPECT_EQ(summary.tactic_mates, 4);
  EXPECT_EQ(summary.tactic_found, 3);
  EXPECT_EQ(summary.tactic_missed, 1);
  EXPECT_EQ(summary.tactic_unknown, 0);
  EXPECT_NE(err.str().find(": mates in one in 9 positions searched: 4 positions with a mate (3 "
                           "found, 1 missed), 0 unknown\n"),
            std::string::npos)
      << err.str();
  const std::vector<std::string> rows = StoredRows(options.database);
  const std::vector<std::string> expected = {"1:0:w:1:found:(0T1)Qb3", "2:0:w:1:missed:(0T1)Qb3",
                                             "3:1:b:1:found:(0T1)Qb2"};
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(rows.begin(), rows.begin() + 3), expected);
  EXPECT_EQ(rows[3].substr(0, 15), "4:0:w:6:found:(");
  {
    Result<Database> db = OpenDatabase(options.database, OpenMode::kReadOnly);
    ASSERT_TRUE(db.ok());
    EXPECT_EQ(ReadTactics(db.value()).value(), true);
    EXPECT_EQ(ReadTacticsVersion(db.value()).value(), kTacticsVersion);
  }
  EXPECT_EQ(err.str().find("earlier build"), std::string::npos) << err.str();

  // Indexing more into it keeps its tactics, with or without the option.
  const std::string more = dir.File("more.5dpgn");
  std::ofstream(more) << games.at(4);
  options.inputs = {more};
  options.tactics = false;
  ASSERT_EQ(testing::IndexAsTool(options, out, err, &summary), 0) << err.str();
  EXPECT_EQ(summary.tactic_positions, 2);
  EXPECT_GE(summary.tactic_mates, 1);
  EXPECT_EQ(summary.tactic_missed, 1);
}

TEST(IndexTactics, NeedsANewDatabase) {
  TempDir dir;
  const std::string input = dir.File("games.5dpgn");
  std::ofstream(input) << Games().at(0);
  IndexOptions options;
  options.database = dir.File("games.sqlite");
  options.inputs = {input};
  std::ostringstream out, err;
  IndexSummary summary;
  ASSERT_EQ(testing::IndexAsTool(options, out, err, &summary), 0) << err.str();
  EXPECT_FALSE(summary.tactics);
  EXPECT_EQ(err.str().find("mates in one"), std::string::npos) << err.str();
  EXPECT_TRUE(StoredRows(options.database).empty());

  options.tactics = true;
  std::ostringstream out2, err2;
  EXPECT_EQ(testing::IndexAsTool(options, out2, err2), 3);
  EXPECT_NE(err2.str().find("this database was made without --tactics; --tactics needs a new "
                            "database"),
            std::string::npos)
      << err2.str();
}

// Sets meta.tactics_version of `database` as an earlier build would have left it: `version`, or
// no row at all (nullopt: a database made before the row existed).
void MarkAsEarlierBuild(const std::string& database, std::optional<int> version) {
  Result<Database> db = OpenDatabase(database, OpenMode::kReadWrite);
  ASSERT_TRUE(db.ok());
  if (version) {
    ASSERT_TRUE(WriteTacticsVersion(db.value(), *version).ok());
  } else {
    ASSERT_TRUE(db.value().Exec("DELETE FROM meta WHERE key = 'tactics_version'").ok());
  }
}

int StoredTacticsVersion(const std::string& database) {
  Result<Database> db = OpenDatabase(database, OpenMode::kReadOnly);
  EXPECT_TRUE(db.ok());
  if (!db.ok()) return -1;
  return ReadTacticsVersion(db.value()).value();
}

// A database whose mates in one an earlier build found says so each time games are added, and
// keeps saying so: the games added by this build do not make the older ones' answers current.
TEST(IndexTactics, AnEarlierBuildsSearchIsSaidAndKept) {
  TempDir dir;
  const std::string input = dir.File("games.5dpgn");
  const std::vector<std::string> games = Games();
  std::ofstream(input) << games.at(0);
  IndexOptions options;
  options.database = dir.File("games.sqlite");
  options.inputs = {input};
  options.tactics = true;
  std::ostringstream out, err;
  ASSERT_EQ(testing::IndexAsTool(options, out, err), 0) << err.str();
  MarkAsEarlierBuild(options.database, std::nullopt);
  EXPECT_EQ(StoredTacticsVersion(options.database), 1);

  const std::string more = dir.File("more.5dpgn");
  std::ofstream(more) << games.at(1);
  options.inputs = {more};
  std::ostringstream out2, err2;
  IndexSummary summary;
  ASSERT_EQ(testing::IndexAsTool(options, out2, err2, &summary), 0) << err2.str();
  EXPECT_EQ(summary.tactics_version, 1);
  EXPECT_NE(err2.str().find(": " + OlderTacticsText(1) + "\n"), std::string::npos) << err2.str();
  EXPECT_EQ(StoredTacticsVersion(options.database), 1);

  // A database of an earlier build without games holds none of its answers: it takes this
  // build's version with its first games.
  const std::string empty = dir.File("empty.5dpgn");
  std::ofstream(empty) << "";
  options.database = dir.File("empty.sqlite");
  options.inputs = {empty};
  std::ostringstream out3, err3;
  ASSERT_EQ(testing::IndexAsTool(options, out3, err3), 0) << err3.str();
  MarkAsEarlierBuild(options.database, std::nullopt);
  options.inputs = {more};
  std::ostringstream out4, err4;
  ASSERT_EQ(testing::IndexAsTool(options, out4, err4, &summary), 0) << err4.str();
  EXPECT_EQ(summary.tactics_version, kTacticsVersion);
  EXPECT_EQ(err4.str().find("earlier build"), std::string::npos) << err4.str();
  EXPECT_EQ(StoredTacticsVersion(options.database), kTacticsVersion);
}

// A merge keeps the oldest search of its inputs (and of its output, when that has games).
TEST(IndexTactics, AMergeKeepsTheOldestSearch) {
  TempDir dir;
  const std::vector<std::string> games = Games();
  std::vector<std::string> databases;
  for (int i = 0; i < 3; ++i) {
    const std::string input = dir.File("games" + std::to_string(i) + ".5dpgn");
    std::ofstream(input) << games.at(i);
    IndexOptions options;
    options.database = dir.File("shard" + std::to_string(i) + ".sqlite");
    options.inputs = {input};
    options.tactics = true;
    std::ostringstream out, err;
    ASSERT_EQ(testing::IndexAsTool(options, out, err), 0) << err.str();
    databases.push_back(options.database);
  }
  auto merge = [&](const std::string& output, std::vector<std::string> inputs) {
    MergeOptions options;
    options.output = output;
    options.inputs = std::move(inputs);
    std::ostringstream out, err;
    EXPECT_EQ(testing::MergeAsTool(options, out, err), 0) << err.str();
  };
  const std::string current = dir.File("current.sqlite");
  merge(current, {databases[0], databases[1]});
  EXPECT_EQ(StoredTacticsVersion(current), kTacticsVersion);

  MarkAsEarlierBuild(databases[1], 1);
  const std::string mixed = dir.File("mixed.sqlite");
  merge(mixed, {databases[0], databases[1]});
  EXPECT_EQ(StoredTacticsVersion(mixed), 1);

  // Into an output with games of an earlier search, from inputs of this one.
  MarkAsEarlierBuild(current, std::nullopt);
  merge(current, {databases[2]});
  EXPECT_EQ(StoredTacticsVersion(current), 1);
}

}  // namespace
}  // namespace fived
