// Search keys of names and dates; see search_keys.h.
#include "schema/search_keys.h"

#include <unicase.h>
#include <uninorm.h>
#include <unistr.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

namespace fived {

namespace {

// The length of the white space at text[i] (0 when there is none).
size_t SpaceAt(std::string_view text, size_t i) {
  const char c = text[i];
  if (c == ' ' || c == '\t' || c == '\r' || c == '\n') return 1;
  if (c == '\xC2' && i + 1 < text.size() && text[i + 1] == '\xA0') return 2;  // U+00A0
  return 0;
}

// `name` trimmed, with inner runs of white space made one ' '.
std::string CollapseSpaces(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  bool pending_space = false;
  for (size_t i = 0; i < name.size();) {
    if (const size_t space = SpaceAt(name, i)) {
      pending_space = !out.empty();
      i += space;
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += name[i++];
  }
  return out;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsLeapYear(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int year, int month) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// One part of a date: a number, unknown ('?'s), or not a date part at all.
struct DatePart {
  enum class Kind { kNumber, kUnknown, kBad } kind = Kind::kBad;
  int value = 0;
};

DatePart ReadPart(std::string_view text, size_t max_digits) {
  DatePart part;
  if (text.empty() || text.size() > max_digits) return part;
  if (text.find_first_not_of('?') == std::string_view::npos) {
    part.kind = DatePart::Kind::kUnknown;
    return part;
  }
  for (char c : text) {
    if (!IsDigit(c)) return part;
    part.value = part.value * 10 + (c - '0');
  }
  part.kind = DatePart::Kind::kNumber;
  return part;
}

}  // namespace

std::string NameKey(std::string_view name) {
  const std::string collapsed = CollapseSpaces(name);
  const auto* bytes = reinterpret_cast<const uint8_t*>(collapsed.data());
  if (collapsed.empty()) return collapsed;
  if (u8_check(bytes, collapsed.size()) != nullptr) {
    // Not UTF-8: nothing to fold but ASCII letters.
    std::string out = collapsed;
    for (char& c : out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
  }
  std::array<uint8_t, 256> buffer;
  size_t length = buffer.size();
  uint8_t* folded =
      u8_casefold(bytes, collapsed.size(), nullptr, UNINORM_NFC, buffer.data(), &length);
  if (folded == nullptr) return collapsed;  // out of memory; valid UTF-8 cannot fail otherwise
  std::string out(reinterpret_cast<const char*>(folded), length);
  if (folded != buffer.data()) std::free(folded);
  return out;
}

ParsedDate ParseDate(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  ParsedDate date;
  if (text.empty() || text.find_first_not_of("?.-/") == std::string_view::npos) return date;
  date.kind = DateKind::kUnreadable;

  const size_t separator_at = text.find_first_of(".-/");
  const char separator = separator_at == std::string_view::npos ? 0 : text[separator_at];
  std::string_view parts[3];
  size_t count = 0;
  for (size_t begin = 0;;) {
    const size_t end = separator == 0 ? std::string_view::npos : text.find(separator, begin);
    if (count == 3) return date;
    parts[count++] = text.substr(begin, end == std::string_view::npos ? end : end - begin);
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  for (char other : {'.', '-', '/'}) {
    if (other != separator && text.find(other) != std::string_view::npos) return date;
  }

  const DatePart year = ReadPart(parts[0], 4);
  DatePart month, day;
  month.kind = day.kind = DatePart::Kind::kUnknown;
  if (count > 1) month = ReadPart(parts[1], 2);
  if (count > 2) day = ReadPart(parts[2], 2);
  if (year.kind == DatePart::Kind::kBad || month.kind == DatePart::Kind::kBad ||
      day.kind == DatePart::Kind::kBad) {
    return date;
  }
  if (year.kind == DatePart::Kind::kNumber && parts[0].size() != 4) return date;
  if (month.kind == DatePart::Kind::kNumber && (month.value < 1 || month.value > 12)) return date;
  if (day.kind == DatePart::Kind::kNumber) {
    // A day is checked against its month when the month is known, else against the longest.
    const int days = month.kind == DatePart::Kind::kNumber && year.kind == DatePart::Kind::kNumber
                         ? DaysInMonth(year.value, month.value)
                         : 31;
    if (day.value < 1 || day.value > days) return date;
  }
  if (year.kind == DatePart::Kind::kUnknown) {
    date.kind = DateKind::kNone;
    return date;
  }
  date.kind = DateKind::kDate;
  const int32_t base = year.value * 10000;
  if (month.kind != DatePart::Kind::kNumber) {
    date.bounds = {base + 101, base + 1231};
  } else if (day.kind != DatePart::Kind::kNumber) {
    date.bounds = {base + month.value * 100 + 1,
                   base + month.value * 100 + DaysInMonth(year.value, month.value)};
  } else {
    date.bounds.first = date.bounds.last = base + month.value * 100 + day.value;
  }
  return date;
}

std::string FormatDay(int32_t day) {
  char text[16];
  std::snprintf(text, sizeof text, "%04d.%02d.%02d", day / 10000, day / 100 % 100, day % 100);
  return text;
}

namespace {

bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::string TreeDate(std::string_view stored) {
  std::string_view parts[3];
  int count = 0;
  size_t begin = 0;
  for (size_t i = 0; i <= stored.size() && count < 3; ++i) {
    if (i == stored.size() || stored[i] == '.' || stored[i] == '-' || stored[i] == '/') {
      parts[count++] = stored.substr(begin, i - begin);
      begin = i + 1;
    }
  }
  if (count == 0 || parts[0].size() != 4 ||
      !std::all_of(parts[0].begin(), parts[0].end(), IsAsciiDigit)) {
    return {};
  }
  std::string out(parts[0]);
  for (int i = 1; i < 3; ++i) {
    const std::string_view part = parts[i];
    out += '.';
    if (i < count && !part.empty() && part.size() <= 2 &&
        std::all_of(part.begin(), part.end(), IsAsciiDigit)) {
      if (part.size() == 1) out += '0';
      out += part;
    } else {
      out += "??";
    }
  }
  return out;
}

}  // namespace fived
