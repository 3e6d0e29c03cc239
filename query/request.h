// The request layer of 5d-query: which search runs for which parameters, and what makes a
// parameter wrong. The command line (query/main.cc) and the server (query/serve.h) both hand it
// plain names and values and get back an answer or a precise error, so that they accept the same
// requests and answer them alike.
//
// Parameters are named as the command line's long options without "--" ("player", "moves",
// "limit"); each has its values in the order given (only "header" may have several). A flag
// ("count", "unique") is given with the value "", "1" or "true"; "0" and "false" leave it off.
// Numbers are decimal integers. A parameter a command does not take is an error, as it would do
// nothing there.
#ifndef FIVED_QUERY_REQUEST_H_
#define FIVED_QUERY_REQUEST_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/position.h"
#include "core/status.h"
#include "query/duplicates.h"
#include "query/find.h"
#include "query/json.h"
#include "query/picture.h"
#include "query/starts.h"
#include "query/stats.h"
#include "query/store.h"
#include "query/tree.h"

namespace fived {

// Defaults of the parameters that have one (the command line's help shows them).
inline constexpr int kDefaultDepth = 1;
inline constexpr int kDefaultTwinActions = 10;
inline constexpr int kDefaultTop = 10;

// How messages name parameters and where they send people to read which go with which command.
struct Spelling {
  std::string_view prefix;  // "--" on the command line, "" in the API
  std::string_view help;
};
inline constexpr Spelling kCommandLineSpelling = {
    "--", "5d-query --help says which options go with which command"};
inline constexpr Spelling kApiSpelling = {"",
                                          "docs/http-api.md lists the parameters of each endpoint"};

struct Request {
  std::string command = "find";  // find, tree, duplicates, show or stats
  std::map<std::string, std::vector<std::string>> params;
  std::vector<std::string> args;  // show's game id
  Spelling spelling = kCommandLineSpelling;
};

// The checks that need no database: the command exists (find, tree, duplicates, show, stats,
// or, for the server, picture, position, pattern and starts: see below), it takes every parameter
// given (with the others given), flags and numbers read and are in range, show has one argument.
// The command line runs it before opening the database, so that a usage error is reported first.
Status CheckRequest(const Request& request);

struct FindAnswer {
  FindRequest search;
  OutputFormat format = OutputFormat::kTable;
  bool canonical = false;
  std::optional<int64_t> count;  // with "count": only this number, and no games
  std::vector<FoundGame> games;
  // With "format" table: what the table's last line says (find.h FindSummary).
  std::optional<FindTotals> totals;
  std::vector<std::string> hints;  // for people: why a search may have found nothing
  bool pattern = false;            // a pattern search: the games carry their matching boards
  bool mates = false;  // a search for mates in one: JSON rows list the games' mates (GameJson)
};
struct TreeAnswer {
  TreeNode root;
  OutputFormat format = OutputFormat::kTable;
  int limit = 0;  // the table's most played actions per position; 0: all
};
struct DuplicatesAnswer {
  std::vector<DuplicateGroup> groups;
  OutputFormat format = OutputFormat::kTable;
};
struct StatsAnswer {
  DatabaseStats stats;
  OutputFormat format = OutputFormat::kTable;
};

// Each command on `store` (CheckRequest included). Not thread-safe, as the store is not. show is
// in query/show.h.
Result<FindAnswer> RunFind(GameStore& store, const Request& request);
Result<TreeAnswer> RunTree(GameStore& store, const Request& request);
Result<DuplicatesAnswer> RunDuplicates(GameStore& store, const Request& request);
Result<StatsAnswer> RunStats(GameStore& store, const Request& request);

// starts (the server's): the starting positions of the custom games (query/starts.h), which
// the explorer offers as it offers variants. Takes no parameter but "format" json.
Result<std::vector<CustomStart>> RunStarts(GameStore& store, const Request& request);

// picture: the position "moves" (played in "variant", default Standard) or "state" (5DFEN
// boards), or "moves" played from "state" names, the start of the variant when it names none, drawn
// as SVG (query/picture.h) with the last "columns" half-turns (0: all); after "moves", the last
// action's moves are drawn as arrows. Each "mark" (repeatable) outlines a board, as show's does;
// "title" is written above the picture. The same position with show's title is the document
// show --svg writes (query/show.h ShowSvg): both are SvgPicture's.
Result<std::string> RunPicture(const Request& request);

// position: the position picture draws, as JSON: {"width", "height" (of its boards), "to_move"
// ("white" or "black"), "fen" (the state as 5DFEN boards, as show's "position" has it)}. What a
// page needs to learn a variant's board size and start, or the boards after a line of moves.
Result<Json> RunPosition(const Request& request);

// pattern: reads each "pattern" (repeatable; at least one) as find does, without searching:
// an array with, per pattern, {"pattern" (written back canonically: core/pattern.h
// BoardPattern::ToString), "width", "height"}; or the error find would give for the first that
// does not read, with its place (core/status.h Place). What a page checks a typed pattern with.
Result<Json> RunPattern(const Request& request);

}  // namespace fived

#endif  // FIVED_QUERY_REQUEST_H_
