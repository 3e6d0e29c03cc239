// The hypercuboid search (hypercuboid.h), finding a point of a cuboid whose jumps match: every
// arrival's piece leaves its board, every piece that leaves arrives once, and the new timelines
// are created in order.

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <climits>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "core/action.h"
#include "core/check.h"
#include "core/hypercuboid_search.h"

namespace fived::hypercuboid_internal {

namespace {
int least_mask_words = 1;  // SetLeastMaskWordsForTesting
}  // namespace

void SetLeastMaskWordsForTesting(int words) { least_mask_words = words; }

// A point of the cuboid whose jumps all match: every arrival's piece leaves its board, every
// piece that leaves arrives exactly once, and the new timelines are created in order. kNone
// proves that the cuboid holds no such point (so no action); kGaveUp: the search for one took
// more than kMatchNodes steps (TakePoint then picks a point that may not match).
//
// Which jumps match matters only by the axes they join: a playable board takes part in one
// jump at most (as the board a piece leaves or the tip it arrives on) and a new timeline in one
// (the branch that creates it). So the question is a matching: an edge joins board s to axis t
// when some piece s may leave (its kLeave choice is in the cuboid) may arrive on t (t's arrival
// from there is in the cuboid); every playable board without a physical move or pass left must
// be matched, and the new timelines matched are the first c of them, for a c from which on all
// may pass. The boards are settled one by one (free, joined with a later board, or the source
// of a branch); which new timeline each branch creates is settled at the end, as a bipartite
// matching between the branches' sources and the first c new timelines. A source's part in
// that matching is the set of new timelines it may create (its class), so the state after
// board a is the later boards used and how many sources of each class branch; a state that
// failed once fails again and is remembered. The concrete choices are taken afterwards.
HypercuboidSearch::Match HypercuboidSearch::MatchPoint(const Bits& cuboid,
                                                       std::vector<int>* point) {
  match_nodes_ = 0;
  const int axes = static_cast<int>(axes_.size());
  const int widest = std::max({playable_, axes - playable_, (least_mask_words - 1) * 64 + 1});
  if (widest <= 64) return MatchPointIn<1>(cuboid, point);
  if (widest <= 128) return MatchPointIn<2>(cuboid, point);
  if (widest <= kMaskWords * 64) return MatchPointIn<kMaskWords>(cuboid, point);
  return Match::kGaveUp;
}

// MatchPoint on sets of boards and of new timelines held in W words.
template <int W>
HypercuboidSearch::Match HypercuboidSearch::MatchPointIn(const Bits& cuboid,
                                                         std::vector<int>* point) {
  using Ops = MaskOps<W>;
  const int axes = static_cast<int>(axes_.size());
  const int new_axes = axes - playable_;
  // into_[t]: the boards a piece may leave to arrive on axis t.
  into_.assign(axes, Mask{});
  for (int t = 0; t < axes; ++t) {
    const std::vector<int>& arrive_slots = *axes_[t].arrive_slots;
    ForEachIn(cuboid, t, 0, [&](int j) {
      const int slot = arrive_slots[j];
      if (slot < 0) return false;
      const int s = slot / kMaxSquares;
      if (Ops::Test(into_[t], s)) return false;
      const int leave = leave_of_[s][slot % kMaxSquares];
      if (s != t && leave >= 0 && Has(cuboid, s, leave)) Ops::Set(&into_[t], s);
      return false;
    });
  }
  // Of each board: whether it has a move or pass of its own, the boards it may be joined with,
  // the new timelines it may create, and the class of that set (-1: none).
  free_board_.assign(playable_, false);
  joined_.assign(playable_, Mask{});
  creates_.assign(playable_, Mask{});
  class_of_.assign(playable_, -1);
  class_creates_.clear();
  for (int a = 0; a < playable_; ++a) {
    free_board_[a] = HasFree(cuboid, a);
    for (int b = 0; b < playable_; ++b) {
      if (Ops::Test(into_[b], a) || Ops::Test(into_[a], b)) Ops::Set(&joined_[a], b);
    }
    for (int k = 0; k < new_axes; ++k) {
      if (Ops::Test(into_[playable_ + k], a)) Ops::Set(&creates_[a], k);
    }
    if (!Ops::Any(creates_[a])) continue;
    auto it = std::find_if(class_creates_.begin(), class_creates_.end(),
                           [&](const Mask& m) { return Ops::Equal(m, creates_[a]); });
    class_of_[a] = static_cast<int>(it - class_creates_.begin());
    if (it == class_creates_.end()) class_creates_.push_back(creates_[a]);
  }
  // The fewest new timelines to create (from first_stop on, all may pass) and the most (the
  // first most_created may all be created).
  first_stop_ = new_axes;
  while (first_stop_ > 0 && Has(cuboid, playable_ + first_stop_ - 1, 0)) --first_stop_;
  most_created_ = 0;
  while (most_created_ < new_axes && Ops::Any(into_[playable_ + most_created_])) ++most_created_;
  branchers_ = Mask{};
  for (int a = 0; a < playable_; ++a) {
    if (Ops::Any(creates_[a])) Ops::Set(&branchers_, a);
  }
  if (first_stop_ > most_created_ || Ops::Count(branchers_) < first_stop_) {
    return Match::kNone;
  }
  pairs_.clear();
  branching_.clear();
  failed_.clear();
  class_count_.assign(class_creates_.size(), 0);
  const int found = MatchBoards<W>(0, Mask{});
  if (found <= 0) return found == 0 ? Match::kNone : Match::kGaveUp;
  // The branches' new timelines, as the search's last step assigned them.
  for (size_t k = 0; k < creator_.size(); ++k) {
    pairs_.emplace_back(creator_[k], playable_ + static_cast<int>(k));
  }
  // The concrete choices: for each matched pair the first leaving piece of the one board that
  // arrives on the other axis; for each other axis its first move or pass.
  point->assign(axes, -1);
  for (const std::pair<int, int>& pair : pairs_) {
    const int s = pair.first, t = pair.second;
    const std::vector<int>& arrive_slots = *axes_[t].arrive_slots;
    ForEachIn(cuboid, t, 0, [&](int j) {
      const int slot = arrive_slots[j];
      if (slot < 0 || slot / kMaxSquares != s) return false;
      const int leave = leave_of_[s][slot % kMaxSquares];
      if (leave < 0 || !Has(cuboid, s, leave)) return false;
      (*point)[t] = j;
      (*point)[s] = leave;
      return true;
    });
    assert((*point)[t] >= 0);
  }
  for (int a = 0; a < axes; ++a) {
    if ((*point)[a] >= 0) continue;
    if (axes_[a].is_new) {
      (*point)[a] = 0;
      continue;
    }
    ForEachIn(cuboid, a, 0, [&](int j) {
      const Choice::Kind kind = (*axes_[a].choices)[j].kind;
      if (kind != Choice::Kind::kPhysical && kind != Choice::Kind::kPass) return false;
      (*point)[a] = j;
      return true;
    });
    assert((*point)[a] >= 0);
  }
  assert(Matches(*point));
  return Match::kFound;
}

// Whether the point's jumps match (MatchPoint): for assertions.
bool HypercuboidSearch::Matches(const std::vector<int>& point) const {
  const int axes = static_cast<int>(axes_.size());
  for (int x = 0; x < axes; ++x) {
    const Choice& c = ChoiceAt(point, x);
    if (c.kind == Choice::Kind::kArrive) {
      const Choice& source = ChoiceAt(point, AxisOf(c.move.src_timeline));
      if (source.kind != Choice::Kind::kLeave || source.move.from != c.move.from) return false;
    } else if (c.kind == Choice::Kind::kLeave) {
      int arrivals = 0;
      for (int y = 0; y < axes; ++y) {
        arrivals += ArrivesFrom(ChoiceAt(point, y), axes_[x].timeline, c.move.from);
      }
      if (arrivals != 1) return false;
    }
    if (x > playable_ && IsPass(ChoiceAt(point, x - 1)) && !IsPass(c)) return false;
  }
  return true;
}

// MatchPoint's search from board a on, with the later boards `used` taken and the branches so
// far in branching_ (class_count_ by class): 1 found (pairs_ and branching_ hold the jumps), 0
// none, -1 gave up.

// MatchPoint's search from board a on, with the boards `used` taken and the branches so far in
// branching_ (class_count_ by class): 1 found (pairs_ and branching_ hold the jumps), 0 none, -1
// gave up.
template <int W>
int HypercuboidSearch::MatchBoards(int a, const Mask& used) {
  using Ops = MaskOps<W>;
  while (a < playable_ && Ops::Test(used, a)) ++a;
  if (a == playable_) {
    return AssignBranches(branching_, &creator_) ? 1 : 0;
  }
  if (++match_nodes_ > kMatchNodes) return -1;
  // The boards before a are settled: only which later ones are used matters from here, and
  // the branches' classes.
  const Mask later = Ops::And(used, Ops::Range(a, playable_));
  std::string key(reinterpret_cast<const char*>(&a), sizeof a);
  key.append(reinterpret_cast<const char*>(later.data()), W * sizeof(uint64_t));
  key.append(class_count_);
  if (failed_.count(key)) return 0;
  // Every board still to settle that must jump needs a partner still free, or a branch. A
  // branch creates one of the timelines its source may create, so the new timelines created
  // must reach the first of those; every new timeline to create needs a source among the
  // branches so far and the boards still open, and there must be enough of them.
  const Mask open = Ops::AndNot(Ops::Range(a, playable_), used);
  Mask sources = Ops::And(open, branchers_);
  int need = first_stop_;
  for (int s : branching_) {
    Ops::Set(&sources, s);
    need = std::max(need, Ops::Lowest(creates_[s]) + 1);
  }
  const bool dead_end = Ops::Find(open, [&](int b) {
    if (free_board_[b]) return false;
    Mask partners = Ops::And(joined_[b], open);
    partners[b >> 6] &= ~(uint64_t{1} << (b & 63));
    if (Ops::Any(partners)) return false;
    if (!Ops::Any(creates_[b])) return true;
    need = std::max(need, Ops::Lowest(creates_[b]) + 1);
    return false;
  });
  bool dead = dead_end || need > most_created_ || Ops::Count(sources) < need;
  for (int k = 0; k < need && !dead; ++k) dead = !Ops::Intersects(into_[playable_ + k], sources);
  if (dead) {
    failed_.insert(std::move(key));
    return 0;
  }
  if (free_board_[a]) {
    const int r = MatchBoards<W>(a + 1, used);
    if (r != 0) return r;
  }
  // Board a with a later one: a piece leaves one and arrives on the other's tip.
  Mask others = Ops::And(joined_[a], open);
  others[a >> 6] &= ~(uint64_t{1} << (a & 63));
  int result = 0;
  if (Ops::Find(others, [&](int b) {
        Mask next = used;
        Ops::Set(&next, a);
        Ops::Set(&next, b);
        result = MatchBoards<W>(a + 1, next);
        if (result > 0) {
          pairs_.push_back(Ops::Test(into_[b], a) ? std::pair(a, b) : std::pair(b, a));
        }
        return result != 0;
      })) {
    return result;
  }
  // Board a as the source of a branch.
  if (class_of_[a] >= 0 && static_cast<int>(branching_.size()) < most_created_) {
    branching_.push_back(a);
    ++class_count_[class_of_[a]];
    Mask next = used;
    Ops::Set(&next, a);
    const int r = MatchBoards<W>(a + 1, next);
    --class_count_[class_of_[a]];
    if (r > 0) return r;
    branching_.pop_back();
    if (r < 0) return r;
  }
  failed_.insert(std::move(key));
  return 0;
}

bool HypercuboidSearch::AssignBranches(const std::vector<int>& sources, std::vector<int>* creator) {
  const int c = static_cast<int>(sources.size());
  const int new_axes = static_cast<int>(axes_.size()) - playable_;
  if (c < first_stop_ || c > new_axes) return false;
  // Augmenting paths (Kuhn): small, at most one new timeline per source.
  creator->assign(c, -1);
  std::vector<char> seen;
  std::function<bool(int)> place = [&](int i) {
    for (int k = 0; k < c; ++k) {
      if (!((creates_[sources[i]][k >> 6] >> (k & 63)) & 1) || seen[k]) continue;
      seen[k] = 1;
      if ((*creator)[k] < 0 || place(source_index_[(*creator)[k]])) {
        (*creator)[k] = sources[i];
        source_index_[sources[i]] = i;
        return true;
      }
    }
    return false;
  };
  source_index_.assign(playable_, -1);
  for (int i = 0; i < c; ++i) {
    seen.assign(c, 0);
    if (!place(i)) return false;
  }
  return true;
}

// Whether the playable axis still holds a physical move or a pass.
bool HypercuboidSearch::HasFree(const Bits& cuboid, int a) const {
  const Axis& axis = axes_[a];
  for (size_t w = 0; w < axis.words; ++w) {
    if (cuboid[axis.offset + w] & free_bits_[a][w]) return true;
  }
  return false;
}

// A point of the cuboid without jumps: on every playable board its first physical move or pass,
// on every new timeline "not created". Such a point's jumps match trivially, so the enumeration
// takes it without MatchPoint when the cuboid has one (most cuboids the cuts of legal points
// leave have). Returns false when some axis has none.
bool HypercuboidSearch::JumpFreePoint(const Bits& cuboid, std::vector<int>* point) const {
  for (int a = 0; a < playable_; ++a) {
    const Axis& axis = axes_[a];
    int found = -1;
    for (size_t w = 0; w < axis.words && found < 0; ++w) {
      const uint64_t bits = cuboid[axis.offset + w] & free_bits_[a][w];
      if (bits != 0) found = static_cast<int>(w * 64) + std::countr_zero(bits);
    }
    if (found < 0) return false;
    (*point)[a] = found;
  }
  for (int k = playable_; k < static_cast<int>(axes_.size()); ++k) {
    if (!Has(cuboid, k, 0)) return false;  // choice 0 of a new timeline: not created
    (*point)[k] = 0;
  }
  return true;
}

// A point of the cuboid, preferably an action (any point is correct, but one that is not an
// action only cuts away inconsistent points). Playable boards first, each with its first
// choice that fits: a physical move or a pass, a jump whose board of departure (later in
// order) may still be left, or a leaving piece that a later board or the next new timeline can
// take; then the new timelines, the claimed ones first and as few more as the cuboid demands.
// False when the cuboid holds no action at all (an empty axis, or new timelines out of order).
bool HypercuboidSearch::TakePoint(const Bits& cuboid, std::vector<int>* point) {
  const int axes = static_cast<int>(axes_.size());
  for (int i = 0; i < axes; ++i) {
    const Axis& axis = axes_[i];
    bool any = false;
    for (size_t w = 0; w < axis.words && !any; ++w) any = cuboid[axis.offset + w] != 0;
    if (!any) return false;
  }
  // New timelines k < created are created, the others not (choice 0 is "not created"): every
  // axis before `created` must be able to create and every other to pass, so `created` lies
  // past the last axis that cannot pass and no further than the first that cannot create.
  const int new_axes = axes - playable_;
  int last_without_pass = -1, first_without_create = new_axes;
  for (int k = 0; k < new_axes; ++k) {
    const Axis& axis = axes_[playable_ + k];
    if (!(cuboid[axis.offset] & 1)) last_without_pass = k;
    bool create = (cuboid[axis.offset] & ~uint64_t{1}) != 0;
    for (size_t w = 1; w < axis.words && !create; ++w) create = cuboid[axis.offset + w] != 0;
    if (!create && first_without_create == new_axes) first_without_create = k;
  }
  if (last_without_pass + 1 > first_without_create) return false;
  claimed_.assign(axes, -1);
  auto leave_index = [&](int a, Square from) {
    const int j = leave_of_[a][SquareIndex(from)];
    return j >= 0 && Has(cuboid, a, j) ? j : -1;
  };
  // New timelines the cuboid forces: jumps whose board may still leave the square.
  int branches = 0;  // new timelines claimed so far, in order
  for (; branches <= last_without_pass; ++branches) {
    const int axis = playable_ + branches;
    int tried = 0;
    ForEachIn(cuboid, axis, 1, [&](int j) {
      const Choice& c = (*axes_[axis].choices)[j];
      if (claimed_[axis] < 0) claimed_[axis] = j;  // the first, unless one fits
      if (claimed_[c.source_axis] < 0) {
        const int leave = leave_index(c.source_axis, c.move.from);
        if (leave >= 0) {
          claimed_[c.source_axis] = leave;
          claimed_[axis] = j;
          return true;
        }
      }
      return ++tried >= kPointTries;
    });
  }
  for (int a = 0; a < playable_; ++a) {
    if (claimed_[a] >= 0) {
      (*point)[a] = claimed_[a];
      continue;
    }
    const std::vector<Choice>& choices = *axes_[a].choices;
    int chosen = -1, fallback = -1, tried = 0;
    ForEachIn(cuboid, a, 0, [&](int j) {
      if (fallback < 0) fallback = j;
      const Choice& c = choices[j];
      if (c.kind == Choice::Kind::kPhysical || c.kind == Choice::Kind::kPass) {
        chosen = j;
        return true;
      }
      if (c.kind == Choice::Kind::kArrive) {
        const int source = AxisOf(c.move.src_timeline);
        const int leave =
            source > a && claimed_[source] < 0 ? leave_index(source, c.move.from) : -1;
        if (leave >= 0) {
          claimed_[source] = leave;
          chosen = j;
          return true;
        }
        return ++tried >= kPointTries;
      }
      // A leaving piece: a later board takes it, or the next new timeline.
      const int l = axes_[a].timeline;
      for (int t = a + 1; t < playable_ && chosen < 0; ++t) {
        if (claimed_[t] >= 0) continue;
        const std::vector<Choice>& there = *axes_[t].choices;
        ForEachIn(cuboid, t, 0, [&](int i) {
          if (!ArrivesFrom(there[i], l, c.move.from)) return false;
          claimed_[t] = i;
          chosen = j;
          return true;
        });
      }
      if (chosen < 0 && branches < first_without_create) {
        const int slot = playable_ + branches;
        const std::vector<Choice>& there = *axes_[slot].choices;
        ForEachIn(cuboid, slot, 1, [&](int i) {
          if (!ArrivesFrom(there[i], l, c.move.from)) return false;
          claimed_[slot] = i;
          ++branches;
          chosen = j;
          return true;
        });
      }
      return chosen >= 0 || ++tried >= kPointTries;
    });
    (*point)[a] = chosen >= 0 ? chosen : fallback;
  }
  const int created = std::max(branches, last_without_pass + 1);
  for (int k = 0; k < new_axes; ++k) {
    const int axis = playable_ + k;
    if (claimed_[axis] >= 0) {
      (*point)[axis] = claimed_[axis];
    } else if (k >= created) {
      (*point)[axis] = 0;
    } else {
      int first = -1;
      ForEachIn(cuboid, axis, 1, [&](int j) {
        first = j;
        return true;
      });
      (*point)[axis] = first >= 0 ? first : 0;
    }
  }
  return true;
}

}  // namespace fived::hypercuboid_internal
