// Filters on games' headers and sizes (players, variant, result, dates, any header, timelines,
// actions), turned into an SQL condition on the games table with bound parameters only: names,
// values and patterns are never pasted into SQL text, so they cannot change a query.
#ifndef FIVED_QUERY_FILTER_H_
#define FIVED_QUERY_FILTER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "schema/db.h"

namespace fived {

// What users type. Every field is optional (empty or 0: no condition).
struct GameFilter {
  // Player names: case-insensitive (ASCII), '*' any run of characters, '?' one character.
  std::string player;  // white or black
  std::string white;
  std::string black;
  std::string variant;  // an official variant's name (FindVariant) or "custom"
  std::string result;   // "1-0", "0-1", "1/2-1/2" or "*"
  // Bounds as normalized by NormalizeDate: "YYYY.MM.DD" with missing parts filled in.
  std::string date_from;
  std::string date_to;
  // NAME=VALUE: a header of that name (case-insensitive) whose value matches VALUE
  // (case-insensitive, wildcards as for players).
  std::vector<std::pair<std::string, std::string>> headers;
  int min_timelines = 0;
  int min_actions = 0;
  bool originals_only = false;  // leave out games recorded as duplicates

  bool empty() const;
};

using SqlParam = std::variant<int64_t, std::string>;

// A condition on the table `games` ("1" when there is none) and its parameters, numbered ?1...
// in order.
struct SqlCondition {
  std::string where;
  std::vector<SqlParam> params;
};
SqlCondition FilterCondition(const GameFilter& filter);

// Binds params to parameters first, first + 1, ...
void BindParams(Statement& statement, const std::vector<SqlParam>& params, int first = 1);

// Whether a pattern has '*' or '?'.
bool HasWildcards(std::string_view pattern);
// The LIKE pattern (with ESCAPE '\') of a wildcard pattern: '*' -> '%', '?' -> '_', and '%', '_'
// and '\' escaped.
std::string LikePattern(std::string_view pattern);

// A date bound as users write it: "2021", "2021.03", "2021.03.15" ('-' or '/' may separate the
// parts). The lower bound fills missing parts with "00", the upper with "99", so that partial
// dates of games ("2021.??.??") compare as the range they stand for. Returns nullopt when the
// text is not such a date.
std::optional<std::string> NormalizeDate(std::string_view text, bool upper);

// A result as users write it: "1-0" (or "white"), "0-1" ("black"), "1/2-1/2" ("draw", "1/2"),
// "*" ("unfinished"). nullopt when unknown.
std::optional<std::string> NormalizeResult(std::string_view text);

}  // namespace fived

#endif  // FIVED_QUERY_FILTER_H_
