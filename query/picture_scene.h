// What a picture of the multiverse shows and where, in pixels: the one layout that the SVG of
// picture.h draws and that the explorer's pages draw from JSON (PictureJson), so that both put
// every board, label, branch line and arrow at the same place.
//
// Timelines are rows (the highest on top) and half-turns are columns (the oldest on the left),
// as picture.h describes. On top of the boards a scene holds:
//   - a branch line for every timeline a player created, from the board that timeline left (the
//     board its first board was copied from, one half-turn earlier on another timeline) to its
//     first board, as the community's renderers draw them;
//   - an arrow for every move of the last action, straight on one board and curving between
//     boards (a jump), from the centre of the source square to the centre of the target square;
//   - a red arrow for every check of the side to move (Checks in core/legal.h): from the
//     attacking piece to the royal piece it could capture.
// Only reads the position; never fails on odd input (the contract of picture.h).
#ifndef FIVED_QUERY_PICTURE_SCENE_H_
#define FIVED_QUERY_PICTURE_SCENE_H_

#include <climits>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "query/json.h"

namespace fived {

// A board of a position, by its internal timeline index and half-turn (Position::BoardAt).
struct BoardAddress {
  int timeline = 0;
  int half_turn = 0;
  bool operator==(const BoardAddress&) const = default;
};

// Which boards a picture shows: rows and columns.
struct PictureLayout {
  std::vector<int> rows;     // timeline indices, highest first
  std::vector<int> columns;  // half-turns, ascending
  // Columns left out by max_columns: how many, and the first and last of them.
  int hidden_count = 0;
  int hidden_first = 0;
  int hidden_last = 0;
  int present = INT_MAX;  // Position::Present(); INT_MAX when no timeline is active
  int inactive_count = 0;

  // The index of a half-turn's column, or -1 when it is not drawn.
  int ColumnOf(int half_turn) const;
  // The index of a timeline's row, or -1.
  int RowOf(int timeline) const;
};

// Rows for every timeline, a column for every half-turn that holds a board (a custom start's
// gaps get none), the latest `max_columns` only when it is above 0.
PictureLayout MakePictureLayout(const Position& pos, int max_columns);

// The pixel geometry of a picture.
struct PictureGeometry {
  int square = 24;
  int board_width = 0;  // pixels, the largest board's
  int board_height = 0;
  int gap = 24;          // between boards, both ways
  int left = 96;         // timeline labels
  int title_height = 0;  // the title line, when there is one
  int header_height = 44;

  // 64 bits: a position may hold more boards than an int of pixels can span.
  int64_t top() const { return title_height + header_height; }
  int64_t BoardX(int column) const { return left + int64_t{column} * (board_width + gap); }
  int64_t BoardY(int row) const { return top() + int64_t{row} * (board_height + gap); }
};

// A line drawn over the boards, as SVG path data in the picture's pixels.
struct PictureCurve {
  std::string path;  // "M x y L x y" or "M x y Q cx cy x y" or "M x y C ..."
};

struct PictureScene {
  PictureLayout layout;
  PictureGeometry geometry;
  int64_t width = 0;  // the whole picture, pixels
  int64_t height = 0;
  std::vector<PictureCurve> branches;  // one per created timeline whose branch point is drawn
  std::vector<PictureCurve> moves;     // the last action's moves that can be drawn
  std::vector<PictureCurve> checks;    // the checks that can be drawn
};

// The scene of `pos` after `last_action` (see picture.h SvgPicture for what the moves are).
// `square_size` 0 picks the default (a board about 192 pixels on its longer side); `title`
// reserves a line on top when true.
PictureScene MakePictureScene(const Position& pos, std::span<const Move> last_action,
                              int max_columns, int square_size, bool title);

// The timeline a created timeline branched from: the timeline whose board one half-turn before
// `timeline`'s first board differs from that first board on the fewest squares (a jump changes
// exactly one: the square the piece arrived on), the nearest timeline on a tie; nullopt for a
// timeline of the start or when no timeline has a board there. Exposed for tests.
std::optional<int> BranchSource(const Position& pos, int timeline);

// A coordinate as SVG attributes write it: integers plainly, other values with one decimal.
std::string SvgNumber(double value);

// The scene as JSON for the explorer's pages, in the SVG's pixels:
//   {"square", "board_width", "board_height", "gap", "left", "top", "width", "height",
//    "rows": [{"l": "+1", "active": true, "y": 68}],          highest timeline first
//    "columns": [{"t": 3, "c": "w", "x": 96}],                oldest first
//    "present": column index or -1,
//    "boards": [[row, column, "rnbqkbnr/..."]],               ranks from the highest, one
//                                                              character a square ('.' empty,
//                                                              uppercase white), '/' between
//    "marks": [[row, column]], "branches": ["M..."], "moves": ["M..."], "checks": ["M..."]}
// Boards are listed row by row, oldest first in a row. `marked` as SvgPictureOptions::marked.
Json PictureJson(const Position& pos, std::span<const Move> last_action, int max_columns,
                 std::span<const BoardAddress> marked);

}  // namespace fived

#endif  // FIVED_QUERY_PICTURE_SCENE_H_
