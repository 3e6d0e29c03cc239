// The request layer; see request.h.
#include "query/request.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <thread>

#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "core/tactics.h"
#include "core/utf8.h"
#include "core/vmn_writer.h"
#include "query/export.h"
#include "query/move_pattern.h"
#include "query/pattern_search.h"
#include "query/request_params.h"
#include "query/search.h"
#include "schema/ending.h"
#include "schema/meta.h"

namespace fived {

namespace {

using Params = std::vector<std::string>;

const Params kFlags = {"count",   "deep",        "unique",      "result-conflict", "canonical",
                       "unicode", "coordinates", "mate-in-one", "missed-mate",     "only-move"};
const Params kFilters = {"player",          "white",         "black",       "variant",
                         "result",          "date-from",     "date-to",     "header",
                         "unique",          "min-timelines", "min-actions", "ending",
                         "result-conflict", "mate-in-one",   "missed-mate"};

bool IsFlag(std::string_view name) {
  return std::find(kFlags.begin(), kFlags.end(), name) != kFlags.end();
}

// The first value of a parameter; nullptr when it is not given.
const std::string* Value(const Request& request, std::string_view name) {
  const auto it = request.params.find(std::string(name));
  return it == request.params.end() || it->second.empty() ? nullptr : &it->second.front();
}

}  // namespace

// The helpers of request_params.h.

Status BadRequest(std::string message) { return Status::InvalidArgument(std::move(message)); }

// A parameter as messages name it: "--limit" on the command line, "limit" in the API.
std::string Name(const Request& request, std::string_view name) {
  return std::string(request.spelling.prefix) + std::string(name);
}

// Whether a parameter is given (a flag: given and on). CheckRequest has read the flags' values.
bool Given(const Request& request, std::string_view name) {
  const std::string* value = Value(request, name);
  if (value == nullptr) return false;
  return !IsFlag(name) || *value == "" || *value == "1" || *value == "true";
}

std::string Text(const Request& request, std::string_view name, std::string fallback) {
  const std::string* value = Value(request, name);
  return value ? *value : fallback;
}

// A decimal integer, whole text; nullopt when it is not one or does not fit.
std::optional<int64_t> ParseInteger(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// A number CheckRequest has read (so it parses), or `fallback` when it is not given.
int64_t Number(const Request& request, std::string_view name, int64_t fallback) {
  const std::string* value = Value(request, name);
  return value ? *ParseInteger(*value) : fallback;
}

// The boards "mark" names, in `position`'s numbering of timelines (see RunShow in show.h).
Result<std::vector<BoardAddress>> ReadMarks(const Request& request, const Position& position) {
  std::vector<BoardAddress> marks;
  const auto given = request.params.find("mark");
  if (given == request.params.end()) return marks;
  for (const std::string& text : given->second) {
    const Status wrong =
        BadRequest(Name(request, "mark") + ": '" + text +
                   "' is not a board: L:T:c, the timeline as the notation writes it, the turn, "
                   "and w or b (+1:5:b)");
    const size_t first = text.find(':');
    const size_t second = first == std::string::npos ? first : text.find(':', first + 1);
    if (second == std::string::npos) return wrong;
    std::string_view timeline = std::string_view(text).substr(0, first);
    const std::string_view turn_text = std::string_view(text).substr(first + 1, second - first - 1);
    const std::string_view colour = std::string_view(text).substr(second + 1);
    const bool negative = !timeline.empty() && timeline.front() == '-';
    if (!timeline.empty() && (timeline.front() == '-' || timeline.front() == '+')) {
      timeline.remove_prefix(1);
    }
    const std::optional<int64_t> magnitude = ParseInteger(timeline);
    const std::optional<int64_t> turn = ParseInteger(turn_text);
    // ParseInteger takes a sign of its own; the timeline's was taken off above.
    if (!magnitude || timeline.front() == '-' || *magnitude > kMaxTimelineIndex || !turn ||
        *turn < 0 || *turn > kMaxHalfTurn / 2 || (colour != "w" && colour != "b")) {
      return wrong;
    }
    marks.push_back(
        {position.labeling().FromNotation(negative, static_cast<int>(*magnitude)),
         HalfTurn(static_cast<int>(*turn), colour == "w" ? Color::kWhite : Color::kBlack)});
  }
  return marks;
}

namespace {

// The parameters that take a number, and the least value each accepts.
constexpr std::pair<const char*, long> kLeastValues[] = {
    {"limit", 0}, {"offset", 0},       {"min-timelines", 0}, {"min-actions", 0}, {"top", 0},
    {"depth", 1}, {"twin-actions", 1}, {"columns", 0},       {"action", 0}};

// The parameters each command takes. `find` is also what an unknown command would be checked
// against, which CheckRequest refuses first.
const Params* CommandParams(std::string_view command) {
  auto with_filters = [](Params own) {
    own.insert(own.end(), kFilters.begin(), kFilters.end());
    return own;
  };
  static const Params kFind =
      with_filters({"format", "moves", "state", "state-md5", "deep", "board", "pattern", "material",
                    "when", "move", "count", "limit", "offset", "sort", "canonical"});
  static const Params kTree = with_filters({"format", "moves", "state", "depth", "limit"});
  static const Params kDuplicates = {"format", "twin-actions", "export-unique"};
  static const Params kShow = {"format",  "action", "svg",        "columns",
                               "unicode", "mark",   "coordinates"};
  static const Params kStats = with_filters({"format", "top"});
  static const Params kPicture = {"moves", "state",       "variant", "columns",
                                  "mark",  "coordinates", "title"};
  static const Params kPosition = {"moves", "state", "variant", "mark"};
  static const Params kPattern = {"pattern"};
  static const Params kStarts = {"format"};
  static const Params kPuzzles = with_filters({"format", "only-move"});
  if (command == "find") return &kFind;
  if (command == "tree") return &kTree;
  if (command == "duplicates") return &kDuplicates;
  if (command == "show") return &kShow;
  if (command == "stats") return &kStats;
  if (command == "picture") return &kPicture;
  if (command == "position") return &kPosition;
  if (command == "pattern") return &kPattern;
  if (command == "starts") return &kStarts;
  if (command == "puzzles") return &kPuzzles;
  return nullptr;
}

// Numbers that do not read or are out of range, and values given twice where one is taken.
Status CheckValues(const Request& request) {
  for (const auto& [name, values] : request.params) {
    if (values.size() > 1 && name != "header" && name != "pattern" && name != "material" &&
        name != "move" && name != "mark") {
      return BadRequest(Name(request, name) + " is given more than once");
    }
    if (IsFlag(name) && !values.empty()) {
      const std::string& value = values.front();
      if (value != "" && value != "1" && value != "true" && value != "0" && value != "false") {
        return BadRequest(Name(request, name) + ": '" + value + "' is not true or false");
      }
    }
  }
  for (const auto& [name, least] : kLeastValues) {
    const std::string* text = Value(request, name);
    if (text == nullptr) continue;
    const std::optional<int64_t> value = ParseInteger(*text);
    // Only limit and offset count games; the others are small numbers.
    const bool wide = name == std::string_view("limit") || name == std::string_view("offset");
    if (!value || (!wide && *value > std::numeric_limits<int>::max())) {
      return BadRequest(Name(request, name) + ": '" + *text + "' is not a number" +
                        (value ? " this tool can take" : ""));
    }
    if (*value < least) {
      return BadRequest(Name(request, name) + " must be " + std::to_string(least) + " or more");
    }
  }
  return Status();
}

// Parameters that would do nothing: not taken by the command, or not with the others given.
Status CheckCombinations(const Request& request) {
  const Params& allowed = *CommandParams(request.command);
  for (const auto& [name, values] : request.params) {
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      return BadRequest(request.command + " does not take " + Name(request, name) + " (" +
                        std::string(request.spelling.help) + ")");
    }
  }
  const auto name = [&](std::string_view n) { return Name(request, n); };
  if (Given(request, "deep") && !Given(request, "state-md5")) {
    return BadRequest(name("deep") + " goes with " + name("state-md5"));
  }
  const std::string format = Text(request, "format", "table");
  if (Given(request, "canonical") && format != "5dpgn" && format != "pgn") {
    return BadRequest(name("canonical") + " goes with " + name("format") + " 5dpgn");
  }
  const bool vmn = format == "vmn";
  if (request.command == "show" && (format == "5dpgn" || format == "pgn" || vmn)) {
    for (const char* other : {"action", "columns", "unicode", "svg", "mark", "coordinates"}) {
      if (Given(request, other)) {
        return BadRequest(name(other) + " draws a position: " + name("format") +
                          (vmn ? " vmn writes the whole game" : " 5dpgn writes the game's text"));
      }
    }
  }
  if (Given(request, "count")) {
    for (const char* other : {"limit", "offset", "sort", "format", "canonical"}) {
      if (Given(request, other)) {
        return BadRequest(name("count") + " prints a number: " + name(other) +
                          " does nothing with it");
      }
    }
  }
  return Status();
}

}  // namespace

Status ReadFilter(const Request& request, GameFilter* filter) {
  filter->player = Text(request, "player");
  filter->white = Text(request, "white");
  filter->black = Text(request, "black");
  if (const std::string* variant = Value(request, "variant")) {
    Result<std::string> resolved = ResolveVariantName(*variant);
    if (!resolved.ok()) {
      return BadRequest(Name(request, "variant") + ": " + resolved.error().message());
    }
    filter->variant = std::move(resolved).value();
  }
  if (const std::string* text = Value(request, "result")) {
    auto result = NormalizeResult(*text);
    if (!result) {
      return BadRequest(Name(request, "result") + ": '" + *text +
                        "' is not a result (1-0, 0-1, 1/2-1/2, *, white, black, draw)");
    }
    filter->result = *result;
  }
  for (const char* name : {"date-from", "date-to"}) {
    const std::string* text = Value(request, name);
    if (text == nullptr) continue;
    const bool upper = std::string_view(name) == "date-to";
    const Result<int32_t> date = DateBound(*text, upper);
    if (!date.ok()) return BadRequest(Name(request, name) + ": " + date.error().message());
    (upper ? filter->date_to : filter->date_from) = date.value();
  }
  if (filter->date_from != 0 && filter->date_to != 0 && filter->date_from > filter->date_to) {
    return BadRequest(Name(request, "date-from") + " is after " + Name(request, "date-to"));
  }
  if (const auto it = request.params.find("header"); it != request.params.end()) {
    for (const std::string& pair : it->second) {
      const size_t eq = pair.find('=');
      if (eq == std::string::npos || eq == 0) {
        return BadRequest(Name(request, "header") + ": '" + pair + "' is not NAME=VALUE");
      }
      filter->headers.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
    }
  }
  filter->min_timelines = static_cast<int>(Number(request, "min-timelines", 0));
  filter->min_actions = static_cast<int>(Number(request, "min-actions", 0));
  filter->originals_only = Given(request, "unique");
  if (const std::string* name = Value(request, "ending")) {
    filter->ending = VerdictFromName(*name);
    if (!filter->ending) {
      return BadRequest(Name(request, "ending") + ": '" + *name +
                        "' is not an ending (checkmate, stalemate, playable, unknown)");
    }
  }
  filter->result_conflict = Given(request, "result-conflict");
  filter->mate_in_one = Given(request, "mate-in-one");
  filter->missed_mate = Given(request, "missed-mate");
  return Status();
}

// Said when a search for mates in one runs on a database that holds none, or whose mates in one
// an earlier build searched (meta.tactics_version).
Status TacticsHint(GameStore& store, const Request& request, const GameFilter& filter,
                   std::vector<std::string>* hints) {
  if (!filter.mate_in_one && !filter.missed_mate && request.command != "puzzles") {
    return Status();
  }
  const Result<bool> tactics = ReadTactics(store.db());
  if (!tactics.ok()) return tactics.error();
  if (!tactics.value()) {
    hints->push_back(
        "this database was made without 5d-index --tactics: it holds no mates in one (index "
        "the collections again into a new database with --tactics)");
    return Status();
  }
  const Result<int> version = ReadTacticsVersion(store.db());
  if (!version.ok()) return version.error();
  if (version.value() < kTacticsVersion) hints->push_back(OlderTacticsText(version.value()));
  return Status();
}

namespace {

// The state "moves" or "state" names (moves played in `variant`, a resolved name or empty for
// Standard); nullopt when neither is given. With `last_action`, the moves of the last action
// "moves" plays go there (none for "state").
Result<std::optional<Position>> ReadState(const Request& request, const std::string& variant,
                                          std::vector<Move>* last_action = nullptr) {
  const std::string* moves = Value(request, "moves");
  const std::string* state = Value(request, "state");
  if (!moves && !state) return std::optional<Position>();
  const std::string played_in = variant.empty() ? "Standard" : variant;
  if (moves && !state && played_in == "custom") {
    return BadRequest(Name(request, "moves") + " needs an official " + Name(request, "variant") +
                      ", or the start it is played from as " + Name(request, "state"));
  }
  // With both, the moves are played from the state: how a custom start is explored.
  Result<Position> position = moves && state
                                  ? PositionFromStateAndMoves(*state, *moves, last_action)
                              : moves ? PositionFromMoves(played_in, *moves, last_action)
                                      : PositionFromState(*state);
  if (!position.ok()) {
    // Moves are read a move at a time: the API says where, for a page to point there (an error
    // in the state has no place).
    if (const std::optional<Place>& at = position.error().place()) {
      Place place = *at;
      place.parameter = "moves";
      return BadRequest(position.error().message()).At(std::move(place));
    }
    return BadRequest(position.error().message());
  }
  return std::optional<Position>(std::move(position).value());
}

// The state ReadState names, or else the start of `variant` (Standard when empty); `what` names
// the request in the message for custom games, which have no start of their own.
Result<Position> StateOrStart(const Request& request, const std::string& variant,
                              std::string_view what, std::vector<Move>* last_action = nullptr) {
  Result<std::optional<Position>> state = ReadState(request, variant, last_action);
  if (!state.ok()) return state.error();
  if (state.value()) return std::move(*state.value());
  const std::string start_of = variant.empty() ? "Standard" : variant;
  if (start_of == "custom") {
    return BadRequest(std::string(what) + " of custom games needs " + Name(request, "state"));
  }
  Result<Position> start = PositionFromMoves(start_of, "");
  if (!start.ok()) return BadRequest(start.error().message());
  return start;
}

// The position of the picture and position commands: "moves" played in "variant", or "state",
// or the variant's start; `what` names the request in messages. The last action's moves go to
// `last_action` when given.
Result<Position> NamedPosition(const Request& request, std::string_view what,
                               std::vector<Move>* last_action = nullptr) {
  std::string variant;
  if (const std::string* name = Value(request, "variant")) {
    Result<std::string> resolved = ResolveVariantName(*name);
    if (!resolved.ok()) {
      return BadRequest(Name(request, "variant") + ": " + resolved.error().message());
    }
    variant = std::move(resolved).value();
  }
  return StateOrStart(request, variant, what, last_action);
}

Result<OutputFormat> ReadFormat(const Request& request) {
  const std::string text = Text(request, "format", "table");
  const std::optional<OutputFormat> format = ParseOutputFormat(text);
  if (!format) {
    return BadRequest(Name(request, "format") + ": '" + text +
                      "' is not table, json, csv or 5dpgn");
  }
  return *format;
}

// The format of tree, duplicates and stats: table or json.
Result<OutputFormat> ReadTableOrJson(const Request& request) {
  Result<OutputFormat> format = ReadFormat(request);
  if (!format.ok()) return format;
  if (format.value() != OutputFormat::kTable && format.value() != OutputFormat::kJson) {
    return BadRequest(request.command + " writes " + Name(request, "format") + " table or json");
  }
  return format;
}

// Every "pattern" given, read; the error of the first that does not read, with its place.
Result<std::vector<BoardPattern>> ReadPatterns(const Request& request) {
  std::vector<BoardPattern> patterns;
  const auto given = request.params.find("pattern");
  if (given == request.params.end()) return patterns;
  for (size_t i = 0; i < given->second.size(); ++i) {
    const std::string& text = given->second[i];
    Result<BoardPattern> parsed = ParseBoardPattern(text);
    if (!parsed.ok()) {
      Place place = *parsed.error().place();
      place.parameter = "pattern";
      place.index = static_cast<int>(i);
      return BadRequest(Name(request, "pattern") + ": " + parsed.error().message())
          .At(std::move(place));
    }
    patterns.push_back(std::move(parsed).value());
  }
  return patterns;
}

// The position query of "pattern" (repeatable), "material" (repeatable) and "when"; a message
// pointing at the character when one does not read.
Result<GameQuery> ReadGameQuery(const Request& request) {
  GameQuery query;
  auto values = [&](std::string_view name) -> const std::vector<std::string>& {
    static const std::vector<std::string> kNone;
    const auto it = request.params.find(std::string(name));
    return it == request.params.end() ? kNone : it->second;
  };
  Result<std::vector<BoardPattern>> patterns = ReadPatterns(request);
  if (!patterns.ok()) return patterns.error();
  query.boards = std::move(patterns.value());
  for (const std::string& text : values("material")) {
    Result<MaterialCondition> parsed = ParseMaterial(text);
    if (!parsed.ok())
      return BadRequest(Name(request, "material") + ": " + parsed.error().message());
    query.material.push_back(std::move(parsed).value());
  }
  if (const std::string* text = Value(request, "when")) {
    Result<std::vector<StateTerm>> parsed = ParseState(*text);
    if (!parsed.ok()) return BadRequest(Name(request, "when") + ": " + parsed.error().message());
    query.state = std::move(parsed).value();
  }
  if (Status error = CheckGameQuery(query); !error.ok()) {
    return BadRequest(Name(request, "pattern") + ": " + error.message());
  }
  return query;
}

// The games a position parameter (moves, state, state-md5 or board) names, into *answer;
// nothing when none is given.
Status FindPositions(GameStore& store, const Request& request, FindAnswer* answer) {
  FindRequest& search = answer->search;
  Result<std::optional<Position>> state = ReadState(request, search.filter.variant);
  if (!state.ok()) return state.error();
  if (const std::optional<Position>& position = state.value()) {
    auto matches = FindState(store, position->StateKey());
    if (!matches.ok()) return matches.error();
    search.positions = std::move(matches).value();
  } else if (const std::string* md5 = Value(request, "state-md5")) {
    if (!IsMd5(*md5)) {
      return BadRequest(Name(request, "state-md5") + ": '" + *md5 + "' is not 32 hex digits");
    }
    const Result<bool> every_state = IndexesEveryStateMd5(store);
    if (!every_state.ok()) return every_state.error();
    if (every_state.value()) {
      // Every state is indexed: --deep has nothing more to look at.
      auto matches = FindStateMd5(store, *md5);
      if (!matches.ok()) return matches.error();
      search.positions = std::move(matches).value();
    } else if (Given(request, "deep")) {
      auto ids = FilteredIds(store, search.filter);
      if (!ids.ok()) return ids.error();
      const int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
      auto matches = ScanStateMd5(store, *md5, ids.value(), jobs);
      if (!matches.ok()) return matches.error();
      search.positions = std::move(matches).value();
    } else {
      auto matches = FindFinalStateMd5(store, *md5);
      if (!matches.ok()) return matches.error();
      search.positions = std::move(matches).value();
      answer->hints.push_back(
          "this database indexes the MD5 of final states only: games that passed through the "
          "state without ending there are not found (" +
          Name(request, "deep") +
          " replays the games to find them; 5d-index --all-state-md5 indexes every state's MD5 "
          "in a new database)");
    }
  } else if (Given(request, "pattern") || Given(request, "material") || Given(request, "when") ||
             Given(request, "move")) {
    Result<GameQuery> query = ReadGameQuery(request);
    if (!query.ok()) return query.error();
    std::vector<MovePattern> moves;
    if (const auto it = request.params.find("move"); it != request.params.end()) {
      for (const std::string& text : it->second) {
        Result<MovePattern> parsed = ParseMovePattern(text);
        if (!parsed.ok()) {
          return BadRequest(Name(request, "move") + ": " + parsed.error().message());
        }
        moves.push_back(std::move(parsed).value());
      }
    }
    std::vector<PositionMatch> matches;
    if (!query.value().empty()) {
      auto found = FindPatterns(store, query.value());
      if (!found.ok()) return found.error();
      matches = std::move(found).value();
    } else {
      // Moves alone: every game the filters keep is a candidate.
      auto ids = FilteredIds(store, search.filter);
      if (!ids.ok()) return ids.error();
      for (int64_t id : ids.value()) matches.push_back({id, 0, {}});
    }
    if (!moves.empty()) {
      // The moves are read from the records' canonical movetext; a game keeps the later of its
      // position's action and its moves' first actions.
      size_t kept = 0;
      for (PositionMatch& match : matches) {
        auto texts = store.Texts(match.game_id);
        if (!texts.ok()) return texts.error();
        // Moves that must give check: the game is replayed once, deciding check only after
        // the actions whose moves match otherwise.
        std::vector<int> candidates;
        for (const MovePattern& move : moves) {
          if (!move.check) continue;
          const std::vector<int> actions = MoveActions(move, texts.value().moves);
          candidates.insert(candidates.end(), actions.begin(), actions.end());
        }
        std::sort(candidates.begin(), candidates.end());
        candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
        const std::vector<int> checking = CheckingActions(texts.value().text, candidates);
        bool all = true;
        for (const MovePattern& move : moves) {
          const int action = FirstMoveAction(move, texts.value().moves, checking);
          if (action < 0) {
            all = false;
            break;
          }
          match.action = std::max(match.action, action);
        }
        if (all) matches[kept++] = std::move(match);
      }
      matches.resize(kept);
    }
    search.positions = std::move(matches);
    answer->pattern = true;
  } else if (const std::string* board = Value(request, "board")) {
    Result<BoardQuery> query = ParseBoardQuery(*board);
    if (!query.ok()) return BadRequest(query.error().message());
    auto matches = FindBoard(store, query.value());
    if (!matches.ok()) return matches.error();
    search.positions = std::move(matches).value();
    const std::string_view pieces = std::string_view(*board).substr(0, board->find(':'));
    if (search.positions->empty() && pieces.find('*') == std::string_view::npos &&
        pieces.find_first_of("pPwWkKrR") != std::string_view::npos) {
      // The most common reason for finding nothing: the board was typed as chess FEN.
      answer->hints.push_back(
          "no board matched. The '*' marks matter: 5DFEN writes unmoved pawns, brawns, kings "
          "and rooks with a '*' (r*nbqk*bnr*/p*p*p*p*p*p*p*p*/...), and a board written "
          "without any only matches boards where all of them have moved");
    }
  }
  return Status();
}

}  // namespace

Status CheckRequest(const Request& request) {
  if (CommandParams(request.command) == nullptr) {
    return BadRequest("unknown command '" + request.command + "'");
  }
  if (Status status = CheckValues(request); !status.ok()) return status;
  return CheckCombinations(request);
}

Result<FindAnswer> RunFind(GameStore& store, const Request& request) {
  if (Status status = CheckRequest(request); !status.ok()) return status;
  FindAnswer answer;
  if (Status status = ReadFilter(request, &answer.search.filter); !status.ok()) return status;
  if (Status status = TacticsHint(store, request, answer.search.filter, &answer.hints);
      !status.ok()) {
    return status;
  }
  answer.mates = answer.search.filter.mate_in_one || answer.search.filter.missed_mate;
  Result<OutputFormat> format = ReadFormat(request);
  if (!format.ok()) return format.error();
  answer.format = format.value();
  answer.canonical = Given(request, "canonical");

  int searches = 0;
  for (const char* name : {"moves", "state", "state-md5", "board"}) {
    searches += Given(request, name);
  }
  // Moves played from a state name one position.
  if (Given(request, "moves") && Given(request, "state")) --searches;
  // A pattern, material or conditions on the state make one position query together.
  searches += Given(request, "pattern") || Given(request, "material") || Given(request, "when") ||
              Given(request, "move");
  if (searches > 1) {
    return BadRequest("give one position: " + Name(request, "moves") + ", " +
                      Name(request, "state") + ", " + Name(request, "state-md5") + ", " +
                      Name(request, "board") + " or a pattern query (" + Name(request, "pattern") +
                      ", " + Name(request, "material") + ", " + Name(request, "when") + ", " +
                      Name(request, "move") + ")");
  }
  if (Status status = FindPositions(store, request, &answer); !status.ok()) return status;

  FindRequest& search = answer.search;
  if (const std::string* text = Value(request, "sort")) {
    const std::optional<SortOrder> order = ParseSortOrder(*text);
    if (!order) {
      return BadRequest(Name(request, "sort") + ": '" + *text +
                        "' is not one of id, white, black, result, date, variant, actions, "
                        "timelines, action (a leading '-' sorts descending)");
    }
    if (order->field == SortOrder::Field::kAction && !search.positions) {
      return BadRequest(Name(request, "sort") + " action needs a position search");
    }
    search.sort = *order;
  }
  search.limit = Number(request, "limit", -1);
  search.offset = Number(request, "offset", 0);

  if (Given(request, "count")) {
    Result<int64_t> count = CountGames(store, search);
    if (!count.ok()) return count.error();
    answer.count = count.value();
    return answer;
  }
  auto games = FindGames(store, search);
  if (!games.ok()) return games.error();
  answer.games = std::move(games).value();
  if (answer.format == OutputFormat::kTable) {
    auto totals = CountTotals(store, search);
    if (!totals.ok()) return totals.error();
    answer.totals = totals.value();
  }
  return answer;
}

Result<TreeAnswer> RunTree(GameStore& store, const Request& request) {
  if (Status status = CheckRequest(request); !status.ok()) return status;
  GameFilter filter;
  if (Status status = ReadFilter(request, &filter); !status.ok()) return status;
  TreeAnswer answer;
  Result<OutputFormat> format = ReadTableOrJson(request);
  if (!format.ok()) return format.error();
  answer.format = format.value();
  Result<Position> root = StateOrStart(request, filter.variant, "tree");
  if (!root.ok()) return root.error();
  const int depth = static_cast<int>(Number(request, "depth", kDefaultDepth));
  auto nodes = BuildTree(store, root.value().StateKey(), filter, depth);
  if (!nodes.ok()) return nodes.error();
  answer.root = std::move(nodes).value();
  answer.limit = static_cast<int>(Number(request, "limit", 0));
  return answer;
}

Result<DuplicatesAnswer> RunDuplicates(GameStore& store, const Request& request) {
  if (Status status = CheckRequest(request); !status.ok()) return status;
  DuplicatesAnswer answer;
  Result<OutputFormat> format = ReadTableOrJson(request);
  if (!format.ok()) return format.error();
  answer.format = format.value();
  DuplicateOptions options;
  options.twin_actions = static_cast<int>(Number(request, "twin-actions", kDefaultTwinActions));
  auto groups = FindDuplicates(store, options);
  if (!groups.ok()) return groups.error();
  answer.groups = std::move(groups).value();
  return answer;
}

Result<std::vector<CustomStart>> RunStarts(GameStore& store, const Request& request) {
  if (Status status = CheckRequest(request); !status.ok()) return status;
  if (Text(request, "format", "json") != "json") {
    return BadRequest("starts writes " + Name(request, "format") + " json");
  }
  auto starts = ListCustomStarts(store);
  if (!starts.ok()) return starts.error();
  return std::move(starts).value();
}

Result<StatsAnswer> RunStats(GameStore& store, const Request& request) {
  if (Status status = CheckRequest(request); !status.ok()) return status;
  GameFilter filter;
  if (Status status = ReadFilter(request, &filter); !status.ok()) return status;
  StatsAnswer answer;
  Result<OutputFormat> format = ReadTableOrJson(request);
  if (!format.ok()) return format.error();
  answer.format = format.value();
  const int top = static_cast<int>(Number(request, "top", kDefaultTop));
  auto stats = ComputeStats(store, filter, top);
  if (!stats.ok()) return stats.error();
  answer.stats = std::move(stats).value();
  return answer;
}

Result<std::string> RunPicture(const Request& request) {
  if (Status status = CheckRequest(request); !status.ok()) return status;
  std::vector<Move> last_action;
  Result<Position> position = NamedPosition(request, "a picture", &last_action);
  if (!position.ok()) return position.error();
  SvgPictureOptions options;
  options.max_columns = static_cast<int>(Number(request, "columns", 0));
  options.coordinates = Given(request, "coordinates");
  options.title = Text(request, "title");
  Result<std::vector<BoardAddress>> marks = ReadMarks(request, position.value());
  if (!marks.ok()) return marks.error();
  options.marked = std::move(marks).value();
  return SvgPicture(position.value(), last_action, options);
}

Result<Json> RunPosition(const Request& request) {
  if (Status status = CheckRequest(request); !status.ok()) return status;
  std::vector<Move> last_action;
  Result<Position> position = NamedPosition(request, "a position", &last_action);
  if (!position.ok()) return position.error();
  const Position& pos = position.value();
  Result<std::vector<BoardAddress>> marks = ReadMarks(request, pos);
  if (!marks.ok()) return marks.error();
  return Json{{"width", pos.width()},
              {"height", pos.height()},
              {"to_move", pos.ToMove() == Color::kWhite ? "white" : "black"},
              {"fen", pos.StateFen()},
              {"picture", PictureJson(pos, last_action, 0, marks.value())}};
}

Result<Json> RunPattern(const Request& request) {
  if (Status status = CheckRequest(request); !status.ok()) return status;
  if (!Given(request, "pattern")) {
    return BadRequest("pattern reads the patterns given as " + Name(request, "pattern") +
                      ", and none was given");
  }
  Result<std::vector<BoardPattern>> patterns = ReadPatterns(request);
  if (!patterns.ok()) return patterns.error();
  Json answer = Json::array();
  for (const BoardPattern& pattern : patterns.value()) {
    answer.push_back(
        {{"pattern", pattern.ToString()}, {"width", pattern.width}, {"height", pattern.height}});
  }
  return answer;
}

}  // namespace fived
