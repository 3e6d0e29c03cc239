// Filters as SQL conditions; see filter.h.
#include "query/filter.h"

#include <cctype>

#include "query/text.h"

namespace fived {

namespace {

// A condition on a name column: equality when there is no wildcard (an index lookup on the
// NOCASE index), LIKE otherwise (an index range when the pattern starts with a literal).
std::string NameCondition(std::string_view column, const std::string& pattern,
                          std::vector<SqlParam>* params) {
  const std::string index = std::to_string(params->size() + 1);
  if (!HasWildcards(pattern)) {
    params->push_back(pattern);
    return std::string(column) + " = ?" + index + " COLLATE NOCASE";
  }
  params->push_back(LikePattern(pattern));
  return std::string(column) + " LIKE ?" + index + " ESCAPE '\\'";
}

// Dates as stored, with separators made dots and unknown digits ('?') set to `fill`, so that
// "2021.??.??" is compared as its first or last possible day.
std::string StoredDate(char fill) {
  return std::string("replace(replace(replace(games.date, '-', '.'), '/', '.'), '?', '") + fill +
         "')";
}

}  // namespace

bool GameFilter::empty() const {
  return player.empty() && white.empty() && black.empty() && variant.empty() && result.empty() &&
         date_from.empty() && date_to.empty() && headers.empty() && min_timelines == 0 &&
         min_actions == 0 && !originals_only;
}

bool HasWildcards(std::string_view pattern) {
  return pattern.find_first_of("*?") != std::string_view::npos;
}

std::string LikePattern(std::string_view pattern) {
  std::string out;
  for (char c : pattern) {
    if (c == '*') {
      out += '%';
    } else if (c == '?') {
      out += '_';
    } else {
      if (c == '%' || c == '_' || c == '\\') out += '\\';
      out += c;
    }
  }
  return out;
}

SqlCondition FilterCondition(const GameFilter& filter) {
  SqlCondition out;
  std::vector<std::string> terms;
  auto next = [&] { return "?" + std::to_string(out.params.size() + 1); };
  if (!filter.player.empty()) {
    const std::string white = NameCondition("games.white", filter.player, &out.params);
    const std::string black = NameCondition("games.black", filter.player, &out.params);
    terms.push_back("(" + white + " OR " + black + ")");
  }
  if (!filter.white.empty())
    terms.push_back(NameCondition("games.white", filter.white, &out.params));
  if (!filter.black.empty())
    terms.push_back(NameCondition("games.black", filter.black, &out.params));
  if (!filter.variant.empty()) {
    terms.push_back("games.variant = " + next());
    out.params.push_back(filter.variant);
  }
  if (!filter.result.empty()) {
    terms.push_back("games.result = " + next());
    out.params.push_back(filter.result);
  }
  if (!filter.date_from.empty()) {
    terms.push_back(StoredDate('9') + " >= " + next());
    out.params.push_back(filter.date_from);
  }
  if (!filter.date_to.empty()) {
    terms.push_back(StoredDate('0') + " <= " + next());
    out.params.push_back(filter.date_to);
  }
  for (const auto& [name, value] : filter.headers) {
    // The headers table is keyed by (name, value, game): one probe per game, or a range of one
    // name when SQLite starts from it.
    const std::string name_param = next();
    out.params.push_back(name);
    const std::string value_param = next();
    out.params.push_back(LikePattern(value));
    terms.push_back(
        "EXISTS (SELECT 1 FROM headers WHERE headers.game_id = games.id AND "
        "headers.name = " +
        name_param + " AND headers.value LIKE " + value_param + " ESCAPE '\\')");
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

std::optional<std::string> NormalizeDate(std::string_view text, bool upper) {
  std::vector<std::string> parts(1);
  for (char c : text) {
    if (c == '.' || c == '-' || c == '/') {
      parts.emplace_back();
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      parts.back() += c;
    } else {
      return std::nullopt;
    }
  }
  if (parts.size() > 3 || parts[0].size() != 4) return std::nullopt;
  std::string out = parts[0];
  for (size_t i = 1; i < 3; ++i) {
    out += '.';
    if (i < parts.size()) {
      if (parts[i].empty() || parts[i].size() > 2) return std::nullopt;
      out += parts[i].size() == 1 ? "0" + parts[i] : parts[i];
    } else {
      out += upper ? "99" : "00";
    }
  }
  return out;
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
