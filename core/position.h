// The multiverse: every board of a game, grouped into timelines, plus what follows from them:
// which timelines are active, where the present is, whose turn it is, and the state key.
//
// Boards are append-only. A timeline is a run of boards on consecutive half-turns (see types.h);
// its last board is its tip. New boards are added at a tip or start a new timeline. Mark() and
// Rollback() undo appends cheaply (for trying a move), and nothing else ever changes a board.
//
// Not thread-safe; one Position per game per thread.
#ifndef FIVED_CORE_POSITION_H_
#define FIVED_CORE_POSITION_H_

#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/board.h"
#include "core/status.h"
#include "core/types.h"

namespace fived {

class Position {
 public:
  // A board of the starting position at its coordinates (internal timeline index, half-turn).
  struct InitialBoard {
    Board board;
    int timeline = 0;
    int half_turn = 2;
  };

  Position() = default;
  // Copies hold their own boards (the timelines' pointers are rebuilt).
  Position(const Position& other);
  Position& operator=(const Position& other);
  Position(Position&&) = default;
  Position& operator=(Position&&) = default;
  // Builds the starting position. Fails (kInvalidArgument, saying why) when the boards do not
  // form timelines of consecutive half-turns, or sizes differ.
  Status Init(int width, int height, bool even_timelines, const std::vector<InitialBoard>& boards);

  int width() const { return width_; }
  int height() const { return height_; }
  const TimelineLabeling& labeling() const { return labeling_; }

  int min_timeline() const { return min_timeline_; }
  int max_timeline() const { return max_timeline_; }
  bool HasTimeline(int timeline) const {
    return timeline >= min_timeline_ && timeline <= max_timeline_ && !Line(timeline).boards.empty();
  }
  int StartHalf(int timeline) const { return Line(timeline).start_half; }
  int TipHalf(int timeline) const {
    const Timeline& t = Line(timeline);
    return t.start_half + static_cast<int>(t.boards.size()) - 1;
  }
  // The board of a timeline at a half-turn, or nullptr when there is none.
  const Board* BoardAt(int timeline, int half_turn) const;
  const Board& Tip(int timeline) const { return Line(timeline).boards.back()->board; }

  // The boards of one timeline (none when it does not exist), for loops that read several.
  class TimelineView;
  TimelineView ViewOf(int timeline) const;

  // Timelines created by each side so far (beyond the initial ones).
  int CreatedBy(Color c) const {
    return c == Color::kWhite ? max_timeline_ - initial_max_ : initial_min_ - min_timeline_;
  }
  // The timelines the starting position had (every other one was created by a player: higher
  // ones by white, lower ones by black).
  int initial_min() const { return initial_min_; }
  int initial_max() const { return initial_max_; }
  // The n-th timeline created by a player is active iff the opponent created at least n-1.
  bool IsActive(int timeline) const {
    if (timeline > initial_max_) return timeline - initial_max_ <= CreatedBy(Color::kBlack) + 1;
    if (timeline < initial_min_) return initial_min_ - timeline <= CreatedBy(Color::kWhite) + 1;
    return true;
  }
  // The present: the earliest tip (half-turn) among active timelines.
  int Present() const;
  // Whose turn it is: the colour of the present.
  Color ToMove() const { return ColorOf(Present()); }

  // Adds a board after the tip of a timeline.
  void Append(int timeline, const Board& board);
  // Starts a new timeline for `creator` (the next unused number on its side) whose first board
  // is at `half_turn`. Returns the new timeline's index.
  int CreateTimeline(Color creator, int half_turn, const Board& board);
  // The same for a copy of `board` (which may be one of the position's) changed by edit(Board&)
  // before it is added: the copy is made where the board is kept, not once more on the way (a
  // board is over 500 bytes, and moves are tried by the million).
  template <typename Edit>
  void AppendEdited(int timeline, const Board& board, Edit&& edit);
  template <typename Edit>
  int CreateTimelineEdited(Color creator, int half_turn, const Board& board, Edit&& edit);

  // Undo support: a mark records the number of appends so far.
  struct Mark {
    size_t log_size = 0;
  };
  Mark GetMark() const { return Mark{log_.size()}; }
  void Rollback(Mark mark);

  // The state key (keys.h): sum of the placed keys of every board.
  uint64_t StateKey() const { return state_key_; }
  // Searches that never read keys may turn them off: boards added afterwards get none (their
  // content key is 0) and StateKey stops changing, so neither means anything any more. Cheaper:
  // hashing a board is a good part of adding it. Copies keep the setting.
  void DropKeys() { keys_ = false; }
  // Whether boards added now get keys; and turning them back on after DropKeys, which is right
  // only when every board added in between was rolled back (then the state key is what it was).
  bool keys() const { return keys_; }
  void RestoreKeys() { keys_ = true; }
  // Content key of the board at (timeline, half_turn); the board must exist.
  uint64_t ContentKeyAt(int timeline, int half_turn) const;

  size_t board_count() const { return boards_.size(); }
  // Whether some board ever held more royal pieces of a colour than Board records.
  bool royal_overflow() const { return royal_overflow_; }
  // Every square where some board of the position holds a royal piece of colour c, on boards of
  // up to 8x8 (from Board::royal_bits; 0 for larger boards). The check test skips the pieces
  // that stand on no line with any of them.
  uint64_t royal_squares(Color c) const {
    return boards_.size() == 0 ? 0 : boards_.back().royal_union[static_cast<int>(c)];
  }
  int timeline_count() const;

  // Calls f(timeline, half_turn, board) for every board in the specification's order: timeline
  // ascending, then half-turn ascending (white before black within a turn).
  template <typename F>
  void ForEachBoard(F&& f) const {
    AnyBoard([&](int timeline, int half_turn, const Board& board) {
      f(timeline, half_turn, board);
      return false;
    });
  }

  // Whether f(timeline, half_turn, board) holds for some board, trying them in ForEachBoard's
  // order and stopping at the first that does.
  template <typename F>
  bool AnyBoard(F&& f) const {
    for (int l = min_timeline_; l <= max_timeline_; ++l) {
      const Timeline& t = Line(l);
      for (size_t i = 0; i < t.boards.size(); ++i) {
        if (f(l, t.start_half + static_cast<int>(i), t.boards[i]->board)) return true;
      }
    }
    return false;
  }

  // Calls f(timeline, half_turn, content_key) for every board in the order they were added
  // (starting boards first), so that boards [a, b) are the ones an action added when the board
  // count went from a to b.
  template <typename F>
  void ForEachBoardInOrder(F&& f) const {
    for (size_t i = 0; i < boards_.size(); ++i) {
      const StoredBoard& stored = boards_[i];
      f(stored.timeline, stored.half_turn, stored.content_key);
    }
  }

  // The full-state 5DFEN: every board's canonical string in the specification's order.
  std::string StateFen() const;
  // The specification's full-state MD5 (lowercase hex).
  std::string StateMd5() const;
  // The canonical string of one board.
  std::string BoardFen(int timeline, int half_turn) const;

 private:
  // Writes the full-state 5DFEN a piece at a time: sink(text) with consecutive pieces of it,
  // written board after board into a buffer on the stack (nothing allocated, nothing copied
  // twice).
  template <typename Sink>
  void WriteStateFen(Sink&& sink) const;

  struct StoredBoard;
  // A timeline exists while it has boards.
  struct Timeline {
    int start_half = 0;
    std::vector<const StoredBoard*> boards;  // into boards_ (pointers stay valid)
  };
  struct StoredBoard {
    Board board;
    uint64_t content_key = 0;
    // royal_squares() of the position made of the boards up to this one, in the order added:
    // the last board's is the position's, and a rollback restores it for free.
    uint64_t royal_union[2] = {0, 0};
    int timeline = 0;
    int half_turn = 0;
  };
  // The boards in the order they were added, in fixed blocks that never move (pointers into
  // them stay valid). Rolled-back boards keep their block for the next ones: trying moves
  // allocates nothing.
  class BoardStore {
   public:
    BoardStore() = default;
    BoardStore(const BoardStore& other) { *this = other; }
    BoardStore& operator=(const BoardStore& other) {
      if (this == &other) return *this;
      size_ = 0;
      for (size_t i = 0; i < other.size_; ++i) EmplaceBack() = other[i];
      return *this;
    }
    BoardStore(BoardStore&&) = default;
    BoardStore& operator=(BoardStore&& other) {
      if (this != &other) {
        Recycle();
        blocks_ = std::move(other.blocks_);
        size_ = std::exchange(other.size_, 0);
      }
      return *this;
    }
    ~BoardStore() { Recycle(); }

    size_t size() const { return size_; }
    const StoredBoard& operator[](size_t i) const { return blocks_[i / kBlock][i % kBlock]; }
    StoredBoard& EmplaceBack() {
      if (size_ == blocks_.size() * kBlock) blocks_.push_back(NewBlock());
      StoredBoard& stored = blocks_[size_ / kBlock][size_ % kBlock];
      ++size_;
      return stored;
    }
    const StoredBoard& back() const { return (*this)[size_ - 1]; }
    void PopBack() { --size_; }

   private:
    static constexpr size_t kBlock = 32;
    using Block = std::unique_ptr<StoredBoard[]>;
    // Blocks of finished positions, kept per thread for the next ones (a replay makes one
    // position per game): no allocation and no clearing of 18 KiB per block and game. Null once
    // the thread's list is destroyed (a position destroyed later frees its blocks).
    struct FreeList {
      std::vector<Block> blocks;
      ~FreeList() { FreeListGone() = true; }
    };
    static bool& FreeListGone() {
      thread_local bool gone = false;  // trivially destructible: readable to the thread's end
      return gone;
    }
    static std::vector<Block>* FreeBlocks() {
      if (FreeListGone()) return nullptr;
      thread_local FreeList list;
      return &list.blocks;
    }
    static Block NewBlock() {
      std::vector<Block>* free_blocks = FreeBlocks();
      if (free_blocks == nullptr || free_blocks->empty()) {
        return std::make_unique<StoredBoard[]>(kBlock);
      }
      Block block = std::move(free_blocks->back());
      free_blocks->pop_back();
      return block;
    }
    void Recycle() {
      std::vector<Block>* free_blocks = FreeBlocks();
      for (Block& block : blocks_) {
        if (free_blocks != nullptr && free_blocks->size() < kMaxFreeBlocks) {
          free_blocks->push_back(std::move(block));
        }
      }
      blocks_.clear();
      size_ = 0;
    }
    static constexpr size_t kMaxFreeBlocks = 64;  // 1.2 MiB per thread

    std::vector<Block> blocks_;
    size_t size_ = 0;
  };
  // One entry per append: the timeline it went to, and whether it created that timeline.
  struct LogEntry {
    int timeline;
    bool created;
  };
  void Log(LogEntry entry);  // records an append, for Rollback

  const Timeline& Line(int timeline) const {
    assert(timeline >= min_timeline_ && timeline <= max_timeline_);
    return timeline >= 0 ? positive_[timeline] : negative_[-timeline - 1];
  }
  Timeline& MutableLine(int timeline);
  void AddBoard(int timeline, int half_turn, const Board& board);
  // Completes the board just stored (the last of boards_) at its place: pieces indexed, royal
  // squares, keys, its timeline's list.
  void FinishBoard(StoredBoard* stored, int timeline, int half_turn);
  // Sets up the next new timeline of `creator`, starting at `half_turn`; returns its index.
  int StartTimeline(Color creator, int half_turn);

  int width_ = 8;
  int height_ = 8;
  TimelineLabeling labeling_;
  int min_timeline_ = 0;
  int max_timeline_ = -1;
  int initial_min_ = 0;
  int initial_max_ = 0;
  std::vector<Timeline> positive_;  // timelines 0, 1, 2, ...
  std::vector<Timeline> negative_;  // timelines -1, -2, ...
  BoardStore boards_;
  std::vector<LogEntry> log_;
  uint64_t state_key_ = 0;
  bool keys_ = true;
  bool royal_overflow_ = false;
};

class Position::TimelineView {
 public:
  const Board* At(int half_turn) const {
    const size_t i = static_cast<size_t>(half_turn - start_half_);
    return i < size_ ? &boards_[i]->board : nullptr;  // also catches half_turn < start (wraps)
  }

 private:
  friend class Position;
  const StoredBoard* const* boards_ = nullptr;
  size_t size_ = 0;
  int start_half_ = 0;
};

inline Position::TimelineView Position::ViewOf(int timeline) const {
  TimelineView view;
  if (timeline < min_timeline_ || timeline > max_timeline_) return view;
  const Timeline& t = Line(timeline);
  view.boards_ = t.boards.data();
  view.size_ = t.boards.size();
  view.start_half_ = t.start_half;
  return view;
}

inline const Board* Position::BoardAt(int timeline, int half_turn) const {
  return ViewOf(timeline).At(half_turn);
}

template <typename Edit>
void Position::AppendEdited(int timeline, const Board& board, Edit&& edit) {
  assert(HasTimeline(timeline));
  const int half_turn = TipHalf(timeline) + 1;
  StoredBoard& stored = boards_.EmplaceBack();  // blocks never move: `board` stays valid
  stored.board = board;
  edit(stored.board);
  FinishBoard(&stored, timeline, half_turn);
  Log({timeline, false});
}

template <typename Edit>
int Position::CreateTimelineEdited(Color creator, int half_turn, const Board& board, Edit&& edit) {
  StoredBoard& stored = boards_.EmplaceBack();
  stored.board = board;
  edit(stored.board);
  const int timeline = StartTimeline(creator, half_turn);
  FinishBoard(&stored, timeline, half_turn);
  Log({timeline, true});
  return timeline;
}

}  // namespace fived

#endif  // FIVED_CORE_POSITION_H_
