// The proof by the mandatory boards' versions taken together; see version_proof.h for why it
// proves.
#include "core/version_proof.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <deque>
#include <span>
#include <tuple>
#include <vector>

#include "core/action.h"
#include "core/check.h"
#include "core/decide.h"
#include "core/legal.h"
#include "core/rules.h"
#include "core/union_cells.h"

namespace fived {

namespace {

bool SameBoard(const Board& a, const Board& b) {
  if (!a.SameContent(b) || a.has_en_passant() != b.has_en_passant()) return false;
  if (!a.has_en_passant()) return true;
  return a.en_passant_square() == b.en_passant_square() &&
         a.en_passant_victim() == b.en_passant_victim();
}

class Prover {
 public:
  Prover(const Position& pos, PromotionSet promotions, uint64_t budget, uint64_t decide_budget,
         VersionProof* out)
      : pos_(pos),
        scratch_(pos),
        mover_(pos.ToMove()),
        present_(pos.Present()),
        budget_(budget),
        out_(out) {
    decide_.promotions = promotions;
    decide_.budget = decide_budget;
  }

  bool Prove(int created_at_most) {
    assert(created_at_most == -1 || created_at_most == 0);
    const int ahead = pos_.CreatedBy(Opponent(mover_)) - pos_.CreatedBy(mover_);
    if (created_at_most != 0 && ahead > 0) return Fail(VersionProof::Stop::kOpponentAhead);
    any_reply_ = created_at_most == 0;
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || ColorOf(pos_.TipHalf(l)) != mover_) continue;
      if (pos_.IsActive(l) && pos_.TipHalf(l) == present_) mandatory_.push_back(l);
      ForEachTipMove(pos_, l, decide_.promotions, [&](const Move& move, Piece) {
        moves_.push_back(move);
        // A timeline a jump creates starts one half-turn after the board it lands on.
        if (move.IsJump()) jump_bound_ = std::min<int>(jump_bound_, move.dst_half);
        return false;
      });
    }
    if (!PromotingCapturesCount(pos_)) {
      // A promotion the worst position leaves out could make a pawn's capture count.
      for (const Move& move : moves_) {
        if (move.promotion != PieceType::kNone) return Fail(VersionProof::Stop::kPromotion);
      }
    }
    if (!GatherVersions()) return false;
    out_->combinations = 1;
    for (const std::vector<Board>& versions : versions_) {
      out_->combinations *= static_cast<double>(versions.size());
    }
    std::vector<char> all(mandatory_.size(), 1);
    if (!EachCombination(all, nullptr)) return false;
    // Where M has created more timelines, no action creates an active one; with created_at_most
    // 0, the actions that create one are not asked for.
    if (ahead < 0 || created_at_most == 0) return true;
    return BranchingActions();
  }

 private:
  // For each used mandatory board, the versions (indices into versions_) a box of combinations
  // takes there.
  using Box = std::vector<std::vector<uint32_t>>;

  // Where a box's union found a capture: the mandatory board to split and how (the versions
  // holding `bits` on `square`, against the others).
  struct Split {
    int board = -1;
    int square = 0;
    union_cells::Cell bits = 0;
  };

  // What a box's union, or one branch of O, says of its combinations: none leaves O in check
  // (or each is answered), some may, or the proof failed (stop recorded).
  enum class Union : uint8_t { kNoCheck, kMayCheck, kFailed };

  // The versions of each mandatory board: its tip after every move of the position that
  // changes it.
  bool GatherVersions() {
    versions_.assign(mandatory_.size(), {});
    version_cells_.assign(mandatory_.size(), {});
    makers_.assign(mandatory_.size(), {});
    for (const Move& move : moves_) {
      if (!Spend(1)) return false;
      const Position::Mark mark = scratch_.GetMark();
      ApplyMove(&scratch_, move);
      for (size_t i = 0; i < mandatory_.size(); ++i) {
        const int l = mandatory_[i];
        if (scratch_.TipHalf(l) == pos_.TipHalf(l)) continue;
        if (!AddVersion(scratch_.Tip(l), &versions_[i])) continue;
        makers_[i].push_back(move);
        std::vector<union_cells::Cell>& cells = version_cells_[i].emplace_back();
        cells.assign(static_cast<size_t>(pos_.width()) * pos_.height(), 0);
        union_cells::MergeBoard(versions_[i].back(), &cells);
      }
      scratch_.Rollback(mark);
    }
    return true;
  }

  // Adds `board` to *versions unless one of them is the same board; whether it did.
  static bool AddVersion(const Board& board, std::vector<Board>* versions) {
    for (const Board& other : *versions) {
      if (SameBoard(other, board)) return false;
    }
    versions->push_back(board);
    return true;
  }

  // Every combination of the versions of the boards marked in `use`, appended to the position,
  // then `branch` played when given (it must create a timeline starting on P + 1): each worst
  // position must leave O a legal action or no check.
  bool EachCombination(const std::vector<char>& use, const Move* branch) {
    Box box(mandatory_.size());
    for (size_t i = 0; i < mandatory_.size(); ++i) {
      if (!use[i]) continue;
      if (versions_[i].empty()) return true;  // no action plays that board
      for (size_t k = 0; k < versions_[i].size(); ++k) box[i].push_back(static_cast<uint32_t>(k));
    }
    return EachInBox(box, use, branch);
  }

  // Steps *index (a position in each used board's versions of the box) to the box's next
  // combination; false after the last.
  static bool NextCombination(const Box& box, const std::vector<char>& use,
                              std::vector<size_t>* index) {
    for (size_t k = 0; k < index->size(); ++k) {
      if (!use[k]) continue;
      if (++(*index)[k] < box[k].size()) return true;
      (*index)[k] = 0;
    }
    return false;
  }

  // The versions of `board` in the box split by `keep`: those it keeps, then the others.
  template <typename Keep>
  static std::pair<Box, Box> SplitBox(const Box& box, int board, Keep&& keep) {
    std::pair<Box, Box> halves(box, box);
    halves.first[board].clear();
    halves.second[board].clear();
    for (uint32_t k : box[board]) (keep(k) ? halves.first : halves.second)[board].push_back(k);
    return halves;
  }

  // Adds to `cells` (a union board) every version of mandatory board i in the box; how many.
  size_t MergeVersions(const Box& box, size_t i, std::vector<union_cells::Cell>* cells) const {
    cells->assign(static_cast<size_t>(pos_.width()) * pos_.height(), 0);
    for (uint32_t k : box[i]) {
      const std::vector<union_cells::Cell>& version = version_cells_[i][k];
      for (size_t square = 0; square < version.size(); ++square) {
        (*cells)[square] |= version[square];
      }
    }
    return box[i].size();
  }

  static double Combinations(const Box& box, const std::vector<char>& use) {
    double product = 1;
    for (size_t i = 0; i < box.size(); ++i) {
      if (use[i]) product *= static_cast<double>(box[i].size());
    }
    return product;
  }

  // Every combination of a box: where the union of the boards the opponent's pass makes of its
  // versions holds no capture of a royal piece of O, none of them leaves O in check (each
  // combination's boards are among the union's), and all are answered at once. Otherwise the box
  // is split on a board whose versions differ on a square the capture found uses, each half
  // taken alike; where none does, every combination of the box is in check, and each is played.
  bool EachInBox(const Box& box, const std::vector<char>& use, const Move* branch) {
    const double combinations = Combinations(box, use);
    if (combinations <= kFlatCombinations) return EachCombinationOf(box, use, branch);
    Split split;
    const Union found = MayCheck(box, use, branch, &split);
    if (found == Union::kFailed) return false;
    if (found == Union::kNoCheck) return true;
    if (split.board < 0) {
      const Union escaped = EscapeAnswersBox(box, use, branch);
      if (escaped == Union::kFailed) return false;
      if (escaped == Union::kNoCheck) return true;
      return WitnessAnswersBox(box, use, branch, nullptr);
    }
    const auto [with, without] =
        SplitBox(box, split.board, [&](uint32_t k) { return HoldsSplit(split, k); });
    // The half that holds the capture first: where the proof fails, it fails there.
    return EachInBox(with, use, branch) && EachInBox(without, use, branch);
  }

  // Whether version k of the split's board holds one of the split's pieces (or emptiness) on
  // its square.
  bool HoldsSplit(const Split& split, uint32_t k) const {
    const int width = pos_.width();
    const Piece piece = versions_[split.board][k].at(split.square % width, split.square / width);
    return (union_cells::CellOf(piece) & split.bits) != 0;
  }

  // A box every combination of which leaves O in check: O's legal action on its first
  // combination (Decide's witness, or `given`), played on each. Where every square its moves
  // read on the used boards (the squares they leave, reach and cross) is held alike by each
  // version of the box, they are the same moves on every combination, and the boards they make
  // of a used board are its versions with those squares changed alike: read as a union (what
  // each square may hold). Where no piece of M can then capture a royal piece of O, the action is
  // legal on every combination (its timelines, and so the present and ReplyAnswersAll, are the
  // same on each), and all are answered. A square some versions hold otherwise, or one a capture
  // found on the union uses, splits the box: the half with the first combination is tried with
  // the same action, the other taken afresh (EachInBox). Where this does not apply (the witness
  // castles or takes en passant, or the capture uses no square that splits), every combination
  // of the box is played, within the budget.
  bool WitnessAnswersBox(const Box& box, const std::vector<char>& use, const Move* branch,
                         const std::vector<Move>* given) {
    if (Combinations(box, use) <= kFlatCombinations) return EachCombinationOf(box, use, branch);
    const int width = pos_.width(), height = pos_.height();
    std::vector<Move> witness;
    if (given != nullptr) {
      witness = *given;
    } else {
      const Position::Mark mark = scratch_.GetMark();
      if (!PlayFirstOfBox(box, use, branch)) return false;
      const bool answered = Answered(&witness);
      scratch_.Rollback(mark);
      // Decide's action there may activate timelines of M; others of O's may not.
      if (!answered && out_->stop == VersionProof::Stop::kReplyBranches) {
        return PlayEach(box, use, branch);
      }
      if (!answered) {
        if (out_->stop == VersionProof::Stop::kMated && branch == nullptr) {
          std::vector<size_t> pick(mandatory_.size(), 0);
          for (size_t i = 0; i < mandatory_.size(); ++i) {
            if (use[i]) pick[i] = box[i].front();
          }
          Realize(pick);
        }
        return false;
      }
      // Not in check after all: each combination is played.
      if (witness.empty()) return PlayEach(box, use, branch);
    }
    // The used board with several versions in the box on each timeline, or -1.
    std::vector<int> varying(pos_.max_timeline() - pos_.min_timeline() + 1, -1);
    for (size_t i = 0; i < mandatory_.size(); ++i) {
      if (use[i] && box[i].size() > 1) varying[mandatory_[i] - pos_.min_timeline()] = i;
    }
    auto varying_at = [&](int l, int h) {
      if (h != present_ + 1 || l < pos_.min_timeline() || l > pos_.max_timeline()) return -1;
      return varying[l - pos_.min_timeline()];
    };
    // The witness played on the first combination, noting the squares it reads on the used
    // boards, each a (used board, square).
    std::vector<std::pair<int, int>> read;
    const Position::Mark mark = scratch_.GetMark();
    if (!PlayFirstOfBox(box, use, branch)) return false;
    for (const Move& move : witness) {
      if (move.flags & (Move::kCastle | Move::kEnPassant)) {
        scratch_.Rollback(mark);
        return PlayEach(box, use, branch);
      }
      const Piece piece =
          scratch_.BoardAt(move.src_timeline, move.src_half)->at(move.from.file, move.from.rank);
      const int dx = move.to.file - move.from.file, dy = move.to.rank - move.from.rank;
      const int dl = move.dst_timeline - move.src_timeline;
      const int dt = (move.dst_half - move.src_half) / 2;
      int steps = 1;
      if (IsSlider(piece.type()) || (move.flags & Move::kDoubleStep)) {
        steps = std::max({std::abs(dx), std::abs(dy), std::abs(dl), std::abs(dt)});
      }
      for (int k = 0; k <= steps; ++k) {
        const int l = move.src_timeline + dl * k / steps;
        const int h = move.src_half + 2 * (dt * k / steps);
        const int i = varying_at(l, h);
        if (i >= 0) {
          read.push_back(
              {i, (move.from.rank + dy * k / steps) * width + move.from.file + dx * k / steps});
        }
      }
      // A jump onto a used board its action has played branches: the new timeline starts on a
      // copy of the whole version, every square of which it reads.
      const int onto = varying_at(move.dst_timeline, move.dst_half);
      if (onto >= 0 && scratch_.TipHalf(move.dst_timeline) != move.dst_half) {
        for (int square = 0; square < width * height; ++square) read.push_back({onto, square});
      }
      ApplyMove(&scratch_, move);
    }
    for (const auto& [i, square] : read) {
      const Piece held = versions_[i][box[i].front()].at(square % width, square / width);
      const auto [alike, other] = SplitBox(box, i, [&](uint32_t k) {
        return versions_[i][k].at(square % width, square / width) == held;
      });
      if (!other[i].empty()) {
        scratch_.Rollback(mark);
        return WitnessAnswersBox(alike, use, branch, &witness) && EachInBox(other, use, branch);
      }
    }
    // The boards it makes of the used boards read as unions.
    std::vector<std::vector<union_cells::Cell>> cells(mandatory_.size());
    std::vector<int> union_of(scratch_.max_timeline() - scratch_.min_timeline() + 1, -1);
    uint64_t merged = 0;
    for (size_t i = 0; i < mandatory_.size(); ++i) {
      const int l = mandatory_[i];
      if (!use[i] || box[i].size() < 2 || scratch_.TipHalf(l) != present_ + 2) continue;
      const Board& first = versions_[i][box[i].front()];
      const Board& made = scratch_.Tip(l);
      merged += MergeVersions(box, i, &cells[i]);
      for (int square = 0; square < width * height; ++square) {
        const Piece now = made.at(square % width, square / width);
        if (now != first.at(square % width, square / width)) {
          cells[i][square] = union_cells::CellOf(now);
        }
      }
      union_of[l - scratch_.min_timeline()] = static_cast<int>(i);
    }
    Split split;
    const int base = scratch_.min_timeline();
    const bool capture = UnionCapture(present_ + 2, base, union_of, cells, box, &split);
    // A witness that activates a branch of M or a tip of M an action may have played answers
    // where O has a move on each board that may leave, read on the unions too.
    bool answers = true;
    if (!capture && !any_reply_) {
      answers = ReplyAnswers(ReadReply(scratch_), [&](std::span<const BoardPlace>) {
        Split ignored;
        return scratch_.ToMove() == mover_ &&
               !UnionCapture(present_ + 2, base, union_of, cells, box, &ignored);
      });
    }
    scratch_.Rollback(mark);
    if (!Spend(1 + witness.size() + merged / 16)) return false;
    if (!capture && !answers) {
      return (budget_ == 0 || out_->work <= budget_) && PlayEach(box, use, branch);
    }
    if (!capture) {
      ++out_->box_witnesses;
      assert(WitnessHoldsOnEach(box, use, branch, witness));
      return true;
    }
    if (split.board < 0) return PlayEach(box, use, branch);
    const bool first_holds = HoldsSplit(split, box[split.board].front());
    const auto [alike, other] =
        SplitBox(box, split.board, [&](uint32_t k) { return HoldsSplit(split, k) == first_holds; });
    return WitnessAnswersBox(alike, use, branch, &witness) && EachInBox(other, use, branch);
  }

  // For the assertion above: whether `witness` is a legal action of O answering every action
  // (ReplyAnswersAll) on each combination of the box, played one by one (true without a look
  // where they are many). The look leaves no trace: its work is neither counted nor limited by
  // the budget, so that builds with assertions answer as the others do.
  bool WitnessHoldsOnEach(const Box& box, const std::vector<char>& use, const Move* branch,
                          const std::vector<Move>& witness) {
    if (Combinations(box, use) > 256) return true;
    const VersionProof before = *out_;
    const auto tip_versions = tip_versions_;
    unbudgeted_ = true;
    std::vector<size_t> index(mandatory_.size(), 0);
    bool holds = true;
    do {
      const Position::Mark mark = scratch_.GetMark();
      for (size_t i = 0; i < mandatory_.size(); ++i) {
        if (use[i]) scratch_.Append(mandatory_[i], versions_[i][box[i][index[i]]]);
      }
      holds = (branch == nullptr || PlayBranch(*branch)) && WitnessHolds(witness);
      scratch_.Rollback(mark);
    } while (holds && NextCombination(box, use, &index));
    unbudgeted_ = false;
    *out_ = before;
    tip_versions_ = tip_versions;
    return holds;
  }

  // Whether `witness` is a legal action of O on scratch_ (a worst position) answering every
  // action (ReplyAnswersAll): each move still a move there (StillAMove), in turn. scratch_ is
  // left as it was.
  bool WitnessHolds(const std::vector<Move>& witness) {
    const Color opponent = Opponent(mover_);
    const Position::Mark mark = scratch_.GetMark();
    bool holds = true;
    for (const Move& move : witness) {
      holds = StillAMove(scratch_, move, opponent, decide_.promotions);
      if (!holds) break;
      ApplyMove(&scratch_, move);
    }
    // Legal first: ReplyAnswersAllHere reads the captures of the boards it adds alone.
    holds = holds && scratch_.ToMove() == mover_ &&
            JudgeAction(scratch_, opponent, PromotingCapturesCount(scratch_)).problem ==
                ActionVerdict::Problem::kNone &&
            (any_reply_ || ReplyAnswersAllHere());
    scratch_.Rollback(mark);
    return holds;
  }

  // Every combination of the box played, where they are no more than the budget.
  bool PlayEach(const Box& box, const std::vector<char>& use, const Move* branch) {
    if (budget_ != 0 && Combinations(box, use) > static_cast<double>(budget_)) {
      return Fail(VersionProof::Stop::kTooMany);
    }
    return EachCombinationOf(box, use, branch);
  }

  // Whether a combination of the box may leave O in check: the worst position with each used
  // board's first version in the box, O's pass played (as InCheck, core/legal.h, plays it), and
  // the passed copies of the used boards read as the union of their versions' (what a square
  // may hold). A capture found sets *split to a board whose versions differ on a square it uses
  // (the attacker's, the royal's, or one crossed), when there is one.
  Union MayCheck(const Box& box, const std::vector<char>& use, const Move* branch, Split* split) {
    using union_cells::Cell;
    const Position::Mark mark = scratch_.GetMark();
    if (!PlayFirstOfBox(box, use, branch)) return Union::kFailed;
    if (scratch_.ToMove() == mover_) {
      scratch_.Rollback(mark);
      Fail(VersionProof::Stop::kPresentStays);
      return Union::kFailed;
    }
    const int present = scratch_.Present();
    PassMandatoryBoards(&scratch_);
    uint64_t merged = 0;
    std::vector<std::vector<Cell>> cells(mandatory_.size());
    // The union each timeline's passed board is read as: its index in cells, or -1.
    std::vector<int> union_of(scratch_.max_timeline() - scratch_.min_timeline() + 1, -1);
    for (size_t i = 0; i < mandatory_.size(); ++i) {
      if (!use[i]) continue;
      merged += MergeVersions(box, i, &cells[i]);
      union_of[mandatory_[i] - scratch_.min_timeline()] = static_cast<int>(i);
    }
    const bool capture =
        UnionCapture(present + 1, scratch_.min_timeline(), union_of, cells, box, split);
    scratch_.Rollback(mark);
    ++out_->boxes;
    if (!Spend(1 + merged / 16)) return Union::kFailed;
    return capture ? Union::kMayCheck : Union::kNoCheck;
  }

  // Whether a piece of M on a tip of M's colour of scratch_ may capture a royal piece of O, the
  // board of each timeline on `union_half` that union_of names (by timeline, from scratch_'s
  // first; -1 for none) read as the union in cells it names (what each square may hold: the
  // box's versions of that mandatory board, but for squares every version holds alike), a
  // slider going on across squares that may be empty. A capture found sets *split to a board
  // whose versions in the box differ on a square it uses (the attacker's, the royal's, or one
  // crossed), when there is one.
  bool UnionCapture(int union_half, int union_base, const std::vector<int>& union_of,
                    const std::vector<std::vector<union_cells::Cell>>& cells, const Box& box,
                    Split* split) {
    using union_cells::Cell;
    const int width = pos_.width(), height = pos_.height();
    struct Place {
      const Board* board = nullptr;
      int used = -1;  // the mandatory board whose union it is
      bool exists() const { return board != nullptr || used >= 0; }
    };
    auto at = [&](int l, int h) {
      Place place;
      if (h == union_half && l >= union_base &&
          l - union_base < static_cast<int>(union_of.size())) {
        place.used = union_of[l - union_base];
      }
      if (place.used < 0) place.board = scratch_.BoardAt(l, h);
      return place;
    };
    auto cell_at = [&](const Place& place, int x, int y) {
      return place.used >= 0 ? cells[place.used][y * width + x]
                             : union_cells::CellOf(place.board->at(x, y));
    };
    const Cell royals = union_cells::RoyalsOf(Opponent(mover_));
    // The squares a piece can capture a royal piece of O from at all, on boards of up to 8x8:
    // every royal piece of O on a union board stands where it stands on the mandatory board's
    // tip (M's moves make the versions), a board of scratch_, so Position::royal_squares holds it.
    const bool bits = width <= Board::kBitboardSide && height <= Board::kBitboardSide;
    const uint64_t reach =
        bits ? SquaresReachingRoyals(scratch_.royal_squares(Opponent(mover_))) : ~uint64_t{0};
    // The squares of the union boards the ray being walked has crossed.
    std::vector<std::pair<int, int>> crossed;
    for (int l = scratch_.min_timeline(); l <= scratch_.max_timeline(); ++l) {
      if (!scratch_.HasTimeline(l) || ColorOf(scratch_.TipHalf(l)) != mover_) continue;
      const int half = scratch_.TipHalf(l);
      const Place from = at(l, half);
      for (int square = 0; square < width * height; ++square) {
        if (bits) {
          const int bit = square / width * Board::kBitboardSide + square % width;
          if ((reach >> bit & 1) == 0) continue;
        }
        Cell pieces = cell_at(from, square % width, square / width) & union_cells::PiecesOf(mover_);
        while (pieces != 0) {
          const int bit = __builtin_ctz(pieces);
          pieces &= pieces - 1;
          const bool capture = union_cells::WalkCapturesRays(
              mover_, width, height, l, half, square % width, square / width,
              static_cast<PieceType>(bit & 0x0f), /*across_only=*/false, at, cell_at,
              [&] { crossed.clear(); },
              [&](const Place& place, int x, int y) {
                if ((cell_at(place, x, y) & royals) == 0) {
                  if (place.used >= 0) crossed.push_back({place.used, y * width + x});
                  return false;
                }
                // The capture found: a board of the box whose versions differ on a square it
                // uses splits it.
                auto consider = [&](int used, int at_square, Cell bits) {
                  if (split->board >= 0 || used < 0 || box[used].size() < 2) return;
                  bool has = false, lacks = false;
                  for (uint32_t k : box[used]) {
                    const Piece piece = versions_[used][k].at(at_square % width, at_square / width);
                    ((union_cells::CellOf(piece) & bits) != 0 ? has : lacks) = true;
                  }
                  if (has && lacks) *split = Split{used, at_square, bits};
                };
                consider(from.used, square, Cell{1} << bit);
                consider(place.used, y * width + x, royals);
                for (const auto& [used, at_square] : crossed) {
                  consider(used, at_square, union_cells::kEmptyCell);
                }
                return true;
              });
          if (capture) return true;
        }
      }
    }
    return false;
  }

  // Whether one move of O that moves the present back (a branch onto a past board making an
  // active timeline) answers every combination of the box: played from a board every
  // combination holds alike (a tip of O not among the used boards, or a used board whose
  // version the box fixes), it is the same move on each, and whether it is a legal action there
  // depends on the boards of M's colour after it alone (the tips of M the worst position leaves
  // unplayed, the boards of the position, and the two it makes), not on the versions, which
  // are boards of O's colour. kNoCheck: it does.
  Union EscapeAnswersBox(const Box& box, const std::vector<char>& use, const Move* branch) {
    const Position::Mark mark = scratch_.GetMark();
    if (!PlayFirstOfBox(box, use, branch)) return Union::kFailed;
    const Color opponent = Opponent(mover_);
    bool found = false;
    uint64_t tried = 0;
    for (int l = scratch_.min_timeline(); l <= scratch_.max_timeline() && !found; ++l) {
      // A board after P + 1: a slider's path back from it may cross the versions' boards.
      if (!scratch_.HasTimeline(l) || ColorOf(scratch_.TipHalf(l)) != opponent ||
          scratch_.TipHalf(l) > present_ + 1) {
        continue;
      }
      bool fixed = true;
      for (size_t i = 0; i < mandatory_.size(); ++i) {
        if (use[i] && mandatory_[i] == l && box[i].size() > 1) fixed = false;
      }
      if (!fixed) continue;
      ForEachTipMove(scratch_, l, decide_.promotions, [&](const Move& move, Piece) {
        if (!move.IsJump() || move.dst_half >= scratch_.TipHalf(move.dst_timeline)) return false;
        const Position::Mark before = scratch_.GetMark();
        ApplyMove(&scratch_, move);
        ++tried;
        // The bound first (cheap), the branches it activates last.
        const ReplyRead read = ReadReply(scratch_);
        found = scratch_.ToMove() == mover_ &&
                (read.answers || read.jump_bound_only || read.played_only) &&
                JudgeAction(scratch_, opponent, PromotingCapturesCount(scratch_)).problem ==
                    ActionVerdict::Problem::kNone &&
                (read.answers || ReplyAnswersAllHere());
        scratch_.Rollback(before);
        return found;
      });
    }
    scratch_.Rollback(mark);
    if (found) ++out_->box_branches;
    if (!Spend(1 + tried)) return Union::kFailed;
    return found ? Union::kNoCheck : Union::kMayCheck;
  }

  // Appends to scratch_ each used board's first version in the box, then plays `branch` when
  // given; false, scratch_ left as it was, where the branch is not as expected.
  bool PlayFirstOfBox(const Box& box, const std::vector<char>& use, const Move* branch) {
    const Position::Mark mark = scratch_.GetMark();
    for (size_t i = 0; i < mandatory_.size(); ++i) {
      if (use[i]) scratch_.Append(mandatory_[i], versions_[i][box[i].front()]);
    }
    if (branch == nullptr || PlayBranch(*branch)) return true;
    scratch_.Rollback(mark);
    return false;
  }

  // Plays `branch` on scratch_ (a worst position's versions appended): it must create a timeline
  // starting on P + 1.
  bool PlayBranch(const Move& branch) {
    const int created = pos_.CreatedBy(mover_);
    ApplyMove(&scratch_, branch);
    const int timeline = NewTimeline();
    return (scratch_.CreatedBy(mover_) == created + 1 &&
            scratch_.StartHalf(timeline) == present_ + 1) ||
           Fail(VersionProof::Stop::kUnexpectedBranch);
  }

  // Every combination of the box, each played.
  bool EachCombinationOf(const Box& box, const std::vector<char>& use, const Move* branch) {
    std::vector<size_t> index(mandatory_.size(), 0);
    std::vector<size_t> pick(mandatory_.size(), 0);  // the versions: box[i][index[i]]
    for (;;) {
      const Position::Mark mark = scratch_.GetMark();
      for (size_t i = 0; i < mandatory_.size(); ++i) {
        if (!use[i]) continue;
        pick[i] = box[i][index[i]];
        scratch_.Append(mandatory_[i], versions_[i][pick[i]]);
      }
      const bool answered = (branch == nullptr || PlayBranch(*branch)) && Answered();
      scratch_.Rollback(mark);
      if (!answered) {
        if (out_->stop == VersionProof::Stop::kMated && branch == nullptr) Realize(pick);
        return false;
      }
      if (!NextCombination(box, use, &index)) return true;
    }
  }

  // With as many timelines on each side: the actions whose first branch, active, is J.
  bool BranchingActions() {
    const int created = pos_.CreatedBy(mover_);
    for (const Move& move : moves_) {
      if (!move.IsJump()) continue;
      if (!Spend(1)) return false;
      const Position::Mark mark = scratch_.GetMark();
      ApplyMove(&scratch_, move);
      const bool branches = scratch_.CreatedBy(mover_) != created;
      const int start = branches ? scratch_.StartHalf(NewTimeline()) : 0;
      if (branches && start < present_ + 1) {
        // The present moves back onto J's board: W(J).
        const bool answered = Answered();
        scratch_.Rollback(mark);
        if (!answered) return false;
        continue;
      }
      scratch_.Rollback(mark);
      // J lands on P: a past board of P, or a mandatory tip played earlier in the action (which
      // the position's move reaches without branching).
      const bool onto_tip = !branches && move.dst_half == present_ &&
                            move.dst_timeline != move.src_timeline &&
                            pos_.TipHalf(move.dst_timeline) == present_;
      if (!(branches && start == present_ + 1) && !onto_tip) continue;
      std::vector<char> use(mandatory_.size(), 1);
      for (size_t i = 0; i < mandatory_.size(); ++i) {
        if (mandatory_[i] == move.src_timeline) use[i] = 0;
      }
      if (!EachCombination(use, &move)) return false;
    }
    return true;
  }

  // Where O is checkmated on W(v): whether the moves that made v's versions, played alone, make
  // v and are a legal action after which O is checkmated (then out_->mate is that action).
  void Realize(const std::vector<size_t>& index) {
    std::vector<Move> moves;
    for (size_t i = 0; i < mandatory_.size(); ++i) {
      const Move& move = makers_[i][index[i]];
      bool known = false;
      for (const Move& other : moves) known = known || other == move;
      if (!known) moves.push_back(move);
    }
    Position trial = pos_;
    for (const Move& move : moves) {
      // Each from a tip of the position, onto one where it lands on a tip.
      if (trial.TipHalf(move.src_timeline) != move.src_half) return;
      if (pos_.TipHalf(move.dst_timeline) == move.dst_half &&
          trial.TipHalf(move.dst_timeline) != move.dst_half) {
        return;
      }
      ApplyMove(&trial, move);
    }
    if (trial.ToMove() == mover_ || trial.CreatedBy(mover_) != pos_.CreatedBy(mover_)) return;
    for (size_t i = 0; i < mandatory_.size(); ++i) {
      const int l = mandatory_[i];
      if (trial.TipHalf(l) != present_ + 1 || !SameBoard(trial.Tip(l), versions_[i][index[i]])) {
        return;
      }
    }
    if (JudgeAction(trial, mover_, PromotingCapturesCount(trial)).problem !=
            ActionVerdict::Problem::kNone ||
        !InCheck(&trial)) {
      return;
    }
    const Decision decision = Decide(&trial, decide_);
    out_->work += decision.work;
    if (decision.verdict == Decision::Verdict::kCheckmate) out_->mate = std::move(moves);
  }

  // The timeline the mover created last on scratch_.
  int NewTimeline() const {
    return mover_ == Color::kWhite ? scratch_.max_timeline() : scratch_.min_timeline();
  }

  // Whether the opponent, to move on scratch_ (a worst position), is not in check or has a legal
  // action there.
  // `witness`, when given, is set to that action (left empty where O is not in check).
  bool Answered(std::vector<Move>* witness = nullptr) {
    ++out_->positions;
    if (!Spend(1)) return false;
    if (scratch_.ToMove() == mover_) return Fail(VersionProof::Stop::kPresentStays);
    if (!InCheck(&scratch_)) return true;
    ++out_->decided;
    // The worst positions of one proof are mostly answered alike: the last actions that answered
    // are tried before Decide.
    for (const std::vector<Move>& recent : recent_witnesses_) {
      if (!Spend(1 + recent.size())) return false;
      if (WitnessHolds(recent)) {
        if (witness != nullptr) *witness = recent;
        return true;
      }
    }
    const Decision decision = Decide(&scratch_, decide_);
    if (!Spend(decision.work)) return false;
    if (decision.verdict != Decision::Verdict::kPlayable) {
      return Fail(decision.verdict == Decision::Verdict::kUnknown ? VersionProof::Stop::kUndecided
                                                                  : VersionProof::Stop::kMated);
    }
    if (witness != nullptr) *witness = decision.witness;
    if (any_reply_) {
      Remember(decision.witness);
      return true;
    }
    // A reply that creates timelines may activate one of M's that the worst position holds
    // inactive and unplayed, or one an action created and the worst position lacks: the board
    // of O's colour an action left there must then lie after the present the reply makes.
    const Position::Mark mark = scratch_.GetMark();
    for (const Move& move : decision.witness) ApplyMove(&scratch_, move);
    // (A box's witness is read again on the box's unions: WitnessAnswersBox.)
    const bool answers = ReplyAnswersAllHere();
    scratch_.Rollback(mark);
    if (!Spend(decision.witness.size())) return false;
    if (answers) {
      Remember(decision.witness);
      return true;
    }
    // Decide's action does not do; another of O's legal actions may. (Not sought for a box's
    // witness: WitnessAnswersBox then plays the box's combinations one by one.)
    if (witness != nullptr) return Fail(VersionProof::Stop::kReplyBranches);
    bool found = false;
    const SearchStats stats = ForEachLegalAction(
        scratch_, decide_, [&](const std::vector<Move>& moves, const Position& after) {
          found = ReplyAnswersAll(after);
          if (found && witness != nullptr) *witness = moves;
          return found;
        });
    if (!Spend(stats.work)) return false;
    if (found) return true;
    return Fail(stats.end == SearchEnd::kOutOfBudget ? VersionProof::Stop::kUndecided
                                                     : VersionProof::Stop::kReplyBranches);
  }

  // Keeps an action that answered a worst position among the recent ones (the oldest goes).
  void Remember(const std::vector<Move>& witness) {
    if (recent_witnesses_.size() == kRecentWitnesses) {
      recent_witnesses_.erase(recent_witnesses_.begin());
    }
    recent_witnesses_.push_back(witness);
  }

  // Whether `after`, a worst position followed by a legal action of O, shows that action
  // answering every action the worst position stands for (above).
  // Where R creates r timelines, O having created o, it activates M's k-th for
  // o + 1 < k <= o + r + 1: one the position holds (k <= m, M's count) whose tip is M's, which an
  // action may have played (leaving a board of O's colour one half-turn later, which the worst
  // position lacks), or the (k - m)-th an action creates (whose first board, O's, starts one
  // half-turn after the board a jump of M lands on). So the present R makes is read without
  // those tips: it must be M's, and lie on or before each of them and before every such first
  // board.
  bool ReplyAnswersAll(const Position& after) const { return ReadReply(after).answers; }

  // What ReplyAnswersAll reads of `after`: whether the reply answers every action, the present it
  // makes (read without the tips above), and whether it fails only for the first boards of the
  // branches of M it may activate (the jump bound), with which branch of an action that is.
  struct ReplyRead {
    bool answers = false;
    bool jump_bound_only = false;
    int present = INT_MAX;
    int branch = 0;  // the activated branch: 1 for an action's first, 2 for its second
    // Whether it fails only for one timeline of M it activates whose tip, which an action may
    // have played, lies before that present (PlayedTipAnswered), and that timeline.
    bool played_only = false;
    int played_timeline = 0;
  };
  ReplyRead ReadReply(const Position& after) const {
    ReplyRead read;
    const Color opponent = Opponent(mover_);
    const int had = pos_.CreatedBy(opponent), made = after.CreatedBy(opponent);
    if (made == had) {
      read.answers = true;
      return read;
    }
    const int created = pos_.CreatedBy(mover_);
    int present = INT_MAX, played_bound = INT_MAX;
    std::vector<int> played;  // the activated timelines whose tips an action may have played
    for (int l = after.min_timeline(); l <= after.max_timeline(); ++l) {
      if (!after.HasTimeline(l) || !after.IsActive(l)) continue;
      // M's k-th timeline, or 0.
      const int k = mover_ == Color::kWhite ? l - pos_.initial_max() : pos_.initial_min() - l;
      if (k > had + 1 && k <= created && ColorOf(pos_.TipHalf(l)) == mover_) {
        played_bound = std::min(played_bound, pos_.TipHalf(l));
        played.push_back(l);
        continue;
      }
      present = std::min(present, after.TipHalf(l));
    }
    read.present = present;
    if (present == INT_MAX || ColorOf(present) != mover_) return read;
    if (present > played_bound) {
      // One such tip before the present: unplayed, the present is that tip, M's; played, it is
      // the board after O's move on it. The first boards of the branches of M the reply
      // activates must lie after either.
      int before = 0;
      for (int l : played) {
        if (pos_.TipHalf(l) < present) {
          ++before;
          read.played_timeline = l;
        }
      }
      read.played_only = before == 1 && (made + 1 <= created || jump_bound_ >= played_bound + 2);
      return read;
    }
    if (made + 1 <= created || jump_bound_ >= present) {
      read.answers = true;
      return read;
    }
    // One timeline made: it activates M's (had + 2)-th, the (had + 2 - created)-th an action
    // creates.
    read.jump_bound_only = made == had + 1;
    read.branch = had + 2 - created;
    return read;
  }

  // ReplyAnswersAll for scratch_ (a worst position and a legal action R of O played on it),
  // where R may also be shown to answer the branch of M it activates (BranchesAnswered) or the
  // tip of M an action may have played that it activates (PlayedTipAnswered). scratch_ holds no
  // capture of a royal piece of O (R is legal there): where promoting captures count, the
  // captures after the boards those tests add involve one of them.
  bool ReplyAnswersAllHere() {
    const ReplyRead read = ReadReply(scratch_);
    if (read.answers) return true;
    const bool promoting = PromotingCapturesCount(scratch_);
    return ReplyAnswers(read, [&](std::span<const BoardPlace> fresh) {
      if (scratch_.ToMove() != mover_) return false;
      if (promoting) return !RoyalCapturableTouching(scratch_, mover_, true, fresh);
      return JudgeAction(scratch_, Opponent(mover_), PromotingCapturesCount(scratch_)).problem ==
             ActionVerdict::Problem::kNone;
    });
  }

  // Whether R, read as `read`, answers every action: by the bound, or where it fails only for a
  // branch or a played tip of M that R activates, by O's moves on the boards those leave.
  // no_capture(fresh) says whether the present on scratch_ is M's and no piece of M can capture
  // a royal piece of O there, `fresh` naming the boards added to it.
  template <typename NoCapture>
  bool ReplyAnswers(const ReplyRead& read, NoCapture&& no_capture) {
    if (read.answers) return true;
    if (read.played_only) return PlayedTipAnswered(read.played_timeline, no_capture);
    return read.jump_bound_only && BranchesAnswered(read, no_capture);
  }

  // R activates the branch of M an action creates (its first where M has created one timeline
  // more, its second where as many) and whose board lies before the present R makes: O then
  // plays that board too, and where O has a move that stays on it after which no royal piece of
  // O can be captured, the present is M's again and the action is legal. So every jump J of M
  // landing before that present is tried as that branch: on scratch_, after a stand-in timeline
  // for the action's first branch where J is the second (a board of O's colour on P + 1: no
  // capture of M starts from, crosses or lands on it, and the present R makes comes before it),
  // J's board is started on its own timeline (the board it lands on with its piece), and O's
  // move on it is sought. The other boards are those of the worst position, which stand for
  // every action's as above (its tips of M unplayed, J's source among them where that is no
  // mandatory board: more attackers, not fewer). A jump onto a tip before that present branches
  // only after an action played that tip: not tried.
  template <typename NoCapture>
  bool BranchesAnswered(const ReplyRead& read, NoCapture&& no_capture) {
    if (read.branch < 1) return false;
    // The branches of the action before J that scratch_ lacks (W(J) and W(J, v) hold the first).
    const int stand_ins = read.branch - 1 - (scratch_.CreatedBy(mover_) - pos_.CreatedBy(mover_));
    if (stand_ins < 0 || stand_ins > 1) return false;
    uint64_t tried = 0;
    bool answered = true;
    // The boards already shown answered: J's board depends on where J lands and its piece only.
    std::vector<std::tuple<int, int, int, uint8_t>> shown;
    for (const Move& jump : moves_) {
      if (!jump.IsJump() || jump.dst_half >= read.present) continue;
      if (jump.dst_half >= pos_.TipHalf(jump.dst_timeline) || jump.promotion != PieceType::kNone) {
        answered = false;
        break;
      }
      const Piece piece = pos_.Tip(jump.src_timeline).at(jump.from);
      const auto key = std::make_tuple(jump.dst_timeline, jump.dst_half,
                                       jump.to.rank * pos_.width() + jump.to.file, piece.bits());
      if (std::find(shown.begin(), shown.end(), key) != shown.end()) continue;
      const Position::Mark mark = scratch_.GetMark();
      if (stand_ins == 1)
        scratch_.CreateTimeline(mover_, present_ + 1, pos_.Tip(jump.src_timeline));
      const int timeline = scratch_.CreateTimelineEdited(
          mover_, jump.dst_half + 1, *scratch_.BoardAt(jump.dst_timeline, jump.dst_half),
          [&](Board& arrived) {
            arrived.ClearEnPassant();
            arrived.Set(jump.to, piece.Moved());
          });
      const bool safe = !scratch_.IsActive(timeline) || SafeMoveOn(timeline, no_capture, &tried);
      scratch_.Rollback(mark);
      ++tried;
      if (!safe) {
        answered = false;
        break;
      }
      shown.push_back(key);
    }
    if (!Spend(tried)) return false;
    if (answered) ++out_->branches_answered;
    return answered;
  }

  // A reply R of O (played on scratch_) that activates timeline l of M, whose tip lies before the
  // present R makes: an action that leaves the tip unplayed leaves the present there, M's; one
  // that plays it (a move from it or a piece arriving on it: one of its versions) leaves a board
  // of O's colour there, which O must then play too. So R answers every action where for each
  // version O has a move staying on that board after which no royal piece of O can be captured
  // (`no_capture`, read on scratch_ with the version and the move played: the other boards are
  // the worst position's after R, its tips of M unplayed, more attackers than an action leaves,
  // and the played tip is a tip no more).
  template <typename NoCapture>
  bool PlayedTipAnswered(int l, NoCapture&& no_capture) {
    if (scratch_.TipHalf(l) != pos_.TipHalf(l)) return false;
    const std::vector<Board>* versions = TipVersions(l);
    if (versions == nullptr) return false;
    uint64_t tried = 0;
    bool answered = true;
    for (const Board& version : *versions) {
      const Position::Mark mark = scratch_.GetMark();
      scratch_.Append(l, version);
      const bool safe = SafeMoveOn(l, no_capture, &tried);
      scratch_.Rollback(mark);
      if (!safe) {
        answered = false;
        break;
      }
    }
    if (!Spend(tried)) return false;
    if (answered) ++out_->played_tips_answered;
    return answered;
  }

  // Whether O has a move that stays on its tip of `timeline` on scratch_ after which
  // no_capture(fresh) holds, `fresh` the board it moved from and the one it made; *tried counts
  // the moves played.
  template <typename NoCapture>
  bool SafeMoveOn(int timeline, NoCapture&& no_capture, uint64_t* tried) {
    bool safe = false;
    ForEachMoveStaying(&scratch_, timeline, decide_.promotions, [&](Position& after) {
      ++*tried;
      const BoardPlace fresh[] = {{timeline, after.TipHalf(timeline) - 1},
                                  {timeline, after.TipHalf(timeline)}};
      safe = no_capture(std::span<const BoardPlace>(fresh));
      return safe;
    });
    return safe;
  }

  // The versions of the tip of timeline l of M (not a mandatory board): the tip after every move
  // of the position that changes it, gathered once; nullptr when the budget ran out.
  const std::vector<Board>* TipVersions(int l) {
    for (const auto& [timeline, versions] : tip_versions_) {
      if (timeline == l) return &versions;
    }
    if (!Spend(moves_.size())) return nullptr;
    std::vector<Board> versions;
    Position trial = pos_;
    for (const Move& move : moves_) {
      const Position::Mark mark = trial.GetMark();
      ApplyMove(&trial, move);
      if (trial.TipHalf(l) != pos_.TipHalf(l)) AddVersion(trial.Tip(l), &versions);
      trial.Rollback(mark);
    }
    tip_versions_.emplace_back(l, std::move(versions));
    return &tip_versions_.back().second;
  }

  bool Spend(uint64_t work) {
    out_->work += work;
    return unbudgeted_ || budget_ == 0 || out_->work <= budget_ ||
           Fail(VersionProof::Stop::kBudget);
  }

  // Records why the proof stopped; false.
  bool Fail(VersionProof::Stop stop) {
    out_->stop = stop;
    return false;
  }

  const Position& pos_;
  Position scratch_;
  const Color mover_;
  const int present_;
  const uint64_t budget_;
  // A box of at most this many combinations is played combination by combination.
  static constexpr double kFlatCombinations = 4;
  // The witnesses of the last boxes answered, tried before Decide on the next (at most
  // kRecentWitnesses, newest last).
  std::vector<std::vector<Move>> recent_witnesses_;
  static constexpr size_t kRecentWitnesses = 4;
  // Whether any legal action of O answers: the actions create no timeline (created_at_most 0).
  bool any_reply_ = false;
  // The earliest board a jump of M lands on (ReplyAnswersAll).
  int jump_bound_ = INT_MAX;
  SearchLimits decide_;
  VersionProof* out_;
  std::vector<int> mandatory_;
  std::vector<Move> moves_;
  std::vector<std::vector<Board>> versions_;
  // Each version's squares as union cells (union_cells::MergeBoard), merged by MergeVersions.
  std::vector<std::vector<std::vector<union_cells::Cell>>> version_cells_;
  std::vector<std::vector<Move>> makers_;  // the move that made each version first
  // The versions of tips of M that are no mandatory board (TipVersions), by timeline.
  std::deque<std::pair<int, std::vector<Board>>> tip_versions_;
  bool unbudgeted_ = false;  // WitnessHoldsOnEach's look under way
};

}  // namespace

VersionProof ProveNoMateByVersions(const Position& pos, PromotionSet promotions, uint64_t budget,
                                   uint64_t decide_budget, int created_at_most) {
  VersionProof out;
  Prover prover(pos, promotions, budget, decide_budget, &out);
  out.proved = prover.Prove(created_at_most);
  if (out.proved) out.stop = VersionProof::Stop::kProved;
  return out;
}

const char* VersionProofStopName(VersionProof::Stop stop) {
  switch (stop) {
    case VersionProof::Stop::kProved:
      return "proved";
    case VersionProof::Stop::kOpponentAhead:
      return "opponent ahead";
    case VersionProof::Stop::kPromotion:
      return "promotion";
    case VersionProof::Stop::kTooMany:
      return "too many combinations";
    case VersionProof::Stop::kBudget:
      return "budget";
    case VersionProof::Stop::kPresentStays:
      return "present stays";
    case VersionProof::Stop::kMated:
      return "mated";
    case VersionProof::Stop::kUndecided:
      return "undecided";
    case VersionProof::Stop::kReplyBranches:
      return "reply branches";
    case VersionProof::Stop::kUnexpectedBranch:
      return "unexpected branch";
  }
  return "budget";
}

}  // namespace fived
