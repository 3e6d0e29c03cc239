// Pictures of a position (query/picture.h): which boards the text picture draws and where, the
// row labels, the present and inactive marks, column cutting, and that the SVG picture is
// well-formed, shows every piece and draws one arrow per move. Positions come from replayed
// games, from 5DFEN boards and from the random game generator; no picture is kept as a golden
// blob, so the layout may change while what it shows stays pinned.
#include "query/picture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/replay.h"
#include "tests/core/test_util.h"
#include "tests/support/random_game.h"

namespace fived {
namespace {

using ::fived::testing::MakePosition;

// White branches at its fourth move: timeline 0 runs T1 w..T4 b, +1 holds one board at T3 b,
// which is the present.
constexpr std::string_view kBranchingGame =
    "[Board \"Standard\"]\n"
    "1. e3 / Nf6 2. Nf3 / Nc6 3. Bb5 / Nb4 4. (0T4)Nb1>>(0T3)b3\n";
constexpr std::string_view kEvenGame =
    "[Board \"Standard - Two Timelines\"]\n"
    "1. (-0T1)Nf3 (+0T1)Nf3 / (-0T1)Nf6 (+0T1)Nf6\n";
constexpr std::string_view kTurnZeroGame = "[Board \"Standard - Turn Zero\"]\n1. e3\n";
constexpr std::string_view kStandardStart =
    "[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*:0:1:w]";
// Every piece type of both colours on a 16x16 board: the 5D-only pieces first.
constexpr std::string_view kEveryPiece16 =
    "[wcysudkqrbnp4/16/16/16/16/16/16/16/16/16/16/16/16/16/16/WCYSUDKQRBNP4:0:1:w]";

std::optional<Replayer> Replay(std::string_view text) {
  SyntaxResult syntax = ParseGameSyntax(text);
  if (!syntax.status.ok()) {
    ADD_FAILURE() << "syntax error: " << syntax.status.place()->reason << " at "
                  << syntax.status.place()->token;
    return std::nullopt;
  }
  ReplayOutcome outcome = ReplayGame(syntax.game);
  if (!outcome.status.ok()) {
    ADD_FAILURE() << outcome.status.message();
    return std::nullopt;
  }
  return std::move(outcome.replayer);
}

// SVG options with one field set. (Designated initializers would leave the title to its default
// member initializer, which GCC's -Wmissing-field-initializers reports.)
SvgPictureOptions SvgColumns(int max_columns) {
  SvgPictureOptions options;
  options.max_columns = max_columns;
  return options;
}
SvgPictureOptions SvgSquareSize(int square_size) {
  SvgPictureOptions options;
  options.square_size = square_size;
  return options;
}
SvgPictureOptions SvgTitle(std::string title) {
  SvgPictureOptions options;
  options.title = std::move(title);
  return options;
}

std::vector<Move> LastAction(const Replayer& replayer) {
  std::vector<Move> moves;
  if (replayer.actions().empty()) return moves;
  for (const PlayedMove& played : replayer.actions().back().moves) moves.push_back(played.move);
  return moves;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

size_t Count(std::string_view text, std::string_view needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

// A text picture cut into its parts: the lines above the column header, the header (the first
// line that starts with a space: the summary and the notice start with words) and the rows.
struct TextParts {
  std::vector<std::string> head;
  std::string header;
  std::vector<std::string> body;
};

TextParts Split(const std::string& text) {
  TextParts parts;
  bool seen_header = false;
  for (std::string& line : Lines(text)) {
    if (seen_header) {
      parts.body.push_back(std::move(line));
    } else if (!line.empty() && line[0] == ' ') {
      parts.header = std::move(line);
      seen_header = true;
    } else {
      parts.head.push_back(std::move(line));
    }
  }
  return parts;
}

bool IsBoardRank(std::string_view token, int width) {
  if (static_cast<int>(token.size()) != width) return false;
  for (const char c : token) {
    if (c != '.' && PieceTypeFromLetter(c) == PieceType::kNone) return false;
  }
  return true;
}

// The rank texts of all boards in the rows, in reading order. Each board gives `height` of them.
std::vector<std::string> BoardRanks(const TextParts& parts, int width) {
  std::vector<std::string> ranks;
  for (const std::string& line : parts.body) {
    std::istringstream words(line);
    for (std::string word; words >> word;) {
      if (IsBoardRank(word, width)) ranks.push_back(word);
    }
  }
  return ranks;
}

// The first line of each timeline's row (the one with its label), in order.
std::vector<std::string> RowFirstLines(const TextParts& parts) {
  std::vector<std::string> lines;
  bool row_start = true;
  for (const std::string& line : parts.body) {
    if (line.empty()) {
      row_start = true;
      continue;
    }
    if (row_start) lines.push_back(line);
    row_start = false;
  }
  return lines;
}

void ExpectNoTrailingSpaces(const std::string& text) {
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  for (const std::string& line : Lines(text)) {
    EXPECT_TRUE(line.empty() || line.back() != ' ') << "trailing space in \"" << line << "\"";
  }
}

// A small check that a document is well-formed XML as far as this test needs: tags balance,
// attribute values are quoted, '<' appears only in markup and every '&' starts an entity.
// Returns an empty string or what is wrong.
std::string CheckXml(std::string_view xml) {
  std::vector<std::string> open;
  size_t i = 0;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      const size_t end = xml.find(';', i);
      if (end == std::string_view::npos || end - i > 8) return "bare & at " + std::to_string(i);
      const std::string_view entity = xml.substr(i, end - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
          entity != "&apos;" && entity.substr(0, 3) != "&#x") {
        return "unknown entity " + std::string(entity);
      }
      i = end + 1;
      continue;
    }
    if (xml[i] != '<') {
      if (xml[i] == '>') return "bare > at " + std::to_string(i);
      ++i;
      continue;
    }
    if (xml.substr(i, 2) == "<?") {
      const size_t end = xml.find("?>", i);
      if (end == std::string_view::npos) return "unclosed <?";
      i = end + 2;
      continue;
    }
    // Find the end of the tag, skipping quoted attribute values.
    size_t end = i + 1;
    char quote = 0;
    for (; end < xml.size(); ++end) {
      const char c = xml[end];
      if (quote != 0) {
        if (c == quote) quote = 0;
        if (c == '<') return "< inside an attribute value";
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        break;
      } else if (c == '<') {
        return "< inside a tag at " + std::to_string(end);
      }
    }
    if (end >= xml.size()) return "unclosed tag at " + std::to_string(i);
    const std::string_view tag = xml.substr(i + 1, end - i - 1);
    const bool closing = !tag.empty() && tag[0] == '/';
    const bool self_closing = !tag.empty() && tag.back() == '/';
    const std::string_view rest = closing ? tag.substr(1) : tag;
    const std::string name(rest.substr(0, rest.find_first_of(" \n/")));
    if (name.empty()) return "empty tag name at " + std::to_string(i);
    if (closing) {
      if (open.empty() || open.back() != name) return "unexpected </" + name + ">";
      open.pop_back();
      if (open.empty() && xml.find('<', end) != std::string_view::npos) {
        return "content after the root element";
      }
    } else if (!self_closing) {
      if (open.empty() && name != "svg") return "root element is <" + name + ">";
      open.push_back(name);
    }
    i = end + 1;
  }
  if (!open.empty()) return "unclosed <" + open.back() + ">";
  return "";
}

// The value of the first `name="..."` attribute from `from` on, as a number.
double Attribute(std::string_view text, std::string_view name, size_t from = 0) {
  const std::string key = " " + std::string(name) + "=\"";
  const size_t at = text.find(key, from);
  if (at == std::string_view::npos) {
    ADD_FAILURE() << "no attribute " << name;
    return 0;
  }
  return std::stod(std::string(text.substr(at + key.size())));
}

void ExpectWellFormedSvg(const std::string& svg) {
  EXPECT_EQ(CheckXml(svg), "");
  EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0), 0u);
  const size_t root = svg.find("<svg ");
  EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\"", root), std::string::npos);
  const double width = Attribute(svg, "width", root);
  const double height = Attribute(svg, "height", root);
  EXPECT_GT(width, 0);
  EXPECT_GT(height, 0);
  const std::string view_box = "viewBox=\"0 0 " + std::to_string(static_cast<int>(width)) + " " +
                               std::to_string(static_cast<int>(height)) + "\"";
  EXPECT_NE(svg.find(view_box), std::string::npos);
}

// A standard start, then white twice creates a timeline from T1 b while black creates none, so
// that +1 is active and +2 is not.
Position PositionWithInactiveTimeline() {
  Position pos = MakePosition({std::string(kStandardStart)});
  const Board start = pos.Tip(0);
  pos.Append(0, start);
  EXPECT_EQ(pos.CreateTimeline(Color::kWhite, HalfTurn(1, Color::kBlack), start), 1);
  EXPECT_EQ(pos.CreateTimeline(Color::kWhite, HalfTurn(1, Color::kBlack), start), 2);
  EXPECT_TRUE(pos.IsActive(1));
  EXPECT_FALSE(pos.IsActive(2));
  return pos;
}

TEST(TextPicture, DrawsEveryBoardOfABranchingGame) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const Position& pos = game->position();
  ASSERT_EQ(pos.board_count(), 9u);
  const std::string text = TextPicture(pos);
  ExpectNoTrailingSpaces(text);
  const TextParts parts = Split(text);

  ASSERT_EQ(parts.head.size(), 1u);
  EXPECT_EQ(parts.head[0], "Present: T3 b (black to move). Timelines: 2 (all active). Boards: 9.");
  const std::vector<std::string> ranks = BoardRanks(parts, 8);
  EXPECT_EQ(ranks.size(), 9u * 8u);
  EXPECT_EQ(Count(text, "rnbqkbnr"), 2u);  // the start and T1 b: black's back rank untouched
  EXPECT_EQ(Count(text, "RNBQKBNR"), 3u);  // until T2 w
  // Timeline +1 starts from 0T3 w with the knight from b1 on b3.
  EXPECT_NE(text.find(".N..PN.."), std::string::npos);
  // One header label per half-turn T1 w .. T4 b.
  for (const std::string_view label :
       {"T1 w", "T1 b", "T2 w", "T2 b", "T3 w", "T3 b", "T4 w", "T4 b"}) {
    EXPECT_EQ(Count(parts.header, label), 1u) << label;
  }
}

TEST(TextPicture, RowsRunFromTheHighestTimelineDown) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const std::vector<std::string> rows = RowFirstLines(Split(TextPicture(game->position())));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].rfind("+1 ", 0), 0u) << rows[0];
  EXPECT_EQ(rows[1].rfind(" 0 ", 0), 0u) << rows[1];
}

TEST(TextPicture, PresentMarkerIsOverThePresentColumn) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const TextParts parts = Split(TextPicture(game->position()));
  EXPECT_EQ(Count(parts.header, "<"), 1u);
  const size_t marker = parts.header.find("T3 b<");
  ASSERT_NE(marker, std::string::npos) << parts.header;
  // +1's only board is at the present, T3 b: its grid starts below the marked label.
  const std::string plus_one = RowFirstLines(parts)[0];
  EXPECT_EQ(plus_one.find_first_not_of(' ', plus_one.find(' ')), marker) << plus_one;
}

TEST(TextPicture, MarksInactiveTimelines) {
  const std::string text = TextPicture(PositionWithInactiveTimeline());
  ExpectNoTrailingSpaces(text);
  const TextParts parts = Split(text);
  ASSERT_FALSE(parts.head.empty());
  EXPECT_NE(parts.head[0].find("Timelines: 3 (1 inactive)"), std::string::npos) << parts.head[0];
  const std::vector<std::string> rows = RowFirstLines(parts);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].rfind("+2 inactive  ", 0), 0u) << rows[0];
  EXPECT_EQ(rows[1].find("inactive"), std::string::npos) << rows[1];
  EXPECT_EQ(rows[1].rfind("+1 ", 0), 0u) << rows[1];
  EXPECT_EQ(rows[2].rfind(" 0 ", 0), 0u) << rows[2];
  EXPECT_EQ(BoardRanks(parts, 8).size(), 4u * 8u);
}

TEST(TextPicture, MaxColumnsKeepsTheLatestColumns) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  struct Case {
    int max_columns;
    std::string notice;  // empty: nothing is cut
    std::string first_label;
    size_t boards;
  };
  const std::vector<Case> cases = {
      {0, "", "T1 w", 9},
      {8, "", "T1 w", 9},
      {100, "", "T1 w", 9},
      {7, "Not shown: 1 earlier half-turn column, T1 w.", "T1 b", 8},
      {3, "Not shown: 5 earlier half-turn columns, T1 w to T3 w.", "T3 b<", 4},
      {1, "Not shown: 7 earlier half-turn columns, T1 w to T4 w.", "T4 b", 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("max_columns " + std::to_string(c.max_columns));
    const std::string text = TextPicture(game->position(), {.max_columns = c.max_columns});
    ExpectNoTrailingSpaces(text);
    const TextParts parts = Split(text);
    ASSERT_EQ(parts.head.size(), c.notice.empty() ? 1u : 2u);
    if (!c.notice.empty()) {
      EXPECT_EQ(parts.head[1], c.notice);
    }
    std::istringstream header(parts.header);
    std::string turn, color;
    header >> turn >> color;
    EXPECT_EQ(turn + " " + color, c.first_label);
    EXPECT_EQ(BoardRanks(parts, 8).size(), c.boards * 8);
    // Both timelines keep their rows even when one has no board left in the window.
    EXPECT_EQ(RowFirstLines(parts).size(), 2u);
  }
}

TEST(TextPicture, EvenStartLabelsMinusZeroAndPlusZero) {
  const std::optional<Replayer> game = Replay(kEvenGame);
  ASSERT_TRUE(game.has_value());
  const TextParts parts = Split(TextPicture(game->position()));
  const std::vector<std::string> rows = RowFirstLines(parts);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].rfind("+0 ", 0), 0u) << rows[0];
  EXPECT_EQ(rows[1].rfind("-0 ", 0), 0u) << rows[1];
  EXPECT_EQ(BoardRanks(parts, 8).size(), 6u * 8u);
}

TEST(TextPicture, TurnZeroGameStartsAtTurnZeroBlack) {
  const std::optional<Replayer> game = Replay(kTurnZeroGame);
  ASSERT_TRUE(game.has_value());
  const TextParts parts = Split(TextPicture(game->position()));
  std::istringstream header(parts.header);
  std::vector<std::string> words;
  for (std::string word; header >> word;) words.push_back(word);
  EXPECT_EQ(words, (std::vector<std::string>{"T0", "b", "T1", "w", "T1", "b<"}));
  EXPECT_EQ(parts.head[0].rfind("Present: T1 b (black to move).", 0), 0u) << parts.head[0];
}

TEST(TextPicture, UnicodePiecesAreOptional) {
  const Position pos = MakePosition({std::string(kStandardStart)});
  const std::string letters = TextPicture(pos);
  EXPECT_NE(letters.find("rnbqkbnr"), std::string::npos);
  EXPECT_EQ(letters.find("\u265C"), std::string::npos);

  const std::string symbols = TextPicture(pos, {.unicode = true});
  ExpectNoTrailingSpaces(symbols);
  EXPECT_NE(symbols.find("\u265C\u265E\u265D\u265B\u265A\u265D\u265E\u265C"), std::string::npos);
  EXPECT_NE(symbols.find("\u2656\u2658\u2657\u2655\u2654\u2657\u2658\u2656"), std::string::npos);
  EXPECT_NE(symbols.find("\u265F\u265F\u265F\u265F\u265F\u265F\u265F\u265F"), std::string::npos);
  EXPECT_EQ(symbols.find("rnbqkbnr"), std::string::npos);
  // The 5D-only pieces keep their letters.
  const std::string fairy =
      TextPicture(MakePosition({std::string(kEveryPiece16)}), {.unicode = true});
  EXPECT_NE(fairy.find("wcysud\u265A\u265B\u265C\u265D\u265E\u265F...."), std::string::npos);
  EXPECT_NE(fairy.find("WCYSUD\u2654\u2655\u2656\u2657\u2658\u2659...."), std::string::npos);
}

// A marked board's ranks are bracketed in the gaps beside it: the squares stay in place.
TEST(TextPicture, MarkedBoardsAreBracketed) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const Position& pos = game->position();
  TextPictureOptions options;
  options.marked = {{1, HalfTurn(3, Color::kBlack)}, {0, HalfTurn(4, Color::kWhite)}};
  const std::string text = TextPicture(pos, options);
  ExpectNoTrailingSpaces(text);
  const std::vector<std::string> lines = Lines(text);
  const std::vector<std::string> plain = Lines(TextPicture(pos));
  ASSERT_EQ(lines.size(), plain.size());
  size_t bracketed = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] == plain[i]) continue;
    ++bracketed;
    // Only brackets were added, each in a gap of the picture without them.
    std::string without = lines[i];
    std::replace(without.begin(), without.end(), '[', ' ');
    std::replace(without.begin(), without.end(), ']', ' ');
    while (!without.empty() && without.back() == ' ') without.pop_back();
    EXPECT_EQ(without, plain[i]);
  }
  EXPECT_EQ(bracketed, 16u);  // the ranks of +1's row and of timeline 0's
  // +1 T3 b holds the board with the knight on b3 (".N..PN.." on the third rank).
  EXPECT_NE(text.find("[.N..PN..]"), std::string::npos);
  EXPECT_EQ(Count(text, "["), 16u);
  EXPECT_EQ(Count(text, "]"), 16u);
  // A board the position does not have changes nothing.
  options.marked = {{7, 3}};
  EXPECT_EQ(TextPicture(pos, options), TextPicture(pos));
}

TEST(TextPicture, EmptyPosition) {
  EXPECT_EQ(TextPicture(Position()), "No boards.\n");
  EXPECT_EQ(TextPicture(Position(), {.max_columns = 3, .unicode = true}), "No boards.\n");
}

// Boards of every size draw as grids of their own width and height, in text and SVG.
TEST(Pictures, BoardSizesFrom1x1To16x16) {
  struct Case {
    std::vector<std::string> fens;
    int width;
    int height;
    std::vector<std::string> ranks;  // that must appear in the text
  };
  const std::vector<Case> cases = {
      {{"[K:0:1:w]"}, 1, 1, {"K"}},
      {{"[k:0:1:w]", "[K:1:1:w]", "[1:-1:1:w]"}, 1, 1, {"k", "K"}},
      {{"[2k/3/3/3/K2:0:1:w]"}, 3, 5, {"..k", "K.."}},
      {{"[4/1k2/4/K3:+0:1:w]", "[4/1k2/4/K3:-0:1:w]"}, 4, 4, {".k..", "K..."}},
      {{std::string(kEveryPiece16)}, 16, 16, {"wcysudkqrbnp....", "WCYSUDKQRBNP...."}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fens[0]);
    const Position pos = MakePosition(c.fens);
    ASSERT_EQ(pos.board_count(), c.fens.size());
    const std::string text = TextPicture(pos);
    ExpectNoTrailingSpaces(text);
    const std::vector<std::string> ranks = BoardRanks(Split(text), c.width);
    EXPECT_EQ(ranks.size(), c.fens.size() * static_cast<size_t>(c.height));
    for (const std::string& rank : c.ranks) {
      EXPECT_NE(std::find(ranks.begin(), ranks.end(), rank), ranks.end()) << rank;
    }
    const std::string svg = SvgPicture(pos);
    ExpectWellFormedSvg(svg);
    EXPECT_EQ(Count(svg, "<g transform="), c.fens.size());
  }
}

// Half-turns without any board get no column, so a far-apart custom start stays small.
TEST(Pictures, HalfTurnsWithoutBoardsGetNoColumn) {
  const Position pos = MakePosition({"[K:0:1:w]", "[k:1:500:b]"});
  const TextParts parts = Split(TextPicture(pos));
  std::istringstream header(parts.header);
  std::vector<std::string> words;
  for (std::string word; header >> word;) words.push_back(word);
  EXPECT_EQ(words, (std::vector<std::string>{"T1", "w<", "T500", "b"}));
  EXPECT_EQ(BoardRanks(parts, 1), (std::vector<std::string>{"k", "K"}));
  const std::string svg = SvgPicture(pos);
  ExpectWellFormedSvg(svg);
  EXPECT_LT(Attribute(svg, "width", svg.find("<svg ")), 1000);
}

TEST(SvgPicture, IsAWellFormedStandaloneDocument) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const std::vector<Move> moves = LastAction(*game);
  for (const int max_columns : {0, 1, 3}) {
    SCOPED_TRACE(max_columns);
    const std::string svg = SvgPicture(game->position(), moves, SvgColumns(max_columns));
    ExpectWellFormedSvg(svg);
  }
  ExpectWellFormedSvg(SvgPicture(Position()));
  EXPECT_NE(SvgPicture(Position()).find("No boards."), std::string::npos);
  // The checker itself catches what it is for.
  EXPECT_EQ(CheckXml("<svg><g></svg>"), "unexpected </svg>");
  EXPECT_EQ(CheckXml("<svg><text>a & b</text></svg>"), "bare & at 13");
  EXPECT_EQ(CheckXml("<svg><text>"), "unclosed <text>");
}

TEST(SvgPicture, OneArrowPerMoveOfTheLastAction) {
  struct Case {
    std::string_view game;
    size_t arrows;
  };
  const std::vector<Case> cases = {
      {kBranchingGame, 1},
      {kEvenGame, 2},
      {kTurnZeroGame, 1},
      {"[Board \"Standard\"]\n1. e4 / e5 2. Nf3 / Nc6 3. Bc4 / Nf6 4. O-O\n", 1},
      {"[Board \"Standard - Turn Zero\"]\n1. e3 / (0T1)Ng8>>(0T0)g6\n", 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.game);
    SyntaxResult syntax = ParseGameSyntax(c.game);
    ASSERT_TRUE(syntax.status.ok());
    const ReplayOutcome outcome = ReplayGame(syntax.game);
    ASSERT_TRUE(outcome.replayer.has_value());
    const std::vector<Move> moves = LastAction(*outcome.replayer);
    EXPECT_EQ(moves.size(), c.arrows);
    const std::string svg = SvgPicture(outcome.replayer->position(), moves);
    ExpectWellFormedSvg(svg);
    EXPECT_EQ(Count(svg, "<path class=\"arrow\""), c.arrows);
    EXPECT_EQ(Count(svg, "marker-end=\"url(#arrowhead)\""), c.arrows);
  }
}

TEST(SvgPicture, JumpArrowGoesFromSourceSquareToTargetSquare) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const std::vector<Move> moves = LastAction(*game);
  ASSERT_EQ(moves.size(), 1u);
  constexpr int kSquare = 10;
  const std::string svg = SvgPicture(game->position(), moves, SvgSquareSize(kSquare));
  // The boards' corners give the columns' x and the rows' y.
  std::vector<int> xs, ys;
  constexpr std::string_view kTranslate = "<g transform=\"translate(";
  for (size_t at = svg.find(kTranslate); at != std::string::npos;
       at = svg.find(kTranslate, at + 1)) {
    std::istringstream in(svg.substr(at + kTranslate.size()));
    int x = 0, y = 0;
    char comma = 0;
    in >> x >> comma >> y;
    if (std::find(xs.begin(), xs.end(), x) == xs.end()) xs.push_back(x);
    if (std::find(ys.begin(), ys.end(), y) == ys.end()) ys.push_back(y);
  }
  std::sort(xs.begin(), xs.end());
  std::sort(ys.begin(), ys.end());
  ASSERT_EQ(xs.size(), 8u);  // T1 w .. T4 b
  ASSERT_EQ(ys.size(), 2u);  // +1 above 0
  const size_t arrow = svg.find("<path class=\"arrow\"");
  ASSERT_NE(arrow, std::string::npos);
  // A jump between boards curves: "M x1 y1 Q cx cy x2 y2".
  const size_t path = svg.find(" d=\"", arrow) + 4;
  std::istringstream d(svg.substr(path, svg.find('"', path) - path));
  char m = 0, q = 0;
  double x1 = 0, y1 = 0, cx = 0, cy = 0, x2 = 0, y2 = 0;
  d >> m >> x1 >> y1 >> q >> cx >> cy >> x2 >> y2;
  EXPECT_EQ(m, 'M');
  EXPECT_EQ(q, 'Q');
  // From b1 on 0T4 w (column 6, the board's bottom rank) to b3 on 0T3 w (column 4, third rank
  // from the bottom): square centres on timeline 0's row.
  EXPECT_DOUBLE_EQ(x1, xs[6] + 1.5 * kSquare);
  EXPECT_DOUBLE_EQ(y1, ys[1] + 7.5 * kSquare);
  EXPECT_DOUBLE_EQ(x2, xs[4] + 1.5 * kSquare);
  EXPECT_DOUBLE_EQ(y2, ys[1] + 5.5 * kSquare);
}

TEST(SvgPicture, MovesOffTheDrawnBoardsGetNoArrow) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const Position& pos = game->position();
  // The jump's source (T4 w) and target (T3 w) columns are cut away.
  EXPECT_EQ(Count(SvgPicture(pos, LastAction(*game), SvgColumns(1)), "class=\"arrow\""), 0u);
  Move missing_board;  // timeline +5 does not exist
  missing_board.src_timeline = 5;
  missing_board.src_half = 2;
  missing_board.dst_timeline = 5;
  missing_board.dst_half = 2;
  Move off_board;
  off_board.src_timeline = 0;
  off_board.src_half = 2;
  off_board.from = Square{15, 15};
  off_board.dst_timeline = 0;
  off_board.dst_half = 2;
  Move before_start = off_board;
  before_start.from = Square{0, 0};
  before_start.src_half = -7;
  const std::vector<Move> bogus = {missing_board, off_board, before_start};
  const std::string svg = SvgPicture(pos, bogus);
  ExpectWellFormedSvg(svg);
  EXPECT_EQ(Count(svg, "class=\"arrow\""), 0u);
}

TEST(SvgPicture, ClassicalPiecesAreChessSymbols) {
  struct Case {
    std::string_view symbol;
    size_t count;
  };
  const std::vector<Case> cases = {
      {"\u2654", 1}, {"\u2655", 1}, {"\u2656", 2}, {"\u2657", 2}, {"\u2658", 2}, {"\u2659", 8},
      {"\u265A", 1}, {"\u265B", 1}, {"\u265C", 2}, {"\u265D", 2}, {"\u265E", 2}, {"\u265F", 8},
  };
  const std::string svg = SvgPicture(MakePosition({std::string(kStandardStart)}));
  for (const Case& c : cases) EXPECT_EQ(Count(svg, c.symbol), c.count) << c.symbol;
  EXPECT_EQ(Count(svg, "class=\"piece\""), 32u);
  EXPECT_EQ(Count(svg, "<circle"), 0u);
}

TEST(SvgPicture, PieceCountsMatchTheTextPicture) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const std::string text = TextPicture(game->position());
  const std::string svg = SvgPicture(game->position());
  struct Case {
    char letter;
    std::string_view symbol;
  };
  const std::vector<Case> cases = {
      {'K', "\u2654"}, {'Q', "\u2655"}, {'R', "\u2656"}, {'B', "\u2657"},
      {'N', "\u2658"}, {'P', "\u2659"}, {'k', "\u265A"}, {'q', "\u265B"},
      {'r', "\u265C"}, {'b', "\u265D"}, {'n', "\u265E"}, {'p', "\u265F"},
  };
  std::string ranks;
  for (const std::string& rank : BoardRanks(Split(text), 8)) ranks += rank;
  for (const Case& c : cases) {
    const size_t letters = Count(ranks, std::string(1, c.letter));
    EXPECT_GT(letters, 0u) << c.letter;
    EXPECT_EQ(Count(svg, c.symbol), letters) << c.letter;
  }
}

TEST(SvgPicture, FiveDPiecesAreLetteredDiscsWithTitles) {
  const std::string svg = SvgPicture(MakePosition({std::string(kEveryPiece16)}));
  ExpectWellFormedSvg(svg);
  for (const std::string_view color : {"white", "black"}) {
    for (const std::string_view name :
         {"brawn", "common king", "royal queen", "princess", "unicorn", "dragon"}) {
      const std::string title =
          "<title>" + std::string(color) + " " + std::string(name) + "</title>";
      EXPECT_EQ(Count(svg, title), 1u) << title;
    }
  }
  EXPECT_EQ(Count(svg, "<circle"), 12u);
  EXPECT_EQ(Count(svg, "class=\"piece\""), 12u);
  for (const std::string_view letter : {">W<", ">C<", ">Y<", ">S<", ">U<", ">D<"}) {
    EXPECT_EQ(Count(svg, letter), 2u) << letter;  // one white, one black
  }
}

TEST(SvgPicture, LabelsTimelinesAndTurnsAndMarksThePresent) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const std::string svg = SvgPicture(game->position());
  EXPECT_EQ(Count(svg, ">+1</text>"), 1u);
  EXPECT_EQ(Count(svg, ">0</text>"), 1u);
  for (const std::string_view label :
       {"T1 w", "T1 b", "T2 w", "T2 b", "T3 w", "T3 b", "T4 w", "T4 b"}) {
    EXPECT_EQ(Count(svg, ">" + std::string(label) + "</text>"), 1u) << label;
  }
  EXPECT_EQ(Count(svg, "<rect class=\"present\""), 1u);
  EXPECT_EQ(Count(svg, "font-weight=\"bold\">T3 b</text>"), 1u);
  EXPECT_EQ(Count(svg, ">present</text>"), 1u);
  EXPECT_EQ(Count(svg, "<g transform="), 9u);
  // Cutting the present's column away leaves nothing highlighted.
  const std::string cut = SvgPicture(game->position(), {}, SvgColumns(2));
  EXPECT_EQ(Count(cut, "class=\"present\""), 0u);
  EXPECT_NE(cut.find("Not shown: 6 earlier half-turn columns, T1 w to T3 b."), std::string::npos);
  EXPECT_EQ(Count(cut, "<g transform="), 2u);
}

TEST(SvgPicture, EvenStartLabels) {
  const std::optional<Replayer> game = Replay(kEvenGame);
  ASSERT_TRUE(game.has_value());
  const std::string svg = SvgPicture(game->position());
  EXPECT_EQ(Count(svg, ">-0</text>"), 1u);
  EXPECT_EQ(Count(svg, ">+0</text>"), 1u);
}

TEST(SvgPicture, DimsInactiveTimelines) {
  const std::string svg = SvgPicture(PositionWithInactiveTimeline());
  ExpectWellFormedSvg(svg);
  EXPECT_EQ(Count(svg, ">inactive</text>"), 1u);
  EXPECT_EQ(Count(svg, "<g opacity="), 1u);
  // The dimmed group holds +2's one board and comes first (+2 is the top row).
  const size_t dimmed = svg.find("<g opacity=");
  const size_t label = svg.find(">+2</text>");
  EXPECT_LT(label, dimmed);
  EXPECT_LT(dimmed, svg.find(">+1</text>"));
}

// Marked boards (the boards a pattern search matched): each one drawn gets one outline around
// its squares, whatever its timeline's state; one that is absent or cut away gets none.
TEST(SvgPicture, OutlinesMarkedBoards) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const Position& pos = game->position();
  constexpr int kSquare = 10;
  SvgPictureOptions options = SvgSquareSize(kSquare);
  EXPECT_EQ(Count(SvgPicture(pos, {}, options), "class=\"mark\""), 0u);
  // +1's one board (T3 b) and timeline 0's T1 w, the first column.
  options.marked = {{1, HalfTurn(3, Color::kBlack)}, {0, HalfTurn(1, Color::kWhite)}};
  const std::string svg = SvgPicture(pos, {}, options);
  ExpectWellFormedSvg(svg);
  ASSERT_EQ(Count(svg, "<rect class=\"mark\""), 2u);
  // Outlines come after every board, so that none covers one.
  EXPECT_GT(svg.find("<rect class=\"mark\""), svg.rfind("<g transform="));
  // The outline surrounds the board's corner: +1 T3 b is the top row, column 5 (T1 w is 0).
  std::vector<int> xs, ys;
  constexpr std::string_view kTranslate = "<g transform=\"translate(";
  for (size_t at = svg.find(kTranslate); at != std::string::npos;
       at = svg.find(kTranslate, at + 1)) {
    std::istringstream in(svg.substr(at + kTranslate.size()));
    int x = 0, y = 0;
    char comma = 0;
    in >> x >> comma >> y;
    if (std::find(xs.begin(), xs.end(), x) == xs.end()) xs.push_back(x);
    if (std::find(ys.begin(), ys.end(), y) == ys.end()) ys.push_back(y);
  }
  std::sort(xs.begin(), xs.end());
  std::sort(ys.begin(), ys.end());
  ASSERT_EQ(xs.size(), 8u);
  ASSERT_EQ(ys.size(), 2u);
  const size_t first = svg.find("<rect class=\"mark\"");
  const double x = Attribute(svg, "x", first), y = Attribute(svg, "y", first);
  const double width = Attribute(svg, "width", first);
  EXPECT_LT(x, xs[5]);
  EXPECT_GT(x, xs[5] - kSquare);
  EXPECT_LT(y, ys[0]);
  EXPECT_GT(x + width, xs[5] + 8 * kSquare);
  EXPECT_LT(x + width, xs[5] + 9 * kSquare);
  const size_t second = svg.find("<rect class=\"mark\"", first + 1);
  EXPECT_LT(Attribute(svg, "x", second), xs[0]);
  EXPECT_GT(Attribute(svg, "y", second), ys[1] - kSquare);

  // A board the position lacks, or one in a column cut away, is passed over.
  options.marked = {{5, 2}, {0, HalfTurn(1, Color::kWhite)}};
  options.max_columns = 3;
  EXPECT_EQ(Count(SvgPicture(pos, {}, options), "class=\"mark\""), 0u);
  // An inactive timeline's board is outlined outside its dimmed group.
  SvgPictureOptions inactive;
  inactive.marked = {{2, HalfTurn(1, Color::kBlack)}};
  const std::string dimmed = SvgPicture(PositionWithInactiveTimeline(), {}, inactive);
  ASSERT_EQ(Count(dimmed, "<rect class=\"mark\""), 1u);
  EXPECT_GT(dimmed.find("<rect class=\"mark\""), dimmed.find("</g>", dimmed.find("<g opacity=")));
}

TEST(SvgPicture, EscapesTheTitle) {
  const std::string title = "<White & \"Black\"> 'x' \x01 bad \xff\xfe utf-8 caf\xc3\xa9";
  const std::string svg =
      SvgPicture(MakePosition({std::string(kStandardStart)}), {}, SvgTitle(title));
  ExpectWellFormedSvg(svg);
  const std::string escaped =
      "&lt;White &amp; &quot;Black&quot;&gt; &apos;x&apos; \uFFFD bad \uFFFD\uFFFD utf-8 "
      "caf\xc3\xa9";
  EXPECT_EQ(Count(svg, "<title>" + escaped + "</title>"), 1u);
  EXPECT_EQ(Count(svg, ">" + escaped + "</text>"), 1u);
}

// Random legal games of every default variant, with real time travel and up to hundreds of
// boards: both pictures draw every board and every move of the last action.
TEST(Pictures, RandomGamesOfEveryVariant) {
  const std::vector<std::string> variants = DefaultCollectionVariants();
  ASSERT_FALSE(variants.empty());
  size_t most_boards = 0;
  for (size_t i = 0; i < variants.size(); ++i) {
    SCOPED_TRACE(variants[i]);
    SyntaxResult syntax = ParseGameSyntax("[Board \"" + variants[i] + "\"]\n");
    ASSERT_TRUE(syntax.status.ok());
    auto setup = SetupGame(syntax.game);
    ASSERT_TRUE(setup.ok());
    RandomGameOptions options;
    options.seed = 7 + i;
    options.min_actions = 30;
    options.max_actions = 60;
    options.jump_bias = 0.5;
    const std::optional<RandomGame> game = GenerateGame(setup.value(), options);
    ASSERT_TRUE(game.has_value());
    const Position& pos = game->final_position;
    most_boards = std::max(most_boards, pos.board_count());
    std::vector<Move> moves;
    if (!game->actions.empty()) {
      for (const PlayedMove& played : game->actions.back().moves) moves.push_back(played.move);
    }

    const std::string text = TextPicture(pos);
    ExpectNoTrailingSpaces(text);
    const TextParts parts = Split(text);
    EXPECT_EQ(BoardRanks(parts, pos.width()).size(),
              pos.board_count() * static_cast<size_t>(pos.height()));
    EXPECT_EQ(RowFirstLines(parts).size(), static_cast<size_t>(pos.timeline_count()));

    const std::string svg = SvgPicture(pos, moves, SvgTitle(variants[i]));
    ExpectWellFormedSvg(svg);
    EXPECT_EQ(Count(svg, "<g transform="), pos.board_count());
    EXPECT_EQ(Count(svg, "class=\"arrow\""), moves.size());

    for (const int max_columns : {1, 4}) {
      ExpectNoTrailingSpaces(TextPicture(pos, {.max_columns = max_columns, .unicode = true}));
      ExpectWellFormedSvg(SvgPicture(pos, moves, SvgColumns(max_columns)));
    }
  }
  EXPECT_GE(most_boards, 100u);
}

TEST(SvgPicture, BoardsCarryTheirCoordinatesAndBranchesAreDrawn) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const Position& pos = game->position();
  EXPECT_EQ(BranchSource(pos, 1), 0);
  EXPECT_EQ(BranchSource(pos, 0), std::nullopt);  // a timeline of the start
  const std::string svg = SvgPicture(pos, LastAction(*game));
  ExpectWellFormedSvg(svg);
  EXPECT_EQ(Count(svg, "class=\"board\""), static_cast<size_t>(pos.board_count()));
  EXPECT_EQ(Count(svg, "class=\"board\" data-l=\"+1\" data-t=\"3\" data-c=\"b\""), 1u);
  EXPECT_EQ(Count(svg, "class=\"board\" data-l=\"0\" data-t=\"1\" data-c=\"b\""), 1u);
  EXPECT_EQ(Count(svg, "<path class=\"branch\""), 1u);
  // The branch line leaves a board (T3 w) before the boards are drawn, under them.
  EXPECT_LT(svg.find("class=\"branch\""), svg.find("class=\"board\""));
  EXPECT_EQ(Count(svg, "class=\"check\""), 0u);
}

TEST(SvgPicture, ChecksAreRedArrowsToTheRoyalPiece) {
  const std::optional<Replayer> game = Replay("[Board \"Standard\"]\n1. e3 / f6 2. Qh5+\n");
  ASSERT_TRUE(game.has_value());
  const std::string svg = SvgPicture(game->position(), LastAction(*game));
  ExpectWellFormedSvg(svg);
  // The queen's move and its check are the same line: one blue arrow, one red.
  EXPECT_EQ(Count(svg, "<path class=\"arrow\""), 1u);
  EXPECT_EQ(Count(svg, "<path class=\"check\""), 1u);
  EXPECT_EQ(Count(svg, "marker-end=\"url(#checkhead)\""), 1u);
}

TEST(PictureJson, ListsEveryBoardWithTheSvgsGeometry) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const Position& pos = game->position();
  const Json json = PictureJson(pos, LastAction(*game), 0, {});
  EXPECT_EQ(json["boards"].size(), static_cast<size_t>(pos.board_count()));
  EXPECT_EQ(json["rows"].size(), 2u);
  EXPECT_EQ(json["rows"][0]["l"], "+1");
  EXPECT_EQ(json["columns"].size(), 8u);
  EXPECT_EQ(json["branches"].size(), 1u);
  EXPECT_EQ(json["moves"].size(), 1u);
  EXPECT_EQ(json["square"], 24);
  // Row by row, oldest first: +1's one board (T3 b), then timeline 0 from T1 w; each board's
  // squares from the eighth rank, one character a square.
  EXPECT_EQ(json["boards"][0][0], 0);
  EXPECT_EQ(json["boards"][0][1], 5);
  EXPECT_EQ(json["boards"][2][0], 1);
  EXPECT_EQ(json["boards"][2][1], 1);
  EXPECT_EQ(json["boards"][2][2],
            "rnbqkbnr/pppppppp/......../......../......../....P.../PPPP.PPP/RNBQKBNR");
}

TEST(SvgPicture, FileAndRankLabelsOnDemand) {
  const std::optional<Replayer> game = Replay(kBranchingGame);
  ASSERT_TRUE(game.has_value());
  const Position& pos = game->position();
  EXPECT_EQ(Count(SvgPicture(pos), "class=\"coordinate\""), 0u);
  SvgPictureOptions options;
  options.coordinates = true;
  const std::string svg = SvgPicture(pos, LastAction(*game), options);
  ExpectWellFormedSvg(svg);
  // Eight files and eight ranks on each board.
  EXPECT_EQ(Count(svg, "class=\"coordinate\""), 16u * static_cast<size_t>(pos.board_count()));
  EXPECT_EQ(Count(svg, ">a</text>"), static_cast<size_t>(pos.board_count()));
  EXPECT_EQ(Count(svg, ">8</text>"), static_cast<size_t>(pos.board_count()));
}

TEST(SvgPicture, BlacksTimelinesBranchToo) {
  // Timeline -1 is black's: its branch source is timeline 0, a source above it.
  const std::optional<Replayer> game =
      Replay("[Board \"Standard\"]\n1. e3 / Nf6 2. Nf3 / (0T2)Nf6>>(0T1)f4\n");
  ASSERT_TRUE(game.has_value());
  const Position& pos = game->position();
  EXPECT_EQ(BranchSource(pos, -1), 0);
  const std::string svg = SvgPicture(pos, LastAction(*game));
  EXPECT_EQ(Count(svg, "<path class=\"branch\""), 1u);
  EXPECT_EQ(Count(svg, "class=\"board\" data-l=\"-1\""), 1u);
}

}  // namespace
}  // namespace fived
