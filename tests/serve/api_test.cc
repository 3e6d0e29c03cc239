// The JSON API of 5d-query serve (query/serve.h) over HTTP, on the database the CLI golden tests
// build from corpus/: each answer must be the very text 5d-query writes with --format json for
// the same query (tests/cli/expected/, made by the command line, not by the server), and wrong
// requests get 400 or 404 with a JSON error (addresses outside the API a page saying there is no
// such page). The server runs in this process on a free port.
#include <gtest/gtest.h>
#include <httplib.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "query/json.h"
#include "query/serve.h"
#include "query/show.h"
#include "query/store.h"
#include "query/web_files.h"
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
    ASSERT_TRUE(bound.ok()) << bound.error().message();
    port_ = bound.value();
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
    EXPECT_EQ(result->get_header_value("Content-Type"), "application/json; charset=utf-8");
    // The texts are long (show's holds an SVG): say where they differ rather than print both.
    const std::string body = AsInGoldens(result->body);
    const std::string golden = Golden(c.golden);
    const auto differ = std::mismatch(body.begin(), body.end(), golden.begin(), golden.end());
    EXPECT_TRUE(body == golden) << c.path << " differs from " << c.golden << " at byte "
                                << (differ.first - body.begin()) << ": "
                                << body.substr(differ.first - body.begin(), 80);
  }
}

// Answers are compressed with gzip once, for clients that accept it, and kept so: asked again,
// the same bytes come back; a client that does not accept gzip gets the answer as it is.
TEST_F(ApiTest, LargeAnswersGoOutGzipped) {
  httplib::Client client("127.0.0.1", port_);
  client.set_decompress(false);
  const httplib::Headers gzip = {{"Accept-Encoding", "br, gzip"}};
  httplib::Result first = client.Get("/api/game/14?action=9", gzip);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->get_header_value("Content-Encoding"), "gzip");
  EXPECT_EQ(first->get_header_value("Vary"), "Accept-Encoding");
  ASSERT_GE(first->body.size(), 2u);
  EXPECT_EQ(first->body.substr(0, 2), "\x1f\x8b");  // the gzip magic
  httplib::Result again = client.Get("/api/game/14?action=9", gzip);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->body, first->body);
  httplib::Result plain = client.Get("/api/game/14?action=9", {{"Accept-Encoding", "identity"}});
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->get_header_value("Content-Encoding"), "");
  EXPECT_GT(plain->body.size(), first->body.size());
  EXPECT_EQ(plain->body.front(), '{');
  // Small answers are not worth it.
  httplib::Result small = client.Get("/api/find?count=true", gzip);
  ASSERT_TRUE(small);
  EXPECT_EQ(small->get_header_value("Content-Encoding"), "");
}

TEST_F(ApiTest, PictureIsTheSvgOfThePosition) {
  httplib::Result result = Get("/api/picture?moves=e3");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 200);
  EXPECT_EQ(result->get_header_value("Content-Type"), "image/svg+xml; charset=utf-8");
  EXPECT_EQ(result->body.rfind("<?xml", 0), 0u);
  // The last action's move as an arrow.
  EXPECT_NE(result->body.find("<path class=\"arrow\""), std::string::npos);
  // File and rank labels when asked: 8 + 8 on each of the two boards.
  httplib::Result labelled = Get("/api/picture?moves=e3&coordinates=1");
  ASSERT_TRUE(labelled);
  EXPECT_EQ(labelled->status, 200);
  size_t labels = 0;
  for (size_t at = labelled->body.find("class=\"coordinate\""); at != std::string::npos;
       at = labelled->body.find("class=\"coordinate\"", at + 1)) {
    ++labels;
  }
  EXPECT_EQ(labels, 32u);
}

// The moves of `answer`'s game up to `action` as one line of 5dpgn movetext ("1. e3 / f6 2. ..."),
// as the explorer names a position.
std::string LineOf(const ShowAnswer& answer, int action) {
  const std::vector<ActionMoves> moves = SplitCanonicalMovetext(answer.texts.moves);
  std::string line;
  for (int i = 0; i < action && i < static_cast<int>(moves.size()); ++i) {
    line += i % 2 == 0 ? (i == 0 ? "" : " ") + std::to_string(i / 2 + 1) + ". " : " / ";
    for (size_t m = 0; m < moves[i].size(); ++m) line += (m ? " " : "") + moves[i][m];
  }
  return line;
}

// show --svg and /api/picture are one drawing: for every game of the corpus at its start, after
// its first action, halfway and at its end, the SVG that show writes (ShowSvg, what --svg
// writes) is the very document /api/picture serves for the same position, named by the game's
// moves (in its variant, or from its start for a custom game) with show's title. Among them are
// pictures with branch lines, the present's band, move arrows and checks, so that a face that
// lost one of them would differ.
TEST_F(ApiTest, PictureIsWhatShowSvgWrites) {
  Result<GameStore> store = GameStore::Open(database_);
  ASSERT_TRUE(store.ok()) << store.error().message();
  httplib::Result list = Get("/api/find?limit=500");
  ASSERT_TRUE(list);
  const Json games = Json::parse(list->body);
  ASSERT_GE(games.size(), 10u);
  const auto encode = [](const std::string& text) {
    return httplib::detail::encode_query_param(text);
  };
  int compared = 0;
  std::map<std::string, int> drawn;  // class -> pictures that have one
  for (const Json& game : games) {
    const std::string id = std::to_string(game["id"].get<int64_t>());
    const int actions = game["actions"].get<int>();
    std::string start;  // a custom game's start, as 5DFEN boards
    for (int action : std::set<int>{0, std::min(1, actions), actions / 2, actions}) {
      SCOPED_TRACE("game " + id + " after action " + std::to_string(action));
      Request show;
      show.command = "show";
      show.args = {id};
      show.params["action"] = {std::to_string(action)};
      Result<ShowAnswer> answer = RunShow(store.value(), show);
      ASSERT_TRUE(answer.ok()) << answer.error().message();
      if (action == 0) start = answer.value().position.StateFen();
      ASSERT_GE(SplitCanonicalMovetext(answer.value().texts.moves).size(),
                static_cast<size_t>(action));
      const std::string line = LineOf(answer.value(), action);
      const std::string& variant = answer.value().game.variant;
      std::string path = "/api/picture?moves=" + encode(line) + "&title=" +
                         encode("Game " + id + " after action " + std::to_string(action));
      path += variant == "custom" ? "&state=" + encode(start) : "&variant=" + encode(variant);
      httplib::Result picture = Get(path);
      ASSERT_TRUE(picture);
      ASSERT_EQ(picture->status, 200) << path << "\n" << picture->body;
      const std::string svg = ShowSvg(answer.value());
      EXPECT_EQ(picture->body, svg) << path;
      ++compared;
      for (const char* name : {"branch", "present", "arrow", "check", "board"}) {
        if (svg.find("class=\"" + std::string(name) + "\"") != std::string::npos) ++drawn[name];
      }
    }
  }
  EXPECT_GE(compared, 40);
  for (const char* name : {"branch", "present", "arrow", "check", "board"}) {
    EXPECT_GT(drawn[name], 0) << "no picture compared has a " << name;
  }
}

// A line too long for an address (the 64 actions of tests/browser/pictures.5dpgn's game of 40
// timelines: 14 KB of moves, 24 KB in an address, which is refused) is drawn when POSTed as a
// JSON object of parameters: the very SVG show --svg writes at its end. Parameters may also come
// from the address beside the body, and a form's body (short) answers as the address does.
TEST_F(ApiTest, PictureOfALongLineIsPosted) {
  TempDir dir;
  const std::string database = dir.File("pictures.sqlite");
  ASSERT_EQ(RunIndexer(database, {"tests/browser/pictures.5dpgn"}), 0);
  Result<GameStore> store = GameStore::Open(database);
  ASSERT_TRUE(store.ok()) << store.error().message();
  // The game of the longest line: the file has four games.
  std::optional<ShowAnswer> longest;
  for (int id = 1; id <= 4; ++id) {
    Request show;
    show.command = "show";
    show.args = {std::to_string(id)};
    Result<ShowAnswer> answer = RunShow(store.value(), show);
    ASSERT_TRUE(answer.ok()) << answer.error().message();
    const auto length = [](const ShowAnswer& game) {
      return LineOf(game, game.game.actions).size();
    };
    if (!longest || length(answer.value()) > length(*longest)) longest = answer.value();
  }
  ASSERT_TRUE(longest);
  const int actions = longest->game.actions;
  ASSERT_GE(actions, 64);
  const std::string line = LineOf(*longest, actions);
  ASSERT_GT(line.size(), 8192u);
  const std::string title =
      "Game " + std::to_string(longest->game.id) + " after action " + std::to_string(actions);
  const std::string svg = ShowSvg(*longest);

  httplib::Result got = Get("/api/picture?moves=" + httplib::detail::encode_query_param(line));
  ASSERT_TRUE(got);
  EXPECT_EQ(got->status, 414);

  httplib::Client client("127.0.0.1", port_);
  const Json body = {{"moves", line}, {"variant", longest->game.variant}, {"title", title}};
  httplib::Result posted = client.Post("/api/picture", body.dump(), "application/json");
  ASSERT_TRUE(posted);
  ASSERT_EQ(posted->status, 200) << posted->body;
  EXPECT_EQ(posted->get_header_value("Content-Type"), "image/svg+xml; charset=utf-8");
  EXPECT_EQ(posted->body, svg);

  // The title in the address, the rest (the variant as an array of one) in the body.
  const Json rest = {{"moves", line}, {"variant", Json::array({longest->game.variant})}};
  posted = client.Post("/api/picture?title=" + httplib::detail::encode_query_param(title),
                       rest.dump(), "application/json; charset=utf-8");
  ASSERT_TRUE(posted);
  ASSERT_EQ(posted->status, 200) << posted->body;
  EXPECT_EQ(posted->body, svg);

  // A form, as a page's <form method="post"> sends it, with a line short enough for both.
  const std::string short_line = LineOf(*longest, 3);
  got =
      Get("/api/picture?coordinates=true&moves=" + httplib::detail::encode_query_param(short_line));
  ASSERT_TRUE(got);
  ASSERT_EQ(got->status, 200) << got->body;
  posted =
      client.Post("/api/picture", httplib::Params{{"moves", short_line}, {"coordinates", "true"}});
  ASSERT_TRUE(posted);
  ASSERT_EQ(posted->status, 200) << posted->body;
  EXPECT_EQ(posted->body, got->body);
}

// What POST refuses, and why.
TEST_F(ApiTest, WrongPostsSayWhatIsWrong) {
  const struct {
    std::string path;
    std::string body;
    int status;
    std::string answer;
  } cases[] = {
      {"/api/picture", "moves=1.", 400,
       R"j({"error":"the request's body must be a JSON object of parameters"})j"},
      {"/api/picture", R"j(["moves", "1. e3"])j", 400,
       R"j({"error":"the request's body must be a JSON object of parameters"})j"},
      {"/api/picture", R"j({"moves": {"line": "1. e3"}})j", 400,
       R"j({"error":"moves: a parameter is a string, a number, true or false, or an array of those"})j"},
      {"/api/picture", R"j({"moves": ["1. e3", null]})j", 400,
       R"j({"error":"moves: a parameter is a string, a number, true or false, or an array of those"})j"},
      // Parameters are checked as in an address.
      {"/api/find", R"j({"limit": 501})j", 400,
       R"j({"error":"limit: at most 500 games a page (offset gives the next pages)"})j"},
      {"/api/find", R"j({"format": "csv"})j", 400,
       R"j({"error":"format is a parameter of the command line only"})j"},
      {"/search", "{}", 405, R"j({"error":"only addresses under /api/ take POST"})j"},
  };
  httplib::Client client("127.0.0.1", port_);
  for (const auto& c : cases) {
    httplib::Result result = client.Post(c.path, c.body, "application/json");
    ASSERT_TRUE(result) << c.path << " " << c.body;
    EXPECT_EQ(result->status, c.status) << c.body << ": " << result->body;
    EXPECT_EQ(result->body, c.answer + "\n") << c.body;
  }
  // A flag and a number read as in an address: the count of the games of 2 timelines or more.
  httplib::Result counted =
      client.Post("/api/find", R"j({"count": true, "min-timelines": 2})j", "application/json");
  httplib::Result asked = Get("/api/find?count=true&min-timelines=2");
  ASSERT_TRUE(counted);
  ASSERT_TRUE(asked);
  EXPECT_EQ(counted->status, 200) << counted->body;
  EXPECT_EQ(counted->body, asked->body);
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
       R"j({"error":"give one position: moves, state, state-md5, board or a pattern query (pattern, material, when, move)"})j"},
      {"/api/stats?depth=2", 400,
       R"j({"error":"stats does not take depth (docs/http-api.md lists the parameters of each endpoint)"})j"},
      {"/api/find?format=csv", 400,
       R"j({"error":"format is a parameter of the command line only"})j"},
      {"/api/tree?variant=chess960", 400, ""},
      {"/api/game/999", 404, R"j({"error":"no game 999"})j"},
      {"/api/game/abc", 400, R"j({"error":"show: 'abc' is not a game id"})j"},
      {"/api/nothing", 404, R"j({"error":"no such page: /api/nothing"})j"},
      // A pattern that does not read says which and where, for the board editor to point at.
      {"/api/find?pattern=8/8/8/8/8/8/8/8&pattern=8/8/8/8/8/8/8/7X", 400,
       R"j({"error":"pattern: col 16: unknown piece letter or token 'X'\n  8/8/8/8/8/8/8/7X\n                 ^","parameter":"pattern","index":1,"column":16,"reason":"unknown piece letter or token 'X'"})j"},
      {"/api/pattern?pattern=8/8/8/8/8/8/8/7", 400,
       R"j({"error":"pattern: col 15: rank 8 from the top has 7 squares, the first has 8\n  8/8/8/8/8/8/8/7\n                ^","parameter":"pattern","index":0,"column":15,"reason":"rank 8 from the top has 7 squares, the first has 8"})j"},
      // Moves that do not replay say where too, for a page to name the move.
      {"/api/tree?moves=1.%20e3%20%2F%20f6%202.%20Qh9", 400,
       R"j({"error":"--moves: col 15: Qh9: square h9 is off the 8x8 board\n  1. e3 / f6 2. Qh9\n                ^","parameter":"moves","index":0,"column":15,"reason":"Qh9: square h9 is off the 8x8 board"})j"},
      {"/api/game/14?mark=%2B1", 400,
       R"j({"error":"mark: '+1' is not a board: L:T:c, the timeline as the notation writes it, the turn, and w or b (+1:5:b)"})j"},
      {"/api/position?variant=custom", 400,
       R"j({"error":"a position of custom games needs state"})j"},
      {"/../CMakeLists.txt", 404, ""},
  };
  for (const auto& c : cases) {
    httplib::Result result = Get(c.path);
    ASSERT_TRUE(result) << c.path;
    EXPECT_EQ(result->status, c.status) << c.path << ": " << result->body;
    if (!c.body.empty()) {
      EXPECT_EQ(result->body, c.body + "\n") << c.path;
    }
  }
}

// The answers the board editor asks for, which need no database: a variant's board size and
// start, and patterns read without a search.
TEST_F(ApiTest, PositionAndPatternAnswerWithoutSearching) {
  const struct {
    std::string path;
    std::string body;
  } cases[] = {
      {"/api/position?variant=Very%20Small",
       R"j({"width":4,"height":4,"to_move":"white","fen":"[nbr*k*/p*p*p*p*/P*P*P*P*/K*R*BN:0:1:w]"})j"},
      {"/api/position?moves=c3&variant=Small",
       R"j({"width":5,"height":5,"to_move":"black","fen":"[k*qbnr*/p*p*p*p*p*/5/P*P*P*P*P*/K*QBNR*:0:1:w][k*qbnr*/p*p*p*p*p*/2P2/P*P*1P*P*/K*QBNR*:0:1:b]"})j"},
      {"/api/"
       "pattern?pattern=%5B8%2F8%2F8%2F8%2F8%2F8%2F8%2F4K*3%5D&pattern=%3F%3F%3F%3F%2F4%2F4%2F%"
       "5BQq%5D3%3A-1%3A*%3Ab",
       R"j([{"pattern":"8/8/8/8/8/8/8/4K*3","width":8,"height":8},{"pattern":"????/4/4/[Qq]3:-1:*:b","width":4,"height":4}])j"},
  };
  for (const auto& c : cases) {
    httplib::Result result = Get(c.path);
    ASSERT_TRUE(result) << c.path;
    EXPECT_EQ(result->status, 200) << c.path << ": " << result->body;
    EXPECT_EQ(result->get_header_value("Content-Type"), "application/json; charset=utf-8");
    // A position's picture (picture_test.cc tests it) apart.
    nlohmann::ordered_json body = nlohmann::ordered_json::parse(result->body);
    if (body.is_object()) {
      EXPECT_TRUE(body.contains("picture")) << c.path;
      body.erase("picture");
    }
    EXPECT_EQ(body.dump(), c.body) << c.path;
  }
}

// The boards a pattern search names, marked in the game's picture and in the picture of a
// position (the explorer's), each with one outline; a board the position lacks gets none.
TEST_F(ApiTest, PicturesMarkTheBoardsNamed) {
  const auto marks = [](const std::string& svg) {
    size_t count = 0;
    for (size_t at = svg.find("class=\"mark\""); at != std::string::npos;
         at = svg.find("class=\"mark\"", at + 1)) {
      ++count;
    }
    return count;
  };
  // Game 14 (club game 1): a queen on h5 and a pawn on e5 on timeline +1 after action 8.
  const std::string any = "????????";  // a rank of any squares
  const std::string pattern =
      any + "/" + any + "/" + any + "/????p??Q/8/" + any + "/" + any + "/" + any + ":+1:*:*";
  httplib::Result found =
      Get("/api/find?pattern=" + httplib::detail::encode_query_param(pattern) + "&unique=true");
  ASSERT_TRUE(found);
  ASSERT_EQ(found->status, 200) << found->body;
  const nlohmann::json games = nlohmann::json::parse(found->body);
  ASSERT_FALSE(games.empty());
  EXPECT_EQ(games[0]["id"], 14);
  EXPECT_EQ(games[0]["action"], 8);
  EXPECT_EQ(games[0]["boards"], nlohmann::json::array({"+1:4:w"}));
  // The game's picture lists the boards it outlines.
  const auto marks_of = [](const std::string& path) -> size_t {
    httplib::Result game = Get(path);
    EXPECT_TRUE(game && game->status == 200) << path;
    return game ? nlohmann::json::parse(game->body)["position"]["picture"]["marks"].size() : 0;
  };
  EXPECT_EQ(marks_of("/api/game/14?action=8&mark=%2B1:4:w"), 1u);
  EXPECT_EQ(marks_of("/api/game/14?action=8&mark=%2B1:4:w&mark=0:1:w"), 2u);
  EXPECT_EQ(marks_of("/api/game/14?action=8"), 0u);
  EXPECT_EQ(marks_of("/api/game/14?action=3&mark=%2B1:4:w"), 0u);  // not there yet
  httplib::Result picture = Get("/api/picture?moves=e3&mark=0:1:b");
  ASSERT_TRUE(picture);
  EXPECT_EQ(picture->status, 200);
  EXPECT_EQ(marks(picture->body), 1u);
}

TEST_F(ApiTest, CountIsANumber) {
  httplib::Result count = Get("/api/find?player=ana%20duarte&count=true");
  ASSERT_TRUE(count);
  EXPECT_EQ(count->body, Golden("find-count"));
}

// The explorer's numbers agree (issue 26): the games a position counts are the games its list
// holds without copies, at the start of each variant and after an action; the statistics count
// the games find finds without copies, and find without --unique as many more as there are
// copies.
TEST_F(ApiTest, CountsAgreeAcrossTheEndpoints) {
  const auto json = [](const std::string& path) {
    httplib::Result result = Get(path);
    EXPECT_TRUE(result && result->status == 200) << path;
    return result ? nlohmann::json::parse(result->body) : nlohmann::json();
  };
  const nlohmann::json stats = json("/api/stats");
  EXPECT_EQ(json("/api/find?count=true&unique=true"), stats["games"]);
  EXPECT_EQ(json("/api/find?count=true"), stats["games"].get<int>() + stats["copies"].get<int>());
  int compared = 0;
  for (const nlohmann::json& variant : stats["variants"]) {
    const std::string name = variant["variant"];
    if (name == "custom") continue;
    const std::string filter = "variant=" + httplib::detail::encode_query_param(name);
    const nlohmann::json tree = json("/api/tree?" + filter);
    EXPECT_EQ(tree["games"], variant["games"]) << name;
    EXPECT_EQ(json("/api/find?count=true&unique=true&" + filter), tree["games"]) << name;
    for (const nlohmann::json& action : tree["actions"]) {
      const std::string moves = "moves=" + httplib::detail::encode_query_param(
                                               "1. " + action["action"].get<std::string>());
      EXPECT_EQ(json("/api/find?count=true&unique=true&" + filter + "&" + moves), action["games"])
          << name << " " << action["action"];
      ++compared;
    }
  }
  EXPECT_GE(compared, 5);
}

// Every custom game is under one start of /api/starts, and each start's games are those the
// explorer finds there: the tree and find of the custom games at that state.
TEST_F(ApiTest, CustomStartsCountTheCustomGames) {
  const auto json = [](const std::string& path) {
    httplib::Result result = Get(path);
    EXPECT_TRUE(result && result->status == 200) << path;
    return result ? nlohmann::json::parse(result->body) : nlohmann::json();
  };
  int64_t custom = 0;
  const nlohmann::json stats = json("/api/stats");
  for (const nlohmann::json& variant : stats["variants"]) {
    if (variant["variant"] == "custom") custom = variant["games"];
  }
  ASSERT_GT(custom, 0);
  const nlohmann::json starts = json("/api/starts");
  int64_t listed = 0;
  for (const nlohmann::json& start : starts) {
    listed += start["games"].get<int64_t>();
    const std::string where =
        "variant=custom&state=" + httplib::detail::encode_query_param(start["fen"]);
    EXPECT_EQ(json("/api/tree?" + where)["games"], start["games"]) << start["fen"];
    EXPECT_EQ(json("/api/find?count=true&unique=true&" + where), start["games"]) << start["fen"];
    EXPECT_EQ(
        json("/api/position?state=" + httplib::detail::encode_query_param(start["fen"]))["width"],
        start["width"]);
  }
  EXPECT_EQ(listed, custom);
  httplib::Result refused = Get("/api/starts?player=x");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400);
}

TEST_F(ApiTest, GameAs5dpgnIsADownload) {
  httplib::Result game = Get("/api/game/14.5dpgn");
  ASSERT_TRUE(game);
  EXPECT_EQ(game->status, 200);
  EXPECT_EQ(game->body, Golden("show-5dpgn"));
  EXPECT_EQ(game->get_header_value("Content-Type"), "text/plain; charset=utf-8");
  EXPECT_EQ(game->get_header_value("Content-Disposition"),
            "attachment; filename=\"game-14.5dpgn\"");
  httplib::Result refused = Get("/api/game/14.5dpgn?action=3");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400);
  EXPECT_EQ(refused->body,
            R"j({"error":"action draws a position: format 5dpgn writes the game's text"})j"
            "\n");
}

// The pages and their files are compiled in: each path people open answers its page, every file
// of query/web/ is served under /static/ as it is, and nothing else is.
TEST_F(ApiTest, PagesAreTheEmbeddedFiles) {
  const struct {
    std::string path;
    std::string file;
  } pages[] = {
      {"/", "explorer.html"},    {"/search", "search.html"}, {"/patterns", "patterns.html"},
      {"/game/14", "game.html"}, {"/game/999", "game.html"}, {"/duplicates", "duplicates.html"},
      {"/stats", "stats.html"},
  };
  for (const auto& page : pages) {
    httplib::Result result = Get(page.path);
    ASSERT_TRUE(result) << page.path;
    EXPECT_EQ(result->status, 200) << page.path;
    EXPECT_EQ(result->get_header_value("Content-Type"), "text/html; charset=utf-8");
    EXPECT_EQ(result->body, FindWebFile(page.file)->content) << page.path;
  }
  ASSERT_FALSE(WebFiles().empty());
  for (const WebFile& file : WebFiles()) {
    const std::string path = "/static/" + std::string(file.name);
    httplib::Result result = Get(path);
    ASSERT_TRUE(result) << path;
    EXPECT_EQ(result->status, 200) << path;
    EXPECT_EQ(result->get_header_value("Content-Type"), file.content_type) << path;
    EXPECT_EQ(result->body, file.content) << path;
    // The files are query/web/ as it is in the source tree.
    EXPECT_EQ(file.content, ReadFile(FIVED_SOURCE_DIR "/query/web/" + std::string(file.name)))
        << file.name;
  }
  for (const char* path :
       {"/static/", "/static/missing.js", "/static/../serve.cc", "/static/%2e%2e/serve.cc",
        "/game/", "/game/12a", "/game/1/2", "/search/", "/explorer.html", "/query/web/common.js",
        "/static/web/common.js"}) {
    httplib::Result result = Get(path);
    ASSERT_TRUE(result) << path;
    EXPECT_EQ(result->status, 404) << path;
    EXPECT_EQ(result->get_header_value("Content-Type"), "text/html; charset=utf-8") << path;
  }
}

// An address that is no page gets a page saying so (HTML, 404, linking to the pages), not the
// API's JSON; the API's unknown addresses keep their JSON error.
TEST_F(ApiTest, UnknownPagesGetAPageSayingSo) {
  const WebFile* page = FindWebFile("not-found.html");
  ASSERT_NE(page, nullptr);
  EXPECT_NE(page->content.find("<h1 id=\"not-found\">No such page</h1>"), std::string::npos);
  EXPECT_NE(page->content.find("<a href=\"/search\">"), std::string::npos);
  for (const char* path : {"/index.html", "/gmae/12", "/game/12a", "/static/missing.js"}) {
    httplib::Result result = Get(path);
    ASSERT_TRUE(result) << path;
    EXPECT_EQ(result->status, 404) << path;
    EXPECT_EQ(result->get_header_value("Content-Type"), "text/html; charset=utf-8") << path;
    EXPECT_EQ(result->body, page->content) << path;
  }
  httplib::Result api = Get("/api/gmae/12");
  ASSERT_TRUE(api);
  EXPECT_EQ(api->status, 404);
  EXPECT_EQ(api->get_header_value("Content-Type"), "application/json; charset=utf-8");
  EXPECT_EQ(api->body, std::string(R"j({"error":"no such page: /api/gmae/12"})j") + "\n");
}

// Every answer forbids what the pages never need: scripts from elsewhere or inline, being
// framed, guessing content types.
TEST_F(ApiTest, AnswersCarryTheSecurityHeaders) {
  for (const char* path : {"/", "/static/common.js", "/api/stats", "/api/nothing"}) {
    httplib::Result result = Get(path);
    ASSERT_TRUE(result) << path;
    EXPECT_EQ(result->get_header_value("X-Content-Type-Options"), "nosniff") << path;
    const std::string policy = result->get_header_value("Content-Security-Policy");
    EXPECT_EQ(policy.rfind("default-src 'self'; ", 0), 0u) << path;
    EXPECT_EQ(policy.find("script-src"), std::string::npos) << "scripts fall back to 'self'";
    EXPECT_NE(policy.find("frame-ancestors 'none'"), std::string::npos) << path;
    EXPECT_EQ(result->get_header_value("Cache-Control"), "no-cache") << path;
  }
}

// The pages' own rule, checked on their sources: values reach the page as text, never as HTML
// built from strings, and pages run no inline script (the Content-Security-Policy forbids it).
TEST(WebFiles, NoScriptWritesHtmlFromStrings) {
  for (const WebFile& file : WebFiles()) {
    const std::string_view text = file.content;
    if (file.name.ends_with(".js")) {
      for (const char* sink : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                               "eval(", "new Function", "createContextualFragment"}) {
        EXPECT_EQ(text.find(sink), std::string_view::npos) << file.name << " uses " << sink;
      }
    }
    if (file.name.ends_with(".html")) {
      EXPECT_EQ(text.find("<script>"), std::string_view::npos) << file.name;
      EXPECT_EQ(text.find(" onclick="), std::string_view::npos) << file.name;
      EXPECT_EQ(text.find(" onload="), std::string_view::npos) << file.name;
      EXPECT_EQ(text.find("style=\""), std::string_view::npos) << file.name;
    }
  }
}

// Answers are kept, and follow the database as 5d-index appends: a new game shows at once, in
// the statistics, the tree and its own page, with the cache on or off.
TEST(Api, AnswersFollowTheDatabaseAs5dIndexAppends) {
  TempDir dir;
  const std::string database = dir.File("games.sqlite");
  ASSERT_EQ(RunIndexer(database, {FIVED_SOURCE_DIR "/corpus/club-games.5dpgn"}), 0);
  ServeOptions cached;
  cached.database = database;
  ServeOptions uncached = cached;
  uncached.cache_bytes = 0;
  Api with_cache(cached);
  Api without_cache(uncached);
  // The games of the statistics, copies left out and counted apart: [games, copies].
  const auto games = [](Api& api) {
    const ApiResponse stats = api.Get("/api/stats", {});
    EXPECT_EQ(stats.status, 200) << stats.body;
    const nlohmann::json json = nlohmann::json::parse(stats.body);
    return std::vector<int>{json["games"].get<int>(), json["copies"].get<int>()};
  };
  // 8 club games, one a copy of another.
  for (Api* api : {&with_cache, &without_cache}) {
    EXPECT_EQ(games(*api), (std::vector<int>{7, 1}));
    EXPECT_EQ(games(*api), (std::vector<int>{7, 1}));
    EXPECT_EQ(api->Get("/api/game/9", {}).status, 404);
  }
  const ApiResponse tree = with_cache.Get("/api/tree", {{"moves", {"e3"}}});
  EXPECT_EQ(tree.body, without_cache.Get("/api/tree", {{"moves", {"e3"}}}).body);

  ASSERT_EQ(RunIndexer(database, {FIVED_SOURCE_DIR "/corpus/adri326-5dchess-notation.5dpgn"}), 0);
  // 13 more, one a copy of a game of the first file.
  for (Api* api : {&with_cache, &without_cache}) {
    EXPECT_EQ(games(*api), (std::vector<int>{19, 2}));
    EXPECT_EQ(api->Get("/api/game/9", {}).status, 200);
  }
  const ApiResponse grown = with_cache.Get("/api/tree", {{"moves", {"e3"}}});
  EXPECT_NE(grown.body, tree.body);
  EXPECT_EQ(grown.body, without_cache.Get("/api/tree", {{"moves", {"e3"}}}).body);
}

// Warming asks what the pages ask first, so that those answers are kept: the variants list and
// the statistics page, and the tree at the start of each official variant.
TEST(Api, WarmKeepsTheFirstPagesAnswers) {
  TempDir dir;
  const std::string database = dir.File("games.sqlite");
  ASSERT_EQ(RunIndexer(database, {FIVED_SOURCE_DIR "/corpus/"}), 1);  // one game is rejected
  ServeOptions options;
  options.database = database;
  Api api(options);
  std::atomic<bool> stop{false};
  api.Warm(stop);
  // Standard, Standard - Turn Zero, Misc - Timeline Invasion, Small, Standard - Half Reflected.
  EXPECT_EQ(api.cached_answers(), 2u + 5u);
  // The explorer's first question is one of them: asking it again keeps nothing new.
  EXPECT_EQ(api.Get("/api/tree", {{"variant", {"Standard"}}}).status, 200);
  EXPECT_EQ(api.cached_answers(), 7u);
  options.cache_bytes = 0;
  Api uncached(options);
  uncached.Warm(stop);
  EXPECT_EQ(uncached.cached_answers(), 0u);
  stop = true;
  Api stopped(ServeOptions{.database = database});
  stopped.Warm(stop);
  EXPECT_LE(stopped.cached_answers(), 1u);
}

// Many clients at once while 5d-index appends: every answer is whole and right for some moment
// of the database, and once the indexer is done every answer has its games.
TEST(Api, ServesManyClientsWhileTheIndexerAppends) {
  TempDir dir;
  const std::string database = dir.File("games.sqlite");
  ASSERT_EQ(RunIndexer(database, {FIVED_SOURCE_DIR "/corpus/club-games.5dpgn"}), 0);
  ServeOptions options;
  options.database = database;
  options.port = 0;
  Server server(options);
  auto bound = server.Bind();
  ASSERT_TRUE(bound.ok()) << bound.error().message();
  const int port = bound.value();
  std::thread listener([&] { server.Listen(); });

  std::atomic<bool> indexing{true};
  std::atomic<int> failures{0};
  std::atomic<int> answered{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < 4; ++c) {
    clients.emplace_back([&, c] {
      httplib::Client client("127.0.0.1", port);
      const char* paths[] = {"/api/stats", "/api/tree?moves=e3", "/api/find?player=ana*",
                             "/api/game/3?action=2", "/"};
      for (int i = 0; indexing || i < 10; ++i) {
        const char* path = paths[(c + i) % 5];
        httplib::Result result = client.Get(path);
        if (!result || result->status != 200) {
          ++failures;
        } else if (path[1] == 'a' && !nlohmann::json::accept(result->body)) {
          ++failures;
        }
        ++answered;
      }
    });
  }
  EXPECT_EQ(RunIndexer(database, {FIVED_SOURCE_DIR "/corpus/adri326-5dchess-notation.5dpgn"}), 0);
  indexing = false;
  for (std::thread& client : clients) client.join();
  httplib::Client client("127.0.0.1", port);
  httplib::Result stats = client.Get("/api/stats");
  server.Stop();
  listener.join();
  EXPECT_EQ(failures, 0) << "of " << answered << " requests";
  ASSERT_TRUE(stats);
  EXPECT_EQ(nlohmann::json::parse(stats->body)["games"], 19);  // and 2 copies
}

// A query over the time limit is stopped and answered 503; the server goes on.
TEST(Api, AQueryOverTheTimeLimitIs503) {
  TempDir dir;
  // SQLite looks at the clock every 10,000 instructions of a statement: enough games (800, the
  // club games again and again) that a search takes more.
  const std::string club = ReadFile(FIVED_SOURCE_DIR "/corpus/club-games.5dpgn");
  std::ofstream many(dir.File("many.5dpgn"), std::ios::binary);
  for (int i = 0; i < 100; ++i) many << club << "\n";
  many.close();
  const std::string database = dir.File("games.sqlite");
  ASSERT_EQ(RunIndexer(database, {dir.File("many.5dpgn")}), 0);
  ServeOptions options;
  options.database = database;
  options.query_time = std::chrono::milliseconds(0);
  Api api(options);
  // A header filter reads every game's headers.
  const ApiResponse stopped = api.Get("/api/stats", {{"header", {"Event=*night*"}}});
  EXPECT_EQ(stopped.status, 503);
  EXPECT_EQ(stopped.body, R"j({"error":"the query ran longer than 0 ms and was stopped"})j"
                          "\n");
  EXPECT_EQ(api.cached_answers(), 0u);
  // Pages need no query, and small queries finish before SQLite looks at the clock.
  EXPECT_EQ(api.Get("/", {}).status, 200);
  EXPECT_EQ(api.Get("/api/game/1", {}).status, 200);
}

// Requests larger than any the pages make are refused before they are read.
TEST_F(ApiTest, LargeRequestsAreRefused) {
  httplib::Client client("127.0.0.1", port_);
  httplib::Result long_url = client.Get("/api/find?player=" + std::string(9000, 'a'));
  ASSERT_TRUE(long_url);
  EXPECT_EQ(long_url->status, 414);
  // Over the 256 KiB a body may have (POST carries lines too long for an address).
  httplib::Result large_body =
      client.Post("/api/find", std::string(300 * 1024, 'x'), "application/octet-stream");
  ASSERT_TRUE(large_body);
  EXPECT_EQ(large_body->status, 413);
}

// A writer holding the write lock (as 5d-index does while it appends) does not stop readers.
TEST_F(ApiTest, AnswersWhileAnotherConnectionWrites) {
  sqlite3* writer = nullptr;
  ASSERT_EQ(sqlite3_open(database_.c_str(), &writer), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(writer,
                         "BEGIN IMMEDIATE; CREATE TABLE scratch(x); "
                         "INSERT INTO scratch VALUES (1);",
                         nullptr, nullptr, nullptr),
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
