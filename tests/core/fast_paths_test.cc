// The engine's fast paths against its plain ones, on every position met while replaying random
// games of every variant the generator plays (the fairy pieces included), in the middle of
// actions too: the bitboard check test against the square-by-square one, and the one-vector
// move test (PieceReaches) against the move generator.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/action.h"
#include "core/check.h"
#include "core/movegen.h"
#include "tests/support/random_game.h"
#include "tests/support/random_positions.h"

namespace fived {
namespace {

// Calls f(position, move) before every move of random games: `games` games per variant.
template <typename F>
void ForEachMoveOfRandomGames(int games, F&& f) {
  CollectionOptions options;
  options.seed = 20261121;
  const int variants = static_cast<int>(options.variants.size());
  ASSERT_EQ(ForEachRandomMove(options, games * variants, f), "");
}

// Calls f(position, view, timeline, half_turn, square, piece) for each piece of the mover on the
// board it moves from, before every third move of random games (two games per variant).
template <typename F>
void ForEachMoverPiece(F&& f) {
  int position = 0;
  ForEachMoveOfRandomGames(2, [&](const Position& pos, const Move& move) {
    if (++position % 3 != 0) return;
    const Color mover = ColorOf(move.src_half);
    const MoveView view(pos);
    const int l = move.src_timeline, h = move.src_half;
    const Board& tip = *pos.BoardAt(l, h);
    for (int rank = 0; rank < tip.height(); ++rank) {
      for (int file = 0; file < tip.width(); ++file) {
        const Piece piece = tip.at(file, rank);
        if (piece.empty() || piece.color() != mover) continue;
        f(pos, view, l, h, Square{static_cast<int8_t>(file), static_cast<int8_t>(rank)}, piece);
      }
    }
  });
}

// Whether `capture` is a move the generator makes for `attacker` in pos that captures a royal
// piece (a promoting one only when promoting captures count).
bool IsRoyalCapture(const Position& pos, Color attacker, bool promoting, const Move& capture) {
  const Board* from = pos.BoardAt(capture.src_timeline, capture.src_half);
  if (from == nullptr || capture.src_half != pos.TipHalf(capture.src_timeline) ||
      ColorOf(capture.src_half) != attacker) {
    return false;
  }
  const Piece piece = from->at(capture.from);
  if (piece.empty() || piece.color() != attacker) return false;
  bool generated = false;
  PromotionSet promotions;
  if (promoting) promotions.Add(PieceType::kQueen);
  ForEachPieceMove(MoveView(pos), capture.src_timeline, capture.src_half, capture.from, piece,
                   GenMode::kCaptures, promotions, [&](const Move& m, Piece captured) {
                     generated = IsRoyal(captured.type()) && m.to == capture.to &&
                                 m.dst_timeline == capture.dst_timeline &&
                                 m.dst_half == capture.dst_half;
                     return generated;
                   });
  return generated;
}

TEST(FastPaths, BitboardCheckTestAgreesWithTheScan) {
  int capturable = 0, safe = 0;
  auto compare = [&](const Position& pos) {
    for (Color attacker : {Color::kWhite, Color::kBlack}) {
      // With pieces to promote to (a pawn's capture onto the last rank counts) and without.
      for (bool promoting : {true, false}) {
        Move by_bits, by_scan;
        const bool bits =
            movegen_internal::RoyalCapturableByBits(pos, attacker, promoting, &by_bits);
        const bool scan =
            movegen_internal::RoyalCapturableByScan(pos, attacker, promoting, &by_scan);
        ASSERT_EQ(bits, scan) << pos.StateFen();
        (scan ? capturable : safe) += 1;
        if (!scan) continue;
        // Both name a capture that the move generator makes.
        auto show = [](const Move& m) {
          return std::to_string(m.src_timeline) + "," + std::to_string(m.src_half) + " " +
                 SquareName(m.from) + " -> " + std::to_string(m.dst_timeline) + "," +
                 std::to_string(m.dst_half) + " " + SquareName(m.to);
        };
        ASSERT_TRUE(IsRoyalCapture(pos, attacker, promoting, by_bits))
            << show(by_bits) << " scan " << show(by_scan) << " promoting " << promoting;
        ASSERT_TRUE(IsRoyalCapture(pos, attacker, promoting, by_scan)) << show(by_scan);
      }
    }
  };
  ForEachMoveOfRandomGames(4, [&](const Position& played, const Move& move) {
    compare(played);
    // Legal games seldom leave a royal capturable, so also every move the piece that moved
    // could have made instead, legal or not: many of them expose a royal or attack one.
    Position pos = played;
    const Position::Mark mark = pos.GetMark();
    const Piece piece = pos.BoardAt(move.src_timeline, move.src_half)->at(move.from);
    std::vector<Move> moves;
    ForEachPieceMove(MoveView(pos), move.src_timeline, move.src_half, move.from, piece,
                     GenMode::kAll, PromotionSet{0xffff}, [&](const Move& m, Piece) {
                       moves.push_back(m);
                       return false;
                     });
    for (const Move& m : moves) {
      ApplyMove(&pos, m);
      compare(pos);
      pos.Rollback(mark);
    }
  });
  // Both answers occur often, so that a disagreement either way would have been seen.
  EXPECT_GT(capturable, 1000);
  EXPECT_GT(safe, 1000);
}

// The squares where some board holds a royal piece, which the bitboard check test starts from,
// are those of the boards the position holds: after every move tried, and after rolling it back.
TEST(FastPaths, RoyalSquaresAreTheUnionOfTheBoards) {
  auto expect_union = [](const Position& pos) {
    uint64_t royals[2] = {0, 0};
    pos.ForEachBoard([&](int, int, const Board& board) {
      for (int c = 0; c < 2; ++c) royals[c] |= board.royal_bits(static_cast<Color>(c));
    });
    for (int c = 0; c < 2; ++c) {
      ASSERT_EQ(pos.royal_squares(static_cast<Color>(c)), royals[c]) << pos.StateFen();
    }
  };
  int moved_royal = 0;
  ForEachMoveOfRandomGames(2, [&](const Position& played, const Move& move) {
    expect_union(played);
    Position pos = played;
    const Position::Mark mark = pos.GetMark();
    const uint64_t before[2] = {pos.royal_squares(Color::kWhite), pos.royal_squares(Color::kBlack)};
    const Piece piece = pos.BoardAt(move.src_timeline, move.src_half)->at(move.from);
    ForEachPieceMove(MoveView(pos), move.src_timeline, move.src_half, move.from, piece,
                     GenMode::kAll, PromotionSet{0xffff}, [&](const Move& m, Piece) {
                       ApplyMove(&pos, m);
                       expect_union(pos);
                       if (pos.royal_squares(ColorOf(move.src_half)) !=
                           before[static_cast<int>(ColorOf(move.src_half))]) {
                         ++moved_royal;
                       }
                       pos.Rollback(mark);
                       EXPECT_EQ(pos.royal_squares(Color::kWhite), before[0]);
                       EXPECT_EQ(pos.royal_squares(Color::kBlack), before[1]);
                       return false;
                     });
  });
  // Royal pieces moved to new squares often enough for the union to change.
  EXPECT_GT(moved_royal, 100);
}

// The check test restricted to the boards a move added answers as the whole test does, on a
// position that had no capturable royal: after every move the piece that moved could have made.
TEST(FastPaths, CheckTestOfTheAddedBoardsAgreesWithTheWholeTest) {
  int capturable = 0, safe = 0;
  ForEachMoveOfRandomGames(4, [&](const Position& played, const Move& move) {
    Position pos = played;
    const Position::Mark mark = pos.GetMark();
    const Piece piece = pos.BoardAt(move.src_timeline, move.src_half)->at(move.from);
    std::vector<Move> moves;
    ForEachPieceMove(MoveView(pos), move.src_timeline, move.src_half, move.from, piece,
                     GenMode::kAll, PromotionSet{0xffff}, [&](const Move& m, Piece) {
                       moves.push_back(m);
                       return false;
                     });
    std::vector<int> tips;
    for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
      tips.push_back(pos.HasTimeline(l) ? pos.TipHalf(l) : -1);
    }
    for (Color attacker : {Color::kWhite, Color::kBlack}) {
      if (RoyalCapturable(played, attacker, true)) continue;  // the test's premise
      for (const Move& m : moves) {
        ApplyMove(&pos, m);
        std::vector<BoardPlace> fresh;
        for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
          const int before = l >= played.min_timeline() && l <= played.max_timeline()
                                 ? tips[l - played.min_timeline()]
                                 : -1;
          if (pos.HasTimeline(l) && pos.TipHalf(l) != before) fresh.push_back({l, pos.TipHalf(l)});
        }
        for (bool promoting : {true, false}) {
          Move capture;
          const bool whole = RoyalCapturable(pos, attacker, promoting);
          const bool touching = RoyalCapturableTouching(pos, attacker, promoting, fresh, &capture);
          ASSERT_EQ(touching, whole) << pos.StateFen();
          (whole ? capturable : safe) += 1;
          if (touching) {
            ASSERT_TRUE(IsRoyalCapture(pos, attacker, promoting, capture));
          }
        }
        pos.Rollback(mark);
      }
    }
  });
  EXPECT_GT(capturable, 1000);
  EXPECT_GT(safe, 1000);
}

TEST(FastPaths, PieceReachesTheSquaresTheGeneratorGives) {
  long reached = 0, checked = 0;
  ForEachMoverPiece(
      [&](const Position& pos, const MoveView& view, int l, int h, Square from, Piece piece) {
        if (IsPawnLike(piece.type())) return;
        std::set<std::tuple<int, int, int, int>> generated;
        ForEachPieceMove(view, l, h, from, piece, GenMode::kAll, PromotionSet{},
                         [&](const Move& m, Piece) {
                           if (!(m.flags & Move::kCastle)) {
                             generated.emplace(m.dst_timeline, m.dst_half, m.to.file, m.to.rank);
                           }
                           return false;
                         });
        // Every square of every board, the other colour's boards included.
        pos.ForEachBoard([&](int bl, int bh, const Board& board) {
          for (int y = 0; y < board.height(); ++y) {
            for (int x = 0; x < board.width(); ++x) {
              const Square to{static_cast<int8_t>(x), static_cast<int8_t>(y)};
              Move m;
              const bool reaches = PieceReaches(view, l, h, from, piece, bl, bh, to, &m);
              ASSERT_EQ(reaches, generated.count({bl, bh, x, y}) == 1)
                  << PieceName(piece.type()) << " from " << SquareName(from) << " to board " << bl
                  << "," << bh << " " << SquareName(to) << "\n"
                  << pos.StateFen();
              if (reaches) {
                EXPECT_EQ(m.from, from);
                EXPECT_EQ(m.to, to);
                EXPECT_EQ(m.dst_timeline, bl);
                EXPECT_EQ(m.dst_half, bh);
                ++reached;
              }
              ++checked;
            }
          }
        });
      });
  EXPECT_GT(reached, 10000);
  EXPECT_GT(checked, 100 * reached);
}

TEST(FastPaths, PawnsTheFilterSkipsHaveNoMoveThere) {
  long skipped = 0, kept = 0, moves = 0;
  ForEachMoverPiece(
      [&](const Position& pos, const MoveView& view, int l, int h, Square from, Piece piece) {
        if (piece.type() != PieceType::kPawn) return;
        std::set<std::pair<int, int>> generated;  // squares of its moves on its own board
        ForEachPieceMove(view, l, h, from, piece, GenMode::kAll, PromotionSet{},
                         [&](const Move& m, Piece) {
                           if (m.dst_timeline == l && m.dst_half == h) {
                             generated.emplace(m.to.file, m.to.rank);
                           }
                           return false;
                         });
        moves += static_cast<long>(generated.size());
        const Board& tip = *pos.BoardAt(l, h);
        for (int y = 0; y < tip.height(); ++y) {
          for (int x = 0; x < tip.width(); ++x) {
            const Square to{static_cast<int8_t>(x), static_cast<int8_t>(y)};
            if (PawnMayReachOnBoard(tip, from, piece, to)) {
              ++kept;
              continue;
            }
            ++skipped;
            ASSERT_EQ(generated.count({x, y}), 0u)
                << "pawn " << SquareName(from) << " to " << SquareName(to) << "\n"
                << pos.StateFen();
          }
        }
      });
  EXPECT_GT(moves, 1000);
  EXPECT_GE(kept, moves);
  EXPECT_GT(skipped, 10 * kept);
}

// Every move lands on a board MayLandOnBoard allows, and it forbids some.
TEST(FastPaths, MovesLandOnBoardsMayLandOnBoardAllows) {
  long moves = 0;
  ForEachMoverPiece(
      [&](const Position&, const MoveView& view, int l, int h, Square from, Piece piece) {
        ForEachPieceMove(view, l, h, from, piece, GenMode::kAll, PromotionSet{},
                         [&](const Move& m, Piece) {
                           ++moves;
                           EXPECT_TRUE(MayLandOnBoard((m.dst_half - h) / 2, m.dst_timeline - l))
                               << PieceName(piece.type()) << " " << SquareName(from) << " to "
                               << m.dst_timeline << "," << m.dst_half;
                           return false;
                         });
      });
  EXPECT_GT(moves, 10000);
  EXPECT_FALSE(MayLandOnBoard(3, 1));
  EXPECT_FALSE(MayLandOnBoard(-1, 3));
  EXPECT_TRUE(MayLandOnBoard(-2, 1));
}

// Every move of a piece lands on a board PieceTypeMayLandOnBoard allows for its type, which
// forbids what no vector reaches.
TEST(FastPaths, MovesLandOnBoardsPieceTypeMayLandOnBoardAllows) {
  long moves = 0;
  ForEachMoverPiece(
      [&](const Position& pos, const MoveView& view, int l, int h, Square from, Piece piece) {
        ForEachPieceMove(
            view, l, h, from, piece, GenMode::kAll, PromotionSet{}, [&](const Move& m, Piece) {
              ++moves;
              EXPECT_TRUE(PieceTypeMayLandOnBoard(piece.type(), (m.dst_half - h) / 2,
                                                  m.dst_timeline - l, pos.width(), pos.height()))
                  << PieceName(piece.type()) << " " << SquareName(from) << " to " << m.dst_timeline
                  << "," << m.dst_half;
              return false;
            });
      });
  EXPECT_GT(moves, 10000);
  // Timelines away: only what slides across timelines, with room on the board for a diagonal.
  EXPECT_TRUE(PieceTypeMayLandOnBoard(PieceType::kRook, 0, 20, 8, 8));
  EXPECT_TRUE(PieceTypeMayLandOnBoard(PieceType::kQueen, 0, -20, 8, 8));
  EXPECT_FALSE(PieceTypeMayLandOnBoard(PieceType::kBishop, 0, 20, 8, 8));
  EXPECT_TRUE(PieceTypeMayLandOnBoard(PieceType::kBishop, 0, 7, 8, 8));
  EXPECT_FALSE(PieceTypeMayLandOnBoard(PieceType::kBishop, 0, 7, 5, 5));
  EXPECT_FALSE(PieceTypeMayLandOnBoard(PieceType::kKnight, 0, 3, 8, 8));
  EXPECT_TRUE(PieceTypeMayLandOnBoard(PieceType::kKnight, 1, 2, 8, 8));
  EXPECT_FALSE(PieceTypeMayLandOnBoard(PieceType::kKing, 0, 2, 8, 8));
  EXPECT_FALSE(PieceTypeMayLandOnBoard(PieceType::kRook, 1, 1, 8, 8));
  EXPECT_TRUE(PieceTypeMayLandOnBoard(PieceType::kBishop, 3, -3, 8, 8));
  EXPECT_TRUE(PieceTypeMayLandOnBoard(PieceType::kPawn, 1, 1, 8, 8));
}

// ForEachPieceMove with before_half walks fewer lines but loses no move landing before it, and
// keeps the order of the full generation.
TEST(FastPaths, MovesBeforeAHalfTurnAreThoseOfTheFullGeneration) {
  long before = 0, skipped = 0;
  ForEachMoverPiece(
      [&](const Position&, const MoveView& view, int l, int h, Square from, Piece piece) {
        for (const int cut : {h - 4, h - 1, h, h + 1, h + 3}) {
          std::vector<Move> full, filtered;
          long all = 0;
          ForEachPieceMove(view, l, h, from, piece, GenMode::kAll, PromotionSet{},
                           [&](const Move& m, Piece) {
                             ++all;
                             if (m.dst_half < cut) full.push_back(m);
                             return false;
                           });
          long walked = 0;
          ForEachPieceMove(
              view, l, h, from, piece, GenMode::kAll, PromotionSet{},
              [&](const Move& m, Piece) {
                ++walked;
                if (m.dst_half < cut) filtered.push_back(m);
                return false;
              },
              nullptr, cut);
          ASSERT_EQ(filtered, full) << PieceName(piece.type()) << " from " << SquareName(from)
                                    << " on " << l << "," << h << " before " << cut;
          before += static_cast<long>(full.size());
          skipped += all - walked;
        }
      });
  EXPECT_GT(before, 1000);
  EXPECT_GT(skipped, 10000);  // moves the filtered generation never made
}

}  // namespace
}  // namespace fived
