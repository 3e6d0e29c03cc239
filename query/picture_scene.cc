// The layout and pixel geometry every picture of the multiverse shares (picture_scene.h).
#include "query/picture_scene.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <utility>

#include "core/legal.h"

namespace fived {

int PictureLayout::ColumnOf(int half_turn) const {
  const auto it = std::lower_bound(columns.begin(), columns.end(), half_turn);
  if (it == columns.end() || *it != half_turn) return -1;
  return static_cast<int>(it - columns.begin());
}

int PictureLayout::RowOf(int timeline) const {
  // Rows are one per timeline and descending.
  const auto it = std::lower_bound(rows.begin(), rows.end(), timeline, std::greater<int>());
  if (it == rows.end() || *it != timeline) return -1;
  return static_cast<int>(it - rows.begin());
}

PictureLayout MakePictureLayout(const Position& pos, int max_columns) {
  PictureLayout layout;
  std::vector<std::pair<int, int>> spans;  // [start, tip] of each timeline
  for (int l = pos.max_timeline(); l >= pos.min_timeline(); --l) {
    if (!pos.HasTimeline(l)) continue;
    layout.rows.push_back(l);
    spans.emplace_back(pos.StartHalf(l), pos.TipHalf(l));
    if (!pos.IsActive(l)) ++layout.inactive_count;
  }
  if (layout.rows.empty()) return layout;
  layout.present = pos.Present();

  // Only half-turns that hold a board get a column. In a played game that is every half-turn
  // from the first to the last, but a custom start may leave gaps, and walking the gaps could
  // make a picture of any size out of a few boards.
  std::sort(spans.begin(), spans.end());
  int64_t next = INT64_MIN;  // the first half-turn not yet given a column
  for (const auto& [start, tip] : spans) {
    for (int64_t h = std::max<int64_t>(start, next); h <= tip; ++h) {
      layout.columns.push_back(static_cast<int>(h));
    }
    next = std::max<int64_t>(next, int64_t{tip} + 1);
  }

  if (max_columns > 0 && layout.columns.size() > static_cast<size_t>(max_columns)) {
    const size_t cut = layout.columns.size() - static_cast<size_t>(max_columns);
    layout.hidden_count = static_cast<int>(cut);
    layout.hidden_first = layout.columns.front();
    layout.hidden_last = layout.columns[cut - 1];
    layout.columns.erase(layout.columns.begin(),
                         layout.columns.begin() + static_cast<std::ptrdiff_t>(cut));
  }
  return layout;
}

std::optional<int> BranchSource(const Position& pos, int timeline) {
  if (!pos.HasTimeline(timeline)) return std::nullopt;
  if (timeline >= pos.initial_min() && timeline <= pos.initial_max()) return std::nullopt;
  const int first_half = pos.StartHalf(timeline);
  const Board* first = pos.BoardAt(timeline, first_half);
  std::optional<int> best;
  int best_differences = INT_MAX;
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    if (l == timeline) continue;
    const Board* source = pos.BoardAt(l, first_half - 1);
    if (source == nullptr || source->width() != first->width() ||
        source->height() != first->height()) {
      continue;
    }
    int differences = 0;
    for (int rank = 0; rank < first->height() && differences <= best_differences; ++rank) {
      for (int file = 0; file < first->width(); ++file) {
        differences += source->at(file, rank) == first->at(file, rank) ? 0 : 1;
      }
    }
    if (differences < best_differences ||
        (differences == best_differences && std::abs(l - timeline) < std::abs(*best - timeline))) {
      best = l;
      best_differences = differences;
    }
  }
  return best;
}

std::string SvgNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f", value);
  std::string text = buffer;
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  if (text == "-0") text = "0";
  return text;
}

namespace {

std::string Point(double x, double y) { return SvgNumber(x) + " " + SvgNumber(y); }

// An arrow from (x1, y1) to (x2, y2): straight within a board, bowed between boards, so that a
// jump's arrow does not run along the row of boards it passes.
std::string ArrowPath(double x1, double y1, double x2, double y2, bool same_board) {
  if (same_board) return "M" + Point(x1, y1) + " L" + Point(x2, y2);
  const double dx = x2 - x1;
  const double dy = y2 - y1;
  // The control point sits off the middle, on the left of the direction of travel, by a fifth
  // of the length: two jumps between the same boards in opposite directions bow apart.
  const double cx = (x1 + x2) / 2 + dy * 0.2;
  const double cy = (y1 + y2) / 2 - dx * 0.2;
  return "M" + Point(x1, y1) + " Q" + Point(cx, cy) + " " + Point(x2, y2);
}

}  // namespace

PictureScene MakePictureScene(const Position& pos, std::span<const Move> last_action,
                              int max_columns, int square_size, bool title) {
  PictureScene scene;
  scene.layout = MakePictureLayout(pos, max_columns);
  const PictureLayout& layout = scene.layout;
  int width_squares = pos.width();
  int height_squares = pos.height();
  pos.ForEachBoard([&](int, int, const Board& board) {
    width_squares = std::max(width_squares, board.width());
    height_squares = std::max(height_squares, board.height());
  });
  PictureGeometry& geometry = scene.geometry;
  // Bounded so that the pixel sums below cannot overflow whatever the caller asks.
  geometry.square = square_size > 0
                        ? std::min(square_size, 512)
                        : std::max(8, 192 / std::max({width_squares, height_squares, 1}));
  geometry.board_width = geometry.square * width_squares;
  geometry.board_height = geometry.square * height_squares;
  geometry.gap = std::max(16, geometry.square);
  geometry.title_height = title ? 32 : 0;
  if (layout.hidden_count > 0) geometry.header_height += 20;
  const int columns = std::max(1, static_cast<int>(layout.columns.size()));
  const int rows = std::max(1, static_cast<int>(layout.rows.size()));
  scene.width =
      geometry.left + static_cast<int64_t>(columns) * (geometry.board_width + geometry.gap);
  scene.height =
      geometry.top() + static_cast<int64_t>(rows) * (geometry.board_height + geometry.gap);
  if (layout.rows.empty()) return scene;

  // Branch lines: from the right edge of the board left, halfway up, to the left edge of the
  // new timeline's first board.
  for (const int timeline : layout.rows) {
    const std::optional<int> source = BranchSource(pos, timeline);
    if (!source) continue;
    const int start = pos.StartHalf(timeline);
    const int from_column = layout.ColumnOf(start - 1);
    const int to_column = layout.ColumnOf(start);
    const int from_row = layout.RowOf(*source);
    const int to_row = layout.RowOf(timeline);
    if (from_column < 0 || to_column < 0 || from_row < 0 || to_row < 0) continue;
    const double x1 = static_cast<double>(geometry.BoardX(from_column) + geometry.board_width);
    const double y1 = static_cast<double>(geometry.BoardY(from_row)) + geometry.board_height / 2.0;
    const double x2 = static_cast<double>(geometry.BoardX(to_column));
    const double y2 = static_cast<double>(geometry.BoardY(to_row)) + geometry.board_height / 2.0;
    const double middle = (x1 + x2) / 2;
    scene.branches.push_back({"M" + Point(x1, y1) + " C" + Point(middle, y1) + " " +
                              Point(middle, y2) + " " + Point(x2, y2)});
  }

  const auto square_centre = [&](int timeline, int half_turn, Square s, double* x, double* y) {
    const Board* board = pos.BoardAt(timeline, half_turn);
    const int column = layout.ColumnOf(half_turn);
    const int row = layout.RowOf(timeline);
    if (board == nullptr || column < 0 || row < 0 || !board->Contains(s.file, s.rank)) {
      return false;
    }
    *x = static_cast<double>(geometry.BoardX(column)) + (s.file + 0.5) * geometry.square;
    *y = static_cast<double>(geometry.BoardY(row)) +
         (board->height() - 1 - s.rank + 0.5) * geometry.square;
    return true;
  };
  const auto add_arrows = [&](std::span<const Move> list, std::vector<PictureCurve>* out) {
    for (Move move : list) {
      // A check is found on the boards the mover's pass would add after its tips (Checks in
      // core/legal.h): each such board is its tip's copy, so the arrow is drawn on the tip.
      const auto onto_tip = [&](int timeline, auto* half_turn) {
        if (pos.BoardAt(timeline, *half_turn) == nullptr && pos.HasTimeline(timeline) &&
            *half_turn == pos.TipHalf(timeline) + 1) {
          --*half_turn;
        }
      };
      onto_tip(move.src_timeline, &move.src_half);
      onto_tip(move.dst_timeline, &move.dst_half);
      double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
      if (!square_centre(move.src_timeline, move.src_half, move.from, &x1, &y1) ||
          !square_centre(move.dst_timeline, move.dst_half, move.to, &x2, &y2)) {
        continue;
      }
      const bool same_board =
          move.src_timeline == move.dst_timeline && move.src_half == move.dst_half;
      out->push_back({ArrowPath(x1, y1, x2, y2, same_board)});
    }
  };
  add_arrows(last_action, &scene.moves);
  add_arrows(Checks(pos), &scene.checks);
  return scene;
}

Json PictureJson(const Position& pos, std::span<const Move> last_action, int max_columns,
                 std::span<const BoardAddress> marked) {
  const PictureScene scene = MakePictureScene(pos, last_action, max_columns, 0, false);
  const PictureLayout& layout = scene.layout;
  const PictureGeometry& geometry = scene.geometry;
  Json rows = Json::array();
  for (size_t r = 0; r < layout.rows.size(); ++r) {
    const int timeline = layout.rows[r];
    rows.push_back({{"l", pos.labeling().Label(timeline)},
                    {"active", pos.IsActive(timeline)},
                    {"y", geometry.BoardY(static_cast<int>(r))}});
  }
  Json columns = Json::array();
  for (size_t c = 0; c < layout.columns.size(); ++c) {
    const int half_turn = layout.columns[c];
    columns.push_back({{"t", TurnOf(half_turn)},
                       {"c", ColorOf(half_turn) == Color::kWhite ? "w" : "b"},
                       {"x", geometry.BoardX(static_cast<int>(c))}});
  }
  Json boards = Json::array();
  std::string squares;
  for (size_t r = 0; r < layout.rows.size(); ++r) {
    for (size_t c = 0; c < layout.columns.size(); ++c) {
      const Board* board = pos.BoardAt(layout.rows[r], layout.columns[c]);
      if (board == nullptr) continue;
      squares.clear();
      for (int rank = board->height() - 1; rank >= 0; --rank) {
        if (rank != board->height() - 1) squares.push_back('/');
        for (int file = 0; file < board->width(); ++file) {
          const Piece piece = board->at(file, rank);
          if (piece.empty()) {
            squares.push_back('.');
            continue;
          }
          const int type = static_cast<int>(piece.type());
          const char letter = type < kPieceTypeCount ? PieceLetter(piece.type()) : '?';
          squares.push_back(
              piece.color() == Color::kWhite
                  ? letter
                  : static_cast<char>(std::tolower(static_cast<unsigned char>(letter))));
        }
      }
      boards.push_back(Json::array({r, c, squares}));
    }
  }
  Json marks = Json::array();
  for (const BoardAddress& mark : marked) {
    const int row = layout.RowOf(mark.timeline);
    const int column = layout.ColumnOf(mark.half_turn);
    if (row < 0 || column < 0 || pos.BoardAt(mark.timeline, mark.half_turn) == nullptr) continue;
    marks.push_back(Json::array({row, column}));
  }
  const auto paths = [](const std::vector<PictureCurve>& curves) {
    Json list = Json::array();
    for (const PictureCurve& curve : curves) list.push_back(curve.path);
    return list;
  };
  return Json{{"square", geometry.square},
              {"board_width", geometry.board_width},
              {"board_height", geometry.board_height},
              {"gap", geometry.gap},
              {"left", geometry.left},
              {"top", geometry.top()},
              {"width", scene.width},
              {"height", scene.height},
              {"rows", std::move(rows)},
              {"columns", std::move(columns)},
              {"present", layout.ColumnOf(layout.present)},
              {"boards", std::move(boards)},
              {"marks", std::move(marks)},
              {"branches", paths(scene.branches)},
              {"moves", paths(scene.moves)},
              {"checks", paths(scene.checks)}};
}

}  // namespace fived
