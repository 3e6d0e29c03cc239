// The index mode end to end: every game is indexed or rejected and the counts add up, re-indexing
// adds nothing, appending adds only what is new, copies are found (and games that only share
// their moves are not copies), and malformed input of every kind neither crashes nor loses a
// game.
#include "indexer/index.h"

#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "schema/db.h"
#include "schema/postings.h"
#include "schema/sql.h"
#include "tests/indexer/archive_util.h"
#include "tests/indexer/db_check.h"
#include "tests/indexer/fault_vfs.h"
#include "tests/indexer/run_as_tool.h"
#include "tests/support/random_game.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

namespace fs = std::filesystem;

using ::fived::testing::TempDir;

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

struct IndexRun {
  int status = 0;
  IndexSummary summary;
  std::string out, err;
};

// Indexes `inputs` into `db` with two workers, `commit_every` (0: by size only) and the summary
// as JSON on `out` or as text on `err`.
IndexRun Index(const std::string& db, const std::vector<std::string>& inputs, long commit_every = 0,
               bool json = false) {
  IndexOptions options;
  options.database = db;
  options.inputs = inputs;
  options.jobs = 2;
  options.commit_every = commit_every;
  std::ostringstream out, err;
  IndexRun run;
  run.status = testing::IndexAsTool(options, out, err, &run.summary, json);
  run.out = out.str();
  run.err = err.str();
  return run;
}

int64_t Count(const std::string& db_path, const std::string& sql) {
  Result<Database> db = OpenDatabase(db_path, OpenMode::kReadOnly);
  EXPECT_TRUE(db.ok()) << (db.ok() ? "" : db.error().message());
  if (!db.ok()) return -1;
  Result<Statement> statement = db.value().Prepare(sql);
  EXPECT_TRUE(statement.ok()) << sql;
  if (!statement.ok()) return -1;
  Result<StepResult> step = statement.value().Step();
  EXPECT_TRUE(step.ok() && step.value() == StepResult::kRow) << sql;
  return statement.value().Int64(0);
}

// Every game read is in the database once, indexed or rejected; the file is sound and every game
// whole.
void ExpectWhole(const std::string& db, long games_read) {
  EXPECT_EQ(Count(db, "SELECT count(*) FROM games") + Count(db, "SELECT count(*) FROM rejected"),
            games_read);
  testing::ExpectSoundAndWhole(db);
}

const char* kGames =
    "[Board \"Standard\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e3 / e6\n2. Nf3 / Nf6\n\n"
    "[Board \"Standard\"]\n[White \"C\"]\n[Black \"D\"]\n\n1. e3 / e6\n2. Nf3 / Nf6\n\n"
    "[Board \"Standard\"]\n\n1. e4 / Nxe5\n\n"
    "[Board \"Standard - Turn Zero\"]\n\n1. d3 / d6\n";

TEST(Index, CountsAddUpAndGamesThatOnlyShareMovesAreNotCopies) {
  TempDir dir;
  WriteFile(dir.File("a.5dpgn"), kGames);
  const IndexRun run = Index(dir.File("db.sqlite"), {dir.File("a.5dpgn")});
  EXPECT_EQ(run.status, 1);  // one game is rejected
  EXPECT_EQ(run.summary.games, 4);
  EXPECT_EQ(run.summary.indexed, 3);
  EXPECT_EQ(run.summary.rejected, 1);
  // Games 1 and 2 play the same moves between other players: two games, neither a copy.
  EXPECT_EQ(run.summary.duplicates, 0);
  ExpectWhole(dir.File("db.sqlite"), 4);
  EXPECT_EQ(Count(dir.File("db.sqlite"), "SELECT count(duplicate_of) FROM games"), 0);
  std::string text, moves;
  ASSERT_TRUE(testing::GameTexts(dir.File("db.sqlite"), 2, &text, &moves));
  EXPECT_EQ(text,
            "[Board \"Standard\"]\n[White \"C\"]\n[Black \"D\"]\n\n1. e3 / e6\n2. Nf3 / Nf6\n");
  EXPECT_EQ(moves, "1. (0T1)e3 / (0T1)e6\n2. (0T2)Nf3 / (0T2)Nf6\n");
  EXPECT_EQ(Count(dir.File("db.sqlite"),
                  "SELECT count(*) FROM rejected WHERE line = 17 AND col = 9 AND token = 'Nxe5'"),
            1);
  // Headers by any case of their name.
  EXPECT_EQ(Count(dir.File("db.sqlite"),
                  "SELECT count(*) FROM headers WHERE name = 'WHITE' AND value = 'C'"),
            1);
  // Both games reached the same state after two actions: one posting lookup finds both.
  Result<Database> opened = OpenDatabase(dir.File("db.sqlite"), OpenMode::kReadOnly);
  ASSERT_TRUE(opened.ok());
  Result<PostingReader> reader = PostingReader::Create(opened.value(), PostingTable::kStates);
  ASSERT_TRUE(reader.ok());
  const uint64_t key =
      KeyFromSql(Count(dir.File("db.sqlite"), "SELECT final_key FROM games WHERE id = 1"));
  Result<std::vector<Posting>> found = reader.value().Find(key);
  ASSERT_TRUE(found.ok());
  ASSERT_EQ(found.value().size(), 2u);
  EXPECT_EQ(found.value()[0].game_id, 1);
  EXPECT_EQ(found.value()[0].value, 2u * 4 + 0);  // after 4 actions, white to move
  EXPECT_EQ(found.value()[1].game_id, 2);
}

TEST(Index, ReindexingAddsNothingAndAppendingAddsTheNewGames) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  WriteFile(dir.File("a.5dpgn"), kGames);
  ASSERT_EQ(Index(db, {dir.File("a.5dpgn")}).summary.indexed, 3);
  const IndexRun again = Index(db, {dir.File("a.5dpgn")});
  EXPECT_EQ(again.summary.indexed, 0);
  EXPECT_EQ(again.summary.rejected, 0);
  EXPECT_EQ(again.summary.skipped, 4);
  EXPECT_EQ(again.summary.unchanged_files, 1);  // not read at all
  EXPECT_EQ(again.status, 1);                   // the rejected game is still rejected
  // The file grows: only the new game is added, and of the old ones only the last is read again
  // (it might have gone on).
  WriteFile(dir.File("a.5dpgn"), std::string(kGames) + "\n[Board \"Standard\"]\n\n1. d4 / d5\n");
  const IndexRun grown = Index(db, {dir.File("a.5dpgn")});
  EXPECT_EQ(grown.summary.indexed, 1);
  EXPECT_EQ(grown.summary.games, 2);
  EXPECT_EQ(grown.summary.skipped, 1);
  EXPECT_EQ(grown.summary.unchanged_files, 0);
  ExpectWhole(db, 5);
  EXPECT_EQ(Count(db, "SELECT game_index FROM games WHERE id = 4"), 5);
  // An edited file (not a grown one) is read whole again; what is the same is already indexed.
  WriteFile(dir.File("a.5dpgn"), std::string("\n") + kGames);
  const IndexRun edited = Index(db, {dir.File("a.5dpgn")});
  EXPECT_EQ(edited.summary.games, 4);
  EXPECT_EQ(edited.summary.indexed, 4 - 1);  // every game moved by a byte: new places
  EXPECT_EQ(edited.summary.duplicates, 3);
}

TEST(Index, AGameThatGrewAtTheEndOfAFileIsReadAgain) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  const std::string path = dir.File("live.5dpgn");
  // A game being played: its moves are appended as they come.
  WriteFile(path, "[Board \"Standard\"]\n\n1. e3 / e6\n");
  ASSERT_EQ(Index(db, {path}).summary.indexed, 1);
  WriteFile(path, "[Board \"Standard\"]\n\n1. e3 / e6\n2. Nf3 / Nf6\n");
  const IndexRun grown = Index(db, {path});
  EXPECT_EQ(grown.summary.games, 1);
  EXPECT_EQ(grown.summary.indexed, 1);  // the longer text at the same place is a new game
  EXPECT_EQ(Count(db, "SELECT actions FROM games WHERE id = 2"), 4);
  EXPECT_EQ(Count(db, "SELECT resume_offset FROM sources"), 0);
  EXPECT_EQ(Count(db, "SELECT resume_games FROM sources"), 0);
}

// The nine secondary indexes of schema/indexes.sql present in the database.
int64_t SecondaryIndexes(const std::string& db) {
  return Count(db,
               "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN "
               "('games_identity', 'games_white_key', 'games_black_key', 'games_date', "
               "'games_final_md5', 'games_variant', 'games_duplicate_of', 'games_verdict', "
               "'games_result_conflict')");
}

TEST(Index, BulkLoadBuildsTheIndexesAtTheEndAndLaterRunsFindItsGames) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  // A first run into a new database is a bulk load: the indexes are built before it ends, and
  // the copy within the run (C-D again, game 4) is found without them: a copy of game 2, whose
  // players it has, not of game 1, the first with its moves.
  WriteFile(dir.File("a.5dpgn"), std::string(kGames) +
                                     "\n[Board \"Standard\"]\n[White \"C\"]\n[Black \"D\"]\n"
                                     "[Event \"Again\"]\n\n1. e3 / e6 2. Nf3 / Nf6\n");
  const IndexRun first = Index(db, {dir.File("a.5dpgn")});
  EXPECT_EQ(first.summary.duplicates, 1);
  EXPECT_EQ(Count(db, "SELECT duplicate_of FROM games WHERE id = 4"), 2);
  EXPECT_EQ(SecondaryIndexes(db), 9);
  // A later run appends and finds the bulk-loaded originals through the identity index: a game
  // without players copies the first of them.
  WriteFile(dir.File("b.5dpgn"), "[Board \"Standard\"]\n\n1. e3 / e6\n2. Nf3 / Nf6\n");
  const IndexRun second = Index(db, {dir.File("b.5dpgn")});
  EXPECT_EQ(second.summary.indexed, 1);
  EXPECT_EQ(second.summary.duplicates, 1);
  EXPECT_EQ(Count(db, "SELECT duplicate_of FROM games WHERE id = 5"), 1);
  EXPECT_EQ(SecondaryIndexes(db), 9);
}

// The issue's five games (the same moves; other players and dates; 1-0, 0-1, *, *, *) and the
// copies of some of them, stored in one bulk load or run by run after a first game: the same
// games are copies, of the same originals, either way.
TEST(Index, CopiesAreTheSameInABulkLoadAndInLaterRuns) {
  const auto game = [](const std::string& headers, const std::string& moves) {
    return "[Board \"Standard\"]\n" + headers + "\n" + moves + "\n\n";
  };
  const std::string line = "1. e3 / e6\n2. Nf3 / Nf6";
  const std::vector<std::string> games = {
      game("[White \"Ann\"]\n[Black \"Bob\"]\n[Date \"2021.01.01\"]\n[Result \"1-0\"]\n", line),
      game("[White \"Cat\"]\n[Black \"Dan\"]\n[Date \"2021.02.02\"]\n[Result \"0-1\"]\n", line),
      game("[White \"Eve\"]\n[Black \"Fay\"]\n[Date \"2021.03.03\"]\n[Result \"*\"]\n", line),
      game("[White \"Gil\"]\n[Black \"Hal\"]\n[Date \"2021.04.04\"]\n[Result \"*\"]\n", line),
      game("[White \"Ida\"]\n[Black \"Jon\"]\n[Date \"2021.05.05\"]\n[Result \"*\"]\n", line),
      // 6: the text of game 2 again.
      game("[White \"Cat\"]\n[Black \"Dan\"]\n[Date \"2021.02.02\"]\n[Result \"0-1\"]\n", line),
      // 7: game 3's players in other spellings, its date with dashes.
      game("[White \"eve\"]\n[Black \"FAY\"]\n[Date \"2021-03-03\"]\n", "1. e3 / e6 2. Nf3 / Nf6"),
      // 8: Gil-Hal again, 1-0 (game 4 said '*').
      game("[White \"Gil\"]\n[Black \"Hal\"]\n[Result \"1-0\"]\n", line),
      // 9: game 1's players and date, 1/2-1/2: no original agrees.
      game("[White \"Ann\"]\n[Black \"Bob\"]\n[Date \"2021.01.01\"]\n[Result \"1/2-1/2\"]\n", line),
      // 10: like 9, a copy of it.
      game("[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1/2-1/2\"]\n", line),
      // 11: other moves.
      game("[White \"Ann\"]\n", "1. d3 / d6"),
  };
  const std::string expected = "1||\n2||\n3||\n4||\n5||\n6|2|\n7|3|\n8|4|\n9||\n10|9|\n11||\n";
  TempDir dir;
  std::string all;
  for (const std::string& text : games) all += text;
  WriteFile(dir.File("all.5dpgn"), all);
  const std::string bulk = dir.File("bulk.sqlite");
  EXPECT_EQ(Index(bulk, {dir.File("all.5dpgn")}).summary.duplicates, 4);
  EXPECT_EQ(testing::Rows(bulk, "SELECT id, duplicate_of FROM games ORDER BY id"), expected);
  // The first game alone makes the bulk load; each of the others then comes in a run of its own.
  const std::string runs = dir.File("runs.sqlite");
  for (size_t i = 0; i < games.size(); ++i) {
    const std::string file = dir.File("game" + std::to_string(i + 1) + ".5dpgn");
    WriteFile(file, games[i]);
    ASSERT_EQ(Index(runs, {file}).summary.indexed, 1);
  }
  EXPECT_EQ(testing::Rows(runs, "SELECT id, duplicate_of FROM games ORDER BY id"), expected);
}

TEST(Index, IndexesLeftOutByAnInterruptedBulkLoadAreBuiltByTheNextRun) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  WriteFile(dir.File("a.5dpgn"), kGames);
  Index(db, {dir.File("a.5dpgn")});
  {
    // What a load killed before its last commit leaves: games, no secondary indexes.
    Result<Database> opened = OpenDatabase(db, OpenMode::kReadWrite);
    ASSERT_TRUE(opened.ok());
    ASSERT_TRUE(opened.value().Exec(sql::kDropIndexesSql).ok());
  }
  ASSERT_EQ(SecondaryIndexes(db), 0);
  const IndexRun again = Index(db, {dir.File("a.5dpgn")});
  EXPECT_EQ(again.summary.skipped, 4);
  EXPECT_EQ(SecondaryIndexes(db), 9);
  ExpectWhole(db, 4);
}

// The summary's text and JSON with the run's time left out ("T s, R games/s", as run.sh does).
std::string Timeless(const std::string& summary) {
  std::string out =
      std::regex_replace(summary, std::regex("; [0-9.]+ s, [0-9]+ games/s"), "; T s, R games/s");
  out = std::regex_replace(out, std::regex("\"seconds\":[0-9.e-]+"), "\"seconds\":T");
  return std::regex_replace(out, std::regex("\"games_per_second\":[0-9]+"),
                            "\"games_per_second\":R");
}

// What the database holds, for comparing a run that failed and was run again with a run that
// never failed: its games (by id, with their place, identity, duplicate and ending), headers,
// rejections, sources, position statistics and postings.
std::string Stored(const std::string& db) {
  std::string stored;
  for (const char* sql :
       {"SELECT g.id, s.path, s.member, g.byte_offset, g.game_index, g.text_hash, g.white, "
        "g.identity, g.duplicate_of, g.verdict, g.result_conflict FROM games g JOIN sources s ON "
        "s.id = g.source_id ORDER BY g.id",
        "SELECT game_id, position, name, value FROM headers ORDER BY game_id, position",
        "SELECT s.path, r.byte_offset, r.line, r.col, r.message FROM rejected r JOIN sources s "
        "ON s.id = r.source_id ORDER BY r.id",
        "SELECT path, member, size, content_hash, resume_offset FROM sources ORDER BY path, member",
        "SELECT state_key, action, text, games, white_wins, draws, black_wins FROM "
        "position_actions ORDER BY state_key, action"}) {
    stored += testing::Rows(db, sql) + "--\n";
  }
  Result<Database> opened = OpenDatabase(db, OpenMode::kReadOnly);
  EXPECT_TRUE(opened.ok());
  if (!opened.ok()) return stored;
  const testing::PostingSummary postings = testing::Summarize(opened.value());
  return stored + std::to_string(postings.states) + " states, " + std::to_string(postings.boards) +
         " boards, key sum " + std::to_string(postings.key_sum) + "\n";
}

// The case of a 15 MB collection indexed into a new database on a 6 MB file system: the disk is
// full at the commit of the games. Nothing is stored, and the summary says so: no game counts as
// indexed or rejected, no ending is counted, and the games read are said not to be stored.
// Running the same command again stores them all.
TEST(Index, ACommitThatFailsCountsNothingAsStoredAndSaysWhatIsNot) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  const std::string games = dir.File("a.5dpgn");
  WriteFile(games, kGames);
  {
    // A new database with its indexes dropped, as the bulk load drops them: the run's first
    // write is the commit of its games.
    Result<Database> made = OpenDatabase(db, OpenMode::kReadWrite);
    ASSERT_TRUE(made.ok());
    ASSERT_TRUE(made.value().Exec(sql::kDropIndexesSql).ok());
  }
  IndexRun run, json;
  {
    testing::FaultVfs disk(dir.path().string());
    disk.FillAfter(0);
    run = Index(db, {games});
    json = Index(db, {games}, 0, /*json=*/true);
  }
  EXPECT_EQ(run.status, 3);
  const std::string rejection =
      games + ": game 3, line 17, col 9: Nxe5: no knight on board (0T1) can reach e5\n";
  EXPECT_EQ(Timeless(run.err),
            rejection + "5d-index: " + db +
                ": database error: database or disk is full (statement: COMMIT)\n"
                "5d-index: 0 games and 0 rejections were stored before the error; the 4 games "
                "read since the last commit are not stored: running the same command again adds "
                "them\n" +
                db +
                ": 4 games read from 1 files: 0 indexed, 0 rejected, 0 copies, 0 already "
                "indexed, 4 not stored; T s, R games/s\n" +
                db +
                ": endings of the indexed games: 0 checkmate, 0 stalemate, 0 playable, 0 "
                "unknown; 0 result conflicts\n");
  EXPECT_EQ(json.status, 3);
  EXPECT_EQ(Timeless(json.out),
            "{\"database\":\"" + db +
                "\",\"files\":1,\"games\":4,\"indexed\":0,\"rejected\":0,\"duplicates\":0,"
                "\"skipped\":0,\"warnings\":0,\"unchanged_files\":0,\"members_passed\":0,"
                "\"endings\":{\"checkmate\":0,\"stalemate\":0,\"playable\":0,\"unknown\":0,"
                "\"undecided\":0},\"result_conflicts\":0,\"io_errors\":0,\"seconds\":T,"
                "\"games_per_second\":R,\"database_failed\":true,\"not_stored\":4,"
                "\"input_unread\":false,\"database_error\":\"database or disk is full "
                "(statement: COMMIT)\"}\n");
  const IndexSummary& summary = run.summary;
  EXPECT_FALSE(summary.database.ok());
  EXPECT_EQ(summary.games, 4);
  EXPECT_EQ(summary.indexed + summary.rejected + summary.duplicates + summary.skipped, 0);
  EXPECT_EQ(summary.playable + summary.result_conflicts, 0);
  EXPECT_EQ(summary.not_stored, 4);
  testing::ExpectSoundAndWhole(db);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM games") + Count(db, "SELECT count(*) FROM rejected"),
            0);
  // With room on the disk, the same command stores what a run that never failed stores.
  const IndexRun again = Index(db, {games});
  EXPECT_EQ(again.status, 1) << again.err;
  EXPECT_EQ(again.summary.indexed, 3);
  EXPECT_EQ(again.summary.rejected, 1);
  ASSERT_EQ(Index(dir.File("clean.sqlite"), {games}).status, 1);
  EXPECT_EQ(Stored(db), Stored(dir.File("clean.sqlite")));
  EXPECT_EQ(SecondaryIndexes(db), 9);
}

// The line that says what a run stopped by a database error stored, as index.h describes it.
std::string NotStoredLine(const IndexSummary& s) {
  auto count = [](long n, const std::string& noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
  };
  std::string line = "5d-index: " + count(s.indexed, "game") + " and " +
                     count(s.rejected, "rejection") + " were stored before the error";
  if (s.not_stored > 0) {
    return line + "; the " + count(s.not_stored, "game") + " read since the last commit " +
           (s.not_stored == 1 ? "is" : "are") + " not stored" +
           (s.input_unread ? ", nor is the rest of the input" : "") +
           ": running the same command again adds them\n";
  }
  if (s.input_unread) {
    return line + "; the rest of the input is not read: running the same command again adds it\n";
  }
  return line +
         " and every game read is in the database: running the same command again completes the "
         "run\n";
}

// How the runs of FillTheDiskAnywhere ended.
struct FullDiskRuns {
  int failed = 0;   // stopped by the database error
  int partial = 0;  // of those, with some of the games stored
  int unread = 0;   // of those, before the end of the input
};

// Indexes `files` (committing every batch) into copies of `base` (new databases when it is "")
// with the disk full after each fortieth of the bytes a whole run writes. Each run's summary must
// count what its database holds, say what is not stored, and leave the database sound; the same
// command run again must make what a run that never failed makes.
FullDiskRuns FillTheDiskAnywhere(const TempDir& dir, const std::string& base,
                                 const std::vector<std::string>& files) {
  auto copy = [&](const std::string& name) {
    const std::string db = dir.File(name);
    if (!base.empty()) fs::copy_file(base, db);
    return db;
  };
  const std::string clean = copy("clean.sqlite");
  IndexRun whole;
  long total = 0;  // bytes written by the run that never fails
  {
    testing::FaultVfs disk(dir.path().string());
    whole = Index(clean, files, /*commit_every=*/1);
    total = disk.written();
  }
  EXPECT_EQ(whole.status, 1) << whole.err;
  FullDiskRuns runs;
  constexpr int kSteps = 40;
  for (int step = 0; step < kSteps; ++step) {
    SCOPED_TRACE("the disk full after " + std::to_string(step) + "/" + std::to_string(kSteps) +
                 " of the bytes");
    const std::string db = copy("full" + std::to_string(step) + ".sqlite");
    IndexRun run;
    {
      testing::FaultVfs disk(dir.path().string());
      disk.FillAfter(total * step / kSteps);
      run = Index(db, files, /*commit_every=*/1);
    }
    const IndexSummary& s = run.summary;
    if (!s.database.ok()) {
      ++runs.failed;
      if (s.indexed > 0 && s.indexed < whole.summary.indexed) ++runs.partial;
      if (s.input_unread) ++runs.unread;
      EXPECT_EQ(run.status, 3);
      EXPECT_EQ(s.database.message(), "database or disk is full (statement: COMMIT)");
      // What the run added to the database.
      auto added = [&](const std::string& sql) {
        return Count(db, sql) - (base.empty() ? 0 : Count(base, sql));
      };
      EXPECT_EQ(s.indexed, added("SELECT count(*) FROM games"));
      EXPECT_EQ(s.rejected, added("SELECT count(*) FROM rejected"));
      EXPECT_EQ(s.duplicates, added("SELECT count(duplicate_of) FROM games"));
      EXPECT_EQ(s.checkmates + s.stalemates + s.playable + s.unknown + s.undecided, s.indexed);
      EXPECT_EQ(s.games, s.indexed + s.rejected + s.skipped + s.not_stored);
      EXPECT_NE(run.err.find(NotStoredLine(s)), std::string::npos) << NotStoredLine(s) << "\n"
                                                                   << run.err;
      testing::ExpectSoundAndWhole(db);
    } else if (run.status == 3) {
      // The database could not even be made ready: the run says so and claims nothing.
      EXPECT_EQ(s.indexed + s.rejected + s.games, 0) << run.err;
    } else {
      // Only the checkpoint as the database closed found the disk full: it is done later.
      EXPECT_EQ(run.status, 1) << run.err;
      EXPECT_EQ(s.indexed, whole.summary.indexed);
    }
    const IndexRun again = Index(db, files, /*commit_every=*/1);
    EXPECT_EQ(again.status, 1) << again.err;
    EXPECT_EQ(Stored(db), Stored(clean));
  }
  return runs;
}

// Six files of four games (one rejected), which repeat each other's moves: a batch and a commit
// each with --commit-every 1.
std::vector<std::string> SixFiles(const TempDir& dir) {
  std::vector<std::string> files;
  for (int i = 0; i < 6; ++i) {
    files.push_back(dir.File("f" + std::to_string(i) + ".5dpgn"));
    WriteFile(files.back(), "[Event \"" + std::to_string(i) + "\"]\n" + kGames);
  }
  return files;
}

// A new database: its games wait for the record dictionary until the input ends, so the disk
// fills up while it is made ready, at one of the commits after the input was read, at the bulk
// load's indexes, or only at the checkpoint as it closes.
TEST(Index, ADiskThatFillsUpAnywhereInABulkLoadLeavesATruthfulSummary) {
  TempDir dir;
  const FullDiskRuns runs = FillTheDiskAnywhere(dir, "", SixFiles(dir));
  EXPECT_GT(runs.failed, 10);
  EXPECT_GT(runs.partial, 0);
}

// A database with a record dictionary: every file's games are committed as they come, so the
// disk fills up before the end of the input, which is not read.
TEST(Index, ADiskThatFillsUpAnywhereInARunThatAppendsLeavesATruthfulSummary) {
  TempDir dir;
  const std::string base = dir.File("base.sqlite");
  std::string seed;
  for (int i = 0; i < 100; ++i) {
    seed += "[Event \"seed " + std::to_string(i) + "\"]\n[White \"player " + std::to_string(i % 7) +
            "\"]\n\n1. e3 / e6\n2. Nf3 / Nf6\n\n";
  }
  WriteFile(dir.File("seed.5dpgn"), seed);
  ASSERT_EQ(Index(base, {dir.File("seed.5dpgn")}).status, 0);
  ASSERT_EQ(Count(base, "SELECT count(*) FROM dictionaries"), 1);
  const FullDiskRuns runs = FillTheDiskAnywhere(dir, base, SixFiles(dir));
  EXPECT_GT(runs.failed, 10);
  EXPECT_GT(runs.partial, 0);
  EXPECT_GT(runs.unread, 0);
}

// A real full file system: a tmpfs of 3 MiB mounted for the test (as root; skipped where it
// cannot be mounted). The byte budget of FaultVfs above stands in for it everywhere else; this
// checks that SQLite's own errors on a file system that is really full are read the same way.
TEST(Index, ARealFullFileSystemLeavesATruthfulSummaryAndARerunCompletesIt) {
  TempDir dir;
  const std::string mount_point = dir.File("small");
  fs::create_directory(mount_point);
  if (geteuid() != 0) GTEST_SKIP() << "mounting a small tmpfs needs root";
  if (mount("tmpfs", mount_point.c_str(), "tmpfs", 0, "size=3m") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
  }
  struct Unmount {
    std::string path;
    ~Unmount() { umount2(path.c_str(), MNT_DETACH); }
  } unmount{mount_point};
  // Eight files of 60 random games: more than the file system holds with SQLite's write-ahead log
  // (the database alone is about 1.6 MB, 0.45 MB of it the empty schema).
  CollectionOptions options;
  options.max_actions = 30;
  std::vector<std::string> files;
  for (int f = 0; f < 8; ++f) {
    options.seed = 100 + static_cast<uint64_t>(f);
    files.push_back(dir.File("r" + std::to_string(f) + ".5dpgn"));
    WriteFile(files.back(), GenerateCollection(60, options));
  }
  const std::string clean = dir.File("clean.sqlite");
  const IndexRun whole = Index(clean, files, /*commit_every=*/1);
  ASSERT_EQ(whole.status, 0) << whole.err;

  const std::string db = mount_point + "/db.sqlite";
  for (int run_number = 0; run_number < 2; ++run_number) {
    SCOPED_TRACE(run_number == 0 ? "first run" : "the same command again, the disk still full");
    const int64_t before = run_number == 0 ? 0 : Count(db, "SELECT count(*) FROM games");
    const IndexRun run = Index(db, files, /*commit_every=*/1);
    const IndexSummary& s = run.summary;
    EXPECT_EQ(run.status, 3) << run.err;
    EXPECT_NE(run.err.find(db), std::string::npos) << "the message names the database\n" << run.err;
    EXPECT_NE(run.err.find("database or disk is full"), std::string::npos) << run.err;
    // The first run stores the schema and part of the games.
    if (run_number == 0) {
      ASSERT_FALSE(s.database.ok()) << run.err;
      EXPECT_GT(s.indexed, 0);
    }
    if (!s.database.ok()) {
      EXPECT_LT(s.indexed, whole.summary.indexed);
      EXPECT_EQ(s.indexed, Count(db, "SELECT count(*) FROM games") - before);
      EXPECT_EQ(s.games, s.indexed + s.rejected + s.skipped + s.not_stored);
      EXPECT_NE(run.err.find(NotStoredLine(s)), std::string::npos) << NotStoredLine(s) << "\n"
                                                                   << run.err;
    } else {
      // The database could not even be made ready (the first run's bulk load had dropped the
      // secondary indexes, and there is no room to build them): the run says so, claims nothing.
      EXPECT_EQ(s.indexed + s.rejected + s.games, 0) << run.err;
      EXPECT_EQ(Count(db, "SELECT count(*) FROM games"), before);
    }
    testing::ExpectSoundAndWhole(db);
  }
  // Room made: the same command stores the rest, and the database holds what the clean run's does.
  ASSERT_EQ(mount("tmpfs", mount_point.c_str(), "tmpfs", MS_REMOUNT, "size=64m"), 0)
      << std::strerror(errno);
  const IndexRun last = Index(db, files, /*commit_every=*/1);
  EXPECT_EQ(last.status, 0) << last.err;
  EXPECT_EQ(Stored(db), Stored(clean));
  testing::ExpectSoundAndWhole(db);
}

TEST(Index, MalformedInputNeverCrashesNorLosesGames) {
  TempDir dir;
  std::vector<std::string> files;
  auto add = [&](const std::string& name, const std::string& text) {
    WriteFile(dir.File(name), text);
    files.push_back(dir.File(name));
  };
  // Truncated games: the same collection cut at many places.
  const std::string games = kGames;
  for (size_t cut = 7; cut < games.size(); cut += 23)
    add("cut" + std::to_string(cut) + ".5dpgn", games.substr(0, cut));
  // Binary junk and invalid UTF-8.
  std::mt19937 rng(12345);
  std::string junk;
  for (int i = 0; i < 100000; ++i) junk += static_cast<char>(rng() & 0xff);
  add("junk.5dpgn", junk);
  add("utf8.5dpgn", "[Event \"\xff\xfe\xc3\x28\"]\n[White \"\xe2\x82\"]\n\n1. e4 \xc0\xaf / e5\n");
  // A 10 MB comment.
  add("comment.5dpgn", "[Board \"Standard\"]\n\n1. e4 {" + std::string(10 << 20, 'x') + "} / e5\n");
  // A game of 5,000 actions: knights going back and forth.
  std::string long_game = "[Board \"Standard\"]\n\n";
  for (int turn = 1; turn <= 2500; ++turn) {
    long_game += std::to_string(turn) + (turn % 2 ? ". Nf3 / Nf6\n" : ". Ng1 / Ng8\n");
  }
  add("long.5dpgn", long_game);
  // 100,000 empty games (headers only): a game without moves is the starting position, a valid
  // game of zero actions.
  std::string empty;
  for (int i = 0; i < 100000; ++i) empty += "[Event \"e" + std::to_string(i) + "\"]\n\n";
  add("empty.5dpgn", empty);

  const IndexRun run = Index(dir.File("db.sqlite"), files);
  EXPECT_EQ(run.summary.io_errors, 0);
  EXPECT_TRUE(run.summary.database.ok()) << run.summary.database.message();
  EXPECT_EQ(run.summary.games, run.summary.indexed + run.summary.rejected);
  ExpectWhole(dir.File("db.sqlite"), run.summary.games);
  EXPECT_EQ(Count(dir.File("db.sqlite"), "SELECT max(actions) FROM games"), 5000);
  EXPECT_GE(Count(dir.File("db.sqlite"),
                  "SELECT count(*) FROM games g JOIN sources s ON s.id = g.source_id WHERE "
                  "s.path LIKE '%empty.5dpgn'"),
            100000);
  // The comment game is whole, text included (a game's text keeps its final line break).
  const int64_t comment_game =
      Count(dir.File("db.sqlite"),
            "SELECT g.id FROM games g JOIN sources s ON s.id = g.source_id WHERE s.path LIKE "
            "'%comment.5dpgn'");
  std::string text, moves;
  ASSERT_TRUE(testing::GameTexts(dir.File("db.sqlite"), comment_game, &text, &moves));
  EXPECT_EQ(text, ReadFile(dir.File("comment.5dpgn")));
  EXPECT_EQ(moves, "1. (0T1)e4 / (0T1)e5\n");
}

// The 5d-index program run by the shell with `arguments` (redirections included) and --json:
// its exit status, its standard output (the summary) and its standard error.
struct ProgramRun {
  int status = -1;
  std::string out, err;
};

ProgramRun RunProgram(const TempDir& dir, const std::string& arguments) {
  const std::string command = std::string(FIVED_INDEX_BINARY) + " --quiet --json --jobs 2 " +
                              arguments + " >" + dir.File("out.txt") + " 2>" + dir.File("err.txt");
  const int raw = std::system(command.c_str());
  ProgramRun run;
  if (raw != -1 && WIFEXITED(raw)) run.status = WEXITSTATUS(raw);
  run.out = ReadFile(dir.File("out.txt"));
  run.err = ReadFile(dir.File("err.txt"));
  return run;
}

// 5d-index run on standard input read from the file `file` of `dir`, into `db`.
ProgramRun RunOnStandardInput(const TempDir& dir, const std::string& db, const std::string& file) {
  return RunProgram(dir, "--db " + db + " - <" + dir.File(file));
}

// Whether a run exited with `status` and its JSON summary holds `counts` (a run of its fields,
// in order); on failure, what it printed.
::testing::AssertionResult Summarized(const ProgramRun& run, int status,
                                      const std::string& counts) {
  if (run.status != status) {
    return ::testing::AssertionFailure()
           << "exit status " << run.status << ", not " << status << "; standard error: " << run.err;
  }
  if (run.out.find(counts) == std::string::npos) {
    return ::testing::AssertionFailure() << "no " << counts << " in the summary: " << run.out;
  }
  return ::testing::AssertionSuccess();
}

// What a run may change: the rows of every table.
std::string Contents(const std::string& db) {
  std::string contents;
  for (const char* table :
       {"sources", "games", "headers", "rejected", "dictionaries", "state_postings", "board_keys",
        "board_streams", "piece_postings", "piece_counts"}) {
    contents += std::string(table) + " " +
                std::to_string(Count(db, std::string("SELECT count(*) FROM ") + table)) + "\n";
  }
  return contents;
}

TEST(Index, StandardInputRecognisesGamesAlreadyIndexedFromAFile) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  WriteFile(dir.File("a.5dpgn"), kGames);
  ASSERT_EQ(Index(db, {dir.File("a.5dpgn")}).summary.indexed, 3);
  const std::string before = Contents(db);
  // Every game is already there (the rejected one as rejected): nothing is added.
  const ProgramRun piped = RunOnStandardInput(dir, db, "a.5dpgn");
  // Exit status 1: the rejected game is still rejected.
  EXPECT_TRUE(Summarized(
      piped, 1, "\"games\":4,\"indexed\":0,\"rejected\":0,\"duplicates\":0,\"skipped\":4,"));
  EXPECT_EQ(Contents(db), before);
  // Twice more through standard input: still nothing.
  ASSERT_EQ(RunOnStandardInput(dir, db, "a.5dpgn").status, 1);
  EXPECT_EQ(Contents(db), before);
  ExpectWhole(db, 4);
}

TEST(Index, StandardInputIsReadByItsContentAsAFileIs) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  const std::string a = "[Board \"Standard\"]\n[White \"A\"]\n\n1. e3 / e6\n";
  const std::string b = "[Board \"Standard\"]\n[White \"B\"]\n\n1. e4 / e5\n";
  // A tar.gz piped in, one of its members compressed again and one not a game file.
  testing::WritePacked(dir.File("games.tgz"), testing::Packing::kTarGz,
                       {{"a.5dpgn", a},
                        {"b.5dpgn.gz", testing::PackedBytes(dir.File("scratch"),
                                                            testing::Packing::kGzip, {{"x", b}})},
                        {"notes.md", "# not games\n"}});
  const ProgramRun piped = RunOnStandardInput(dir, db, "games.tgz");
  EXPECT_TRUE(Summarized(piped, 0, "\"games\":2,\"indexed\":2,\"rejected\":0"));
  EXPECT_NE(piped.out.find("\"members_passed\":1"), std::string::npos) << piped.out;
  EXPECT_EQ(testing::Rows(db,
                          "SELECT s.path, s.member, g.white FROM games g JOIN sources s ON "
                          "s.id = g.source_id ORDER BY g.id"),
            "-|a.5dpgn|A|\n-|b.5dpgn.gz|B|\n");
  // A single compressed stream is the text itself; piped again, its game is already there.
  testing::WritePacked(dir.File("a.gz"), testing::Packing::kGzip, {{"x", a}});
  const ProgramRun again = RunOnStandardInput(dir, db, "a.gz");
  EXPECT_TRUE(Summarized(
      again, 0, "\"games\":1,\"indexed\":0,\"rejected\":0,\"duplicates\":0,\"skipped\":1,"));
  // A damaged stream says where, and keeps the games before the damage (comments of
  // pseudo-random digits make the compressed stream long enough to cut in the middle).
  std::string many;
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 5000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    many += "[Board \"Standard\"]\n[White \"" + std::to_string(x) + "\"]\n\n1. e3 / e6\n";
  }
  std::string cut =
      testing::PackedBytes(dir.File("scratch"), testing::Packing::kGzip, {{"x", many}});
  cut.resize(cut.size() / 2);
  WriteFile(dir.File("cut.gz"), cut);
  const ProgramRun damaged = RunOnStandardInput(dir, db, "cut.gz");
  EXPECT_EQ(damaged.status, 3) << damaged.err;
  EXPECT_NE(damaged.err.find("-: truncated gzip input"), std::string::npos) << damaged.err;
  EXPECT_GT(Count(db, "SELECT count(*) FROM games WHERE white GLOB '[0-9]*'"), 1000);
  EXPECT_LT(Count(db, "SELECT count(*) FROM games WHERE white GLOB '[0-9]*'"), 5000);
}

TEST(Index, Utf16FilesAreIndexedAsTheirTextAndReadAgainWholeWhenTheyGrow) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  // As Windows PowerShell writes a file: UTF-16 little endian with a byte order mark.
  auto utf16 = [](const std::string& latin1) {
    std::string out;
    for (unsigned char c : latin1) out += std::string{static_cast<char>(c), '\0'};
    return out;
  };
  auto game = [](const std::string& white, const std::string& moves) {
    return "[Board \"Standard\"]\n[White \"" + white + "\"]\n\n" + moves + "\n\n";
  };
  const std::string first = game("Jos\xE9", "1. e3 / e6") + game("A", "1. e4 / e6");
  WriteFile(dir.File("ps.5dpgn"), "\xFF\xFE" + utf16(first));
  ASSERT_EQ(Index(db, {dir.File("ps.5dpgn")}).summary.indexed, 2);
  EXPECT_EQ(testing::Rows(db, "SELECT white FROM games ORDER BY id"), "Jos\xC3\xA9|\nA|\n");
  // Unchanged: skipped. Grown: read again from the start (the offsets of its games are not the
  // file's), so the first games are already there and only the new one is added.
  EXPECT_EQ(Index(db, {dir.File("ps.5dpgn")}).summary.unchanged_files, 1);
  WriteFile(dir.File("ps.5dpgn"), "\xFF\xFE" + utf16(first + game("B", "1. e4 / e5")));
  const IndexRun grown = Index(db, {dir.File("ps.5dpgn")});
  EXPECT_EQ(grown.summary.indexed, 1) << grown.err;
  EXPECT_EQ(grown.summary.skipped, 2);
  EXPECT_EQ(grown.summary.rejected, 0);
  EXPECT_EQ(testing::Rows(db, "SELECT white FROM games ORDER BY id"), "Jos\xC3\xA9|\nA|\nB|\n");
  ExpectWhole(db, 3);
}

TEST(Index, AChatExportIndexesItsGamesAndRecordsTheRestWithItsLines) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  auto game = [](const std::string& white, const std::string& moves) {
    return "[Board \"Standard\"]\n[White \"" + white + "\"]\n\n" + moves + "\n";
  };
  // As a chat exporter writes a channel: a banner, "[date time] author" above each message,
  // games pasted as they are or in Markdown code blocks.
  WriteFile(dir.File("channel.txt"),
            "==========\nChannel: games\n==========\n\n"                        // lines 1-4
            "[01-Jan-21 12:34 PM] alice#1234\n" +                               // line 5
                game("A", "1. e3 / e6") +                                       // lines 6-9
                "\n[01-Jan-21 12:40 PM] bob#9999\nhere is mine:\n```5dpgn\n" +  // 10-13
                game("B", "1. e4 / e5") +                                       // lines 14-17
                "```\n\n[01-Jan-21 12:41 PM] carol#1\n```\n" +                  // lines 18-21
                game("C", "1. d3 / d6") +
                "```\n");  // lines 22-26
  const IndexRun run = Index(db, {dir.File("channel.txt")});
  EXPECT_EQ(run.summary.indexed, 3) << run.err;
  EXPECT_EQ(testing::Rows(db, "SELECT white FROM games ORDER BY id"), "A|\nB|\nC|\n");
  // The banner, alice's line, bob's message and carol's line: rejected, each where it starts.
  EXPECT_EQ(run.summary.rejected, 4);
  EXPECT_EQ(testing::Rows(db, "SELECT line FROM rejected ORDER BY line"), "1|\n5|\n11|\n20|\n");
}

TEST(Index, StandardInputComparesTextsNotOnlyMoves) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  const std::string first = "[Board \"Standard\"]\n[White \"A\"]\n\n1. e3 / e6\n";
  const std::string other_headers =
      "[Board \"Standard\"]\n[White \"A\"]\n[Event \"Z\"]\n\n1. e3 / e6\n";
  WriteFile(dir.File("a.5dpgn"), first);
  ASSERT_EQ(Index(db, {dir.File("a.5dpgn")}).summary.indexed, 1);
  // The same moves and player under another event: a new game (its text differs), a copy of
  // the first. The first game at another offset of standard input: already indexed.
  WriteFile(dir.File("b.5dpgn"), other_headers + "\n" + first);
  const ProgramRun piped = RunOnStandardInput(dir, db, "b.5dpgn");
  EXPECT_TRUE(Summarized(
      piped, 0, "\"games\":2,\"indexed\":1,\"rejected\":0,\"duplicates\":1,\"skipped\":1,"));
  EXPECT_EQ(Count(db, "SELECT count(*) FROM games WHERE duplicate_of = 1"), 1);
}

TEST(Index, StandardInputRecognisesGamesAmongManyCopiesOfTheirMoves) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  // 40 games of the same moves under different headers: more candidates than are read per game.
  std::string copies;
  for (int i = 0; i < 40; ++i) {
    copies += "[Event \"e" + std::to_string(i) + "\"]\n\n1. e3 / e6\n\n";
  }
  WriteFile(dir.File("copies.5dpgn"), copies);
  ASSERT_EQ(Index(db, {dir.File("copies.5dpgn")}).summary.indexed, 40);
  WriteFile(dir.File("more.5dpgn"), copies + "[Event \"new\"]\n\n1. e3 / e6\n");
  const ProgramRun piped = RunOnStandardInput(dir, db, "more.5dpgn");
  EXPECT_TRUE(Summarized(
      piped, 0, "\"games\":41,\"indexed\":1,\"rejected\":0,\"duplicates\":1,\"skipped\":40,"));
  ExpectWhole(db, 41);
}

TEST(Index, StandardInputStoresAGameTwiceInOneRunAsAFileWould) {
  TempDir dir;
  const std::string db = dir.File("db.sqlite");
  const std::string game = "[Board \"Standard\"]\n\n1. e3 / e6\n";
  WriteFile(dir.File("twice.5dpgn"), game + "\n" + game);
  const ProgramRun piped = RunOnStandardInput(dir, db, "twice.5dpgn");
  EXPECT_TRUE(Summarized(
      piped, 0, "\"games\":2,\"indexed\":2,\"rejected\":0,\"duplicates\":1,\"skipped\":0,"));
  EXPECT_EQ(Count(db, "SELECT duplicate_of FROM games WHERE id = 2"), 1);
  // Into a database that has games: the stream's own copies are stored too (only what was there
  // before the run counts), and the games of the first run are recognised.
  const std::string other = "[Board \"Standard\"]\n\n1. d3 / d6\n";
  WriteFile(dir.File("more.5dpgn"), other + "\n" + other + "\n" + game);
  const ProgramRun more = RunOnStandardInput(dir, db, "more.5dpgn");
  EXPECT_NE(more.out.find("\"games\":3,\"indexed\":2,\"rejected\":0,\"duplicates\":1,"
                          "\"skipped\":1,"),
            std::string::npos)
      << more.out;
  ExpectWhole(db, 4);
}

TEST(Index, NoDatabaseIsLeftWhenNoInputCanBeRead) {
  TempDir dir;
  const std::string db = dir.File("new.sqlite");
  // A missing file: the database is not even opened.
  const IndexRun missing = Index(db, {dir.File("missing.5dpgn")});
  EXPECT_EQ(missing.status, 3);
  EXPECT_EQ(missing.err.substr(0, missing.err.find('\n')),
            "5d-index: " + dir.File("missing.5dpgn") + ": no such file or directory");
  EXPECT_TRUE(dir.Entries().empty());
  // A socket exists but cannot be read.
  const std::string socket_path = dir.File("socket.5dpgn");
  const int socket_fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(socket_fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(socket_path.size(), sizeof address.sun_path);
  std::strcpy(address.sun_path, socket_path.c_str());
  ASSERT_EQ(bind(socket_fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const IndexRun unreadable = Index(db, {socket_path, dir.File("missing.5dpgn")});
  close(socket_fd);
  EXPECT_EQ(unreadable.status, 3);
  EXPECT_EQ(unreadable.summary.io_errors, 2);
  EXPECT_FALSE(fs::exists(db));
  // Standard input that fails once the database is made (a directory cannot be read): the
  // files this run created are removed.
  fs::create_directory(dir.File("folder"));
  const ProgramRun folder = RunOnStandardInput(dir, db, "folder");
  EXPECT_EQ(folder.status, 3);
  EXPECT_NE(folder.err.find("5d-index: -: read error\n"), std::string::npos) << folder.err;
  EXPECT_FALSE(fs::exists(db));
  EXPECT_FALSE(fs::exists(db + "-wal"));
  EXPECT_FALSE(fs::exists(db + "-shm"));
  // An existing database is kept whatever happens.
  WriteFile(dir.File("a.5dpgn"), kGames);
  ASSERT_EQ(Index(db, {dir.File("a.5dpgn")}).summary.indexed, 3);
  EXPECT_EQ(RunOnStandardInput(dir, db, "folder").status, 3);
  EXPECT_EQ(Index(db, {dir.File("missing.5dpgn")}).status, 3);
  ExpectWhole(db, 4);
}

TEST(Index, AnEmptyInputMakesAnEmptyDatabase) {
  TempDir dir;
  const std::string db = dir.File("new.sqlite");
  WriteFile(dir.File("empty.5dpgn"), "");
  const IndexRun run = Index(db, {dir.File("empty.5dpgn")});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(Count(db, "SELECT count(*) FROM games"), 0);
  // A readable input next to a missing one: the database is made, and the run fails.
  const std::string other = dir.File("other.sqlite");
  EXPECT_EQ(Index(other, {dir.File("empty.5dpgn"), dir.File("missing.5dpgn")}).status, 3);
  EXPECT_TRUE(fs::exists(other));
}

TEST(Index, MessagesShowInputBytesEscaped) {
  TempDir dir;
  // A move holding ESC and invalid UTF-8, in a file whose name holds a tab.
  const std::string name = dir.File("tab\there.5dpgn");
  WriteFile(name, "[Board \"Standard\"]\n\n1. e3 / Q\x1b[2J\xff\n");
  const IndexRun run = Index(dir.File("db.sqlite"), {name, dir.File("gone\x1b.5dpgn")});
  EXPECT_EQ(run.status, 3);
  EXPECT_NE(run.err.find(dir.File("tab\\x09here.5dpgn") + ": game 1, line 3, col"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("Q\\x1b[2J\\xff"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find(dir.File("gone\\x1b.5dpgn") + ": no such file or directory"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find('\x1b'), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find('\xff'), std::string::npos) << run.err;
  // The database keeps the raw text.
  EXPECT_EQ(
      Count(dir.File("db.sqlite"), "SELECT count(*) FROM rejected WHERE instr(text, char(27)) > 0"),
      1);
}

TEST(Index, PublicCorpusCountsAddUp) {
  const std::string shared = FIVED_SHARED_DIR;
  if (!fs::is_directory(shared + "/corpus/public")) {
    GTEST_SKIP() << "../shared is absent: the public corpus is not indexed";
  }
  TempDir dir;
  const IndexRun run = Index(dir.File("db.sqlite"), {shared + "/corpus/public"});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.summary.files, 202);
  EXPECT_EQ(run.summary.games, run.summary.indexed + run.summary.rejected);
  EXPECT_EQ(run.summary.rejected, 13);
  ExpectWhole(dir.File("db.sqlite"), run.summary.games);
}

}  // namespace
}  // namespace fived
