// 5d-query's options and the reading of its arguments; see command_line.h.
#include "query/command_line.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <charconv>
#include <sstream>

#include "core/variants.h"
#include "schema/db.h"

namespace fived {

namespace po = boost::program_options;

namespace {

constexpr const char* kUsage =
    "Usage: 5d-query [--db FILE] [filters] [position] [output]      find games\n"
    "       5d-query tree [--moves TEXT | --state BOARDS] [--depth N] [filters]\n"
    "       5d-query duplicates [--twin-actions N] [--export-unique FILE]\n"
    "       5d-query show ID [--action N] [--mark L:T:c] [--svg FILE] [--format json|5dpgn|vmn]\n"
    "       5d-query stats [filters]\n"
    "       5d-query puzzles [--only-move] [filters] [--format 5dpgn|json]\n"
    "       5d-query serve [--host 127.0.0.1] [--port 8080] [--cache-mb 64]   the explorer\n"
    "       5d-query --version\n"
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
    "Copies: 5d-index records a game as a copy of an earlier one when it has the same moves\n"
    "and the same players, date and result wherever both games have them. tree and stats\n"
    "leave copies out; find lists them unless --unique, and its table ends with how many of\n"
    "its games are copies. Games that only share their moves are different games: they count\n"
    "everywhere, and duplicates reports them as same-moves.\n"
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
    "  5d-query --missed-mate --format json            mates in one not played (--tactics)\n"
    "  5d-query puzzles --only-move > puzzles.5dpgn    every mate in one with one solution\n"
    "  5d-query tree --depth 2 --white Ada             Ada's repertoire as white\n"
    "  5d-query duplicates --export-unique clean.5dpgn one copy of every game\n"
    "  5d-query show 12 --action 5 --svg game12.svg    a picture after the 5th action\n"
    "  5d-query serve --port 8080                      then open http://127.0.0.1:8080/\n"
    "\n"
    "serve shows the explorer's pages (opening explorer, search, board patterns, games,\n"
    "duplicates, statistics) at the address it prints, and answers GET /api/find, /api/tree,\n"
    "/api/game/ID, /api/duplicates, /api/stats, /api/picture, /api/position and /api/pattern\n"
    "with the JSON of --format json (parameters as the options above, without the dashes;\n"
    "docs/http-api.md lists them); it only reads, and stops on Ctrl-C.\n"
    "\n"
    "Exit status: 0 done (also when nothing matched), 2 bad arguments, 3 the database could\n"
    "not be read (or serve could not listen). The manual: man 5d-query (docs/5d-query.md).\n";

std::string VariantList() {
  std::string out;
  for (const Variant& v : OfficialVariants()) out += "  " + v.name + "\n";
  return out;
}

// The options given (not defaulted) as the request layer's names and values: --db, --svg,
// --export-unique and the command's arguments are the command line's own.
Request ToRequest(const po::variables_map& vm, std::string command, std::vector<std::string> args) {
  Request request;
  request.command = std::move(command);
  request.args = std::move(args);
  for (const auto& [name, value] : vm) {
    if (value.defaulted() || name == "db" || name == "args" || name == "help") continue;
    std::vector<std::string>& values = request.params[name];
    const boost::any& any = value.value();
    if (any.empty()) {
      values.push_back("");  // a flag
    } else if (const auto* text = boost::any_cast<std::string>(&any)) {
      values.push_back(*text);
    } else if (const auto* texts = boost::any_cast<std::vector<std::string>>(&any)) {
      values = *texts;
    } else if (const auto* number = boost::any_cast<int>(&any)) {
      values.push_back(std::to_string(*number));
    } else {
      values.push_back(std::to_string(boost::any_cast<long>(any)));
    }
  }
  return request;
}

Status Usage(std::string message) {
  return Status(StatusCode::kInvalidArgument, std::move(message));
}

// serve's options, checked: it takes --db, --host, --port and --cache-mb only.
Result<ServeCommand> ReadServe(const po::variables_map& vm) {
  for (const auto& [name, value] : vm) {
    if (!value.defaulted() && name != "db" && name != "args" && name != "host" && name != "port" &&
        name != "cache-mb") {
      return Usage("serve does not take --" + name +
                   " (5d-query --help says which options go with which command)");
    }
  }
  ServeCommand serve;
  serve.database = vm["db"].as<std::string>();
  serve.host = vm["host"].as<std::string>();
  serve.port = vm["port"].as<int>();
  if (serve.port < 0 || serve.port > 65535) return Usage("--port must be 0 to 65535");
  serve.cache_mb = vm["cache-mb"].as<int>();
  if (serve.cache_mb < 0 || serve.cache_mb > 65536) return Usage("--cache-mb must be 0 to 65536");
  return serve;
}

}  // namespace

Result<CommandLine> ParseCommandLine(int argc, const char* const* argv) {
  po::options_description general("General");
  general.add_options()("help,h", "print this help")(
      "version", "print the version, the database schema version and the key version")(
      "db", po::value<std::string>()->default_value(kDefaultDatabaseFile),
      "the database to search (made by 5d-index; never created or changed)")(
      "format,f", po::value<std::string>()->default_value("table"),
      "table, json, csv or 5dpgn (find); table, json, 5dpgn or vmn (show); table or json (tree, "
      "duplicates, stats)");
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
      "(repeatable; wildcards allowed)")("min-timelines", po::value<int>()->default_value(0),
                                         "games with at least N timelines")(
      "min-actions", po::value<int>()->default_value(0), "games with at least N actions")(
      "unique",
      "leave out games recorded as copies of an earlier game: the same moves, and the same "
      "players, date and result wherever both games have them; games that only share their "
      "moves are different games and stay")(
      "ending", po::value<std::string>(),
      "games whose final position is a checkmate, stalemate, playable (the side to move has a "
      "legal action) or unknown (5d-index's search ran out of its budget)")(
      "result-conflict",
      "games whose ending contradicts their result: a checkmate of the side the result says "
      "won or drew, a stalemate with a winner, or '*' for a game that is over")(
      "mate-in-one",
      "games with a position where the side to move had a proven mate in one (a database made "
      "with 5d-index --tactics); JSON rows list them")(
      "missed-mate", "games where a mate in one was on the board and the action played missed it");
  po::options_description position("Position (find; --moves and --state also for tree)");
  position.add_options()("moves", po::value<std::string>(),
                         "games that reached the state after this 5dpgn movetext, played in "
                         "--variant: '1. e3 / f6 2. Qe2 / Nc6'; without turn numbers or '/' "
                         "each move is one action, the players in turn: 'e3 f6 Qe2 Nc6'")(
      "state", po::value<std::string>(),
      "games that reached this full state, given as 5DFEN boards '[...:0:1:w][...]'")(
      "state-md5", po::value<std::string>(),
      "games that passed through a state with this specification MD5 (an index lookup) in a "
      "database made with 5d-index --all-state-md5; in another, games whose final state has it "
      "(said on standard error), and with --deep also states inside games (replays the games "
      "passing the filters on every core: slow)")(
      "deep", "with --state-md5: look at every state of every candidate game")(
      "board", po::value<std::string>(),
      "games that had this board: '[pieces]' anywhere, '[pieces:L:T:c]' at those "
      "coordinates; pieces in canonical 5DFEN ('*' on unmoved pawns, kings and rooks)")(
      "pattern", po::value<std::vector<std::string>>(),
      "games that had a board like this one: a 5DFEN board whose squares may be '?' (any), "
      "'!' (any piece), 'A'/'a' (any white/black piece), '[QR]' (one of), '[^p.]' (none of; "
      "'.' is empty), 'K*' (unmoved); numbers are empty squares; ':L:T:c' pins the board "
      "('*' for any; '=', '=+N', '=-N': relative to the previous pattern's board). "
      "Repeatable: every pattern must match some board of the game. docs/patterns.md has "
      "examples")(
      "material", po::value<std::vector<std::string>>(),
      "material across the present's boards ('present: Q>=2, q=0', the default) or on one "
      "board ('board: Q>q'): a piece, '!', 'A', 'a' or a set compared with a number or "
      "another count (repeatable)")(
      "when", po::value<std::string>(),
      "conditions on the state: 'timelines>=4, active>=3, turn>=10, to-move=b, check=b, "
      "checks>=2' (check: the side in check; checks: on how many boards; both replay the games "
      "the rest selects); with "
      "--pattern and --material, the first action after which all of them held")(
      "move", po::value<std::vector<std::string>>(),
      "a move played: 'N branch capture actions=10-20' (a piece letter, upper case white; "
      "physical, jump, branch or travel; capture; check; a range of actions); repeatable");
  po::options_description output("Output (find; --limit also for tree)");
  output.add_options()("count", "print only the number of matching games")(
      "limit", po::value<long>(),
      "at most N games (tree: the N most played actions of each position, the others summed "
      "up); default all")("offset", po::value<long>()->default_value(0), "skip the first N games")(
      "sort", po::value<std::string>(),
      "id, white, black, result, date, variant, actions, timelines or action (position "
      "searches); '-date' sorts descending")(
      "canonical", "with --format 5dpgn: headers and canonical moves instead of the original text");
  po::options_description commands("Commands");
  commands.add_options()("depth", po::value<int>()->default_value(kDefaultDepth),
                         "tree: expand N actions deep")(
      "twin-actions", po::value<int>()->default_value(kDefaultTwinActions),
      "duplicates: twins share players, date and this many first actions")(
      "export-unique", po::value<std::string>(),
      "duplicates: write every game once (the most complete copy) to FILE")(
      "action", po::value<int>(), "show: the position after action N (default: the end)")(
      "svg", po::value<std::string>(), "show: also write the picture as SVG to FILE")(
      "columns", po::value<int>()->default_value(0),
      "show: draw only the last N half-turns (0: all)")(
      "unicode", "show: chess symbols instead of letters in the terminal picture")(
      "coordinates", "show: file and rank labels on the boards of the SVG picture")(
      "mark", po::value<std::vector<std::string>>(),
      "show: point out the board L:T:c in the pictures ('+1:5:b', as --pattern's answers name "
      "boards; repeatable)")("only-move",
                             "puzzles: only the positions with exactly one mating action")(
      "top", po::value<int>()->default_value(kDefaultTop), "stats: how many top players");
  po::options_description serve("Server (serve)");
  serve.add_options()("host", po::value<std::string>()->default_value("127.0.0.1"),
                      "the address to listen on (another than 127.0.0.1 lets other machines in)")(
      "port", po::value<int>()->default_value(8080), "the port to listen on (0: any free port)")(
      "cache-mb", po::value<int>()->default_value(64),
      "keep up to N MiB of answers for requests asked again (0: none); they are dropped as "
      "soon as 5d-index adds to the database");
  po::options_description hidden;
  hidden.add_options()("args", po::value<std::vector<std::string>>(), "command and arguments");
  po::options_description all;
  all.add(general).add(filters).add(position).add(output).add(commands).add(serve).add(hidden);
  po::options_description visible;
  visible.add(general).add(filters).add(position).add(output).add(commands).add(serve);
  po::positional_options_description positional;
  positional.add("args", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return Usage(std::string(e.what()) + " (5d-query --help lists the options)");
  }
  CommandLine line;
  if (vm.count("help")) {
    std::ostringstream help;
    help << kUsage << "\n" << visible << "\nOfficial variants:\n" << VariantList();
    line.action = CommandLine::Action::kHelp;
    line.help = help.str();
    return line;
  }
  if (vm.count("version")) {
    line.action = CommandLine::Action::kVersion;
    return line;
  }
  std::vector<std::string> args;
  if (vm.count("args")) args = vm["args"].as<std::vector<std::string>>();
  std::string command = "find";
  if (!args.empty()) {
    command = args.front();
    args.erase(args.begin());
  }
  static const std::vector<std::string> kCommands = {"find",  "tree",  "duplicates", "show",
                                                     "stats", "serve", "puzzles"};
  if (std::find(kCommands.begin(), kCommands.end(), command) == kCommands.end()) {
    return Usage("unknown command '" + command +
                 "' (commands: find, tree, duplicates, show, stats, serve, puzzles)");
  }
  if (command != "show" && !args.empty()) {
    return Usage("unexpected argument '" + args.front() + "'");
  }
  if (command == "serve") {
    Result<ServeCommand> serve = ReadServe(vm);
    if (!serve.ok()) return serve.error();
    line.action = CommandLine::Action::kServe;
    line.serve = std::move(serve.value());
    return line;
  }
  line.action = CommandLine::Action::kSearch;
  line.database = vm["db"].as<std::string>();
  if (vm.count("svg")) line.svg = vm["svg"].as<std::string>();
  if (vm.count("export-unique")) line.export_unique = vm["export-unique"].as<std::string>();
  line.request = ToRequest(vm, command, std::move(args));
  if (Status status = CheckRequest(line.request); !status.ok()) return status;
  return line;
}

std::vector<std::string> ServeArguments(const ServeCommand& serve) {
  return {"5d-query-serve",
          "--db",
          serve.database,
          "--host",
          serve.host,
          "--port",
          std::to_string(serve.port),
          "--cache-mb",
          std::to_string(serve.cache_mb)};
}

Result<ServeCommand> ParseServeArguments(int argc, const char* const* argv) {
  ServeCommand serve;
  serve.database = kDefaultDatabaseFile;
  std::vector<std::string_view> seen;
  for (int i = 1; i < argc; i += 2) {
    const std::string_view name = argv[i];
    if (i + 1 >= argc) return Usage(std::string(name) + " needs a value");
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      return Usage(std::string(name) + " is given twice");
    }
    seen.push_back(name);
    const std::string value = argv[i + 1];
    int* number = name == "--port" ? &serve.port : name == "--cache-mb" ? &serve.cache_mb : nullptr;
    if (name == "--db") {
      serve.database = value;
    } else if (name == "--host") {
      serve.host = value;
    } else if (number != nullptr) {
      const char* end = value.data() + value.size();
      if (std::from_chars(value.data(), end, *number).ptr != end || value.empty()) {
        return Usage(std::string(name) + ": '" + value + "' is not a number");
      }
    } else {
      return Usage("unknown argument '" + std::string(name) +
                   "' (takes --db FILE --host ADDRESS --port N --cache-mb N)");
    }
  }
  if (serve.port < 0 || serve.port > 65535) return Usage("--port must be 0 to 65535");
  if (serve.cache_mb < 0 || serve.cache_mb > 65536) return Usage("--cache-mb must be 0 to 65536");
  return serve;
}

}  // namespace fived
