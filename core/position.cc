// The multiverse of boards; see position.h.
#include "core/position.h"

#include <algorithm>
#include <climits>
#include <map>

#include "core/fen.h"
#include "core/keys.h"

namespace fived {

Position::Position(const Position& other) { *this = other; }

Position& Position::operator=(const Position& other) {
  if (this == &other) return *this;
  width_ = other.width_;
  height_ = other.height_;
  labeling_ = other.labeling_;
  min_timeline_ = other.min_timeline_;
  max_timeline_ = other.max_timeline_;
  initial_min_ = other.initial_min_;
  initial_max_ = other.initial_max_;
  boards_ = other.boards_;
  log_ = other.log_;
  state_key_ = other.state_key_;
  keys_ = other.keys_;
  royal_overflow_ = other.royal_overflow_;
  positive_.assign(other.positive_.size(), Timeline());
  negative_.assign(other.negative_.size(), Timeline());
  for (int l = min_timeline_; l <= max_timeline_; ++l)
    MutableLine(l).start_half = other.Line(l).start_half;
  for (size_t i = 0; i < boards_.size(); ++i) {
    MutableLine(boards_[i].timeline).boards.push_back(&boards_[i]);
  }
  return *this;
}

Status Position::Init(int width, int height, bool even_timelines,
                      const std::vector<InitialBoard>& boards) {
  *this = Position();
  width_ = width;
  height_ = height;
  labeling_.even = even_timelines;
  if (boards.empty()) return Status::InvalidArgument("no starting boards");
  std::map<int, std::map<int, const Board*>> by_line;
  for (const InitialBoard& b : boards) {
    if (b.board.width() != width || b.board.height() != height) {
      return Status::InvalidArgument(
          "board " + labeling_.Label(b.timeline) + ":" + std::to_string(TurnOf(b.half_turn)) +
          " is " + std::to_string(b.board.width()) + "x" + std::to_string(b.board.height()) +
          ", the game is " + std::to_string(width) + "x" + std::to_string(height));
    }
    if (!by_line[b.timeline].emplace(b.half_turn, &b.board).second) {
      return Status::InvalidArgument("two starting boards at " + labeling_.Label(b.timeline) + ":" +
                                     std::to_string(TurnOf(b.half_turn)) + ":" +
                                     (ColorOf(b.half_turn) == Color::kWhite ? "w" : "b"));
    }
  }
  initial_min_ = by_line.begin()->first;
  initial_max_ = by_line.rbegin()->first;
  min_timeline_ = initial_min_;
  max_timeline_ = initial_max_;
  positive_.assign(std::max(0, initial_max_ + 1), Timeline());
  negative_.assign(std::max(0, -initial_min_), Timeline());
  for (const auto& [line, halves] : by_line) {
    int expected = halves.begin()->first;
    for (const auto& [half, board] : halves) {
      if (half != expected) {
        return Status::InvalidArgument("starting boards of timeline " + labeling_.Label(line) +
                                       " do not follow each other");
      }
      ++expected;
    }
    Timeline& t = MutableLine(line);
    t.start_half = halves.begin()->first;
    for (const auto& [half, board] : halves) AddBoard(line, half, *board);
  }
  log_.clear();  // the starting boards cannot be rolled back
  return Status();
}

Position::Timeline& Position::MutableLine(int timeline) {
  if (timeline >= 0) {
    if (static_cast<size_t>(timeline) >= positive_.size()) positive_.resize(timeline + 1);
    return positive_[timeline];
  }
  const size_t i = static_cast<size_t>(-timeline - 1);
  if (i >= negative_.size()) negative_.resize(i + 1);
  return negative_[i];
}

void Position::AddBoard(int timeline, int half_turn, const Board& board) {
  StoredBoard& stored = boards_.EmplaceBack();
  stored.board = board;
  FinishBoard(&stored, timeline, half_turn);
}

void Position::FinishBoard(StoredBoard* stored, int timeline, int half_turn) {
  const size_t before = boards_.size() - 1;  // boards before this one
  stored->board.IndexPieces();
  for (int c = 0; c < 2; ++c) {
    stored->royal_union[c] = (before == 0 ? 0 : boards_[before - 1].royal_union[c]) |
                             stored->board.royal_bits(static_cast<Color>(c));
  }
  royal_overflow_ = royal_overflow_ || stored->board.royals_overflow();
  stored->timeline = timeline;
  stored->half_turn = half_turn;
  stored->content_key = 0;
  if (keys_) {
    stored->content_key = BoardContentKey(stored->board);
    state_key_ += PlacedBoardKey(stored->content_key, timeline, half_turn);
  }
  std::vector<const StoredBoard*>& boards = MutableLine(timeline).boards;
  // Room for a typical game's timeline at once, instead of growing it board by board.
  if (boards.empty()) boards.reserve(32);
  boards.push_back(stored);
}

void Position::Log(LogEntry entry) {
  // Room for a typical game's boards at once, instead of growing the log board by board.
  if (log_.empty()) log_.reserve(64);
  log_.push_back(entry);
}

int Position::Present() const {
  int present = INT_MAX;
  for (int l = min_timeline_; l <= max_timeline_; ++l) {
    if (!HasTimeline(l) || !IsActive(l)) continue;
    present = std::min(present, TipHalf(l));
  }
  return present;
}

void Position::Append(int timeline, const Board& board) {
  AppendEdited(timeline, board, [](Board&) {});
}

int Position::CreateTimeline(Color creator, int half_turn, const Board& board) {
  return CreateTimelineEdited(creator, half_turn, board, [](Board&) {});
}

int Position::StartTimeline(Color creator, int half_turn) {
  const int timeline = creator == Color::kWhite ? max_timeline_ + 1 : min_timeline_ - 1;
  Timeline& t = MutableLine(timeline);
  t = Timeline();
  t.start_half = half_turn;
  if (creator == Color::kWhite) {
    max_timeline_ = timeline;
  } else {
    min_timeline_ = timeline;
  }
  return timeline;
}

void Position::Rollback(Mark mark) {
  while (log_.size() > mark.log_size) {
    const LogEntry entry = log_.back();
    log_.pop_back();
    Timeline& t = MutableLine(entry.timeline);
    const StoredBoard& stored = boards_.back();
    assert(stored.timeline == entry.timeline);
    if (keys_) state_key_ -= PlacedBoardKey(stored.content_key, stored.timeline, stored.half_turn);
    boards_.PopBack();
    t.boards.pop_back();
    if (entry.created) {
      assert(t.boards.empty());
      if (entry.timeline == max_timeline_) --max_timeline_;
      if (entry.timeline == min_timeline_) ++min_timeline_;
    }
  }
}

uint64_t Position::ContentKeyAt(int timeline, int half_turn) const {
  const Timeline& t = Line(timeline);
  return t.boards[half_turn - t.start_half]->content_key;
}

int Position::timeline_count() const {
  int n = 0;
  for (int l = min_timeline_; l <= max_timeline_; ++l) n += HasTimeline(l) ? 1 : 0;
  return n;
}

template <typename Sink>
void Position::WriteStateFen(Sink&& sink) const {
  char buffer[16384];
  char* end = buffer;
  std::string label;
  for (int l = min_timeline_; l <= max_timeline_; ++l) {
    const Timeline& t = Line(l);
    if (t.boards.empty()) continue;
    label.clear();
    labeling_.AppendLabel(l, &label);
    const size_t room = MaxFenBoardChars(label.size());
    FenRowCache rows;  // a timeline's boards follow one another: most ranks repeat
    for (size_t i = 0; i < t.boards.size(); ++i) {
      if (static_cast<size_t>(buffer + sizeof buffer - end) < room) {
        sink(std::string_view(buffer, static_cast<size_t>(end - buffer)));
        end = buffer;
      }
      const int h = t.start_half + static_cast<int>(i);
      end = PutFenBoard(t.boards[i]->board, label, TurnOf(h), ColorOf(h), end, &rows);
    }
  }
  sink(std::string_view(buffer, static_cast<size_t>(end - buffer)));
}

std::string Position::StateFen() const {
  std::string out;
  WriteStateFen([&](std::string_view text) { out += text; });
  return out;
}

std::string Position::StateMd5() const {
  Md5Stream md5;
  WriteStateFen([&](std::string_view text) { md5.Update(text); });
  return md5.Hex();
}

std::string Position::BoardFen(int timeline, int half_turn) const {
  std::string out;
  const Board* board = BoardAt(timeline, half_turn);
  assert(board != nullptr);
  AppendFenBoard(*board, labeling_.Label(timeline), TurnOf(half_turn), ColorOf(half_turn), &out);
  return out;
}

}  // namespace fived
