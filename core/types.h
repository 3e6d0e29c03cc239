// Small typed values shared by the whole engine: colours, piece types, pieces, squares and the
// coordinates of boards in the multiverse. Everything here is a plain value; the layouts that are
// persisted (piece codes feed the board keys) are frozen and pinned by golden tests.
#ifndef FIVED_CORE_TYPES_H_
#define FIVED_CORE_TYPES_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace fived {

enum class Color : uint8_t { kWhite = 0, kBlack = 1 };

constexpr Color Opponent(Color c) { return c == Color::kWhite ? Color::kBlack : Color::kWhite; }

// Piece types. The numeric values are persisted inside board keys: never renumber.
enum class PieceType : uint8_t {
  kNone = 0,
  kPawn = 1,
  kBrawn = 2,
  kKing = 3,
  kCommonKing = 4,
  kQueen = 5,
  kRoyalQueen = 6,
  kPrincess = 7,
  kKnight = 8,
  kRook = 9,
  kBishop = 10,
  kUnicorn = 11,
  kDragon = 12,
};
constexpr int kPieceTypeCount = 13;

// A piece on a square, one byte:
//   bits 0-3  PieceType (0 = empty square)
//   bit  4    colour (0 white, 1 black)
//   bit  5    unmoved (only meaningful for pawn, brawn, king and rook)
// The byte value is persisted inside board keys: never change the layout.
class Piece {
 public:
  constexpr Piece() = default;
  constexpr Piece(PieceType type, Color color, bool unmoved = false)
      : bits_(static_cast<uint8_t>(static_cast<uint8_t>(type) |
                                   (color == Color::kBlack ? kBlackBit : 0) |
                                   (unmoved ? kUnmovedBit : 0))) {}
  static constexpr Piece FromBits(uint8_t bits) {
    Piece p;
    p.bits_ = bits;
    return p;
  }

  constexpr bool empty() const { return bits_ == 0; }
  constexpr PieceType type() const { return static_cast<PieceType>(bits_ & 0x0f); }
  constexpr Color color() const { return (bits_ & kBlackBit) ? Color::kBlack : Color::kWhite; }
  constexpr bool unmoved() const { return (bits_ & kUnmovedBit) != 0; }
  constexpr uint8_t bits() const { return bits_; }
  constexpr Piece Moved() const { return FromBits(bits_ & ~kUnmovedBit); }

  constexpr bool operator==(const Piece&) const = default;

 private:
  static constexpr uint8_t kBlackBit = 0x10;
  static constexpr uint8_t kUnmovedBit = 0x20;
  uint8_t bits_ = 0;
};

// Royal pieces are the ones whose capture ends the game: king and royal queen.
constexpr bool IsRoyal(PieceType t) { return t == PieceType::kKing || t == PieceType::kRoyalQueen; }
constexpr bool IsPawnLike(PieceType t) { return t == PieceType::kPawn || t == PieceType::kBrawn; }
// Pieces that slide along their vectors (movegen.h): the only list of them.
constexpr bool IsSlider(PieceType t) {
  return t == PieceType::kQueen || t == PieceType::kRoyalQueen || t == PieceType::kPrincess ||
         t == PieceType::kRook || t == PieceType::kBishop || t == PieceType::kUnicorn ||
         t == PieceType::kDragon;
}
// Pieces whose unmoved state the canonical 5DFEN marks with '*'.
constexpr bool TracksUnmoved(PieceType t) {
  return t == PieceType::kPawn || t == PieceType::kBrawn || t == PieceType::kKing ||
         t == PieceType::kRook;
}

// The uppercase 5dpgn/5DFEN letter of a piece type ('P', 'W', 'K', 'C', 'Q', 'Y', 'S', 'N',
// 'R', 'B', 'U', 'D'); '?' for kNone.
char PieceLetter(PieceType t);
// The piece type of an uppercase or lowercase letter, kNone if the letter names no piece.
PieceType PieceTypeFromLetter(char c);
// The English name of a piece type ("pawn", "royal queen", ...).
std::string_view PieceName(PieceType t);

// The maximum board side. Every official variant is 8x8 or smaller.
constexpr int kMaxBoardSide = 16;
constexpr int kMaxSquares = kMaxBoardSide * kMaxBoardSide;

// The largest timeline index (on either side of 0) a replayed position may hold, and the
// half-turn its boards stay before.
// Moves keep both in 16 bits: an action or a search adds at most one timeline per board and one
// half-turn, which stays within them from here. Games beyond are rejected with an error.
constexpr int kMaxTimelineIndex = 10000;
constexpr int kMaxHalfTurn = 30000;

// A square on a board: file 0 = 'a', rank 0 = '1' (white's back rank).
struct Square {
  int8_t file = 0;
  int8_t rank = 0;
  constexpr bool operator==(const Square&) const = default;
};

// Algebraic name of a square ("e4"); files beyond 'z' are not supported (boards are <= 16 wide).
std::string SquareName(Square s);
// Appends SquareName(s) to `out`, without a temporary.
void AppendSquareName(Square s, std::string* out);
// Writes SquareName(s) at `end` (room for kMaxSquareNameChars); returns the end of what it wrote.
constexpr size_t kMaxSquareNameChars = 5;
char* PutSquareName(Square s, char* end);

// Half-turn index of a board: 2 * turn + (black ? 1 : 0). Turn zero variants start at T0 black,
// half-turn 1. Consecutive boards of a timeline have consecutive half-turns.
constexpr int HalfTurn(int turn, Color c) { return 2 * turn + (c == Color::kBlack ? 1 : 0); }
constexpr int TurnOf(int half_turn) { return half_turn >> 1; }
constexpr Color ColorOf(int half_turn) { return (half_turn & 1) ? Color::kBlack : Color::kWhite; }

// Timelines are stored as plain integers. In games with an odd number of initial timelines the
// index is the notation's number. In games with an even start ("-0" and "+0") the notation's
// non-negative numbers keep their value and negative ones shift down by one: "-0" is -1, "-1" is
// -2, and so on. This keeps -0 < +0, keeps neighbours one apart, and makes "next unused number"
// the same rule for both parities.
struct TimelineLabeling {
  bool even = false;
  // Notation text of a timeline index: "0", "+1", "-2" (odd); "-0", "+0", "+1", "-1" (even).
  std::string Label(int timeline) const;
  // Appends Label(timeline) to `out`, without a temporary.
  void AppendLabel(int timeline, std::string* out) const;
  // Writes Label(timeline) at `end` (room for kMaxLabelChars); returns the end of what it wrote.
  static constexpr size_t kMaxLabelChars = 12;
  char* PutLabel(int timeline, char* end) const;
  // Index of a notation number. `negative` is whether the text had a '-' sign (so that "-0" is
  // told apart from "0"/"+0"). In odd games "-0" and "+0" both mean 0.
  int FromNotation(bool negative, int magnitude) const;
};

}  // namespace fived

#endif  // FIVED_CORE_TYPES_H_
