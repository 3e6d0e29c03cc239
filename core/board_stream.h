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

// Reads a stream's boards. Each entry says where and when its board was added, and either the
// whole board or the squares changed from its parent (with the pieces before and after); with
// `keep_squares`, the reader also keeps every board's squares (width * height bytes a board) and
// checks each change's piece before against its parent. Not thread-safe; reuse one reader per
// thread: it allocates nothing once it has read a game as large.
//
// Read hands the boards to a function instead of returning them one by one, so that a search's
// matching is compiled into the decoding loop: a full scan reads every board of every game, and
// the loop keeps its place in registers (about 4 times faster than a call per board).
class BoardStreamReader {
 public:
  // Three bytes, as the stream stores a change: entries point into the stream itself.
  struct Change {
    uint8_t square;  // rank * width + file, below width * height
    uint8_t before;  // Piece::bits() on the parent, at most 63
    uint8_t after;   // Piece::bits() on this board, at most 63
  };
  static_assert(sizeof(Change) == 3 && alignof(Change) == 1);
  struct Entry {
    int index = 0;  // the board's place in the stream, from 0
    int timeline = 0;
    int half_turn = 0;
    int action = 0;
    int parent = -1;  // index of the board it was made from; -1 for a whole board
    // A whole board: its width * height piece bytes (rank * width + file); null otherwise.
    const uint8_t* whole = nullptr;
    // The squares that differ from the parent, when parent >= 0 (valid while the stream is).
    const Change* changes = nullptr;
    int change_count = 0;
  };

  BoardStreamReader();

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
  // Reads the boards after those read so far, calling visit(const Entry&) for each, until the
  // last or until visit returns false. Returns false when the stream is damaged (Damaged() true;
  // the boards before the damage were visited); a damaged stream reads no further.
  template <typename Visit>
  bool Read(Visit&& visit);
  bool Done() const { return read_ == board_count_ && !damaged_; }
  bool Damaged() const { return damaged_; }
  // With keep_squares: the piece bytes of board `index` (one already read), rank * width + file.
  const uint8_t* Squares(int index) const {
    return squares_.data() + static_cast<size_t>(index) * width_ * height_;
  }
  // The board at (timeline, half_turn) among those read, or -1.
  int IndexAt(int timeline, int half_turn) const;

 private:
  // A varint of more than one byte at p (below end); the byte after it, or null when the data
  // ends inside it.
  static const uint8_t* ReadLongVarint(const uint8_t* p, const uint8_t* end, uint64_t* value);
  // A varint at p, which must be below end.
  static const uint8_t* ReadVarint(const uint8_t* p, const uint8_t* end, uint64_t* value) {
    if (!(*p & 0x80)) {
      *value = *p;
      return p + 1;
    }
    return ReadLongVarint(p, end, value);
  }
  static int Unzigzag(uint64_t raw) {
    return (raw & 1) ? -static_cast<int>(raw >> 1) - 1 : static_cast<int>(raw >> 1);
  }

  const uint8_t* data_ = nullptr;
  const uint8_t* end_ = nullptr;
  const uint8_t* next_ = nullptr;  // the next board's head
  int width_ = 0, height_ = 0;
  TimelineLabeling labeling_;
  int board_count_ = 0;
  int read_ = 0;
  int action_ = 0;
  bool keep_squares_ = false;
  bool damaged_ = false;
  std::vector<uint8_t> squares_;
  // Per timeline t (at t + kMaxTimelineIndex): its first half-turn, its number of boards and its
  // last board, valid when its game is the reader's current one (generation == game_): starting a
  // game forgets the last one's timelines without touching them. Per board: the board before it
  // on its timeline (-1 for the first).
  struct Line {
    uint32_t generation = 0;
    int start_half = 0;
    int count = 0;
    int last = -1;
  };
  std::vector<Line> lines_;
  uint32_t game_ = 0;
  std::vector<int> previous_;  // by board
  const Line* FindLine(int timeline) const {
    if (timeline < -kMaxTimelineIndex || timeline > kMaxTimelineIndex) return nullptr;
    const Line& line = lines_[static_cast<size_t>(timeline + kMaxTimelineIndex)];
    return line.generation == game_ ? &line : nullptr;
  }
};

template <typename Visit>
bool BoardStreamReader::Read(Visit&& visit) {
  if (damaged_) return false;
  const uint8_t* p = next_;
  const uint8_t* const end = end_;
  const int squares = width_ * height_;
  int action = action_;
  int board = read_;
  Line* const lines = lines_.data() + kMaxTimelineIndex;
  int* const previous = previous_.data();
  // Members the loop reads, in locals: its stores (ints) could alias them otherwise.
  const int count = board_count_;
  const uint32_t game = game_;
  const bool keep_squares = keep_squares_;
  auto fail = [&] {
    damaged_ = true;
    read_ = board;
    return false;
  };
  Entry entry;
  for (; board < count; ++board) {
    uint64_t head = 0, zigzag = 0;
    // Most heads and timelines are one byte each.
    if (end - p >= 2 && !((p[0] | p[1]) & 0x80)) {
      head = p[0];
      zigzag = p[1];
      p += 2;
    } else {
      if (p >= end || !(p = ReadVarint(p, end, &head)) || p >= end ||
          !(p = ReadVarint(p, end, &zigzag)) || zigzag > 2u * kMaxTimelineIndex) {
        return fail();
      }
    }
    const int timeline = Unzigzag(zigzag);
    const uint64_t kind = head & 3;
    const uint64_t changes = head >> 3;
    action += static_cast<int>(head >> 2 & 1);
    if (changes > static_cast<uint64_t>(squares) || (kind == 2 && changes != 0) || kind > 2) {
      return fail();
    }
    Line& line = lines[timeline];
    int parent = -1;
    int half_turn = 0;
    if (kind == 0) {
      if (line.generation != game) return fail();
      parent = line.last;
      half_turn = line.start_half + line.count;
    } else {
      if (line.generation == game) return fail();
      uint64_t parent_zigzag = 0, half = 0;
      if (kind == 1 && (p >= end || !(p = ReadVarint(p, end, &parent_zigzag)) ||
                        parent_zigzag > 2u * kMaxTimelineIndex)) {
        return fail();
      }
      if (p >= end || !(p = ReadVarint(p, end, &half)) || half > kMaxHalfTurn) return fail();
      half_turn = static_cast<int>(half);
      if (kind == 1) {
        parent = IndexAt(Unzigzag(parent_zigzag), half_turn - 1);
        if (parent < 0) return fail();
      }
      line = Line{game, half_turn, 0, -1};
    }
    uint8_t* out = nullptr;
    if (keep_squares) {
      const size_t needed = static_cast<size_t>(board + 1) * squares;
      if (squares_.size() < needed) squares_.resize(std::max(needed, 2 * squares_.size()));
      out = squares_.data() + static_cast<size_t>(board) * squares;
    }
    entry.whole = nullptr;
    entry.changes = nullptr;
    if (kind == 2) {
      if (end - p < squares) return fail();
      for (int s = 0; s < squares; ++s) {
        if (p[s] > 63) return fail();
      }
      if (out) std::memcpy(out, p, static_cast<size_t>(squares));
      entry.whole = p;
      p += squares;
    } else {
      if (static_cast<uint64_t>(end - p) < 3 * changes) return fail();
      const Change* read = reinterpret_cast<const Change*>(p);
      p += 3 * changes;
      bool bad = false;
      for (uint64_t c = 0; c < changes; ++c) {
        bad |= (read[c].square >= squares) | (((read[c].before | read[c].after) & 0xC0) != 0);
      }
      if (bad) return fail();
      if (out) {
        std::memcpy(out, Squares(parent), static_cast<size_t>(squares));
        for (uint64_t c = 0; c < changes; ++c) {
          if (out[read[c].square] != read[c].before) return fail();
          out[read[c].square] = read[c].after;
        }
      }
      entry.changes = read;
    }
    previous[board] = line.last;
    line.last = board;
    ++line.count;
    entry.index = board;
    entry.timeline = timeline;
    entry.half_turn = half_turn;
    entry.action = action;
    entry.parent = parent;
    entry.change_count = static_cast<int>(changes);
    if (!visit(static_cast<const Entry&>(entry))) {
      ++board;
      break;
    }
  }
  next_ = p;
  read_ = board;
  action_ = action;
  return true;
}

}  // namespace fived

#endif  // FIVED_CORE_BOARD_STREAM_H_
