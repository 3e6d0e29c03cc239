// The values the database stores so that header values can be searched as people mean them:
// player names whatever their case, accents' encoding and stray spaces, and dates whatever their
// precision. The indexer computes them from the headers (games.white_key, black_key, date_min,
// date_max); 5d-query computes the same from what users type, so both sides must agree: what is
// computed here is persisted, and changing it means a new schema version (schema/db.h).
#ifndef FIVED_SCHEMA_SEARCH_KEYS_H_
#define FIVED_SCHEMA_SEARCH_KEYS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fived {

// The search key of a player's name: leading and trailing white space removed, inner runs of
// white space made one ' ', then Unicode full case folding and normalization to NFC
// (libunistring's u8_casefold), so that "INÊS  CARVALHO ", "inês carvalho" and the same name with
// a decomposed "e" + U+0302 have one key, and so do "PAVEL DVOŘÁK" and "pavel dvořák", "ΑΝΔΡΈΑΣ"
// and "ανδρέας". White space is ASCII space, tab, CR, LF and U+00A0. Bytes that are not UTF-8 are
// kept as they are, with ASCII letters lowered. Empty for a blank name. Thread-safe.
//
// The wildcards of 5d-query patterns ('*', '?') and '[' are left as they are, so a pattern's key
// is the key of the names it matches with the wildcards in place.
std::string NameKey(std::string_view name);

// The days a date may stand for, as YYYYMMDD integers (20210314 is 2021.03.14).
struct DateBounds {
  int32_t first = 0;
  int32_t last = 0;
};

enum class DateKind {
  kNone,        // empty, or nothing known ("????.??.??", "?")
  kUnreadable,  // text that is not a date ("6-14-2021", "2021.13.01", "2021.02.30", "yesterday")
  kDate,        // a date, maybe partial
};

struct ParsedDate {
  DateKind kind = DateKind::kNone;
  DateBounds bounds;  // meaningful for kDate
};

// Reads a Date header or a date users type: "YYYY", "YYYY.MM" or "YYYY.MM.DD", parts separated by
// '.', '-' or '/' (one kind per date), months and days of one or two digits, and unknown parts
// written with '?' ("2021.??.??", "2021.03.??"). The bounds are the first and last day the date may
// stand for: "2021.03" is 20210301 to 20210331, "2021.??.15" is the whole year. A month above 12
// or a day its month does not have (leap years counted) makes the date unreadable, and so does
// anything else; a date whose year is unknown ("????.03.01") says nothing a range can use and is
// kNone. Surrounding spaces are ignored.
ParsedDate ParseDate(std::string_view text);

// 20210314 as "2021.03.14".
std::string FormatDay(int32_t day);

// A date as the opening tree shows and compares it (query/tree.h, schema/position_stats.h):
// "YYYY.MM.DD" with dots whatever separators `stored` used, an unknown or missing month or day as
// "??" ("2021" is "2021.??.??"), so that dates compare as text; empty when `stored` has no year
// of four digits.
std::string TreeDate(std::string_view stored);

}  // namespace fived

#endif  // FIVED_SCHEMA_SEARCH_KEYS_H_
