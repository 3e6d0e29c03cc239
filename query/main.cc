// 5d-query: searches a 5dpgn-db database made by 5d-index.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>

#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "core/utf8.h"
#include "core/variants.h"
#include "query/duplicates.h"
#include "query/find.h"
#include "query/picture.h"
#include "query/search.h"
#include "query/stats.h"
#include "query/store.h"
#include "query/tree.h"
#include "schema/ending.h"

namespace po = boost::program_options;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitDatabase = 3;

constexpr const char* kUsage =
    "Usage: 5d-query [--db FILE] [filters] [position] [output]      find games\n"
    "       5d-query tree [--moves TEXT | --state BOARDS] [--depth N] [filters]\n"
    "       5d-query duplicates [--twin-actions N] [--export-unique FILE]\n"
    "       5d-query show ID [--action N] [--svg FILE]\n"
    "       5d-query stats [filters]\n"
    "\n"
    "Searches a database made by 5d-index (read-only: the database is never changed, and it\n"
    "may be searched while 5d-index adds to it). Names and header values compare\n"
    "case-insensitively in every script (Unicode case folding: 'INÊS' finds 'Inês'), with\n"
    "surrounding spaces ignored; '*' matches any run of characters and '?' one character.\n"
    "Dates may be partial (2021, 2021.03): a game matches when a day its Date may stand for\n"
    "is in the range, and a game whose Date cannot be read matches no range.\n"
    "Endings: 5d-index decides every game's final position for the side to move:\n"
    "checkmate, stalemate, playable, or unknown when its search ran out of budget (nothing\n"
    "is claimed then). tree and stats count a proven checkmate or stalemate as the result\n"
    "of a game that has none or '*', and say how many results were derived so.\n"
    "An option that does nothing in a command is refused.\n"
    "\n"
    "Examples:\n"
    "  5d-query --player 'Shad*' --result 1-0          games Shad... won as white\n"
    "  5d-query --moves '1. e3 / f6 2. Qe2' --count    games that reached this position\n"
    "  5d-query --moves 'e3 f6 Qe2' --count            the same, one move an action\n"
    "  5d-query --date-from 2021.03 --date-to 2021.05  games of March to May 2021\n"
    "  5d-query --state-md5 4a35c8f1... --format json  games whose final state has this MD5\n"
    "  5d-query --board '[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/4P3/P*P*P*P*1P*P*P*/R*NBQK*BNR*]'\n"
    "  5d-query --ending checkmate --count             games that ended in a proven mate\n"
    "  5d-query --result-conflict                      games whose Result the ending belies\n"
    "  5d-query tree --depth 2 --white Ada             Ada's repertoire as white\n"
    "  5d-query duplicates --export-unique clean.5dpgn one copy of every game\n"
    "  5d-query show 12 --action 5 --svg game12.svg    a picture after the 5th action\n"
    "\n"
    "Exit status: 0 done (also when nothing matched), 2 bad arguments, 3 the database could\n"
    "not be read.\n";

struct Failure {
  int code;
  std::string message;
};

Failure Usage(std::string message) { return {kExitUsage, std::move(message)}; }
Failure DbFailure(const fived::DbError& error) { return {kExitDatabase, error.message}; }

std::string VariantList() {
  std::string out;
  for (const fived::Variant& v : fived::OfficialVariants()) out += "  " + v.name + "\n";
  return out;
}

// Filters from the options; a Failure when one is malformed.
std::variant<fived::GameFilter, Failure> ReadFilter(const po::variables_map& vm) {
  fived::GameFilter filter;
  auto text = [&](const char* name) {
    return vm.count(name) ? vm[name].as<std::string>() : std::string();
  };
  filter.player = text("player");
  filter.white = text("white");
  filter.black = text("black");
  if (vm.count("variant")) {
    auto resolved = fived::ResolveVariantName(vm["variant"].as<std::string>());
    if (resolved.index() == 1) return Usage("--variant: " + std::get<1>(resolved));
    filter.variant = std::get<0>(resolved);
  }
  if (vm.count("result")) {
    auto result = fived::NormalizeResult(vm["result"].as<std::string>());
    if (!result) {
      return Usage("--result: '" + vm["result"].as<std::string>() +
                   "' is not a result (1-0, 0-1, 1/2-1/2, *, white, black, draw)");
    }
    filter.result = *result;
  }
  for (const char* name : {"date-from", "date-to"}) {
    if (!vm.count(name)) continue;
    const bool upper = std::string_view(name) == "date-to";
    auto date = fived::DateBound(vm[name].as<std::string>(), upper);
    if (auto* error = std::get_if<std::string>(&date)) {
      return Usage(std::string("--") + name + ": " + *error);
    }
    (upper ? filter.date_to : filter.date_from) = std::get<int32_t>(date);
  }
  if (filter.date_from != 0 && filter.date_to != 0 && filter.date_from > filter.date_to) {
    return Usage("--date-from is after --date-to");
  }
  if (vm.count("header")) {
    for (const std::string& pair : vm["header"].as<std::vector<std::string>>()) {
      const size_t eq = pair.find('=');
      if (eq == std::string::npos || eq == 0) {
        return Usage("--header: '" + pair + "' is not NAME=VALUE");
      }
      filter.headers.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
    }
  }
  filter.min_timelines = vm["min-timelines"].as<int>();
  filter.min_actions = vm["min-actions"].as<int>();
  filter.originals_only = vm.count("unique") > 0;
  if (vm.count("ending")) {
    const std::string name = vm["ending"].as<std::string>();
    filter.ending = fived::VerdictFromName(name);
    if (!filter.ending) {
      return Usage("--ending: '" + name +
                   "' is not an ending (checkmate, stalemate, playable, unknown)");
    }
  }
  filter.result_conflict = vm.count("result-conflict") > 0;
  return filter;
}

// The state a --moves or --state option names (with --variant for --moves); nullopt when none
// is given.
std::variant<std::optional<fived::Position>, Failure> ReadState(const po::variables_map& vm,
                                                                const fived::GameFilter& filter) {
  if (vm.count("moves") && vm.count("state")) {
    return Usage("--moves and --state exclude each other");
  }
  if (vm.count("moves")) {
    const std::string variant = filter.variant.empty() ? "Standard" : filter.variant;
    if (variant == "custom") return Usage("--moves needs an official --variant, not custom");
    auto pos = fived::PositionFromMoves(variant, vm["moves"].as<std::string>());
    if (auto* error = std::get_if<std::string>(&pos)) return Usage(*error);
    return std::optional<fived::Position>(std::get<fived::Position>(std::move(pos)));
  }
  if (vm.count("state")) {
    auto pos = fived::PositionFromState(vm["state"].as<std::string>());
    if (auto* error = std::get_if<std::string>(&pos)) return Usage(*error);
    return std::optional<fived::Position>(std::get<fived::Position>(std::move(pos)));
  }
  return std::optional<fived::Position>();
}

std::variant<fived::OutputFormat, Failure> ReadFormat(const po::variables_map& vm) {
  const std::string text = vm["format"].as<std::string>();
  auto format = fived::ParseOutputFormat(text);
  if (!format) return Usage("--format: '" + text + "' is not table, json, csv or 5dpgn");
  return *format;
}

// The format of tree, duplicates and stats: table or json.
std::variant<fived::OutputFormat, Failure> ReadTableOrJson(const po::variables_map& vm,
                                                           std::string_view command) {
  auto format = ReadFormat(vm);
  if (auto* f = std::get_if<Failure>(&format)) return *f;
  const fived::OutputFormat output = std::get<fived::OutputFormat>(format);
  if (output != fived::OutputFormat::kTable && output != fived::OutputFormat::kJson) {
    return Usage(std::string(command) + " writes --format table or json");
  }
  return output;
}

// Options that take a number and the least value each accepts (vm holds the defaults too).
constexpr std::pair<const char*, long> kLeastValues[] = {
    {"limit", 0}, {"offset", 0},  {"min-timelines", 0}, {"min-actions", 0},
    {"top", 0},   {"depth", 1},   {"twin-actions", 1},  {"columns", 0},
    {"action", 0}};

// The options each command takes besides --db and --help. An option a command does not take
// would do nothing there, so giving it is an error rather than silently ignored.
const std::vector<std::string>& CommandOptions(std::string_view command) {
  static const std::vector<std::string> kFilters = {
      "player",    "white",   "black",  "variant",       "result",      "date-from",
      "date-to",   "header",  "unique", "min-timelines", "min-actions", "ending",
      "result-conflict"};
  auto with_filters = [](std::vector<std::string> own) {
    own.insert(own.end(), kFilters.begin(), kFilters.end());
    return own;
  };
  static const std::vector<std::string> kFind =
      with_filters({"format", "moves", "state", "state-md5", "deep", "board", "count", "limit",
                    "offset", "sort", "canonical"});
  static const std::vector<std::string> kTree =
      with_filters({"format", "moves", "state", "depth", "limit"});
  static const std::vector<std::string> kDuplicates = {"format", "twin-actions", "export-unique"};
  static const std::vector<std::string> kShow = {"action", "svg", "columns", "unicode"};
  static const std::vector<std::string> kStats = with_filters({"format", "top"});
  if (command == "tree") return kTree;
  if (command == "duplicates") return kDuplicates;
  if (command == "show") return kShow;
  if (command == "stats") return kStats;
  return kFind;
}

// Refuses values out of range and options that would do nothing in `command`, alone or with the
// others given.
std::optional<Failure> CheckOptions(const po::variables_map& vm, std::string_view command) {
  for (const auto& [name, least] : kLeastValues) {
    if (!vm.count(name)) continue;
    const long value = name == std::string_view("limit") || name == std::string_view("offset")
                           ? vm[name].as<long>()
                           : vm[name].as<int>();
    if (value < least) {
      return Usage(std::string("--") + name + " must be " + std::to_string(least) + " or more");
    }
  }
  const std::vector<std::string>& allowed = CommandOptions(command);
  for (const auto& [name, value] : vm) {
    if (value.defaulted() || name == "db" || name == "args") continue;
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      return Usage(std::string(command) + " does not take --" + name +
                   " (5d-query --help says which options go with which command)");
    }
  }
  auto given = [&](const char* name) { return vm.count(name) && !vm[name].defaulted(); };
  if (given("deep") && !given("state-md5")) return Usage("--deep goes with --state-md5");
  if (given("canonical") && vm["format"].as<std::string>() != "5dpgn" &&
      vm["format"].as<std::string>() != "pgn") {
    return Usage("--canonical goes with --format 5dpgn");
  }
  if (given("count")) {
    for (const char* name : {"limit", "offset", "sort", "format", "canonical"}) {
      if (given(name)) return Usage(std::string("--count prints a number: --") + name +
                                    " does nothing with it");
    }
  }
  return std::nullopt;
}

// A message for stderr with each line escaped (EscapeForTerminal): messages quote what users
// typed and what files hold, and some point at it with a caret on a second line.
std::string EscapeLines(std::string_view message) {
  std::string out;
  size_t begin = 0;
  while (true) {
    const size_t end = message.find('\n', begin);
    out += fived::EscapeForTerminal(message.substr(begin, end - begin));
    if (end == std::string_view::npos) return out;
    out += '\n';
    begin = end + 1;
  }
}

// Prints a command's text, ending it with a line break (the JSON writers leave none).
void Print(std::string out) {
  if (!out.empty() && out.back() != '\n') out += '\n';
  std::cout << out;
}

std::optional<Failure> Find(fived::GameStore& store, const po::variables_map& vm) {
  auto filter = ReadFilter(vm);
  if (auto* f = std::get_if<Failure>(&filter)) return *f;
  fived::FindRequest request;
  request.filter = std::get<fived::GameFilter>(filter);
  auto format = ReadFormat(vm);
  if (auto* f = std::get_if<Failure>(&format)) return *f;

  int searches = static_cast<int>(vm.count("moves") + vm.count("state") + vm.count("state-md5") +
                                  vm.count("board"));
  if (searches > 1) {
    return Usage("give one position: --moves, --state, --state-md5 or --board");
  }
  auto state = ReadState(vm, request.filter);
  if (auto* f = std::get_if<Failure>(&state)) return *f;
  if (auto& pos = std::get<std::optional<fived::Position>>(state)) {
    auto matches = fived::FindState(store, pos->StateKey());
    if (!matches.ok()) return DbFailure(matches.error());
    request.positions = std::move(matches).value();
  } else if (vm.count("state-md5")) {
    const std::string md5 = vm["state-md5"].as<std::string>();
    if (!fived::IsMd5(md5)) return Usage("--state-md5: '" + md5 + "' is not 32 hex digits");
    if (vm.count("deep")) {
      auto ids = fived::FilteredIds(store, request.filter);
      if (!ids.ok()) return DbFailure(ids.error());
      auto matches = fived::ScanStateMd5(store, md5, ids.value());
      if (!matches.ok()) return DbFailure(matches.error());
      request.positions = std::move(matches).value();
    } else {
      auto matches = fived::FindFinalStateMd5(store, md5);
      if (!matches.ok()) return DbFailure(matches.error());
      request.positions = std::move(matches).value();
    }
  } else if (vm.count("board")) {
    auto query = fived::ParseBoardQuery(vm["board"].as<std::string>());
    if (auto* error = std::get_if<std::string>(&query)) return Usage(*error);
    auto matches = fived::FindBoard(store, std::get<fived::BoardQuery>(query));
    if (!matches.ok()) return DbFailure(matches.error());
    request.positions = std::move(matches).value();
    const std::string text = vm["board"].as<std::string>();
    const std::string_view pieces = std::string_view(text).substr(0, text.find(':'));
    if (request.positions->empty() && pieces.find('*') == std::string_view::npos &&
        pieces.find_first_of("pPwWkKrR") != std::string_view::npos) {
      // The most common reason for finding nothing: the board was typed as chess FEN.
      std::cerr << "5d-query: no board matched. The '*' marks matter: 5DFEN writes unmoved "
                   "pawns, brawns, kings and rooks with a '*' (r*nbqk*bnr*/p*p*p*p*p*p*p*p*/...), "
                   "and a board written without any only matches boards where all of them "
                   "have moved\n";
    }
  }

  if (vm.count("sort")) {
    auto order = fived::ParseSortOrder(vm["sort"].as<std::string>());
    if (!order) {
      return Usage("--sort: '" + vm["sort"].as<std::string>() +
                   "' is not one of id, white, black, result, date, variant, actions, "
                   "timelines, action (a leading '-' sorts descending)");
    }
    if (order->field == fived::SortOrder::Field::kAction && !request.positions) {
      return Usage("--sort action needs a position search");
    }
    request.sort = *order;
  }
  if (vm.count("limit")) request.limit = vm["limit"].as<long>();
  request.offset = vm["offset"].as<long>();

  if (vm.count("count")) {
    auto count = fived::CountGames(store, request);
    if (!count.ok()) return DbFailure(count.error());
    std::cout << count.value() << "\n";
    return std::nullopt;
  }
  auto games = fived::FindGames(store, request);
  if (!games.ok()) return DbFailure(games.error());
  if (auto error =
          fived::WriteGames(store, games.value(), std::get<fived::OutputFormat>(format),
                            request.positions.has_value(), vm.count("canonical") > 0, std::cout)) {
    return DbFailure(*error);
  }
  return std::nullopt;
}

// How a game ends, for show: "checkmate, white in check", "playable, no side in check; a
// legal action: (0T9)Nf3", "unknown, ... (the search stopped after N moves tried)", and whether
// it contradicts the game's result; or "not decided".
std::string EndingText(const fived::GameRow& game) {
  if (!game.verdict) return "not decided";
  std::string out = fived::VerdictName(*game.verdict);
  if (game.checked_side) {
    out += game.checked_side == fived::Color::kWhite ? ", white in check" : ", black in check";
  } else {
    out += ", no side in check";
  }
  if (!game.witness.empty()) out += "; a legal action: " + game.witness;
  if (*game.verdict == fived::Decision::Verdict::kUnknown) {
    out += " (the search stopped after " + std::to_string(game.verdict_work) + " moves tried)";
  }
  // The conflict may be with the Result header or the result closing the moves, which can
  // differ, so the text names neither.
  if (game.result_conflict) out += "; contradicts the game's result";
  return out;
}

std::optional<Failure> Show(fived::GameStore& store, const po::variables_map& vm,
                            const std::vector<std::string>& args) {
  if (args.size() != 1) return Usage("show takes one game id: 5d-query show ID");
  int64_t id = 0;
  try {
    size_t used = 0;
    id = std::stoll(args[0], &used);
    if (used != args[0].size()) throw std::invalid_argument("id");
  } catch (const std::exception&) {
    return Usage("show: '" + args[0] + "' is not a game id");
  }
  auto row = store.Row(id);
  if (!row.ok()) return DbFailure(row.error());
  if (!row.value()) return Usage("show: there is no game " + std::to_string(id));
  const fived::GameRow& game = *row.value();
  auto texts = store.Texts(id);
  if (!texts.ok()) return DbFailure(texts.error());

  int action = vm.count("action") ? vm["action"].as<int>() : game.actions;
  if (action < 0 || action > game.actions) {
    return Usage("--action: game " + std::to_string(id) + " has actions 0 to " +
                 std::to_string(game.actions));
  }
  // The position after `action`, from a replay of the stored text.
  const fived::SyntaxResult parsed = fived::ParseGameSyntax(texts.value().text);
  std::optional<fived::Position> position;
  fived::ReplayOutcome outcome =
      fived::ReplayGame(parsed.game, [&](int n, const fived::Position& p) {
        if (n == action) position = p;
      });
  if (!position || !outcome.replayer) {
    return Failure{kExitDatabase, "show: game " + std::to_string(id) + " no longer replays"};
  }
  std::vector<fived::Move> last;
  if (action > 0) {
    for (const fived::PlayedMove& m : outcome.replayer->actions()[action - 1].moves) {
      last.push_back(m.move);
    }
  }

  // Values from the input are escaped: they never act on the terminal.
  using fived::EscapeForTerminal;
  std::string out = "Game " + std::to_string(id) + ": " +
                    EscapeForTerminal(game.white.empty() ? "?" : game.white) + " - " +
                    EscapeForTerminal(game.black.empty() ? "?" : game.black);
  if (!game.result.empty()) out += "  " + EscapeForTerminal(game.result);
  if (!game.date.empty()) out += "  " + EscapeForTerminal(game.date);
  out += "\n" + game.variant + ", " + std::to_string(game.actions) + " actions, " +
         std::to_string(game.timelines) + " timelines";
  if (game.duplicate_of != 0) out += ", a copy of game " + std::to_string(game.duplicate_of);
  out += "\nSource: " + EscapeForTerminal(game.source) + " (game " +
         std::to_string(game.game_index) + ", byte " +
         std::to_string(game.byte_offset) + ")\n";
  out += "Ending: " + EndingText(game) + "\n\n";
  for (const auto& [name, value] : fived::HeadersOfText(texts.value().text)) {
    out += "[" + EscapeForTerminal(name) + " \"" + EscapeForTerminal(value) + "\"]\n";
  }
  out += "\n" + texts.value().moves;
  if (!texts.value().moves.empty() && texts.value().moves.back() != '\n') out += "\n";
  out += "\nAfter action " + std::to_string(action) + " of " + std::to_string(game.actions) + ":\n";
  fived::TextPictureOptions text_options;
  text_options.max_columns = vm["columns"].as<int>();
  text_options.unicode = vm.count("unicode") > 0;
  out += fived::TextPicture(*position, text_options);
  std::cout << out;

  if (vm.count("svg")) {
    const std::string path = vm["svg"].as<std::string>();
    fived::SvgPictureOptions svg_options;
    svg_options.max_columns = vm["columns"].as<int>();
    svg_options.title = "Game " + std::to_string(id) + " after action " + std::to_string(action);
    std::ofstream file(path, std::ios::binary);
    file << fived::SvgPicture(*position, last, svg_options);
    file.close();
    if (!file) return Failure{kExitDatabase, "--svg: cannot write " + path};
  }
  return std::nullopt;
}

std::optional<Failure> Tree(fived::GameStore& store, const po::variables_map& vm) {
  auto filter = ReadFilter(vm);
  if (auto* f = std::get_if<Failure>(&filter)) return *f;
  const fived::GameFilter& games = std::get<fived::GameFilter>(filter);
  auto format = ReadTableOrJson(vm, "tree");
  if (auto* f = std::get_if<Failure>(&format)) return *f;
  const fived::OutputFormat output = std::get<fived::OutputFormat>(format);
  auto state = ReadState(vm, games);
  if (auto* f = std::get_if<Failure>(&state)) return *f;
  std::optional<fived::Position> root = std::get<std::optional<fived::Position>>(state);
  if (!root) {
    // The starting position of the variant.
    const std::string variant = games.variant.empty() ? "Standard" : games.variant;
    if (variant == "custom") return Usage("tree of custom games needs --state");
    auto start = fived::PositionFromMoves(variant, "");
    if (auto* error = std::get_if<std::string>(&start)) return Usage(*error);
    root = std::get<fived::Position>(std::move(start));
  }
  const int depth = vm["depth"].as<int>();
  auto nodes = fived::BuildTree(store, root->StateKey(), games, depth);
  if (!nodes.ok()) return DbFailure(nodes.error());
  std::string out;
  if (output == fived::OutputFormat::kJson) {
    fived::WriteTreeJson(nodes.value(), &out);
  } else {
    // 0 in WriteTreeTable shows every action.
    const int limit = vm.count("limit") ? static_cast<int>(vm["limit"].as<long>()) : 0;
    fived::WriteTreeTable(nodes.value(), limit, &out);
  }
  Print(std::move(out));
  return std::nullopt;
}

std::optional<Failure> Duplicates(fived::GameStore& store, const po::variables_map& vm) {
  auto format = ReadTableOrJson(vm, "duplicates");
  if (auto* f = std::get_if<Failure>(&format)) return *f;
  const fived::OutputFormat output = std::get<fived::OutputFormat>(format);
  fived::DuplicateOptions options;
  options.twin_actions = vm["twin-actions"].as<int>();
  auto groups = fived::FindDuplicates(store, options);
  if (!groups.ok()) return DbFailure(groups.error());
  std::string out;
  if (output == fived::OutputFormat::kJson) {
    fived::WriteDuplicatesJson(groups.value(), &out);
  } else {
    fived::WriteDuplicatesTable(groups.value(), &out);
  }
  Print(std::move(out));
  if (vm.count("export-unique")) {
    const std::string path = vm["export-unique"].as<std::string>();
    std::ofstream file(path, std::ios::binary);
    if (!file) return Failure{kExitDatabase, "--export-unique: cannot write " + path};
    auto written = fived::ExportUnique(store, groups.value(), file);
    if (!written.ok()) return DbFailure(written.error());
    file.close();
    if (!file) return Failure{kExitDatabase, "--export-unique: cannot write " + path};
    std::cerr << "5d-query: wrote " << written.value() << " games to " << path << "\n";
  }
  return std::nullopt;
}

std::optional<Failure> Stats(fived::GameStore& store, const po::variables_map& vm) {
  auto filter = ReadFilter(vm);
  if (auto* f = std::get_if<Failure>(&filter)) return *f;
  auto format = ReadTableOrJson(vm, "stats");
  if (auto* f = std::get_if<Failure>(&format)) return *f;
  const fived::OutputFormat output = std::get<fived::OutputFormat>(format);
  auto stats = fived::ComputeStats(store, std::get<fived::GameFilter>(filter), vm["top"].as<int>());
  if (!stats.ok()) return DbFailure(stats.error());
  std::string out;
  if (output == fived::OutputFormat::kJson) {
    fived::WriteStatsJson(stats.value(), &out);
  } else {
    fived::WriteStatsTable(stats.value(), &out);
  }
  Print(std::move(out));
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  po::options_description general("General");
  general.add_options()("help,h", "print this help")(
      "db", po::value<std::string>()->default_value(fived::kDefaultDatabaseFile),
      "the database to search (made by 5d-index; never created or changed)")(
      "format,f", po::value<std::string>()->default_value("table"),
      "table, json, csv or 5dpgn (find); table or json (tree, duplicates, stats)");
  po::options_description filters("Filters (find, tree, stats)");
  filters.add_options()("player", po::value<std::string>(), "a player of either colour")(
      "white", po::value<std::string>(), "the white player")("black", po::value<std::string>(),
                                                             "the black player")(
      "variant", po::value<std::string>(),
      "an official variant, matched as [Board] names are (\"standard\", \"Turn Zero\"), or "
      "custom; also the variant --moves is played in (default Standard)")(
      "result", po::value<std::string>(), "1-0, 0-1, 1/2-1/2 or * (or white, black, draw)")(
      "date-from", po::value<std::string>(),
      "games on or after YYYY[.MM[.DD]] ('-' or '/' may separate the parts; --date-from "
      "2021.03 is from March 1st)")(
      "date-to", po::value<std::string>(),
      "games on or before YYYY[.MM[.DD]] (--date-to 2021.03 is up to March 31st); games' "
      "partial dates such as 2021.??.?? count as every day they may stand for, and dates "
      "that cannot be read (6-14-2021) match no range")(
      "header", po::value<std::vector<std::string>>(),
      "NAME=VALUE: a header of that name with that value, compared as names are "
      "(repeatable; wildcards allowed)")(
      "min-timelines", po::value<int>()->default_value(0), "games with at least N timelines")(
      "min-actions", po::value<int>()->default_value(0), "games with at least N actions")(
      "unique", "leave out games recorded as copies of an earlier game")(
      "ending", po::value<std::string>(),
      "games whose final position is a checkmate, stalemate, playable (the side to move has a "
      "legal action) or unknown (5d-index's search ran out of its budget)")(
      "result-conflict",
      "games whose ending contradicts their result: a checkmate of the side the result says "
      "won or drew, a stalemate with a winner, or '*' for a game that is over");
  po::options_description position("Position (find; --moves and --state also for tree)");
  position.add_options()("moves", po::value<std::string>(),
                         "games that reached the state after this 5dpgn movetext, played in "
                         "--variant: '1. e3 / f6 2. Qe2 / Nc6'; without turn numbers or '/' "
                         "each move is one action, the players in turn: 'e3 f6 Qe2 Nc6'")(
      "state", po::value<std::string>(),
      "games that reached this full state, given as 5DFEN boards '[...:0:1:w][...]'")(
      "state-md5", po::value<std::string>(),
      "games whose final state has this specification MD5 (an index lookup); with --deep "
      "also states inside games (replays the games passing the filters: slow)")(
      "deep", "with --state-md5: look at every state of every candidate game")(
      "board", po::value<std::string>(),
      "games that had this board: '[pieces]' anywhere, '[pieces:L:T:c]' at those "
      "coordinates; pieces in canonical 5DFEN ('*' on unmoved pawns, kings and rooks)");
  po::options_description output("Output (find; --limit also for tree)");
  output.add_options()("count", "print only the number of matching games")(
      "limit", po::value<long>(),
      "at most N games (tree: the N most played actions of each position, the others summed "
      "up); default all")(
      "offset", po::value<long>()->default_value(0), "skip the first N games")(
      "sort", po::value<std::string>(),
      "id, white, black, result, date, variant, actions, timelines or action (position "
      "searches); '-date' sorts descending")(
      "canonical", "with --format 5dpgn: headers and canonical moves instead of the original text");
  po::options_description commands("Commands");
  commands.add_options()("depth", po::value<int>()->default_value(1),
                         "tree: expand N actions deep")(
      "twin-actions", po::value<int>()->default_value(10),
      "duplicates: twins share players, date and this many first actions")(
      "export-unique", po::value<std::string>(),
      "duplicates: write every game once (the most complete copy) to FILE")(
      "action", po::value<int>(), "show: the position after action N (default: the end)")(
      "svg", po::value<std::string>(), "show: also write the picture as SVG to FILE")(
      "columns", po::value<int>()->default_value(0),
      "show: draw only the last N half-turns (0: all)")(
      "unicode", "show: chess symbols instead of letters in the terminal picture")(
      "top", po::value<int>()->default_value(10), "stats: how many top players");
  po::options_description hidden;
  hidden.add_options()("args", po::value<std::vector<std::string>>(), "command and arguments");
  po::options_description all;
  all.add(general).add(filters).add(position).add(output).add(commands).add(hidden);
  po::options_description visible;
  visible.add(general).add(filters).add(position).add(output).add(commands);
  po::positional_options_description positional;
  positional.add("args", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "5d-query: " << EscapeLines(e.what()) << " (5d-query --help lists the options)\n";
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << kUsage << "\n" << visible << "\nOfficial variants:\n" << VariantList();
    return kExitOk;
  }
  std::vector<std::string> args;
  if (vm.count("args")) args = vm["args"].as<std::vector<std::string>>();
  std::string command = "find";
  if (!args.empty()) {
    command = args.front();
    args.erase(args.begin());
  }
  static const std::vector<std::string> kCommands = {"find", "tree", "duplicates", "show", "stats"};
  if (std::find(kCommands.begin(), kCommands.end(), command) == kCommands.end()) {
    std::cerr << "5d-query: unknown command '" << command
              << "' (commands: find, tree, duplicates, show, stats)\n";
    return kExitUsage;
  }
  if (command != "show" && !args.empty()) {
    std::cerr << "5d-query: unexpected argument '" << args.front() << "'\n";
    return kExitUsage;
  }
  if (auto failure = CheckOptions(vm, command)) {
    std::cerr << "5d-query: " << EscapeLines(failure->message) << "\n";
    return failure->code;
  }
  std::ios::sync_with_stdio(false);

  auto store = fived::GameStore::Open(vm["db"].as<std::string>());
  if (!store.ok()) {
    std::cerr << "5d-query: " << EscapeLines(store.error().message) << "\n";
    return kExitDatabase;
  }
  std::optional<Failure> failure;
  if (command == "find") {
    failure = Find(store.value(), vm);
  } else if (command == "show") {
    failure = Show(store.value(), vm, args);
  } else if (command == "tree") {
    failure = Tree(store.value(), vm);
  } else if (command == "duplicates") {
    failure = Duplicates(store.value(), vm);
  } else {
    failure = Stats(store.value(), vm);
  }
  std::cout.flush();
  if (failure) {
    std::cerr << "5d-query: " << EscapeLines(failure->message) << "\n";
    return failure->code;
  }
  return kExitOk;
}
