// Move patterns (query/move_pattern.h): every word on hand-written canonical movetext, the errors,
// and "branch" held to the timelines a replay creates, on random games.
#include "query/move_pattern.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/game_splitter.h"
#include "core/legal.h"
#include "core/pgn_syntax.h"
#include "core/pgn_writer.h"
#include "core/replay.h"
#include "tests/support/random_game.h"

namespace fived {
namespace {

MovePattern Parse(const std::string& text) {
  Result<MovePattern> parsed = ParseMovePattern(text);
  if (!parsed.ok()) {
    ADD_FAILURE() << text << ": " << parsed.error().message();
    return {};
  }
  return std::move(parsed).value();
}

// Actions: 1 e3, 2 Nf6, 3 Qh5, 4 Bd7>>(0T3)d6 (black branches), 5 Qh5>>x(0T3)f7 (white branches
// and captures), 6 Kxf7 and a pawn's physical capture on the other board, 7 a non-branching jump
// and castling.
constexpr const char* kMoves =
    "1. (0T1)e3 / (0T1)Nf6\n"
    "2. (0T2)Qh5 / (0T2)Bd7>>(0T1)d6\n"
    "3. (0T3)Qh5>>x(0T1)f7 / (+1T1)Kxf7 (0T3)exd4\n"
    "4. (+1T2)Ng1>(0T4)g3 (0T4)O-O\n";

TEST(MovePatternTest, EachWord) {
  EXPECT_EQ(FirstMoveAction(Parse(""), kMoves), 1);
  EXPECT_EQ(FirstMoveAction(Parse("Q"), kMoves), 3);
  EXPECT_EQ(FirstMoveAction(Parse("q"), kMoves), -1);  // no black queen moves
  EXPECT_EQ(FirstMoveAction(Parse("n"), kMoves), 2);
  EXPECT_EQ(FirstMoveAction(Parse("N"), kMoves), 7);
  EXPECT_EQ(FirstMoveAction(Parse("P"), kMoves), 1);
  EXPECT_EQ(FirstMoveAction(Parse("p"), kMoves), 6);  // exd4 is black's
  EXPECT_EQ(FirstMoveAction(Parse("branch"), kMoves), 4);
  EXPECT_EQ(FirstMoveAction(Parse("B branch"), kMoves), -1);
  EXPECT_EQ(FirstMoveAction(Parse("b branch"), kMoves), 4);
  EXPECT_EQ(FirstMoveAction(Parse("jump"), kMoves), 7);  // only the '>' one
  EXPECT_EQ(FirstMoveAction(Parse("travel"), kMoves), 4);
  EXPECT_EQ(FirstMoveAction(Parse("capture"), kMoves), 5);
  EXPECT_EQ(FirstMoveAction(Parse("physical capture"), kMoves), 6);
  EXPECT_EQ(FirstMoveAction(Parse("k capture"), kMoves), 6);
  EXPECT_EQ(FirstMoveAction(Parse("K physical"), kMoves), 7);  // O-O
  EXPECT_EQ(FirstMoveAction(Parse("Q actions=4-"), kMoves), 5);
  EXPECT_EQ(FirstMoveAction(Parse("Q actions=-2"), kMoves), -1);
  EXPECT_EQ(FirstMoveAction(Parse("actions=6"), kMoves), 6);
  EXPECT_EQ(FirstMoveAction(Parse("Q, travel, capture"), kMoves), 5);
  // A game starting with black ("1b.") numbers black's first action 1.
  EXPECT_EQ(FirstMoveAction(Parse("n"), "1b. (0T0)Nf6\n2. (0T1)e3 / (0T1)Nc6\n"), 1);
  EXPECT_EQ(FirstMoveAction(Parse("P"), "1b. (0T0)Nf6\n2. (0T1)e3 / (0T1)Nc6\n"), 2);
}

TEST(MovePatternTest, ErrorsPointAtTheWord) {
  struct Case {
    const char* text;
    size_t column;
  } cases[] = {{"N hop", 3},       {"X", 1},           {"Q checks", 3},
               {"actions=0-3", 9}, {"actions=5-3", 9}, {"actions=", 9}};
  for (const Case& c : cases) {
    Result<MovePattern> parsed = ParseMovePattern(c.text);
    ASSERT_FALSE(parsed.ok()) << c.text;
    ASSERT_TRUE(parsed.error().place().has_value()) << c.text;
    EXPECT_EQ(parsed.error().place()->column, c.column) << c.text;
  }
}

TEST(MovePatternTest, CheckReadsTheCheckingActions) {
  // "check" keeps the actions whose moves match otherwise and that are listed as checking.
  const std::vector<int> checking = {3, 6};
  EXPECT_EQ(FirstMoveAction(Parse("check"), kMoves, checking), 3);
  EXPECT_EQ(FirstMoveAction(Parse("Q check"), kMoves, checking), 3);
  EXPECT_EQ(FirstMoveAction(Parse("capture check"), kMoves, checking), 6);
  EXPECT_EQ(FirstMoveAction(Parse("N check"), kMoves, checking), -1);
  EXPECT_EQ(FirstMoveAction(Parse("check"), kMoves, {}), -1);
  EXPECT_EQ(MoveActions(Parse("Q check"), kMoves), (std::vector<int>{3, 5}));
  EXPECT_EQ(MoveActions(Parse("capture"), kMoves), (std::vector<int>{5, 6}));
}

// "branch" finds the first action after which a replay has more timelines than before it;
// "check" the first after which the side to move is in check, and "Q check" the first of those
// in which a white queen moved (read from the replay's moves, not from the text).
TEST(MovePatternTest, BranchesAreTheActionsThatAddTimelines) {
  CollectionOptions options;
  options.seed = 11;
  options.jump_bias = 0.5;
  std::string error;
  const std::string text = GenerateCollection(40, options, &error);
  ASSERT_EQ(error, "");
  std::istringstream in(text);
  GameSplitter splitter(in);
  int branching_games = 0, checking_games = 0, queen_checks = 0;
  while (std::optional<RawGame> raw = splitter.Next()) {
    SyntaxResult syntax = ParseGameSyntax(raw->text);
    ASSERT_TRUE(syntax.status.ok());
    int first_branch = -1, timelines = -1, first_check = -1, first_queen_check = -1;
    bool queen_moved = false;
    ReplayGame(
        syntax.game,
        [&](int action, const Position& pos) {
          if (timelines >= 0 && pos.timeline_count() > timelines && first_branch < 0) {
            first_branch = action;
          }
          timelines = pos.timeline_count();
          if (action > 0 && InCheck(pos)) {
            if (first_check < 0) first_check = action;
            if (queen_moved && first_queen_check < 0) first_queen_check = action;
          }
          queen_moved = false;
        },
        [&](const Position& pos, const Move& move) {
          const Piece piece = pos.BoardAt(move.src_timeline, move.src_half)->at(move.from);
          if (piece.type() == PieceType::kQueen && piece.color() == Color::kWhite) {
            queen_moved = true;
          }
        });
    // The canonical movetext the indexer keeps, as a replay writes it.
    std::string canonical;
    {
      std::string texts;
      std::vector<size_t> ends;
      Color mover = Color::kWhite;
      MovetextBuilder builder;
      auto flush = [&] {
        if (ends.empty()) return;
        builder.BeginAction(mover);
        size_t begin = 0;
        for (size_t end : ends) {
          builder.AddMove(std::string_view(texts).substr(begin, end - begin));
          begin = end;
        }
        builder.EndAction();
        texts.clear();
        ends.clear();
      };
      ReplayGame(
          syntax.game,
          [&](int action, const Position&) {
            if (action > 0) flush();
          },
          [&](const Position& pos, const Move& move) {
            if (ends.empty()) mover = ColorOf(move.src_half);
            AppendMoveText(pos, move, &texts);
            ends.push_back(texts.size());
          });
      canonical = builder.Finish("");
    }
    EXPECT_EQ(FirstMoveAction(Parse("branch"), canonical), first_branch) << canonical;
    if (first_branch > 0) ++branching_games;
    for (const char* words : {"check", "Q check"}) {
      const MovePattern pattern = Parse(words);
      const std::vector<int> checking = CheckingActions(raw->text, MoveActions(pattern, canonical));
      EXPECT_EQ(FirstMoveAction(pattern, canonical, checking),
                words[0] == 'Q' ? first_queen_check : first_check)
          << words << "\n"
          << canonical;
    }
    checking_games += first_check > 0;
    queen_checks += first_queen_check > 0;
  }
  EXPECT_GT(branching_games, 20);
  EXPECT_GT(checking_games, 10);
  EXPECT_GT(queen_checks, 2);
}

}  // namespace
}  // namespace fived
