// The hypercuboid search's working parts (hypercuboid.h): the axes of the action space, the
// cuboids as bit sets over them, and the HypercuboidSearch that FindLegalAction runs. The search
// and why a point fails are in hypercuboid.cc, finding a point whose jumps match in
// hypercuboid_match.cc. Internal to core: only those files include it.
#ifndef FIVED_CORE_HYPERCUBOID_SEARCH_H_
#define FIVED_CORE_HYPERCUBOID_SEARCH_H_

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/check.h"
#include "core/hypercuboid.h"
#include "core/legal.h"
#include "core/movegen.h"
#include "core/position.h"

namespace fived::hypercuboid_internal {

// One value of an axis: what happens to a playable board, or which jump creates a new timeline.
struct Choice {
  enum class Kind : uint8_t { kPhysical, kLeave, kArrive, kPass };
  Kind kind = Kind::kPass;
  // kPhysical: the move. kArrive: the jump that arrives (its source board and square say where
  // the piece leaves from). kLeave: one jump of the leaving piece (only its source is used).
  Move move;
  int board_half = 0;    // the half-turn of the board the choice creates (not for kPass)
  int source_axis = -1;  // kLeave and kArrive: the axis of the board the piece leaves
  Board board;           // the board it creates (not for kPass)
};

// The axes share the layout of a hypercuboid: axis i owns words [offset, offset + words) of it,
// bit j set when its choice j is still in.
struct Axis {
  int timeline = 0;  // the playable board's timeline, or the new timeline's index
  int tip_half = 0;  // the playable board's half-turn (not for new timelines)
  bool is_new = false;
  const std::vector<Choice>* choices = nullptr;
  // By choice: the slot (source axis * kMaxSquares + square) of a kLeave or kArrive choice's
  // departure, -1 for other kinds; kept apart from the choices (each holds a whole board) so
  // that Propagate reads a few bytes per choice.
  const std::vector<int>* leave_slots = nullptr;
  const std::vector<int>* arrive_slots = nullptr;
  size_t offset = 0;
  size_t words = 0;
};

using Bits = std::vector<uint64_t>;

// A block of points to cut away: for each listed axis, the choices in the block (axes not
// listed: all of them).
struct Section {
  int axis;
  Bits bits;
};

// A set of playable boards or of new timelines, a bit each (HypercuboidSearch::MatchPoint).
inline constexpr int kHypercuboidMaskWords = 4;
using HypercuboidMask = std::array<uint64_t, kHypercuboidMaskWords>;

// Operations on the first W words of a Mask (a set of boards or of new timelines, a bit each).
template <int W>
struct MaskOps {
  using Mask = HypercuboidMask;
  static bool Test(const Mask& m, int i) { return (m[i >> 6] >> (i & 63)) & 1; }
  static void Set(Mask* m, int i) { (*m)[i >> 6] |= uint64_t{1} << (i & 63); }
  static bool Any(const Mask& m) {
    uint64_t any = 0;
    for (int w = 0; w < W; ++w) any |= m[w];
    return any != 0;
  }
  static bool Intersects(const Mask& a, const Mask& b) {
    uint64_t any = 0;
    for (int w = 0; w < W; ++w) any |= a[w] & b[w];
    return any != 0;
  }
  static bool Equal(const Mask& a, const Mask& b) {
    for (int w = 0; w < W; ++w) {
      if (a[w] != b[w]) return false;
    }
    return true;
  }
  static int Count(const Mask& m) {
    int count = 0;
    for (int w = 0; w < W; ++w) count += std::popcount(m[w]);
    return count;
  }
  // The lowest bit set, or W * 64 when none.
  static int Lowest(const Mask& m) {
    for (int w = 0; w < W; ++w) {
      if (m[w] != 0) return w * 64 + std::countr_zero(m[w]);
    }
    return W * 64;
  }
  // Bits [from, to).
  static Mask Range(int from, int to) {
    Mask m{};
    for (int w = 0; w < W; ++w) {
      const int lo = std::clamp(from - w * 64, 0, 64), hi = std::clamp(to - w * 64, 0, 64);
      if (lo >= hi) continue;
      const uint64_t below_hi = hi == 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1;
      m[w] = below_hi & ~((uint64_t{1} << lo) - 1);
    }
    return m;
  }
  static Mask And(const Mask& a, const Mask& b) {
    Mask m{};
    for (int w = 0; w < W; ++w) m[w] = a[w] & b[w];
    return m;
  }
  static Mask AndNot(const Mask& a, const Mask& b) {
    Mask m{};
    for (int w = 0; w < W; ++w) m[w] = a[w] & ~b[w];
    return m;
  }
  // Calls f(i) for each bit i set, lowest first, until f returns true; whether it did.
  template <typename F>
  static bool Find(const Mask& m, F&& f) {
    for (int w = 0; w < W; ++w) {
      for (uint64_t bits = m[w]; bits != 0; bits &= bits - 1) {
        if (f(w * 64 + std::countr_zero(bits))) return true;
      }
    }
    return false;
  }
};

// MatchPoint keeps its sets of boards in at least `words` words (1, 2 or 4) from now on, however
// few boards a position has, so that tests can run the wide code on small positions against the
// narrow one. Not thread-safe; tests only.
void SetLeastMaskWordsForTesting(int words);

// One search of FindLegalAction: the axes of the position's action space, and the cuboids of it
// still to search.
class HypercuboidSearch {
 public:
  HypercuboidSearch(const Position& pos, const SearchLimits& limits);

  // FindLegalAction: the first legal action, or the proof that there is none.
  LegalActionSearch Run();
  // ForEachHypercuboidAction: every legal point, each cut away alone once visited.
  SearchStats Enumerate(const ActionVisitor& visit);

  // A set of playable boards or of new timelines, a bit each, as MatchPoint keeps them: it
  // works on the first 1, 2 or kMaskWords words, as the position needs (past kMaskWords * 64
  // boards or new timelines it gives up, and the search takes points that may not match).
  static constexpr int kMaskWords = kHypercuboidMaskWords;
  using Mask = HypercuboidMask;

 private:
  enum class Match { kFound, kNone, kGaveUp };

  // What a block's predicate on an axis's choices is about, for the cache of the choices it
  // selects among the new timelines' (long, shared) list.
  enum KeyTag : uint64_t {
    kArrivesFrom = 1,
    kNotArrivesFrom,
    kPassOnly,
    kNotPass,
    kOnto,
    kFromTimeline,
    kAfterPresent,
    kPassOrAfterPresent,
    kExactly,
    kCell,
    kLeaveFrom,
    kArrivesFromBoardBut,
    kNoLeaveBut,
  };

  // hypercuboid.cc: the axes, the search over the cuboids, and why a point fails.
  // Searches the space; calls on_action(moves) for each legal point (moves in play order, the
  // vector the caller's to take), which returns true to stop. Adds the work to *work.
  template <typename OnAction>
  SearchEnd Search(OnAction&& on_action, uint64_t* work);
  uint64_t BuildAxes();
  Bits FullSpace() const;
  bool Propagate(Bits* cuboid);
  void Cut(Bits cuboid, std::vector<Bits>* space);
  bool FindProblem(const std::vector<int>& point, std::vector<Move>* action);
  bool CanArriveFrom(int x, int l) const;
  bool PresentStays(const std::vector<int>& point);
  bool RoyalExposed(const std::vector<int>& point, const std::vector<Move>& action);
  bool IsPromotingCapture(const Move& capture) const;
  int NewBoardAxis(int timeline, int half_turn) const;

  // hypercuboid_match.cc: a point of a cuboid whose jumps match.
  Match MatchPoint(const Bits& cuboid, std::vector<int>* point);
  template <int W>
  Match MatchPointIn(const Bits& cuboid, std::vector<int>* point);
  bool Matches(const std::vector<int>& point) const;
  template <int W>
  int MatchBoards(int a, const Mask& used);
  bool AssignBranches(const std::vector<int>& sources, std::vector<int>* creator);
  bool HasFree(const Bits& cuboid, int a) const;
  bool TakePoint(const Bits& cuboid, std::vector<int>* point);
  bool JumpFreePoint(const Bits& cuboid, std::vector<int>* point) const;

  int AxisOf(int timeline) const {
    if (timeline < pos_.min_timeline() || timeline > pos_.max_timeline()) return -1;
    return axis_of_[timeline - pos_.min_timeline()];
  }

  // Calls f(j) for each choice j >= first of the axis still in the cuboid, until f returns true.
  template <typename F>
  void ForEachIn(const Bits& cuboid, int axis, int first, F&& f) const {
    const Axis& a = axes_[axis];
    for (size_t w = first / 64; w < a.words; ++w) {
      uint64_t word = cuboid[a.offset + w];
      if (w == static_cast<size_t>(first / 64)) word &= ~uint64_t{0} << (first % 64);
      for (; word != 0; word &= word - 1) {
        if (f(static_cast<int>(w * 64) + std::countr_zero(word))) return;
      }
    }
  }

  bool Has(const Bits& cuboid, int axis, size_t j) const {
    return (cuboid[axes_[axis].offset + j / 64] >> (j % 64)) & 1;
  }

  const Choice& ChoiceAt(const std::vector<int>& point, int axis) const {
    return (*axes_[axis].choices)[point[axis]];
  }

  static uint64_t Key(KeyTag tag, int a, int b = 0, int c = 0) {
    auto field = [](int v) { return static_cast<uint64_t>(static_cast<uint32_t>(v)) & 0xfffff; };
    return static_cast<uint64_t>(tag) << 60 | field(a) << 40 | field(b) << 20 | field(c);
  }

  // Adds to the block the choices of `axis` that `keep` accepts (intersected with what the
  // block already says of that axis). `key` names the predicate: equal keys, equal predicates.
  template <typename Pred>
  void Restrict(int axis, uint64_t key, Pred keep) {
    const Axis& a = axes_[axis];
    const Bits* bits = nullptr;
    if (a.is_new) {
      auto it = branch_cache_.find(key);
      if (it == branch_cache_.end()) it = branch_cache_.emplace(key, Select(a, keep)).first;
      bits = &it->second;
    } else {
      scratch_bits_ = Select(a, keep);
      bits = &scratch_bits_;
    }
    for (size_t i = 0; i < used_sections_; ++i) {
      Section& section = sections_[i];
      if (section.axis != axis) continue;
      for (size_t w = 0; w < a.words; ++w) section.bits[w] &= (*bits)[w];
      return;
    }
    if (used_sections_ == sections_.size()) sections_.emplace_back();
    Section& section = sections_[used_sections_++];
    section.axis = axis;
    section.bits.assign(bits->begin(), bits->end());
  }

  template <typename Pred>
  static Bits Select(const Axis& axis, Pred keep) {
    Bits bits(axis.words, 0);
    const std::vector<Choice>& choices = *axis.choices;
    for (size_t j = 0; j < choices.size(); ++j) {
      if (keep(choices[j])) bits[j / 64] |= uint64_t{1} << (j % 64);
    }
    return bits;
  }

  static int SquareIndex(Square s) { return s.file * 16 + s.rank; }

  static bool IsPass(const Choice& c) { return c.kind == Choice::Kind::kPass; }

  static bool ArrivesFrom(const Choice& c, int timeline, Square from) {
    return c.kind == Choice::Kind::kArrive && c.move.src_timeline == timeline &&
           c.move.from == from;
  }

  // Whether the timeline of new axis k is active once created: the n-th timeline a player
  // creates is active when the opponent has created at least n - 1.
  bool NewAxisActive(int k) const {
    const int n = pos_.CreatedBy(mover_) + (k - playable_) + 1;
    return pos_.CreatedBy(Opponent(mover_)) >= n - 1;
  }

  // Whether a royal piece of the mover can be captured in scratch_, whose boards added since
  // pos_ are fresh_; names the capture.
  bool Exposed(bool promoting_captures, Move* capture) const {
    return touching_ ? RoyalCapturableTouching(scratch_, Opponent(mover_), promoting_captures,
                                               fresh_, capture)
                     : RoyalCapturable(scratch_, Opponent(mover_), promoting_captures, capture);
  }

  // Calls f(timeline, half_turn, square) for each square of scratch_ a capture depends on.
  template <typename F>
  void ForEachCaptureCell(const Move& capture, F&& f) const {
    fived::ForEachCaptureCell(scratch_, capture, f);
  }

  Bits TakeStorage() {
    if (free_.empty()) return Bits();
    Bits bits = std::move(free_.back());
    free_.pop_back();
    return bits;
  }

  const Position& pos_;
  Position scratch_;
  const SearchLimits& limits_;
  const Color mover_;
  const bool promoting_;        // PromotingCapturesCount before the action
  std::optional<Move> single_;  // BuildAxes met a move that alone is a legal action
  bool every_action_ = false;   // Enumerate: no shortcut past the whole space (single_)
  bool touching_ = false;       // no royal capturable before the action: test the added boards only
  std::vector<BoardPlace> fresh_;  // the boards scratch_ holds beyond pos_'s
  std::vector<Axis> axes_;
  int playable_ = 0;
  std::vector<int> axis_of_;  // axis of each timeline (from min_timeline), -1 when not playable
  std::vector<std::vector<Choice>> playable_choices_;
  std::vector<Choice> branch_choices_;
  size_t total_words_ = 0;
  // The choices not yet cut away for good (by a block on their axis alone), in the layout of a
  // cuboid: every cuboid is narrowed to them when it is taken up.
  Bits allowed_;
  std::vector<Section> sections_;  // the block of the point just tested: the first used_sections_
  size_t used_sections_ = 0;
  std::unordered_map<uint64_t, Bits> branch_cache_;  // choices of the new timelines by predicate
  Bits scratch_bits_;
  std::vector<Bits> free_;       // storage of cuboids searched, for the next ones
  std::vector<int> claimed_;     // TakePoint: choices promised to axes not decided yet
  std::vector<Bits> free_bits_;  // of each playable axis: its physical moves and pass
  // MatchPoint's scratch (see there): the boards each axis may receive a piece from (a bit per
  // playable board); of each board whether it has a move or pass of its own, the boards it may
  // be joined with, the new timelines it may create and the class of that set; each class's set;
  // the fewest and the most new timelines to create; the boards that may branch; the jumps found
  // (source and target axes) and the boards that branch; the branches by class; the states that
  // failed.
  std::vector<Mask> into_;
  std::vector<bool> free_board_;
  std::vector<Mask> joined_, creates_;
  std::vector<int> class_of_;
  std::vector<Mask> class_creates_;
  int first_stop_ = 0, most_created_ = 0;
  Mask branchers_{};  // the boards that may branch
  std::vector<std::pair<int, int>> pairs_;
  std::vector<int> branching_;
  std::vector<int> creator_;  // the source of each new timeline created, once one is found
  std::string class_count_;
  std::unordered_set<std::string> failed_;
  std::vector<int> source_index_;  // AssignBranches: of each source board, its place in the list
  int match_nodes_ = 0;            // MatchPoint's steps for the current cuboid
  // MatchPoint's steps per cuboid before it gives up.
  static constexpr int kMatchNodes = 1 << 14;
  // MatchPoint's steps counted as one move played in the search's work.
  static constexpr int kMatchNodesPerMove = 16;
  // The kLeave choice of each playable board's square (file * 16 + rank), or -1.
  std::vector<std::array<int16_t, kMaxSquares>> leave_of_;
  // How many jumps TakePoint looks at on an axis for one that fits before it takes the first.
  static constexpr int kPointTries = 32;
  // Rounds of Propagate per cuboid (each removal may allow more; a few rounds catch most).
  static constexpr int kPropagationRounds = 3;
  std::vector<uint8_t> leaves_;  // Propagate's scratch, by slot
  std::vector<int> touched_;     // the slots of leaves_ set
  // Axis::leave_slots and arrive_slots: of each playable axis, then of the new timelines.
  std::vector<std::vector<int>> leave_slots_, arrive_slots_;
};

}  // namespace fived::hypercuboid_internal

#endif  // FIVED_CORE_HYPERCUBOID_SEARCH_H_
