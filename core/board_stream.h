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
//     changes x (byte square = rank * width + file, byte piece before, byte piece after), the
//             pieces as Piece::bits(): with the piece before, a board can be matched against its
//             parent's result without the parent's squares being kept (query/pattern_search.h)
// Varints are unsigned LEB128; zigzag maps 0, -1, 1, -2 ... to 0, 1, 2, 3 ... Timelines are the
// engine's internal indexes (core/types.h), half-turns 2 * turn + (black ? 1 : 0).
#ifndef FIVED_CORE_BOARD_STREAM_H_
#define FIVED_CORE_BOARD_STREAM_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
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

// Reads a stream board by board. Each entry says where and when its board was added, and either
// the whole board or the squares changed from its parent (with the pieces before and after); with
// `keep_squares`, the reader also keeps every board's squares (width * height bytes a board) and
// checks each change's piece before against its parent. Not thread-safe; reuse one reader per
// thread: it allocates nothing once it has read a game as large.
class BoardStreamReader {
 public:
  // Three bytes, as the stream stores a change: entries point into the stream itself.
  struct Change {
    uint8_t square;  // rank * width + file
    uint8_t before;  // Piece::bits() on the parent
    uint8_t after;   // Piece::bits() on this board
  };
  static_assert(sizeof(Change) == 3 && alignof(Change) == 1);
  struct Entry {
    int timeline = 0;
    int half_turn = 0;
    int action = 0;
    int parent = -1;  // index of the board it was made from; -1 for a whole board
    // A whole board: its width * height piece bytes (rank * width + file); null otherwise.
    const uint8_t* whole = nullptr;
    // The squares that differ from the parent, when parent >= 0 (valid until the next Next).
    const Change* changes = nullptr;
    int change_count = 0;
  };

  // Starts reading `data` (which must outlive the reading). False when its header is damaged or
  // of another version.
  bool Start(std::string_view data, bool keep_squares = false);
  int width() const { return width_; }
  int height() const { return height_; }
  // How the game numbers its timelines (for pins written as the notation writes timelines).
  const TimelineLabeling& labeling() const { return labeling_; }
  int board_count() const { return board_count_; }
  // The boards read so far.
  int boards_read() const { return read_; }
  // Reads the next board into `entry`. False at the end (Done() true) or when the stream is
  // damaged (Damaged() true); a damaged stream reads no further.
  bool Next(Entry* entry);
  bool Done() const { return done_; }
  bool Damaged() const { return damaged_; }
  // With keep_squares: the piece bytes of board `index` (one already read), rank * width + file.
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
  // Most varints are one byte: that case is inline.
  bool ReadVarint(uint64_t* value) {
    if (pos_ < data_.size() && !(data_[pos_] & 0x80)) {
      *value = static_cast<uint8_t>(data_[pos_++]);
      return true;
    }
    return ReadLongVarint(value);
  }
  bool ReadLongVarint(uint64_t* value);
  bool ReadZigzag(int* value) {
    uint64_t raw = 0;
    if (!ReadVarint(&raw) || raw > 2u * kMaxHalfTurn + 2u * kMaxTimelineIndex + 2) return false;
    *value = (raw & 1) ? -static_cast<int>(raw >> 1) - 1 : static_cast<int>(raw >> 1);
    return true;
  }

  std::string_view data_;
  size_t pos_ = 0;
  int width_ = 0, height_ = 0;
  TimelineLabeling labeling_;
  int board_count_ = 0;
  int read_ = 0;
  int action_ = 0;
  bool keep_squares_ = false;
  bool done_ = false;
  bool damaged_ = false;
  std::vector<uint8_t> squares_;
  // Per timeline: its first half-turn, its number of boards and its last board; timeline t >= 0
  // at lines_[0][t], t < 0 at lines_[1][-t - 1]; and per board the board before it on its
  // timeline (-1 for the first). Kept from game to game (`used` reset, the board arrays only
  // grown).
  struct Line {
    bool used = false;
    int start_half = 0;
    int count = 0;
    int last = -1;
  };
  std::vector<Line> lines_[2];
  std::vector<int> previous_;  // by board
  const Line* FindLine(int timeline) const;
  Line* LineOf(int timeline, bool create) {
    std::vector<Line>& side = lines_[timeline < 0 ? 1 : 0];
    const size_t i = static_cast<size_t>(timeline < 0 ? -timeline - 1 : timeline);
    if (i >= side.size()) {
      if (!create) return nullptr;
      side.resize(i + 1);
    }
    Line& line = side[i];
    if (!line.used) {
      if (!create) return nullptr;
      line = Line{true, 0, 0, -1};
    }
    return &line;
  }
};

// Inline: a search calls it for every board of every game it reads (kind 0 continues a timeline,
// 1 starts one, 2 is a whole board).
inline bool BoardStreamReader::Next(Entry* entry) {
  if (done_ || damaged_) return false;
  const int squares = width_ * height_;
  uint64_t head = 0;
  int timeline = 0;
  if (!ReadVarint(&head) || !ReadZigzag(&timeline)) return Fail();
  if (timeline < -kMaxTimelineIndex || timeline > kMaxTimelineIndex) return Fail();
  const uint64_t kind = head & 3;
  if (head & 4) ++action_;
  const uint64_t changes = head >> 3;
  if (changes > static_cast<uint64_t>(squares) || (kind == 2 && changes != 0) || kind > 2) {
    return Fail();
  }
  if (previous_.size() <= static_cast<size_t>(read_)) previous_.resize(2 * previous_.size() + 64);
  int parent = -1;
  int half_turn = 0;
  Line* line = LineOf(timeline, kind != 0);
  if (kind == 0) {
    if (line == nullptr || line->count == 0) return Fail();
    parent = line->last;
    half_turn = line->start_half + line->count;
  } else {
    if (line->count != 0) return Fail();
    int parent_timeline = 0;
    uint64_t half = 0;
    if (kind == 1 && !ReadZigzag(&parent_timeline)) return Fail();
    if (!ReadVarint(&half) || half > static_cast<uint64_t>(kMaxHalfTurn)) return Fail();
    half_turn = static_cast<int>(half);
    if (kind == 1) {
      parent = IndexAt(parent_timeline, half_turn - 1);
      if (parent < 0) return Fail();
    }
    line->start_half = half_turn;
  }
  uint8_t* out = nullptr;
  if (keep_squares_) {
    const size_t needed = static_cast<size_t>(read_ + 1) * squares;
    if (squares_.size() < needed) squares_.resize(std::max(needed, 2 * squares_.size()));
    out = squares_.data() + static_cast<size_t>(read_) * squares;
  }
  entry->whole = nullptr;
  entry->changes = nullptr;
  if (kind == 2) {
    if (data_.size() - pos_ < static_cast<size_t>(squares)) return Fail();
    const uint8_t* whole = reinterpret_cast<const uint8_t*>(data_.data() + pos_);
    pos_ += static_cast<size_t>(squares);
    for (int s = 0; s < squares; ++s) {
      if (whole[s] > 63) return Fail();
    }
    if (out) std::memcpy(out, whole, static_cast<size_t>(squares));
    entry->whole = whole;
  } else {
    if (data_.size() - pos_ < 3 * changes) return Fail();
    const Change* read = reinterpret_cast<const Change*>(data_.data() + pos_);
    pos_ += 3 * changes;
    for (uint64_t c = 0; c < changes; ++c) {
      if (read[c].square >= squares || read[c].before > 63 || read[c].after > 63) return Fail();
    }
    if (out) {
      std::memcpy(out, Squares(parent), static_cast<size_t>(squares));
      for (uint64_t c = 0; c < changes; ++c) {
        if (out[read[c].square] != read[c].before) return Fail();
        out[read[c].square] = read[c].after;
      }
    }
    entry->changes = read;
  }
  previous_[static_cast<size_t>(read_)] = line->last;
  line->last = read_;
  ++line->count;
  entry->timeline = timeline;
  entry->half_turn = half_turn;
  entry->action = action_;
  entry->parent = parent;
  entry->change_count = static_cast<int>(changes);
  ++read_;
  if (read_ == board_count_) done_ = true;
  return true;
}

}  // namespace fived

#endif  // FIVED_CORE_BOARD_STREAM_H_
