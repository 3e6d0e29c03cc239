// Pattern searches (query/pattern_search.h) held to a brute-force matcher written separately:
// each game replayed, every board of every state written as 5DFEN, and the pattern matched as
// text, square token against square token. On random games of every default variant, and on
// ../shared/oracle/public when it is there.
#include "query/pattern_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/game_splitter.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "tests/query/query_test_util.h"
#include "tests/query/text_boards.h"
#include "tests/support/random_game.h"

namespace fived {
namespace {

// ---- The brute force: text only (tests/query/text_boards.h). ----

using testing::SquareTokens;
using testing::TokenAccepts;

// The pattern's square tokens, top rank first, and its pins ("" when none).
struct TextPattern {
  std::vector<std::string> squares;
  size_t width = 0;
  std::string timeline, turn, colour;
};

TextPattern ReadTextPattern(const std::string& text) {
  TextPattern out;
  const size_t colon = text.find(':');
  const std::string pieces = text.substr(0, colon);
  size_t rank_squares = 0;
  bool first_rank = true;
  for (size_t i = 0; i < pieces.size();) {
    const char c = pieces[i];
    if (c == '/') {
      if (first_rank) out.width = rank_squares;
      first_rank = false;
      ++i;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int run = 0;
      while (i < pieces.size() && std::isdigit(static_cast<unsigned char>(pieces[i]))) {
        run = run * 10 + (pieces[i++] - '0');
      }
      out.squares.insert(out.squares.end(), static_cast<size_t>(run), ".");
      rank_squares += static_cast<size_t>(run);
      continue;
    }
    std::string token;
    if (c == '[') {
      const size_t close = pieces.find(']', i);
      token = pieces.substr(i, close - i + 1);
      i = close + 1;
    } else {
      token = std::string(1, c);
      ++i;
      if (i < pieces.size() && pieces[i] == '*') {
        token += '*';
        ++i;
      }
    }
    out.squares.push_back(token);
    ++rank_squares;
  }
  if (first_rank) out.width = rank_squares;
  if (colon != std::string::npos) {
    std::istringstream pins(text.substr(colon + 1));
    std::getline(pins, out.timeline, ':');
    std::getline(pins, out.turn, ':');
    std::getline(pins, out.colour, ':');
    if (out.timeline == "*") out.timeline.clear();
    if (out.turn == "*") out.turn.clear();
    if (out.colour == "*") out.colour.clear();
  }
  return out;
}

// A board as its 5DFEN "[pieces:L:T:c]" splits.
struct TextBoard {
  std::vector<std::string> squares;
  size_t width = 0;
  std::string timeline, turn, colour;
};

TextBoard ReadTextBoard(const std::string& fen) {
  TextBoard out;
  std::istringstream fields(fen.substr(1, fen.size() - 2));
  std::string pieces;
  std::getline(fields, pieces, ':');
  std::getline(fields, out.timeline, ':');
  std::getline(fields, out.turn, ':');
  std::getline(fields, out.colour, ':');
  out.squares = SquareTokens(pieces);
  out.width = SquareTokens(pieces.substr(0, pieces.find('/'))).size();
  return out;
}

bool TextMatches(const TextPattern& pattern, const TextBoard& board) {
  if (pattern.squares.size() != board.squares.size() || pattern.width != board.width) return false;
  for (size_t i = 0; i < board.squares.size(); ++i) {
    if (!TokenAccepts(pattern.squares[i], board.squares[i])) return false;
  }
  // The boards write timelines canonically ("+1", "0"; "-0" and "+0" in even games): "+1" and
  // "1" are one timeline.
  // In an odd game (whose boards write timeline 0 as "0"), "-0" and "+0" name timeline 0 too.
  auto normal = [&](const std::string& t) {
    if (board.timeline == "0" && (t == "-0" || t == "+0")) return std::string("0");
    return !t.empty() && t[0] == '+' ? t.substr(1) : t;
  };
  if (!pattern.timeline.empty() && normal(pattern.timeline) != normal(board.timeline)) {
    return false;
  }
  if (!pattern.turn.empty() && pattern.turn != board.turn) return false;
  if (!pattern.colour.empty() && pattern.colour != board.colour) return false;
  return true;
}

struct Expected {
  int action = -1;  // the first state where every pattern matched some board; -1: never
  // At that state, for each pattern, the boards ("L:T:c") that matched.
  std::vector<std::set<std::string>> boards;
};

// Every board of every state of a game, as text: states[action] holds the boards after it.
using GameBoards = std::vector<std::vector<TextBoard>>;

GameBoards AllBoards(const std::string& game_text) {
  GameBoards states;
  SyntaxResult syntax = ParseGameSyntax(game_text);
  if (!syntax.status.ok()) return states;
  ReplayGame(syntax.game, [&](int, const Position& pos) {
    std::vector<TextBoard>& boards = states.emplace_back();
    pos.ForEachBoard([&](int timeline, int half_turn, const Board&) {
      boards.push_back(ReadTextBoard(pos.BoardFen(timeline, half_turn)));
    });
  });
  return states;
}

// The first state at which every pattern matches some board.
Expected BruteForce(const GameBoards& states, const std::vector<std::string>& patterns) {
  Expected expected;
  std::vector<TextPattern> text_patterns;
  for (const std::string& p : patterns) text_patterns.push_back(ReadTextPattern(p));
  for (size_t action = 0; action < states.size(); ++action) {
    std::vector<std::set<std::string>> matched(patterns.size());
    for (const TextBoard& board : states[action]) {
      for (size_t p = 0; p < text_patterns.size(); ++p) {
        if (TextMatches(text_patterns[p], board)) {
          matched[p].insert(board.timeline + ":" + board.turn + ":" + board.colour);
        }
      }
    }
    if (std::any_of(matched.begin(), matched.end(), [](const auto& m) { return m.empty(); })) {
      continue;
    }
    expected.action = static_cast<int>(action);
    expected.boards = matched;
    return expected;
  }
  return expected;
}

// ---- Patterns made from the games' own boards. ----

class PatternMaker {
 public:
  explicit PatternMaker(uint64_t seed) : state_(seed) {}

  uint64_t Next(uint64_t n) {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return (state_ >> 33) % n;
  }

  // A pattern from a board's 5DFEN: most squares '?', a few kept as they are, as classes or as
  // sets, and sometimes pins.
  std::string FromBoard(const std::string& fen, int kept) {
    const TextBoard board = ReadTextBoard(fen);
    std::vector<std::string> tokens(board.squares.size(), "?");
    for (int k = 0; k < kept; ++k) {
      const size_t i = Next(board.squares.size());
      const std::string& square = board.squares[i];
      switch (Next(8)) {
        case 0:
          tokens[i] = square == "." ? "!" : (std::isupper(square[0]) ? "A" : "a");
          break;
        case 1:
          tokens[i] = square == "." ? "[.Q]" : "[" + square + "q.]";
          break;
        case 2:
          tokens[i] = square == "." ? "[^.]" : "[^" + square.substr(0, 1) + "]";
          break;
        case 3:
          tokens[i] = square.substr(0, 1);  // the letter without its '*'
          break;
        default:
          tokens[i] = square;
      }
    }
    // Empty squares are written as numbers, runs of them as one.
    std::string out;
    int empties = 0;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (i > 0 && i % board.width == 0) {
        if (empties > 0) out += std::to_string(empties);
        empties = 0;
        out += '/';
      }
      if (tokens[i] == ".") {
        ++empties;
        continue;
      }
      if (empties > 0) out += std::to_string(empties);
      empties = 0;
      out += tokens[i];
    }
    if (empties > 0) out += std::to_string(empties);
    switch (Next(6)) {
      case 0:
        out += ":" + board.timeline + ":*:*";
        break;
      case 1:
        out += ":*:*:" + board.colour;
        break;
      case 2:
        out += ":*:" + board.turn + ":*";
        break;
      default:
        break;
    }
    return out;
  }

 private:
  uint64_t state_;
};

struct Collection {
  std::vector<std::string> texts;  // by game id - 1
  std::vector<GameBoards> boards;  // the same games' boards, state by state
  std::vector<std::string> fens;   // some boards of the games, to make patterns from
};

Collection Read(const std::string& text, PatternMaker& maker) {
  Collection out;
  std::istringstream in(text);
  GameSplitter splitter(in);
  while (std::optional<RawGame> raw = splitter.Next()) {
    out.texts.push_back(raw->text);
    out.boards.push_back(AllBoards(raw->text));
    SyntaxResult syntax = ParseGameSyntax(raw->text);
    if (!syntax.status.ok()) continue;
    ReplayOutcome outcome = ReplayGame(syntax.game);
    if (!outcome.replayer) continue;
    const Position& pos = outcome.replayer->position();
    std::vector<std::string> fens;
    pos.ForEachBoard([&](int timeline, int half_turn, const Board&) {
      fens.push_back(pos.BoardFen(timeline, half_turn));
    });
    for (int k = 0; k < 3 && !fens.empty(); ++k) out.fens.push_back(fens[maker.Next(fens.size())]);
  }
  return out;
}

// Every game of the database against the brute force, for each pattern set.
void HoldToBruteForce(GameStore& store, const Collection& games,
                      const std::vector<std::vector<std::string>>& pattern_sets,
                      int* nonempty_sets) {
  for (const std::vector<std::string>& texts : pattern_sets) {
    std::vector<BoardPattern> patterns;
    for (const std::string& text : texts) {
      Result<BoardPattern> parsed = ParseBoardPattern(text);
      ASSERT_TRUE(parsed.ok()) << text;
      patterns.push_back(std::move(parsed).value());
    }
    auto found = FindPatterns(store, patterns);
    ASSERT_TRUE(found.ok()) << found.error().message();
    std::map<int64_t, const PositionMatch*> by_game;
    for (const PositionMatch& match : found.value()) by_game[match.game_id] = &match;
    std::string joined;
    for (const std::string& t : texts) joined += " --pattern " + t;
    if (!found.value().empty()) ++*nonempty_sets;
    for (size_t g = 0; g < games.texts.size(); ++g) {
      const int64_t id = static_cast<int64_t>(g) + 1;
      const Expected expected = BruteForce(games.boards[g], texts);
      auto it = by_game.find(id);
      if (expected.action < 0) {
        EXPECT_TRUE(it == by_game.end()) << "game " << id << " matched" << joined;
        continue;
      }
      ASSERT_TRUE(it != by_game.end()) << "game " << id << " not found" << joined;
      EXPECT_EQ(it->second->action, expected.action) << "game " << id << joined;
      std::istringstream boards(it->second->boards);
      std::string board;
      for (size_t p = 0; p < texts.size(); ++p) {
        ASSERT_TRUE(boards >> board) << "game " << id << joined;
        EXPECT_TRUE(expected.boards[p].count(board))
            << "game " << id << ": board " << board << " of pattern " << texts[p];
      }
    }
  }
}

TEST(PatternSearchTest, RandomGamesAgreeWithTheBruteForce) {
  const testing::TempDir dir;
  CollectionOptions options;
  options.seed = 26;
  options.min_actions = 6;
  options.max_actions = 30;
  options.jump_bias = 0.4;
  std::string error;
  const std::string text = GenerateCollection(70, options, &error);
  ASSERT_EQ(error, "");
  GameStore store = testing::IndexCollection(dir, text);
  PatternMaker maker(1);
  const Collection games = Read(text, maker);
  std::vector<std::vector<std::string>> sets;
  for (int i = 0; i < 60; ++i) {
    const std::string& fen = games.fens[maker.Next(games.fens.size())];
    std::vector<std::string> set = {maker.FromBoard(fen, 1 + static_cast<int>(maker.Next(6)))};
    // Some sets of two patterns, the second from another board.
    if (i % 3 == 0) {
      set.push_back(maker.FromBoard(games.fens[maker.Next(games.fens.size())],
                                    1 + static_cast<int>(maker.Next(3))));
    }
    sets.push_back(set);
  }
  // Whole boards, which only a few games hold, and the empty board.
  for (int i = 0; i < 6; ++i) sets.push_back({maker.FromBoard(games.fens[i * 7], 400)});
  sets.push_back({"8/8/8/8/8/8/8/8"});
  int nonempty = 0;
  HoldToBruteForce(store, games, sets, &nonempty);
  EXPECT_GT(nonempty, 40) << "most patterns made from the games' boards should find games";
}

TEST(PatternSearchTest, OracleGamesAgreeWithTheBruteForce) {
  const std::string path = std::string(FIVED_SHARED_DIR) + "/oracle/public/all.5dpgn";
  std::ifstream file(path, std::ios::binary);
  if (!file) GTEST_SKIP() << path << " is not here (../shared is absent)";
  std::stringstream whole;
  whole << file.rdbuf();
  // The first 150 games keep the brute force quick.
  std::string text;
  {
    std::istringstream in(whole.str());
    GameSplitter splitter(in);
    for (int i = 0; i < 150; ++i) {
      std::optional<RawGame> raw = splitter.Next();
      if (!raw) break;
      text += raw->text + "\n\n";
    }
  }
  const testing::TempDir dir;
  GameStore store = testing::IndexCollection(dir, text);
  PatternMaker maker(2);
  const Collection games = Read(text, maker);
  ASSERT_EQ(games.texts.size(), 150u);
  std::vector<std::vector<std::string>> sets;
  for (int i = 0; i < 40; ++i) {
    sets.push_back({maker.FromBoard(games.fens[maker.Next(games.fens.size())],
                                    1 + static_cast<int>(maker.Next(5)))});
  }
  int nonempty = 0;
  HoldToBruteForce(store, games, sets, &nonempty);
  EXPECT_GT(nonempty, 25);
}

}  // namespace
}  // namespace fived
