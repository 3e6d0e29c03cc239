// A game's boards as a compact stream; see board_stream.h.
#include "core/board_stream.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <limits>

namespace fived {

namespace {

enum Kind : uint8_t { kContinue = 0, kBranch = 1, kWhole = 2 };

void PutVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>(value | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

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
  for (int i = 0; i < squares; ++i) count += a[i] != b[i];
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
  uint8_t board_squares[kMaxSquares];
  uint8_t parent_squares[kMaxSquares];
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
    Kind kind = kWhole;
    int parent_timeline = 0;
    int best = squares / 2;  // a whole board costs about as much as this many changes
    if (tip_half[line] != std::numeric_limits<int>::min()) {
      assert(tip_half[line] == half_turn - 1);
      Flatten(*position.BoardAt(timeline, half_turn - 1), parent_squares);
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
          std::memcpy(parent_squares, candidate, static_cast<size_t>(squares));
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
        if (parent_squares[s] == board_squares[s]) continue;
        out->push_back(static_cast<char>(s));
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
    ++index;
  });
}

bool BoardStreamReader::ReadVarint(uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size()) return false;
    const uint8_t byte = static_cast<uint8_t>(data_[pos_++]);
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

bool BoardStreamReader::ReadZigzag(int* value) {
  uint64_t raw = 0;
  if (!ReadVarint(&raw) || raw > 2u * kMaxHalfTurn + 2u * kMaxTimelineIndex + 2) return false;
  *value = (raw & 1) ? -static_cast<int>(raw >> 1) - 1 : static_cast<int>(raw >> 1);
  return true;
}

bool BoardStreamReader::Start(std::string_view data) {
  data_ = data;
  pos_ = 0;
  read_ = 0;
  action_ = 0;
  done_ = false;
  damaged_ = false;
  lines_.clear();
  min_timeline_ = 0;
  if (data.size() < 5 || static_cast<uint8_t>(data[0]) != kBoardStreamVersion) return Fail();
  width_ = static_cast<uint8_t>(data[1]);
  height_ = static_cast<uint8_t>(data[2]);
  if (width_ < 1 || width_ > kMaxBoardSide || height_ < 1 || height_ > kMaxBoardSide) {
    return Fail();
  }
  if (static_cast<uint8_t>(data[3]) > 1) return Fail();
  labeling_.even = data[3] == 1;
  pos_ = 4;
  uint64_t count = 0;
  // Each board takes at least two bytes: a count beyond that is damage. The boards' squares are
  // made room for as they are read, so that a damaged count allocates nothing.
  if (!ReadVarint(&count) || count > data.size() / 2) return Fail();
  board_count_ = static_cast<int>(count);
  squares_.clear();
  changed_.resize(static_cast<size_t>(width_) * height_);
  done_ = board_count_ == 0;
  return true;
}

BoardStreamReader::Line* BoardStreamReader::LineOf(int timeline, bool create) {
  if (lines_.empty()) {
    if (!create) return nullptr;
    min_timeline_ = timeline;
    lines_.emplace_back();
    return &lines_.back();
  }
  if (timeline < min_timeline_) {
    if (!create) return nullptr;
    lines_.insert(lines_.begin(), static_cast<size_t>(min_timeline_ - timeline), Line());
    min_timeline_ = timeline;
  }
  const size_t i = static_cast<size_t>(timeline - min_timeline_);
  if (i >= lines_.size()) {
    if (!create) return nullptr;
    lines_.resize(i + 1);
  }
  return &lines_[i];
}

int BoardStreamReader::IndexAt(int timeline, int half_turn) const {
  if (timeline < min_timeline_ || lines_.empty()) return -1;
  const size_t i = static_cast<size_t>(timeline - min_timeline_);
  if (i >= lines_.size()) return -1;
  const Line& line = lines_[i];
  const size_t k = static_cast<size_t>(half_turn - line.start_half);
  return half_turn >= line.start_half && k < line.boards.size() ? line.boards[k] : -1;
}

bool BoardStreamReader::Next(Entry* entry) {
  if (done_ || damaged_) return false;
  const int squares = width_ * height_;
  uint64_t head = 0;
  int timeline = 0;
  if (!ReadVarint(&head) || !ReadZigzag(&timeline)) return Fail();
  if (timeline < -kMaxTimelineIndex || timeline > kMaxTimelineIndex) return Fail();
  const uint64_t kind = head & 3;
  if (head & 4) ++action_;
  const uint64_t changes = head >> 3;
  if (changes > static_cast<uint64_t>(squares) || (kind == kWhole && changes != 0) || kind > 2) {
    return Fail();
  }
  const size_t needed = static_cast<size_t>(read_ + 1) * squares;
  if (squares_.size() < needed) squares_.resize(std::max(needed, 2 * squares_.size()));
  uint8_t* out = squares_.data() + static_cast<size_t>(read_) * squares;
  int parent = -1;
  int half_turn = 0;
  Line* line = LineOf(timeline, kind != kContinue);
  if (kind == kContinue) {
    if (line == nullptr || line->boards.empty()) return Fail();
    parent = line->boards.back();
    half_turn = line->start_half + static_cast<int>(line->boards.size());
  } else {
    if (!line->boards.empty()) return Fail();
    int parent_timeline = 0;
    uint64_t half = 0;
    if (kind == kBranch && !ReadZigzag(&parent_timeline)) return Fail();
    if (!ReadVarint(&half) || half > static_cast<uint64_t>(kMaxHalfTurn)) return Fail();
    half_turn = static_cast<int>(half);
    if (kind == kBranch) {
      parent = IndexAt(parent_timeline, half_turn - 1);
      if (parent < 0) return Fail();
    }
    line = LineOf(timeline, true);  // (IndexAt did not move lines_, but be plain about it)
    line->start_half = half_turn;
  }
  if (kind == kWhole) {
    if (data_.size() - pos_ < static_cast<size_t>(squares)) return Fail();
    std::memcpy(out, data_.data() + pos_, static_cast<size_t>(squares));
    pos_ += static_cast<size_t>(squares);
    for (int s = 0; s < squares; ++s) {
      if (out[s] > 63) return Fail();
    }
  } else {
    if (data_.size() - pos_ < 2 * changes) return Fail();
    std::memcpy(out, Squares(parent), static_cast<size_t>(squares));
    for (uint64_t c = 0; c < changes; ++c) {
      const uint8_t square = static_cast<uint8_t>(data_[pos_++]);
      const uint8_t piece = static_cast<uint8_t>(data_[pos_++]);
      if (square >= squares || piece > 63) return Fail();
      out[square] = piece;
      changed_[c] = square;
    }
  }
  line->boards.push_back(read_);
  entry->timeline = timeline;
  entry->half_turn = half_turn;
  entry->action = action_;
  entry->parent = parent;
  entry->changed = changed_.data();
  entry->changed_count = static_cast<int>(changes);
  ++read_;
  if (read_ == board_count_) done_ = true;
  return true;
}

bool BoardStreamFeatures(std::string_view stream, BoardStreamReader& reader,
                         std::vector<uint32_t>* features) {
  if (!reader.Start(stream)) return false;
  const int width = reader.width();
  const int height = reader.height();
  BoardStreamReader::Entry entry;
  for (int board = 0; reader.Next(&entry); ++board) {
    const uint8_t* squares = reader.Squares(board);
    if (entry.parent < 0) {
      for (int s = 0; s < width * height; ++s) {
        if (squares[s] != 0) features->push_back(PieceFeature(width, height, s, squares[s]));
      }
      continue;
    }
    for (int c = 0; c < entry.changed_count; ++c) {
      const int s = entry.changed[c];
      if (squares[s] != 0) features->push_back(PieceFeature(width, height, s, squares[s]));
    }
  }
  return !reader.Damaged();
}

}  // namespace fived
