// Reading a request's parameters (query/request.h): the helpers the request layer's files share
// (request.cc, and show.cc for the show command). Internal to query/: the tools and the server
// go through request.h and show.h.
#ifndef FIVED_QUERY_REQUEST_PARAMS_H_
#define FIVED_QUERY_REQUEST_PARAMS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"
#include "query/request.h"
#include "schema/sqlite.h"

namespace fived {

// A wrong parameter (kInvalidArgument).
Status BadRequest(std::string message);

// A parameter as messages name it: "--limit" on the command line, "limit" in the API.
std::string Name(const Request& request, std::string_view name);
// Whether a parameter is given (a flag: given and on). CheckRequest has read the flags' values.
bool Given(const Request& request, std::string_view name);
// The first value of a parameter, or `fallback` when it is not given.
std::string Text(const Request& request, std::string_view name, std::string fallback = "");
// A decimal integer, whole text; nullopt when it is not one or does not fit.
std::optional<int64_t> ParseInteger(std::string_view text);
// A number CheckRequest has read (so it parses), or `fallback` when it is not given.
int64_t Number(const Request& request, std::string_view name, int64_t fallback);
// The boards "mark" names (repeatable; "L:T:c" as show's in request.h), in `position`'s
// numbering of timelines; a kInvalidArgument error naming the first that does not read.
Result<std::vector<BoardAddress>> ReadMarks(const Request& request, const Position& position);
// The filters of find, tree, stats and puzzles, read into *filter; a kInvalidArgument error
// naming the first that does not read.
Status ReadFilter(const Request& request, GameFilter* filter);
// When the request searches for mates in one (filter.mate_in_one or missed_mate, or the puzzles
// command) and the database was made without 5d-index --tactics, a hint saying so is added to
// *hints. Fails only when the database cannot be read.
Status TacticsHint(GameStore& store, const Request& request, const GameFilter& filter,
                   std::vector<std::string>* hints);

}  // namespace fived

#endif  // FIVED_QUERY_REQUEST_PARAMS_H_
