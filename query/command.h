// The search commands of 5d-query's command line (find, tree, duplicates, show, stats), run on a
// store and written as the command line writes them: the answer on one stream, the files --svg
// and --export-unique ask for, and the notes for people that 5d-query says on standard error.
// The request layer (query/request.h) decides what each answers; this says how it is written.
#ifndef FIVED_QUERY_COMMAND_H_
#define FIVED_QUERY_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include "query/command_line.h"
#include "query/request.h"
#include "query/store.h"

namespace fived {

// Runs `line.request` on `store` and writes its answer to `out`: find's games (or their number)
// and its table's summary line, tree's, duplicates' and stats' tables or JSON, show's game; then
// show's picture to `line.svg` and duplicates' games once each to `line.export_unique` when
// given. `notes` gets, one a line without "5d-query: ", find's hints (why a search may have
// found nothing) and what --export-unique wrote. Fails as the request layer does, a file that
// cannot be written with kDatabase ("--svg: cannot write PATH"); what was written to `out` before
// a failure stays written. Success is an ok Status.
Status RunCommand(GameStore& store, const CommandLine& line, std::ostream& out,
                  std::vector<std::string>* notes);

}  // namespace fived

#endif  // FIVED_QUERY_COMMAND_H_
