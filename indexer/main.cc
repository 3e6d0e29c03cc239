// 5d-index: reads 5dpgn collections into an SQLite game database, or only checks them.
#include <boost/program_options.hpp>
#include <iostream>

#include "core/keys.h"
#include "core/utf8.h"
#include "generated/version.h"
#include "indexer/check.h"
#include "indexer/index.h"
#include "indexer/merge.h"
#include "indexer/report.h"
#include "indexer/verify.h"
#include "schema/db.h"

namespace po = boost::program_options;

namespace {

constexpr const char* kUsage =
    "Usage: 5d-index [--db FILE] [--jobs N] [--quiet] [--json] [--commit-every N]\n"
    "                [--verdict-budget N | --skip-endings] [--all-state-md5]\n"
    "                [--tactics [--tactics-budget N]] PATH...\n"
    "       5d-index --check [--hashes | --fen] PATH...\n"
    "       5d-index --check --verdict [--verdict-budget N] PATH...\n"
    "       5d-index --check --count-actions [--at-action K] [--cap N]\n"
    "                [--verdict-budget N] PATH...\n"
    "       5d-index --check --list-actions [--at-action K] [--cap N] PATH...\n"
    "       5d-index merge [--json] OUT IN...\n"
    "       5d-index verify DB\n"
    "       5d-index --version\n"
    "\n"
    "Reads 5dpgn collections: files, directories (searched recursively for *.5dpgn, *.pgn,\n"
    "*.txt, compressed files and zip and tar archives) or '-' for standard input. Files are\n"
    "read by their content: gzip, xz, bzip2 and zstd are decompressed, archives read member\n"
    "by member (members packed again too, four levels in all), UTF-16 text as UTF-8. Every\n"
    "game is replayed and validated; the games are stored with their headers, moves and\n"
    "position keys in an SQLite database, and the games that cannot be replayed are stored in\n"
    "its rejected table with the reason. Each game's final position is decided for the side\n"
    "to move: checkmate, stalemate, playable (with one legal action) or unknown (the search\n"
    "tried --verdict-budget moves without settling it; checkmate and stalemate are only ever\n"
    "reported when proved). The verdict, the side in check and whether the verdict\n"
    "contradicts the game's result are stored with the game, and the summary counts them.\n"
    "Indexing the same file again adds nothing; new files are appended. A game from standard\n"
    "input is already indexed when the database held the same text before this run, from any\n"
    "source (copies within one run are stored, as from a file). When every input fails to be\n"
    "read, no new database is left behind.\n"
    "\n"
    "Examples:\n"
    "  5d-index --db games.sqlite archive/           index a directory\n"
    "  5d-index --db games.sqlite --json new.5dpgn   append a file, print a JSON summary\n"
    "  cat a.5dpgn | 5d-index --db games.sqlite -    index standard input\n"
    "  5d-index --check --hashes game.5dpgn          replay only, print every state's MD5\n"
    "  5d-index merge all.sqlite a.sqlite b.sqlite   merge shards indexed apart\n"
    "\n"
    "Exit status: 0 every game indexed, 1 some games rejected (they are recorded), 2 usage\n"
    "error, 3 an input could not be read or the database failed (verify: 0 sound, 1 damaged,\n"
    "3 unreadable). The manual: man 5d-index\n"
    "(docs/5d-index.md).\n"
    "\n"
    "Options";

// 5d-index merge OUT IN...
int Merge(int argc, char** argv) {
  if (argc < 4 || std::string_view(argv[2]).starts_with("-")) {
    std::cerr << "Usage: 5d-index merge [--json] OUT IN...\n"
                 "Merges databases indexed separately (in shards, on one machine or several) into "
                 "OUT,\nas if their inputs had been indexed together in the order given.\n";
    return argc >= 2 && argc == 3 && std::string_view(argv[2]) == "--help" ? fived::kExitOk
                                                                           : fived::kExitUsage;
  }
  fived::MergeOptions options;
  int first = 2;
  const bool json = std::string_view(argv[2]) == "--json";
  if (json) ++first;
  if (argc - first < 2) {
    std::cerr << "Usage: 5d-index merge [--json] OUT IN...\n";
    return fived::kExitUsage;
  }
  options.output = argv[first];
  for (int i = first + 1; i < argc; ++i) options.inputs.push_back(argv[i]);
  const fived::MergeResult result = fived::RunMerge(options);
  return fived::Emit(fived::ReportMerge(result, options, json), std::cout, std::cerr);
}

// 5d-index verify DB: 0 sound, 1 damaged, 3 unreadable.
int Verify(int argc, char** argv) {
  if (argc != 3 || std::string_view(argv[2]).starts_with("-")) {
    std::cerr << "Usage: 5d-index verify DB\n"
                 "Checks that a database is sound: SQLite's integrity check, every game's checksum "
                 "and\nrecord, and its postings, pattern index and statistics against a replay of "
                 "its record.\nExit status: 0 sound, 1 damaged, 3 unreadable.\n";
    return argc == 3 && std::string_view(argv[2]) == "--help" ? fived::kExitOk : fived::kExitUsage;
  }
  const std::string path = argv[2];
  const fived::VerifyReport report = fived::VerifyDatabase(path);
  const std::string name = fived::EscapeForTerminal(path);
  if (report.verdict == fived::VerifyReport::Verdict::kUnreadable) {
    std::cerr << "5d-index: " << fived::EscapeForTerminal(report.error) << "\n";
    return fived::kExitFailed;
  }
  if (report.verdict == fived::VerifyReport::Verdict::kSound) {
    std::cout << name << ": sound: " << report.games << " games and " << report.rejected
              << " rejections; the integrity check, every game's checksum and record, its "
                 "postings, pattern index and statistics agree\n";
    return fived::kExitOk;
  }
  for (const std::string& problem : report.problems) {
    std::cout << name << ": " << fived::EscapeForTerminal(problem) << "\n";
  }
  const long problems = static_cast<long>(report.problems.size()) + report.more_problems;
  std::cout << name << ": damaged: " << problems << (problems == 1 ? " problem" : " problems");
  if (report.more_problems > 0) std::cout << " (" << report.more_problems << " not listed)";
  if (!report.damaged_games.empty()) {
    std::cout << "; " << report.damaged_games.size()
              << (report.damaged_games.size() == 1 ? " game" : " games") << " damaged:";
    for (size_t i = 0; i < report.damaged_games.size() && i < 20; ++i) {
      std::cout << (i ? ", " : " ") << report.damaged_games[i];
    }
    if (report.damaged_games.size() > 20) std::cout << ", ...";
  }
  std::cout << "\n";
  return fived::kExitRejected;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "merge") return Merge(argc, argv);
  if (argc >= 2 && std::string_view(argv[1]) == "verify") return Verify(argc, argv);
  po::options_description visible(kUsage);
  visible.add_options()("help,h", "print this help")(
      "version", "print the version, the database schema version and the key version")(
      "db", po::value<std::string>()->default_value(fived::kDefaultDatabase),
      "the database file (created when missing)")(
      "jobs,j", po::value<int>()->default_value(0),
      "worker threads that parse and replay games (0: one per core)")(
      "quiet,q", "no progress line on standard error")(
      "json", "print the summary as one JSON object on standard output")(
      "commit-every", po::value<long>()->default_value(0),
      "commit at least every N games (0: every ~3 million keys); a crash loses at most the "
      "games since the last commit, and rerunning the same command adds them")(
      "check", "replay and validate every game and print a summary; no database")(
      "hashes",
      "with --check: print FILE<TAB>GAME<TAB>ACTION<TAB>MD5 for every state (action 0 is the "
      "start), FILE<TAB>GAME<TAB>error<TAB>message for a rejected game")(
      "fen", "with --check: print FILE<TAB>GAME<TAB>fen<TAB>[...][...] for every final state")(
      "verdict",
      "with --check: print FILE<TAB>GAME<TAB>verdict<TAB>V<TAB>WITNESS for every final state: V "
      "is checkmate, stalemate, playable (WITNESS is one legal action) or unknown (the search "
      "ran out of budget)")(
      "verdict-budget", po::value<uint64_t>(),
      "moves tried per final position before its verdict is unknown (unknown claims nothing: "
      "mate and stalemate are only reported when proved): default 20000 when indexing, "
      "1000000 with --verdict (also bounds --count-actions)")(
      "skip-endings",
      "when indexing: do not decide how the games end (faster; their endings are stored as "
      "undecided and --ending finds none of them)")(
      "all-state-md5",
      "when indexing into a new database: index the specification MD5 of every state of every "
      "game, so that 5d-query --state-md5 finds games that passed through a state (without it "
      "only final states are; the database keeps its choice)")(
      "tactics",
      "when indexing into a new database: search every position of every game for mates in one "
      "(found, missed and allowed mates; 5d-query --mate-in-one, --missed-mate, puzzles); the "
      "database keeps its choice")(
      "tactics-budget", po::value<uint64_t>(),
      "with tactics (--tactics, or a database made with it): moves tried per position (by the "
      "legal search and by each decision after "
      "a checking action) before it is unknown (default 2000)")(
      "count-actions",
      "with --check: print FILE<TAB>GAME<TAB>ACTION<TAB>COUNT, the legal actions of the side to "
      "move after every action (0 is the start); >=N when the count stopped at the cap or budget")(
      "list-actions",
      "with --check: print FILE<TAB>GAME<TAB>ACTION<TAB>action<TAB>MOVES for each legal action "
      "of the side to move after action K (--at-action; default the final position), its moves "
      "in canonical 5dpgn, sorted, then FILE<TAB>GAME<TAB>ACTION<TAB>count<TAB>N")(
      "at-action", po::value<int>(),
      "with --list-actions and --count-actions: the position after action K (0 is the start)")(
      "cap", po::value<uint64_t>()->default_value(100000),
      "with --count-actions and --list-actions: stop at N actions of a position");
  po::options_description hidden;
  hidden.add_options()("input", po::value<std::vector<std::string>>(), "input files");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("input", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    // The message quotes the command line.
    std::cerr << "5d-index: " << fived::EscapeForTerminal(e.what()) << "\n" << visible;
    return fived::kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << visible;
    return fived::kExitOk;
  }
  if (vm.count("version")) {
    std::cout << "5d-index " << fived::kVersion << " (schema version " << fived::kSchemaVersion
              << ", key version " << fived::kKeyVersion << ")\n";
    return fived::kExitOk;
  }
  if (!vm.count("input")) {
    std::cerr << "5d-index: no input files (use - for standard input)\n";
    return fived::kExitUsage;
  }
  const std::vector<std::string> inputs = vm["input"].as<std::vector<std::string>>();
  std::ios::sync_with_stdio(false);

  const int outputs = static_cast<int>(vm.count("hashes") + vm.count("fen") + vm.count("verdict") +
                                       vm.count("count-actions") + vm.count("list-actions"));
  if (vm.count("check")) {
    for (const char* option : {"skip-endings", "all-state-md5", "tactics", "tactics-budget"}) {
      if (vm.count(option)) {
        std::cerr << "5d-index: --" << option << " goes with indexing, not --check\n";
        return fived::kExitUsage;
      }
    }
    if (outputs > 1) {
      std::cerr << "5d-index: --hashes, --fen, --verdict, --count-actions and --list-actions "
                   "exclude each other\n";
      return fived::kExitUsage;
    }
    if (vm.count("at-action") && !vm.count("list-actions") && !vm.count("count-actions")) {
      std::cerr << "5d-index: --at-action goes with --count-actions or --list-actions\n";
      return fived::kExitUsage;
    }
    fived::CheckOptions options;
    if (vm.count("hashes")) options.output = fived::CheckOptions::Output::kHashes;
    if (vm.count("fen")) options.output = fived::CheckOptions::Output::kFen;
    if (vm.count("verdict")) options.output = fived::CheckOptions::Output::kVerdict;
    if (vm.count("count-actions")) options.output = fived::CheckOptions::Output::kCountActions;
    if (vm.count("list-actions")) options.output = fived::CheckOptions::Output::kListActions;
    if (vm.count("at-action")) {
      options.at_action = vm["at-action"].as<int>();
      if (options.at_action < 0) {
        std::cerr << "5d-index: --at-action must be 0 or more\n";
        return fived::kExitUsage;
      }
    }
    if (vm.count("verdict-budget")) options.verdict_budget = vm["verdict-budget"].as<uint64_t>();
    options.count_cap = vm["cap"].as<uint64_t>();
    if (options.verdict_budget == 0 || options.count_cap == 0) {
      std::cerr << "5d-index: --verdict-budget and --cap must be 1 or more\n";
      return fived::kExitUsage;
    }
    const fived::CheckSummary summary = fived::CheckFiles(inputs, options, std::cout, std::cerr);
    std::cout.flush();
    return summary.rejected > 0 || summary.unreadable_files > 0 ? fived::kExitRejected
                                                                : fived::kExitOk;
  }
  if (outputs > 0) {
    std::cerr << "5d-index: --hashes, --fen, --verdict, --count-actions and --list-actions go "
                 "with --check\n";
    return fived::kExitUsage;
  }
  fived::IndexOptions options;
  options.database = vm["db"].as<std::string>();
  options.inputs = inputs;
  options.jobs = vm["jobs"].as<int>();
  if (options.jobs < 0) {
    std::cerr << "5d-index: --jobs must be 0 or more\n";
    return fived::kExitUsage;
  }
  options.commit_every = vm["commit-every"].as<long>();
  if (options.commit_every < 0) {
    std::cerr << "5d-index: --commit-every must be 0 or more\n";
    return fived::kExitUsage;
  }
  if (vm.count("verdict-budget")) options.verdict_budget = vm["verdict-budget"].as<uint64_t>();
  if (options.verdict_budget == 0) {
    std::cerr << "5d-index: --verdict-budget must be 1 or more\n";
    return fived::kExitUsage;
  }
  if (vm.count("skip-endings")) {
    if (vm.count("verdict-budget")) {
      std::cerr << "5d-index: --skip-endings and --verdict-budget exclude each other\n";
      return fived::kExitUsage;
    }
    options.verdict_budget = 0;  // IndexOptions: decide nothing
  }
  options.all_state_md5 = vm.count("all-state-md5") > 0;
  options.tactics = vm.count("tactics") > 0;
  if (vm.count("tactics-budget")) {
    options.tactics_budget = vm["tactics-budget"].as<uint64_t>();
    if (options.tactics_budget == 0) {
      std::cerr << "5d-index: --tactics-budget must be 1 or more\n";
      return fived::kExitUsage;
    }
  }
  const bool json = vm.count("json") > 0;
  if (!vm["db"].defaulted() || json) {
    // The database is named by the user or the summary says it.
  } else {
    std::cerr << "5d-index: writing to " << options.database << " in the current directory\n";
  }
  fived::IndexMessages messages(std::cerr, !vm.count("quiet"));
  const fived::IndexResult result = fived::RunIndex(options, &messages);
  messages.Finish();
  const int status =
      fived::Emit(fived::ReportIndex(result, options.database, json), std::cout, std::cerr);
  std::cout.flush();
  return status;
}
