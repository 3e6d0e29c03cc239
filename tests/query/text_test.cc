// Aligned tables for terminals (query/text.h): widths in terminal columns, long cells cut with an
// ellipsis, control characters escaped.
#include "query/text.h"

#include <gtest/gtest.h>

namespace fived {
namespace {

TEST(DisplayWidth, CountsTerminalColumns) {
  EXPECT_EQ(DisplayWidth(""), 0u);
  EXPECT_EQ(DisplayWidth("Ann"), 3u);
  EXPECT_EQ(DisplayWidth("Inês"), 4u);          // precomposed ê
  EXPECT_EQ(DisplayWidth("Ine\xCC\x82s"), 4u);  // e + combining circumflex
  EXPECT_EQ(DisplayWidth("Ανδρέας"), 7u);
  EXPECT_EQ(DisplayWidth("李小龍"), 6u);  // wide characters take two columns
  EXPECT_EQ(DisplayWidth("a\xFF"
                         "b"),
            3u);  // a broken byte counts one
}

TEST(FitWidth, CutsWholeCharactersAndEndsWithAnEllipsis) {
  EXPECT_EQ(FitWidth("1-0", 8), "1-0");
  EXPECT_EQ(FitWidth("Stuck looking for legal moves", 8), "Stuck l\xE2\x80\xA6");
  EXPECT_EQ(DisplayWidth(FitWidth("Stuck looking for legal moves", 8)), 8u);
  // A wide character that would straddle the limit is left out whole.
  EXPECT_EQ(FitWidth("李小龍李小龍", 6), "李小\xE2\x80\xA6");
  EXPECT_EQ(DisplayWidth(FitWidth("李小龍李小龍", 6)), 5u);
  // A combining accent stays with its letter.
  EXPECT_EQ(FitWidth("ae\xCC\x82"
                     "bcdef",
                     3),
            "ae\xCC\x82\xE2\x80\xA6");
}

TEST(FormatTable, AlignsByDisplayWidth) {
  const std::string table =
      FormatTable({{"white", "games"}, {"Inês Carvalho", "3"}, {"Ανδρέας", "12"}, {"李小龍", "1"}},
                  {false, true});
  EXPECT_EQ(table,
            "white          games\n"
            "Inês Carvalho      3\n"
            "Ανδρέας           12\n"
            "李小龍             1\n");
}

TEST(FormatTable, CutsOverlongCellsInsteadOfWideningTheColumn) {
  const std::string table = FormatTable({{"id", "result", "date"},
                                         {"1", "1-0", "2021.03.01"},
                                         {"2", "Stuck looking for legal moves", "2021.03.02"}},
                                        {true, false, false}, {kMaxCellWidth, 8});
  EXPECT_EQ(table,
            "id  result    date\n"
            " 1  1-0       2021.03.01\n"
            " 2  Stuck l\xE2\x80\xA6  2021.03.02\n");
  // Columns the limits do not list are cut at kMaxCellWidth.
  const std::string long_name(kMaxCellWidth + 10, 'x');
  const std::string cut = FormatTable({{long_name}}, {false});
  EXPECT_EQ(DisplayWidth(cut.substr(0, cut.size() - 1)), kMaxCellWidth);
}

TEST(FormatTable, EscapesWhatCouldActOnTheTerminal) {
  EXPECT_EQ(FormatTable({{"\x1b[2Jevil", "ok"}}, {false, false}, {40, 40}), "\\x1b[2Jevil  ok\n");
  EXPECT_EQ(FormatTable({{"a\tb\nc"}}, {false}), "a\\x09b\\x0ac\n");
}

}  // namespace
}  // namespace fived
