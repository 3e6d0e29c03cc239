// The search keys of names and dates (schema/search_keys.h): they are stored, so these cases pin
// them.
#include "schema/search_keys.h"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

namespace fived {
namespace {

TEST(NameKey, FoldsCaseOfEveryScriptAndTrims) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Shad Amethyst", "shad amethyst"},
      {"  Shad   Amethyst \t", "shad amethyst"},
      {"INÊS CARVALHO", "inês carvalho"},
      {"inês carvalho", "inês carvalho"},
      // "e" followed by a combining circumflex is composed (NFC).
      {"IN\x45\xCC\x82S", "inês"},
      {"PAVEL DVOŘÁK", "pavel dvořák"},
      {"ΑΝΔΡΈΑΣ", "ανδρέασ"},
      {"ανδρέας", "ανδρέασ"},  // final sigma folds to sigma
      {"Straße", "strasse"},
      {"\xC2\xA0"
       "Ana\xC2\xA0",
       "ana"},
      {"", ""},
      {"   ", ""},
      // Wildcards and '[' pass through, so patterns fold like names.
      {"ΑΝΔΡΈΑΣ*", "ανδρέασ*"},
      {"C?U [bot]", "c?u [bot]"},
      // Not UTF-8: ASCII letters lowered, the rest kept.
      {"AB\xFF"
       "C",
       "ab\xFF"
       "c"},
  };
  for (const auto& [name, key] : cases) EXPECT_EQ(NameKey(name), key) << name;
}

TEST(ParseDate, FullPartialUnknownAndUnreadable) {
  const std::vector<std::tuple<std::string, int32_t, int32_t>> dates = {
      {"2021.03.14", 20210314, 20210314}, {"2021-03-14", 20210314, 20210314},
      {"2021/3/4", 20210304, 20210304},   {" 2021.03.14 ", 20210314, 20210314},
      {"2021.03", 20210301, 20210331},    {"2021.03.??", 20210301, 20210331},
      {"2021", 20210101, 20211231},       {"2021.??.??", 20210101, 20211231},
      {"2021.??.15", 20210101, 20211231}, {"2020.02.29", 20200229, 20200229},
      {"2000.02", 20000201, 20000229},    {"1900.02", 19000201, 19000228},
      {"2021.04", 20210401, 20210430},
  };
  for (const auto& [text, first, last] : dates) {
    const ParsedDate date = ParseDate(text);
    ASSERT_EQ(date.kind, DateKind::kDate) << text;
    EXPECT_EQ(date.bounds.first, first) << text;
    EXPECT_EQ(date.bounds.last, last) << text;
  }
  for (const char* none : {"", "  ", "?", "????.??.??", "????", "????.03.01", "..", "-"}) {
    EXPECT_EQ(ParseDate(none).kind, DateKind::kNone) << none;
  }
  for (const char* bad : {"6-14-2021", "2021.13", "2021.00", "2021.02.29", "2021.04.31",
                          "2021.03.00", "21", "20210314", "2021.03.14.1", "2021..03", "2021.x",
                          "2021.03-14", "March 2021", "2021.003.01", "2021.03.14 12:00"}) {
    EXPECT_EQ(ParseDate(bad).kind, DateKind::kUnreadable) << bad;
  }
}

TEST(FormatDay, WritesDotsAndTwoDigits) {
  EXPECT_EQ(FormatDay(20210304), "2021.03.04");
  EXPECT_EQ(FormatDay(9991231), "0999.12.31");
}

}  // namespace
}  // namespace fived
