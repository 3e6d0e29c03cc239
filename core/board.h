// One chess board of the multiverse: a grid of pieces of any size from 1x1 to 16x16, plus the
// one fact about its creation that movement needs (the square a pawn passed over with a double
// step, for en passant). Boards are values; once a board is added to a Position it never changes.
#ifndef FIVED_CORE_BOARD_H_
#define FIVED_CORE_BOARD_H_

#include <array>
#include <bit>
#include <cassert>
#include <cstdint>

#include "core/types.h"

namespace fived {

class alignas(64) Board {
 public:
  Board() = default;
  Board(int width, int height)
      : width_(static_cast<int8_t>(width)), height_(static_cast<int8_t>(height)) {
    assert(width >= 1 && width <= kMaxBoardSide && height >= 1 && height <= kMaxBoardSide);
  }

  int width() const { return width_; }
  int height() const { return height_; }
  bool Contains(int file, int rank) const {
    return static_cast<unsigned>(file) < static_cast<unsigned>(width_) &&
           static_cast<unsigned>(rank) < static_cast<unsigned>(height_);
  }

  Piece at(int file, int rank) const {
    assert(Contains(file, rank));
    return Piece::FromBits(squares_[Index(file, rank)]);
  }
  Piece at(Square s) const { return at(s.file, s.rank); }
  // The piece bytes of one rank, files 0 to width() - 1 (Piece::bits of each).
  const uint8_t* rank_bytes(int rank) const {
    assert(rank >= 0 && rank < height_);
    return &squares_[Index(0, rank)];
  }
  void Set(int file, int rank, Piece p) {
    assert(Contains(file, rank));
    uint8_t& square = squares_[Index(file, rank)];
    if (fits_bitboards()) {
      const uint64_t bit = uint64_t{1} << (rank * kBitboardSide + file);
      if (square != 0) {
        colour_bits_[square >> 4 & 1] &= ~bit;
        royal_bits_[square >> 4 & 1] &= ~bit;
        type_bits_[square & 0x0f] &= ~bit;
      }
      if (!p.empty()) {
        colour_bits_[p.bits() >> 4 & 1] |= bit;
        if (IsRoyal(p.type())) royal_bits_[p.bits() >> 4 & 1] |= bit;
        type_bits_[p.bits() & 0x0f] |= bit;
      }
    }
    square = p.bits();
  }
  void Set(Square s, Piece p) { Set(s.file, s.rank, p); }

  // En passant: when the move that created this board was a pawn's (or brawn's) double step on
  // the board before it, the square it passed over; the capturing pawn lands there and removes
  // the piece on ep_victim(). Otherwise has_en_passant() is false.
  bool has_en_passant() const { return ep_file_ >= 0; }
  Square en_passant_square() const { return {ep_file_, ep_rank_}; }
  Square en_passant_victim() const { return {ep_file_, ep_victim_rank_}; }
  void SetEnPassant(Square passed, Square victim) {
    ep_file_ = passed.file;
    ep_rank_ = passed.rank;
    ep_victim_rank_ = victim.rank;
  }
  void ClearEnPassant() { ep_file_ = -1; }

  // Bitboards of a board no larger than 8x8, kept up to date by Set(): bit rank * 8 + file is set
  // when that square holds a piece of the colour, or of the type. Larger boards have none
  // (fits_bitboards() is false) and every bitboard is zero.
  static constexpr int kBitboardSide = 8;
  bool fits_bitboards() const { return width_ <= kBitboardSide && height_ <= kBitboardSide; }
  uint64_t colour_bits(Color c) const { return colour_bits_[static_cast<int>(c)]; }
  uint64_t type_bits(PieceType t) const { return type_bits_[static_cast<int>(t)]; }
  uint64_t occupied_bits() const { return colour_bits_[0] | colour_bits_[1]; }
  uint64_t royal_bits(Color c) const { return royal_bits_[static_cast<int>(c)]; }
  uint64_t slider_bits(Color c) const {
    return (type_bits(PieceType::kQueen) | type_bits(PieceType::kRoyalQueen) |
            type_bits(PieceType::kPrincess) | type_bits(PieceType::kRook) |
            type_bits(PieceType::kBishop) | type_bits(PieceType::kUnicorn) |
            type_bits(PieceType::kDragon)) &
           colour_bits(c);
  }

  // Royal pieces (king, royal queen) and sliders (queen, royal queen, princess, rook, bishop,
  // unicorn, dragon) of each colour, by rank, then file. Boards of up to 8x8 read them from their
  // bitboards; larger boards record them in IndexPieces(), which positions call for every board
  // they store, so the check test finds them without scanning the board.
  // royals_overflow() / sliders_overflow() say a larger board has more than are recorded.
  static constexpr int kMaxRecordedRoyals = 6;
  static constexpr int kMaxRecordedSliders = 16;
  void IndexPieces() {
    if (fits_bitboards()) return;
    royal_count_[0] = royal_count_[1] = 0;
    slider_count_[0] = slider_count_[1] = 0;
    for (int rank = 0; rank < height_; ++rank) {
      for (int file = 0; file < width_; ++file) {
        const Piece p = at(file, rank);
        if (p.empty()) continue;
        const int c = static_cast<int>(p.color());
        const Square square{static_cast<int8_t>(file), static_cast<int8_t>(rank)};
        if (IsRoyal(p.type())) {
          if (royal_count_[c] < kMaxRecordedRoyals) royals_[c][royal_count_[c]] = square;
          ++royal_count_[c];
        }
        if (IsSlider(p.type())) {
          if (slider_count_[c] < kMaxRecordedSliders) sliders_[c][slider_count_[c]] = square;
          if (slider_count_[c] <= kMaxRecordedSliders) ++slider_count_[c];
        }
      }
    }
  }
  int royal_count(Color c) const {
    return fits_bitboards() ? std::popcount(royal_bits(c)) : royal_count_[static_cast<int>(c)];
  }
  bool royals_overflow() const {
    return royal_count_[0] > kMaxRecordedRoyals || royal_count_[1] > kMaxRecordedRoyals;
  }
  Square royal(Color c, int i) const {
    return fits_bitboards() ? NthSquare(royal_bits(c), i) : royals_[static_cast<int>(c)][i];
  }
  int slider_count(Color c) const {
    return fits_bitboards() ? std::popcount(slider_bits(c)) : slider_count_[static_cast<int>(c)];
  }
  bool sliders_overflow(Color c) const { return slider_count(c) > kMaxRecordedSliders; }
  Square slider(Color c, int i) const {
    return fits_bitboards() ? NthSquare(slider_bits(c), i) : sliders_[static_cast<int>(c)][i];
  }

  // Equality of content (pieces and size), ignoring en passant.
  bool SameContent(const Board& other) const {
    return width_ == other.width_ && height_ == other.height_ && squares_ == other.squares_;
  }

 private:
  static int Index(int file, int rank) { return rank * kMaxBoardSide + file; }
  // The square of the i-th set bit of a bitboard (counting from bit 0).
  static Square NthSquare(uint64_t bits, int i) {
    for (; i > 0; --i) bits &= bits - 1;
    const int bit = std::countr_zero(bits);
    return Square{static_cast<int8_t>(bit % kBitboardSide),
                  static_cast<int8_t>(bit / kBitboardSide)};
  }

  // What the check test reads of every board within reach comes first, in one cache line.
  uint64_t colour_bits_[2] = {0, 0};
  uint64_t royal_bits_[2] = {0, 0};  // kings and royal queens, by colour
  int8_t width_ = 8;
  int8_t height_ = 8;
  int8_t ep_file_ = -1;
  int8_t ep_rank_ = -1;
  int8_t ep_victim_rank_ = -1;
  uint8_t royal_count_[2] = {0, 0};
  Square royals_[2][kMaxRecordedRoyals] = {};
  uint8_t slider_count_[2] = {0, 0};
  Square sliders_[2][kMaxRecordedSliders] = {};
  uint64_t type_bits_[16] = {};  // by the low 4 bits of the piece byte
  std::array<uint8_t, kMaxSquares> squares_{};
};

}  // namespace fived

#endif  // FIVED_CORE_BOARD_H_
