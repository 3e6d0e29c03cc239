// Deciding a position; see decide.h.
//
// Why the local proof's failures are final. The local proof tries each choice of a mandatory
// board T on the position as it is, alone: a move of T, or a move of another playable board
// whose piece arrives on T's tip. Suppose it exposes a royal piece of the mover: some opponent
// piece on a tip of the opponent's colour can capture it, across squares of existing boards.
// In any action holding the same choice, the boards the choice made are there with the same
// contents (the tip of T once played is the opponent's, and no later move of the action lands
// on it; a piece arriving from S leaves S's tip as it leaves it here), the boards that existed
// before never change, the tips the attacker moves from stay tips (the mover only adds boards
// after tips of their own colour), and adding boards never blocks a line (legal.h). So the
// capture is there in every such action, which is illegal, if the capture needs no board but
// those: always true for a move on T alone (it makes only T's next board) and for an arrival
// on T (T's next board and the board it left); for a piece that jumps away from T, when the
// capture avoids the board it arrives on (then every jump of that piece fails, for all leave T
// the same board behind), or when it lies on that board alone (then this jump fails: the board
// it makes has the same contents wherever it is, on a tip or on a new timeline whatever its
// number). A capture that counts only because the move promotes fails only the choice that
// promotes, so a promoting jump names no failure of its piece's other jumps. With every
// choice of T failing and T unable to stay unplayed (no timeline could take the present back:
// LocalProof), no action is legal. The pair proof (PairProof) stands on the same ground for two
// choices played together.
#include "core/decide.h"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cassert>
#include <climits>
#include <cstdint>
#include <optional>

#include "core/action.h"
#include "core/check.h"
#include "core/hypercuboid.h"
#include "core/rules.h"

namespace fived {

namespace {

// Moves the quick try may play, in all and in its first attempt: the larger of a fixed budget
// and one per mandatory board. Where it succeeds it usually takes a few per board; past this the
// local proof and the hypercuboid search are the cheaper ways on. With many boards (20 to 30
// in the long benchmark games) the fixed budgets alone left a quick try a few moves per board,
// and one board stuck late sent the position to the search, which costs milliseconds: with
// these, the search decides 309 of those games' playable positions instead of 775 and the
// decision takes 20% less time (bench_verdict); positions of a few boards are as before.
constexpr uint64_t kQuickTryBudget = 250;
constexpr uint64_t kQuickTryPerBoard = 40;
constexpr uint64_t kFirstAttemptBudget = 100;
constexpr uint64_t kFirstAttemptPerBoard = 10;
constexpr int kQuickAttempts = 8;

bool IsMandatory(const Position& pos, int timeline, int present) {
  return pos.HasTimeline(timeline) && pos.IsActive(timeline) && pos.TipHalf(timeline) == present;
}

// How a choice of a board that exposed a royal piece alone fails (see the top of this file): in
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
  Decider(Position* pos, const SearchLimits& limits)
      : pos_(*pos),
        scratch_(*pos),
        limits_(limits),
        mover_(pos->ToMove()),
        promoting_(PromotingCapturesCount(*pos)),
        keys_were_on_(pos->keys()),
        start_(pos->GetMark()),
        min_timeline_(pos->min_timeline()) {
    scratch_.DropKeys();  // nothing here reads a key
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      tips_.push_back(pos_.HasTimeline(l) ? pos_.TipHalf(l) : INT_MIN);
    }
  }
  ~Decider() {
    scratch_.Rollback(start_);  // the quick try's action stays played when it succeeds
    if (keys_were_on_) scratch_.RestoreKeys();  // every board added was rolled back
  }
  Decider(const Decider&) = delete;
  Decider& operator=(const Decider&) = delete;

  Decision Run() {
    Decision decision = Settle();
    decision.in_check = InCheckHere();
    if (decision.verdict == Decision::Verdict::kCheckmate && !decision.in_check) {
      decision.verdict = Decision::Verdict::kStalemate;
    }
    return decision;
  }

 private:
  // Decide's steps; a position without an action comes out as kCheckmate, which Run turns into
  // kStalemate when the mover is not in check.
  Decision Settle() {
    Decision decision;
    const Color opponent = Opponent(mover_);
    capturable_ = RoyalCapturable(pos_, opponent, promoting_);
    // A royal piece capturable already stays so whatever the action: the search says so at once.
    if (!capturable_) {
      // With no royal capturable before the action even by a promoting capture, every capture
      // after a move involves a board the move added: only those are looked at (with promoting_,
      // the test above counted promoting captures already).
      touching_ = promoting_ || !RoyalCapturable(pos_, opponent, true);
      OrderMandatoryBoards();
      // A step's decision: what it found, with the work so far.
      auto settled = [&](Decision::Step step, Decision::Verdict verdict,
                         std::vector<Move> witness) {
        decision.verdict = verdict;
        decision.witness = std::move(witness);
        decision.work = work_;
        decision.step = step;
        return decision;
      };
      if (QuickTry()) {
        return settled(Decision::Step::kQuickTry, Decision::Verdict::kPlayable, path_);
      }
      if (OutOfBudget()) return settled(Decision::Step::kQuickTry, Decision::Verdict::kUnknown, {});
      std::vector<Move> escape;
      if (LocalProof(&escape)) {
        return settled(Decision::Step::kLocalProof, Decision::Verdict::kCheckmate, {});
      }
      if (!escape.empty()) {
        return settled(Decision::Step::kLocalProof, Decision::Verdict::kPlayable, escape);
      }
      if (OutOfBudget()) {
        return settled(Decision::Step::kLocalProof, Decision::Verdict::kUnknown, {});
      }
    }
    SearchLimits rest = limits_;
    if (rest.budget != 0) rest.budget -= work_;
    LegalActionSearch search = FindLegalAction(pos_, rest);
    decision.work = work_ + search.work;
    decision.step = Decision::Step::kSearch;
    switch (search.end) {
      case SearchEnd::kStopped:
        decision.verdict = Decision::Verdict::kPlayable;
        decision.witness = std::move(search.action);
        break;
      case SearchEnd::kOutOfBudget:
        decision.verdict = Decision::Verdict::kUnknown;
        break;
      case SearchEnd::kExhausted:
        decision.verdict = Decision::Verdict::kCheckmate;
        break;
    }
    return decision;
  }

  // InCheck (legal.h) of the position, from what Settle found where it can: a royal piece
  // capturable already, or a mandatory board whose pass alone exposes one, is check (passing
  // every mandatory board only adds captures); otherwise the mandatory boards are passed and,
  // when no royal was capturable before even by a promoting capture, only the captures
  // involving the passed boards are looked for.
  bool InCheckHere() {
    scratch_.Rollback(start_);  // the quick try's action stays played when it succeeds
    if (capturable_ || !threats_.empty()) return true;
    if (!touching_) return InCheck(&scratch_);
    const Position::Mark mark = scratch_.GetMark();
    std::vector<BoardPlace> passed;
    for (int l : mandatory_) {
      Board board = scratch_.Tip(l);
      board.ClearEnPassant();
      scratch_.Append(l, board);
      passed.push_back({l, scratch_.TipHalf(l)});
    }
    const bool check = RoyalCapturableTouching(scratch_, Opponent(mover_), promoting_, passed);
    scratch_.Rollback(mark);
    return check;
  }

  bool OutOfBudget() const { return limits_.budget != 0 && work_ >= limits_.budget; }

  // The mandatory boards, those whose pass alone exposes a royal piece first: they have the
  // fewest ways out, so the quick try meets their trouble before it has played the others, and
  // the local proof finds a board without a way out sooner. Of each such board, the squares of
  // the capture its pass exposes that lie on it are kept (threats_): a move from or onto one of
  // them (the royal piece moving, the attacker taken, the line blocked) is the likeliest way out.
  void OrderMandatoryBoards() {
    const int present = pos_.Present();
    std::vector<int> quiet;
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!IsMandatory(pos_, l, present)) continue;
      const Position::Mark mark = scratch_.GetMark();
      Board passed = scratch_.Tip(l);
      passed.ClearEnPassant();
      scratch_.Append(l, passed);
      fresh_[0] = {l, present + 1};
      Move capture;
      const bool exposed = Exposed(promoting_, 1, &capture);
      if (exposed) {
        Threat& threat = threats_.emplace_back();
        threat.timeline = l;
        ForEachCaptureCell(scratch_, capture, [&](int cl, int ch, Square square) {
          if (cl == l && ch == present + 1) threat.squares.set(SquareIndex(square));
        });
      }
      scratch_.Rollback(mark);
      (exposed ? mandatory_ : quiet).push_back(l);
    }
    mandatory_.insert(mandatory_.end(), quiet.begin(), quiet.end());
  }

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

  // The board the quick try plays next: the first of mandatory_ still to play, or, when a branch
  // moved the present onto other boards of the mover, the first mandatory one.
  int NextMandatory(int present) const {
    for (int l : mandatory_) {
      if (IsMandatory(scratch_, l, present)) return l;
    }
    for (int l = scratch_.min_timeline(); l <= scratch_.max_timeline(); ++l) {
      if (IsMandatory(scratch_, l, present)) return l;
    }
    assert(false && "the present is the mover's, so some board of theirs is on it");
    return INT_MIN;
  }

  // Appends the moves of the mover's pieces on the tip of `timeline` to *out; of a threatened
  // board only those that may break the threat. Every other one leaves the capture its pass
  // exposes as it was (the squares of the capture hold the same pieces on the board the move
  // makes, the other boards of the capture were there before the action, and the attacker's
  // board is still a tip), so it fails whatever else the action holds. For `fate` (when given),
  // the pieces whose jumps were all left out so fail by leaving.
  void CollectBoardMoves(int timeline, std::vector<Move>* out, BoardFate* fate = nullptr) const {
    const Threat* threat = ThreatOf(timeline);
    ForEachTipMove(scratch_, timeline, limits_.promotions, [&](const Move& m, Piece) {
      if (threat == nullptr || MayBreak(*threat, m)) {
        out->push_back(m);
      } else if (fate != nullptr && m.IsJump()) {
        fate->LeaveFails(m.from);
      }
      return false;
    });
  }

  // Appends to *out the moves of the next piece of the mover's on the tip of `timeline` that has
  // some, looking from square *next on (rank by rank), and moves *next past it: its moves on the
  // board, or with `jumps` all of them; of a threatened board only those that may break the
  // threat (for `fate`, when given, a piece whose jumps were all left out fails by leaving, as
  // in CollectBoardMoves). Returns false when no piece was left. Piece by piece, so that a board
  // whose first move will do never has the rest of its moves generated.
  bool CollectNextPieceMoves(int timeline, bool jumps, int* next, std::vector<Move>* out,
                             BoardFate* fate = nullptr) const {
    const TargetBoard own{timeline, scratch_.TipHalf(timeline)};
    const Threat* threat = ThreatOf(timeline);
    const Board& board = scratch_.Tip(timeline);
    const MoveView view(scratch_);
    const size_t before = out->size();
    for (; *next < board.width() * board.height() && out->size() == before; ++*next) {
      const Square from{static_cast<int8_t>(*next % board.width()),
                        static_cast<int8_t>(*next / board.width())};
      const Piece piece = board.at(from);
      if (piece.empty() || piece.color() != mover_) continue;
      ForEachPieceMove(
          view, timeline, own.half_turn, from, piece, GenMode::kAll, limits_.promotions,
          [&](const Move& m, Piece) {
            // The target restricts the lines walked (not a pawn's), not where moves land.
            if (m.IsJump() && !jumps) return false;
            if (threat == nullptr || MayBreak(*threat, m)) {
              out->push_back(m);
            } else if (fate != nullptr && m.IsJump()) {
              fate->LeaveFails(m.from);
            }
            return false;
          },
          jumps ? nullptr : &own);
    }
    return out->size() > before;
  }

  // Appends to *out the moves of pieces on the mover's other tips still to play that arrive on
  // the tip of `timeline`, which is still to play (there they land without branching).
  void CollectArrivals(int timeline, std::vector<Move>* out) {
    for (const Move& m : ArrivalsOnto(timeline)) {
      if (scratch_.TipHalf(m.src_timeline) == m.src_half) out->push_back(m);
    }
  }

  // The moves of pieces on the mover's other tips before the action that arrive on the tip of
  // `timeline` before the action (of a threatened board only those that may break the threat),
  // made once per board: a move's path crosses only boards of the mover's colour, which the
  // action never adds to, so it stays a move while its two tips are unplayed.
  const std::vector<Move>& ArrivalsOnto(int timeline) {
    for (const auto& [target, moves] : arrivals_) {
      if (target == timeline) return moves;
    }
    std::vector<Move>& out = arrivals_.emplace_back(timeline, std::vector<Move>()).second;
    const TargetBoard target{timeline, tips_[timeline - min_timeline_]};
    const Threat* threat = ThreatOf(timeline);
    const MoveView view(scratch_);
    for (int s = min_timeline_; s < min_timeline_ + static_cast<int>(tips_.size()); ++s) {
      const int half = tips_[s - min_timeline_];
      if (s == timeline || half == INT_MIN || ColorOf(half) != mover_) continue;
      const int dt = (target.half_turn - half) / 2, dl = timeline - s;
      if (!MayLandOnBoard(dt, dl)) continue;
      const Board& board = *scratch_.BoardAt(s, half);
      // Which of the board's piece types may land on the target at all (most cannot, timelines
      // away), asked once per type.
      std::array<int8_t, kPieceTypeCount> lands;
      lands.fill(-1);
      auto may_land = [&](PieceType type) {
        int8_t& known = lands[static_cast<int>(type)];
        if (known < 0) {
          known = PieceTypeMayLandOnBoard(type, dt, dl, board.width(), board.height()) ? 1 : 0;
        }
        return known == 1;
      };
      auto arrivals_of = [&](Square from, Piece piece) {
        ForEachPieceMove(
            view, s, half, from, piece, GenMode::kAll, limits_.promotions,
            [&](const Move& m, Piece) {
              // The target restricts the lines walked, not where their moves land. Onto a
              // threatened board, only an arrival that may break the threat can survive.
              if (m.dst_timeline == target.timeline && m.dst_half == target.half_turn &&
                  (threat == nullptr || MayBreak(*threat, m))) {
                out.push_back(m);
              }
              return false;
            },
            &target);
      };
      if (board.fits_bitboards()) {
        // The squares in the order of the scan below (rank by rank, file by file).
        uint64_t pieces = 0;
        for (int t = 1; t < kPieceTypeCount; ++t) {
          const PieceType type = static_cast<PieceType>(t);
          if (board.type_bits(type) != 0 && may_land(type)) pieces |= board.type_bits(type);
        }
        for (pieces &= board.colour_bits(mover_); pieces != 0; pieces &= pieces - 1) {
          const int bit = std::countr_zero(pieces);
          const Square from{static_cast<int8_t>(bit % Board::kBitboardSide),
                            static_cast<int8_t>(bit / Board::kBitboardSide)};
          arrivals_of(from, board.at(from));
        }
        continue;
      }
      for (int rank = 0; rank < board.height(); ++rank) {
        for (int file = 0; file < board.width(); ++file) {
          const Piece piece = board.at(file, rank);
          if (piece.empty() || piece.color() != mover_ || !may_land(piece.type())) continue;
          arrivals_of(Square{static_cast<int8_t>(file), static_cast<int8_t>(rank)}, piece);
        }
      }
    }
    return out;
  }

  // Plays `move` on scratch_ (after path_) and tells whether it exposes a royal piece of the
  // mover; *capture names the capture, *by_own_promotion says whether it counts only because
  // the move promotes; *effect (when given) what the move did. The caller rolls back.
  bool PlayAndTest(const Move& move, Move* capture, bool* by_own_promotion,
                   MoveEffect* effect_out = nullptr) {
    ++work_;
    const MoveEffect effect = ApplyMove(&scratch_, move);
    if (effect_out != nullptr) *effect_out = effect;
    bool promoted_before = promoting_;
    for (const Move& m : path_)
      promoted_before = promoted_before || m.promotion != PieceType::kNone;
    const bool counts = promoted_before || move.promotion != PieceType::kNone;
    const int arrival = effect.branching ? effect.new_timeline : move.dst_timeline;
    fresh_[0] = {move.src_timeline, scratch_.TipHalf(move.src_timeline)};
    fresh_[1] = {arrival, scratch_.TipHalf(arrival)};
    bool exposed;
    if (counts == promoted_before) {
      // The position before the move had no capturable royal (tested one level up, or before
      // the action): only captures involving the move's boards can be new.
      exposed = Exposed(counts, move.IsJump() ? 2 : 1, capture);
      *by_own_promotion = false;
    } else {
      // A promotion that makes promoting captures count may expose a royal to a capture that
      // involves earlier boards: the whole test.
      exposed = RoyalCapturable(scratch_, Opponent(mover_), counts, capture);
      *by_own_promotion =
          exposed && !RoyalCapturable(scratch_, Opponent(mover_), promoted_before, nullptr);
    }
    return exposed;
  }

  // The quick try (QuickFrom), attempted again with the board it got stuck on (every choice
  // of it failed, the deepest such) played earlier, before the boards it followed: the boards
  // that leave it no way out are then the ones that must find one around it. True with the
  // action in path_.
  bool QuickTry() {
    const uint64_t boards = mandatory_.size();
    const uint64_t budget = std::max(kQuickTryBudget, kQuickTryPerBoard * boards);
    const uint64_t first = std::max(kFirstAttemptBudget, kFirstAttemptPerBoard * boards);
    const uint64_t limit = limits_.budget == 0 ? budget : std::min(limits_.budget, budget);
    size_t promoted = 0;  // boards moved to the front so far
    for (int attempt = 0;; ++attempt) {
      // The first attempt may backtrack more; the others are shorter.
      quick_limit_ = std::min(limit, work_ + (attempt == 0 ? first : first / 2));
      quick_stopped_ = false;
      stuck_board_ = INT_MIN;
      stuck_depth_ = 0;
      first_attempt_ = attempt == 0;
      if (QuickFrom(0)) return true;
      if (work_ >= limit || attempt + 1 >= kQuickAttempts || stuck_board_ == INT_MIN) return false;
      auto stuck = std::find(mandatory_.begin(), mandatory_.end(), stuck_board_);
      if (stuck == mandatory_.end() || stuck - mandatory_.begin() <= static_cast<long>(promoted)) {
        return false;  // not one of the boards ordered (the present moved), or already early
      }
      std::rotate(mandatory_.begin() + promoted, stuck, stuck + 1);
      ++promoted;
    }
  }

  // The quick try: plays the next mandatory board by each of its moves, then by each piece that
  // can arrive on it from another playable board, and goes on from every one that exposes
  // nothing; on the first board, when a new timeline could be active, then also tries the
  // escapes of the other boards. True with the action in path_ once the present has passed to
  // the opponent. Records what the first board's choices (first_fate_) and the escapes did.
  bool QuickFrom(size_t depth) {
    const int present = scratch_.Present();
    if (ColorOf(present) != mover_) return !path_.empty();
    const int board = NextMandatory(present);
    const bool first = depth == 0 && first_attempt_;  // the first board's fate is recorded
    if (first) first_fate_.emplace(board);
    if (levels_.size() <= depth) levels_.resize(depth + 1);
    levels_[depth].clear();
    // The first board offers every move, which its fate needs. Past it, the moves on the board
    // come first, then its jumps onto the other tips still to play, and no branches: a new
    // timeline could move the present back or activate others and leave more to answer (the
    // search finds the actions that need one); generating the moves kind by kind also spares
    // the jumps of most boards.
    enum class Phase { kOwn, kJumps, kArrivals, kEscapes, kDone } phase = Phase::kOwn;
    int next_piece = 0;  // where CollectNextPieceMoves goes on
    // The choices of the board are levels_[depth][0, own_end); escapes follow them.
    size_t own_end = SIZE_MAX;
    bool escapes_onto_tip = false, escape_survived = false, any_survived = false;
    // levels_ may grow below; index it afresh each time.
    for (size_t i = 0;; ++i) {
      while (i == levels_[depth].size() && phase != Phase::kDone) {
        if (phase == Phase::kOwn) {
          if (CollectNextPieceMoves(board, depth == 0, &next_piece, &levels_[depth],
                                    first ? &*first_fate_ : nullptr)) {
            continue;
          }
          phase = Phase::kJumps;
          if (depth == 0) continue;  // the first board's jumps were among its moves
          // One pass over the board's moves keeps the jumps onto other tips still to play.
          jumps_.clear();
          CollectBoardMoves(board, &jumps_);
          for (const Move& m : jumps_) {
            if (!m.IsJump() || m.dst_half != scratch_.TipHalf(m.dst_timeline)) continue;
            const Threat* onto = ThreatOf(m.dst_timeline);
            if (onto == nullptr || MayBreak(*onto, m)) levels_[depth].push_back(m);
          }
        } else if (phase == Phase::kJumps) {
          phase = Phase::kArrivals;
          CollectArrivals(board, &levels_[depth]);
        } else if (phase == Phase::kArrivals) {
          phase = Phase::kDone;
          own_end = i;
          if (depth == 0 && ActiveNewTimelines() > 0) {
            phase = Phase::kEscapes;
            CollectEscapes(board, &levels_[depth], &escapes_onto_tip);
          }
        } else {
          phase = Phase::kDone;
        }
      }
      if (i == levels_[depth].size()) break;
      if (work_ >= quick_limit_) {
        quick_stopped_ = true;
        return false;
      }
      const Move move = levels_[depth][i];
      const Position::Mark mark = scratch_.GetMark();
      Move capture;
      bool by_own_promotion = false;
      const bool exposed = PlayAndTest(move, &capture, &by_own_promotion);
      if (first && i < own_end) {
        first_fate_->Add(move, exposed,
                         exposed ? HowItFails(board, move, fresh_[1], capture, by_own_promotion)
                                 : Failure::kFails);
      }
      if (!exposed) {
        any_survived = true;
        escape_survived = escape_survived || i >= own_end;
        path_.push_back(move);
        if (QuickFrom(depth + 1)) return true;
        path_.pop_back();
      }
      scratch_.Rollback(mark);
      if (quick_stopped_) return false;
    }
    if (!any_survived && depth > 0 && depth >= stuck_depth_) {
      stuck_board_ = board;  // no choice of it survived what the boards before it did
      stuck_depth_ = depth;
    }
    if (first) {
      first_fate_settled_ = true;  // every choice of the first board was tried
      escapes_settled_ = own_end != SIZE_MAX && ActiveNewTimelines() > 0;
      escapes_fail_ = escapes_settled_ && !escapes_onto_tip && !escape_survived;
    }
    return false;
  }

  // How many of the timelines the mover may create would be active: the n-th timeline of a
  // player is active when the opponent created at least n - 1, so the first ones, if any.
  int ActiveNewTimelines() const {
    return std::max(0, pos_.CreatedBy(Opponent(mover_)) - pos_.CreatedBy(mover_) + 1);
  }

  // Whether timelines the mover creates could activate one of the opponent's whose tip is before
  // the present (a timeline is activated by the other side's new timelines only; the mover's
  // inactive ones stay so, and every active timeline's tip is at or after the present).
  bool MayActivateEarlier() const {
    const int present = pos_.Present();
    for (int l = pos_.min_timeline(); l <= pos_.max_timeline(); ++l) {
      if (!pos_.HasTimeline(l) || pos_.IsActive(l) || pos_.TipHalf(l) >= present) continue;
      const bool by_opponent =
          mover_ == Color::kWhite ? l < pos_.initial_min() : l > pos_.initial_max();
      if (by_opponent) return true;
    }
    return false;
  }

  // Appends to *out the jumps of the mover's playable boards but `except` that land before the
  // present: the escapes, which create a timeline there (the present moves back onto it when it
  // is active). A jump onto a tip before the present (an inactive timeline's) may branch or not
  // depending on the order of the moves: *onto_tip says one was met.
  void CollectEscapes(int except, std::vector<Move>* out, bool* onto_tip) const {
    const int present = pos_.Present();
    for (int s = scratch_.min_timeline(); s <= scratch_.max_timeline(); ++s) {
      if (s == except || !scratch_.HasTimeline(s) || ColorOf(scratch_.TipHalf(s)) != mover_) {
        continue;
      }
      ForEachTipMove(
          scratch_, s, limits_.promotions,
          [&](const Move& m, Piece) {
            if (!m.IsJump() || m.dst_half >= present) return false;
            if (m.dst_half == scratch_.TipHalf(m.dst_timeline)) *onto_tip = true;
            out->push_back(m);
            return false;
          },
          present);
    }
  }

  // Whether every escape but those of board `dead` (INT_MIN: every escape) fails in every
  // action, when `active` (one or more) of the timelines the mover may create would be active. An
  // action that leaves `dead` unplayed moves the present back onto one of those: it holds an escape
  // created among the first `active`. The escape's new board has the contents the jump gives it,
  // and so has the board it left; its place (the new timeline's number) is the first new timeline's
  // when only one can be active, and otherwise depends on the timelines created before it. So a
  // capture that the escape alone exposes is in every such action when one timeline at most can be
  // active, or when the capture lies on the new board alone or does not touch it. An escape that
  // exposes nothing is a legal action by itself (the present passed back to the opponent): then
  // *action receives it.
  bool EveryEscapeFails(int dead, int active, std::vector<Move>* action) {
    assert(active >= 1 && path_.empty());
    std::vector<Move> escapes;
    bool onto_tip = false;
    CollectEscapes(dead, &escapes, &onto_tip);
    if (onto_tip) return false;
    for (const Move& move : escapes) {
      if (OutOfBudget()) return false;
      const Position::Mark mark = scratch_.GetMark();
      Move capture;
      bool by_own_promotion = false;
      MoveEffect effect;
      const bool exposed = PlayAndTest(move, &capture, &by_own_promotion, &effect);
      assert(effect.branching);  // onto a board before the present that is not a tip
      const bool passed = ColorOf(scratch_.Present()) != mover_;
      bool fails = exposed;
      if (exposed && active > 1) {
        int on_new = 0, elsewhere = 0;
        ForEachCaptureCell(scratch_, capture, [&](int l, int, Square) {
          ++(l == effect.new_timeline ? on_new : elsewhere);
        });
        fails = on_new == 0 || elsewhere == 0;
      }
      scratch_.Rollback(mark);
      if (!exposed && passed) action->assign(1, move);
      if (!fails) return false;
    }
    return true;
  }

  // Tries every choice of mandatory board `board` alone, until one survives.
  BoardFate FateOf(int board) {
    BoardFate fate(board);
    std::vector<Move>& moves = levels_.empty() ? levels_.emplace_back() : levels_[0];
    moves.clear();
    CollectBoardMoves(board, &moves, &fate);
    bool arrivals = false;
    for (size_t i = 0; !fate.alive(); ++i) {
      if (i == moves.size()) {
        if (arrivals) break;
        arrivals = true;
        CollectArrivals(board, &moves);
        if (i == moves.size()) break;
      }
      if (OutOfBudget()) return BoardFate(board);  // nothing settled
      const Position::Mark mark = scratch_.GetMark();
      Move capture;
      bool by_own_promotion = false;
      const bool exposed = PlayAndTest(moves[i], &capture, &by_own_promotion);
      fate.Add(moves[i], exposed,
               exposed ? HowItFails(board, moves[i], fresh_[1], capture, by_own_promotion)
                       : Failure::kFails);
      scratch_.Rollback(mark);
    }
    return fate;
  }

  // How a move of `board` (or onto it) that exposed a royal piece alone fails (Failure), from
  // the capture it exposed; `arrival` is the board it made where it landed.
  Failure HowItFails(int board, const Move& move, const BoardPlace& arrival, const Move& capture,
                     bool by_own_promotion) const {
    if (move.src_timeline != board || !move.IsJump()) return Failure::kFails;
    const auto existed = ExistedBefore();
    bool leaving_fails = !by_own_promotion, on_arrival_alone = true;
    ForEachCaptureCell(scratch_, capture, [&](int l, int h, Square) {
      const bool left_board = l == board && h == tips_[board - min_timeline_] + 1;
      if (!left_board && !existed(l, h)) leaving_fails = false;
      if (l != arrival.timeline || h != arrival.half_turn) on_arrival_alone = false;
    });
    if (leaving_fails) return Failure::kLeaveFails;
    return on_arrival_alone ? Failure::kFails : Failure::kUnsettled;
  }

  // Moves a pair proof may try, domains and pairs together, before it gives up.
  static constexpr uint64_t kPairProofBudget = 1000;

  // The pair proof, when every mandatory board must be played (no new timeline of the mover
  // would be active before the present, and none of the opponent's could be activated there)
  // but none fails alone. A board whose pass exposes a royal piece has few choices that survive
  // alone (its moves and the arrivals onto it); one of them can be in an action only if every other
  // mandatory board has some choice that can go with it. When no choice of such a board has that
  // support, no action is legal. Two choices cannot go together when they leave the same board
  // (a board is moved from once), when one moves from the other's board, or when played together
  // they expose a royal piece through boards whose places and contents the two fix (the boards
  // they leave, the board an arrival lands on) and boards that were there before, or on one
  // board they make alone: then every action holding both fails (a choice that fails alone so
  // fails with any other). A pair of jumps onto the same third board (which of them branches
  // depends on the order) is kept.
  bool PairProof() {
    const uint64_t stop = work_ + kPairProofBudget;
    std::vector<Move> candidates, others;
    for (const Threat& threat : threats_) {
      const int board = threat.timeline;
      candidates.clear();
      CollectBoardMoves(board, &candidates);
      CollectArrivals(board, &candidates);
      bool supported = false;
      for (size_t i = 0; i < candidates.size() && !supported; ++i) {
        const Move& c1 = candidates[i];
        if (work_ >= stop || OutOfBudget()) return false;
        const Position::Mark mark = scratch_.GetMark();
        Move capture;
        bool by_own_promotion = false;
        const bool exposed = PlayAndTest(c1, &capture, &by_own_promotion);
        const Failure failure = exposed
                                    ? HowItFails(board, c1, fresh_[1], capture, by_own_promotion)
                                    : Failure::kUnsettled;
        scratch_.Rollback(mark);
        if (failure == Failure::kLeaveFails) {
          // Every jump of the piece fails: those still to come are left out unplayed.
          while (i + 1 < candidates.size() && candidates[i + 1].src_timeline == board &&
                 candidates[i + 1].IsJump() && candidates[i + 1].from == c1.from) {
            ++i;
          }
        }
        if (exposed && failure != Failure::kUnsettled) continue;
        // c1 survives alone: is every other mandatory board able to go with it?
        supported = true;
        for (int other : mandatory_) {
          if (other == board || !supported) continue;
          others.clear();
          CollectBoardMoves(other, &others);
          CollectArrivals(other, &others);
          supported = false;
          for (const Move& c2 : others) {
            if (work_ >= stop || OutOfBudget()) return false;
            if (MayGoTogether(board, c1, other, c2)) {
              supported = true;
              break;
            }
          }
        }
      }
      if (!supported) return true;  // no choice of this board can be in an action
    }
    return false;
  }

  // Whether `jump`, from one mandatory board onto another's tip, may play both in one action:
  // then it lands without branching, so the two boards it makes are in fixed places, and a
  // capture it alone exposes on them and boards that were there before fails every such action.
  bool PlaysBothBoards(const Move& jump) {
    const Position::Mark mark = scratch_.GetMark();
    Move capture;
    bool by_own_promotion = false;
    const bool exposed = PlayAndTest(jump, &capture, &by_own_promotion);
    bool fixed_only = exposed;
    if (exposed) {
      const auto existed = ExistedBefore();
      ForEachCaptureCell(scratch_, capture, [&](int l, int h, Square) {
        const bool made = (l == fresh_[0].timeline && h == fresh_[0].half_turn) ||
                          (l == fresh_[1].timeline && h == fresh_[1].half_turn);
        fixed_only = fixed_only && (made || existed(l, h));
      });
    }
    scratch_.Rollback(mark);
    return !fixed_only;
  }

  // Whether choice c1 of board b1 and choice c2 of board b2 may be in one action (PairProof).
  bool MayGoTogether(int b1, const Move& c1, int b2, const Move& c2) {
    if (c1 == c2) return PlaysBothBoards(c1);
    if (c1.src_timeline == b2 || c2.src_timeline == b1 || c1.src_timeline == c2.src_timeline) {
      return false;  // a board moved from twice, or played and then moved from
    }
    // A jump onto the other's board (the board it plays or leaves) comes after it in any action
    // holding both: the other was played first, or it could not be played. Two jumps onto the
    // same third board: which one branches depends on the order, so the pair is kept.
    const bool c1_first = c2.dst_timeline == b1 || c2.dst_timeline == c1.src_timeline;
    const bool c2_first = c1.dst_timeline == b2 || c1.dst_timeline == c2.src_timeline;
    if (c1_first && c2_first) return false;
    if (c1.IsJump() && c2.IsJump() && c1.dst_timeline == c2.dst_timeline && !c1_first &&
        !c2_first) {
      return true;
    }
    const Position::Mark mark = scratch_.GetMark();
    work_ += 2;
    MoveEffect e1, e2;
    if (c2_first) {
      e2 = ApplyMove(&scratch_, c2);
      e1 = ApplyMove(&scratch_, c1);
    } else {
      e1 = ApplyMove(&scratch_, c1);
      e2 = ApplyMove(&scratch_, c2);
    }
    auto landed = [&](const Move& m, const MoveEffect& e) {
      const int l = e.branching ? e.new_timeline : m.dst_timeline;
      return BoardPlace{l, scratch_.TipHalf(l)};
    };
    const BoardPlace made[4] = {{c1.src_timeline, scratch_.TipHalf(c1.src_timeline)},
                                landed(c1, e1),
                                {c2.src_timeline, scratch_.TipHalf(c2.src_timeline)},
                                landed(c2, e2)};
    const bool counts =
        promoting_ || c1.promotion != PieceType::kNone || c2.promotion != PieceType::kNone;
    Move capture;
    const bool exposed =
        touching_ ? RoyalCapturableTouching(scratch_, Opponent(mover_), counts, made, &capture)
                  : RoyalCapturable(scratch_, Opponent(mover_), counts, &capture);
    bool together = true;
    if (exposed) {
      // The boards whose places and contents do not depend on the rest of the action: those the
      // two leave, and where an arrival onto b1 or b2 lands (that board is played by it).
      auto onto = [&](const Move& m, int board) {
        return m.dst_timeline == board && m.dst_half == tips_[board - min_timeline_];
      };
      const BoardPlace fixed[4] = {made[0], made[2], onto(c1, b1) ? made[1] : made[0],
                                   onto(c2, b2) ? made[3] : made[2]};
      // A capture on one board alone holds wherever that board is.
      const auto existed = ExistedBefore();
      bool on_fixed = true, on_one_board = true;
      const BoardPlace first{capture.src_timeline, capture.src_half};
      ForEachCaptureCell(scratch_, capture, [&](int l, int h, Square) {
        on_one_board = on_one_board && l == first.timeline && h == first.half_turn;
        if (existed(l, h)) return;
        bool is_fixed = false;
        for (const BoardPlace& f : fixed) {
          is_fixed = is_fixed || (f.timeline == l && f.half_turn == h);
        }
        on_fixed = on_fixed && is_fixed;
      });
      together = !on_fixed && !on_one_board;
    }
    scratch_.Rollback(mark);
    return together;
  }

  // The local proof (decide.h): true when no legal action exists. May find a legal action
  // instead (an escape that exposes nothing): then *action receives it.
  bool LocalProof(std::vector<Move>* action) {
    const int active_new = ActiveNewTimelines();
    if (MayActivateEarlier()) return false;
    assert(path_.empty());
    int dead = INT_MIN;
    const bool first_tried = first_fate_.has_value();
    if (first_tried && first_fate_settled_ && first_fate_->AllFail()) {
      dead = first_fate_->timeline();
    }
    for (size_t i = 0; i < mandatory_.size() && dead == INT_MIN; ++i) {
      const int l = mandatory_[i];
      // The quick try's first board was tried already: every choice, or until one survived.
      if (first_tried && l == first_fate_->timeline() &&
          (first_fate_settled_ || first_fate_->alive())) {
        continue;
      }
      const BoardFate fate = FateOf(l);
      if (OutOfBudget()) return false;
      if (fate.AllFail()) dead = l;
    }
    if (dead == INT_MIN) {
      // Every mandatory board must be played when no timeline could move the present back, or
      // when every escape fails; then the pair proof may show they cannot all be.
      if (threats_.empty()) return false;  // the pair proof starts from threatened boards
      if (active_new > 0 && !EveryEscapeFails(INT_MIN, active_new, action)) return false;
      return PairProof();
    }
    // The board must be played unless an escape moves the present back.
    if (active_new == 0) return true;
    if (first_tried && dead == first_fate_->timeline() && escapes_settled_ && active_new == 1) {
      return escapes_fail_;
    }
    return EveryEscapeFails(dead, active_new, action);
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

}  // namespace

Decision Decide(Position* pos, const SearchLimits& limits) {
  Decider decider(pos, limits);
  return decider.Run();
}

Decision Decide(const Position& pos, const SearchLimits& limits) {
  Position scratch = pos;
  return Decide(&scratch, limits);
}

const char* VerdictName(Decision::Verdict verdict) {
  switch (verdict) {
    case Decision::Verdict::kCheckmate:
      return "checkmate";
    case Decision::Verdict::kStalemate:
      return "stalemate";
    case Decision::Verdict::kPlayable:
      return "playable";
    case Decision::Verdict::kUnknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace fived
