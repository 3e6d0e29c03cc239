// The search commands of 5d-query's command line, written; see command.h.
#include "query/command.h"

#include <fstream>

#include "query/puzzles.h"
#include "query/show.h"

namespace fived {

namespace {

Status Failure(std::string message) { return Status(StatusCode::kDatabase, std::move(message)); }

// Writes a command's text, ending it with a line break (the JSON writers leave none).
void Print(std::string text, std::ostream& out) {
  if (!text.empty() && text.back() != '\n') text += '\n';
  out << text;
}

Status Find(GameStore& store, const Request& request, std::ostream& out,
            std::vector<std::string>* notes) {
  auto answer = RunFind(store, request);
  if (!answer.ok()) return answer.error();
  const FindAnswer& found = answer.value();
  notes->insert(notes->end(), found.hints.begin(), found.hints.end());
  if (found.count) {
    out << *found.count << "\n";
    return Status();
  }
  if (Status error =
          WriteGames(store, found.games, found.format, found.search.positions.has_value(),
                     found.canonical, out, found.pattern, found.mates);
      !error.ok()) {
    return Failure(error.message());
  }
  if (found.totals) {
    out << "\n"
        << FindSummary(*found.totals, found.search.filter.originals_only, found.search.offset,
                       found.games.size())
        << "\n";
  }
  return Status();
}

Status Show(GameStore& store, const CommandLine& line, std::ostream& out) {
  auto answer = RunShow(store, line.request);
  if (!answer.ok()) {
    // "no game 999 in games.sqlite": which database, as the messages about the file say.
    if (answer.error().code() == StatusCode::kNotFound) {
      return Status(StatusCode::kNotFound, answer.error().message() + " in " + line.database);
    }
    return answer.error();
  }
  const ShowAnswer& show = answer.value();
  if (show.format == OutputFormat::kPgn) {
    auto text = ShowPgn(store, show);
    if (!text.ok()) return text.error();
    out << text.value();
    return Status();
  }
  if (show.format == OutputFormat::kVmn) {
    out << show.vmn;
    return Status();
  }
  if (show.format == OutputFormat::kJson) {
    auto json = ShowJson(store, show);
    if (!json.ok()) return json.error();
    Print(DumpJson(json.value()), out);
  } else {
    out << ShowText(show);
  }
  if (!line.svg.empty()) {
    std::ofstream file(line.svg, std::ios::binary);
    file << ShowSvg(show);
    file.close();
    if (!file) return Failure("--svg: cannot write " + line.svg);
  }
  return Status();
}

Status Tree(GameStore& store, const Request& request, std::ostream& out) {
  auto answer = RunTree(store, request);
  if (!answer.ok()) return answer.error();
  std::string text;
  if (answer.value().format == OutputFormat::kJson) {
    WriteTreeJson(answer.value().root, &text);
  } else {
    WriteTreeTable(answer.value().root, answer.value().limit, &text);
  }
  Print(std::move(text), out);
  return Status();
}

Status Duplicates(GameStore& store, const CommandLine& line, std::ostream& out,
                  std::vector<std::string>* notes) {
  auto answer = RunDuplicates(store, line.request);
  if (!answer.ok()) return answer.error();
  const std::vector<DuplicateGroup>& groups = answer.value().groups;
  std::string text;
  if (answer.value().format == OutputFormat::kJson) {
    WriteDuplicatesJson(groups, &text);
  } else {
    WriteDuplicatesTable(groups, &text);
  }
  Print(std::move(text), out);
  if (!line.export_unique.empty()) {
    const std::string& path = line.export_unique;
    const std::string cannot_write = "--export-unique: cannot write " + path;
    std::ofstream file(path, std::ios::binary);
    if (!file) return Failure(cannot_write);
    auto written = ExportUnique(store, groups, file);
    if (!written.ok()) return Failure(written.error().message());
    file.close();
    if (!file) return Failure(cannot_write);
    notes->push_back("wrote " + std::to_string(written.value()) + " games to " + path);
  }
  return Status();
}

Status Puzzles(GameStore& store, const Request& request, std::ostream& out,
               std::vector<std::string>* notes) {
  auto answer = RunPuzzles(store, request);
  if (!answer.ok()) return answer.error();
  notes->insert(notes->end(), answer.value().hints.begin(), answer.value().hints.end());
  Print(WritePuzzles(answer.value()), out);
  return Status();
}

Status Stats(GameStore& store, const Request& request, std::ostream& out) {
  auto answer = RunStats(store, request);
  if (!answer.ok()) return answer.error();
  std::string text;
  if (answer.value().format == OutputFormat::kJson) {
    WriteStatsJson(answer.value().stats, &text);
  } else {
    WriteStatsTable(answer.value().stats, &text);
  }
  Print(std::move(text), out);
  return Status();
}

}  // namespace

Status RunCommand(GameStore& store, const CommandLine& line, std::ostream& out,
                  std::vector<std::string>* notes) {
  const std::string& command = line.request.command;
  if (command == "find") return Find(store, line.request, out, notes);
  if (command == "show") return Show(store, line, out);
  if (command == "tree") return Tree(store, line.request, out);
  if (command == "duplicates") return Duplicates(store, line, out, notes);
  if (command == "puzzles") return Puzzles(store, line.request, out, notes);
  return Stats(store, line.request, out);
}

}  // namespace fived
