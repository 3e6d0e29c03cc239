// A game's boards as a compact stream: every board the game ever had, in the order it was added,
// each written as the board it was made from plus the squares that changed. This is what the
// pattern index (schema/pattern_index.h) keeps per game, so that "which games had a board like
// this" is answered by decoding streams, about 5 bytes a board, instead of replaying games.
//
// A game's boards never disappear: every board of every state is in its final position, so the
// final position's boards, in the order they were added, are all the boards of the game, and the
// action that added each one is the first action after which it stood.
//
// Format (version kBoardStreamVersion; frozen with the schema version):
//   byte    version
//   byte    width, byte height
//   byte    flags: bit 0 set when the game starts with timelines -0 and +0 (an even start, whose
//           timelines are numbered as TimelineLabeling says)
//   varint  number of boards
//   per board:
//     varint  head = changes << 3 | new_action << 2 | kind
//             new_action: the board is the first of the next action (the first boards, those of
//             the starting position, are action 0; every action adds at least one board)
//     kind 0  the next board of an existing timeline: zigzag timeline; its parent is that
//             timeline's last board, its half-turn one more
//     kind 1  the first board of a new timeline: zigzag timeline, zigzag parent timeline, varint
//             half-turn; its parent is the parent timeline's board at the half-turn before
//     kind 2  a whole board: zigzag timeline, varint half-turn, width * height piece bytes
//             (rank * width + file; changes is 0)
//     changes x (byte square = rank * width + file, byte piece = Piece::bits())
// Varints are unsigned LEB128; zigzag maps 0, -1, 1, -2 ... to 0, 1, 2, 3 ... Timelines are the
// engine's internal indexes (core/types.h), half-turns 2 * turn + (black ? 1 : 0).
#ifndef FIVED_CORE_BOARD_STREAM_H_
#define FIVED_CORE_BOARD_STREAM_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace fived {

inline constexpr uint8_t kBoardStreamVersion = 1;

// Appends the stream of `position`'s boards to `out`. `boards_after[a]` is the number of boards
// after action a (index 0: the starting position), as a replay counts them; the boards past the
// last entry count as one more action. When `features` is given, every (square, piece) any board
// holds is appended to it as PieceFeature(width, height, square, piece) (empty squares left out;
// in no order, with repeats: each whole board's pieces and each change's new piece).
void EncodeBoardStream(const Position& position, std::span<const size_t> boards_after,
                       std::string* out, std::vector<uint32_t>* features = nullptr);

// The key of "a board of this size holds this piece on this square" in the pattern index:
// (width - 1) << 18 | (height - 1) << 14 | square << 6 | piece, square = rank * width + file.
constexpr uint32_t PieceFeature(int width, int height, int square, uint8_t piece) {
  return static_cast<uint32_t>(width - 1) << 18 | static_cast<uint32_t>(height - 1) << 14 |
         static_cast<uint32_t>(square) << 6 | (piece & 63u);
}

class BoardStreamReader;
// The features of a stream's boards as EncodeBoardStream gives them (each whole board's pieces
// and each change's new piece, with repeats), appended to `features`; false when the stream is
// damaged. For copying a game's part of the pattern index without its position (5d-index merge).
bool BoardStreamFeatures(std::string_view stream, BoardStreamReader& reader,
                         std::vector<uint32_t>* features);

// Reads a stream board by board, keeping every board's squares (the reader owns them; a game's
// boards take width * height bytes each). Not thread-safe; reuse one reader per thread.
class BoardStreamReader {
 public:
  struct Entry {
    int timeline = 0;
    int half_turn = 0;
    int action = 0;
    int parent = -1;  // index of the board it was made from; -1 for a whole board
    // The squares that differ from the parent (indexes rank * width + file), when parent >= 0.
    const uint8_t* changed = nullptr;
    int changed_count = 0;
  };

  // Starts reading `data` (which must outlive the reading). False when its header is damaged or
  // of another version.
  bool Start(std::string_view data);
  int width() const { return width_; }
  int height() const { return height_; }
  // How the game numbers its timelines (for pins written as the notation writes timelines).
  const TimelineLabeling& labeling() const { return labeling_; }
  int board_count() const { return board_count_; }
  // Reads the next board into `entry`. False at the end (Done() true) or when the stream is
  // damaged (Damaged() true); a damaged stream reads no further.
  bool Next(Entry* entry);
  bool Done() const { return done_; }
  bool Damaged() const { return damaged_; }
  // The piece bytes of board `index` (one already read), rank * width + file.
  const uint8_t* Squares(int index) const {
    return squares_.data() + static_cast<size_t>(index) * width_ * height_;
  }
  // The board at (timeline, half_turn) among those read, or -1.
  int IndexAt(int timeline, int half_turn) const;

 private:
  bool Fail() {
    damaged_ = true;
    return false;
  }
  bool ReadVarint(uint64_t* value);
  bool ReadZigzag(int* value);

  std::string_view data_;
  size_t pos_ = 0;
  int width_ = 0, height_ = 0;
  TimelineLabeling labeling_;
  int board_count_ = 0;
  int read_ = 0;
  int action_ = 0;
  bool done_ = false;
  bool damaged_ = false;
  std::vector<uint8_t> squares_;
  std::vector<uint8_t> changed_;
  // Per timeline (index - min_timeline_): its first half-turn and its boards' indexes.
  struct Line {
    int start_half = 0;
    std::vector<int> boards;
  };
  std::vector<Line> lines_;
  int min_timeline_ = 0;
  Line* LineOf(int timeline, bool create);
};

}  // namespace fived

#endif  // FIVED_CORE_BOARD_STREAM_H_
