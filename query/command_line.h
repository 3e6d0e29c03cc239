// 5d-query's command line: its options (the table --help prints), the command they name and the
// request they make for the request layer (query/request.h). 5d-query's main() reads its
// arguments with ParseCommandLine, then runs what it says (query/command.h for the searches,
// the program 5d-query-serve for serve); nothing here prints, opens or runs anything.
#ifndef FIVED_QUERY_COMMAND_LINE_H_
#define FIVED_QUERY_COMMAND_LINE_H_

#include <string>
#include <vector>

#include "query/request.h"

namespace fived {

// 5d-query's exit statuses, the same for both its programs (5d-query and 5d-query-serve): done,
// a bad command line or request, the database (or the server's port) failed.
inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitDatabase = 3;

// serve's options, checked: what 5d-query-serve is run with (ServeArguments).
struct ServeCommand {
  std::string database;
  std::string host = "127.0.0.1";
  int port = 8080;    // 0 to 65535 (0: any free port)
  int cache_mb = 64;  // 0 to 65536
};

struct CommandLine {
  enum class Action {
    kHelp,     // print `help`
    kVersion,  // print the version
    kSearch,   // run `request` (find, tree, duplicates, show or stats) on `database`
    kServe,    // serve `serve.database` (5d-query-serve)
  };
  Action action = Action::kSearch;
  std::string help;      // kHelp: the text to print, its last line ended
  std::string database;  // --db (kSearch)
  // kSearch: the command and the options given (not defaulted) as the request layer's names and
  // values; --db, --svg and --export-unique are the command line's own, below. CheckRequest has
  // passed on it.
  Request request;
  std::string svg;            // show --svg FILE; empty when not given
  std::string export_unique;  // duplicates --export-unique FILE; empty when not given
  ServeCommand serve;         // kServe
};

// Reads 5d-query's arguments (argv[0] is the program's name). Fails with kInvalidArgument (exit
// status 2) whose message is what 5d-query says after "5d-query: " (an
// option that does not parse, an unknown command, an argument too many, an option the command
// does not take, a value out of range); the message may quote what was typed, unescaped.
Result<CommandLine> ParseCommandLine(int argc, const char* const* argv);

// The arguments 5d-query-serve takes for `serve`, its name first ("5d-query-serve", "--db", ...);
// ParseServeArguments reads them back.
std::vector<std::string> ServeArguments(const ServeCommand& serve);
// 5d-query-serve's arguments (argv[0] is the program's name): exactly those ServeArguments
// makes, in any order, each at most once (those missing keep their defaults). Fails with
// kInvalidArgument saying which argument is wrong.
Result<ServeCommand> ParseServeArguments(int argc, const char* const* argv);

}  // namespace fived

#endif  // FIVED_QUERY_COMMAND_LINE_H_
