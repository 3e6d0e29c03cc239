// Replaying a game: from the syntax of a 5dpgn game (pgn_syntax.h) to the states it reaches,
// deciding what each written move means (which piece, from which board) and whether each action
// is legal. Errors are Status values (kInvalidArgument) made by TextErrorAt (core/pgn_syntax.h):
// their place() holds the line, column and token of the offending text, the reason in plain
// English and the action.
#ifndef FIVED_CORE_REPLAY_H_
#define FIVED_CORE_REPLAY_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/action.h"
#include "core/movegen.h"
#include "core/pgn_syntax.h"
#include "core/position.h"
#include "core/rules.h"
#include "core/status.h"

namespace fived {

// Builds the setup from [Board], [Size], [Promotions] and 5DFEN board lines. An unknown Board
// name is an error, never a silent Standard. A custom game needs its 5DFEN boards; its size comes
// from [Size] or, without it, from the boards. Fails with TextErrorAt's status at the header or
// board at fault (action 0; line 0 when the game has no such line).
Result<GameSetup> SetupGame(const SyntaxGame& game);

// A move as played: what was resolved and what it did.
struct PlayedMove {
  Move move;
  MoveEffect effect;
};
struct PlayedAction {
  Color mover = Color::kWhite;
  std::vector<PlayedMove> moves;
};

// Decides which move of the position a written move means for `mover`, the side to move (tips
// already played in this action are no longer the mover's, so they are not sources). Returns the
// move, or kInvalidArgument whose message is the reason alone (no place: Replayer::Play adds it).
Result<Move> ResolveMove(const Position& pos, Color mover, const SyntaxMove& written,
                         const GameSetup& setup);

// Replays actions one by one.
class Replayer {
 public:
  explicit Replayer(GameSetup setup);

  // Plays one written action. Fails with TextErrorAt's status at the move at fault (its action
  // `action_number`); the position is then left as it was before the action, except that with
  // `keep_unfinished` an action whose only fault is that mandatory boards are left keeps its moves
  // on the board as unfinished() (the error is still returned).
  Status Play(const SyntaxAction& action, int action_number, bool keep_unfinished = false);
  // Called with the position before each move is played (for example to write the move's
  // canonical text, which needs that position). Moves of an action that then fails are reported
  // too.
  void SetMoveHook(std::function<void(const Position&, const Move&)> hook) {
    move_hook_ = std::move(hook);
  }
  // Moves of an unfinished last action kept by Play, or empty.
  const PlayedAction& unfinished() const { return unfinished_; }
  // The current position.
  const Position& position() const { return pos_; }
  // The same, for a search that plays moves on it and rolls every one of them back (Decide on a
  // Position*), sparing a copy; anything else would break what the replayer records.
  Position* mutable_position() { return &pos_; }
  // The rules and the starting position (setup().start never changes).
  const GameSetup& setup() const { return setup_; }
  const std::vector<PlayedAction>& actions() const { return actions_; }

 private:
  GameSetup setup_;
  Position pos_;
  // PromotingCapturesCount(pos_): once true it stays so (boards are never taken back), and it
  // can only become true by a promotion.
  bool promoting_captures_ = false;
  std::vector<PlayedAction> actions_;
  PlayedAction unfinished_;
  std::function<void(const Position&, const Move&)> move_hook_;
};

// Replays a whole game. Calls on_state(action_number, position) for the start (0) and after
// each action. Returns the replayer (final position, played actions) and the first error
// (SetupGame's or Replayer::Play's).
//
// One thing short of an error: when the text ends in the middle of an action (its moves are
// legal but boards the mover must play are left, as in a game saved before the last submit),
// its moves stay on the board (Replayer::unfinished()) but do not count as an action, and
// `warnings` says so. This is how the reference implementation reads such files.
struct ReplayOutcome {
  std::optional<Replayer> replayer;  // absent when the setup failed
  Status status;                     // ok() when every action replayed
  std::vector<Status> warnings;      // made by TextErrorAt, as errors are
};
ReplayOutcome ReplayGame(const SyntaxGame& game,
                         const std::function<void(int, const Position&)>& on_state = {},
                         const std::function<void(const Position&, const Move&)>& on_move = {});

}  // namespace fived

#endif  // FIVED_CORE_REPLAY_H_
