// Faults injected into the I/O of an ingest of corpus/ and of a merge (tests/indexer/fault_vfs.h):
// the Nth file open, read, write or sync fails with SQLITE_FULL (from then on, as a full disk) or
// SQLITE_IOERR (once), at points spread over every call of each kind a clean run makes. Every run
// that the fault stops ends with exit status 3 and a message naming the database and the cause;
// the database it leaves passes PRAGMA integrity_check and 5d-index verify; running the same
// command again without faults stores exactly the games of a clean run. A run whose fault SQLite
// absorbed (a failed checkpoint as the database closes, say) must end as the clean run did.
//
// ctest runs a sample of points (FIVED_FAULT_POINTS, default 16 per sweep);
// scripts/fault-sweep.sh runs hundreds and prints the figures.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "indexer/index.h"
#include "indexer/merge.h"
#include "indexer/verify.h"
#include "schema/db.h"
#include "tests/indexer/db_check.h"
#include "tests/indexer/fault_vfs.h"
#include "tests/indexer/run_as_tool.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

namespace fs = std::filesystem;
using ::fived::testing::FaultVfs;
using ::fived::testing::IoCall;
using ::fived::testing::TempDir;

int PointsPerSweep() {
  const char* points = std::getenv("FIVED_FAULT_POINTS");
  const int n = points != nullptr ? std::atoi(points) : 0;
  return n > 0 ? n : 16;
}

struct RunResult {
  int status = 0;
  std::string err;
};

RunResult Index(const std::string& db, const std::vector<std::string>& inputs) {
  IndexOptions options;
  options.database = db;
  options.inputs = inputs;
  options.jobs = 2;
  options.commit_every = 4;  // several commits, so that a fault can fall between them
  std::ostringstream out, err;
  RunResult run;
  run.status = testing::IndexAsTool(options, out, err);
  run.err = err.str();
  return run;
}

RunResult Merge(const std::string& output, const std::vector<std::string>& inputs) {
  MergeOptions options;
  options.output = output;
  options.inputs = inputs;
  std::ostringstream out, err;
  RunResult run;
  run.status = testing::MergeAsTool(options, out, err);
  run.err = err.str();
  return run;
}

// The games and rejections of a database, whatever their ids: source, place, text hash, and
// whether the game is a copy.
std::string Games(const std::string& db) {
  return testing::Rows(db,
                       "SELECT s.path, g.byte_offset, g.text_hash, g.duplicate_of IS NULL FROM "
                       "games g JOIN sources s ON s.id = g.source_id ORDER BY 1, 2, 3") +
         "--\n" +
         testing::Rows(db,
                       "SELECT s.path, r.byte_offset, r.text_hash FROM rejected r JOIN sources s "
                       "ON s.id = r.source_id ORDER BY 1, 2, 3");
}

// A fault: the nth call of a kind fails with a code.
struct Point {
  IoCall call;
  long nth;
  int code;
  bool persistent;
  std::string Name() const {
    return std::string(testing::IoCallName(call)) + " " + std::to_string(nth) + " fails with " +
           sqlite3_errstr(code) + (persistent ? " from then on" : " once");
  }
};

// `points` faults spread evenly over the calls of each kind a clean run made (`calls`): writes
// and syncs fail with SQLITE_FULL from then on or with an I/O error once, in turn; opens and
// reads with an I/O error once.
std::vector<Point> Spread(const std::map<IoCall, long>& calls, int points) {
  std::vector<Point> out;
  const int per_kind = std::max(1, points / static_cast<int>(testing::kIoCalls.size()));
  for (IoCall call : testing::kIoCalls) {
    const long total = calls.at(call);
    if (total == 0) continue;
    for (int j = 0; j < per_kind; ++j) {
      const long nth = 1 + (per_kind == 1 ? 0 : (total - 1) * j / (per_kind - 1));
      if (!out.empty() && out.back().call == call && out.back().nth == nth) continue;
      const bool full = (call == IoCall::kWrite || call == IoCall::kSync) && j % 2 == 0;
      const int io_error = call == IoCall::kOpen   ? SQLITE_IOERR
                           : call == IoCall::kRead ? SQLITE_IOERR_READ
                           : call == IoCall::kSync ? SQLITE_IOERR_FSYNC
                                                   : SQLITE_IOERR_WRITE;
      out.push_back({call, nth, full ? SQLITE_FULL : io_error, full});
    }
  }
  return out;
}

// What a sweep saw, printed for scripts/fault-sweep.sh.
struct Figures {
  int points = 0;
  int stopped = 0;   // ended with status 3
  int absorbed = 0;  // ended as the clean run did
  int no_database = 0;
  std::map<std::string, int> causes;
  void Print(const std::string& what) const {
    std::cout << "[ figures ] " << what << ": " << points << " faults, " << stopped
              << " stopped the run with status 3, " << absorbed
              << " were absorbed (the run ended as a clean run), " << no_database
              << " left no database; causes:";
    for (const auto& [cause, n] : causes) std::cout << " " << cause << " " << n << ";";
    std::cout << " every database left passed integrity_check and verify, and every rerun "
                 "stored the games of a clean run\n";
  }
};

// The outcome of a run under `point` into `db`, and then of the same command without faults. The
// error must name one of `names`.
void Check(const Point& point, const RunResult& run, const RunResult& clean, const std::string& db,
           const std::string& clean_db, const std::vector<std::string>& names,
           const std::function<RunResult()>& again, Figures* figures) {
  SCOPED_TRACE(point.Name());
  ++figures->points;
  if (run.status == 3) {
    ++figures->stopped;
    // The message names the database and the cause: the output, or the input that failed.
    bool named = false;
    for (const std::string& name : names)
      named = named || run.err.find(name + ": ") != std::string::npos;
    EXPECT_TRUE(named) << run.err;
    std::string cause;
    for (const char* known : {sqlite3_errstr(point.code), "unable to open database",
                              "disk I/O error", "database or disk is full"}) {
      if (run.err.find(known) != std::string::npos) {
        cause = known;
        break;
      }
    }
    EXPECT_FALSE(cause.empty()) << run.err;
    ++figures->causes[cause];
  } else {
    ++figures->absorbed;
    EXPECT_EQ(run.status, clean.status) << run.err;
  }
  if (fs::exists(db)) {
    testing::ExpectSoundAndWhole(db);
    const VerifyReport report = VerifyDatabase(db);
    EXPECT_EQ(report.verdict, VerifyReport::Verdict::kSound)
        << report.error << (report.problems.empty() ? "" : report.problems.front());
  } else {
    ++figures->no_database;
  }
  const RunResult rerun = again();
  EXPECT_EQ(rerun.status, clean.status) << rerun.err;
  EXPECT_EQ(Games(db), Games(clean_db));
}

std::map<IoCall, long> Calls(const FaultVfs& vfs) {
  std::map<IoCall, long> calls;
  for (IoCall call : testing::kIoCalls) calls[call] = vfs.calls(call);
  return calls;
}

std::vector<std::string> Corpus() {
  const std::string corpus = std::string(FIVED_SOURCE_DIR) + "/corpus";
  return {corpus + "/club-games.5dpgn", corpus + "/adri326-5dchess-notation.5dpgn",
          corpus + "/rejected"};
}

TEST(Faults, AnIngestOfTheCorpusStoppedByAnyIoFaultLosesNothingCommitted) {
  TempDir dir;
  const std::string clean_db = dir.File("clean.sqlite");
  RunResult clean;
  std::map<IoCall, long> calls;
  {
    FaultVfs vfs(dir.path().string());
    clean = Index(clean_db, Corpus());
    calls = Calls(vfs);
  }
  ASSERT_EQ(clean.status, 1) << clean.err;  // corpus/rejected holds a rejected game
  Figures figures;
  int n = 0;
  for (const Point& point : Spread(calls, PointsPerSweep())) {
    const std::string db = dir.File("faulty" + std::to_string(n++) + ".sqlite");
    RunResult run;
    {
      FaultVfs vfs(dir.path().string());
      vfs.FailAt(point.call, point.nth, point.code, point.persistent);
      run = Index(db, Corpus());
    }
    Check(
        point, run, clean, db, clean_db, {db}, [&] { return Index(db, Corpus()); }, &figures);
  }
  figures.Print("ingest of corpus/ (" + std::to_string(calls[IoCall::kOpen]) + " opens, " +
                std::to_string(calls[IoCall::kRead]) + " reads, " +
                std::to_string(calls[IoCall::kWrite]) + " writes, " +
                std::to_string(calls[IoCall::kSync]) + " syncs in a clean run)");
  EXPECT_GT(figures.stopped, 0);
}

TEST(Faults, AMergeStoppedByAnyIoFaultLosesNothingCommitted) {
  TempDir dir;
  const std::vector<std::string> corpus = Corpus();
  const std::string a = dir.File("a.sqlite"), b = dir.File("b.sqlite");
  ASSERT_EQ(Index(a, {corpus[0]}).status, 0);
  ASSERT_EQ(Index(b, {corpus[1], corpus[2]}).status, 1);
  const std::string clean_db = dir.File("clean.sqlite");
  RunResult clean;
  std::map<IoCall, long> calls;
  {
    FaultVfs vfs(dir.path().string());
    clean = Merge(clean_db, {a, b});
    calls = Calls(vfs);
  }
  ASSERT_EQ(clean.status, 0) << clean.err;
  Figures figures;
  int n = 0;
  for (const Point& point : Spread(calls, PointsPerSweep())) {
    const std::string db = dir.File("faulty" + std::to_string(n++) + ".sqlite");
    RunResult run;
    {
      FaultVfs vfs(dir.path().string());
      vfs.FailAt(point.call, point.nth, point.code, point.persistent);
      run = Merge(db, {a, b});
    }
    // A fault in reading an input stops the merge too; the inputs are never changed.
    Check(
        point, run, clean, db, clean_db, {db, a, b},
        [&] {
          return Merge(db, {a, b});
        },
        &figures);
  }
  figures.Print("merge of two shards of corpus/ (" + std::to_string(calls[IoCall::kOpen]) +
                " opens, " + std::to_string(calls[IoCall::kRead]) + " reads, " +
                std::to_string(calls[IoCall::kWrite]) + " writes, " +
                std::to_string(calls[IoCall::kSync]) + " syncs in a clean run)");
  EXPECT_GT(figures.stopped, 0);
  EXPECT_EQ(VerifyDatabase(a).verdict, VerifyReport::Verdict::kSound);
  EXPECT_EQ(VerifyDatabase(b).verdict, VerifyReport::Verdict::kSound);
}

}  // namespace
}  // namespace fived
