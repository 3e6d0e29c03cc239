// Crash safety: 5d-index is killed (SIGKILL) in the middle of an ingest. The database must open,
// pass PRAGMA integrity_check and hold only whole games, while a reader may read it during the
// ingest; running the same command again must give the same database content as a run that was
// never interrupted.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "schema/db.h"
#include "tests/indexer/db_check.h"
#include "tests/support/random_game.h"

namespace fived {
namespace {

namespace fs = std::filesystem;

std::string Query(Database& db, const std::string& sql) {
  Result<Statement> statement = db.Prepare(sql);
  EXPECT_TRUE(statement.ok()) << sql;
  if (!statement.ok()) return "";
  Result<StepResult> step = statement.value().Step();
  if (!step.ok() || step.value() != StepResult::kRow) return "";
  return std::string(statement.value().Text(0));
}

// A digest of what the database holds, independent of row ids and timing.
std::string Content(const std::string& path) {
  Result<Database> opened = OpenDatabase(path, OpenMode::kReadOnly);
  EXPECT_TRUE(opened.ok()) << (opened.ok() ? "" : opened.error().message());
  if (!opened.ok()) return "";
  Database& db = opened.value();
  const testing::PostingSummary postings = testing::Summarize(db);
  return Query(db,
               "SELECT count(*) || ' games, ' || total(actions) || ' actions, ' || "
               "total(identity % 1000003) || ' identities, ' || "
               "count(duplicate_of) || ' duplicates, ' || total(verdict) || ' verdicts, ' || "
               "total(checked_side) || ' in check, ' || total(result_conflict) || "
               "' result conflicts' FROM games") +
         "; " + std::to_string(postings.states) + " states, " + std::to_string(postings.boards) +
         " boards, key sum " + std::to_string(postings.key_sum) + "; " +
         Query(db, "SELECT count(*) || ' rejected' FROM rejected") + "; " +
         Query(db, "SELECT count(*) || ' headers' FROM headers");
}

void ExpectSoundAndWhole(const std::string& path) {
  testing::ExpectSoundAndWhole(path);
  Result<Database> opened = OpenDatabase(path, OpenMode::kReadOnly);
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(Query(opened.value(),
                  "SELECT count(*) FROM games WHERE id NOT IN (SELECT game_id "
                  "FROM headers)"),
            "0");
}

// Runs 5d-index on `input` into `db`; returns the child's pid.
pid_t StartIndex(const std::string& db, const std::string& input) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    // Small transactions, so that a kill finds some games committed and others not. A small
    // verdict budget keeps the runs short: crash safety does not depend on how hard the final
    // positions are, and a few unknown verdicts are stored like any other.
    execl(FIVED_INDEX_BINARY, "5d-index", "--quiet", "--jobs", "2", "--commit-every", "100",
          "--verdict-budget", "5000", "--db", db.c_str(), input.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

int Wait(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

TEST(Crash, KilledIngestLeavesWholeGamesAndResumes) {
  const fs::path dir = fs::temp_directory_path() / ("fived-crash-test-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string input = (dir / "games.5dpgn").string();
  {
    CollectionOptions options;
    options.seed = 7;
    std::string error;
    const std::string text = GenerateCollection(2000, options, &error);
    ASSERT_EQ(error, "");
    std::ofstream(input, std::ios::binary) << text;
  }
  const std::string reference = (dir / "reference.sqlite").string();
  ASSERT_TRUE(WIFEXITED(Wait(StartIndex(reference, input))));
  const std::string expected = Content(reference);
  ASSERT_NE(expected.find("2000 games"), std::string::npos) << expected;

  // Kill at several moments: while nothing is committed yet, then as soon as a reader sees some
  // games committed (it reads while the indexer writes), then later. The moments are found by
  // watching the database, not by timing, so that slow (sanitizer) builds test the same thing.
  int killed_midway = 0;
  int partial = 0;  // kills that left some games committed, but not all
  for (int threshold : {0, 1, 1200, 1700}) {
    const std::string db = (dir / ("killed" + std::to_string(threshold) + ".sqlite")).string();
    const pid_t pid = StartIndex(db, input);
    int status = 0;
    bool exited = false;
    for (int polls = 0; polls < 60000; ++polls) {
      if (waitpid(pid, &status, WNOHANG) == pid) {
        exited = true;
        break;
      }
      if (threshold == 0 && fs::exists(db)) break;
      if (threshold > 0 && fs::exists(db)) {
        Result<Database> reader = OpenDatabase(db, OpenMode::kReadOnly);
        if (reader.ok()) {
          const std::string games = Query(reader.value(), "SELECT count(*) FROM games");
          if (!games.empty() && std::stoi(games) >= threshold) break;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (!exited) {
      kill(pid, SIGKILL);
      status = Wait(pid);
    }
    if (WIFSIGNALED(status)) ++killed_midway;
    if (fs::exists(db)) {
      ExpectSoundAndWhole(db);
      const std::string content = Content(db);
      if (content.rfind("0 games", 0) != 0 && content != expected) ++partial;
    }
    // The same command again completes the job with the same result.
    ASSERT_TRUE(WIFEXITED(Wait(StartIndex(db, input))));
    ExpectSoundAndWhole(db);
    EXPECT_EQ(Content(db), expected) << "killed at " << threshold << " games";
  }
  EXPECT_GT(killed_midway, 0) << "the ingest always finished before the kill";
  EXPECT_GT(partial, 0) << "no kill left a partly written database";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fived
