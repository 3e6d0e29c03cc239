// Text and SVG pictures of the multiverse (picture.h). Both are built from one Layout that
// decides which timelines are rows and which half-turns are columns.
#include "query/picture.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <utility>
#include <vector>

namespace fived {
namespace {

// Which boards a picture shows and where.
struct Layout {
  std::vector<int> rows;     // timeline indices, highest first
  std::vector<int> columns;  // half-turns, ascending
  // Columns left out by max_columns: how many, and the first and last of them.
  int hidden_count = 0;
  int hidden_first = 0;
  int hidden_last = 0;
  int present = INT_MAX;  // Position::Present(); INT_MAX when no timeline is active
  int inactive_count = 0;

  // The index of a half-turn's column, or -1 when it is not drawn.
  int ColumnOf(int half_turn) const {
    const auto it = std::lower_bound(columns.begin(), columns.end(), half_turn);
    if (it == columns.end() || *it != half_turn) return -1;
    return static_cast<int>(it - columns.begin());
  }
  int RowOf(int timeline) const {
    // Rows are few (one per timeline) and descending, so a scan is simplest.
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i] == timeline) return static_cast<int>(i);
    }
    return -1;
  }
};

Layout MakeLayout(const Position& pos, int max_columns) {
  Layout layout;
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

bool IsMarked(const std::vector<BoardAddress>& marked, int timeline, int half_turn) {
  return std::find(marked.begin(), marked.end(), BoardAddress{timeline, half_turn}) != marked.end();
}

// "T3 w": the notation's turn of a half-turn and whose board it is.
std::string HalfTurnLabel(int half_turn) {
  return "T" + std::to_string(TurnOf(half_turn)) +
         (ColorOf(half_turn) == Color::kWhite ? " w" : " b");
}

// PieceLetter, safe for bytes whose type is out of range (a Board may hold any byte).
char SafePieceLetter(PieceType type) {
  if (static_cast<int>(type) >= kPieceTypeCount) return '?';
  return PieceLetter(type);
}

bool IsClassical(PieceType type) {
  switch (type) {
    case PieceType::kKing:
    case PieceType::kQueen:
    case PieceType::kRook:
    case PieceType::kBishop:
    case PieceType::kKnight:
    case PieceType::kPawn:
      return true;
    default:
      return false;
  }
}

// The Unicode chess symbol of a classical piece (UTF-8); empty for the others.
std::string_view ChessSymbol(Piece piece) {
  const bool white = piece.color() == Color::kWhite;
  switch (piece.type()) {
    case PieceType::kKing:
      return white ? "\u2654" : "\u265A";
    case PieceType::kQueen:
      return white ? "\u2655" : "\u265B";
    case PieceType::kRook:
      return white ? "\u2656" : "\u265C";
    case PieceType::kBishop:
      return white ? "\u2657" : "\u265D";
    case PieceType::kKnight:
      return white ? "\u2658" : "\u265E";
    case PieceType::kPawn:
      return white ? "\u2659" : "\u265F";
    default:
      return {};
  }
}

// One square of a text picture: a letter, a symbol or '.'. Always one terminal cell wide.
void AppendSquareText(Piece piece, bool unicode, std::string* out) {
  if (piece.empty()) {
    out->push_back('.');
    return;
  }
  if (unicode && IsClassical(piece.type())) {
    out->append(ChessSymbol(piece));
    return;
  }
  const char letter = SafePieceLetter(piece.type());
  out->push_back(piece.color() == Color::kWhite
                     ? letter
                     : static_cast<char>(std::tolower(static_cast<unsigned char>(letter))));
}

// A line of a text picture, built left to right at known cell positions. Unicode symbols take
// several bytes but one cell, so the width is counted apart from the bytes.
class TextLine {
 public:
  // Pads with spaces up to cell `column` (no-op when already there or past it).
  void PadTo(int column) {
    if (column > cells_) {
      text_.append(static_cast<size_t>(column - cells_), ' ');
      cells_ = column;
    }
  }
  void Append(std::string_view text, int cells) {
    text_.append(text);
    cells_ += cells;
  }
  void AppendAscii(std::string_view text) { Append(text, static_cast<int>(text.size())); }
  // Adds the line to `out` without trailing spaces.
  void FlushTo(std::string* out) {
    const size_t end = text_.find_last_not_of(' ');
    out->append(text_, 0, end == std::string::npos ? 0 : end + 1);
    out->push_back('\n');
    text_.clear();
    cells_ = 0;
  }

 private:
  std::string text_;
  int cells_ = 0;
};

// "Not shown: 5 earlier half-turn columns, T1 w to T3 w."
std::string HiddenColumnsNote(const Layout& layout) {
  std::string out = "Not shown: " + std::to_string(layout.hidden_count) +
                    " earlier half-turn column" + (layout.hidden_count == 1 ? "" : "s") + ", " +
                    HalfTurnLabel(layout.hidden_first);
  if (layout.hidden_count > 1) out += " to " + HalfTurnLabel(layout.hidden_last);
  out += ".";
  return out;
}

std::string SummaryLine(const Position& pos, const Layout& layout) {
  std::string out = "Present: ";
  if (layout.present == INT_MAX) {
    out += "none";
  } else {
    out += HalfTurnLabel(layout.present);
    out += ColorOf(layout.present) == Color::kWhite ? " (white to move)" : " (black to move)";
  }
  out += ". Timelines: " + std::to_string(layout.rows.size());
  out += layout.inactive_count == 0 ? " (all active)"
                                    : " (" + std::to_string(layout.inactive_count) + " inactive)";
  out += ". Boards: " + std::to_string(pos.board_count()) + ".";
  return out;
}

}  // namespace

std::string TextPicture(const Position& pos, const TextPictureOptions& options) {
  const Layout layout = MakeLayout(pos, options.max_columns);
  if (layout.rows.empty()) return "No boards.\n";

  std::string out = SummaryLine(pos, layout);
  out += '\n';
  if (layout.hidden_count > 0) out += HiddenColumnsNote(layout) + "\n";

  constexpr int kGap = 2;
  // Boards of one position share a size, but Board carries its own; size by the largest.
  int board_width = pos.width();
  int board_height = pos.height();
  pos.ForEachBoard([&](int, int, const Board& board) {
    board_width = std::max(board_width, board.width());
    board_height = std::max(board_height, board.height());
  });

  std::vector<std::string> headers;
  int column_width = board_width;
  for (const int h : layout.columns) {
    headers.push_back(HalfTurnLabel(h) + (h == layout.present ? "<" : ""));
    column_width = std::max(column_width, static_cast<int>(headers.back().size()));
  }
  size_t label_width = 0;
  for (const int l : layout.rows) {
    label_width = std::max(label_width, pos.labeling().Label(l).size());
  }
  std::vector<std::string> margins;
  int margin_width = 0;
  for (const int l : layout.rows) {
    std::string label = pos.labeling().Label(l);
    std::string margin(label_width - label.size(), ' ');
    margin += label;
    if (!pos.IsActive(l)) margin += " inactive";
    margin_width = std::max(margin_width, static_cast<int>(margin.size()));
    margins.push_back(std::move(margin));
  }
  const int first_column = margin_width + kGap;
  const auto column_start = [&](size_t c) {
    return first_column + static_cast<int>(c) * (column_width + kGap);
  };

  TextLine line;
  std::string squares;  // one rank of one board
  for (size_t c = 0; c < headers.size(); ++c) {
    line.PadTo(column_start(c));
    line.AppendAscii(headers[c]);
  }
  line.FlushTo(&out);

  for (size_t r = 0; r < layout.rows.size(); ++r) {
    const int timeline = layout.rows[r];
    if (r > 0) line.FlushTo(&out);  // a blank line between timelines
    for (int row = 0; row < board_height; ++row) {
      if (row == 0) line.AppendAscii(margins[r]);
      for (size_t c = 0; c < layout.columns.size(); ++c) {
        const Board* board = pos.BoardAt(timeline, layout.columns[c]);
        if (board == nullptr) continue;
        // Smaller boards are drawn against the top of the row.
        const int rank = board->height() - 1 - row;
        if (rank < 0) continue;
        // A mark's brackets sit in the gaps (kGap is 2), so that the squares stay in place.
        const bool marked = IsMarked(options.marked, timeline, layout.columns[c]);
        if (marked) {
          line.PadTo(column_start(c) - 1);
          line.AppendAscii("[");
        }
        line.PadTo(column_start(c));
        squares.clear();
        for (int file = 0; file < board->width(); ++file) {
          AppendSquareText(board->at(file, rank), options.unicode, &squares);
        }
        line.Append(squares, board->width());
        if (marked) line.AppendAscii("]");
      }
      line.FlushTo(&out);
    }
  }
  return out;
}

namespace {

// Escapes text for XML character data and attribute values. Bytes that are not well-formed
// UTF-8, and control characters XML 1.0 forbids, become U+FFFD, so any input gives a
// well-formed document.
std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&apos;";
          break;
        default:
          if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            out += "\uFFFD";
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    // A multi-byte sequence: its length from the lead byte, then continuation bytes, rejecting
    // overlong forms, surrogates and values past U+10FFFF.
    int length = 0;
    uint32_t code = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
      code = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      code = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      code = c & 0x07;
    }
    bool valid = length > 0 && i + static_cast<size_t>(length) <= text.size();
    for (int k = 1; valid && k < length; ++k) {
      const unsigned char next = static_cast<unsigned char>(text[i + static_cast<size_t>(k)]);
      valid = (next & 0xC0) == 0x80;
      code = (code << 6) | (next & 0x3F);
    }
    if (valid) {
      valid = !(length == 3 && code < 0x800) && !(length == 4 && code < 0x10000) &&
              !(code >= 0xD800 && code <= 0xDFFF) && code <= 0x10FFFF && code != 0xFFFE &&
              code != 0xFFFF;
    }
    if (valid) {
      out.append(text.substr(i, static_cast<size_t>(length)));
      i += static_cast<size_t>(length);
    } else {
      out += "\uFFFD";
      ++i;
    }
  }
  return out;
}

// A coordinate for an attribute: integers plainly, halves and tenths with one decimal.
std::string Num(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f", value);
  std::string text = buffer;
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  if (text == "-0") text = "0";
  return text;
}

constexpr std::string_view kLightSquare = "#f0d9b5";
constexpr std::string_view kDarkSquare = "#b58863";
constexpr std::string_view kArrowColor = "#1f6fd1";
// Red against the brown squares, the blue arrows and the yellow present.
constexpr std::string_view kMarkColor = "#d7263d";

// The pixel geometry of an SVG picture.
struct SvgGeometry {
  int square = 24;
  int board_width = 0;  // pixels
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

// Draws one board at (x, y): its squares from a checkered pattern, then its pieces.
void AppendSvgBoard(const Board& board, int64_t x, int64_t y, const SvgGeometry& geometry,
                    std::string* out) {
  const int square = geometry.square;
  // Top-left is file a of the highest rank; a1 is dark, so that square is dark when the board
  // has an odd number of ranks. Each pattern starts with its named colour at the top-left.
  const bool dark_top_left = (board.height() - 1) % 2 == 0;
  *out += "<g transform=\"translate(" + std::to_string(x) + "," + std::to_string(y) + ")\">";
  *out += "<rect width=\"" + std::to_string(board.width() * square) + "\" height=\"" +
          std::to_string(board.height() * square) + "\" fill=\"url(#" +
          (dark_top_left ? "squares-dark" : "squares-light") +
          ")\" stroke=\"#555\" stroke-width=\"1\"/>\n";
  for (int row = 0; row < board.height(); ++row) {
    const int rank = board.height() - 1 - row;
    for (int file = 0; file < board.width(); ++file) {
      const Piece piece = board.at(file, rank);
      if (piece.empty()) continue;
      const std::string cx = Num(file * square + square / 2.0);
      const std::string cy = Num(row * square + square / 2.0);
      const bool white = piece.color() == Color::kWhite;
      if (IsClassical(piece.type())) {
        *out += "<text x=\"" + cx + "\" y=\"" + cy + "\" class=\"piece\">";
        out->append(ChessSymbol(piece));
        *out += "&#xFE0E;</text>";
      } else {
        const PieceType type = piece.type();
        const std::string name =
            static_cast<int>(type) < kPieceTypeCount ? std::string(PieceName(type)) : "piece";
        *out += "<g><title>";
        *out += white ? "white " : "black ";
        *out += XmlEscape(name);
        *out += "</title><circle cx=\"" + cx + "\" cy=\"" + cy + "\" r=\"" + Num(square * 0.4) +
                "\" fill=\"" + (white ? "#fff" : "#222") + "\" stroke=\"#222\"/>";
        *out += "<text x=\"" + cx + "\" y=\"" + cy + "\" class=\"letter\" fill=\"" +
                (white ? "#222" : "#fff") + "\">";
        out->push_back(SafePieceLetter(type));
        *out += "</text></g>";
      }
    }
    *out += '\n';
  }
  *out += "</g>\n";
}

}  // namespace

std::string SvgPicture(const Position& pos, std::span<const Move> last_action,
                       const SvgPictureOptions& options) {
  const Layout layout = MakeLayout(pos, options.max_columns);
  int width_squares = pos.width();
  int height_squares = pos.height();
  pos.ForEachBoard([&](int, int, const Board& board) {
    width_squares = std::max(width_squares, board.width());
    height_squares = std::max(height_squares, board.height());
  });

  SvgGeometry geometry;
  // Bounded so that the pixel sums below cannot overflow whatever the caller asks.
  geometry.square = options.square_size > 0
                        ? std::min(options.square_size, 512)
                        : std::max(8, 192 / std::max(width_squares, height_squares));
  geometry.board_width = geometry.square * width_squares;
  geometry.board_height = geometry.square * height_squares;
  geometry.gap = std::max(16, geometry.square);
  geometry.title_height = options.title.empty() ? 0 : 32;

  const int columns = std::max(1, static_cast<int>(layout.columns.size()));
  const int rows = std::max(1, static_cast<int>(layout.rows.size()));
  const int notice_height = layout.hidden_count > 0 ? 20 : 0;
  geometry.header_height += notice_height;
  const int64_t total_width =
      geometry.left + static_cast<int64_t>(columns) * (geometry.board_width + geometry.gap);
  const int64_t total_height =
      geometry.top() + static_cast<int64_t>(rows) * (geometry.board_height + geometry.gap);
  const std::string width_text = std::to_string(total_width);
  const std::string height_text = std::to_string(total_height);

  std::string out;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + width_text +
         "\" height=\"" + height_text + "\" viewBox=\"0 0 " + width_text + " " + height_text +
         "\" font-family=\"sans-serif\">\n";
  if (!options.title.empty()) out += "<title>" + XmlEscape(options.title) + "</title>\n";

  const std::string square = std::to_string(geometry.square);
  const std::string two_squares = std::to_string(2 * geometry.square);
  out += "<defs>\n<style>";
  // Chess symbols come from whichever installed font has them; these are the common ones.
  out +=
      ".piece{font-family:'DejaVu Sans','Segoe UI Symbol','Noto Sans Symbols 2',"
      "'Apple Symbols',serif;text-anchor:middle;dominant-baseline:central;fill:#000;font-size:" +
      Num(geometry.square * 0.85) +
      "px}.letter{font-weight:bold;text-anchor:middle;dominant-baseline:central;font-size:" +
      Num(geometry.square * 0.5) +
      "px}.label{font-size:14px;fill:#222}.note{font-size:11px;fill:#666}";
  out += "</style>\n";
  for (const bool dark_first : {false, true}) {
    const std::string_view first = dark_first ? kDarkSquare : kLightSquare;
    const std::string_view second = dark_first ? kLightSquare : kDarkSquare;
    out += "<pattern id=\"";
    out += dark_first ? "squares-dark" : "squares-light";
    out += "\" width=\"" + two_squares + "\" height=\"" + two_squares +
           "\" patternUnits=\"userSpaceOnUse\">";
    out += "<rect width=\"" + two_squares + "\" height=\"" + two_squares + "\" fill=\"";
    out += first;
    out +=
        "\"/><rect x=\"" + square + "\" width=\"" + square + "\" height=\"" + square + "\" fill=\"";
    out += second;
    out +=
        "\"/><rect y=\"" + square + "\" width=\"" + square + "\" height=\"" + square + "\" fill=\"";
    out += second;
    out += "\"/></pattern>\n";
  }
  out +=
      "<marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"4\" "
      "markerHeight=\"4\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"";
  out += kArrowColor;
  out += "\"/></marker>\n</defs>\n";
  // An opaque background, so that a browser's dark theme does not show through the labels.
  out += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";

  if (!options.title.empty()) {
    out += "<text x=\"8\" y=\"22\" font-size=\"16\" font-weight=\"bold\">" +
           XmlEscape(options.title) + "</text>\n";
  }
  if (layout.rows.empty()) {
    out += "<text x=\"8\" y=\"" + std::to_string(geometry.top() + 16) +
           "\" class=\"label\">No boards.</text>\n</svg>\n";
    return out;
  }

  const int64_t header_y = geometry.title_height + notice_height;
  if (layout.hidden_count > 0) {
    out += "<text x=\"8\" y=\"" + std::to_string(geometry.title_height + 14) +
           "\" class=\"note\">" + XmlEscape(HiddenColumnsNote(layout)) + "</text>\n";
  }
  const int present_column = layout.ColumnOf(layout.present);
  if (present_column >= 0) {
    out += "<rect class=\"present\" x=\"" +
           std::to_string(geometry.BoardX(present_column) - geometry.gap / 2) + "\" y=\"" +
           std::to_string(header_y) + "\" width=\"" +
           std::to_string(geometry.board_width + geometry.gap) + "\" height=\"" +
           std::to_string(total_height - header_y) + "\" fill=\"#fde9a9\"/>\n";
  }
  for (size_t c = 0; c < layout.columns.size(); ++c) {
    const int half_turn = layout.columns[c];
    const std::string x = Num(geometry.BoardX(static_cast<int>(c)) + geometry.board_width / 2.0);
    out += "<text x=\"" + x + "\" y=\"" + std::to_string(header_y + 20) +
           "\" class=\"label\" text-anchor=\"middle\"" +
           (static_cast<int>(c) == present_column ? " font-weight=\"bold\"" : "") + ">" +
           XmlEscape(HalfTurnLabel(half_turn)) + "</text>\n";
    if (static_cast<int>(c) == present_column) {
      out += "<text x=\"" + x + "\" y=\"" + std::to_string(header_y + 36) +
             "\" class=\"note\" text-anchor=\"middle\">present</text>\n";
    }
  }

  for (size_t r = 0; r < layout.rows.size(); ++r) {
    const int timeline = layout.rows[r];
    const bool active = pos.IsActive(timeline);
    const int64_t y = geometry.BoardY(static_cast<int>(r));
    const std::string label_x = std::to_string(geometry.left - 12);
    const int64_t middle = y + geometry.board_height / 2;
    out += "<text x=\"" + label_x + "\" y=\"" + std::to_string(middle + 5) +
           "\" class=\"label\" text-anchor=\"end\">" + XmlEscape(pos.labeling().Label(timeline)) +
           "</text>\n";
    if (!active) {
      out += "<text x=\"" + label_x + "\" y=\"" + std::to_string(middle + 21) +
             "\" class=\"note\" text-anchor=\"end\">inactive</text>\n";
      out += "<g opacity=\"0.4\">\n";
    }
    for (size_t c = 0; c < layout.columns.size(); ++c) {
      const Board* board = pos.BoardAt(timeline, layout.columns[c]);
      if (board == nullptr) continue;
      AppendSvgBoard(*board, geometry.BoardX(static_cast<int>(c)), y, geometry, &out);
    }
    if (!active) out += "</g>\n";
  }

  // Outside the inactive timelines' dimmed groups, so that a mark is as strong on every board.
  const int mark_width = std::max(4, geometry.square / 4);
  for (const BoardAddress& mark : options.marked) {
    const Board* board = pos.BoardAt(mark.timeline, mark.half_turn);
    const int column = layout.ColumnOf(mark.half_turn);
    const int row = layout.RowOf(mark.timeline);
    if (board == nullptr || column < 0 || row < 0) continue;
    // The stroke's inner edge just clears the board's own one-pixel border.
    const int outset = 1 + mark_width / 2;
    out += "<rect class=\"mark\" x=\"" + std::to_string(geometry.BoardX(column) - outset) +
           "\" y=\"" + std::to_string(geometry.BoardY(row) - outset) + "\" width=\"" +
           std::to_string(board->width() * geometry.square + 2 * outset) + "\" height=\"" +
           std::to_string(board->height() * geometry.square + 2 * outset) +
           "\" fill=\"none\" stroke=\"";
    out += kMarkColor;
    out += "\" stroke-width=\"" + std::to_string(mark_width) + "\"/>\n";
  }

  // Arrows last, so that no board covers them.
  const auto square_centre = [&](int timeline, int half_turn, Square s, double* x, double* y) {
    const Board* board = pos.BoardAt(timeline, half_turn);
    const int column = layout.ColumnOf(half_turn);
    const int row = layout.RowOf(timeline);
    if (board == nullptr || column < 0 || row < 0 || !board->Contains(s.file, s.rank)) {
      return false;
    }
    *x = geometry.BoardX(column) + (s.file + 0.5) * geometry.square;
    *y = geometry.BoardY(row) + (board->height() - 1 - s.rank + 0.5) * geometry.square;
    return true;
  };
  const std::string stroke_width = Num(std::max(2.0, geometry.square / 6.0));
  for (const Move& move : last_action) {
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    if (!square_centre(move.src_timeline, move.src_half, move.from, &x1, &y1) ||
        !square_centre(move.dst_timeline, move.dst_half, move.to, &x2, &y2)) {
      continue;
    }
    out += "<line class=\"arrow\" x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" + Num(x2) +
           "\" y2=\"" + Num(y2) + "\" stroke=\"";
    out += kArrowColor;
    out += "\" stroke-opacity=\"0.85\" stroke-width=\"" + stroke_width +
           "\" stroke-linecap=\"round\" marker-end=\"url(#arrowhead)\"/>\n";
  }
  out += "</svg>\n";
  return out;
}

}  // namespace fived
