// The legal actions by a search over move sequences; see sequence_search.h.
#include "tests/support/sequence_search.h"

#include <cassert>
#include <climits>
#include <functional>
#include <unordered_set>
#include <vector>

#include "core/action.h"
#include "core/check.h"

namespace fived {

namespace {

constexpr int kNoConstraint = INT_MIN;

// The key of a search node: the state, and the lowest source timeline its next physical move may
// have (two nodes with the same state but different constraints have different subtrees).
uint64_t NodeKey(uint64_t state_key, int constraint) {
  uint64_t mix = static_cast<uint64_t>(static_cast<int64_t>(constraint)) * 0x9e3779b97f4a7c15ull;
  mix ^= mix >> 31;
  return state_key ^ (mix * 0xbf58476d1ce4e5b9ull);
}

// Whether a move of `moves` promotes (then a pawn's capture onto its last rank counts: a piece to
// promote to is on a board).
bool AnyPromotion(const std::vector<Move>& moves) {
  for (const Move& m : moves) {
    if (m.promotion != PieceType::kNone) return true;
  }
  return false;
}

bool IsMandatory(const Position& pos, int timeline, int present) {
  return pos.IsActive(timeline) && pos.TipHalf(timeline) == present;
}

// Appends the moves of the pieces of `mover` on the tip of `timeline` to `out`.
void CollectBoardMoves(const Position& pos, int timeline, Color mover, PromotionSet promotions,
                       std::vector<Move>* out) {
  assert(ColorOf(pos.TipHalf(timeline)) == mover);
  (void)mover;
  ForEachTipMove(pos, timeline, promotions, [&](const Move& m, Piece) {
    out->push_back(m);
    return false;
  });
}

// The depth-first search over move sequences of sequence_search.h.
class ActionSearch {
 public:
  using Visit = std::function<bool(const std::vector<Move>&, const Position&)>;

  ActionSearch(const Position& pos, const SearchLimits& limits, const Visit& visit)
      : pos_(pos),
        limits_(limits),
        visit_(visit),
        mover_(pos.ToMove()),
        promoting_(PromotingCapturesCount(pos)) {}

  SearchStats Run() {
    Expand(kNoConstraint);
    stats_.end = out_of_budget_ ? SearchEnd::kOutOfBudget
                 : stopped_     ? SearchEnd::kStopped
                                : SearchEnd::kExhausted;
    return stats_;
  }

 private:
  // Visits the node reached by path_, then its children.
  void Expand(int constraint) {
    if (!path_.empty()) {
      if (!visited_.insert(NodeKey(pos_.StateKey(), constraint)).second) return;
      // Monotone (legal.h): nothing after an exposed royal piece can be legal.
      if (RoyalCapturable(pos_, Opponent(mover_), promoting_ || AnyPromotion(path_))) return;
      if (ColorOf(pos_.Present()) != mover_ && results_.insert(pos_.StateKey()).second) {
        ++stats_.actions;
        if (visit_(path_, pos_)) {
          stopped_ = true;
          return;
        }
      }
    }
    const size_t depth = path_.size();
    if (levels_.size() <= depth) levels_.resize(depth + 1);
    // Moves of the mandatory boards first (Decide finds a playable action sooner), then the
    // other tips of the mover's colour.
    const int present = pos_.Present();
    levels_[depth].clear();
    for (int pass = 0; pass < 2; ++pass) {
      for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
        if (!pos_.HasTimeline(l) || ColorOf(pos_.TipHalf(l)) != mover_) continue;
        if (IsMandatory(pos_, l, present) != (pass == 0)) continue;
        CollectBoardMoves(pos_, l, mover_, limits_.promotions, &levels_[depth]);
      }
    }
    // levels_ may grow below; index it afresh each time.
    for (size_t i = 0; i < levels_[depth].size(); ++i) {
      const Move move = levels_[depth][i];
      if (!move.IsJump() && move.src_timeline <= constraint) continue;
      if (limits_.budget != 0 && stats_.work >= limits_.budget) {
        out_of_budget_ = true;
        return;
      }
      ++stats_.work;
      const Position::Mark mark = pos_.GetMark();
      ApplyMove(&pos_, move);
      path_.push_back(move);
      Expand(move.IsJump() ? kNoConstraint : move.src_timeline);
      path_.pop_back();
      pos_.Rollback(mark);
      if (stopped_ || out_of_budget_) return;
    }
  }

  Position pos_;
  const SearchLimits& limits_;
  const Visit& visit_;
  const Color mover_;
  const bool promoting_;  // PromotingCapturesCount before the action
  std::vector<Move> path_;
  std::vector<std::vector<Move>> levels_;  // the moves tried at each depth, reused
  std::unordered_set<uint64_t> visited_;   // expanded nodes
  std::unordered_set<uint64_t> results_;   // states of the actions visited
  SearchStats stats_;
  bool stopped_ = false;
  bool out_of_budget_ = false;
};

}  // namespace

SearchStats ForEachActionBySequence(const Position& pos, const SearchLimits& limits,
                                    const ActionVisitor& visit) {
  ActionSearch search(pos, limits, visit);
  return search.Run();
}

ActionCount CountActionsBySequence(const Position& pos, const SearchLimits& limits, uint64_t cap) {
  ActionCount result;
  const SearchStats stats =
      ForEachActionBySequence(pos, limits, [&](const std::vector<Move>&, const Position&) {
        ++result.count;
        return cap != 0 && result.count >= cap;
      });
  result.capped = stats.end != SearchEnd::kExhausted;
  return result;
}

}  // namespace fived
