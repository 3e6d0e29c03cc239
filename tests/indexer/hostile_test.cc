// Hostile archives: a decompression bomb, thousands of empty members, member paths that climb
// out ("../") or are not UTF-8. Each is read in bounded memory with a clear message, and every
// other game is indexed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "schema/db.h"
#include "tests/indexer/archive_util.h"
#include "tests/indexer/db_check.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::Member;
using ::fived::testing::PackedBytes;
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

// Starts the 5d-index runs of these tests from a small process forked when the test program
// starts. A child's peak memory (ru_maxrss) includes what it shared with its parent before its
// exec, and the test process grows (much, under the sanitizers) before these tests run; the
// launcher's children inherit only the launcher's few megabytes.
class Launcher : public ::testing::Environment {
 public:
  void SetUp() override {
    int requests[2], answers[2];
    ASSERT_EQ(pipe(requests), 0);
    ASSERT_EQ(pipe(answers), 0);
    pid_ = fork();
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      close(requests[1]);
      close(answers[0]);
      Serve(requests[0], answers[1]);
      _exit(0);
    }
    close(requests[0]);
    close(answers[1]);
    requests_ = requests[1];
    answers_ = answers[0];
  }
  void TearDown() override {
    close(requests_);  // the launcher reads the end and exits
    close(answers_);
    waitpid(pid_, nullptr, 0);
  }

  // Runs 5d-index with `args`, its standard error into `err_path`; returns its exit status (-1
  // when it did not exit) and peak memory in KB.
  static std::pair<int, long> Run(const std::vector<std::string>& args,
                                  const std::string& err_path) {
    std::string request = err_path + '\0';
    for (const std::string& arg : args) request += arg + '\0';
    request += '\0';
    const uint64_t size = request.size();
    if (!WriteAll(requests_, &size, sizeof size) ||
        !WriteAll(requests_, request.data(), request.size())) {
      return {-1, 0};
    }
    int64_t answer[2] = {-1, 0};
    if (!ReadAll(answers_, answer, sizeof answer)) return {-1, 0};
    return {static_cast<int>(answer[0]), static_cast<long>(answer[1])};
  }

 private:
  // Moves `size` bytes with `io` (read or write), which may move fewer at a time.
  template <typename Byte, typename Io>
  static bool All(int fd, Byte* data, size_t size, Io io) {
    while (size > 0) {
      const ssize_t n = io(fd, data, size);
      if (n <= 0) return false;
      data += n;
      size -= static_cast<size_t>(n);
    }
    return true;
  }
  static bool WriteAll(int fd, const void* data, size_t size) {
    return All(fd, static_cast<const char*>(data), size, write);
  }
  static bool ReadAll(int fd, void* data, size_t size) {
    return All(fd, static_cast<char*>(data), size, read);
  }

  // The launcher: for each request (standard error's path, then the arguments), runs 5d-index
  // and answers its status and peak memory.
  static void Serve(int requests, int answers) {
    uint64_t size = 0;
    while (ReadAll(requests, &size, sizeof size)) {
      std::string request(size, '\0');
      if (!ReadAll(requests, request.data(), size)) return;
      std::vector<std::string> fields;
      for (size_t at = 0; at < request.size() && request[at] != '\0';) {
        const size_t end = request.find('\0', at);
        fields.push_back(request.substr(at, end - at));
        at = end + 1;
      }
      int64_t answer[2] = {-1, 0};
      const pid_t pid = fields.empty() ? -1 : fork();
      if (pid == 0) {
        close(requests);
        close(answers);
        const int null = open("/dev/null", O_WRONLY);
        const int err = open(fields[0].c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(null, STDOUT_FILENO);
        dup2(err, STDERR_FILENO);
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>("5d-index"));
        for (size_t i = 1; i < fields.size(); ++i) argv.push_back(fields[i].data());
        argv.push_back(nullptr);
        execv(FIVED_INDEX_BINARY, argv.data());
        _exit(127);
      }
      if (pid > 0) {
        int status = 0;
        struct rusage usage {};
        wait4(pid, &status, 0, &usage);
        answer[0] = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        answer[1] = usage.ru_maxrss;
      }
      if (!WriteAll(answers, answer, sizeof answer)) return;
    }
  }

  pid_t pid_ = -1;
  static inline int requests_ = -1;
  static inline int answers_ = -1;
};

[[maybe_unused]] ::testing::Environment* const kLauncher =
    ::testing::AddGlobalTestEnvironment(new Launcher);

// Runs 5d-index with `args` (through the launcher) and reads its exit status, standard error and
// peak memory.
IndexRun RunIndex(const std::vector<std::string>& args, const std::string& err_path) {
  IndexRun run;
  std::tie(run.status, run.peak_kb) = Launcher::Run(args, err_path);
  std::ifstream in(err_path);
  std::ostringstream text;
  text << in.rdbuf();
  run.err = text.str();
  return run;
}

TEST(HostileTest, ADecompressionBombIsOneRejectedGameReadInBoundedMemory) {
  TempDir dir;
  // 256 MiB of zeros compress to a quarter of a megabyte; a game follows it in the archive.
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
  EXPECT_EQ(
      Rows(dir.File("db.sqlite"), "SELECT length(CAST(text AS BLOB)), line, col FROM rejected"),
      "4096|1|1|\n");
}

TEST(HostileTest, ArchivesWithinArchivesAreReadFourLevelsDeepAndNoDeeper) {
  TempDir dir;
  // A bomb of archives within archives: each level holds two of the next, and the sixth level
  // 256 MiB of zeros. Games stand at the first, third and fourth levels.
  auto game = [](const std::string& white) {
    return "[Board \"Standard\"]\n[White \"" + white + "\"]\n\n1. e3 / e6\n";
  };
  // The contents of e*.zip, then d*.zip (two e*.zip), c*.zip and b.zip.
  std::string level = PackedBytes(dir.File("scratch"), Packing::kZip,
                                  {{"zeros.5dpgn", std::string(256u << 20, '\0')}});
  for (const std::string child : {"e", "d", "c"}) {
    std::vector<Member> members;
    if (child == "d") {
      members.emplace_back("deep.5dpgn.gz",
                           PackedBytes(dir.File("scratch"), Packing::kGzip, {{"x", game("Deep")}}));
    }
    if (child == "c") members.emplace_back("mid.pgn", game("Mid"));
    members.emplace_back(child + "0.zip", level);
    members.emplace_back(child + "1.zip", level);
    level = PackedBytes(dir.File("scratch"), Packing::kZip, members);
  }
  std::filesystem::remove(dir.File("scratch"));
  WritePacked(dir.File("nested.tar.gz"), Packing::kTarGz,
              {{"top.5dpgn", game("Top")}, {"b.zip", level}});
  ASSERT_LT(std::filesystem::file_size(dir.File("nested.tar.gz")), 8u << 20);
  const IndexRun run = RunIndex(
      {"--quiet", "--db", dir.File("db.sqlite"), dir.File("nested.tar.gz")}, dir.File("err.txt"));
  EXPECT_EQ(run.status, 3) << run.err;  // members that could not be read
  EXPECT_LT(run.peak_kb, 160 * 1024) << "peak " << run.peak_kb << " KB";
  // The tar.gz, b.zip, c*.zip and d*.zip are read; the e*.zip inside each d*.zip are not.
  size_t refused = 0;
  for (size_t at = 0;
       (at = run.err.find("packed more than 4 levels deep; not read", at)) != std::string::npos;
       ++at) {
    ++refused;
  }
  EXPECT_EQ(refused, 8u) << run.err;
  EXPECT_NE(run.err.find("nested.tar.gz:b.zip/c1.zip/d0.zip/e1.zip: packed more than 4 levels"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(Rows(dir.File("db.sqlite"),
                 "SELECT s.member, g.white FROM games g JOIN sources s ON s.id = g.source_id "
                 "ORDER BY g.id"),
            "top.5dpgn|Top|\nb.zip/mid.pgn|Mid|\nb.zip/c0.zip/deep.5dpgn.gz|Deep|\n"
            "b.zip/c1.zip/deep.5dpgn.gz|Deep|\n");
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
  const IndexRun run = RunIndex(
      {"--quiet", "--db", dir.File("db.sqlite"), dir.File("inside/odd.zip")}, dir.File("err.txt"));
  EXPECT_EQ(run.status, 1) << run.err;
  // Nothing was written outside the database (nor anywhere: archives are never extracted).
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "escaped.5dpgn"));
  EXPECT_FALSE(std::filesystem::exists(dir.path().parent_path() / "escaped.5dpgn"));
  EXPECT_FALSE(std::filesystem::exists("/absolute.pgn"));
  // The names are kept as stored; the message shows the bytes that are not UTF-8 escaped.
  EXPECT_EQ(Rows(dir.File("db.sqlite"),
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
