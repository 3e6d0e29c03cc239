// Hostile archives: a decompression bomb, thousands of empty members, member paths that climb
// out ("../") or are not UTF-8. Each is read in bounded memory with a clear message, and every
// other game is indexed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "schema/db.h"
#include "tests/indexer/archive_util.h"
#include "tests/indexer/db_check.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::Member;
using ::fived::testing::Packing;
using ::fived::testing::Rows;
using ::fived::testing::TempDir;
using ::fived::testing::WritePacked;

constexpr std::string_view kGame = "[Board \"Standard\"]\n[White \"A\"]\n\n1. e3 / e6\n";

struct IndexRun {
  int status = -1;
  long peak_kb = 0;  // the child's peak resident memory
  std::string err;
};

// Runs 5d-index with `args` in a child process and reads its exit status, standard error and
// peak memory.
IndexRun RunIndex(const std::vector<std::string>& args, const std::string& err_path) {
  IndexRun run;
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(null, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    std::vector<char*> argv;
    std::vector<std::string> copy = args;
    argv.push_back(const_cast<char*>("5d-index"));
    for (std::string& arg : copy) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(FIVED_INDEX_BINARY, argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.peak_kb = usage.ru_maxrss;
  std::ifstream in(err_path);
  std::ostringstream text;
  text << in.rdbuf();
  run.err = text.str();
  return run;
}

TEST(HostileTest, ADecompressionBombIsOneRejectedGameReadInBoundedMemory) {
  TempDir dir;
  // 256 MiB of zeros compress to a quarter of a megabyte; a game follows it in the archive.
  // (The zeros are freed before 5d-index is started: a child's peak memory counts what it
  // shared with this process before its exec.)
  {
    const std::string zeros(256u << 20, '\0');
    WritePacked(dir.File("bomb.zip"), Packing::kZip,
                {{"bomb.5dpgn", zeros}, {"good.5dpgn", std::string(kGame)}});
  }
  ASSERT_LT(std::filesystem::file_size(dir.File("bomb.zip")), 2u << 20);
  const IndexRun run = RunIndex({"--quiet", "--db", dir.File("db.sqlite"), dir.File("bomb.zip")},
                           dir.File("err.txt"));
  EXPECT_EQ(run.status, 1) << run.err;  // a rejection, recorded
  // Far below the 256 MiB the bomb holds (the splitter keeps 16 MiB of a game at most).
  EXPECT_LT(run.peak_kb, 160 * 1024) << "peak " << run.peak_kb << " KB";
  EXPECT_NE(run.err.find("bomb.zip:bomb.5dpgn: game 1, line 1, col 1: a game of 268435456 bytes, "
                         "longer than the 16777216 a game may have"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(Rows(dir.File("db.sqlite"),
                  "SELECT s.member, g.white FROM games g JOIN sources s "
                  "ON s.id = g.source_id"),
            "good.5dpgn|A|\n");
  EXPECT_EQ(Rows(dir.File("db.sqlite"), "SELECT length(CAST(text AS BLOB)), line, col FROM rejected"),
            "4096|1|1|\n");
}

TEST(HostileTest, ThousandsOfEmptyMembersLeaveNoTrace) {
  TempDir dir;
  std::vector<Member> members;
  for (int i = 0; i < 5000; ++i) members.emplace_back("empty/" + std::to_string(i) + ".5dpgn", "");
  members.emplace_back("games.5dpgn", std::string(kGame));
  WritePacked(dir.File("many.tar"), Packing::kTar, members);
  const IndexRun run = RunIndex({"--quiet", "--db", dir.File("db.sqlite"), dir.File("many.tar")},
                           dir.File("err.txt"));
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(Rows(dir.File("db.sqlite"), "SELECT count(*) FROM games"), "1|\n");
  // The archive's own row and its one member with games.
  EXPECT_EQ(Rows(dir.File("db.sqlite"), "SELECT member FROM sources ORDER BY id"),
            "|\ngames.5dpgn|\n");
}

TEST(HostileTest, MemberPathsThatClimbOutOrAreNotUtf8AreOnlyNames) {
  TempDir dir;
  std::filesystem::create_directory(dir.path() / "inside");
  const std::string rejected = "[Board \"Standard\"]\n\n1. e4 / Nxe5\n";
  WritePacked(dir.File("inside/odd.zip"), Packing::kZip,
              {{"../../escaped.5dpgn", std::string(kGame)},
               {"caf\xe9-\xff.5dpgn", rejected},
               {"/absolute.pgn", std::string(kGame) + "2. Nf3 / Nf6\n"}});
  const IndexRun run = RunIndex({"--quiet", "--db", dir.File("db.sqlite"), dir.File("inside/odd.zip")},
                           dir.File("err.txt"));
  EXPECT_EQ(run.status, 1) << run.err;
  // Nothing was written outside the database (nor anywhere: archives are never extracted).
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "escaped.5dpgn"));
  EXPECT_FALSE(std::filesystem::exists(dir.path().parent_path() / "escaped.5dpgn"));
  EXPECT_FALSE(std::filesystem::exists("/absolute.pgn"));
  // The names are kept as stored; the message shows the bytes that are not UTF-8 escaped.
  EXPECT_EQ(
      Rows(dir.File("db.sqlite"),
            "SELECT s.member FROM games g JOIN sources s ON s.id = g.source_id ORDER BY g.id"),
      "../../escaped.5dpgn|\n/absolute.pgn|\n");
  EXPECT_EQ(Rows(dir.File("db.sqlite"),
                  "SELECT hex(s.member) FROM rejected r JOIN sources s ON "
                  "s.id = r.source_id"),
            "636166E92DFF2E356470676E|\n");
  EXPECT_NE(run.err.find("odd.zip:caf\\xe9-\\xff.5dpgn: game 1, line 3, col 9: Nxe5"),
            std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace fived
