// EscapeForTerminal: what passes unchanged and what is written as \xNN.
#include "core/utf8.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <string_view>

namespace fived {
namespace {

struct Case {
  const char* name;
  std::string_view input;
  std::string_view expected;
};

// The inputs hold NUL bytes, so they are views with an explicit length.
constexpr std::string_view operator""_b(const char* text, size_t size) { return {text, size}; }

const Case kCases[] = {
    // Unchanged.
    {"empty", "", ""},
    {"ascii", "(0T5)Nxe5: no knight on board (0T5) can reach e5",
     "(0T5)Nxe5: no knight on board (0T5) can reach e5"},
    {"backslash", "a\\b \\x41 \\", "a\\b \\x41 \\"},
    {"tilde and space", " ~", " ~"},
    {"latin letters", "Jos\xc3\xa9 Ma\xc3\xb1o \xc3\x9f", "Jos\xc3\xa9 Ma\xc3\xb1o \xc3\x9f"},
    {"first after C1", "\xc2\xa0\xc2\xa9", "\xc2\xa0\xc2\xa9"},
    {"greek and cyrillic", "\xce\xb1\xd0\x96", "\xce\xb1\xd0\x96"},
    {"cjk", "\xe6\xa3\x8b\xe5\xa3\xab", "\xe6\xa3\x8b\xe5\xa3\xab"},
    {"emoji", "\xf0\x9f\x98\x80\xe2\x99\x9e", "\xf0\x9f\x98\x80\xe2\x99\x9e"},
    {"three-byte bounds", "\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf",
     "\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf"},
    {"four-byte bounds", "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"},

    // C0 controls and DEL.
    {"nul", "a\0b"_b, "a\\x00b"},
    {"escape sequence", "\x1b[2J\x1b]0;title\x07", "\\x1b[2J\\x1b]0;title\\x07"},
    {"tab", "a\tb", "a\\x09b"},
    {"newline and return", "a\r\nb", "a\\x0d\\x0ab"},
    {"unit separator", "\x1f", "\\x1f"},
    {"del", "a\x7f", "a\\x7f"},

    // C1 controls: both bytes.
    {"c1 first", "\xc2\x80", "\\xc2\\x80"},
    {"c1 csi",
     "\xc2\x9b"
     "31m",
     "\\xc2\\x9b31m"},
    {"c1 last", "\xc2\x9f", "\\xc2\\x9f"},

    // Invalid UTF-8: every byte.
    {"latin-1", "Jos\xe9", "Jos\\xe9"},
    {"stray continuation", "\x80\xbf", "\\x80\\xbf"},
    {"overlong slash", "\xc0\xaf", "\\xc0\\xaf"},
    {"overlong nul", "\xc1\x80", "\\xc1\\x80"},
    {"overlong three", "\xe0\x80\xaf", "\\xe0\\x80\\xaf"},
    {"overlong four", "\xf0\x80\x80\xaf", "\\xf0\\x80\\x80\\xaf"},
    {"surrogate high", "\xed\xa0\x80", "\\xed\\xa0\\x80"},
    {"surrogate low", "\xed\xbf\xbf", "\\xed\\xbf\\xbf"},
    {"above U+10FFFF", "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"},
    {"lead f5", "\xf5\x80\x80\x80", "\\xf5\\x80\\x80\\x80"},
    {"byte ff", "\xfe\xff", "\\xfe\\xff"},
    {"truncated at the end", "e5\xe6\xa3", "e5\\xe6\\xa3"},
    {"truncated four at the end", "\xf0\x9f\x98", "\\xf0\\x9f\\x98"},
    {"truncated before ascii", "\xe6\xa3x", "\\xe6\\xa3x"},
    {"truncated before a character", "\xe6\xe6\xa3\x8b", "\\xe6\xe6\xa3\x8b"},
    {"lead before a control", "\xc3\x1b", "\\xc3\\x1b"},
};

TEST(Utf8, EscapeForTerminal) {
  for (const Case& c : kCases) {
    EXPECT_EQ(EscapeForTerminal(c.input), c.expected) << c.name;
  }
}

TEST(Utf8, EveryByteAloneIsPrintableOrEscaped) {
  for (int byte = 0; byte < 256; ++byte) {
    const std::string input(1, static_cast<char>(byte));
    const std::string escaped = EscapeForTerminal(input);
    if (byte >= 0x20 && byte < 0x7f) {
      EXPECT_EQ(escaped, input) << byte;
    } else {
      char expected[8];
      std::snprintf(expected, sizeof expected, "\\x%02x", byte);
      EXPECT_EQ(escaped, expected) << byte;
    }
  }
}

}  // namespace
}  // namespace fived
