// Filters on games' headers, sizes and endings (players, variant, result, dates, any header,
// timelines, actions, the final position's verdict, result conflicts, mates in one), turned into an
// SQL condition on the games table with bound parameters only: names, values and patterns are never
// pasted into SQL text, so they cannot change a query.
#ifndef FIVED_QUERY_FILTER_H_
#define FIVED_QUERY_FILTER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/decide.h"
#include "core/status.h"
#include "schema/db.h"

namespace fived {

// What users type. Every field is optional (empty or 0: no condition).
struct GameFilter {
  // Player names as users type them: compared by their search keys (schema/search_keys.h:
  // Unicode case folding, trimmed), '*' any run of characters, '?' one character.
  std::string player;  // white or black
  std::string white;
  std::string black;
  std::string variant;  // an official variant's name (FindVariant) or "custom"
  std::string result;   // "1-0", "0-1", "1/2-1/2" or "*"
  // Days as YYYYMMDD (0: no bound): games whose Date may fall on or after date_from and on or
  // before date_to (a partial date counts as every day it may stand for). With a bound, games
  // with no readable date never match.
  int32_t date_from = 0;
  int32_t date_to = 0;
  // NAME=VALUE: a header of that name (ASCII case-insensitive) whose value matches VALUE (compared
  // by search keys as player names are, wildcards as for players).
  std::vector<std::pair<std::string, std::string>> headers;
  int min_timelines = 0;
  int min_actions = 0;
  // --unique: leave out the games recorded as copies of an earlier game (games.duplicate_of set,
  // schema/copies.h: the same moves and the same players, date and result wherever both games
  // have them). Games that only share their moves are different games and stay.
  bool originals_only = false;
  // Games whose final position has this verdict (games.verdict, schema/ending.h).
  std::optional<Decision::Verdict> ending;
  bool result_conflict = false;  // only games whose verdict contradicts their result
  // Games with a position where the side to move had a proven mate in one (table tactics,
  // schema/tactics.h; 5d-index --tactics), and of those the games where such a mate was not
  // played (missed: the action played from the position did not mate).
  bool mate_in_one = false;
  bool missed_mate = false;

  bool empty() const;
};

using SqlParam = std::variant<int64_t, std::string>;

// A condition on the table `games` ("1" when there is none) and its parameters, numbered
// ?first_param, ?first_param + 1, ... in order.
struct SqlCondition {
  std::string where;
  std::vector<SqlParam> params;
};
SqlCondition FilterCondition(const GameFilter& filter, int first_param = 1);

// A filter with a player (either colour) split into the games where the player has white and
// those where the player has black, each an index range of its own (games_white_key,
// games_black_key): the games of the filter are those of as_white or as_black. nullopt when the
// filter has no player, or names white or black too.
struct PlayerSplit {
  GameFilter as_white;
  GameFilter as_black;
};
std::optional<PlayerSplit> SplitByPlayer(const GameFilter& filter);

// Binds params to parameters first, first + 1, ...
void BindParams(Statement& statement, const std::vector<SqlParam>& params, int first = 1);

// Whether a pattern has '*' or '?'.
bool HasWildcards(std::string_view pattern);
// The GLOB pattern of a wildcard pattern whose text is already a search key: '*' and '?' stay,
// '[' (GLOB's only other special character outside brackets) is escaped as "[[]".
std::string GlobPattern(std::string_view pattern);

// The name of the SQL function, registered on 5d-query's connections (GameStore::Open), that
// gives the search key (NameKey) of a text: header values are compared through it.
inline constexpr const char* kNameKeyFunction = "fived_name_key";

// A date bound as users write it: "2021", "2021.03", "2021.03.15" ('-' or '/' may separate the
// parts; schema/search_keys.h's ParseDate). The lower bound (`upper` false) is the first day the
// text may stand for, the upper the last, so "--date-from 2021.03 --date-to 2021.03" is March
// 2021, as the number YYYYMMDD. kInvalidArgument, saying why for people, when the text is not a
// date ("2021.13", "2021.02.30").
Result<int32_t> DateBound(std::string_view text, bool upper);

// A result as users write it: "1-0" (or "white"), "0-1" ("black"), "1/2-1/2" ("draw", "1/2"),
// "*" ("unfinished"). nullopt when unknown.
std::optional<std::string> NormalizeResult(std::string_view text);

}  // namespace fived

#endif  // FIVED_QUERY_FILTER_H_
