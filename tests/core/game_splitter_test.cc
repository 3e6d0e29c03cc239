// The game splitter's bounds and start points (core/game_splitter.h); how it cuts ordinary
// collections is tested with the reader in pgn_syntax_test.cc.
#include "core/game_splitter.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace fived {
namespace {

std::vector<RawGame> Split(const std::string& text, const GameSplitter::Start& start = {}) {
  std::istringstream in(text);
  GameSplitter splitter(in, start);
  std::vector<RawGame> games;
  while (std::optional<RawGame> game = splitter.Next()) games.push_back(std::move(*game));
  return games;
}

const std::string kGame = "[Board \"Standard\"]\n\n1. e3 / e6\n";

TEST(GameSplitterTest, AnOversizedGameKeepsItsHeadAndTheNextGameIsWhole) {
  // Junk longer than any game may be (no line break in it), then a game.
  const uint64_t junk = GameSplitter::kMaxGameBytes + 5'000'000;
  const std::string text = std::string(junk, 'x') + "\n\n" + kGame;
  const std::vector<RawGame> games = Split(text);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].oversized, junk + 1);  // with its line break
  EXPECT_EQ(games[0].text, std::string(GameSplitter::kKeptBytes, 'x'));
  EXPECT_EQ(games[0].first_line, 1);
  EXPECT_EQ(games[1].oversized, 0u);
  EXPECT_EQ(games[1].text, kGame);
  EXPECT_EQ(games[1].byte_offset, junk + 2);
  EXPECT_EQ(games[1].first_line, 3);
  EXPECT_EQ(games[1].index, 2);
}

TEST(GameSplitterTest, ALongRunOfBlanksBeforeAGameIsNotKept) {
  const uint64_t blanks = GameSplitter::kMaxGameBytes + 1'000'000;
  const std::string text = std::string(blanks, ' ') + kGame;
  const std::vector<RawGame> games = Split(text);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].oversized, 0u);
  // The game starts where the blanks were no longer kept: its text holds a few of them.
  EXPECT_EQ(games[0].text.substr(games[0].text.size() - kGame.size()), kGame);
  EXPECT_LT(games[0].text.size(), kGame.size() + (1u << 20));
  EXPECT_EQ(games[0].first_line, 1);
}

TEST(GameSplitterTest, AStartPointCountsOffsetsLinesAndGamesAsInTheWholeFile) {
  const std::string two = kGame + "\n" + kGame;
  const std::vector<RawGame> whole = Split(two + "\n" + kGame);
  ASSERT_EQ(whole.size(), 3u);
  // Read from the second game's start, as 5d-index reads a file that grew.
  const GameSplitter::Start start{whole[1].byte_offset, whole[1].first_line, 1};
  const std::vector<RawGame> rest =
      Split((two + "\n" + kGame).substr(static_cast<size_t>(whole[1].byte_offset)), start);
  ASSERT_EQ(rest.size(), 2u);
  for (size_t i = 0; i < rest.size(); ++i) {
    EXPECT_EQ(rest[i].text, whole[i + 1].text);
    EXPECT_EQ(rest[i].byte_offset, whole[i + 1].byte_offset);
    EXPECT_EQ(rest[i].first_line, whole[i + 1].first_line);
    EXPECT_EQ(rest[i].index, whole[i + 1].index);
  }
}

// The texts of the games of `text`.
std::vector<std::string> Texts(const std::string& text) {
  std::vector<std::string> texts;
  for (const RawGame& game : Split(text)) texts.push_back(game.text);
  return texts;
}

TEST(GameSplitterTest, CodeFencesAsInAChatEndGamesAndBelongToNone) {
  // Games pasted in a chat: prose, then each game in a Markdown code block.
  const std::string chat =
      "alice: our game\n```5dpgn\n" + kGame + "```\nbob: nice\n  ```  \n" + kGame + "1-0\n````\n";
  const std::vector<RawGame> games = Split(chat);
  ASSERT_EQ(games.size(), 4u);
  EXPECT_EQ(games[0].text, "alice: our game\n");
  EXPECT_EQ(games[1].text, kGame);
  EXPECT_EQ(games[1].first_line, 3);
  EXPECT_EQ(games[1].byte_offset, std::string("alice: our game\n```5dpgn\n").size());
  EXPECT_EQ(games[2].text, "bob: nice\n");
  EXPECT_EQ(games[3].text, kGame + "1-0\n");
  EXPECT_EQ(games[3].index, 4);
  // A fence at the end of the input, without a line break, or with a carriage return.
  EXPECT_EQ(Texts(kGame + "```"), std::vector<std::string>{kGame});
  EXPECT_EQ(Texts(kGame + "```\r\n" + kGame), (std::vector<std::string>{kGame, kGame}));
  // Not fences: fewer than three backticks, words after the info word, too long a line, a fence
  // inside a comment. Those lines stay in the game.
  for (const std::string& line : std::vector<std::string>{
           "``", "``` 5dpgn game", "`1. e3`", "```" + std::string(100, 'a'), "```5dpgn}"}) {
    EXPECT_EQ(Texts(kGame + line + "\n"), std::vector<std::string>{kGame + line + "\n"}) << line;
  }
  const std::string commented = "1. e3 {\n```\n} / e6\n";
  EXPECT_EQ(Texts(commented), std::vector<std::string>{commented});
}

TEST(GameSplitterTest, AFenceAcrossTheReadingChunksIsFound) {
  // The fence's backticks end one chunk of the stream (64 KiB) and its line break starts the next.
  for (size_t before : {65536 - 3, 65536 - 2, 65536 - 1, 65536, 65536 + 1}) {
    std::string first = "1. e3 {";
    first += std::string(before - first.size() - std::string("} / e6\n").size(), 'x');
    first += "} / e6\n";
    ASSERT_EQ(first.size(), before);
    EXPECT_EQ(Texts(first + "```5dpgn\n" + kGame), (std::vector<std::string>{first, kGame}))
        << before;
  }
}

TEST(GameSplitterTest, LinesThatOnlyStartWithABracketAreTextNotHeaders) {
  // A chat exported as text: each message under a "[date time] author" line. Those lines are
  // text, so the headers after them start the games; and as movetext never holds a '[', each
  // starts a piece of text of its own after movetext (a game without a result, a message).
  const std::string chat = "[01-Jan-21 12:34 PM] alice#1234\n" + kGame + "\n" +
                           "[01-Jan-21 12:40 PM] bob#9999\nnice!\n" +
                           "[01-Jan-21 12:41 PM] bob#9999\n" + kGame;
  EXPECT_EQ(Texts(chat), (std::vector<std::string>{"[01-Jan-21 12:34 PM] alice#1234\n", kGame,
                                                   "[01-Jan-21 12:40 PM] bob#9999\nnice!\n",
                                                   "[01-Jan-21 12:41 PM] bob#9999\n", kGame}));
  // Headers and 5DFEN board lines as the reader takes them stay headers, also with blanks or
  // several on a line; a header whose value is not closed too (the reader says so).
  const std::string custom =
      "[Board \"custom\"] [Size\t\"8x8\"]\n[Event  \"x]\n"
      "[r*nbqk*bnr*/pppppppp/8/8/8/8/PPPPPPPP/R*NBQK*BNR*:0:1:w]\n\n1. e3 / e6\n";
  EXPECT_EQ(Texts(custom), std::vector<std::string>{custom});
  // A first word longer than the splitter looks at counts as a header's, as before.
  const std::string long_word = "[" + std::string(5000, 'a') + "]\n" + kGame;
  EXPECT_EQ(Texts(long_word).size(), 1u);
  // A bracket that is neither is text: it does not belong to the header block after it.
  EXPECT_EQ(Texts("[Board]\n" + kGame), (std::vector<std::string>{"[Board]\n", kGame}));
  EXPECT_EQ(Texts("[]\n" + kGame), (std::vector<std::string>{"[]\n", kGame}));
}

}  // namespace
}  // namespace fived
