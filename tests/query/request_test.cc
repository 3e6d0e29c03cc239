// The request layer (query/request.h) on the club games of corpus/: which search runs for which
// parameters, and the exact message for each kind of wrong parameter, as the command line and
// the API spell them.
#include "query/request.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "query/show.h"
#include "tests/indexer/archive_util.h"
#include "tests/query/query_test_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::RunIndexer;
using ::fived::testing::TempDir;

class RequestTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    store_ = testing::NewIndexedStore(dir_->File("club.sqlite"),
                                      {FIVED_SOURCE_DIR "/corpus/club-games.5dpgn"});
    ASSERT_NE(store_, nullptr);
  }
  static void TearDownTestSuite() {
    delete store_;
    delete dir_;
  }

  // A request of `command` with one value per parameter.
  static Request Make(std::string command, std::map<std::string, std::string> params,
                      Spelling spelling = kCommandLineSpelling) {
    Request request;
    request.command = std::move(command);
    for (auto& [name, value] : params) request.params[name].push_back(value);
    request.spelling = spelling;
    return request;
  }

  // The message CheckRequest gives, or "" when it accepts the request.
  static std::string CheckMessage(const Request& request) {
    const Status status = CheckRequest(request);
    return status.message();
  }

  static TempDir* dir_;
  static GameStore* store_;
};

TempDir* RequestTest::dir_ = nullptr;
GameStore* RequestTest::store_ = nullptr;

TEST_F(RequestTest, FindRunsTheFilterAndThePositionSearch) {
  Result<FindAnswer> all = RunFind(*store_, Make("find", {}));
  ASSERT_TRUE(all.ok()) << all.error().message();
  EXPECT_FALSE(all.value().games.empty());
  EXPECT_FALSE(all.value().search.positions.has_value());

  Result<FindAnswer> moves =
      RunFind(*store_, Make("find", {{"moves", "1. e3 / e6 2. Nf3 / Nf6"}, {"limit", "1"}}));
  ASSERT_TRUE(moves.ok()) << moves.error().message();
  ASSERT_TRUE(moves.value().search.positions.has_value());
  ASSERT_EQ(moves.value().games.size(), 1u);
  EXPECT_EQ(moves.value().games[0].action, 4);

  Result<FindAnswer> count = RunFind(*store_, Make("find", {{"count", "true"}}));
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count.value().count, static_cast<int64_t>(all.value().games.size()));
  EXPECT_TRUE(count.value().games.empty());
}

TEST_F(RequestTest, FlagsReadTrueAndFalse) {
  Result<FindAnswer> off = RunFind(*store_, Make("find", {{"count", "false"}}));
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(off.value().count.has_value());
  EXPECT_EQ(CheckMessage(Make("find", {{"count", "yes"}})), "--count: 'yes' is not true or false");
}

TEST_F(RequestTest, TreeStartsAtTheVariantsStartAndShowReplaysToTheAction) {
  Result<TreeAnswer> tree = RunTree(*store_, Make("tree", {{"depth", "2"}}));
  ASSERT_TRUE(tree.ok()) << tree.error().message();
  EXPECT_GT(tree.value().root.games, 0);
  EXPECT_TRUE(tree.value().root.children.front().expanded);

  Request show = Make("show", {{"action", "2"}});
  show.args = {"1"};
  Result<ShowAnswer> game = RunShow(*store_, show);
  ASSERT_TRUE(game.ok()) << game.error().message();
  EXPECT_EQ(game.value().action, 2);
  EXPECT_EQ(game.value().last_moves.size(), 1u);
}

TEST_F(RequestTest, UnknownGameIsNotFoundAndOtherMistakesAreBadRequests) {
  Request show = Make("show", {});
  show.args = {"999"};
  Result<ShowAnswer> missing = RunShow(*store_, show);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.error().message(), "no game 999");

  show.args = {"12x"};
  Result<ShowAnswer> bad = RunShow(*store_, show);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.error().message(), "show: '12x' is not a game id");

  show = Make("show", {{"action", "500"}});
  show.args = {"1"};
  Result<ShowAnswer> late = RunShow(*store_, show);
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error().message().rfind("--action: game 1 has actions 0 to ", 0), 0u);
}

// Each wrong parameter and the message that says what is wrong with it.
TEST_F(RequestTest, CheckRequestNamesTheWrongParameter) {
  const struct {
    std::string command;
    std::map<std::string, std::string> params;
    std::string message;
  } cases[] = {
      {"frobnicate", {}, "unknown command 'frobnicate'"},
      {"find", {{"limit", "-5"}}, "--limit must be 0 or more"},
      {"find", {{"limit", "ten"}}, "--limit: 'ten' is not a number"},
      {"tree", {{"depth", "0"}}, "--depth must be 1 or more"},
      {"tree",
       {{"depth", "99999999999"}},
       "--depth: '99999999999' is not a number this tool can take"},
      {"tree",
       {{"count", ""}},
       "tree does not take --count (5d-query --help says which options go with which command)"},
      {"find", {{"deep", ""}}, "--deep goes with --state-md5"},
      {"find", {{"canonical", ""}}, "--canonical goes with --format 5dpgn"},
      {"find",
       {{"count", ""}, {"limit", "3"}},
       "--count prints a number: --limit does nothing with it"},
      {"find", {{"player", "ann"}}, ""},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(CheckMessage(Make(c.command, c.params)), c.message) << c.command;
  }
  Request twice = Make("find", {{"limit", "1"}});
  twice.params["limit"].push_back("2");
  EXPECT_EQ(CheckMessage(twice), "--limit is given more than once");
}

// The API spells parameters without "--" and sends people to docs/http-api.md.
TEST_F(RequestTest, TheApiSpellsParametersAsTheUrlDoes) {
  EXPECT_EQ(CheckMessage(Make("stats", {{"moves", "e3"}}, kApiSpelling)),
            "stats does not take moves (docs/http-api.md lists the parameters of each endpoint)");
  Result<FindAnswer> dates =
      RunFind(*store_, Make("find", {{"date-from", "2022"}, {"date-to", "2021"}}, kApiSpelling));
  ASSERT_FALSE(dates.ok());
  EXPECT_EQ(dates.error().message(), "date-from is after date-to");
}

// Mistakes found once the database is open: values that do not read.
TEST_F(RequestTest, RunRefusesValuesThatDoNotRead) {
  const struct {
    std::string command;
    std::map<std::string, std::string> params;
    std::string message;
  } cases[] = {
      {"find",
       {{"result", "won"}},
       "--result: 'won' is not a result (1-0, 0-1, 1/2-1/2, *, white, black, draw)"},
      {"find",
       {{"ending", "mate"}},
       "--ending: 'mate' is not an ending (checkmate, stalemate, playable, unknown)"},
      {"find", {{"header", "=x"}}, "--header: '=x' is not NAME=VALUE"},
      {"find", {{"state-md5", "1234"}}, "--state-md5: '1234' is not 32 hex digits"},
      {"find",
       {{"moves", "e3"}, {"board", "[8/8/8/8/8/8/8/8]"}},
       "give one position: --moves, --state, --state-md5, --board or a pattern query (--pattern, "
       "--material, --when, --move)"},
      {"find",
       {{"move", "N hop"}},
       "--move: col 3: 'hop' is not a piece letter, physical, jump, branch, travel, capture, check "
       "or "
       "actions=A-B\n  N hop\n    ^"},
      {"find", {{"sort", "action"}}, "--sort action needs a position search"},
      {"find",
       {{"pattern", "7X"}},
       "--pattern: col 2: unknown piece letter or token 'X'\n  7X\n   ^"},
      {"find",
       {{"material", "Q 2"}},
       "--material: col 3: expected = != < <= > or >= after the pieces\n  Q 2\n    ^"},
      {"find",
       {{"when", "timelines>=4, moves=3"}},
       "--when: col 15: 'moves' is not timelines, active, turn, to-move, check or checks\n  "
       "timelines>=4, "
       "moves=3\n                ^"},
      {"find",
       {{"pattern", "8/8/8/8/8/8/8/8:=:*:*"}},
       "--pattern: the first pattern's pins cannot be relative ('='): there is no pattern before "
       "it"},
      {"find", {{"format", "xml"}}, "--format: 'xml' is not table, json, csv or 5dpgn"},
      {"stats", {{"format", "csv"}}, "stats writes --format table or json"},
      {"tree",
       {{"moves", "e3"}, {"state", "[8/8/8/8/8/8/8/8:0:1:w]"}},
       "--moves: col 1: e3: no pawn on board (0T1) can reach e3\n  e3\n  ^"},
      {"tree",
       {{"moves", "e3"}, {"state", "[8/8/8/8/8/8/8/8:0:1:w"}},
       "--state: board 1 has no closing ']'"},
      {"tree", {{"variant", "custom"}}, "tree of custom games needs --state"},
  };
  for (const auto& c : cases) {
    const Request request = Make(c.command, c.params);
    std::string message;
    if (c.command == "find") {
      Result<FindAnswer> answer = RunFind(*store_, request);
      if (!answer.ok()) message = answer.error().message();
    } else if (c.command == "tree") {
      Result<TreeAnswer> answer = RunTree(*store_, request);
      if (!answer.ok()) message = answer.error().message();
    } else {
      Result<StatsAnswer> answer = RunStats(*store_, request);
      if (!answer.ok()) message = answer.error().message();
    }
    EXPECT_EQ(message, c.message);
  }
}

TEST_F(RequestTest, PictureDrawsTheNamedPositionOrTheStart) {
  Result<std::string> start = RunPicture(Make("picture", {}, kApiSpelling));
  ASSERT_TRUE(start.ok());
  EXPECT_EQ(start.value().rfind("<?xml", 0), 0u);
  Result<std::string> bad = RunPicture(Make("picture", {{"moves", "Qh9"}}, kApiSpelling));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code(), StatusCode::kInvalidArgument);
}

// The number of arrows in an SVG picture (query/picture.h draws each as one <line class="arrow">).
int Arrows(const std::string& svg) {
  int count = 0;
  for (size_t at = svg.find("class=\"arrow\""); at != std::string::npos;
       at = svg.find("class=\"arrow\"", at + 1)) {
    ++count;
  }
  return count;
}

// The explorer shows the last action played in its picture: one arrow per move of it.
TEST_F(RequestTest, PictureDrawsTheLastActionOfTheMoves) {
  Result<std::string> start = RunPicture(Make("picture", {}, kApiSpelling));
  ASSERT_TRUE(start.ok());
  EXPECT_EQ(Arrows(start.value()), 0);
  Result<std::string> two = RunPicture(Make("picture", {{"moves", "e3 f6"}}, kApiSpelling));
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(Arrows(two.value()), 1);
  // Two moves on two timelines make one action of two arrows.
  Result<std::string> branches =
      RunPicture(Make("picture",
                      {{"moves",
                        "1. e3 / f6 2. Qh5+ / g6 3. Qxg6+ / hxg6 4. (0T4)Ng1>>(0T3)g3 / (1T3)e5 "
                        "5. (1T4)Nc3 / (0T4)Rh5 (1T4)d5"}},
                      kApiSpelling));
  ASSERT_TRUE(branches.ok()) << branches.error().message();
  EXPECT_EQ(Arrows(branches.value()), 2);
  Result<std::string> state =
      RunPicture(Make("picture", {{"state", "[4k3/8/8/8/8/8/8/4K3:0:1:w]"}}, kApiSpelling));
  ASSERT_TRUE(state.ok()) << state.error().message();
  EXPECT_EQ(Arrows(state.value()), 0);
}

// show with --format 5dpgn: the game's text, nothing replayed; what draws a position is refused.
TEST_F(RequestTest, ShowWritesTheGameAs5dpgn) {
  Request show = Make("show", {{"format", "5dpgn"}});
  show.args = {"1"};
  Result<ShowAnswer> game = RunShow(*store_, show);
  ASSERT_TRUE(game.ok()) << game.error().message();
  Result<std::string> text = ShowPgn(*store_, game.value());
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text.value().rfind("[Event \"Club night\"]\n", 0), 0u);
  EXPECT_NE(text.value().find("\n1. e3 / f6\n"), std::string::npos);

  EXPECT_EQ(CheckMessage(Make("show", {{"format", "5dpgn"}, {"action", "3"}})),
            "--action draws a position: --format 5dpgn writes the game's text");
  EXPECT_EQ(CheckMessage(Make("show", {{"format", "5dpgn"}, {"columns", "3"}}, kApiSpelling)),
            "columns draws a position: format 5dpgn writes the game's text");
  show = Make("show", {{"format", "csv"}});
  show.args = {"1"};
  Result<ShowAnswer> csv = RunShow(*store_, show);
  ASSERT_FALSE(csv.ok());
  EXPECT_EQ(csv.error().message(), "show writes --format table, json, 5dpgn or vmn");
}

// show with --format vmn: the whole game as a matrix (core/vmn_writer.h), white's knight jump of
// action 7 making +1 from black's board of turn 3; what draws a position is refused.
TEST_F(RequestTest, ShowWritesTheGameAsVmn) {
  Request show = Make("show", {{"format", "vmn"}});
  show.args = {"1"};
  Result<ShowAnswer> game = RunShow(*store_, show);
  ASSERT_TRUE(game.ok()) << game.error().message();
  EXPECT_EQ(game.value().vmn,
            " L[+1        | 0               ]\n"
            "T1[0         | e3/f6           ]\n"
            "T2[0         | Qh5/g6          ]\n"
            "T3[0/e5      | Qxg6/hxg6       ]\n"
            "T4[Nc3/d5    | Ng1>>(0T3)g3/Rh5]\n"
            "T5[Nxd5/Qxd5 | Nc3/Nc6         ]\n"
            "T6[-/0       | -/0             ]\n");
  EXPECT_EQ(CheckMessage(Make("show", {{"format", "vmn"}, {"action", "3"}})),
            "--action draws a position: --format vmn writes the whole game");
  EXPECT_EQ(CheckMessage(Make("show", {{"format", "vmn"}, {"mark", "0:1:w"}}, kApiSpelling)),
            "mark draws a position: format vmn writes the whole game");
  show = Make("show", {{"format", "xml"}});
  show.args = {"1"};
  Result<ShowAnswer> xml = RunShow(*store_, show);
  ASSERT_FALSE(xml.ok());
  EXPECT_EQ(xml.error().message(), "show writes --format table, json, 5dpgn or vmn");
}

// Moves that do not replay say where (core/status.h Place), as a pattern does, so that a page can
// name the move: its column in one line and the move with the reason; no column when the error
// is about no one move.
TEST_F(RequestTest, BadMovesSayWhere) {
  Result<TreeAnswer> tree =
      RunTree(*store_, Make("tree", {{"moves", "1. e3 / f6 2. Qh9"}}, kApiSpelling));
  ASSERT_FALSE(tree.ok());
  ASSERT_TRUE(tree.error().place().has_value());
  EXPECT_EQ(tree.error().place()->parameter, "moves");
  EXPECT_EQ(tree.error().place()->column, 15u);
  EXPECT_EQ(tree.error().place()->reason, "Qh9: square h9 is off the 8x8 board");
  Result<TreeAnswer> headers =
      RunTree(*store_, Make("tree", {{"moves", "[Board \"Small\"] e3"}}, kApiSpelling));
  ASSERT_FALSE(headers.ok());
  ASSERT_TRUE(headers.error().place().has_value());
  EXPECT_EQ(headers.error().place()->column, 0u);
  EXPECT_EQ(headers.error().place()->reason,
            "give only movetext (headers and boards are not allowed)");
}

// show's JSON says whose action comes next, which tells the pages who played each action.
TEST_F(RequestTest, ShowJsonSaysWhoIsToMove) {
  for (const auto& [action, side] : {std::pair{"0", "white"}, {"1", "black"}, {"2", "white"}}) {
    Request show = Make("show", {{"action", action}, {"format", "json"}});
    show.args = {"1"};
    Result<ShowAnswer> game = RunShow(*store_, show);
    ASSERT_TRUE(game.ok()) << game.error().message();
    Result<Json> json = ShowJson(*store_, game.value());
    ASSERT_TRUE(json.ok());
    EXPECT_EQ(json.value()["position"]["to_move"], side) << action;
  }
}

// The number of marked boards in an SVG picture (query/picture.h outlines each with one
// <rect class="mark">).
int Marks(const std::string& svg) {
  int count = 0;
  for (size_t at = svg.find("class=\"mark\""); at != std::string::npos;
       at = svg.find("class=\"mark\"", at + 1)) {
    ++count;
  }
  return count;
}

// show's "mark": boards named as pattern answers name them, in the game's numbering, drawn in
// both pictures; a board the position does not have (yet) is no error.
TEST_F(RequestTest, ShowMarksTheBoardsNamed) {
  // Club game 1 after 8 actions: timeline +1 has boards from T3 b to T4 w.
  Request show = Make("show", {{"action", "8"}, {"format", "json"}, {"mark", "+1:4:w"}});
  show.params["mark"].push_back("+1:9:w");
  show.args = {"1"};
  Result<ShowAnswer> game = RunShow(*store_, show);
  ASSERT_TRUE(game.ok()) << game.error().message();
  const std::vector<BoardAddress> expected = {{1, HalfTurn(4, Color::kWhite)},
                                              {1, HalfTurn(9, Color::kWhite)}};
  EXPECT_EQ(game.value().picture.marked, expected);
  Result<Json> json = ShowJson(*store_, game.value());
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(json.value()["position"]["picture"]["marks"].size(), 1u);
  SvgPictureOptions options;
  options.marked = game.value().picture.marked;
  EXPECT_EQ(Marks(SvgPicture(game.value().position, game.value().last_moves, options)), 1);
  EXPECT_NE(ShowText(game.value()).find("[rnbqkbnr]"), std::string::npos);

  for (const char* wrong : {"1:2", "+1:x:w", "+1:4:white", "--1:4:w", "+1:-4:w", "", "a:4:w"}) {
    Request bad = Make("show", {{"mark", wrong}}, kApiSpelling);
    bad.args = {"1"};
    Result<ShowAnswer> refused = RunShow(*store_, bad);
    ASSERT_FALSE(refused.ok()) << wrong;
    EXPECT_EQ(refused.error().message(),
              "mark: '" + std::string(wrong) +
                  "' is not a board: L:T:c, the timeline as the notation writes it, the turn, "
                  "and w or b (+1:5:b)");
  }
  EXPECT_EQ(CheckMessage(Make("show", {{"format", "5dpgn"}, {"mark", "0:1:w"}})),
            "--mark draws a position: --format 5dpgn writes the game's text");
}

// A picture's marks follow its position's numbering: in a game that starts with two
// timelines, "-0" and "+0" are two rows.
TEST_F(RequestTest, PictureMarksInTheTimelinesNumbering) {
  const auto mark_y = [](const char* mark) {
    Result<std::string> svg = RunPicture(
        Make("picture", {{"variant", "Standard - Two Timelines"}, {"mark", mark}}, kApiSpelling));
    EXPECT_TRUE(svg.ok());
    if (!svg.ok() || Marks(svg.value()) != 1) return std::string("no mark");
    const size_t at = svg.value().find("class=\"mark\"");
    return svg.value().substr(svg.value().find(" y=\"", at), 10);
  };
  EXPECT_NE(mark_y("-0:1:w"), "no mark");
  EXPECT_NE(mark_y("+0:1:w"), "no mark");
  EXPECT_NE(mark_y("-0:1:w"), mark_y("+0:1:w"));
}

// Moves played from a state (how the explorer walks a custom start) reach the position the same
// moves reach from the variant whose start the state is; the API says which parameter is wrong.
TEST_F(RequestTest, MovesArePlayedFromTheStateGiven) {
  const std::string standard =
      "[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]";
  const std::string line = "1. e3 / e6 2. Nf3";
  Result<Json> from_state =
      RunPosition(Make("position", {{"state", standard}, {"moves", line}}, kApiSpelling));
  ASSERT_TRUE(from_state.ok()) << from_state.error().message();
  Result<Json> from_start = RunPosition(Make("position", {{"moves", line}}, kApiSpelling));
  ASSERT_TRUE(from_start.ok());
  EXPECT_EQ(from_state.value()["fen"], from_start.value()["fen"]);
  EXPECT_EQ(from_state.value()["to_move"], "black");
  // The last action's moves are drawn as from the variant's start.
  EXPECT_EQ(DumpJson(from_state.value()["picture"]["moves"]),
            DumpJson(from_start.value()["picture"]["moves"]));

  // find and tree count the games that reached it, as with the moves alone.
  Result<FindAnswer> found = RunFind(
      *store_, Make("find", {{"state", standard}, {"moves", "1. e3 / e6"}, {"count", "true"}}));
  ASSERT_TRUE(found.ok()) << found.error().message();
  Result<FindAnswer> alone =
      RunFind(*store_, Make("find", {{"moves", "1. e3 / e6"}, {"count", "true"}}));
  ASSERT_TRUE(alone.ok());
  EXPECT_GT(*alone.value().count, 0);
  EXPECT_EQ(found.value().count, alone.value().count);

  Result<Json> bad_move =
      RunPosition(Make("position", {{"state", standard}, {"moves", "1. e3 / e9"}}, kApiSpelling));
  ASSERT_FALSE(bad_move.ok());
  ASSERT_TRUE(bad_move.error().place().has_value());
  EXPECT_EQ(bad_move.error().place()->parameter, "moves");
  EXPECT_EQ(bad_move.error().place()->column, 9u);
  Result<Json> bad_state =
      RunPosition(Make("position", {{"state", "[8/8:0:1:w"}, {"moves", "e3"}}, kApiSpelling));
  ASSERT_FALSE(bad_state.ok());
  EXPECT_FALSE(bad_state.error().place().has_value());
  EXPECT_EQ(bad_state.error().message(), "--state: board 1 has no closing ']'");
}

// position: the board size and the 5DFEN of the position picture draws.
TEST_F(RequestTest, PositionSaysTheBoardSizeAndFen) {
  Result<Json> start = RunPosition(Make("position", {}, kApiSpelling));
  ASSERT_TRUE(start.ok());
  // The picture (picture_scene.h, tested in picture_test.cc) apart: one board here.
  EXPECT_EQ(start.value()["picture"]["boards"].size(), 1u);
  start.value().erase("picture");
  EXPECT_EQ(
      DumpJson(start.value()),
      R"({"width":8,"height":8,"to_move":"white","fen":"[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]"})");
  Result<Json> small = RunPosition(Make("position", {{"variant", "very small"}}, kApiSpelling));
  ASSERT_TRUE(small.ok());
  small.value().erase("picture");
  EXPECT_EQ(
      DumpJson(small.value()),
      R"({"width":4,"height":4,"to_move":"white","fen":"[nbr*k*/p*p*p*p*/P*P*P*P*/K*R*BN:0:1:w]"})");
  Result<Json> after = RunPosition(Make("position", {{"moves", "e3"}}, kApiSpelling));
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after.value()["to_move"], "black");
  EXPECT_NE(after.value()["fen"].get<std::string>().find("/4P3/P*P*P*P*1P*P*P*/R*NBQK*BNR*:0:1:b]"),
            std::string::npos);
  Result<Json> custom = RunPosition(Make("position", {{"variant", "custom"}}, kApiSpelling));
  ASSERT_FALSE(custom.ok());
  EXPECT_EQ(custom.error().message(), "a position of custom games needs state");
  EXPECT_EQ(CheckMessage(Make("position", {{"columns", "3"}}, kApiSpelling)),
            "position does not take columns (docs/http-api.md lists the parameters of each "
            "endpoint)");
  // A board to outline, as the explorer asks when a board is chosen under its picture.
  Result<Json> marked = RunPosition(Make("position", {{"mark", "0:1:w"}}, kApiSpelling));
  ASSERT_TRUE(marked.ok());
  EXPECT_EQ(DumpJson(marked.value()["picture"]["marks"]), "[[0,0]]");
}

// pattern: reads patterns as find does, without a database; a pattern that does not read says
// which it is and where, as find says it.
TEST_F(RequestTest, PatternReadsPatternsAsFindDoes) {
  Request two = Make("pattern", {{"pattern", "[8/8/8/8/8/8/8/4K*3]"}}, kApiSpelling);
  two.params["pattern"].push_back(
      "?????"
      "/5/5/5/[^Pp.]4:+1:*:w");
  Result<Json> read = RunPattern(two);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(DumpJson(read.value()),
            R"([{"pattern":"8/8/8/8/8/8/8/4K*3","width":8,"height":8},)"
            R"({"pattern":"?????/5/5/5/[WKCQYSNRBUDwkcqysnrbud]4:+1:*:w","width":5,"height":5}])");

  Request bad = Make("pattern", {{"pattern", "8/8/8/8/8/8/8/8"}}, kApiSpelling);
  bad.params["pattern"].push_back("8/8/8/8/8/8/8/7X");
  Result<Json> refused = RunPattern(bad);
  ASSERT_FALSE(refused.ok());
  const Status& error = refused.error();
  EXPECT_EQ(error.message(),
            "pattern: col 16: unknown piece letter or token 'X'\n  8/8/8/8/8/8/8/7X\n"
            "                 ^");
  ASSERT_TRUE(error.place().has_value());
  EXPECT_EQ(error.place()->parameter, "pattern");
  EXPECT_EQ(error.place()->index, 1);
  EXPECT_EQ(error.place()->column, 16u);
  EXPECT_EQ(error.place()->reason, "unknown piece letter or token 'X'");
  // find refuses it with the same error, before it searches.
  bad.command = "find";
  Result<FindAnswer> found = RunFind(*store_, bad);
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.error().message(), error.message());
  ASSERT_TRUE(found.error().place().has_value());
  EXPECT_EQ(found.error().place()->index, 1);

  Result<Json> none = RunPattern(Make("pattern", {}, kApiSpelling));
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message(),
            "pattern reads the patterns given as pattern, and none was given");
  // Other mistakes say no place.
  Result<FindAnswer> date = RunFind(*store_, Make("find", {{"date-from", "March"}}));
  ASSERT_FALSE(date.ok());
  EXPECT_FALSE(date.error().place().has_value());
}

// A game from an archive is shown with the member it came from, as 5d-index names it.
TEST_F(RequestTest, ShowNamesTheArchiveMemberAGameCameFrom) {
  std::ifstream in(FIVED_SOURCE_DIR "/corpus/club-games.5dpgn", std::ios::binary);
  std::ostringstream games;
  games << in.rdbuf();
  const std::string zip = dir_->File("club.zip");
  testing::WritePacked(zip, testing::Packing::kZip, {{"club/games.5dpgn", games.str()}});
  const std::string database = dir_->File("zip.sqlite");
  ASSERT_EQ(RunIndexer(database, {zip}), 0);
  Result<GameStore> store = GameStore::Open(database);
  ASSERT_TRUE(store.ok());
  Request show = Make("show", {});
  show.args = {"2"};
  Result<ShowAnswer> game = RunShow(store.value(), show);
  ASSERT_TRUE(game.ok()) << game.error().message();
  const std::string text = ShowText(game.value());
  const size_t offset = games.str().find("[Event", 1);
  EXPECT_NE(text.find("\nSource: " + std::filesystem::absolute(zip).string() +
                      ":club/games.5dpgn (game 2, byte " + std::to_string(offset) + ")\n"),
            std::string::npos)
      << text;
  Result<Json> json = ShowJson(store.value(), game.value());
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(json.value()["member"], "club/games.5dpgn");
  // A game read from a file has no member.
  show.args = {"1"};
  Result<ShowAnswer> plain = RunShow(*store_, show);
  ASSERT_TRUE(plain.ok());
  Result<Json> plain_json = ShowJson(*store_, plain.value());
  ASSERT_TRUE(plain_json.ok());
  EXPECT_TRUE(plain_json.value()["member"].is_null());
  EXPECT_NE(ShowText(plain.value()).find("club-games.5dpgn (game 1, byte 0)"), std::string::npos);
}

}  // namespace
}  // namespace fived
