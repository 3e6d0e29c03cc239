// Helpers shared by the core tests: positions from 5DFEN strings, move lists, shared data paths.
#ifndef FIVED_TESTS_CORE_TEST_UTIL_H_
#define FIVED_TESTS_CORE_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "core/fen.h"
#include "core/movegen.h"
#include "core/position.h"

namespace fived::testing {

// A position from 5DFEN board strings (with brackets and coordinates); fails the test on error.
inline Position MakePosition(const std::vector<std::string>& fens) {
  std::vector<FenBoard> parsed;
  bool even = false;
  for (const std::string& text : fens) {
    auto result = ParseFenBoard(text);
    if (!result.ok()) {
      ADD_FAILURE() << text << ": " << result.error().message();
      return Position();
    }
    parsed.push_back(std::move(result).value());
    even = even || parsed.back().timeline_signed_zero;
  }
  TimelineLabeling labeling{even};
  std::vector<Position::InitialBoard> boards;
  for (const FenBoard& fen : parsed) {
    boards.push_back({fen.board,
                      labeling.FromNotation(fen.timeline_negative, fen.timeline_magnitude),
                      HalfTurn(fen.turn, fen.color)});
  }
  Position pos;
  const Status status =
      pos.Init(parsed.front().board.width(), parsed.front().board.height(), even, boards);
  EXPECT_TRUE(status.ok()) << status.message();
  return pos;
}

inline Square Sq(const char* name) {
  return Square{static_cast<int8_t>(name[0] - 'a'), static_cast<int8_t>(std::atoi(name + 1) - 1)};
}

// Every move of the piece on `square` of the board (timeline, half_turn), as text
// "(L,h)e4" for targets on other boards and "e4" on the same board, sorted.
inline std::vector<std::string> MovesOf(const Position& pos, int timeline, int half_turn,
                                        const char* square, GenMode mode = GenMode::kAll) {
  PromotionSet promotions;
  promotions.Add(PieceType::kQueen);
  const Square from = Sq(square);
  const Piece piece = pos.BoardAt(timeline, half_turn)->at(from);
  std::vector<std::string> out;
  ForEachPieceMove(
      MoveView(pos), timeline, half_turn, from, piece, mode, promotions, [&](const Move& m, Piece) {
        std::string text;
        if (m.IsJump()) {
          text = "(" + std::to_string(m.dst_timeline) + "," + std::to_string(m.dst_half) + ")";
        }
        text += SquareName(m.to);
        if (m.promotion != PieceType::kNone) text += "=Q";
        out.push_back(text);
        return false;
      });
  std::sort(out.begin(), out.end());
  return out;
}

// ../shared, or empty when absent (tests that need it skip).
inline std::string SharedDir() {
#ifdef FIVED_SHARED_DIR
  if (std::filesystem::is_directory(FIVED_SHARED_DIR)) return FIVED_SHARED_DIR;
#endif
  return "";
}

}  // namespace fived::testing

#endif  // FIVED_TESTS_CORE_TEST_UTIL_H_
