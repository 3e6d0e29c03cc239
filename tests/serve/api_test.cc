// The JSON API of 5d-query serve (query/serve.h) over HTTP, on the database the CLI golden tests
// build from corpus/: each answer must be the very text 5d-query writes with --format json for
// the same query (tests/cli/expected/, made by the command line, not by the server), and wrong
// requests get 400 or 404 with a JSON error. The server runs in this process on a free port.
#include "query/serve.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "tests/query/query_test_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::RunIndexer;
using ::fived::testing::TempDir;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// `body` with the source directory left out of paths, as tests/cli/run.sh writes its outputs
// (5d-index stores sources as absolute paths).
std::string AsInGoldens(std::string body) {
  const std::string root = FIVED_SOURCE_DIR "/";
  for (size_t at = body.find(root); at != std::string::npos; at = body.find(root, at)) {
    body.erase(at, root.size());
  }
  return body;
}

// A golden output of the command line (tests/cli/run.sh).
std::string Golden(const std::string& name) {
  return ReadFile(FIVED_SOURCE_DIR "/tests/cli/expected/" + name + ".stdout");
}

class ApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    database_ = dir_->File("corpus.sqlite");
    // As tests/cli/run.sh indexes it, from the source directory, so that the games have the
    // same ids and sources as in the goldens.
    ASSERT_EQ(chdir(FIVED_SOURCE_DIR), 0);
    RunIndexer(database_, {"corpus/adri326-5dchess-notation.5dpgn",
                           "corpus/rejected/teln0-vs-shad-simple-no-queens.5dpgn"});
    RunIndexer(database_, {"corpus/club-games.5dpgn"});
    RunIndexer(database_, {"corpus/"});
    ServeOptions options;
    options.database = database_;
    options.port = 0;
    server_ = new Server(options);
    auto bound = server_->Bind();
    ASSERT_TRUE(std::holds_alternative<int>(bound));
    port_ = std::get<int>(bound);
    listener_ = new std::thread([] { server_->Listen(); });
  }
  static void TearDownTestSuite() {
    server_->Stop();
    listener_->join();
    delete listener_;
    delete server_;
    delete dir_;
  }

  static httplib::Result Get(const std::string& path) {
    httplib::Client client("127.0.0.1", port_);
    return client.Get(path);
  }

  static TempDir* dir_;
  static std::string database_;
  static Server* server_;
  static std::thread* listener_;
  static int port_;
};

TempDir* ApiTest::dir_ = nullptr;
std::string ApiTest::database_;
Server* ApiTest::server_ = nullptr;
std::thread* ApiTest::listener_ = nullptr;
int ApiTest::port_ = 0;

TEST_F(ApiTest, AnswersAreTheCommandLinesJson) {
  const struct {
    std::string path;
    std::string golden;
  } cases[] = {
      {"/api/find?white=CPU", "find-white-json"},
      {"/api/find?moves=1.%20e3%20%2F%20f6%202.%20Qh5%2B%20%2F%20g6", "find-moves-json"},
      {"/api/tree?player=ana%20duarte&depth=2", "tree-json"},
      {"/api/duplicates", "duplicates-json"},
      {"/api/stats", "stats-json"},
      {"/api/game/14?action=9", "show-json"},
  };
  for (const auto& c : cases) {
    httplib::Result result = Get(c.path);
    ASSERT_TRUE(result) << c.path;
    EXPECT_EQ(result->status, 200) << c.path << ": " << result->body;
    EXPECT_EQ(result->get_header_value("Content-Type"), "application/json");
    // The texts are long (show's holds an SVG): say where they differ rather than print both.
    const std::string body = AsInGoldens(result->body);
    const std::string golden = Golden(c.golden);
    const auto differ = std::mismatch(body.begin(), body.end(), golden.begin(), golden.end());
    EXPECT_TRUE(body == golden) << c.path << " differs from " << c.golden << " at byte "
                                << (differ.first - body.begin()) << ": "
                                << body.substr(differ.first - body.begin(), 80);
  }
}

TEST_F(ApiTest, PictureIsTheSvgOfThePosition) {
  httplib::Result result = Get("/api/picture?moves=e3");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 200);
  EXPECT_EQ(result->get_header_value("Content-Type"), "image/svg+xml");
  EXPECT_EQ(result->body.rfind("<?xml", 0), 0u);
}

TEST_F(ApiTest, WrongRequestsSayWhatIsWrong) {
  const struct {
    std::string path;
    int status;
    std::string body;
  } cases[] = {
      {"/api/find?limit=-5", 400, R"j({"error":"limit must be 0 or more"})j"},
      {"/api/find?limit=501", 400,
       R"j({"error":"limit: at most 500 games a page (offset gives the next pages)"})j"},
      {"/api/find?moves=1.%20e3%20%2F%20f6%202.%20Qh9&state-md5=x", 400,
       R"j({"error":"give one position: moves, state, state-md5 or board"})j"},
      {"/api/stats?depth=2", 400,
       R"j({"error":"stats does not take depth (the README lists the parameters of each endpoint)"})j"},
      {"/api/find?format=csv", 400, R"j({"error":"format is a parameter of the command line only"})j"},
      {"/api/tree?variant=chess960", 400, ""},
      {"/api/game/999", 404, R"j({"error":"show: there is no game 999"})j"},
      {"/api/game/abc", 400, R"j({"error":"show: 'abc' is not a game id"})j"},
      {"/api/nothing", 404, R"j({"error":"no such page: /api/nothing"})j"},
      {"/index.html", 404, R"j({"error":"no such page: /index.html"})j"},
      {"/../CMakeLists.txt", 404, ""},
  };
  for (const auto& c : cases) {
    httplib::Result result = Get(c.path);
    ASSERT_TRUE(result) << c.path;
    EXPECT_EQ(result->status, c.status) << c.path << ": " << result->body;
    if (!c.body.empty()) EXPECT_EQ(result->body, c.body + "\n") << c.path;
  }
}

TEST_F(ApiTest, CountIsANumberAndTheStartPageIsCompiledIn) {
  httplib::Result count = Get("/api/find?player=ana%20duarte&count=true");
  ASSERT_TRUE(count);
  EXPECT_EQ(count->body, Golden("find-count"));
  httplib::Result page = Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<h1>5dpgn-db</h1>"), std::string::npos);
}

// A writer holding the write lock (as 5d-index does while it appends) does not stop readers.
TEST_F(ApiTest, AnswersWhileAnotherConnectionWrites) {
  sqlite3* writer = nullptr;
  ASSERT_EQ(sqlite3_open(database_.c_str(), &writer), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(writer, "BEGIN IMMEDIATE; CREATE TABLE scratch(x); "
                                 "INSERT INTO scratch VALUES (1);", nullptr, nullptr, nullptr),
            SQLITE_OK);
  httplib::Result result = Get("/api/stats");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 200);
  EXPECT_EQ(result->body, Golden("stats-json"));
  sqlite3_exec(writer, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(writer);
}

}  // namespace
}  // namespace fived
