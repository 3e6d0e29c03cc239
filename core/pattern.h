// Board patterns: "a board like this one", written as a 5DFEN board whose squares may be classes
// and wildcards instead of pieces (docs/patterns.md). They are what `5d-query --pattern` looks
// for among the boards of every game.
//
//   r*n*bqk*b1r*/p*p*p*p*1p*p*p*/5n2/4p*3/2B1P*3/5Q2/P*P*P*P*1P*P*P*/R*NB1K*NR*   a whole board
//   ????????/????????/????????/????????/???Q????/????????/????????/???????k     Q on d4, k on h1
//   8/8/8/8/8/8/8/4K*3:*:*:b                                                    an unmoved K on e1,
//                                                                               on black's boards
//
// One token per square, ranks from the top separated by '/':
//   P B N R Q K S W C Y U D (black lower case)  that piece, moved or not
//   the letter followed by '*'                   that piece unmoved (P, W, K and R only: the only
//                                                pieces whose moving the board records)
//   a number                                     that many empty squares
//   ?                                            any square, empty or not
//   !                                            any piece
//   A / a                                        any white / any black piece
//   [..] / [^..]                                 one of / none of the listed letters ('.' empty,
//                                                a letter may carry '*'; also '!', 'A', 'a')
// The enclosing '[' ']' are optional, and an optional ":L:T:c" suffix pins the timeline (as the
// notation writes it: "0", "+1", "-1", "-0", "+0"), turn and colour; each field may be '*', or
// relative to the board the previous pattern matched: '=' (the same), "=+N" or "=-N" (timeline
// and turn; core/game_query.h).
//
// A pattern matches boards of its own size only. Parsing fails (kInvalidArgument) with the column
// of the offending character in the Status's place(); matching a board is a few instructions per
// square the pattern constrains, and never fails.
#ifndef FIVED_CORE_PATTERN_H_
#define FIVED_CORE_PATTERN_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.h"
#include "core/status.h"
#include "core/types.h"

namespace fived {

// A set of piece bytes (Piece::bits(), 0 to 63; 0 is the empty square) as 64 bits: bit b is set
// when the byte b is accepted.
using PieceSet = uint64_t;

// Every byte a stored board can hold: the empty square, each piece of each colour, and the
// unmoved form of the pieces that track it (TracksUnmoved).
PieceSet AllSquares();
// The set of one piece type and colour, moved or unmoved.
PieceSet PieceSetOf(PieceType type, Color color);

struct BoardPattern {
  int width = 0;
  int height = 0;
  // Accepted bytes of each square, indexed rank * width + file (rank 0 = the bottom rank, as the
  // board's own ranks; the text lists ranks from the top).
  std::vector<PieceSet> squares;
  // The squares whose set is not AllSquares(), in index order: the only ones matching reads.
  std::vector<uint16_t> constrained;
  // Pins (nullopt: any). The timeline as written: whether it had a '-' sign and its magnitude, so
  // that a game's numbering (odd or even start) can place it (TimelineLabeling::FromNotation).
  struct TimelinePin {
    bool negative = false;
    int magnitude = 0;
  };
  std::optional<TimelinePin> timeline;
  std::optional<int> turn;
  std::optional<Color> color;
  // Pins relative to the board the previous pattern matched (core/game_query.h): "=" the same,
  // "=+N" / "=-N" that many timelines (engine indexes: neighbours are one apart, -0 and +0 too)
  // or turns away; colour "=" the same colour.
  std::optional<int> timeline_offset;
  std::optional<int> turn_offset;
  bool same_color = false;
  bool relative() const { return timeline_offset || turn_offset || same_color; }

  // Whether the pattern accepts `piece` on the square at index rank * width + file.
  bool Accepts(int index, uint8_t piece) const { return (squares[index] >> (piece & 63)) & 1; }
  // Whether a board of the same size matches (every constrained square accepts its piece). A board
  // of another size never matches. Pins are not looked at (they are about where the board is).
  bool Matches(const Board& board) const;
  // The same on a board given as its piece bytes, indexed rank * width + file.
  bool MatchesSquares(const uint8_t* pieces) const {
    for (uint16_t i : constrained) {
      if (!Accepts(i, pieces[i])) return false;
    }
    return true;
  }
  // Whether the absolute pins accept a board at internal timeline `timeline` and half-turn
  // `half_turn` of a game numbered as `labeling` says (relative pins are the caller's).
  bool PinsAccept(const TimelineLabeling& labeling, int timeline, int half_turn) const;
  // The pattern written back canonically: one token per square, runs of empty squares as numbers,
  // runs of '?' kept, the pins when given ("...:+1:*:w").
  std::string ToString() const;
};

// Where a pattern first matched in a game: the board (its index in the order the game added its
// boards), its coordinates (internal timeline index, half-turn) and the action that added it, the
// first after which the pattern held (boards never disappear). board is -1 when none matched.
struct PatternHit {
  int board = -1;
  int timeline = 0;
  int half_turn = 0;
  int action = 0;
};

// One square token at the start of `text` (a letter with its '*', '?', '!', 'A', 'a', a bracket
// set), its length in *consumed. Fails with kInvalidArgument, the place's column counted from
// `offset` + 1 and its reason, and the message "col N: reason" alone (the caller, who holds the
// whole text, points at it: TextErrorAt).
Result<PieceSet> ParseSquareToken(std::string_view text, size_t offset, size_t* consumed);

// The pattern of exactly this board: each square its piece (moved or unmoved as on the board) or
// empty; no pins.
BoardPattern ExactPattern(const Board& board);

// Parses a pattern (see the top of this file). Errors point at the character: an unknown letter,
// '*' after a piece that does not track moving, an unclosed or empty '[', a rank of the wrong
// width, more than 16 ranks or files, a bad pin: kInvalidArgument with the place's column (1-based
// in `text`) and reason, and as message TextErrorAt's ("col 7: unknown piece letter or token 'X'",
// the text, a caret under the column).
Result<BoardPattern> ParseBoardPattern(std::string_view text);

}  // namespace fived

#endif  // FIVED_CORE_PATTERN_H_
