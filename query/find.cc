// Finding and writing games; see find.h.
#include "query/find.h"

#include <algorithm>
#include <tuple>

#include "query/export.h"
#include "query/text.h"
#include "schema/search_keys.h"
#include "schema/tactics.h"

namespace fived {

namespace {

// The terms of a sort order, as OrderBy writes them: missing values (NULL) last in either
// direction, then ascending ids, so that games that tie keep their order in the database
// whichever way the column is sorted. Only these fixed strings ever reach the SQL text.
struct OrderTerm {
  std::string expression;
  bool descending = false;
};
std::vector<OrderTerm> OrderTerms(const SortOrder& order) {
  const char* column = nullptr;
  switch (order.field) {
    case SortOrder::Field::kWhite:
      column = "games.white_key";
      break;
    case SortOrder::Field::kBlack:
      column = "games.black_key";
      break;
    case SortOrder::Field::kResult:
      column = "games.result";
      break;
    case SortOrder::Field::kDate:
      column = "games.date_min";
      break;
    case SortOrder::Field::kVariant:
      column = "games.variant";
      break;
    case SortOrder::Field::kActions:
      column = "games.actions";
      break;
    case SortOrder::Field::kTimelines:
      column = "games.timelines";
      break;
    case SortOrder::Field::kId:
    case SortOrder::Field::kAction:
      break;
  }
  if (column == nullptr) return {{"games.id", order.descending}};
  const std::string name(column);
  std::vector<OrderTerm> terms = {{name + " IS NULL", false}, {name, order.descending}};
  if (order.field == SortOrder::Field::kDate) terms.push_back({"games.date_max", order.descending});
  terms.push_back({"games.id", false});
  return terms;
}

// " ORDER BY ..." of a sort order.
std::string OrderBy(const SortOrder& order) {
  std::string out = " ORDER BY ";
  const std::vector<OrderTerm> terms = OrderTerms(order);
  for (size_t i = 0; i < terms.size(); ++i) {
    out += (i > 0 ? ", " : "") + terms[i].expression + (terms[i].descending ? " DESC" : "");
  }
  return out;
}

// The ids of a page of a player's games, as a compound SELECT: the games where the player has
// white, UNION those where the player has black, sorted on result columns (o1, o2, ...). Each
// side is an index range that SQLite reads in id order, so a page sorted by id merges the two and
// stops at the page's end instead of collecting every game of the player first. `params` gets
// both sides' parameters, numbered from 1; the page's limit and offset follow them.
std::string PlayerPageIds(const PlayerSplit& split, const SortOrder& order,
                          std::vector<SqlParam>* params) {
  const std::vector<OrderTerm> terms = OrderTerms(order);
  std::string columns = "games.id AS id";
  std::string order_by = " ORDER BY ";
  for (size_t i = 0; i < terms.size(); ++i) {
    const std::string alias = terms[i].expression == "games.id" ? "id" : "o" + std::to_string(i);
    if (alias != "id") columns += ", " + terms[i].expression + " AS " + alias;
    order_by += (i > 0 ? ", " : "") + alias + (terms[i].descending ? " DESC" : "");
  }
  const SqlCondition white = FilterCondition(split.as_white);
  const SqlCondition black =
      FilterCondition(split.as_black, static_cast<int>(white.params.size()) + 1);
  *params = white.params;
  params->insert(params->end(), black.params.begin(), black.params.end());
  const std::string page = std::to_string(params->size() + 1);
  const std::string offset = std::to_string(params->size() + 2);
  return "SELECT id FROM (SELECT " + columns + " FROM games WHERE " + white.where +
         " UNION SELECT " + columns + " FROM games WHERE " + black.where + order_by + " LIMIT ?" +
         page + " OFFSET ?" + offset + ")";
}

// Whether a goes before b in `order`, as OrderBy sorts (ties by ascending id).
bool Before(const FoundGame& a, const FoundGame& b, const SortOrder& order) {
  // <0, 0, >0 on the column; `missing` set when one side has no value (it goes last).
  int missing = 0;
  auto text = [&](const std::string& x, const std::string& y) {
    if (x.empty() != y.empty()) missing = x.empty() ? 1 : -1;
    return x.compare(y);
  };
  auto compare = [&]() -> int {
    switch (order.field) {
      case SortOrder::Field::kWhite:
        return text(a.row.white_key, b.row.white_key);
      case SortOrder::Field::kBlack:
        return text(a.row.black_key, b.row.black_key);
      case SortOrder::Field::kResult:
        return text(a.row.result, b.row.result);
      case SortOrder::Field::kDate:
        if ((a.row.date_first == 0) != (b.row.date_first == 0)) {
          missing = a.row.date_first == 0 ? 1 : -1;
        }
        if (a.row.date_first != b.row.date_first)
          return a.row.date_first < b.row.date_first ? -1 : 1;
        return a.row.date_last < b.row.date_last ? -1 : (a.row.date_last > b.row.date_last ? 1 : 0);
      case SortOrder::Field::kVariant:
        return a.row.variant.compare(b.row.variant);
      case SortOrder::Field::kActions:
        return a.row.actions - b.row.actions;
      case SortOrder::Field::kTimelines:
        return a.row.timelines - b.row.timelines;
      case SortOrder::Field::kAction:
        return a.action - b.action;
      case SortOrder::Field::kId:
        return a.row.id < b.row.id ? -1 : (a.row.id > b.row.id ? 1 : 0);
    }
    return 0;
  };
  const int c = compare();
  if (missing != 0) return missing < 0;
  if (c != 0) return order.descending ? c > 0 : c < 0;
  return a.row.id < b.row.id;
}

std::string CsvCell(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::optional<SortOrder> ParseSortOrder(std::string_view text) {
  SortOrder order;
  if (!text.empty() && text.front() == '-') {
    order.descending = true;
    text.remove_prefix(1);
  }
  static constexpr std::pair<std::string_view, SortOrder::Field> kNames[] = {
      {"id", SortOrder::Field::kId},           {"white", SortOrder::Field::kWhite},
      {"black", SortOrder::Field::kBlack},     {"result", SortOrder::Field::kResult},
      {"date", SortOrder::Field::kDate},       {"variant", SortOrder::Field::kVariant},
      {"actions", SortOrder::Field::kActions}, {"timelines", SortOrder::Field::kTimelines},
      {"action", SortOrder::Field::kAction}};
  for (const auto& [name, field] : kNames) {
    if (text == name) {
      order.field = field;
      return order;
    }
  }
  return std::nullopt;
}

std::optional<OutputFormat> ParseOutputFormat(std::string_view text) {
  if (text == "table") return OutputFormat::kTable;
  if (text == "json") return OutputFormat::kJson;
  if (text == "csv") return OutputFormat::kCsv;
  if (text == "5dpgn" || text == "pgn") return OutputFormat::kPgn;
  return std::nullopt;
}

Result<std::vector<int64_t>> FilteredIds(GameStore& store, const GameFilter& filter) {
  const SqlCondition condition = FilterCondition(filter);
  Result<Statement> statement =
      store.db().Prepare("SELECT games.id FROM games WHERE " + condition.where + " ORDER BY id");
  if (!statement.ok()) return statement.error();
  Statement& s = statement.value();
  BindParams(s, condition.params);
  std::vector<int64_t> ids;
  while (true) {
    Result<StepResult> step = s.Step();
    if (!step.ok()) return step.error();
    if (step.value() != StepResult::kRow) break;
    ids.push_back(s.Int64(0));
  }
  return ids;
}

namespace {

// The matches of a position search that pass the filter, with their rows.
Result<std::vector<FoundGame>> FilterPositions(GameStore& store, const FindRequest& request) {
  // Thousands of one-row statements: one snapshot, one lock.
  const ReadSnapshot snapshot(store.db());
  const SqlCondition condition = FilterCondition(request.filter);
  const int id_param = static_cast<int>(condition.params.size()) + 1;
  Result<Statement> statement = store.db().Prepare(
      "SELECT " + kGameRowColumns +
      " FROM games JOIN sources ON sources.id = games.source_id WHERE games.id = ?" +
      std::to_string(id_param) + " AND (" + condition.where + ")");
  if (!statement.ok()) return statement.error();
  Statement& s = statement.value();
  BindParams(s, condition.params);
  std::vector<FoundGame> found;
  for (const PositionMatch& match : *request.positions) {
    s.Reset().Bind(id_param, match.game_id);
    Result<StepResult> step = s.Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kRow) {
      Result<GameRow> row = ReadGameRow(s);
      if (!row.ok()) return row.error();
      found.push_back({std::move(row).value(), match.action, match.boards});
    }
    s.Reset();
  }
  return found;
}

}  // namespace

Result<int64_t> CountGames(GameStore& store, const FindRequest& request) {
  if (request.positions) {
    if (request.filter.empty()) return static_cast<int64_t>(request.positions->size());
    Result<std::vector<FoundGame>> found = FilterPositions(store, request);
    if (!found.ok()) return found.error();
    return static_cast<int64_t>(found.value().size());
  }
  auto count = [&](const GameFilter& filter, std::string_view and_also) -> Result<int64_t> {
    const SqlCondition condition = FilterCondition(filter);
    Result<Statement> statement = store.db().Prepare("SELECT count(*) FROM games WHERE " +
                                                     condition.where + std::string(and_also));
    if (!statement.ok()) return statement.error();
    BindParams(statement.value(), condition.params);
    Result<StepResult> step = statement.value().Step();
    if (!step.ok()) return step.error();
    return statement.value().Int64(0);
  };
  const std::optional<PlayerSplit> split = SplitByPlayer(request.filter);
  if (!split || HasWildcards(NameKey(request.filter.player))) return count(request.filter, "");
  // A name: three index ranges counted (white, black, and both sides, which the first two count
  // twice: games_self_play) instead of a set of every game of the player made and counted.
  const ReadSnapshot snapshot(store.db());
  int64_t total = 0;
  for (const auto& [filter, and_also, sign] :
       {std::tuple{&split->as_white, "", 1}, std::tuple{&split->as_black, "", 1},
        std::tuple{&split->as_white, " AND games.white_key = games.black_key", -1}}) {
    Result<int64_t> part = count(*filter, and_also);
    if (!part.ok()) return part.error();
    total += sign * part.value();
  }
  return total;
}

Result<FindTotals> CountTotals(GameStore& store, const FindRequest& request) {
  const ReadSnapshot snapshot(store.db());
  FindRequest every = request;
  every.filter.originals_only = false;
  int64_t all = 0;
  int64_t copies = 0;
  if (request.positions) {
    Result<std::vector<FoundGame>> found = FilterPositions(store, every);
    if (!found.ok()) return found.error();
    all = static_cast<int64_t>(found.value().size());
    for (const FoundGame& game : found.value()) copies += game.row.duplicate_of != 0;
  } else {
    Result<int64_t> counted = CountGames(store, every);
    if (!counted.ok()) return counted.error();
    all = counted.value();
    FindRequest unique = request;
    unique.filter.originals_only = true;
    Result<int64_t> originals = CountGames(store, unique);
    if (!originals.ok()) return originals.error();
    copies = all - originals.value();
  }
  return FindTotals{request.filter.originals_only ? all - copies : all, copies};
}

std::string FindSummary(const FindTotals& totals, bool unique, int64_t offset, size_t shown) {
  std::string out;
  const auto games = [](int64_t n) { return std::to_string(n) + (n == 1 ? " game" : " games"); };
  if (offset > 0 || static_cast<int64_t>(shown) < totals.games) {
    out = shown == 0 ? "no rows of "
                     : "rows " + std::to_string(offset + 1) + " to " +
                           std::to_string(offset + static_cast<int64_t>(shown)) + " of ";
  }
  out += games(totals.games);
  if (totals.copies == 0) return out + " (no copies)";
  const std::string copies =
      std::to_string(totals.copies) + (totals.copies == 1 ? " copy" : " copies");
  if (unique) return out + " (" + copies + " left out)";
  return out + " (" + copies + (totals.copies == 1 ? " of an earlier game" : " of earlier games") +
         "; --unique leaves " + (totals.copies == 1 ? "it" : "them") + " out)";
}

Result<std::vector<FoundGame>> FindGames(GameStore& store, const FindRequest& request,
                                         int64_t* total) {
  if (request.positions && request.filter.empty() &&
      (request.sort.field == SortOrder::Field::kId ||
       request.sort.field == SortOrder::Field::kAction)) {
    // Sorted by what the matches carry, without a filter: only the page's rows are read (a
    // pattern may match most of the database, and a row costs a lookup).
    std::vector<PositionMatch> sorted = *request.positions;
    const SortOrder order = request.sort;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](const PositionMatch& a, const PositionMatch& b) {
                       if (order.field == SortOrder::Field::kAction && a.action != b.action) {
                         return order.descending ? a.action > b.action : a.action < b.action;
                       }
                       if (order.field == SortOrder::Field::kId && order.descending) {
                         return a.game_id > b.game_id;
                       }
                       return a.game_id < b.game_id;
                     });
    if (total) *total = static_cast<int64_t>(sorted.size());
    const size_t begin = std::min(sorted.size(), static_cast<size_t>(request.offset));
    size_t end = sorted.size();
    if (request.limit >= 0) end = std::min(end, begin + static_cast<size_t>(request.limit));
    FindRequest page = request;
    page.positions = std::vector<PositionMatch>(sorted.begin() + static_cast<std::ptrdiff_t>(begin),
                                                sorted.begin() + static_cast<std::ptrdiff_t>(end));
    // A match whose game is gone (a database changed by hand) has no row: it drops out of the
    // page as it would of the whole list.
    return FilterPositions(store, page);
  }
  if (request.positions) {
    Result<std::vector<FoundGame>> found = FilterPositions(store, request);
    if (!found.ok()) return found.error();
    std::vector<FoundGame>& games = found.value();
    std::stable_sort(games.begin(), games.end(), [&](const FoundGame& a, const FoundGame& b) {
      return Before(a, b, request.sort);
    });
    if (total) *total = static_cast<int64_t>(games.size());
    const size_t begin = std::min(games.size(), static_cast<size_t>(request.offset));
    size_t end = games.size();
    if (request.limit >= 0) end = std::min(end, begin + static_cast<size_t>(request.limit));
    return std::vector<FoundGame>(games.begin() + static_cast<std::ptrdiff_t>(begin),
                                  games.begin() + static_cast<std::ptrdiff_t>(end));
  }
  if (total) {
    Result<int64_t> count = CountGames(store, request);
    if (!count.ok()) return count.error();
    *total = count.value();
  }
  SqlCondition condition = FilterCondition(request.filter);
  const std::optional<PlayerSplit> split = SplitByPlayer(request.filter);
  std::string page_ids;  // a compound SELECT of the page's ids, for a player's games
  if (split && request.limit >= 0)
    page_ids = PlayerPageIds(*split, request.sort, &condition.params);
  const int limit_param = static_cast<int>(condition.params.size()) + 1;
  const std::string order = OrderBy(request.sort);
  const std::string page =
      " LIMIT ?" + std::to_string(limit_param) + " OFFSET ?" + std::to_string(limit_param + 1);
  const std::string from = "SELECT " + kGameRowColumns +
                           " FROM games JOIN sources ON sources.id = games.source_id WHERE ";
  // A page is chosen among ids first (the indexes answer that without reading game rows), and
  // only its rows are read: a player's first 100 games read 100 rows, not all of theirs.
  const std::string sql = !page_ids.empty() ? from + "games.id IN (" + page_ids + ")" + order
                          : request.limit >= 0
                              ? from + "games.id IN (SELECT games.id FROM games WHERE " +
                                    condition.where + order + page + ")" + order
                              : from + condition.where + order + page;
  Result<Statement> statement = store.db().Prepare(sql);
  if (!statement.ok()) return statement.error();
  Statement& s = statement.value();
  BindParams(s, condition.params);
  s.Bind(limit_param, request.limit).Bind(limit_param + 1, request.offset);
  std::vector<FoundGame> games;
  while (true) {
    Result<StepResult> step = s.Step();
    if (!step.ok()) return step.error();
    if (step.value() != StepResult::kRow) break;
    Result<GameRow> row = ReadGameRow(s);
    if (!row.ok()) return row.error();
    games.push_back({std::move(row).value(), -1, {}});
  }
  return games;
}

Result<Json> MatesJson(GameStore& store, int64_t id) {
  Result<std::vector<PositionTactics>> rows = ReadGameTactics(store.db(), id);
  if (!rows.ok()) return rows.error();
  Json mates = Json::array();
  for (const PositionTactics& row : rows.value()) {
    if (row.unknown) continue;
    Json played = nullptr;
    if (row.played) played = *row.played ? "found" : "missed";
    mates.push_back({{"action", row.action},
                     {"side", row.side == Color::kWhite ? "white" : "black"},
                     {"played", played},
                     {"solutions", row.mating},
                     {"complete", row.complete},
                     {"solution", row.solution},
                     {"allowed", row.action > 0}});
  }
  return mates;
}

Result<Json> GameJson(GameStore& store, const FoundGame& game, bool with_action, bool with_boards,
                      bool with_mates) {
  Result<std::vector<std::pair<std::string, std::string>>> headers = store.Headers(game.row.id);
  if (!headers.ok()) return headers.error();
  const GameRow& r = game.row;
  Json json = {{"id", r.id}};
  if (with_action) json["action"] = game.action;
  if (with_boards) {
    Json& boards = json["boards"] = Json::array();
    std::string_view rest = game.boards;
    while (!rest.empty()) {
      const size_t space = rest.find(' ');
      boards.push_back(std::string(rest.substr(0, space)));
      rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    }
  }
  json["white"] = r.white;
  json["black"] = r.black;
  json["result"] = r.result;
  json["date"] = r.date;
  json["event"] = r.event;
  json["variant"] = r.variant;
  json["actions"] = r.actions;
  json["timelines"] = r.timelines;
  json["final_md5"] = r.final_md5;
  json["duplicate_of"] = r.duplicate_of != 0 ? Json(r.duplicate_of) : Json(nullptr);
  // How the game ends; null where there is nothing to say.
  json["verdict"] = r.verdict ? Json(VerdictName(*r.verdict)) : Json(nullptr);
  json["in_check"] = !r.checked_side                    ? Json(nullptr)
                     : *r.checked_side == Color::kWhite ? Json("white")
                                                        : Json("black");
  json["witness"] = r.witness.empty() ? Json(nullptr) : Json(r.witness);
  json["result_conflict"] = r.result_conflict;
  json["source"] = r.source;
  json["member"] = r.member.empty() ? Json(nullptr) : Json(r.member);
  json["byte_offset"] = r.byte_offset;
  json["game_index"] = r.game_index;
  // Every header; a name written twice keeps its first value (as FindHeader reads it).
  Json& names = json["headers"] = Json::object();
  std::vector<std::string> seen;
  for (const auto& [name, value] : headers.value()) {
    const std::string lower = AsciiLower(name);
    if (std::find(seen.begin(), seen.end(), lower) != seen.end()) continue;
    seen.push_back(lower);
    names[name] = value;
  }
  if (with_mates) {
    Result<Json> mates = MatesJson(store, r.id);
    if (!mates.ok()) return mates.error();
    json["mates"] = std::move(mates).value();
  }
  return json;
}

Status WriteGames(GameStore& store, const std::vector<FoundGame>& games, OutputFormat format,
                  bool with_action, bool canonical, std::ostream& out, bool with_boards,
                  bool with_mates) {
  // The verdict's name, empty when the final position was not decided.
  auto verdict_name = [](const GameRow& row) -> std::string {
    return row.verdict ? VerdictName(*row.verdict) : "";
  };
  auto cells = [&](const FoundGame& g) {
    std::vector<std::string> row = {std::to_string(g.row.id),
                                    g.row.white,
                                    g.row.black,
                                    g.row.result,
                                    g.row.date,
                                    g.row.variant,
                                    std::to_string(g.row.actions),
                                    std::to_string(g.row.timelines)};
    if (with_action) row.push_back(std::to_string(g.action));
    if (with_boards) row.push_back(g.boards);
    return row;
  };
  std::vector<std::string> header = {"id",   "white",   "black",   "result",
                                     "date", "variant", "actions", "timelines"};
  if (with_action) header.push_back("action");
  if (with_boards) header.push_back("boards");
  switch (format) {
    case OutputFormat::kTable: {
      std::vector<std::vector<std::string>> rows = {header};
      for (const FoundGame& g : games) rows.push_back(cells(g));
      const std::vector<bool> right = {true, false, false, false, false, false, true, true, true};
      // Results and dates longer than a standard one ("1-0 (time)", "6-14-2021 evening") are
      // cut rather than widening their columns; the other formats keep them whole.
      const std::vector<size_t> max_widths = {kMaxCellWidth, 24, 24, 8, 10, 32};
      out << FormatTable(rows, right, max_widths);
      return Status();
    }
    case OutputFormat::kCsv: {
      auto line = [&](const std::vector<std::string>& row) {
        for (size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << CsvCell(row[i]);
        out << "\r\n";
      };
      // The verdict comes last, so that the other columns keep their places.
      std::vector<std::string> csv_header = header;
      csv_header.push_back("verdict");
      line(csv_header);
      for (const FoundGame& g : games) {
        std::vector<std::string> row = cells(g);
        row.push_back(verdict_name(g.row));
        line(row);
      }
      return Status();
    }
    case OutputFormat::kJson: {
      // One game at a time, so that a long listing is never held whole.
      out << '[';
      for (size_t i = 0; i < games.size(); ++i) {
        Result<Json> game = GameJson(store, games[i], with_action, with_boards, with_mates);
        if (!game.ok()) return game.error();
        out << (i ? "," : "") << DumpJson(game.value());
      }
      out << "]\n";
      return Status();
    }
    case OutputFormat::kPgn: {
      const ExportForm form = canonical ? ExportForm::kCanonical : ExportForm::kOriginal;
      for (const FoundGame& g : games) {
        Result<std::string> game = ExportGame(store, g.row, form);
        if (!game.ok()) return game.error();
        out << game.value() << "\n";
      }
      return Status();
    }
    case OutputFormat::kVmn:  // show's only: RunFind never asks for it
      break;
  }
  return Status();
}

}  // namespace fived
