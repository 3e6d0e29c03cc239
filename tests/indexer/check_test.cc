// The check mode: what it prints for games that replay and for games that do not, with the input
// quoted escaped.
#include "indexer/check.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/indexer/archive_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::TempDir;

TEST(Check, ErrorLinesShowInputBytesEscaped) {
  TempDir dir;
  // A file whose name holds a tab, and a move holding ESC and invalid UTF-8.
  const std::string path = dir.File("tab\there.5dpgn");
  std::ofstream(path, std::ios::binary) << "[Board \"Standard\"]\n\n1. e3 / Q\x1b[2J\xff\n";
  CheckOptions options;
  options.output = CheckOptions::Output::kHashes;
  std::ostringstream out, err;
  const CheckSummary summary = CheckFiles({path}, options, out, err);
  EXPECT_EQ(summary.rejected, 1);
  const std::string name = dir.File("tab\\x09here.5dpgn");
  std::istringstream lines(out.str());
  std::string line, last;
  while (std::getline(lines, line)) last = line;
  EXPECT_TRUE(last.starts_with(name + "\t1\terror\tgame 1, line 3, col ")) << out.str();
  EXPECT_NE(last.find("Q\\x1b[2J\\xff"), std::string::npos) << last;
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos);
  EXPECT_EQ(err.str().find('\x1b'), std::string::npos);
  EXPECT_EQ(out.str().find('\xff'), std::string::npos);
  EXPECT_NE(err.str().find(name + ": game 1, line 3, col"), std::string::npos) << err.str();
  // An unreadable file is named escaped too.
  std::ostringstream out2, err2;
  CheckFiles({dir.File("gone\x1b.5dpgn")}, CheckOptions{}, out2, err2);
  EXPECT_EQ(out2.str().substr(0, out2.str().find('\n')),
            dir.File("gone\\x1b.5dpgn") + ": cannot open file");
}

TEST(Check, DirectoriesAreSearchedAsWhenIndexing) {
  // As 5d-index does when indexing: a directory stands for its *.5dpgn, *.pgn and *.txt files and
  // its compressed files and archives, searched recursively and sorted by path; other files are
  // not read.
  TempDir dir;
  const std::string game = "[Board \"Standard\"]\n\n1. e3 / e6\n";
  std::filesystem::create_directories(dir.File("games/sub"));
  std::ofstream(dir.File("games/b.5dpgn"), std::ios::binary) << game;
  std::ofstream(dir.File("games/sub/a.pgn"), std::ios::binary) << game << "\n" << game;
  std::ofstream(dir.File("games/notes.dat"), std::ios::binary) << game;
  // Compressed files and archives by the names they go by (.tzst is a tar.zst).
  testing::WritePacked(dir.File("games/c.tzst"), testing::Packing::kTarZstd, {{"x.5dpgn", game}});
  testing::WritePacked(dir.File("games/sub/d.pgn.xz"), testing::Packing::kXz, {{"x", game}});
  CheckOptions options;
  options.output = CheckOptions::Output::kFen;
  std::ostringstream out, err;
  const CheckSummary summary = CheckFiles({dir.File("games")}, options, out, err);
  EXPECT_EQ(summary.games, 5);
  EXPECT_EQ(summary.replayed, 5);
  EXPECT_EQ(summary.unreadable_files, 0);
  std::istringstream lines(out.str());
  std::vector<std::string> sources;
  for (std::string line; std::getline(lines, line);)
    sources.push_back(line.substr(0, line.find('\t')));
  EXPECT_EQ(sources, (std::vector<std::string>{
                         dir.File("games/b.5dpgn"), dir.File("games/c.tzst") + ":x.5dpgn",
                         dir.File("games/sub/a.pgn"), dir.File("games/sub/a.pgn"),
                         dir.File("games/sub/d.pgn.xz")}));
}

}  // namespace
}  // namespace fived
