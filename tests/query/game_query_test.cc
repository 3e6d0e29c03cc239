// Position queries beyond single boards (core/game_query.h through query/pattern_search.h):
// relations between patterns, material, and conditions on the state, held to a brute force that
// replays each game and looks at every state: its boards as 5DFEN text, and the timelines, the
// active ones and the present as the engine's Position says. Each query is written as a user
// writes it (--pattern, --material, --when); the brute force reads the same query from the
// structure it was written from, not from the text.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/game_splitter.h"
#include "core/legal.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "query/pattern_search.h"
#include "tests/query/query_test_util.h"
#include "tests/query/text_boards.h"
#include "tests/support/random_game.h"

namespace fived {
namespace {

// ---- The games as text, state by state. ----

struct TextBoard {
  int timeline = 0;  // engine index
  int half_turn = 0;
  std::vector<std::string> squares;  // top rank first: "K*", "p", "."
  std::string label;                 // "L:T:c" as the notation writes it
  size_t width = 0;
};

struct TextState {
  std::vector<TextBoard> boards;
  int timelines = 0, active = 0, turn = 0;
  char to_move = 'w';
  std::string check = "none";   // the side in check: w, b or none (the engine's InCheck)
  int checks = 0;               // boards in check (the engine's Checks, held to InCheck)
  std::vector<size_t> present;  // the boards that are tips of active timelines
};

using TextGame = std::vector<TextState>;

TextGame ReadGame(const std::string& text) {
  TextGame game;
  SyntaxResult syntax = ParseGameSyntax(text);
  if (!syntax.status.ok()) return game;
  ReplayGame(syntax.game, [&](int, const Position& pos) {
    TextState& state = game.emplace_back();
    state.timelines = pos.timeline_count();
    state.turn = TurnOf(pos.Present());
    state.to_move = pos.ToMove() == Color::kWhite ? 'w' : 'b';
    if (InCheck(pos)) state.check = std::string(1, state.to_move);
    state.checks = BoardsInCheck(Checks(pos));
    pos.ForEachBoard([&](int timeline, int half_turn, const Board&) {
      const std::string fen = pos.BoardFen(timeline, half_turn);
      std::istringstream fields(fen.substr(1, fen.size() - 2));
      std::string pieces, l, t, c;
      std::getline(fields, pieces, ':');
      std::getline(fields, l, ':');
      std::getline(fields, t, ':');
      std::getline(fields, c, ':');
      if (pos.IsActive(timeline) && half_turn == pos.TipHalf(timeline)) {
        state.present.push_back(state.boards.size());
      }
      state.boards.push_back({timeline, half_turn, testing::SquareTokens(pieces),
                              l + ":" + t + ":" + c,
                              testing::SquareTokens(pieces.substr(0, pieces.find('/'))).size()});
    });
    for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
      if (pos.HasTimeline(l) && pos.IsActive(l)) ++state.active;
    }
  });
  return game;
}

// ---- Queries as structures, written out as the options read them. ----

// A square kept: its index (top rank first) and the token written there.
struct Kept {
  size_t square;
  std::string token;
};

struct Relation {
  bool timeline = false, turn = false, colour = false;  // pinned relative to the previous board
  int timeline_offset = 0, turn_offset = 0;
};

struct QueryPattern {
  size_t width = 8, height = 8;
  std::vector<Kept> kept;  // the rest '?'
  Relation relation;
};

struct QueryTerm {
  std::string left;   // a letter, "A", "a" or "!"
  std::string op;     // = != < <= > >=
  std::string right;  // a number or a letter/class
};

struct QueryMaterial {
  bool present = true;
  std::vector<QueryTerm> terms;
};

struct QueryState {
  std::string field;  // timelines, active, turn, to-move
  std::string op;
  std::string value;
};

struct Query {
  std::vector<QueryPattern> patterns;
  std::vector<QueryMaterial> material;
  std::vector<QueryState> state;
};

std::string PatternText(const QueryPattern& p) {
  std::vector<std::string> tokens(p.width * p.height, "?");
  for (const Kept& k : p.kept) tokens.at(k.square) = k.token;
  std::string out;
  int empties = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0 && i % p.width == 0) {
      if (empties) out += std::to_string(empties);
      empties = 0;
      out += '/';
    }
    if (tokens[i] == ".") {
      ++empties;
      continue;
    }
    if (empties) out += std::to_string(empties);
    empties = 0;
    out += tokens[i];
  }
  if (empties) out += std::to_string(empties);
  const Relation& r = p.relation;
  if (r.timeline || r.turn || r.colour) {
    auto offset = [](int v) {
      return v == 0 ? std::string("=") : (v > 0 ? "=+" : "=-") + std::to_string(std::abs(v));
    };
    out += ":" + (r.timeline ? offset(r.timeline_offset) : "*") + ":" +
           (r.turn ? offset(r.turn_offset) : "*") + ":" + (r.colour ? "=" : "*");
  }
  return out;
}

std::string MaterialText(const QueryMaterial& m) {
  std::string out = m.present ? "present: " : "board: ";
  for (size_t i = 0; i < m.terms.size(); ++i) {
    if (i) out += ", ";
    out += m.terms[i].left + m.terms[i].op + m.terms[i].right;
  }
  return out;
}

std::string StateText(const std::vector<QueryState>& terms) {
  std::string out;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (i) out += ", ";
    out += terms[i].field + terms[i].op + terms[i].value;
  }
  return out;
}

// ---- The brute force. ----

bool Holds(int left, const std::string& op, int right) {
  if (op == "=") return left == right;
  if (op == "!=") return left != right;
  if (op == "<") return left < right;
  if (op == "<=") return left <= right;
  if (op == ">") return left > right;
  return left >= right;
}

int Count(const std::string& what, const std::vector<const TextBoard*>& boards) {
  int count = 0;
  for (const TextBoard* board : boards) {
    for (const std::string& square : board->squares)
      count += square != "." && testing::TokenAccepts(what, square);
  }
  return count;
}

bool TermsHold(const std::vector<QueryTerm>& terms, const std::vector<const TextBoard*>& boards) {
  for (const QueryTerm& term : terms) {
    const bool number = std::isdigit(static_cast<unsigned char>(term.right[0]));
    const int right = number ? std::stoi(term.right) : Count(term.right, boards);
    if (!Holds(Count(term.left, boards), term.op, right)) return false;
  }
  return true;
}

bool Related(const Relation& r, const TextBoard& before, const TextBoard& board) {
  if (r.timeline && board.timeline != before.timeline + r.timeline_offset) return false;
  if (r.turn && board.half_turn / 2 != before.half_turn / 2 + r.turn_offset) return false;
  if (r.colour && board.half_turn % 2 != before.half_turn % 2) return false;
  return true;
}

bool PatternMatches(const QueryPattern& p, const TextBoard& board) {
  if (board.width != p.width || board.squares.size() != p.width * p.height) return false;
  for (const Kept& k : p.kept) {
    if (!testing::TokenAccepts(k.token, board.squares[k.square])) return false;
  }
  return true;
}

// The first state where the query holds, -1 when none.
int BruteForce(const TextGame& game, const Query& query) {
  for (size_t a = 0; a < game.size(); ++a) {
    const TextState& state = game[a];
    // Chains of boards: for each pattern, the boards that end a chain of the patterns so far.
    std::vector<const TextBoard*> ends;
    bool ok = true;
    for (size_t p = 0; p < query.patterns.size() && ok; ++p) {
      std::vector<const TextBoard*> next;
      for (const TextBoard& board : state.boards) {
        if (!PatternMatches(query.patterns[p], board)) continue;
        const Relation& r = query.patterns[p].relation;
        const bool relative = r.timeline || r.turn || r.colour;
        bool chained = p == 0 || (!relative && !ends.empty());
        for (const TextBoard* before : ends) {
          if (relative && Related(r, *before, board)) chained = true;
        }
        if (chained) next.push_back(&board);
      }
      ends = next;
      ok = !ends.empty();
    }
    for (const QueryMaterial& m : query.material) {
      if (!ok) break;
      if (m.present) {
        std::vector<const TextBoard*> present;
        for (size_t i : state.present) present.push_back(&state.boards[i]);
        ok = TermsHold(m.terms, present);
      } else {
        ok = std::any_of(state.boards.begin(), state.boards.end(),
                         [&](const TextBoard& b) { return TermsHold(m.terms, {&b}); });
      }
    }
    for (const QueryState& s : query.state) {
      if (!ok) break;
      if (s.field == "to-move") {
        ok = (std::string(1, state.to_move) == s.value) == (s.op == "=");
        continue;
      }
      if (s.field == "check") {
        ok = (state.check == s.value) == (s.op == "=");
        continue;
      }
      const int value = s.field == "timelines" ? state.timelines
                        : s.field == "active"  ? state.active
                        : s.field == "checks"  ? state.checks
                                               : state.turn;
      ok = Holds(value, s.op, std::stoi(s.value));
    }
    if (ok) return static_cast<int>(a);
  }
  return -1;
}

// ---- The test. ----

class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  size_t Next(size_t n) {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<size_t>((state_ >> 33) % n);
  }

 private:
  uint64_t state_;
};

// A board's occupied squares kept as they are (with their '*').
QueryPattern FromBoard(const TextBoard& board, Random& random, size_t kept) {
  QueryPattern p;
  p.width = board.width;
  p.height = board.squares.size() / board.width;
  std::vector<size_t> occupied;
  for (size_t i = 0; i < board.squares.size(); ++i) {
    if (board.squares[i] != ".") occupied.push_back(i);
  }
  for (size_t k = 0; k < kept && !occupied.empty(); ++k) {
    const size_t i = occupied[random.Next(occupied.size())];
    p.kept.push_back({i, board.squares[i]});
  }
  return p;
}

TEST(GameQueryTest, RelationsMaterialAndStateAgreeWithTheBruteForce) {
  const testing::TempDir dir;
  CollectionOptions options;
  options.seed = 2026;
  options.min_actions = 6;
  options.max_actions = 28;
  options.jump_bias = 0.5;
  // Standard-like variants, and a 7x7 one (Simple - No Queens): patterns are made from each
  // game's own boards, whatever their size.
  options.variants = {"Standard", "Standard - Two Timelines", "Standard - Turn Zero",
                      "Simple - No Queens"};
  std::string error;
  const std::string text = GenerateCollection(48, options, &error);
  ASSERT_EQ(error, "");
  GameStore store = testing::IndexCollection(dir, text);
  std::vector<TextGame> games;
  {
    std::istringstream in(text);
    GameSplitter splitter(in);
    while (std::optional<RawGame> raw = splitter.Next()) games.push_back(ReadGame(raw->text));
  }
  ASSERT_EQ(games.size(), 48u);

  Random random(7);
  std::vector<Query> queries;
  for (int i = 0; i < 56; ++i) {
    const TextGame& game = games[random.Next(games.size())];
    const TextState& last = game.back();
    const TextBoard& board = last.boards[random.Next(last.boards.size())];
    Query query;
    query.patterns.push_back(FromBoard(board, random, 1 + random.Next(2)));
    switch (i % 7) {
      case 0: {  // the same timeline, N turns on
        const int n = 1 + static_cast<int>(random.Next(2));
        for (const TextBoard& other : last.boards) {
          if (other.timeline == board.timeline && other.half_turn == board.half_turn + 2 * n) {
            QueryPattern later = FromBoard(other, random, 1);
            later.relation = {true, true, true, 0, n};
            query.patterns.push_back(later);
            break;
          }
        }
        break;
      }
      case 1: {  // a neighbouring timeline, the same turn and colour
        for (const TextBoard& other : last.boards) {
          if (std::abs(other.timeline - board.timeline) == 1 &&
              other.half_turn == board.half_turn) {
            QueryPattern next = FromBoard(other, random, 1);
            next.relation = {true, true, true, other.timeline - board.timeline, 0};
            query.patterns.push_back(next);
            break;
          }
        }
        break;
      }
      case 2:
        query.state.push_back({"timelines", ">=", std::to_string(2 + random.Next(4))});
        query.state.push_back({"to-move", random.Next(2) ? "=" : "!=", "b"});
        break;
      case 3:
        query.patterns.clear();
        query.state.push_back({"active", ">=", std::to_string(1 + random.Next(4))});
        query.state.push_back({"turn", "<=", std::to_string(4 + random.Next(10))});
        break;
      case 4:
        query.material.push_back({true, {{"Q", ">=", "1"}, {"A", ">", "a"}}});
        break;
      case 6:
        query.state.push_back({"check", "=", random.Next(2) ? "w" : "b"});
        if (random.Next(2))
          query.state.push_back({"checks", ">=", std::to_string(2 + random.Next(2))});
        if (random.Next(2)) query.patterns.clear();
        break;
      case 5:
        query.patterns.clear();
        query.material.push_back({false,
                                  {{"p", "<=", std::to_string(2 + random.Next(4))},
                                   {"N", "=", std::to_string(random.Next(3))}}});
        query.material.push_back({true, {{"!", ">=", std::to_string(20 + random.Next(60))}}});
        break;
    }
    queries.push_back(query);
  }

  int found_some = 0, related_found = 0, matched_games = 0, several_checks_found = 0;
  for (const Query& query : queries) {
    GameQuery parsed;
    std::string written;
    for (const QueryPattern& p : query.patterns) {
      const std::string text = PatternText(p);
      written += " --pattern '" + text + "'";
      Result<BoardPattern> pattern = ParseBoardPattern(text);
      ASSERT_TRUE(pattern.ok()) << text;
      parsed.boards.push_back(std::move(pattern).value());
    }
    for (const QueryMaterial& m : query.material) {
      const std::string text = MaterialText(m);
      written += " --material '" + text + "'";
      Result<MaterialCondition> material = ParseMaterial(text);
      ASSERT_TRUE(material.ok()) << text;
      parsed.material.push_back(std::move(material).value());
    }
    if (!query.state.empty()) {
      const std::string text = StateText(query.state);
      written += " --when '" + text + "'";
      Result<std::vector<StateTerm>> state = ParseState(text);
      ASSERT_TRUE(state.ok()) << text;
      parsed.state = std::move(state).value();
    }
    auto found = FindPatterns(store, parsed);
    ASSERT_TRUE(found.ok()) << found.error().message();
    std::map<int64_t, int> actions;
    for (const PositionMatch& m : found.value()) actions[m.game_id] = m.action;
    if (!actions.empty()) ++found_some;
    if (!actions.empty() && query.patterns.size() == 2) ++related_found;
    if (!actions.empty() && std::any_of(query.state.begin(), query.state.end(),
                                        [](const QueryState& s) { return s.field == "checks"; })) {
      ++several_checks_found;
    }
    matched_games += static_cast<int>(actions.size());
    for (size_t g = 0; g < games.size(); ++g) {
      const int expected = BruteForce(games[g], query);
      const auto it = actions.find(static_cast<int64_t>(g) + 1);
      const int got = it == actions.end() ? -1 : it->second;
      EXPECT_EQ(got, expected) << "game " << g + 1 << ":" << written;
    }
  }
  EXPECT_GT(found_some, 20) << "most queries should find games";
  EXPECT_GT(related_found, 8) << "related patterns should find games";
  EXPECT_GT(several_checks_found, 0) << "checks on several boards should be found";
  EXPECT_GT(matched_games, 200);
  EXPECT_LT(matched_games, 56 * 48) << "not every query should match every game";
}

}  // namespace
}  // namespace fived
