// Filters as SQL conditions; see filter.h.
#include "query/filter.h"

#include <cctype>

#include "query/text.h"
#include "schema/ending.h"
#include "schema/search_keys.h"
#include "schema/tactics.h"

namespace fived {

namespace {

// A condition on a name key column: equality when there is no wildcard, GLOB otherwise (an index
// range when the pattern starts with a literal), both on the key of what the user typed.
std::string NameCondition(std::string_view column, const std::string& pattern,
                          std::vector<SqlParam>* params, int first_param) {
  const std::string index = std::to_string(static_cast<int>(params->size()) + first_param);
  const std::string key = NameKey(pattern);
  if (!HasWildcards(key)) {
    params->push_back(key);
    return std::string(column) + " = ?" + index;
  }
  params->push_back(GlobPattern(key));
  return std::string(column) + " GLOB ?" + index;
}

}  // namespace

bool GameFilter::empty() const {
  return player.empty() && white.empty() && black.empty() && variant.empty() && result.empty() &&
         date_from == 0 && date_to == 0 && headers.empty() && min_timelines == 0 &&
         min_actions == 0 && !originals_only && !ending && !result_conflict && !mate_in_one &&
         !missed_mate;
}

bool HasWildcards(std::string_view pattern) {
  return pattern.find_first_of("*?") != std::string_view::npos;
}

std::string GlobPattern(std::string_view pattern) {
  std::string out;
  for (char c : pattern) {
    if (c == '[') {
      out += "[[]";
    } else {
      out += c;
    }
  }
  return out;
}

SqlCondition FilterCondition(const GameFilter& filter, int first_param) {
  SqlCondition out;
  std::vector<std::string> terms;
  auto next = [&] {
    return "?" + std::to_string(static_cast<int>(out.params.size()) + first_param);
  };
  if (!filter.player.empty()) {
    const std::string white =
        NameCondition("games.white_key", filter.player, &out.params, first_param);
    const std::string black =
        NameCondition("games.black_key", filter.player, &out.params, first_param);
    terms.push_back("(" + white + " OR " + black + ")");
  }
  if (!filter.white.empty())
    terms.push_back(NameCondition("games.white_key", filter.white, &out.params, first_param));
  if (!filter.black.empty())
    terms.push_back(NameCondition("games.black_key", filter.black, &out.params, first_param));
  if (!filter.variant.empty()) {
    terms.push_back("games.variant = " + next());
    out.params.push_back(filter.variant);
  }
  if (!filter.result.empty()) {
    terms.push_back("games.result = " + next());
    out.params.push_back(filter.result);
  }
  // A game matches when a day its date may stand for lies within the bounds; NULL bounds (no
  // readable date) compare false.
  if (filter.date_from != 0) {
    terms.push_back("games.date_max >= " + next());
    out.params.push_back(int64_t{filter.date_from});
  }
  if (filter.date_to != 0) {
    terms.push_back("games.date_min <= " + next());
    out.params.push_back(int64_t{filter.date_to});
  }
  for (const auto& [name, value] : filter.headers) {
    // The headers table is keyed by (name, value, game): one probe per game, or a range of one
    // name when SQLite starts from it.
    const std::string name_param = next();
    out.params.push_back(name);
    const std::string value_param = next();
    const std::string key = NameKey(value);
    out.params.push_back(HasWildcards(key) ? GlobPattern(key) : key);
    terms.push_back(
        "EXISTS (SELECT 1 FROM headers WHERE headers.game_id = games.id AND "
        "headers.name = " +
        name_param + " AND " + kNameKeyFunction + "(headers.value) " +
        (HasWildcards(key) ? "GLOB " : "= ") + value_param + ")");
  }
  if (filter.min_timelines > 0) {
    terms.push_back("games.timelines >= " + next());
    out.params.push_back(int64_t{filter.min_timelines});
  }
  if (filter.min_actions > 0) {
    terms.push_back("games.actions >= " + next());
    out.params.push_back(int64_t{filter.min_actions});
  }
  if (filter.originals_only) terms.push_back("games.duplicate_of IS NULL");
  if (filter.ending) {
    terms.push_back("games.verdict = " + next());
    out.params.push_back(VerdictToSql(*filter.ending));
  }
  // Written as the partial index games_result_conflict's condition, so that SQLite uses it.
  if (filter.result_conflict) terms.push_back("games.result_conflict = 1");
  // The tactics table is keyed by (game_id, action): one short range per game.
  if (filter.mate_in_one || filter.missed_mate) {
    // Only rows of a mate have `played` set.
    std::string which = "tactics.played = 0";
    if (!filter.missed_mate) {
      which = "tactics.answer = " + next();
      out.params.push_back(kTacticsMates);
    }
    terms.push_back("EXISTS (SELECT 1 FROM tactics WHERE tactics.game_id = games.id AND " + which +
                    ")");
  }
  if (terms.empty()) {
    out.where = "1";
  } else {
    for (size_t i = 0; i < terms.size(); ++i) {
      if (i > 0) out.where += " AND ";
      out.where += terms[i];
    }
  }
  return out;
}

std::optional<PlayerSplit> SplitByPlayer(const GameFilter& filter) {
  if (filter.player.empty() || !filter.white.empty() || !filter.black.empty()) return std::nullopt;
  PlayerSplit split;
  split.as_white = filter;
  split.as_white.player.clear();
  split.as_white.white = filter.player;
  split.as_black = filter;
  split.as_black.player.clear();
  split.as_black.black = filter.player;
  return split;
}

void BindParams(Statement& statement, const std::vector<SqlParam>& params, int first) {
  for (size_t i = 0; i < params.size(); ++i) {
    const int index = first + static_cast<int>(i);
    if (const auto* number = std::get_if<int64_t>(&params[i])) {
      statement.Bind(index, *number);
    } else {
      statement.Bind(index, std::string_view(std::get<std::string>(params[i])));
    }
  }
}

Result<int32_t> DateBound(std::string_view text, bool upper) {
  const ParsedDate date = ParseDate(text);
  if (date.kind != DateKind::kDate) {
    return Status::InvalidArgument(
        "'" + std::string(text) +
        "' is not a date (YYYY, YYYY.MM or YYYY.MM.DD, with a month of 1 to 12 and a day its "
        "month has; '-' or '/' may separate the parts)");
  }
  return upper ? date.bounds.last : date.bounds.first;
}

std::optional<std::string> NormalizeResult(std::string_view text) {
  const std::string lower = AsciiLower(text);
  if (lower == "1-0" || lower == "white") return "1-0";
  if (lower == "0-1" || lower == "black") return "0-1";
  if (lower == "1/2-1/2" || lower == "1/2" || lower == "draw" || lower == "½-½") return "1/2-1/2";
  if (lower == "*" || lower == "unfinished") return "*";
  return std::nullopt;
}

}  // namespace fived
