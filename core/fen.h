// 5DFEN board strings, as the 5dpgn specification defines them:
//   [<rows top to bottom, '/' between>:<timeline>:<turn>:<w|b>]
// Rows hold piece letters (white uppercase, black lowercase), digits for runs of empty squares,
// and '*' after an unmoved pawn, brawn, king or rook. Timelines are written "-1", "-0", "0",
// "+0", "+1", ...; the canonical writer puts '+' on positive timelines and on +0.
#ifndef FIVED_CORE_FEN_H_
#define FIVED_CORE_FEN_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/board.h"
#include "core/status.h"

namespace fived {

struct FenBoard {
  Board board;
  bool timeline_negative = false;     // the timeline field had a '-' sign
  bool timeline_signed_zero = false;  // the timeline field was "-0" or "+0" (an even start)
  int timeline_magnitude = 0;
  int turn = 0;
  Color color = Color::kWhite;
};

// Parses one board string, with or without the surrounding brackets. `width` and `height` are
// the declared size ([Size "WxH"]); pass 0 to take them from the string itself (rows and the
// widest row). Returns the board, or fails (kInvalidArgument) with a message naming the problem
// ("row 3 has 7 squares, expected 8"). A '*' on a piece that does not track moving is accepted
// and dropped; an unknown letter is an error.
Result<FenBoard> ParseFenBoard(std::string_view text, int width = 0, int height = 0);

// The piece field alone (rows, no coordinates), canonical.
std::string FenPieces(const Board& board);
void AppendFenPieces(const Board& board, std::string* out);
// The text of the ranks of the boards up to 8x8 last written through it (PutFenBoard): a board
// is its predecessor on the timeline with a square or two changed, and the ranks that did not
// change are copied from here. Starts empty; any board may come next.
struct FenRowCache {
  int width = 0, height = 0;  // of the boards seen; another size starts it again
  uint64_t squares[8] = {~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0},
                         ~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}};  // none yet
  char text[8][16] = {};
  uint8_t length[8] = {};
};

// The same string written at `end`, which has room for MaxFenBoardChars(label size) bytes;
// returns the new end (it may have written up to 16 bytes beyond it). `cache` (optional) keeps
// the ranks written, for the next board of the same timeline.
char* PutFenBoard(const Board& board, std::string_view timeline_label, int turn, Color color,
                  char* end, FenRowCache* cache = nullptr);
// Appends the canonical board string "[pieces:label:turn:color]" to `out` (with `cache`, as
// PutFenBoard).
void AppendFenBoard(const Board& board, std::string_view timeline_label, int turn, Color color,
                    std::string* out, FenRowCache* cache = nullptr);
constexpr size_t MaxFenBoardChars(size_t label_size) {
  // Two characters a square, a separator a row, the brackets, colons, turn, colour, slack.
  return 2 * kMaxSquares + kMaxBoardSide + label_size + 40;
}

}  // namespace fived

#endif  // FIVED_CORE_FEN_H_
