// The reply proof's working parts (reply_proof.h), shared by the files of its jobs:
// reply_proof.cc runs the rounds and makes the slots (the boards the opponent may have to play),
// reply_proof_attacks.cc answers captures on one board, reply_proof_replies.cc gives every
// version of a slot a safe reply and keeps the union of the boards they make, and
// reply_proof_union.cc searches those unions for captures across boards and marks what the next
// round must break. Internal to core: only those files (and tests) include it.
#ifndef FIVED_CORE_REPLY_PROOF_INTERNAL_H_
#define FIVED_CORE_REPLY_PROOF_INTERNAL_H_

#include <climits>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/branch_escape.h"
#include "core/movegen.h"
#include "core/position.h"
#include "core/reply_proof.h"
#include "core/union_cells.h"

namespace fived::reply_proof_internal {

// What a square of a union board may hold (core/union_cells.h).
using union_cells::Cell;
using union_cells::CellOf;
using union_cells::kEmptyCell;

// Calls f(square) for each royal piece of `color` on `board`; returns true as soon as f does.
template <typename F>
bool AnyRoyal(const Board& board, Color color, F&& f) {
  if (!board.royals_overflow()) {
    const int count = board.royal_count(color);
    for (int i = 0; i < count; ++i) {
      if (f(board.royal(color, i))) return true;
    }
    return false;
  }
  for (int rank = 0; rank < board.height(); ++rank) {
    for (int file = 0; file < board.width(); ++file) {
      const Piece piece = board.at(file, rank);
      if (!piece.empty() && piece.color() == color && IsRoyal(piece.type()) &&
          f(Square{static_cast<int8_t>(file), static_cast<int8_t>(rank)})) {
        return true;
      }
    }
  }
  return false;
}

// Whether a piece of `attacker` on `board` can capture a royal piece of the other colour there.
// A pawn's capture onto the attacker's last rank counts only when it surely would (JudgeAction
// counts it when some board holds a piece to promote to): with `surely`, it is not counted, so
// that a true answer holds whatever the position; without, it is counted, so that a false one
// does.
bool RoyalAttackedOnBoard(const Board& board, Color attacker, bool surely);

// A board the opponent may have to play, and the union of the boards its replies make.
struct Slot {
  int reply_half = 0;       // the half-turn of the boards the replies make
  std::vector<Cell> cells;  // the union of those boards, rank by rank
  bool has_reply = false;   // `reply` worked on an earlier version: tried first on the next
  Move reply;
  // Squares of the replies' boards that a capture across boards may reach (found by an earlier
  // round): a reply leaves no royal piece there.
  std::vector<uint8_t> danger;
  // Pieces of the mover (Cell bits) that a capture across boards may start from, by square of
  // the replies' boards: a reply leaves none of them there (it captures them, as a rule).
  std::vector<Cell> hot;
  // The hot pieces some version could not capture: answered by the royal pieces instead (their
  // squares' danger), as the pieces that stand there whatever the action did.
  std::vector<Cell> unanswerable;
  // How each version given a reply this round was made: the mover's move, or none (the slot's
  // board is the opponent's tip already). Read by the replies across two boards.
  std::vector<Move> makers;
  bool tip_version = false;
};

// One proof for one position: ProveNoMateByReplies makes one, runs it once and drops it. Reads
// `pos`, which must outlive it; not thread-safe (one per thread).
class Prover {
 public:
  Prover(const Position& pos, PromotionSet promotions, BranchEscape* escape = nullptr,
         int created_at_most = -1, int created_at_least = 0)
      : escape_(escape),
        created_at_most_(created_at_most),
        created_at_least_(created_at_least),
        pos_(pos),
        scratch_(pos),
        promotions_(promotions),
        mover_(pos.ToMove()),
        opponent_(Opponent(pos.ToMove())),
        present_(pos.Present()),
        width_(pos.width()),
        height_(pos.height()) {
    scratch_.DropKeys();
  }

  ReplyProof Run() {
    ReplyProof out;
    out.result = Prove(&out);
    out.work = work_;
    out.versions = versions_;
    out.escaped = escaped_;
    out.left_out_late = left_out_late_;
    return out;
  }

 private:
  static constexpr int kRounds = 6;
  static constexpr size_t kMaxDeferred = 64;

  // Versions with no reply on their own board, left to a reply across two boards
  // (ResolveDeferred): the slot, its timeline, and how the version was made.
  struct Deferred {
    int slot;
    int timeline;
    bool tip;
    bool fallback;  // a reply on its own board may exist once its hot pieces are given up
    Move move;
  };

  // A board of the mover's colour after an action and its reply: one of the position, a slot's
  // union, or none.
  struct Place {
    const Board* board = nullptr;
    const std::vector<Cell>* merged = nullptr;
    int slot = -1;  // the slot of `merged`
    bool exists() const { return board != nullptr || merged != nullptr; }
  };

  // reply_proof.cc: the rounds and the slots.
  ReplyProof::Result Prove(ReplyProof* out);
  int SlotOf(int timeline) const {
    if (timeline < pos_.min_timeline() || timeline > pos_.max_timeline()) return -1;
    return slot_of_[timeline - pos_.min_timeline()];
  }
  int NewSlot(int reply_half);
  void MakeSlots();
  int NewTimelineSlot(int board_half);

  // reply_proof_replies.cc: the versions and their replies.
  bool ChooseReplies();
  bool VersionsOf(const Move& move);
  bool ReplyToVersion(int timeline, int slot, int also);
  bool GiveUpHot(const Board& board, int slot);
  bool TryReply(int timeline, int half, Move reply, int slot, int also, bool generated = false);
  bool HoldsHot(const Board& board, int slot) const;
  bool IsGenerated(int timeline, int half, Piece piece, const Move& reply);
  void CollectReplies(const Board& version, int timeline, int half);
  bool TryReplies(int timeline, int half, int slot, int also);
  bool ResolveDeferred();
  bool FallBack(const Deferred& d);
  bool PairReply(const Move* making, int timeline, int slot, int other_timeline, int other);
  template <typename Visit>
  void ForEachPairMove(int timeline, int other_timeline, Visit&& visit);
  bool PairSafe(int timeline, int slot, int other_timeline, int other);
  bool Escaped(int timeline, int slot, int also);
  void Merge(const Board& board, int slot);

  // reply_proof_union.cc: the search of the unions for captures across boards.
  Place At(int timeline, int half) const;
  Place AtFrom(int from_timeline, int from_half, int timeline, int half) const;
  Cell CellAt(const Place& place, int file, int rank) const {
    if (place.board != nullptr) return CellOf(place.board->at(file, rank));
    return (*place.merged)[rank * width_ + file];
  }
  bool ReachesAcross(int timeline, int half, int file, int rank, PieceType type, Cell royals) const;
  bool UnionReaches(const std::vector<Cell>& cells, int timeline, int half, Cell royals) const;
  bool CrossCapture() const;
  bool MarkDanger();
  template <typename Mark>
  void WalkAcross(int timeline, int half, int file, int rank, PieceType type, Mark& mark,
                  int max_half = INT_MAX) const;
  bool ReachesBack(int timeline, int half, int file, int rank, PieceType type, Cell royals) const;

  BranchEscape* escape_;  // the branch escape asked of versions, or null until one is made
  // Only the actions that create at most this many timelines (-1: any; ProveNoMateByReplies).
  int created_at_most_;
  // Only the actions that create at least this many timelines (0: any).
  int created_at_least_;
  const Position& pos_;
  Position scratch_;  // the position with one move of the mover and one reply played at most
  PromotionSet promotions_;
  Color mover_;
  Color opponent_;
  int present_;
  int width_;
  int height_;
  std::vector<Slot> slots_;
  std::vector<int> slot_of_;      // by timeline - min_timeline: its slot in slots_, or -1
  std::vector<int> new_by_half_;  // by the new timelines' first half-turn: their slot, or -1
  int active_new_ = 0;            // how many new timelines may be active
  // The latest present an action that creates a timeline can leave (MakeSlots): a board of the
  // opponent after such an action that lies later is never played by their reply.
  int branch_present_ = INT_MAX;
  bool left_out_late_ = false;  // some board was left out by branch_present_
  int new_low_ = 0;
  int new_high_ = -1;
  std::vector<Move> replies_;  // the replies of one version, collected before they are tried
  // The move of the mover that made the version being given a reply (nullptr: the tip).
  const Move* making_ = nullptr;
  std::vector<Deferred> deferred_;
  // The branch escape: the caller's, or one made for the first version with no reply on its
  // own board (owned_escape_).
  std::unique_ptr<BranchEscape> owned_escape_;
  // The versions it was asked of (by timeline and the move that made them, none for a tip), and
  // its answers.
  struct EscapeAsked {
    int timeline;
    Move made;
    bool escaped;
  };
  std::vector<EscapeAsked> escapes_asked_;
  uint64_t work_ = 0;
  uint64_t versions_ = 0;
  uint64_t escaped_ = 0;
};

}  // namespace fived::reply_proof_internal

#endif  // FIVED_CORE_REPLY_PROOF_INTERNAL_H_
