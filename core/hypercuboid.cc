// The hypercuboid search for a legal action; see hypercuboid.h.
#include "core/hypercuboid.h"

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

namespace fived {

namespace {

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

class HypercuboidSearch {
 public:
  HypercuboidSearch(const Position& pos, const SearchLimits& limits)
      : pos_(pos),
        scratch_(pos),
        limits_(limits),
        mover_(pos.ToMove()),
        promoting_(PromotingCapturesCount(pos)) {
    scratch_.DropKeys();  // nothing here reads a key
    // With no royal capturable before the action, every capture after it involves a board
    // the action added, and only those need looking at.
    touching_ = !RoyalCapturable(pos_, Opponent(mover_), true);
  }

  LegalActionSearch Run() {
    LegalActionSearch result;
    // A royal piece capturable already stays so whatever the mover does (the action adds
    // boards; it changes none, and no tip the attacker moves from).
    if (RoyalCapturable(pos_, Opponent(mover_), promoting_)) return result;
    result.work = BuildAxes();
    if (single_) {
      result.action = {*single_};
      result.end = SearchEnd::kStopped;
      return result;
    }
    std::vector<Bits> space;
    space.push_back(FullSpace());
    allowed_ = space.back();
    std::vector<int> point(axes_.size());
    std::vector<Move> moves;
    while (!space.empty()) {
      Bits cuboid = std::move(space.back());
      space.pop_back();
      for (size_t w = 0; w < total_words_; ++w) cuboid[w] &= allowed_[w];
      bool any = Propagate(&cuboid);
      if (any) {
        // A point whose jumps match, or none in the cuboid; when that takes too long, a point
        // that may not match (its cut then only removes points whose jumps do not match).
        const Match match = MatchPoint(cuboid, &point);
        result.work += match_nodes_ / kMatchNodesPerMove;
        any = match == Match::kFound || (match == Match::kGaveUp && TakePoint(cuboid, &point));
      }
      if (!any) {
        free_.push_back(std::move(cuboid));
        continue;
      }
      if (limits_.budget != 0 && result.work >= limits_.budget) {
        result.end = SearchEnd::kOutOfBudget;
        return result;
      }
      used_sections_ = 0;
      moves.clear();
      const bool problem = FindProblem(point, &moves);
      // Work in moves played, as the other searches count it (a point not played counts one).
      result.work += std::max<size_t>(1, moves.size());
      if (!problem) {
        result.action = std::move(moves);
        result.end = SearchEnd::kStopped;
        return result;
      }
      // Every block is a product over whole axes, so it fails wherever it is. A block on one
      // axis is left out of every cuboid still to search, not only this one: the others would
      // otherwise meet its choices again, each costing a point.
      if (used_sections_ == 1) {
        const Section& section = sections_[0];
        const Axis& axis = axes_[section.axis];
        for (size_t w = 0; w < axis.words; ++w) allowed_[axis.offset + w] &= ~section.bits[w];
      }
      Cut(std::move(cuboid), &space);
    }
    result.end = SearchEnd::kExhausted;
    return result;
  }

 private:
  // The axes and their choices, from the moves of every playable board. Returns the number of
  // moves played to build them.
  uint64_t BuildAxes() {
    uint64_t work = 0;
    const int present = pos_.Present();
    axis_of_.assign(pos_.max_timeline() - pos_.min_timeline() + 1, -1);
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || ColorOf(pos_.TipHalf(l)) != mover_) continue;
      axis_of_[l - pos_.min_timeline()] = static_cast<int>(axes_.size());
      Axis axis;
      axis.timeline = l;
      axis.tip_half = pos_.TipHalf(l);
      axes_.push_back(axis);
    }
    const size_t playable = axes_.size();
    std::vector<std::vector<Choice>> physical(playable), leaves(playable), arrivals(playable);
    std::vector<Choice> branches;
    // Pieces whose leaving alone exposes a royal piece: (timeline, square).
    std::vector<std::pair<int, Square>> fatal_leaves;
    for (size_t a = 0; a < playable; ++a) {
      const int l = axes_[a].timeline;
      const int new_half = axes_[a].tip_half + 1;
      std::vector<Move> moves;
      ForEachTipMove(pos_, l, limits_.promotions, [&](const Move& m, Piece) {
        moves.push_back(m);
        return false;
      });
      for (const Move& m : moves) {
        // A piece whose leaving alone exposes a royal piece has no jump left to look at.
        if (m.IsJump() && !fatal_leaves.empty() && fatal_leaves.back().first == l &&
            fatal_leaves.back().second == m.from) {
          continue;
        }
        const Position::Mark mark = scratch_.GetMark();
        const MoveEffect effect = ApplyMove(&scratch_, m);
        ++work;
        // A move alone that exposes a royal piece through no board but its own ones fails in
        // every action (the other boards of a capture were there before): its choices are left
        // out. Which boards count as its own depends on the kind of choice.
        Move capture;
        // A promotion by this move counts for every action holding it.
        const int arrival_l = effect.branching ? effect.new_timeline : m.dst_timeline;
        fresh_.clear();
        fresh_.push_back({l, new_half});
        if (m.IsJump()) fresh_.push_back({arrival_l, m.dst_half + 1});
        const bool exposed = Exposed(promoting_ || m.promotion != PieceType::kNone, &capture);
        if (!exposed && ColorOf(scratch_.Present()) != mover_) {
          // The move alone is a legal action: the only mandatory board's move, or a branch that
          // takes the present back to the opponent.
          scratch_.Rollback(mark);
          single_ = m;
          return work;
        }
        auto only_on = [&](int board_l, int board_h, bool pre_existing_too) {
          bool only = true;
          ForEachCaptureCell(capture, [&](int cl, int ch, Square) {
            const bool own = cl == board_l && ch == board_h;
            const bool before = pos_.BoardAt(cl, ch) != nullptr;
            if (!own && !(pre_existing_too && before)) only = false;
          });
          return only;
        };
        Choice choice;
        choice.move = m;
        choice.board_half = new_half;
        choice.board = scratch_.Tip(l);
        if (!m.IsJump()) {
          choice.kind = Choice::Kind::kPhysical;
          if (!exposed) physical[a].push_back(choice);
        } else {
          if (exposed && only_on(l, new_half, true)) fatal_leaves.emplace_back(l, m.from);
          // Every jump of a piece leaves the same board behind: one choice for them all.
          const bool seen = std::any_of(leaves[a].begin(), leaves[a].end(),
                                        [&](const Choice& c) { return c.move.from == m.from; });
          if (!seen) {
            choice.kind = Choice::Kind::kLeave;
            choice.source_axis = static_cast<int>(a);
            leaves[a].push_back(choice);
          }
          Choice arrive;
          arrive.kind = Choice::Kind::kArrive;
          arrive.source_axis = static_cast<int>(a);
          arrive.move = m;
          arrive.board_half = m.dst_half + 1;
          arrive.board = scratch_.Tip(arrival_l);
          if (!effect.branching && !(exposed && only_on(arrival_l, m.dst_half + 1, true))) {
            arrivals[AxisOf(m.dst_timeline)].push_back(arrive);
          }
          // Onto a tip it branches when that tip was played first; elsewhere it always does. On
          // a new timeline only a capture within its board is the same whatever its number.
          const bool branch_fatal =
              exposed && effect.branching && only_on(effect.new_timeline, m.dst_half + 1, false);
          if (!branch_fatal) branches.push_back(arrive);
        }
        scratch_.Rollback(mark);
      }
    }
    auto fatal = [&](const Choice& c) {
      for (const auto& [l, square] : fatal_leaves) {
        if (c.move.src_timeline == l && c.move.from == square) return true;
      }
      return false;
    };
    for (size_t a = 0; a < playable; ++a) {
      std::erase_if(leaves[a], fatal);
      std::erase_if(arrivals[a], fatal);
    }
    std::erase_if(branches, fatal);
    branch_choices_.push_back(Choice{});  // "not created" first
    branch_choices_.insert(branch_choices_.end(), branches.begin(), branches.end());
    // Mandatory boards try every move before passing (a pass there only works when a branch
    // moves the present back); optional boards try passing first, which never exposes anything.
    playable_choices_.resize(playable);
    leave_of_.resize(playable);
    size_t leaving_boards = 0;
    for (size_t a = 0; a < playable; ++a) {
      const bool mandatory = pos_.IsActive(axes_[a].timeline) && axes_[a].tip_half == present;
      std::vector<Choice>& out = playable_choices_[a];
      if (!mandatory) out.push_back(Choice{});
      out.insert(out.end(), physical[a].begin(), physical[a].end());
      out.insert(out.end(), leaves[a].begin(), leaves[a].end());
      out.insert(out.end(), arrivals[a].begin(), arrivals[a].end());
      if (mandatory) out.push_back(Choice{});
      axes_[a].choices = &out;
      if (!leaves[a].empty()) ++leaving_boards;
      leave_of_[a].fill(-1);
      for (size_t j = 0; j < out.size(); ++j) {
        if (out[j].kind == Choice::Kind::kLeave) {
          leave_of_[a][SquareIndex(out[j].move.from)] = static_cast<int16_t>(j);
        }
      }
    }
    // New timelines: one axis per board a piece may leave (each branch needs one).
    const int sign = mover_ == Color::kWhite ? 1 : -1;
    const int first_new =
        mover_ == Color::kWhite ? pos_.max_timeline() + 1 : pos_.min_timeline() - 1;
    for (size_t k = 0; k < leaving_boards; ++k) {
      Axis axis;
      axis.timeline = first_new + sign * static_cast<int>(k);
      axis.is_new = true;
      axis.choices = &branch_choices_;
      axes_.push_back(axis);
    }
    playable_ = static_cast<int>(playable);
    leave_slots_.resize(playable + 1);
    arrive_slots_.resize(playable + 1);
    auto fill = [&](const std::vector<Choice>& choices, size_t i) {
      leave_slots_[i].clear();
      arrive_slots_[i].clear();
      for (const Choice& c : choices) {
        const int slot = c.source_axis * kMaxSquares + SquareIndex(c.move.from);
        leave_slots_[i].push_back(c.kind == Choice::Kind::kLeave ? slot : -1);
        arrive_slots_[i].push_back(c.kind == Choice::Kind::kArrive ? slot : -1);
      }
    };
    for (size_t a = 0; a < playable; ++a) fill(playable_choices_[a], a);
    fill(branch_choices_, playable);
    for (size_t x = 0; x < axes_.size(); ++x) {
      const size_t i = axes_[x].is_new ? playable : x;
      axes_[x].leave_slots = &leave_slots_[i];
      axes_[x].arrive_slots = &arrive_slots_[i];
    }
    leaves_.assign(playable * kMaxSquares, 0);
    size_t offset = 0;
    for (Axis& axis : axes_) {
      axis.offset = offset;
      axis.words = (axis.choices->size() + 63) / 64;
      offset += axis.words;
    }
    total_words_ = offset;
    free_bits_.resize(playable);
    for (size_t a = 0; a < playable; ++a) {
      free_bits_[a] = Select(axes_[a], [](const Choice& c) {
        return c.kind == Choice::Kind::kPhysical || c.kind == Choice::Kind::kPass;
      });
    }
    return work;
  }

  int AxisOf(int timeline) const {
    if (timeline < pos_.min_timeline() || timeline > pos_.max_timeline()) return -1;
    return axis_of_[timeline - pos_.min_timeline()];
  }

  Bits FullSpace() const {
    Bits bits(total_words_, 0);
    for (const Axis& axis : axes_) {
      const size_t n = axis.choices->size();
      for (size_t j = 0; j < n; ++j) bits[axis.offset + j / 64] |= uint64_t{1} << (j % 64);
    }
    return bits;
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

  // Removes from the cuboid the choices no action in it can make: an arrival whose piece's
  // board cannot leave that square, a leaving piece that no axis can take. Returns false when
  // an axis is left empty (the cuboid holds no action).
  bool Propagate(Bits* cuboid) {
    for (int round = 0; round < kPropagationRounds; ++round) {
      // leaves_[slot]: 1 the board may leave the square, 2 and a piece from there arrives.
      for (int slot : touched_) leaves_[slot] = 0;
      touched_.clear();
      for (int a = 0; a < playable_; ++a) {
        const std::vector<int>& leave_slots = *axes_[a].leave_slots;
        ForEachIn(*cuboid, a, 0, [&](int j) {
          const int slot = leave_slots[j];
          if (slot >= 0) {
            leaves_[slot] = 1;
            touched_.push_back(slot);
          }
          return false;
        });
      }
      bool changed = false;
      for (const Axis& axis : axes_) {
        const std::vector<int>& arrive_slots = *axis.arrive_slots;
        for (size_t w = 0; w < axis.words; ++w) {
          uint64_t& word = (*cuboid)[axis.offset + w];
          for (uint64_t bits = word; bits != 0; bits &= bits - 1) {
            const int j = static_cast<int>(w * 64) + std::countr_zero(bits);
            const int slot = arrive_slots[j];
            if (slot < 0) continue;
            if (leaves_[slot] == 0) {
              word &= ~(uint64_t{1} << (j % 64));
              changed = true;
            } else {
              leaves_[slot] = 2;
            }
          }
        }
      }
      for (int a = 0; a < playable_; ++a) {
        const Axis& axis = axes_[a];
        const std::vector<int>& leave_slots = *axis.leave_slots;
        for (size_t w = 0; w < axis.words; ++w) {
          uint64_t& word = (*cuboid)[axis.offset + w];
          for (uint64_t bits = word; bits != 0; bits &= bits - 1) {
            const int j = static_cast<int>(w * 64) + std::countr_zero(bits);
            const int slot = leave_slots[j];
            if (slot >= 0 && leaves_[slot] != 2) {
              word &= ~(uint64_t{1} << (j % 64));
              changed = true;
            }
          }
        }
      }
      for (const Axis& axis : axes_) {
        bool any = false;
        for (size_t w = 0; w < axis.words && !any; ++w) any = (*cuboid)[axis.offset + w] != 0;
        if (!any) return false;
      }
      if (!changed) break;
    }
    return true;
  }

  enum class Match { kFound, kNone, kGaveUp };

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
  Match MatchPoint(const Bits& cuboid, std::vector<int>* point) {
    match_nodes_ = 0;
    const int axes = static_cast<int>(axes_.size());
    const int new_axes = axes - playable_;
    if (playable_ > kMatchMaxBoards || new_axes > 64) return Match::kGaveUp;
    // into_[t]: the boards a piece may leave to arrive on axis t.
    into_.assign(axes, 0);
    for (int t = 0; t < axes; ++t) {
      const std::vector<int>& arrive_slots = *axes_[t].arrive_slots;
      ForEachIn(cuboid, t, 0, [&](int j) {
        const int slot = arrive_slots[j];
        if (slot < 0) return false;
        const int s = slot / kMaxSquares;
        if ((into_[t] >> s) & 1) return false;
        const int leave = leave_of_[s][slot % kMaxSquares];
        if (s != t && leave >= 0 && Has(cuboid, s, leave)) into_[t] |= uint64_t{1} << s;
        return false;
      });
    }
    // Of each board: whether it has a move or pass of its own, the boards it may be joined with,
    // the new timelines it may create, and the class of that set (-1: none).
    free_board_.assign(playable_, false);
    joined_.assign(playable_, 0);
    creates_.assign(playable_, 0);
    class_of_.assign(playable_, -1);
    class_creates_.clear();
    for (int a = 0; a < playable_; ++a) {
      free_board_[a] = HasFree(cuboid, a);
      for (int b = 0; b < playable_; ++b) {
        if (((into_[b] >> a) & 1) || ((into_[a] >> b) & 1)) joined_[a] |= uint64_t{1} << b;
      }
      for (int k = 0; k < new_axes; ++k) {
        if ((into_[playable_ + k] >> a) & 1) creates_[a] |= uint64_t{1} << k;
      }
      if (creates_[a] == 0) continue;
      auto it = std::find(class_creates_.begin(), class_creates_.end(), creates_[a]);
      class_of_[a] = static_cast<int>(it - class_creates_.begin());
      if (it == class_creates_.end()) class_creates_.push_back(creates_[a]);
    }
    // The fewest new timelines to create (from first_stop on, all may pass) and the most (the
    // first most_created may all be created).
    first_stop_ = new_axes;
    while (first_stop_ > 0 && Has(cuboid, playable_ + first_stop_ - 1, 0)) --first_stop_;
    most_created_ = 0;
    while (most_created_ < new_axes && into_[playable_ + most_created_] != 0) ++most_created_;
    branchers_ = 0;
    for (int a = 0; a < playable_; ++a) {
      if (creates_[a] != 0) branchers_ |= uint64_t{1} << a;
    }
    if (first_stop_ > most_created_ || std::popcount(branchers_) < first_stop_) {
      return Match::kNone;
    }
    pairs_.clear();
    branching_.clear();
    failed_.clear();
    class_count_.assign(class_creates_.size(), 0);
    const int found = MatchBoards(0, 0);
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
  bool Matches(const std::vector<int>& point) const {
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
  int MatchBoards(int a, uint64_t used) {
    while (a < playable_ && ((used >> a) & 1)) ++a;
    if (a == playable_) {
      return AssignBranches(branching_, &creator_) ? 1 : 0;
    }
    if (++match_nodes_ > kMatchNodes) return -1;
    // The boards before a are settled: only which later ones are used matters from here, and
    // the branches' classes.
    const uint64_t later = used >> a;
    std::string key(reinterpret_cast<const char*>(&a), sizeof a);
    key.append(reinterpret_cast<const char*>(&later), sizeof later);
    key.append(class_count_);
    if (failed_.count(key)) return 0;
    // Every board still to settle that must jump needs a partner still free, or a branch. A
    // branch creates one of the timelines its source may create, so the new timelines created
    // must reach the first of those; every new timeline to create needs a source among the
    // branches so far and the boards still open, and there must be enough of them.
    const uint64_t open = ~used & ~((uint64_t{1} << a) - 1) & ((uint64_t{1} << playable_) - 1);
    uint64_t sources = open & branchers_;
    int need = first_stop_;
    for (int s : branching_) {
      sources |= uint64_t{1} << s;
      need = std::max(need, std::countr_zero(creates_[s]) + 1);
    }
    bool dead = false;
    for (uint64_t rest = open; rest != 0 && !dead; rest &= rest - 1) {
      const int b = std::countr_zero(rest);
      if (free_board_[b] || (joined_[b] & open & ~(uint64_t{1} << b)) != 0) continue;
      if (creates_[b] == 0) dead = true;
      need = std::max(need, std::countr_zero(creates_[b]) + 1);
    }
    dead = dead || need > most_created_ || std::popcount(sources) < need;
    for (int k = 0; k < need && !dead; ++k) dead = (into_[playable_ + k] & sources) == 0;
    if (dead) {
      failed_.insert(std::move(key));
      return 0;
    }
    if (free_board_[a]) {
      const int r = MatchBoards(a + 1, used);
      if (r != 0) return r;
    }
    // Board a with a later one: a piece leaves one and arrives on the other's tip.
    for (uint64_t others = joined_[a] & open & ~(uint64_t{1} << a); others != 0;
         others &= others - 1) {
      const int b = std::countr_zero(others);
      const int r = MatchBoards(a + 1, used | uint64_t{1} << a | uint64_t{1} << b);
      if (r != 0) {
        if (r > 0) pairs_.push_back((into_[b] >> a) & 1 ? std::pair(a, b) : std::pair(b, a));
        return r;
      }
    }
    // Board a as the source of a branch.
    if (class_of_[a] >= 0 && static_cast<int>(branching_.size()) < most_created_) {
      branching_.push_back(a);
      ++class_count_[class_of_[a]];
      const int r = MatchBoards(a + 1, used | uint64_t{1} << a);
      --class_count_[class_of_[a]];
      if (r > 0) return r;
      branching_.pop_back();
      if (r < 0) return r;
    }
    failed_.insert(std::move(key));
    return 0;
  }

  // Whether the branches from `sources` can create the first sources.size() new timelines, one
  // each, with all later ones passing; *creator receives the source of each new timeline.
  bool AssignBranches(const std::vector<int>& sources, std::vector<int>* creator) {
    const int c = static_cast<int>(sources.size());
    const int new_axes = static_cast<int>(axes_.size()) - playable_;
    if (c < first_stop_ || c > new_axes) return false;
    // Augmenting paths (Kuhn): small, at most one new timeline per source.
    creator->assign(c, -1);
    std::vector<char> seen;
    std::function<bool(int)> place = [&](int i) {
      for (int k = 0; k < c; ++k) {
        if (!((creates_[sources[i]] >> k) & 1) || seen[k]) continue;
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
  bool HasFree(const Bits& cuboid, int a) const {
    const Axis& axis = axes_[a];
    for (size_t w = 0; w < axis.words; ++w) {
      if (cuboid[axis.offset + w] & free_bits_[a][w]) return true;
    }
    return false;
  }

  // A point of the cuboid, preferably an action (any point is correct, but one that is not an
  // action only cuts away inconsistent points). Playable boards first, each with its first
  // choice that fits: a physical move or a pass, a jump whose board of departure (later in
  // order) may still be left, or a leaving piece that a later board or the next new timeline can
  // take; then the new timelines, the claimed ones first and as few more as the cuboid demands.
  // False when the cuboid holds no action at all (an empty axis, or new timelines out of order).
  bool TakePoint(const Bits& cuboid, std::vector<int>* point) {
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

  // Cuts the block of sections_ (which holds the point just tested) out of `cuboid` and pushes
  // what is left, as disjoint cuboids, onto `space`.
  void Cut(Bits cuboid, std::vector<Bits>* space) {
    for (size_t i = 0; i < used_sections_; ++i) {
      const Section& section = sections_[i];
      const Axis& axis = axes_[section.axis];
      Bits outside = TakeStorage();
      outside.assign(cuboid.begin(), cuboid.end());
      bool any_outside = false, any_inside = false;
      for (size_t w = 0; w < axis.words; ++w) {
        const uint64_t in = cuboid[axis.offset + w] & section.bits[w];
        const uint64_t out = cuboid[axis.offset + w] & ~section.bits[w];
        outside[axis.offset + w] = out;
        cuboid[axis.offset + w] = in;
        any_outside = any_outside || out != 0;
        any_inside = any_inside || in != 0;
      }
      if (any_outside) {
        space->push_back(std::move(outside));
      } else {
        free_.push_back(std::move(outside));
      }
      if (!any_inside) break;
    }
    free_.push_back(std::move(cuboid));
  }

  Bits TakeStorage() {
    if (free_.empty()) return Bits();
    Bits bits = std::move(free_.back());
    free_.pop_back();
    return bits;
  }

  const Choice& ChoiceAt(const std::vector<int>& point, int axis) const {
    return (*axes_[axis].choices)[point[axis]];
  }

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

  // Whether the point is not a legal action; then sections_ holds a block of failing points
  // around it. Otherwise *action receives its moves.
  bool FindProblem(const std::vector<int>& point, std::vector<Move>* action) {
    const int axes = static_cast<int>(axes_.size());
    // Every arrival's piece left its board, and only once.
    for (int x = 0; x < axes; ++x) {
      const Choice& c = ChoiceAt(point, x);
      if (c.kind != Choice::Kind::kArrive) continue;
      const int source = AxisOf(c.move.src_timeline);
      const Choice& at_source = ChoiceAt(point, source);
      const int l = c.move.src_timeline;
      const Square from = c.move.from;
      if (at_source.kind != Choice::Kind::kLeave || at_source.move.from != from) {
        // Every arrival from that board but from the square it leaves (if it leaves one), with
        // the board not leaving any of those squares.
        const bool leaves = at_source.kind == Choice::Kind::kLeave;
        const Square left = at_source.move.from;
        const int left_index = leaves ? SquareIndex(left) : -1;
        Restrict(x, Key(kArrivesFromBoardBut, l, left_index), [&](const Choice& o) {
          return o.kind == Choice::Kind::kArrive && o.move.src_timeline == l &&
                 !(leaves && o.move.from == left);
        });
        Restrict(source, Key(kNoLeaveBut, l, left_index), [&](const Choice& o) {
          return o.kind != Choice::Kind::kLeave || (leaves && o.move.from == left);
        });
        return true;
      }
      for (int y = x + 1; y < axes; ++y) {
        if (!ArrivesFrom(ChoiceAt(point, y), l, from)) continue;
        Restrict(x, Key(kArrivesFrom, l, SquareIndex(from)),
                 [&](const Choice& o) { return ArrivesFrom(o, l, from); });
        Restrict(y, Key(kArrivesFrom, l, SquareIndex(from)),
                 [&](const Choice& o) { return ArrivesFrom(o, l, from); });
        return true;
      }
    }
    // Every piece that leaves arrives somewhere.
    for (int a = 0; a < playable_; ++a) {
      const Choice& c = ChoiceAt(point, a);
      if (c.kind != Choice::Kind::kLeave) continue;
      const int l = axes_[a].timeline;
      const Square from = c.move.from;
      bool arrives = false;
      for (int x = 0; x < axes && !arrives; ++x) arrives = ArrivesFrom(ChoiceAt(point, x), l, from);
      if (arrives) continue;
      Restrict(a, Key(kLeaveFrom, l, SquareIndex(from)), [&](const Choice& o) {
        return o.kind == Choice::Kind::kLeave && o.move.from == from;
      });
      for (int x = 0; x < axes; ++x) {
        if (x == a || !CanArriveFrom(x, l)) continue;
        Restrict(x, Key(kNotArrivesFrom, l, SquareIndex(from)),
                 [&](const Choice& o) { return !ArrivesFrom(o, l, from); });
      }
      return true;
    }
    // New timelines are created in order.
    for (int k = playable_; k + 1 < axes; ++k) {
      if (IsPass(ChoiceAt(point, k)) && !IsPass(ChoiceAt(point, k + 1))) {
        Restrict(k, Key(kPassOnly, 0), IsPass);
        Restrict(k + 1, Key(kNotPass, 0), [](const Choice& o) { return !IsPass(o); });
        return true;
      }
    }
    // A branch onto a tip needs that tip played before it: not passed, and not left by a later
    // branch.
    for (int k = playable_; k < axes; ++k) {
      const Choice& c = ChoiceAt(point, k);
      if (IsPass(c) || c.move.dst_half != pos_.TipHalf(c.move.dst_timeline)) continue;
      const int target = AxisOf(c.move.dst_timeline);
      const int l = c.move.dst_timeline, h = c.move.dst_half;
      auto onto_target = [&](const Choice& o) {
        return !IsPass(o) && o.move.dst_timeline == l && o.move.dst_half == h;
      };
      const Choice& there = ChoiceAt(point, target);
      if (IsPass(there)) {
        Restrict(k, Key(kOnto, l, h), onto_target);
        Restrict(target, Key(kPassOnly, 0), IsPass);
        return true;
      }
      if (there.kind != Choice::Kind::kLeave) continue;
      for (int later = k + 1; later < axes; ++later) {
        const Choice& b = ChoiceAt(point, later);
        if (IsPass(b) || b.move.src_timeline != l) continue;
        Restrict(k, Key(kOnto, l, h), onto_target);
        Restrict(later, Key(kFromTimeline, l),
                 [&](const Choice& o) { return !IsPass(o) && o.move.src_timeline == l; });
        return true;
      }
    }
    // An action: play it (physical moves and non-branching jumps, then the branches in order).
    const Position::Mark mark = scratch_.GetMark();
    action->clear();
    for (int a = 0; a < playable_; ++a) {
      const Choice& c = ChoiceAt(point, a);
      if (c.kind == Choice::Kind::kPhysical || c.kind == Choice::Kind::kArrive) {
        action->push_back(c.move);
      }
    }
    for (int k = playable_; k < axes; ++k) {
      const Choice& c = ChoiceAt(point, k);
      if (!IsPass(c)) action->push_back(c.move);
    }
    for (const Move& m : *action) ApplyMove(&scratch_, m);
    fresh_.clear();
    for (int x = 0; x < axes; ++x) {
      const Choice& c = ChoiceAt(point, x);
      if (!IsPass(c)) fresh_.push_back({axes_[x].timeline, c.board_half});
    }
    const bool problem = PresentStays(point) || RoyalExposed(point, *action);
    scratch_.Rollback(mark);
    return problem;
  }

  // Whether axis x may hold an arrival from timeline l (a new timeline, or a playable tip some
  // jump from l lands on).
  bool CanArriveFrom(int x, int l) const {
    if (axes_[x].is_new) return true;
    for (const Choice& c : *axes_[x].choices) {
      if (c.kind == Choice::Kind::kArrive && c.move.src_timeline == l) return true;
    }
    return false;
  }

  // Whether the present stayed with the mover in scratch_ (the point played). The block: the
  // same board passed, the same new timelines created or not, none of the active ones earlier
  // than the present. Every other playable board's tip is at or after the present already (or
  // it would be the present), so playing or passing it cannot bring the present earlier.
  bool PresentStays(const std::vector<int>& point) {
    const int present = scratch_.Present();
    if (ColorOf(present) != mover_) return false;
    int passed = -1;
    for (int a = 0; a < playable_ && passed < 0; ++a) {
      const int l = axes_[a].timeline;
      if (IsPass(ChoiceAt(point, a)) && axes_[a].tip_half == present && scratch_.IsActive(l)) {
        passed = a;
      }
    }
    assert(passed >= 0);
    Restrict(passed, Key(kPassOnly, 0), IsPass);
    // Whether the k-th new timeline is active depends on k alone (the opponent's count is fixed),
    // so an active one created after the present cannot move it, nor can an inactive one. More
    // new timelines may also activate timelines of the opponent: those inactive now whose tip is
    // before the present (the present could move there, or to the board after it) stay inactive
    // while fewer than `limit` timelines are created; the k-th new one must then not be created.
    const int created_before = pos_.CreatedBy(mover_);
    int limit = INT_MAX;
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || scratch_.IsActive(l) || pos_.TipHalf(l) >= present) continue;
      const bool by_opponent =
          mover_ == Color::kWhite ? l < pos_.initial_min() : l > pos_.initial_max();
      if (!by_opponent) continue;  // activated by the opponent's count, which is fixed
      const int rank = mover_ == Color::kWhite ? pos_.initial_min() - l : l - pos_.initial_max();
      limit = std::min(limit, rank - 1 - created_before);  // activated at that many new ones
    }
    // The passed board stays active while the mover creates at least `need` timelines (a
    // timeline the opponent created is active by the mover's count).
    const int l = axes_[passed].timeline;
    const bool passed_by_opponent =
        mover_ == Color::kWhite ? l < pos_.initial_min() : l > pos_.initial_max();
    const int need = passed_by_opponent ? (mover_ == Color::kWhite ? pos_.initial_min() - l
                                                                   : l - pos_.initial_max()) -
                                              1 - created_before
                                        : 0;
    for (int k = playable_; k < static_cast<int>(axes_.size()); ++k) {
      if (k - playable_ + 1 >= limit) {
        Restrict(k, Key(kPassOnly, 0), IsPass);
      } else if (k - playable_ < need) {
        if (NewAxisActive(k)) {
          Restrict(k, Key(kAfterPresent, present),
                   [&](const Choice& o) { return !IsPass(o) && o.board_half > present; });
        } else {
          Restrict(k, Key(kNotPass, 0), [](const Choice& o) { return !IsPass(o); });
        }
      } else if (NewAxisActive(k)) {
        Restrict(k, Key(kPassOrAfterPresent, present),
                 [&](const Choice& o) { return IsPass(o) || o.board_half > present; });
      }
    }
    return true;
  }

  // Whether the timeline of new axis k is active once created: the n-th timeline a player
  // creates is active when the opponent has created at least n - 1.
  bool NewAxisActive(int k) const {
    const int n = pos_.CreatedBy(mover_) + (k - playable_) + 1;
    return pos_.CreatedBy(Opponent(mover_)) >= n - 1;
  }

  // Whether a royal piece of the mover can be captured in scratch_. The block: every point whose
  // new boards hold the same pieces on the capture's squares (the attacker, the squares it
  // slides across, the royal piece); boards the action did not create never change.
  bool RoyalExposed(const std::vector<int>& point, const std::vector<Move>& action) {
    bool promotes = false;
    for (const Move& m : action) promotes = promotes || m.promotion != PieceType::kNone;
    Move capture;
    if (!Exposed(promoting_ || promotes, &capture)) return false;
    if (!promoting_ && promotes && IsPromotingCapture(capture)) {
      // It counts only because this action promotes: the block is the point alone.
      for (int i = 0; i < static_cast<int>(axes_.size()); ++i) {
        const int j = point[i];
        Restrict(i, Key(kExactly, j),
                 [&, j](const Choice& o) { return &o == &(*axes_[i].choices)[j]; });
      }
      return true;
    }
    ForEachCaptureCell(capture, [&](int l, int h, Square square) {
      const int axis = NewBoardAxis(l, h);
      if (axis < 0) return;
      const Piece content = scratch_.BoardAt(l, h)->at(square);
      Restrict(axis, Key(kCell, h, SquareIndex(square), content.bits()), [&](const Choice& o) {
        return !IsPass(o) && o.board_half == h && o.board.at(square) == content;
      });
    });
    return true;
  }

  // Whether a royal piece of the mover can be captured in scratch_, whose boards added since
  // pos_ are fresh_; names the capture.
  bool Exposed(bool promoting_captures, Move* capture) const {
    return touching_ ? RoyalCapturableTouching(scratch_, Opponent(mover_), promoting_captures,
                                               fresh_, capture)
                     : RoyalCapturable(scratch_, Opponent(mover_), promoting_captures, capture);
  }

  // Whether a capture in scratch_ is a pawn's or brawn's onto its last rank.
  bool IsPromotingCapture(const Move& capture) const {
    const Board& from = *scratch_.BoardAt(capture.src_timeline, capture.src_half);
    const Piece attacker = from.at(capture.from);
    const int last = attacker.color() == Color::kWhite ? from.height() - 1 : 0;
    return IsPawnLike(attacker.type()) && capture.to.rank == last;
  }

  // Calls f(timeline, half_turn, square) for each square of scratch_ a capture depends on.
  template <typename F>
  void ForEachCaptureCell(const Move& capture, F&& f) const {
    fived::ForEachCaptureCell(scratch_, capture, f);
  }

  // The axis whose choice created the board (timeline, half_turn) of scratch_, or -1 for a board
  // that was there before the action.
  int NewBoardAxis(int timeline, int half_turn) const {
    const int axis = AxisOf(timeline);
    if (axis >= 0) return half_turn > axes_[axis].tip_half ? axis : -1;
    if (timeline >= pos_.min_timeline() && timeline <= pos_.max_timeline()) return -1;
    const int k = std::abs(timeline - axes_[playable_].timeline);
    return playable_ + k;
  }

  const Position& pos_;
  Position scratch_;
  const SearchLimits& limits_;
  const Color mover_;
  const bool promoting_;        // PromotingCapturesCount before the action
  std::optional<Move> single_;  // BuildAxes met a move that alone is a legal action
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
  std::vector<uint64_t> into_;
  std::vector<bool> free_board_;
  std::vector<uint64_t> joined_, creates_;
  std::vector<int> class_of_;
  std::vector<uint64_t> class_creates_;
  int first_stop_ = 0, most_created_ = 0;
  uint64_t branchers_ = 0;  // the boards that may branch
  std::vector<std::pair<int, int>> pairs_;
  std::vector<int> branching_;
  std::vector<int> creator_;  // the source of each new timeline created, once one is found
  std::string class_count_;
  std::unordered_set<std::string> failed_;
  std::vector<int> source_index_;  // AssignBranches: of each source board, its place in the list
  int match_nodes_ = 0;            // MatchPoint's steps for the current cuboid
  // MatchPoint's steps per cuboid before it gives up, and the most boards it takes on (a state
  // holds a bit per board).
  static constexpr int kMatchNodes = 1 << 14;
  static constexpr int kMatchMaxBoards = 56;
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

}  // namespace

LegalActionSearch FindLegalAction(const Position& pos, const SearchLimits& limits) {
  HypercuboidSearch search(pos, limits);
  return search.Run();
}

}  // namespace fived
