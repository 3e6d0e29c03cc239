// The syntax layer of the 5dpgn reader: turning one game's text (as core/game_splitter.h cuts it
// from a stream) into headers, 5DFEN board lines and a list of actions of syntactic moves, each
// with its position in the file. Nothing here knows the rules: which piece a SAN move means, which
// board an omitted coordinate names, whether a move is legal, is decided later by the replay
// (core/replay.h), which reports those errors with the positions recorded here.
//
// Accepted input is everything ../shared/NOTATION.md lists; see pgn_syntax_test.cc for examples.
#ifndef FIVED_CORE_PGN_SYNTAX_H_
#define FIVED_CORE_PGN_SYNTAX_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Readers of a stream use both layers; the splitter is included here for them.
#include "core/game_splitter.h"
#include "core/status.h"

namespace fived {

// A place in an input file. Lines and columns count from 1; columns count bytes.
struct TextPos {
  int line = 0;
  int column = 0;
};

// A failure at `pos` of a 5dpgn text (a syntax error, a move that does not replay):
// kInvalidArgument with the place (line, column, the offending token as written, which may be
// empty, the reason and the 1-based action, 0 for none) and the message "line 40, col 17:
// (0T5)Nxe5: no knight on board (0T5) can reach e5" ("token: " left out when the token is empty).
Status TextErrorAt(TextPos pos, std::string token, std::string reason, int action = 0);
// The place of a status TextErrorAt made, as a TextPos.
inline TextPos TextPosOf(const Place& place) {
  return TextPos{static_cast<int>(place.line), static_cast<int>(place.column)};
}

// A board reference as written: "(0T1)", "(-1T6)", "(+0T3)", "(-0T3)", "(L-1 T6)", "(L0T1)".
struct BoardRef {
  bool negative = false;       // a '-' sign was written (needed to tell "-0" from "+0")
  bool explicit_sign = false;  // a '+' or '-' sign was written
  int timeline = 0;            // magnitude of the timeline number
  int turn = 0;
};

// One move as written, before the rules resolve it. Every optional part is absent when the text
// omitted it. Examples:
//   "e4"                 to=e4
//   "Nbd7"               piece=N from_file=b to=d7
//   "(0T5)Rxe4+"         source=(0T5) piece=R capture to=e4 check
//   "e2e4", "Pe2e4"      from_file=e from_rank=2 to=e4 (piece P when written)
//   "e8=Q", "e8Q"        to=e8 promotion=Q
//   "O-O", "0-0-0"       castle=kKingside / kQueenside
//   "(-1T4)Nc3>>x(0T2)c3+~"  source, piece N, from c3, jump=kBranching, capture, target=(0T2),
//                            to c3, check, present_moved
//   "(0T1)Pe2(0T1)e3"    export style: source, piece P, from e2, jump=kUnmarked, target, to e3
//   "(0T6)Ke1(0T6)g1"    export style castle written as the king's move (the rules decide)
struct SyntaxMove {
  enum class Jump : uint8_t { kNone, kUnmarked, kNonBranching, kBranching };
  enum class Castle : uint8_t { kNone, kKingside, kQueenside };

  TextPos pos;       // position of the move's first character
  std::string text;  // the move token as written (without trailing glyphs and comments)
  std::optional<BoardRef> source;
  char piece = 0;      // uppercase letter as written ('P','W','K','C','Q','Y','S','N','R','B','U',
                       // 'D'; "RQ" is returned as 'Y' and "PR" as 'S'); 0 when omitted
  int from_file = -1;  // 0 = 'a'; -1 when omitted
  int from_rank = -1;  // 0 = '1'; -1 when omitted
  Jump jump = Jump::kNone;
  std::optional<BoardRef> target;  // only for jumps
  int to_file = -1;                // -1 only for castles written O-O / O-O-O and null moves
  int to_rank = -1;
  char promotion = 0;  // uppercase letter, 0 when none
  Castle castle = Castle::kNone;
  bool capture = false;                       // an 'x' was written (a hint only)
  bool check = false;                         // '+' (hint)
  bool mate = false;                          // '#' (hint)
  bool softmate = false;                      // '*' after a move (hint)
  bool present_moved = false;                 // '~' (hint)
  std::optional<int> present_turn_hint;       // "(~T4)"
  std::optional<BoardRef> new_timeline_hint;  // "(>L2)", "(>L-4)", "(+L1)": timeline in .timeline
                                              // and sign fields, turn = 0
  std::string glyphs;                         // "!", "?", "!?", ... as written
  bool null_move = false;                     // "0000" (some GUIs' pass); the rules reject it
};

// The moves of one player's sub-turn.
struct SyntaxAction {
  int turn_number = 0;  // the number written before it ("12." -> 12); 0 if none was written
  bool black = false;   // whether the notation puts it in black's half ("/" or "12b." or
                        // "b." export lines); the replay checks it against the position
  TextPos pos;          // position of its first move (or of its marker when empty)
  std::vector<SyntaxMove> moves;
  std::vector<std::string> comments;  // comments inside the action, in order, without braces
};

struct Header {
  std::string name;   // as written (case preserved)
  std::string value;  // unescaped (\" -> ", \\ -> \)
  TextPos pos;
};

// A 5DFEN board line among the headers: "[r*nbqk*bnr*/...:0:1:w]" (text without brackets).
struct FenLine {
  std::string text;
  TextPos pos;
};

struct SyntaxGame {
  std::vector<Header> headers;
  std::vector<FenLine> boards;
  std::vector<SyntaxAction> actions;  // empty sub-turns are not listed
  std::string result;                 // "1-0", "0-1", "1/2-1/2", "*" or empty when not written
  // Comments outside actions: before the first move, after the last move of the game (also when
  // a result follows), after the result, and those of sub-turns that hold no move.
  std::vector<std::string> comments;
  // Side lines "(...)" as written, without the outer parentheses (ftxi's engine writes them, e.g.
  // "(2b. d5 {better})"). They are kept for display and never replayed.
  std::vector<std::string> variations;

  // First header of that name, compared case-insensitively; nullptr when absent.
  const Header* FindHeader(std::string_view name) const;
};

// Parses one game. `first_line` is the file line of text[0], so that positions are file
// positions; columns count bytes from the start of the line within `text` (a BOM the splitter
// removed is not counted). On error `status` is the first syntax error (TextErrorAt's, action 0)
// and the game is rejected; `game` then holds what was read before the error (the headers,
// typically), for reporting only.
// Moves without a turn marker open a new sub-turn when they start a line (after a sub-turn that
// already has moves), alternating colours; otherwise they join the current sub-turn.
struct SyntaxResult {
  SyntaxGame game;
  Status status;  // ok() when the game reads
};
SyntaxResult ParseGameSyntax(std::string_view text, int first_line = 1);

}  // namespace fived

#endif  // FIVED_CORE_PGN_SYNTAX_H_
