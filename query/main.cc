// 5d-query: searches a 5dpgn-db database made by 5d-index. A thin dispatch: the command line is
// read by query/command_line.h, the searches run and are written by query/command.h, and serve
// is the program 5d-query-serve (query/serve_main.cc), run in this process's place so that the
// searches do not load the server's libraries at start. This file prints the messages and picks
// the exit status.
#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "core/keys.h"
#include "core/utf8.h"
#include "generated/version.h"
#include "query/command.h"
#include "query/command_line.h"
#include "query/store.h"
#include "schema/db.h"

namespace {

using fived::kExitDatabase;
using fived::kExitOk;
using fived::kExitUsage;

// Reports a failure on stderr and returns `status`.
int Fail(int status, std::string_view message) {
  std::cerr << "5d-query: " << fived::EscapeLinesForTerminal(message) << "\n";
  return status;
}
int Fail(const fived::Status& error) {
  return Fail(error.code() == fived::StatusCode::kDatabase ? kExitDatabase : kExitUsage,
              error.message());
}

// The directory of this program's file, with its final '/' ("" when it cannot be read).
std::string ProgramDirectory() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length <= 0) return "";
  const std::string file(path, static_cast<size_t>(length));
  return file.substr(0, file.rfind('/') + 1);
}

// serve: runs 5d-query-serve, installed beside this program, in this process's place (the same
// process id, standard streams and signals); returns only when it could not be run.
int Serve(const fived::ServeCommand& serve) {
  const std::string program = ProgramDirectory() + "5d-query-serve";
  const std::vector<std::string> arguments = fived::ServeArguments(serve);
  std::vector<char*> argv;
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  execv(program.c_str(), argv.data());
  return Fail(kExitDatabase, "serve: cannot run " + program + ": " + std::strerror(errno));
}

}  // namespace

int main(int argc, char** argv) {
  fived::Result<fived::CommandLine> parsed = fived::ParseCommandLine(argc, argv);
  if (!parsed.ok()) return Fail(parsed.error());
  const fived::CommandLine& line = parsed.value();
  switch (line.action) {
    case fived::CommandLine::Action::kHelp:
      std::cout << line.help;
      return kExitOk;
    case fived::CommandLine::Action::kVersion:
      std::cout << "5d-query " << fived::kVersion << " (schema version " << fived::kSchemaVersion
                << ", key version " << fived::kKeyVersion << ")\n";
      return kExitOk;
    case fived::CommandLine::Action::kServe:
      return Serve(line.serve);
    case fived::CommandLine::Action::kSearch:
      break;
  }
  std::ios::sync_with_stdio(false);
  auto store = fived::GameStore::Open(line.database);
  if (!store.ok()) return Fail(kExitDatabase, store.error().message());
  std::vector<std::string> notes;
  const fived::Status status = fived::RunCommand(store.value(), line, std::cout, &notes);
  // The notes go out as they are (hints quote the database's own words).
  for (const std::string& note : notes) std::cerr << "5d-query: " << note << "\n";
  std::cout.flush();
  return status.ok() ? kExitOk : Fail(status);
}
