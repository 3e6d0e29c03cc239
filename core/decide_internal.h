// The mate search's working parts (decide.h), shared by the files of its steps: decide.cc runs
// the steps in order and holds what they share, quick_try.cc is the quick try, local_proof.cc the
// local proof and the pair proof; the hypercuboid search is hypercuboid.h. Internal to core:
// only those files include it.
#ifndef FIVED_CORE_DECIDE_INTERNAL_H_
#define FIVED_CORE_DECIDE_INTERNAL_H_

#include <array>
#include <bitset>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/action.h"
#include "core/check.h"
#include "core/decide.h"
#include "core/legal.h"
#include "core/movegen.h"
#include "core/position.h"

namespace fived::decide_internal {

// Whether the mover must play the tip of `timeline`: it is active and on the present.
inline bool IsMandatory(const Position& pos, int timeline, int present) {
  return pos.HasTimeline(timeline) && pos.IsActive(timeline) && pos.TipHalf(timeline) == present;
}

// How a choice of a board that exposed a royal piece alone fails (see local_proof.cc): in
// every action holding it (kFails), with every other jump of its piece too (kLeaveFails: a jump
// away whose capture needs neither the board it arrives on nor its own promotion), or not
// provably (kUnsettled: a jump whose capture needs the board it arrives on and others).
enum class Failure { kFails, kLeaveFails, kUnsettled };

// What the choices of one mandatory board did when each was tried alone on the position.
class BoardFate {
 public:
  explicit BoardFate(int timeline) : timeline_(timeline) {}

  // Records one choice tried alone: `move` (a move of the board, or a piece arriving on it),
  // whether it exposed a royal piece, and if so how that fails (Decider::HowItFails).
  void Add(const Move& move, bool exposed, Failure failure) {
    if (!exposed) {
      alive_ = true;
    } else if (failure == Failure::kLeaveFails) {
      leave_fails_[SquareIndex(move.from)] = true;
    } else if (failure == Failure::kUnsettled) {
      leave_unsettled_[SquareIndex(move.from)] = true;
    }
  }

  // Records that the piece on `from` fails by leaving the board, wherever it goes.
  void LeaveFails(Square from) { leave_fails_[SquareIndex(from)] = true; }

  int timeline() const { return timeline_; }
  // A surviving choice was seen: the board is not what proves anything.
  bool alive() const { return alive_; }
  // Every choice recorded fails in every action (so far as they were all recorded).
  bool AllFail() const {
    if (alive_) return false;
    for (size_t i = 0; i < leave_unsettled_.size(); ++i) {
      if (leave_unsettled_[i] && !leave_fails_[i]) return false;
    }
    return true;
  }

 private:
  static size_t SquareIndex(Square s) { return s.rank * kMaxBoardSide + s.file; }

  int timeline_;
  bool alive_ = false;
  std::array<bool, kMaxSquares> leave_fails_{};      // by square: the piece's leaving fails
  std::array<bool, kMaxSquares> leave_unsettled_{};  // a jump of the piece failed by its arrival
};

// A mandatory board whose pass exposes a royal piece, and the squares of that capture on it.
struct Threat {
  int timeline;
  std::bitset<kMaxSquares> squares;  // by Decider::SquareIndex
};

class Decider {
 public:
  // Decides *pos, which it uses to play moves on and leaves as it was.
  Decider(Position* pos, const SearchLimits& limits);
  ~Decider();
  Decider(const Decider&) = delete;
  Decider& operator=(const Decider&) = delete;

  // Decides the position (Decide).
  Decision Run();

 private:
  // decide.cc: the steps in order (Run, Settle), and the moves every step tries.
  Decision Settle();
  bool InCheckHere();
  void OrderMandatoryBoards();
  void CollectBoardMoves(int timeline, std::vector<Move>* out, BoardFate* fate = nullptr) const;
  void CollectArrivals(int timeline, std::vector<Move>* out);
  const std::vector<Move>& ArrivalsOnto(int timeline);
  bool PlayAndTest(const Move& move, Move* capture, bool* by_own_promotion,
                   MoveEffect* effect_out = nullptr);

  // quick_try.cc: the quick try.
  int NextMandatory(int present) const;
  bool CollectNextPieceMoves(int timeline, bool jumps, int* next, std::vector<Move>* out,
                             BoardFate* fate = nullptr) const;
  bool QuickTry();
  bool QuickFrom(size_t depth);

  // local_proof.cc: the local proof, the pair proof, and how a choice tried alone fails.
  Failure HowItFails(int board, const Move& move, const BoardPlace& arrival, const Move& capture,
                     bool by_own_promotion) const;
  bool MayActivateEarlier() const;
  void CollectEscapes(int except, std::vector<Move>* out, bool* onto_tip) const;
  bool EveryEscapeFails(int dead, int active, std::vector<Move>* action);
  BoardFate FateOf(int board);
  bool PairProof();
  bool PlaysBothBoards(const Move& jump);
  bool MayGoTogether(int b1, const Move& c1, int b2, const Move& c2);
  bool LocalProof(std::vector<Move>* action);

  bool OutOfBudget() const { return limits_.budget != 0 && work_ >= limits_.budget; }

  // A predicate telling the boards that were there before the action (boards are only ever
  // added after tips and as new timelines).
  auto ExistedBefore() const {
    return [this](int timeline, int half_turn) {
      const size_t i = static_cast<size_t>(timeline - min_timeline_);
      return timeline >= min_timeline_ && i < tips_.size() && half_turn <= tips_[i];
    };
  }

  // The threat of `timeline`'s board (OrderMandatoryBoards), or nullptr.
  const Threat* ThreatOf(int timeline) const {
    for (const Threat& threat : threats_) {
      if (threat.timeline == timeline) return &threat;
    }
    return nullptr;
  }

  // Whether a move of or onto a threatened board may break its threat: it leaves from or lands
  // on a square of the capture (castling and en passant, which change other squares, always may).
  static bool MayBreak(const Threat& threat, const Move& m) {
    if (m.flags & (Move::kCastle | Move::kEnPassant)) return true;
    return (m.src_timeline == threat.timeline && threat.squares.test(SquareIndex(m.from))) ||
           (m.dst_timeline == threat.timeline && threat.squares.test(SquareIndex(m.to)));
  }

  static size_t SquareIndex(Square s) { return s.rank * kMaxBoardSide + s.file; }

  // Whether a royal piece of the mover is capturable in scratch_, whose boards added since the
  // last test are the first `fresh` of fresh_ (RoyalCapturableTouching when touching_).
  bool Exposed(bool promoting_captures, int fresh, Move* capture) const {
    return touching_
               ? RoyalCapturableTouching(scratch_, Opponent(mover_), promoting_captures,
                                         std::span<const BoardPlace>(fresh_.data(), fresh), capture)
               : RoyalCapturable(scratch_, Opponent(mover_), promoting_captures, capture);
  }

  // How many of the timelines the mover may create would be active: the n-th timeline of a
  // player is active when the opponent created at least n - 1, so the first ones, if any.
  int ActiveNewTimelines() const {
    return std::max(0, pos_.CreatedBy(Opponent(mover_)) - pos_.CreatedBy(mover_) + 1);
  }

  // The position as it was before the action (read only while no move is played on scratch_,
  // the same object), and the same position as moves are played on it and rolled back.
  const Position& pos_;
  Position& scratch_;
  const SearchLimits& limits_;
  const Color mover_;
  const bool promoting_;  // PromotingCapturesCount before the action
  const bool keys_were_on_;
  const Position::Mark start_;
  // The tip of every timeline before the action (INT_MIN for none), from min_timeline_.
  const int min_timeline_;
  std::vector<int> tips_;
  bool capturable_ = false;  // a royal piece of the mover capturable before the action
  bool touching_ = false;
  std::vector<int> mandatory_;   // the mandatory boards' timelines, in the order tried
  std::vector<Threat> threats_;  // of the mandatory boards whose pass exposes a royal piece
  uint64_t work_ = 0;            // moves tried
  uint64_t quick_limit_ = 0;     // work_ at which the quick try's attempt stops
  bool quick_stopped_ = false;
  bool first_attempt_ = true;
  int stuck_board_ = INT_MIN;  // the deepest board of the attempt none of whose choices survived
  size_t stuck_depth_ = 0;
  std::vector<Move> path_;                 // the quick try's moves so far
  std::vector<std::vector<Move>> levels_;  // the moves tried at each depth, reused
  std::vector<Move> jumps_;                // QuickFrom's scratch
  // ArrivalsOnto's moves by target timeline.
  std::vector<std::pair<int, std::vector<Move>>> arrivals_;
  std::array<BoardPlace, 2> fresh_{};    // the boards the last move added
  std::optional<BoardFate> first_fate_;  // the quick try's first board's choices
  bool first_fate_settled_ = false;      // ... every one of them tried
  // The quick try's escapes from the boards but its first (tried when a new timeline could be
  // active): all of them tried, and every one exposed a royal piece.
  bool escapes_settled_ = false;
  bool escapes_fail_ = false;
};

}  // namespace fived::decide_internal

#endif  // FIVED_CORE_DECIDE_INTERNAL_H_
