// Pictures of a position for `5d-query show`: the whole multiverse at one moment, as plain text
// for the terminal and as a standalone SVG document for a browser.
//
// Both pictures share one layout. Timelines are rows, the highest timeline at the top (white's
// newest timeline first, black's newest last, like a y axis), so that the rows read in the
// reverse of the 5DFEN order. Half-turns are columns, oldest on the left, and every board of a
// half-turn sits in that half-turn's column; where a timeline has no board at a half-turn the
// cell is blank. A half-turn at which no timeline has a board (only a custom start can leave such
// a gap) gets no column, so the picture's size follows the number of boards. Boards are drawn with
// their highest rank at the top and file a on the left.
//
// The functions only read the position, never fail and never throw on odd input (no boards,
// boards from 1x1 to 16x16, hundreds of boards, moves naming boards that do not exist); they may
// throw std::bad_alloc like any code that builds strings. Thread-compatible: concurrent calls on
// the same const Position are safe.
#ifndef FIVED_QUERY_PICTURE_H_
#define FIVED_QUERY_PICTURE_H_

#include <span>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "query/picture_scene.h"

namespace fived {

struct TextPictureOptions {
  // Draw at most this many half-turn columns, the latest ones; 0 draws all. When columns are
  // left out, the picture says which.
  int max_columns = 0;
  // Pieces as Unicode chess symbols (U+2654..U+265F) instead of letters. The 5D-only pieces have
  // no symbol and keep their letters. Off by default: not every terminal has the glyphs, and a
  // white symbol looks black on a dark background.
  bool unicode = false;
  // Boards to point out (the boards a pattern search matched, say): each rank of such a board is
  // drawn between '[' and ']', in the gaps beside it. A board the picture does not draw (absent,
  // or in a column max_columns left out) is passed over.
  std::vector<BoardAddress> marked = {};
};

// The position as lines of text, each ending in '\n' and none with trailing spaces. For
// "1. e3 / Nf6 2. Nf3 / Nc6 3. Bb5 / Nb4 4. (0T4)Nb1>>(0T3)b3" with max_columns = 3:
//
//   Present: T3 b (black to move). Timelines: 2 (all active). Boards: 9.
//   Not shown: 5 earlier half-turn columns, T1 w to T3 w.
//       T3 b<     T4 w      T4 b
//   +1  r.bqkb.r
//       pppppppp
//       ..n..n..
//       ........
//       ........
//       .N..PN..
//       PPPP.PPP
//       RNBQKB.R
//
//    0  r.bqkb.r  r.bqkb.r  r.bqkb.r
//       pppppppp  pppppppp  pppppppp
//       ..n..n..  .....n..  .....n..
//       .B......  .B......  .B......
//       ........  .n......  .n......
//       ....PN..  ....PN..  ....PN..
//       PPPP.PPP  PPPP.PPP  PPPP.PPP
//       RNBQK..R  RNBQK..R  R.BQK..R
//
// A summary line comes first (the present, whose move it is, how many timelines and how many of
// them inactive, how many boards), then, only when max_columns cut some, a line saying which
// columns were left out. Then a header of half-turn labels, "T<turn> w" or "T<turn> b" with the
// turn as the notation writes it (a turn-zero game starts at "T0 b"), the present's label
// followed by '<'. Each timeline follows as one row of board grids, the row's first line starting
// with the timeline's notation label ("0", "+1", "-0"...), right-aligned, and for an inactive
// timeline the word "inactive"; a blank line separates rows. A timeline with no board in the
// drawn columns keeps its (empty) row. A board grid has one character per square, highest rank
// first: a piece letter (uppercase white, lowercase black; see PieceLetter) or '.' for an empty
// square; a marked board (TextPictureOptions::marked) has '[' before and ']' after each rank:
//
//       [r.bqkb.r]
//       [pppppppp]
//       ...
//
// A position with no boards gives the single line "No boards.".
std::string TextPicture(const Position& pos, const TextPictureOptions& options = {});

struct SvgPictureOptions {
  // As TextPictureOptions::max_columns.
  int max_columns = 0;
  // Side of one square in pixels, at most 512; 0 picks one so that a board is about 192 pixels
  // on its longer side (24 for 8x8), but never under 8.
  int square_size = 0;
  // Text written above the picture (for example "White vs Black, after action 12"); may be
  // empty. Any text is accepted; it is escaped.
  std::string title;
  // Boards to point out, each outlined (TextPictureOptions::marked says which are passed over).
  std::vector<BoardAddress> marked = {};
  // File letters along each board's lowest rank and rank numbers along its first file, small, in
  // the corners of the squares (class "coordinate"), as the explorer's "a-h" button draws them.
  bool coordinates = false;
};

// The position as a standalone SVG 1.1 document (UTF-8, with an XML declaration, the SVG
// namespace, width, height and viewBox), in the layout described at the top of this file:
// light and dark squares, the classical pieces as Unicode chess symbols (white U+2654..U+2659,
// black U+265A..U+265F, each followed by U+FE0E so that no browser draws an emoji), the 5D-only
// pieces (brawn, common king, royal queen, princess, unicorn, dragon) as their letter in a white
// or black disc with a <title> naming the piece, timeline labels on the left ("inactive" under an
// inactive timeline's label, whose boards are dimmed), half-turn labels on top, the present's
// column highlighted (and its label bold, with "present" under it), and a note naming the columns
// that max_columns left out. A position with no boards gives a document saying "No boards.".
// Each marked board (SvgPictureOptions::marked) is outlined by a <rect class="mark"> a few pixels
// outside its edges, drawn over the boards (an inactive timeline's too, at full strength) and
// under the arrows.
//
// Each board is a <g class="board"> with data-l, data-t and data-c: its timeline, turn and
// colour as 5DFEN writes them ("+1", "5", "w"). Under the boards, each timeline a player created
// has a <path class="branch"> from the board it left to its first board (picture_scene.h says
// how that board is found). Over them, each check of the side to move (Checks in core/legal.h)
// is a red <path class="check">, from the attacking piece to the royal piece.
//
// Each move of `last_action` is drawn as one arrow (a <path> with class "arrow" and an arrowhead
// marker, straight on one board and curving between boards) from the centre of its source
// square on the source board (src_timeline, src_half) to the centre of its target square on the
// target board (dst_timeline, dst_half). Pass the position
// after the action and the moves as played (PlayedAction): both boards existed before the move,
// so they are in that position too. The board a move creates (on the same timeline or, for a
// branching jump, on a new one) shows the result and gets no arrow. A move whose source or target
// board is not drawn (absent, or in a column that max_columns left out) or whose squares are off
// the board gets no arrow.
std::string SvgPicture(const Position& pos, std::span<const Move> last_action = {},
                       const SvgPictureOptions& options = {});

}  // namespace fived

#endif  // FIVED_QUERY_PICTURE_H_
