// Legal actions and the check test; see legal.h.
#include "core/legal.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <tuple>

#include "core/action.h"
#include "core/check.h"
#include "core/hypercuboid.h"

namespace fived {

namespace {

// A set of 64-bit keys with open addressing: no allocation per insert, half the memory of a
// node-based set. Key 0 marks an empty slot, so a key of 0 is stored as 1 (a collision of
// one in 2^64 at worst, as for the keys themselves).
class KeySet {
 public:
  // Returns true when the key was not in the set.
  bool Insert(uint64_t key) {
    if (key == 0) key = 1;
    if (2 * (size_ + 1) > slots_.size()) Grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = Spread(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return false;
      if (slots_[i] == 0) {
        slots_[i] = key;
        ++size_;
        return true;
      }
    }
  }

 private:
  static size_t Spread(uint64_t key) { return static_cast<size_t>(key ^ (key >> 29)); }
  void Grow() {
    std::vector<uint64_t> old(slots_.empty() ? 64 : 2 * slots_.size(), 0);
    old.swap(slots_);
    size_ = 0;
    for (uint64_t key : old) {
      if (key != 0) Insert(key);
    }
  }
  std::vector<uint64_t> slots_;
  size_t size_ = 0;
};

bool IsMandatory(const Position& pos, int timeline, int present) {
  return pos.IsActive(timeline) && pos.TipHalf(timeline) == present;
}

}  // namespace

void PassMandatoryBoards(Position* pos) {
  const int present = pos->Present();
  for (int l = pos->min_timeline(); l <= pos->max_timeline(); ++l) {
    if (!pos->HasTimeline(l) || !IsMandatory(*pos, l, present)) continue;
    Board passed = pos->Tip(l);
    passed.ClearEnPassant();
    pos->Append(l, passed);
  }
}

bool InCheck(Position* pos) {
  const Color mover = pos->ToMove();
  const Position::Mark mark = pos->GetMark();
  PassMandatoryBoards(pos);
  const bool check = RoyalCapturable(*pos, Opponent(mover), PromotingCapturesCount(*pos));
  pos->Rollback(mark);
  return check;
}

bool InCheck(const Position& pos) {
  Position copy = pos;
  return InCheck(&copy);
}

std::vector<Move> Checks(const Position& pos) {
  Position passed = pos;
  const Color mover = pos.ToMove();
  const Color attacker = Opponent(mover);
  PassMandatoryBoards(&passed);
  // Any one piece to become: a capture onto the last rank is listed once (GenMode::kCaptures).
  PromotionSet promotions;
  if (PromotingCapturesCount(passed)) promotions.Add(PieceType::kQueen);
  std::vector<Move> checks;
  const MoveView view(passed);
  for (int l = passed.min_timeline(); l <= passed.max_timeline(); ++l) {
    if (!passed.HasTimeline(l)) continue;
    const int half = passed.TipHalf(l);
    if (ColorOf(half) != attacker) continue;
    const Board& board = passed.Tip(l);
    for (int rank = 0; rank < board.height(); ++rank) {
      for (int file = 0; file < board.width(); ++file) {
        const Piece piece = board.at(file, rank);
        if (piece.empty() || piece.color() != attacker) continue;
        const Square from{static_cast<int8_t>(file), static_cast<int8_t>(rank)};
        ForEachPieceMove(
            view, l, half, from, piece, GenMode::kCaptures, promotions,
            [&](const Move& m, Piece captured) {
              if (!captured.empty() && captured.color() == mover && IsRoyal(captured.type())) {
                checks.push_back(m);
              }
              return false;
            });
      }
    }
  }
  std::sort(checks.begin(), checks.end(), [](const Move& a, const Move& b) {
    return std::tie(a.dst_timeline, a.dst_half, a.src_timeline, a.src_half, a.from.file,
                    a.from.rank, a.to.file,
                    a.to.rank) < std::tie(b.dst_timeline, b.dst_half, b.src_timeline, b.src_half,
                                          b.from.file, b.from.rank, b.to.file, b.to.rank);
  });
  return checks;
}

int BoardsInCheck(std::span<const Move> checks) {
  int boards = 0;
  for (size_t i = 0; i < checks.size(); ++i) {
    if (i == 0 || checks[i].dst_timeline != checks[i - 1].dst_timeline ||
        checks[i].dst_half != checks[i - 1].dst_half) {
      ++boards;
    }
  }
  return boards;
}

SearchStats ForEachLegalAction(const Position& pos, const SearchLimits& limits,
                               const ActionVisitor& visit) {
  KeySet states;
  uint64_t distinct = 0;
  SearchStats stats = ForEachHypercuboidAction(
      pos, limits, [&](const std::vector<Move>& moves, const Position& after) {
        if (!states.Insert(after.StateKey())) return false;
        ++distinct;
        return visit(moves, after);
      });
  stats.actions = distinct;
  return stats;
}

ActionCount CountActions(const Position& pos, const SearchLimits& limits, uint64_t cap) {
  ActionCount result;
  const SearchStats stats =
      ForEachLegalAction(pos, limits, [&](const std::vector<Move>&, const Position&) {
        ++result.count;
        return cap != 0 && result.count >= cap;
      });
  result.capped = stats.end != SearchEnd::kExhausted;
  return result;
}

ActionCount CountActions(const Position& pos, PromotionSet promotions, uint64_t cap) {
  SearchLimits limits;
  limits.promotions = promotions;
  return CountActions(pos, limits, cap);
}

}  // namespace fived
