// A game's boards as a compact stream; see board_stream.h.
#include "core/board_stream.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <limits>

#include "core/varint.h"

namespace fived {

namespace {

enum Kind : uint8_t { kContinue = 0, kBranch = 1, kWhole = 2 };

uint64_t Zigzag(int value) {
  return value >= 0 ? static_cast<uint64_t>(value) * 2
                    : static_cast<uint64_t>(-(value + 1)) * 2 + 1;
}

// The board's squares, rank * width + file.
void Flatten(const Board& board, uint8_t* out) {
  const int width = board.width();
  for (int rank = 0; rank < board.height(); ++rank) {
    std::memcpy(out + rank * width, board.rank_bytes(rank), static_cast<size_t>(width));
  }
}

int Differences(const uint8_t* a, const uint8_t* b, int squares) {
  int count = 0;
  int i = 0;
  for (; i + 8 <= squares; i += 8) {
    uint64_t x = 0, y = 0;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x == y) continue;
    for (int k = i; k < i + 8; ++k) count += a[k] != b[k];
  }
  for (; i < squares; ++i) count += a[i] != b[i];
  return count;
}

}  // namespace

void EncodeBoardStream(const Position& position, std::span<const size_t> boards_after,
                       std::string* out, std::vector<uint32_t>* features) {
  const int width = position.width();
  const int height = position.height();
  const int squares = width * height;
  out->push_back(static_cast<char>(kBoardStreamVersion));
  out->push_back(static_cast<char>(width));
  out->push_back(static_cast<char>(height));
  out->push_back(static_cast<char>(position.labeling().even ? 1 : 0));
  PutVarint(position.board_count(), out);

  // Per timeline seen so far (index - min_timeline): its first and last half-turn written.
  const int min_timeline = position.min_timeline();
  const int lines = position.max_timeline() - min_timeline + 1;
  std::vector<int> start_half(static_cast<size_t>(lines), 0);
  std::vector<int> tip_half(static_cast<size_t>(lines), std::numeric_limits<int>::min());
  auto written = [&](int timeline, int half_turn) {
    const size_t l = static_cast<size_t>(timeline - min_timeline);
    return tip_half[l] != std::numeric_limits<int>::min() && start_half[l] <= half_turn &&
           half_turn <= tip_half[l];
  };
  // The last board written of each timeline, flattened: the parent of the next one.
  thread_local std::vector<uint8_t> tips;
  tips.resize(static_cast<size_t>(lines) * squares);
  uint8_t board_squares[kMaxSquares];
  uint8_t branch_parent[kMaxSquares];
  uint8_t candidate[kMaxSquares];
  size_t index = 0;
  size_t action = 0;
  position.ForEachBoardInOrder([&](int timeline, int half_turn, uint64_t) {
    bool new_action = false;
    while (action < boards_after.size() && index >= boards_after[action]) {
      ++action;
      new_action = true;
    }
    // The boards of action 0 come first; an action adds at least one board.
    if (index == 0) new_action = false;
    const Board* board = position.BoardAt(timeline, half_turn);
    assert(board != nullptr);
    Flatten(*board, board_squares);
    const size_t line = static_cast<size_t>(timeline - min_timeline);
    uint8_t* tip = &tips[line * squares];
    Kind kind = kWhole;
    int parent_timeline = 0;
    const uint8_t* parent_squares = nullptr;
    int best = squares / 2;  // a whole board costs about as much as this many changes
    if (tip_half[line] != std::numeric_limits<int>::min()) {
      assert(tip_half[line] == half_turn - 1);
      parent_squares = tip;
      kind = kContinue;
    } else {
      // A new timeline: made from a board of the half-turn before (the board a piece travelled
      // to); the one that differs least is as good and needs no move to be known.
      for (int p = min_timeline; p <= position.max_timeline(); ++p) {
        if (p == timeline || !written(p, half_turn - 1)) continue;
        Flatten(*position.BoardAt(p, half_turn - 1), candidate);
        const int differences = Differences(candidate, board_squares, squares);
        if (differences < best) {
          best = differences;
          parent_timeline = p;
          std::memcpy(branch_parent, candidate, static_cast<size_t>(squares));
          parent_squares = branch_parent;
          kind = kBranch;
        }
      }
    }
    int changes = 0;
    if (kind != kWhole) changes = Differences(parent_squares, board_squares, squares);
    PutVarint(static_cast<uint64_t>(changes) << 3 | (new_action ? 4u : 0u) | kind, out);
    PutVarint(Zigzag(timeline), out);
    if (kind == kBranch) {
      PutVarint(Zigzag(parent_timeline), out);
      PutVarint(static_cast<uint64_t>(half_turn), out);
    } else if (kind == kWhole) {
      PutVarint(static_cast<uint64_t>(half_turn), out);
      out->append(reinterpret_cast<const char*>(board_squares), static_cast<size_t>(squares));
    }
    // A board holds its parent's pieces and the changed squares' new ones, so those are all the
    // features it adds.
    if (kind != kWhole) {
      for (int s = 0; s < squares; ++s) {
        // Most of a board is its parent's: equal words are passed eight squares at a time.
        if ((s & 7) == 0 && s + 8 <= squares) {
          uint64_t a = 0, b = 0;
          std::memcpy(&a, parent_squares + s, 8);
          std::memcpy(&b, board_squares + s, 8);
          if (a == b) {
            s += 7;
            continue;
          }
        }
        if (parent_squares[s] == board_squares[s]) continue;
        out->push_back(static_cast<char>(s));
        out->push_back(static_cast<char>(parent_squares[s]));
        out->push_back(static_cast<char>(board_squares[s]));
        if (features && board_squares[s] != 0) {
          features->push_back(PieceFeature(width, height, s, board_squares[s]));
        }
      }
    } else if (features) {
      for (int s = 0; s < squares; ++s) {
        if (board_squares[s] != 0) {
          features->push_back(PieceFeature(width, height, s, board_squares[s]));
        }
      }
    }
    if (tip_half[line] == std::numeric_limits<int>::min()) start_half[line] = half_turn;
    tip_half[line] = half_turn;
    std::memcpy(tip, board_squares, static_cast<size_t>(squares));
    ++index;
  });
}

const uint8_t* BoardStreamReader::ReadLongVarint(const uint8_t* p, const uint8_t* end,
                                                 uint64_t* value) {
  size_t pos = 0;
  if (!GetVarint(std::span<const uint8_t>(p, static_cast<size_t>(end - p)), &pos, value)) {
    return nullptr;
  }
  return p + pos;
}

BoardStreamReader::BoardStreamReader() : lines_(2 * kMaxTimelineIndex + 1) {}

bool BoardStreamReader::Start(std::string_view data, bool keep_squares) {
  data_ = reinterpret_cast<const uint8_t*>(data.data());
  end_ = data_ + data.size();
  next_ = data_;
  read_ = 0;
  action_ = 0;
  board_count_ = 0;
  keep_squares_ = keep_squares;
  damaged_ = false;
  // A new generation forgets every timeline of the last game.
  if (++game_ == 0) {
    for (Line& line : lines_) line.generation = 0;
    game_ = 1;
  }
  auto fail = [this] {
    damaged_ = true;
    return false;
  };
  if (data.size() < 5 || data_[0] != kBoardStreamVersion) return fail();
  width_ = data_[1];
  height_ = data_[2];
  if (width_ < 1 || width_ > kMaxBoardSide || height_ < 1 || height_ > kMaxBoardSide) {
    return fail();
  }
  if (data_[3] > 1) return fail();
  labeling_.even = data_[3] == 1;
  uint64_t count = 0;
  // Each board takes at least two bytes: a count beyond that is damage (and allocates nothing).
  next_ = ReadVarint(data_ + 4, end_, &count);
  if (next_ == nullptr || count > data.size() / 2) return fail();
  board_count_ = static_cast<int>(count);
  if (previous_.size() < count) previous_.resize(std::max<size_t>(count, 2 * previous_.size()));
  return true;
}

int BoardStreamReader::IndexAt(int timeline, int half_turn) const {
  const Line* line = FindLine(timeline);
  if (line == nullptr) return -1;
  if (half_turn < line->start_half || half_turn >= line->start_half + line->count) return -1;
  // Back from the timeline's last board: a branch's parent is usually near the tip.
  int board = line->last;
  for (int steps = line->start_half + line->count - 1 - half_turn; steps > 0; --steps) {
    board = previous_[static_cast<size_t>(board)];
  }
  return board;
}

bool BoardStreamFeatures(std::string_view stream, BoardStreamReader& reader,
                         std::vector<uint32_t>* features) {
  if (!reader.Start(stream)) return false;
  const int width = reader.width();
  const int height = reader.height();
  return reader.Read([&](const BoardStreamReader::Entry& entry) {
    if (entry.whole) {
      for (int s = 0; s < width * height; ++s) {
        if (entry.whole[s] != 0) {
          features->push_back(PieceFeature(width, height, s, entry.whole[s]));
        }
      }
      return true;
    }
    for (int c = 0; c < entry.change_count; ++c) {
      const BoardStreamReader::Change& change = entry.changes[c];
      if (change.after != 0) {
        features->push_back(PieceFeature(width, height, change.square, change.after));
      }
    }
    return true;
  });
}

}  // namespace fived
