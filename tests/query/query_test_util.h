// Helpers shared by the query tests: databases written by the real 5d-index binary
// (FIVED_INDEX_BINARY), so that the queries are tested on what users will have.
#ifndef FIVED_TESTS_QUERY_QUERY_TEST_UTIL_H_
#define FIVED_TESTS_QUERY_QUERY_TEST_UTIL_H_

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "query/store.h"
#include "tests/temp_dir.h"

namespace fived::testing {

// Runs 5d-index --quiet --jobs 1 on `inputs` into `database`, with `options` added, its output
// discarded. Returns its exit status (0 all indexed, 1 some rejected), or -1 when it did not exit
// normally.
inline int RunIndexer(const std::string& database, const std::vector<std::string>& inputs,
                      const std::vector<std::string>& options = {}) {
  std::vector<std::string> args = {"5d-index", "--quiet", "--jobs", "1", "--db", database};
  args.insert(args.end(), options.begin(), options.end());
  args.insert(args.end(), inputs.begin(), inputs.end());
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    execv(FIVED_INDEX_BINARY, argv.data());
    _exit(127);
  }
  int wait_status = 0;
  waitpid(pid, &wait_status, 0);
  return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
}

// Writes `collection` to DIR/games.5dpgn, indexes it into DIR/games.sqlite and opens that. The
// exit status of 5d-index goes to *status when given; otherwise anything but 0 or 1 fails the
// test.
inline GameStore IndexCollection(const TempDir& dir, const std::string& collection,
                                 int* status = nullptr) {
  const std::string input = dir.File("games.5dpgn");
  const std::string database = dir.File("games.sqlite");
  std::ofstream(input, std::ios::binary) << collection;
  const int exit_status = RunIndexer(database, {input});
  if (status != nullptr) {
    *status = exit_status;
  } else {
    EXPECT_TRUE(exit_status == 0 || exit_status == 1) << "5d-index exited with " << exit_status;
  }
  Result<GameStore> store = GameStore::Open(database);
  EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error().message());
  return std::move(store).value();
}

// Indexes `inputs` into `database` with `options` (failing the test unless every game is indexed)
// and opens it: a suite's store, which the suite deletes. nullptr when that failed.
inline GameStore* NewIndexedStore(const std::string& database,
                                  const std::vector<std::string>& inputs,
                                  const std::vector<std::string>& options = {}) {
  EXPECT_EQ(RunIndexer(database, inputs, options), 0);
  Result<GameStore> store = GameStore::Open(database);
  EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error().message());
  return store.ok() ? new GameStore(std::move(store).value()) : nullptr;
}

}  // namespace fived::testing

#endif  // FIVED_TESTS_QUERY_QUERY_TEST_UTIL_H_
