// Moves of single pieces through the multiverse (the check test built on them is in check.h).
//
// A move vector has four axes: file x, rank y, time t (whole turns, two half-turns, so a piece
// always lands on a board of its own colour) and timeline l. Sliders repeat a unit vector until
// they leave the board, reach a missing board, stop before an own piece or capture; leapers and
// kings take one step. Pawns and brawns have their own rules (RULES.md): forward is up the ranks
// for white and down for black, and towards the opponent's timelines (white to lower timelines).
//
// Generation calls a visitor for each move instead of filling a container, so that the check
// test can stop at the first royal capture and nothing is allocated.
#ifndef FIVED_CORE_MOVEGEN_H_
#define FIVED_CORE_MOVEGEN_H_

#include <climits>
#include <cstdint>
#include <span>

#include "core/board.h"
#include "core/position.h"
#include "core/types.h"

namespace fived {

// A move of one piece. Layout: source board (timeline, half-turn) and square; target board and
// square (the same board for a physical move); the piece promoted to (kNone when none); flags.
struct Move {
  static constexpr uint8_t kCastle = 1;      // king's two-file move; the rook moves too
  static constexpr uint8_t kEnPassant = 2;   // pawn capture of a pawn that passed the target
  static constexpr uint8_t kDoubleStep = 4;  // pawn's two-square step (on any axis)

  int16_t src_timeline = 0;
  int16_t src_half = 0;
  Square from;
  int16_t dst_timeline = 0;
  int16_t dst_half = 0;
  Square to;
  PieceType promotion = PieceType::kNone;
  uint8_t flags = 0;
  int8_t rook_from_file = -1;  // castling only
  int8_t rook_to_file = -1;

  bool IsJump() const { return src_timeline != dst_timeline || src_half != dst_half; }
  bool operator==(const Move&) const = default;
};

// The boards movement sees: the position's boards. (A separate type so that a variant of the
// multiverse, such as one with hypothetical boards, can be given to the generator.)
class MoveView {
 public:
  explicit MoveView(const Position& pos) : pos_(pos) {}
  const Position& position() const { return pos_; }
  const Board* At(int timeline, int half_turn) const { return pos_.BoardAt(timeline, half_turn); }

 private:
  const Position& pos_;
};

// What to generate.
enum class GenMode : uint8_t {
  kAll,       // every move the piece may make (promotions once per allowed piece)
  kCaptures,  // only moves that land on an enemy piece (no castling, no en passant; onto the
              // last rank once, with the first allowed promotion)
};

// Pieces a pawn or brawn may promote to, as a bit set of PieceType values.
struct PromotionSet {
  uint16_t bits = 0;
  bool Contains(PieceType t) const { return (bits >> static_cast<int>(t)) & 1; }
  void Add(PieceType t) { bits = static_cast<uint16_t>(bits | (1u << static_cast<int>(t))); }
};

// Restricts generation to moves that land on one board (for resolving a written move whose
// target board is known): only the vector groups whose line passes through it are walked.
struct TargetBoard {
  int timeline = 0;
  int half_turn = 0;
};

// Calls visit(move, captured_piece) for each move of the piece `piece` standing on `from` on the
// board at (timeline, half_turn), which must exist in `view`. The piece moves as a piece of its
// own colour. visit returns true to stop; the function returns true if it was stopped.
// Castling is generated only in kAll mode and only if the king, the crossed square and the
// target are not attacked on that board. With `before_half`, the lines that land only on boards
// at or after that half-turn are not walked (a superset of the moves landing before it is
// generated: pawns' moves, for one, are all generated; the visitor picks). With `only_target`,
// only the lines that pass through that board are walked: again a superset of the moves landing
// there (the squares before and after it on those lines, pawns' moves and castling included),
// and the visitor keeps those whose destination is the target.
template <typename Visitor>
bool ForEachPieceMove(const MoveView& view, int timeline, int half_turn, Square from, Piece piece,
                      GenMode mode, PromotionSet promotions, Visitor&& visit,
                      const TargetBoard* only_target = nullptr, int before_half = INT_MAX);

// Calls visit(move, captured_piece) for each move (GenMode::kAll) of every piece of the tip's
// colour on the tip of `timeline`, square by square from a1, as ForEachPieceMove generates them
// (with its `before_half`). visit returns true to stop; the function returns true if it was
// stopped.
template <typename Visitor>
bool ForEachTipMove(const Position& pos, int timeline, PromotionSet promotions, Visitor&& visit,
                    int before_half = INT_MAX) {
  const int half = pos.TipHalf(timeline);
  const Board& board = pos.Tip(timeline);
  const Color mover = ColorOf(half);
  const MoveView view(pos);
  for (int rank = 0; rank < board.height(); ++rank) {
    for (int file = 0; file < board.width(); ++file) {
      const Piece piece = board.at(file, rank);
      if (piece.empty() || piece.color() != mover) continue;
      const Square from{static_cast<int8_t>(file), static_cast<int8_t>(rank)};
      if (ForEachPieceMove(view, timeline, half, from, piece, GenMode::kAll, promotions, visit,
                           nullptr, before_half)) {
        return true;
      }
    }
  }
  return false;
}

// Whether some piece may land on a board `dt` turns and `dl` timelines away from its own: every
// piece's vectors change time and timeline by -1, 0 or 1 per step (so the board lies on a line
// through its own: dt or dl zero, or both the same size), but a knight's, which may change one of
// them by two and the other by one. False spares generating the moves of a whole board.
inline bool MayLandOnBoard(int dt, int dl) {
  const int t = dt < 0 ? -dt : dt, l = dl < 0 ? -dl : dl;
  return t == 0 || l == 0 || t == l || (t == 1 && l == 2) || (t == 2 && l == 1);
}

// Whether `move`, a move of `color` made on another position, is one of theirs on `pos` too
// (within an action of theirs: once its mandatory boards are played, ToMove() is the other side's):
// its source is a tip of theirs and the move generator makes it there (its piece's moves alone
// are generated).
bool StillAMove(const Position& pos, const Move& move, Color color, PromotionSet promotions);

// Whether a piece of type `type` may land on a board `dt` turns and `dl` timelines away from its
// own, on boards of `width` x `height` squares: a leaper by one of its vectors, a slider by some
// steps of one whose squares stay within the board's size (a line of boards changing time or
// timeline by k needs k squares of room on the board, unless the vector stays on its square).
// Pawns and brawns as MayLandOnBoard says. A necessary condition, sharper than MayLandOnBoard:
// past two timelines away, only pieces that slide across timelines can land at all.
bool PieceTypeMayLandOnBoard(PieceType type, int dt, int dl, int width, int height);

// Whether the piece `piece` (not a pawn or brawn) standing on `from` of the board at (timeline,
// half_turn) moves to `to` on the board at (dst_timeline, dst_half) by one of its vectors, as
// ForEachPieceMove generates it (castling aside): a leaper by one step, a slider along a line
// whose boards exist and whose squares are empty up to the target, which holds no piece of its
// colour. Checks one vector instead of generating every move; fills *move when given.
bool PieceReaches(const MoveView& view, int timeline, int half_turn, Square from, Piece piece,
                  int dst_timeline, int dst_half, Square to, Move* move = nullptr);
// Whether PieceReaches decides every move of `piece` onto a board: not for pawns and brawns
// (their own rules) nor for an unmoved king on its own board (castling).
inline bool ReachDecidedByVector(Piece piece, bool same_board) {
  return !IsPawnLike(piece.type()) &&
         !(piece.type() == PieceType::kKing && piece.unmoved() && same_board);
}

// Whether a pawn (not a brawn) on `from` of `board` may move to `to` on the same board: one or two
// squares forward, or one diagonally forward onto a piece of the other colour or the en-passant
// square. A necessary condition only (the squares passed over and whether the pawn has moved are
// left to the generator): false means the generator gives no such move, which lets move
// resolution skip the pawns beside the one that moves.
inline bool PawnMayReachOnBoard(const Board& board, Square from, Piece pawn, Square to) {
  if (!board.Contains(to.file, to.rank)) return false;
  const int forward = pawn.color() == Color::kWhite ? 1 : -1;
  const int df = to.file - from.file, dr = to.rank - from.rank;
  if (df == 0) return (dr == forward || dr == 2 * forward) && board.at(to).empty();
  if ((df != 1 && df != -1) || dr != forward) return false;
  const Piece there = board.at(to);
  if (!there.empty()) return there.color() != pawn.color();
  return board.has_en_passant() && board.en_passant_square() == to;
}

// Whether a square of a board is attacked by physical moves of `attacker` on that board alone
// (castling's rule).
bool SquareAttackedOnBoard(const Board& board, Square square, Color attacker);

namespace movegen_internal {

struct Vec {
  int8_t x, y, t, l;
};
// Captures of pawns and brawns, for white (black mirrors y and l): file, rank, time, timeline.
// Pawn: diagonally forward on the board; one timeline forward and one turn back or forward.
// Brawn, in addition: timeline forward and a file sideways; timeline forward and a rank forward;
// a turn back and a rank forward.
inline constexpr Vec kPawnCaptures[] = {{1, 1, 0, 0}, {-1, 1, 0, 0}, {0, 0, 1, 1}, {0, 0, -1, 1}};
inline constexpr Vec kBrawnCaptures[] = {{1, 0, 0, 1}, {-1, 0, 0, 1}, {0, 1, 0, 1}, {0, 1, -1, 0}};
// Vectors of a piece type that share their time and timeline components, so that they share the
// board of their first step: when that board is missing, the whole group is skipped.
struct VecGroup {
  int8_t t, l;
  bool pure;  // holds the vector (0, 0, t, l), which stays on the square
  std::span<const Vec> vectors;
};
// How many steps of the group's time and timeline components reach a board `dt` turns and `dl`
// timelines away: the k >= 1 with k * (t, l) == (dt, dl), 1 for the group that stays on its board
// when the board is its own, 0 when the group's line misses the board.
inline int GroupSteps(const VecGroup& group, int dt, int dl) {
  if (group.t == 0 && group.l == 0) return dt == 0 && dl == 0 ? 1 : 0;
  const int k = group.t != 0 ? dt / group.t : dl / group.l;
  return k >= 1 && k * group.t == dt && k * group.l == dl ? k : 0;
}
// Unit vectors by piece type: sliders slide along them, leapers and kings take one step.
std::span<const Vec> Vectors(PieceType type);
std::span<const VecGroup> VectorGroups(PieceType type);
// Whether a piece type has the vector (x, y, t, l) among Vectors(type).
bool HasVector(PieceType type, int x, int y, int t, int l);

}  // namespace movegen_internal

}  // namespace fived

#include "core/movegen_inl.h"

#endif  // FIVED_CORE_MOVEGEN_H_
