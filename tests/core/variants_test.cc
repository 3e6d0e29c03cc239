// Tests for the official variant table and the lenient matching of [Board] header values.
#include "core/variants.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace fived {
namespace {

const std::filesystem::path kSharedDir = FIVED_SHARED_DIR;

std::vector<std::string> Split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.emplace_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// Width of one 5DFEN row: digits are runs of empty squares, a letter is a piece that may carry a
// '*' (unmoved) after it and a '+' before it. Returns -1 on anything else.
int RowWidth(std::string_view row) {
  int width = 0;
  std::size_t i = 0;
  while (i < row.size()) {
    if (std::isdigit(static_cast<unsigned char>(row[i]))) {
      int run = 0;
      while (i < row.size() && std::isdigit(static_cast<unsigned char>(row[i]))) {
        run = run * 10 + (row[i++] - '0');
      }
      width += run;
      continue;
    }
    if (row[i] == '+') ++i;
    if (i >= row.size() || !std::isalpha(static_cast<unsigned char>(row[i]))) return -1;
    ++i;
    if (i < row.size() && row[i] == '*') ++i;
    ++width;
  }
  return width;
}

const Variant& Named(std::string_view name) {
  for (const Variant& variant : OfficialVariants()) {
    if (variant.name == name) return variant;
  }
  ADD_FAILURE() << "no official variant named " << name;
  return OfficialVariants().front();
}

TEST(VariantsTest, TableHoldsTheFortyFiveOfficialVariantsStandardFirst) {
  ASSERT_EQ(OfficialVariants().size(), 45u);
  EXPECT_EQ(OfficialVariants().front().name, "Standard");
}

TEST(VariantsTest, EveryOfficialNameFindsItself) {
  for (const Variant& variant : OfficialVariants()) {
    EXPECT_EQ(FindVariant(variant.name), &variant) << variant.name;

    // The same name shouted and written with underscores still finds the same variant.
    std::string mangled;
    for (char c : variant.name) {
      mangled.push_back(c == ' ' ? '_' : static_cast<char>(std::toupper(c)));
    }
    EXPECT_EQ(FindVariant(mangled), &variant) << mangled;
  }
}

TEST(VariantsTest, LenientNamesFindTheirVariant) {
  struct Case {
    std::string_view header;
    std::string_view official;
  };
  const Case cases[] = {
      {"", "Standard"},
      {"   ", "Standard"},
      {"standard", "Standard"},
      {"STANDARD", "Standard"},
      {"Small", "Small"},
      {"small", "Small"},
      {"Misc - Small", "Small"},
      {"Very Small", "Very Small"},
      {"Misc - Very Small", "Very Small"},
      {"Very Small - Open", "Very Small - Open"},
      {"verysmall_open", "Very Small - Open"},
      {"Small - Open", "Small - Open"},
      {"Small - Flipped", "Small - Flipped"},
      {"Flipped", "Small - Flipped"},
      {"Princess", "Standard - Princess"},
      {"Two Timelines", "Standard - Two Timelines"},
      {"Two Timeline", "Standard - Two Timelines"},
      {"half_reflected", "Standard - Half Reflected"},
      {"Standard - Half Reflected", "Standard - Half Reflected"},
      {"Turn Zero", "Standard - Turn Zero"},
      {"turn-zero", "Standard - Turn Zero"},
      {"No Queens", "Simple - No Queens"},
      {"Simple Set", "Simple - Simple Set"},
      {"Knights vs Bishop", "Simple - Knights vs. Bishop"},
      {"Misc - Timeline Battleground", "Misc - Timeline Battlegrounds"},
      {"Timeline Battlegrounds", "Misc - Timeline Battlegrounds"},
      {"Just Brawn", "Focused - Just Brawns"},
      {"Checkmate Practice: Pawns", "Checkmate Practice - Pawns"},
      {"Global Warming", "Misc - Global Warming"},
  };
  for (const Case& c : cases) {
    const Variant* found = FindVariant(c.header);
    ASSERT_NE(found, nullptr) << '"' << c.header << '"';
    EXPECT_EQ(found->name, c.official) << '"' << c.header << '"';
  }
}

TEST(VariantsTest, AmbiguousNamesFindNothing) {
  // "Open" is both "Small - Open" and "Very Small - Open".
  EXPECT_EQ(FindVariant("Open"), nullptr);
}

TEST(VariantsTest, GarbageFindsNothing) {
  for (std::string_view name : {"Nonsense", "Standard - Nonsense", "Chess960", "-", "!!!", "s",
                                "Misc", "Checkmate Practice", "Standard - Turn One", "Timeline",
                                // A category is left out or added, never exchanged for another.
                                "Small - Princess", "Standard - No Queens", "Misc - Open"}) {
    EXPECT_EQ(FindVariant(name), nullptr) << '"' << name << '"';
  }
}

TEST(VariantsTest, CustomIsNotAVariant) {
  for (std::string_view name : {"custom", "Custom", "CUSTOM", " custom "}) {
    EXPECT_TRUE(IsCustomBoardName(name)) << '"' << name << '"';
    EXPECT_EQ(FindVariant(name), nullptr) << '"' << name << '"';
  }
  for (std::string_view name : {"", "Standard", "customs", "cus tom", "Misc - Custom"}) {
    EXPECT_FALSE(IsCustomBoardName(name)) << '"' << name << '"';
  }
}

TEST(VariantsTest, BoardsHaveTheDeclaredSize) {
  for (const Variant& variant : OfficialVariants()) {
    ASSERT_FALSE(variant.boards.empty()) << variant.name;
    for (const std::string& board : variant.boards) {
      ASSERT_GE(board.size(), 2u) << variant.name;
      ASSERT_EQ(board.front(), '[') << board;
      ASSERT_EQ(board.back(), ']') << board;
      const std::vector<std::string> fields = Split(board.substr(1, board.size() - 2), ':');
      ASSERT_EQ(fields.size(), 4u) << board;
      const std::vector<std::string> rows = Split(fields[0], '/');
      EXPECT_EQ(static_cast<int>(rows.size()), variant.height) << board;
      for (const std::string& row : rows) {
        EXPECT_EQ(RowWidth(row), variant.width) << variant.name << ": row " << row;
      }
    }
  }
}

TEST(VariantsTest, PromotionIsPrincessOnlyWithoutQueens) {
  for (const Variant& variant : OfficialVariants()) {
    bool has_queen = false;
    bool has_princess = false;
    for (const std::string& board : variant.boards) {
      const std::string placement = board.substr(0, board.find(':'));
      has_queen = has_queen || placement.find_first_of("Qq") != std::string::npos;
      has_princess = has_princess || placement.find_first_of("Ss") != std::string::npos;
    }
    EXPECT_EQ(variant.default_promotion, has_princess && !has_queen ? "S" : "Q") << variant.name;
  }
  EXPECT_EQ(Named("Standard - Princess").default_promotion, "S");
  EXPECT_EQ(Named("Standard - Reversed Royalty").default_promotion, "Q");
}

TEST(VariantsTest, TableMatchesSharedOfficialFile) {
  const std::filesystem::path path = kSharedDir / "variants" / "official.5dpgn";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent (no ../shared)";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;

  // Each entry is [Board "name"], [Size "WxH"], then one 5DFEN line per board.
  struct Entry {
    std::string name;
    std::string size;
    std::vector<std::string> boards;
  };
  std::vector<Entry> entries;
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("[Board \"")) {
      entries.push_back({line.substr(8, line.size() - 10), "", {}});
    } else if (line.starts_with("[Size \"")) {
      ASSERT_FALSE(entries.empty()) << line;
      entries.back().size = line.substr(7, line.size() - 9);
    } else if (line.starts_with("[")) {
      ASSERT_FALSE(entries.empty()) << line;
      entries.back().boards.push_back(line);
    }
  }

  ASSERT_EQ(entries.size(), OfficialVariants().size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Variant& variant = OfficialVariants()[i];
    EXPECT_EQ(variant.name, entries[i].name);
    EXPECT_EQ(std::to_string(variant.width) + "x" + std::to_string(variant.height), entries[i].size)
        << variant.name;
    EXPECT_EQ(variant.boards, entries[i].boards) << variant.name;
  }
}

TEST(VariantsTest, EveryBoardHeaderOfThePublicCorpusIsFound) {
  const std::filesystem::path path = kSharedDir / "corpus" / "public" / "MANIFEST.tsv";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent (no ../shared)";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;

  std::string line;
  ASSERT_TRUE(std::getline(in, line)) << path << " is empty";
  const std::vector<std::string> columns = Split(line, '\t');
  std::size_t board_column = columns.size();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == "board_header") board_column = i;
  }
  ASSERT_LT(board_column, columns.size()) << "no board_header column in " << path;

  int checked = 0;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> fields = Split(line, '\t');
    ASSERT_LT(board_column, fields.size()) << line;
    const std::string& board = fields[board_column];
    if (board.empty() || IsCustomBoardName(board)) continue;
    EXPECT_NE(FindVariant(board), nullptr) << fields[0] << ": [Board \"" << board << "\"]";
    ++checked;
  }
  EXPECT_GT(checked, 0) << "no named variant in " << path;
}

}  // namespace
}  // namespace fived
