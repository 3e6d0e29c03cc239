// Per-position action statistics; see position_stats.h.
#include "schema/position_stats.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdio>

#include "schema/ending.h"
#include "schema/search_keys.h"

namespace fived {

ActionStat GameStat(std::string_view result, std::optional<Decision::Verdict> verdict,
                    std::optional<Color> checked_side, std::string_view date) {
  const CountedResult counted = ResultToCount(result, verdict, checked_side);
  ActionStat stat;
  stat.games = 1;
  stat.white_wins = counted.result == "1-0";
  stat.draws = counted.result == "1/2-1/2";
  stat.black_wins = counted.result == "0-1";
  stat.derived = counted.derived && (stat.white_wins + stat.draws + stat.black_wins) > 0;
  stat.first_date = TreeDate(date);
  stat.last_date = stat.first_date;
  return stat;
}
namespace {

// Counts add up; the text of the earlier row (the lower game id) stays; dates widen (NULL is no
// date, so each bound takes the other side's when one is NULL).
constexpr std::string_view kUpsert =
    "INSERT INTO position_actions(state_key, action, text, games, white_wins, draws, black_wins, "
    "derived, first_day, last_day) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) "
    "ON CONFLICT(state_key, action) DO UPDATE SET games = games + excluded.games, "
    "white_wins = white_wins + excluded.white_wins, draws = draws + excluded.draws, "
    "black_wins = black_wins + excluded.black_wins, derived = derived + excluded.derived, "
    "first_day = min(coalesce(first_day, excluded.first_day), "
    "coalesce(excluded.first_day, first_day)), "
    "last_day = max(coalesce(last_day, excluded.last_day), coalesce(excluded.last_day, last_day))";
constexpr std::string_view kSelect =
    "SELECT action, text, games, white_wins, draws, black_wins, derived, first_day, last_day "
    "FROM position_actions WHERE state_key = ?1";

std::optional<int32_t> OptionalDay(const std::string& tree_date) {
  const int32_t day = TreeDay(tree_date);
  if (day == 0) return std::nullopt;
  return day;
}

int TwoDigits(std::string_view s) {
  if (s.size() != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9') return 99;
  return (s[0] - '0') * 10 + (s[1] - '0');
}

std::optional<std::string_view> Optional(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return std::string_view(s);
}

}  // namespace

void ActionStat::Add(const ActionStat& other) {
  games += other.games;
  white_wins += other.white_wins;
  draws += other.draws;
  black_wins += other.black_wins;
  derived += other.derived;
  if (!other.first_date.empty() && (first_date.empty() || other.first_date < first_date)) {
    first_date = other.first_date;
  }
  if (!other.last_date.empty() && (last_date.empty() || other.last_date > last_date)) {
    last_date = other.last_date;
  }
}

uint64_t ActionHash(std::vector<std::string_view> texts) {
  std::sort(texts.begin(), texts.end());
  std::string key;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (i > 0) key += ' ';
    key += texts[i];
  }
  const uint64_t hash = XXH3_64bits(key.data(), key.size());
  return hash == 0 ? 1 : hash;
}

int32_t TreeDay(std::string_view tree_date) {
  // "YYYY.MM.DD", as TreeDate writes it.
  if (tree_date.size() != 10) return 0;
  int32_t year = 0;
  for (int i = 0; i < 4; ++i) {
    if (tree_date[i] < '0' || tree_date[i] > '9') return 0;
    year = year * 10 + (tree_date[i] - '0');
  }
  return year * 10000 + TwoDigits(tree_date.substr(5, 2)) * 100 + TwoDigits(tree_date.substr(8, 2));
}

std::string DayTreeDate(int32_t day) {
  if (day <= 0) return {};
  char text[16];
  const int month = day / 100 % 100;
  const int date = day % 100;
  std::snprintf(text, sizeof text, "%04d.", day / 10000);
  std::string out = text;
  auto part = [&](int value) {
    if (value == 99) return std::string("??");
    char two[4];
    std::snprintf(two, sizeof two, "%02d", value);
    return std::string(two);
  };
  return out + part(month) + "." + part(date);
}

Result<PositionStatsWriter> PositionStatsWriter::Create(Database& db) {
  Result<Statement> upsert = db.Prepare(kUpsert);
  if (!upsert.ok()) return upsert.error();
  return PositionStatsWriter(std::move(upsert).value());
}

void PositionStatsWriter::Add(uint64_t state_key, const ActionStat& stat) {
  auto [it, inserted] = pending_.try_emplace({state_key, stat.hash}, stat);
  if (!inserted) it->second.Add(stat);
}

Status PositionStatsWriter::Write() {
  for (const auto& [key, stat] : pending_) {
    upsert_.Reset().BindAll(KeyToSql(key.first), KeyToSql(key.second), Optional(stat.text),
                            stat.games, stat.white_wins, stat.draws, stat.black_wins, stat.derived,
                            OptionalDay(stat.first_date), OptionalDay(stat.last_date));
    if (Status error = upsert_.Run(); !error.ok()) return error;
  }
  pending_.clear();
  return Status();
}

Result<std::vector<ActionStat>> ReadPositionStats(Database& db, uint64_t state_key) {
  Result<Statement> select = db.Prepare(kSelect);
  if (!select.ok()) return select.error();
  Statement& s = select.value();
  s.Bind(1, KeyToSql(state_key));
  std::vector<ActionStat> rows;
  while (true) {
    Result<StepResult> step = s.Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kDone) break;
    ActionStat stat;
    stat.hash = KeyFromSql(s.Int64(0));
    stat.text = std::string(s.Text(1));
    stat.games = s.Int64(2);
    stat.white_wins = s.Int64(3);
    stat.draws = s.Int64(4);
    stat.black_wins = s.Int64(5);
    stat.derived = s.Int64(6);
    stat.first_date = DayTreeDate(static_cast<int32_t>(s.Int64(7)));
    stat.last_date = DayTreeDate(static_cast<int32_t>(s.Int64(8)));
    rows.push_back(std::move(stat));
  }
  return rows;
}

}  // namespace fived
