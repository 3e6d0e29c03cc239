// Statistics of a database; see stats.h.
#include "query/stats.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <unordered_map>

#include "query/text.h"
#include "schema/ending.h"
#include "schema/search_keys.h"

namespace fived {

namespace {

// The buckets' bounds ({min, max}, max -1 for no bound), in order; they cover every count.
const std::vector<CountBucket> kTimelineBuckets = {{1, 1},  {2, 2},   {3, 3},  {4, 5},
                                                   {6, 10}, {11, 20}, {21, -1}};
const std::vector<CountBucket> kLengthBuckets = {{0, 0},   {1, 10},  {11, 20},  {21, 30},
                                                 {31, 40}, {41, 50}, {51, 60},  {61, 70},
                                                 {71, 80}, {81, 90}, {91, 100}, {101, -1}};

// An SQL expression giving the index of the bucket of `column` (the bounds are this file's
// constants, not user input). Counts below the first bucket fall in it.
std::string BucketExpression(std::string_view column, const std::vector<CountBucket>& buckets) {
  std::string sql = "CASE";
  for (size_t i = 0; i + 1 < buckets.size(); ++i) {
    sql += " WHEN " + std::string(column) + " <= " + std::to_string(buckets[i].max) + " THEN " +
           std::to_string(i);
  }
  return sql + " ELSE " + std::to_string(buckets.size() - 1) + " END";
}

// Runs `sql` with the filter's parameters bound and calls row(statement) for every row.
template <typename RowFunction>
Status ForEachRow(Database& db, const std::string& sql, const std::vector<SqlParam>& params,
                  RowFunction row) {
  Result<Statement> prepared = db.Prepare(sql);
  if (!prepared.ok()) return prepared.error();
  Statement& s = prepared.value();
  BindParams(s, params);
  while (true) {
    Result<StepResult> step = s.Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kDone) return Status();
    row(s);
  }
}

// 1234567 -> "1,234,567".
std::string Grouped(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

// Tables of stats: the first column is a name, the others figures.
std::vector<bool> RightAfterFirst(const std::vector<std::vector<std::string>>& rows) {
  std::vector<bool> right(rows.empty() ? 0 : rows.front().size(), true);
  if (!right.empty()) right[0] = false;
  return right;
}

void AppendBuckets(const std::string& title, const std::vector<CountBucket>& buckets,
                   std::string* out) {
  std::vector<std::vector<std::string>> rows = {{title, "games"}};
  for (const CountBucket& bucket : buckets) rows.push_back({bucket.Label(), Grouped(bucket.games)});
  *out += "\n";
  *out += FormatTable(rows, RightAfterFirst(rows));
}

Json BucketsJson(const std::vector<CountBucket>& buckets) {
  Json json = Json::array();
  for (const CountBucket& bucket : buckets) {
    json.push_back({{"range", bucket.Label()},
                    {"min", bucket.min},
                    {"max", bucket.max < 0 ? Json(nullptr) : Json(bucket.max)},
                    {"games", bucket.games}});
  }
  return json;
}

// Counts a game's ending in *stats.
void CountEnding(std::optional<Decision::Verdict> verdict, bool result_conflict,
                 DatabaseStats* stats) {
  stats->result_conflicts += result_conflict;
  if (!verdict) {
    ++stats->undecided;
    return;
  }
  switch (*verdict) {
    case Decision::Verdict::kCheckmate:
      ++stats->checkmates;
      break;
    case Decision::Verdict::kStalemate:
      ++stats->stalemates;
      break;
    case Decision::Verdict::kPlayable:
      ++stats->playable;
      break;
    case Decision::Verdict::kUnknown:
      ++stats->unknown;
      break;
  }
}

}  // namespace

std::string CountBucket::Label() const {
  if (max < 0) return std::to_string(min) + "+";
  if (max == min) return std::to_string(min);
  return std::to_string(min) + "-" + std::to_string(max);
}

Result<DatabaseStats> ComputeStats(GameStore& store, const GameFilter& filter, int top_players) {
  // One snapshot: the counts agree with each other while 5d-index appends.
  const ReadSnapshot snapshot(store.db());
  Database& db = store.db();
  const SqlCondition condition = FilterCondition(filter);
  const std::string where = "(" + condition.where + ")";
  DatabaseStats stats;

  // Per variant; without a filter the narrow (variant, duplicate_of) index answers it.
  if (Status error =
          ForEachRow(db,
                     "SELECT games.variant, count(*), count(games.duplicate_of) FROM games WHERE " +
                         where + " GROUP BY games.variant",
                     condition.params,
                     [&](const Statement& s) {
                       VariantStats variant;
                       variant.variant = std::string(s.Text(0));
                       variant.copies = s.Int64(2);
                       variant.games = s.Int64(1) - variant.copies;
                       stats.games += variant.games;
                       stats.copies += variant.copies;
                       stats.variants.push_back(std::move(variant));
                     });
      !error.ok()) {
    return error;
  }
  std::sort(stats.variants.begin(), stats.variants.end(),
            [](const VariantStats& a, const VariantStats& b) {
              if (a.games != b.games) return a.games > b.games;
              return a.variant < b.variant;
            });

  // Not a structured binding: clang (up to 15) cannot capture one in the lambda.
  for (const auto& table_count :
       {std::pair{"rejected", &stats.rejected}, std::pair{"sources", &stats.sources}}) {
    int64_t* count = table_count.second;
    if (Status error = ForEachRow(db, std::string("SELECT count(*) FROM ") + table_count.first, {},
                                  [&](const Statement& s) { *count = s.Int64(0); });
        !error.ok()) {
      return error;
    }
  }

  // Both distributions, the total length and the dates in one scan of the originals: a row per
  // (length bucket, timelines bucket) pair that occurs.
  stats.timelines = kTimelineBuckets;
  stats.lengths = kLengthBuckets;
  if (Status error = ForEachRow(
          db,
          "SELECT " + BucketExpression("games.actions", kLengthBuckets) + " AS length_bucket, " +
              BucketExpression("games.timelines", kTimelineBuckets) +
              " AS timeline_bucket, count(*), sum(games.actions), min(games.date_min), "
              "max(games.date_max), count(games.date_min) FROM games WHERE " +
              where + " AND games.duplicate_of IS NULL GROUP BY length_bucket, timeline_bucket",
          condition.params,
          [&](const Statement& s) {
            const int64_t games = s.Int64(2);
            stats.lengths[s.Int64(0)].games += games;
            stats.timelines[s.Int64(1)].games += games;
            stats.total_actions += s.Int64(3);
            if (!s.IsNull(4)) {
              const auto first = static_cast<int32_t>(s.Int64(4));
              const auto last = static_cast<int32_t>(s.Int64(5));
              if (stats.first_day == 0 || first < stats.first_day) stats.first_day = first;
              if (last > stats.last_day) stats.last_day = last;
            }
            stats.dated += s.Int64(6);
          });
      !error.ok()) {
    return error;
  }
  // Games per year: date_min and date_max are YYYYMMDD, so a year is their quotient by 10,000.
  if (Status error =
          ForEachRow(db,
                     "SELECT games.date_min / 10000 AS year, count(*) FROM games WHERE " + where +
                         " AND games.duplicate_of IS NULL AND games.date_min IS NOT NULL "
                         "AND games.date_min / 10000 = games.date_max / 10000 "
                         "GROUP BY year ORDER BY year",
                     condition.params,
                     [&](const Statement& s) {
                       stats.years.push_back({static_cast<int>(s.Int64(0)), s.Int64(1)});
                     });
      !error.ok()) {
    return error;
  }
  // Dates that are there but not readable: few, so read and told apart from unknown ones here.
  if (Status error = ForEachRow(db,
                                "SELECT games.date FROM games WHERE " + where +
                                    " AND games.duplicate_of IS NULL AND games.date IS NOT NULL "
                                    "AND games.date_min IS NULL",
                                condition.params,
                                [&](const Statement& s) {
                                  if (ParseDate(s.Text(0)).kind == DateKind::kUnreadable) {
                                    ++stats.unreadable_dates;
                                  }
                                });
      !error.ok()) {
    return error;
  }

  {
    // Results, endings and players in one pass over the originals. Grouping 200,000 (game, side)
    // rows by name in SQL sorts them all (a third of a second for 100,000 games); a hash map in
    // one pass over the games is several times faster. Rows come in id order, so a player keeps
    // the spelling of their first game.
    std::unordered_map<std::string, PlayerStats> players;
    auto add = [&](std::string_view name, std::string_view key, bool won, bool drawn, bool lost) {
      PlayerStats& player = players[std::string(key)];
      if (player.games == 0) player.name = std::string(name);
      ++player.games;
      player.wins += won;
      player.draws += drawn;
      player.losses += lost;
    };
    if (Status error = ForEachRow(
            db,
            "SELECT games.white, games.black, games.result, games.white_key, games.black_key, "
            "games.verdict, games.checked_side, games.result_conflict "
            "FROM games WHERE " +
                where + " AND games.duplicate_of IS NULL ORDER BY games.id",
            condition.params,
            [&](const Statement& s) {
              std::optional<Decision::Verdict> verdict;
              if (!s.IsNull(5)) verdict = VerdictFromSql(s.Int64(5));
              std::optional<Color> checked_side;
              if (!s.IsNull(6)) checked_side = SideFromSql(s.Int64(6));
              CountEnding(verdict, s.Int64(7) != 0, &stats);
              const CountedResult counted = ResultToCount(s.Text(2), verdict, checked_side);
              const bool white_won = counted.result == "1-0";
              const bool black_won = counted.result == "0-1";
              const bool drawn = counted.result == "1/2-1/2";
              stats.white_wins += white_won;
              stats.draws += drawn;
              stats.black_wins += black_won;
              if (counted.derived) ++stats.derived_results;
              if (top_players == 0) return;
              // Names are grouped by their search keys; a blank name has none.
              if (!s.IsNull(3)) add(s.Text(0), s.Text(3), white_won, drawn, black_won);
              // Someone playing themselves counts once, as White.
              if (!s.IsNull(4) && (s.IsNull(3) || s.Text(3) != s.Text(4))) {
                add(s.Text(1), s.Text(4), black_won, drawn, white_won);
              }
            });
        !error.ok()) {
      return error;
    }
    for (auto& [key, player] : players) stats.players.push_back(std::move(player));
    const auto more_games = [](const PlayerStats& a, const PlayerStats& b) {
      if (a.games != b.games) return a.games > b.games;
      return CompareIgnoringCase(a.name, b.name) < 0;
    };
    const size_t top =
        std::min(stats.players.size(), static_cast<size_t>(std::max(top_players, 0)));
    std::partial_sort(stats.players.begin(), stats.players.begin() + top, stats.players.end(),
                      more_games);
    stats.players.resize(top);
  }
  return stats;
}

void WriteStatsTable(const DatabaseStats& stats, std::string* out) {
  std::vector<std::vector<std::string>> summary = {
      {"games", Grouped(stats.games) + " (" + Grouped(stats.copies) +
                    (stats.copies == 1 ? " copy left out)" : " copies left out)")},
      {"rejected", Grouped(stats.rejected)},
      {"sources", Grouped(stats.sources)},
      {"actions", Grouped(stats.total_actions)}};
  if (stats.games > 0) {
    std::string dates;
    if (stats.first_day != 0)
      dates = FormatDay(stats.first_day) + " to " + FormatDay(stats.last_day) + ", ";
    dates += Grouped(stats.dated) + " dated, " + Grouped(stats.games - stats.dated) + " not";
    if (stats.unreadable_dates > 0) {
      dates += " (" + Grouped(stats.unreadable_dates) +
               (stats.unreadable_dates == 1 ? " has a date that cannot be read)"
                                            : " have dates that cannot be read)");
    }
    summary.push_back({"dates", dates});
    std::string results =
        Grouped(stats.white_wins + stats.draws + stats.black_wins) + ": " +
        Grouped(stats.white_wins) + (stats.white_wins == 1 ? " white win, " : " white wins, ") +
        Grouped(stats.draws) + (stats.draws == 1 ? " draw, " : " draws, ") +
        Grouped(stats.black_wins) + (stats.black_wins == 1 ? " black win" : " black wins");
    if (stats.derived_results > 0) {
      results += " (" + Grouped(stats.derived_results) + " derived from the ending)";
    }
    summary.push_back({"results", results});
    std::string endings = Grouped(stats.checkmates) + " checkmate, " + Grouped(stats.stalemates) +
                          " stalemate, " + Grouped(stats.playable) + " playable, " +
                          Grouped(stats.unknown) + " unknown";
    if (stats.undecided > 0) endings += ", " + Grouped(stats.undecided) + " not decided";
    endings += "; " + Grouped(stats.result_conflicts) +
               (stats.result_conflicts == 1 ? " result conflict" : " result conflicts");
    summary.push_back({"endings", endings});
  }
  // The summary's values are left-aligned: pad the names only.
  for (const auto& row : summary) {
    *out += row[0] + std::string(12 - row[0].size(), ' ') + row[1] + "\n";
  }
  if (!stats.variants.empty()) {
    std::vector<std::vector<std::string>> rows = {{"variant", "games", "copies"}};
    for (const VariantStats& variant : stats.variants) {
      rows.push_back({variant.variant, Grouped(variant.games), Grouped(variant.copies)});
    }
    *out += "\n";
    *out += FormatTable(rows, RightAfterFirst(rows));
  }
  if (!stats.players.empty()) {
    std::vector<std::vector<std::string>> rows = {{"player", "games", "wins", "draws", "losses"}};
    for (const PlayerStats& player : stats.players) {
      rows.push_back({player.name, Grouped(player.games), Grouped(player.wins),
                      Grouped(player.draws), Grouped(player.losses)});
    }
    *out += "\n";
    *out += FormatTable(rows, RightAfterFirst(rows));
  }
  if (stats.games > 0) {
    AppendBuckets("timelines", stats.timelines, out);
    AppendBuckets("actions", stats.lengths, out);
  }
  if (!stats.years.empty()) {
    std::vector<std::vector<std::string>> rows = {{"year", "games"}};
    for (const YearCount& year : stats.years) {
      rows.push_back({std::to_string(year.year), Grouped(year.games)});
    }
    *out += "\n";
    *out += FormatTable(rows, RightAfterFirst(rows));
  }
}

Json StatsJson(const DatabaseStats& stats) {
  Json json = {{"games", stats.games},
               {"copies", stats.copies},
               {"rejected", stats.rejected},
               {"sources", stats.sources},
               {"actions", stats.total_actions}};
  json["variants"] = Json::array();
  for (const VariantStats& variant : stats.variants) {
    json["variants"].push_back(
        {{"variant", variant.variant}, {"games", variant.games}, {"copies", variant.copies}});
  }
  json["players"] = Json::array();
  for (const PlayerStats& player : stats.players) {
    json["players"].push_back({{"name", player.name},
                               {"games", player.games},
                               {"wins", player.wins},
                               {"draws", player.draws},
                               {"losses", player.losses}});
  }
  const bool dated = stats.first_day != 0;
  json["dates"] = {{"first", dated ? Json(FormatDay(stats.first_day)) : Json(nullptr)},
                   {"last", dated ? Json(FormatDay(stats.last_day)) : Json(nullptr)},
                   {"dated", stats.dated},
                   {"undated", stats.games - stats.dated},
                   {"unreadable", stats.unreadable_dates},
                   {"years", Json::array()}};
  for (const YearCount& year : stats.years) {
    json["dates"]["years"].push_back({{"year", year.year}, {"games", year.games}});
  }
  json["results"] = {{"white_wins", stats.white_wins},
                     {"draws", stats.draws},
                     {"black_wins", stats.black_wins},
                     {"derived", stats.derived_results}};
  json["endings"] = {{"checkmate", stats.checkmates},
                     {"stalemate", stats.stalemates},
                     {"playable", stats.playable},
                     {"unknown", stats.unknown},
                     {"undecided", stats.undecided}};
  json["result_conflicts"] = stats.result_conflicts;
  json["timelines"] = BucketsJson(stats.timelines);
  json["lengths"] = BucketsJson(stats.lengths);
  return json;
}

void WriteStatsJson(const DatabaseStats& stats, std::string* out) {
  *out += DumpJson(StatsJson(stats)) + "\n";
}

}  // namespace fived
