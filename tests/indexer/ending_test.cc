// How the indexer stores the ending of every game: the verdict on the final position, the side in
// check, the witness of a playable position, the work, and whether the verdict contradicts the
// game's result; the counts of the run's summary; and the same verdicts as `--check --verdict`.
// Every position below is a 4x4 custom board whose ending is worked out by hand.
#include "schema/ending.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "indexer/check.h"
#include "indexer/index.h"
#include "schema/db.h"
#include "tests/indexer/run_as_tool.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::TempDir;

struct EndingCase {
  const char* why;
  std::string text;
  int64_t verdict;                 // games.verdict
  std::optional<int64_t> checked;  // games.checked_side
  bool conflict;                   // games.result_conflict
};

std::string Custom(const std::string& headers, const std::string& board, const std::string& moves) {
  return "[Board \"custom\"]\n[Size \"4x4\"]\n" + headers + board + "\n" + moves + "\n\n";
}

// Black king a4 mated by a white queen on b3 guarded by the king on c2 (a3 and b4 are the
// queen's, b3 is guarded, b3-a4 is check; one board, no earlier black board to escape to),
// reached from four starting squares of the queen so that no game repeats another; white king a1
// mated the same way by black; black king a4 stalemated by a queen on b2 (a3, b3, b4 are the
// queen's, a4 is not attacked); a mate escaped only by travelling back in time, and a lone king.
std::vector<EndingCase> Cases() {
  const std::string result_10 = "[Result \"1-0\"]\n";
  return {
      {"mate of black, 1-0 agrees", Custom(result_10, "[k3/4/2K1/1Q2:0:1:w]", "1. Qb3"),
       kVerdictCheckmate, 1, false},
      {"mate of black, 0-1 says black won",
       Custom("[Result \"0-1\"]\n", "[k3/4/1QK1/4:0:1:w]", "1. Qb3"), kVerdictCheckmate, 1, true},
      {"mate of black, a draw is claimed",
       Custom("[Result \"1/2-1/2\"]\n", "[k3/3Q/2K1/4:0:1:w]", "1. Qb3"), kVerdictCheckmate, 1,
       true},
      {"mate of black, the moves end with * whatever the header says",
       Custom(result_10, "[k3/2Q1/2K1/4:0:1:w]", "1. Qb3 *"), kVerdictCheckmate, 1, true},
      {"mate of white, 0-1 agrees",
       Custom("[Result \"0-1\"]\n", "[1q2/2k1/4/K3:0:1:b]", "1... Qb2"), kVerdictCheckmate, 0,
       false},
      {"stalemate, a draw", Custom("[Result \"1/2-1/2\"]\n", "[k3/4/3Q/3K:0:1:w]", "1. Qb2"),
       kVerdictStalemate, std::nullopt, false},
      {"stalemate with a winner", Custom(result_10, "[k3/4/4/1Q1K:0:1:w]", "1. Qb2"),
       kVerdictStalemate, std::nullopt, true},
      {"stalemate called unfinished", Custom("[Result \"*\"]\n", "[k3/4/4/2QK:0:1:w]", "1. Qb2"),
       kVerdictStalemate, std::nullopt, true},
      // Black king a4, white rook d4 checking along the rank, white king a2: a3, b3 touch the
      // king, b4 is the rook's; the king escapes back onto its previous board (legal_test.cc's
      // MateEscapedOnlyThroughTime). Playable positions never conflict: games end by resignation.
      {"check escaped through time", Custom(result_10, "[1k2/4/K3/3R:0:1:b]", "1... Ka4\n2. Rd4"),
       kVerdictPlayable, 1, false},
      {"a lone king can move", Custom("[Result \"*\"]\n", "[3k/4/4/K3:0:1:w]", ""),
       kVerdictPlayable, std::nullopt, false},
      // An unfinished last action (white played one of its two boards): the verdict is on the
      // position before it, the start, where white can play and is not in check.
      {"unfinished last action", "[Board \"Standard - Two Timelines\"]\n\n1. (-0T1)e3\n\n",
       kVerdictPlayable, std::nullopt, false},
  };
}

struct StoredEnding {
  std::optional<int64_t> verdict, checked;
  bool conflict = false;
  std::string witness;
  int64_t work = -1;
};

std::vector<StoredEnding> ReadEndings(const std::string& path) {
  std::vector<StoredEnding> out;
  Result<Database> db = OpenDatabase(path, OpenMode::kReadOnly);
  EXPECT_TRUE(db.ok());
  if (!db.ok()) return out;
  Result<Statement> select = db.value().Prepare(
      "SELECT verdict, checked_side, result_conflict, witness, verdict_work FROM games ORDER BY "
      "id");
  EXPECT_TRUE(select.ok());
  if (!select.ok()) return out;
  Statement& s = select.value();
  while (s.Step().value() == StepResult::kRow) {
    StoredEnding e;
    if (!s.IsNull(0)) e.verdict = s.Int64(0);
    if (!s.IsNull(1)) e.checked = s.Int64(1);
    e.conflict = s.Int64(2) != 0;
    e.witness = std::string(s.Text(3));
    if (!s.IsNull(4)) e.work = s.Int64(4);
    out.push_back(std::move(e));
  }
  return out;
}

// The game's text with `witness` played after it replays, one action longer.
void ExpectWitnessPlays(const std::string& text, const std::string& witness) {
  ReplayOutcome whole = ReplayGame(ParseGameSyntax(text).game);
  ASSERT_TRUE(whole.replayer);
  // The witness is an action of the side to move after the last submitted action; an unfinished
  // one is dropped from the text first (it was never submitted).
  std::string base = text;
  if (!whole.replayer->unfinished().moves.empty()) base = base.substr(0, base.rfind("1. "));
  ReplayOutcome before = ReplayGame(ParseGameSyntax(base).game);
  ASSERT_TRUE(before.replayer);
  ASSERT_TRUE(before.status.ok());
  const size_t actions = before.replayer->actions().size();
  const Position& pos = before.replayer->position();
  // half-turn = 2 * turn + (black ? 1 : 0)
  const std::string turn = std::to_string(pos.Present() / 2);
  const std::string longer =
      base + "\n" + turn + (pos.ToMove() == Color::kWhite ? ". " : "... ") + witness + "\n";
  const SyntaxResult syntax = ParseGameSyntax(longer);
  ASSERT_TRUE(syntax.status.ok()) << longer;
  ReplayOutcome after = ReplayGame(syntax.game);
  EXPECT_TRUE(after.status.ok()) << longer << "\n"
                                 << (!after.status.ok() ? after.status.message() : "");
  ASSERT_TRUE(after.replayer);
  EXPECT_EQ(after.replayer->actions().size(), actions + 1) << longer;
  EXPECT_TRUE(after.replayer->unfinished().moves.empty()) << longer;
}

// Options of 5d-index that index every game of Cases(), written to one file in `dir`, into a new
// database there.
IndexOptions IndexEveryCase(const TempDir& dir) {
  std::string collection;
  for (const EndingCase& c : Cases()) collection += c.text;
  std::ofstream(dir.File("games.5dpgn"), std::ios::binary) << collection;
  IndexOptions options;
  options.database = dir.File("games.sqlite");
  options.inputs = {dir.File("games.5dpgn")};
  return options;
}

TEST(IndexEndings, EveryGameStoresItsVerdictCheckAndConflict) {
  TempDir dir;
  const std::vector<EndingCase> cases = Cases();
  IndexOptions options = IndexEveryCase(dir);
  options.jobs = 2;
  std::ostringstream out, err;
  IndexSummary summary;
  ASSERT_EQ(testing::IndexAsTool(options, out, err, &summary), 0) << err.str();
  EXPECT_EQ(summary.indexed, static_cast<long>(cases.size()));
  EXPECT_EQ(summary.checkmates, 5);
  EXPECT_EQ(summary.stalemates, 3);
  EXPECT_EQ(summary.playable, 3);
  EXPECT_EQ(summary.unknown, 0);
  EXPECT_EQ(summary.result_conflicts, 5);
  EXPECT_NE(err.str().find(": endings of the indexed games: 5 checkmate, 3 stalemate, 3 "
                           "playable, 0 unknown; 5 result conflicts\n"),
            std::string::npos)
      << err.str();

  const std::vector<StoredEnding> stored = ReadEndings(options.database);
  ASSERT_EQ(stored.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    const EndingCase& c = cases[i];
    const StoredEnding& s = stored[i];
    EXPECT_EQ(s.verdict, c.verdict) << c.why;
    EXPECT_EQ(s.checked, c.checked) << c.why;
    EXPECT_EQ(s.conflict, c.conflict) << c.why;
    EXPECT_GT(s.work, 0) << c.why;
    if (c.verdict == kVerdictPlayable) {
      ASSERT_FALSE(s.witness.empty()) << c.why;
      ExpectWitnessPlays(c.text, s.witness);
    } else {
      EXPECT_EQ(s.witness, "") << c.why;
    }
  }

  // The JSON summary has the same counts.
  options.database = dir.File("again.sqlite");
  std::ostringstream json, json_err;
  ASSERT_EQ(testing::IndexAsTool(options, json, json_err, nullptr, /*json=*/true), 0);
  EXPECT_NE(json.str().find("\"endings\":{\"checkmate\":5,\"stalemate\":3,\"playable\":3,"
                            "\"unknown\":0,\"undecided\":0},\"result_conflicts\":5,"),
            std::string::npos)
      << json.str();
}

TEST(IndexEndings, TheBudgetIsTheOneOfCheck) {
  // --verdict-budget bounds the moves tried per position: with 1 move no mate or stalemate can be
  // proved (the black king has three squares to try), so those games are unknown, and claim no
  // conflict. The same games under --check --verdict give the same verdicts.
  TempDir dir;
  std::string collection;
  for (const EndingCase& c : Cases()) collection += c.text;
  const std::string input = dir.File("games.5dpgn");
  std::ofstream(input, std::ios::binary) << collection;

  for (uint64_t budget : {uint64_t{1}, uint64_t{1000000}}) {
    IndexOptions options;
    options.database = dir.File("games" + std::to_string(budget) + ".sqlite");
    options.inputs = {input};
    options.verdict_budget = budget;
    std::ostringstream out, err;
    IndexSummary summary;
    ASSERT_EQ(testing::IndexAsTool(options, out, err, &summary), 0) << err.str();
    if (budget == 1) {
      EXPECT_EQ(summary.checkmates + summary.stalemates, 0);
      EXPECT_GE(summary.unknown, 8);
      EXPECT_EQ(summary.result_conflicts, 0);
    }

    CheckOptions check;
    check.output = CheckOptions::Output::kVerdict;
    check.verdict_budget = budget;
    std::ostringstream lines, report;
    CheckFiles({input}, check, lines, report);
    std::vector<std::string> checked;
    std::istringstream in(lines.str());
    for (std::string line; std::getline(in, line);) {
      // FILE GAME verdict V WITNESS
      std::vector<std::string> fields;
      std::istringstream parts(line);
      for (std::string field; std::getline(parts, field, '\t');) fields.push_back(field);
      ASSERT_GE(fields.size(), 4u) << line;
      checked.push_back(fields[3] + "|" + (fields.size() > 4 ? fields[4] : ""));
    }
    std::vector<std::string> indexed;
    for (const StoredEnding& s : ReadEndings(options.database)) {
      ASSERT_TRUE(s.verdict);
      indexed.push_back(std::string(VerdictName(*VerdictFromSql(*s.verdict))) + "|" + s.witness);
    }
    EXPECT_EQ(indexed, checked) << "budget " << budget;
  }
}

// The exit status of 5d-index with `options` on one game of Cases().
int IndexStatus(const TempDir& dir, const std::string& options) {
  std::ofstream(dir.File("games.5dpgn"), std::ios::binary) << Cases()[0].text;
  const std::string command = std::string(FIVED_INDEX_BINARY) + " --quiet " + options + " --db " +
                              dir.File("games.sqlite") + " " + dir.File("games.5dpgn") +
                              " 2>/dev/null";
  const int status = std::system(command.c_str());
  EXPECT_TRUE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

TEST(IndexEndings, ABudgetOfZeroIsRefused) {
  TempDir dir;
  EXPECT_EQ(IndexStatus(dir, "--verdict-budget 0"), 2);
  // Deciding nothing is said so: --skip-endings, which no budget goes with.
  EXPECT_EQ(IndexStatus(dir, "--skip-endings --verdict-budget 5"), 2);
  EXPECT_EQ(IndexStatus(dir, "--skip-endings"), 0);
}

TEST(IndexEndings, SkippedEndingsAreStoredUndecided) {
  // --skip-endings (a budget of 0): every game is indexed with no verdict, no side in check, no
  // witness and no conflict, and the summary counts them as undecided.
  TempDir dir;
  const std::vector<EndingCase> cases = Cases();
  IndexOptions options = IndexEveryCase(dir);
  options.verdict_budget = 0;
  std::ostringstream out, err;
  IndexSummary summary;
  ASSERT_EQ(testing::IndexAsTool(options, out, err, &summary), 0) << err.str();
  EXPECT_EQ(summary.indexed, static_cast<long>(cases.size()));
  EXPECT_EQ(summary.undecided, static_cast<long>(cases.size()));
  EXPECT_EQ(summary.checkmates + summary.stalemates + summary.playable + summary.unknown, 0);
  EXPECT_EQ(summary.result_conflicts, 0);
  EXPECT_NE(err.str().find(": endings of the indexed games: 0 checkmate, 0 stalemate, 0 "
                           "playable, 0 unknown, " +
                           std::to_string(cases.size()) + " undecided; 0 result conflicts\n"),
            std::string::npos)
      << err.str();
  const std::vector<StoredEnding> stored = ReadEndings(options.database);
  ASSERT_EQ(stored.size(), cases.size());
  for (const StoredEnding& s : stored) {
    EXPECT_FALSE(s.verdict);
    EXPECT_FALSE(s.checked);
    EXPECT_FALSE(s.conflict);
    EXPECT_EQ(s.witness, "");
  }
}

}  // namespace
}  // namespace fived
