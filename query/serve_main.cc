// 5d-query-serve: the server of `5d-query serve` (the explorer's pages and the JSON API of
// query/serve.h), a program of its own so that 5d-query's searches do not load cpp-httplib,
// OpenSSL, brotli and zlib at start. 5d-query checks serve's options and runs it in its own
// place as `5d-query-serve --db FILE --host ADDRESS --port N --cache-mb N` (query/command_line.h
// ServeArguments), so it speaks as 5d-query: its messages start "5d-query: " and its exit status
// is 5d-query's (0 stopped by Ctrl-C or SIGTERM, 2 bad arguments, 3 the database could not be
// read or the server could not listen).
#include <pthread.h>
#include <signal.h>

#include <iostream>
#include <thread>

#include "core/utf8.h"
#include "query/command_line.h"
#include "query/serve.h"
#include "query/store.h"

namespace {

using fived::kExitDatabase;
using fived::kExitOk;
using fived::kExitUsage;

int Fail(int status, std::string_view message) {
  std::cerr << "5d-query: " << fived::EscapeLinesForTerminal(message) << "\n";
  return status;
}

}  // namespace

// Answers the API until SIGINT or SIGTERM, then finishes the requests under way.
int main(int argc, char** argv) {
  fived::Result<fived::ServeCommand> parsed = fived::ParseServeArguments(argc, argv);
  if (!parsed.ok()) return Fail(kExitUsage, parsed.error().message());
  fived::ServeOptions options;
  options.database = parsed.value().database;
  options.host = parsed.value().host;
  options.port = parsed.value().port;
  options.cache_bytes = static_cast<size_t>(parsed.value().cache_mb) << 20;
  // A missing or foreign database is said at once, not at the first request.
  auto store = fived::GameStore::Open(options.database);
  if (!store.ok()) return Fail(kExitDatabase, store.error().message());

  // One thread takes SIGINT and SIGTERM (blocked in every other thread, which inherit the mask)
  // and stops the server, which then finishes the requests it is answering.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  fived::Server server(options);
  const fived::Result<int> bound = server.Bind();
  if (!bound.ok()) return Fail(kExitDatabase, bound.error().message());
  std::cout << "5d-query: serving " << fived::EscapeForTerminal(options.database) << " at http://"
            << options.host << ":" << bound.value() << "/ (Ctrl-C stops)" << std::endl;
  std::thread stopper([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    server.Stop();
  });
  const bool served = server.Listen();
  // When Listen failed no signal came: wake the stopper so that it can be joined.
  pthread_kill(stopper.native_handle(), SIGTERM);
  stopper.join();
  return served ? kExitOk : Fail(kExitDatabase, "the server stopped with an error");
}
