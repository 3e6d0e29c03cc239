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

using Layout = PictureLayout;

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
  const Layout layout = MakePictureLayout(pos, options.max_columns);
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

constexpr std::string_view kLightSquare = "#f0d9b5";
constexpr std::string_view kDarkSquare = "#b58863";
constexpr std::string_view kArrowColor = "#1f6fd1";
constexpr std::string_view kCheckColor = "#e0162b";
constexpr std::string_view kBranchColor = "#8a94a6";
// Red against the brown squares, the blue arrows and the yellow present.
constexpr std::string_view kMarkColor = "#d7263d";

using SvgGeometry = PictureGeometry;

// Draws one board at (x, y): its squares from a checkered pattern, then its pieces, then, when
// `coordinates`, its file and rank labels.
void AppendSvgBoard(const Board& board, const std::string& label, int half_turn, int64_t x,
                    int64_t y, const SvgGeometry& geometry, bool coordinates, std::string* out) {
  const int square = geometry.square;
  // Top-left is file a of the highest rank; a1 is dark, so that square is dark when the board
  // has an odd number of ranks. Each pattern starts with its named colour at the top-left.
  const bool dark_top_left = (board.height() - 1) % 2 == 0;
  // The board's coordinates as 5DFEN writes them, so that a page can find and measure it.
  *out += "<g transform=\"translate(" + std::to_string(x) + "," + std::to_string(y) +
          ")\" class=\"board\" data-l=\"" + label + "\" data-t=\"" +
          std::to_string(TurnOf(half_turn)) + "\" data-c=\"" +
          (ColorOf(half_turn) == Color::kWhite ? "w" : "b") + "\">";
  *out += "<rect width=\"" + std::to_string(board.width() * square) + "\" height=\"" +
          std::to_string(board.height() * square) + "\" fill=\"url(#" +
          (dark_top_left ? "squares-dark" : "squares-light") +
          ")\" stroke=\"#555\" stroke-width=\"1\"/>\n";
  for (int row = 0; row < board.height(); ++row) {
    const int rank = board.height() - 1 - row;
    for (int file = 0; file < board.width(); ++file) {
      const Piece piece = board.at(file, rank);
      if (piece.empty()) continue;
      const std::string cx = SvgNumber(file * square + square / 2.0);
      const std::string cy = SvgNumber(row * square + square / 2.0);
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
        *out += "</title><circle cx=\"" + cx + "\" cy=\"" + cy + "\" r=\"" +
                SvgNumber(square * 0.4) + "\" fill=\"" + (white ? "#fff" : "#222") +
                "\" stroke=\"#222\"/>";
        *out += "<text x=\"" + cx + "\" y=\"" + cy + "\" class=\"letter\" fill=\"" +
                (white ? "#222" : "#fff") + "\">";
        out->push_back(SafePieceLetter(type));
        *out += "</text></g>";
      }
    }
    *out += '\n';
  }
  if (coordinates) {
    // Each label in the colour of the other squares, so that it reads on its own square.
    const std::string size = SvgNumber(std::max(6.0, square * 0.28));
    const auto label_colour = [](bool dark) { return dark ? kLightSquare : kDarkSquare; };
    for (int file = 0; file < board.width(); ++file) {
      // The lowest rank, rank 1: file a's square there is dark.
      *out += "<text class=\"coordinate\" x=\"" + SvgNumber((file + 0.96) * square) + "\" y=\"" +
              SvgNumber(board.height() * square - 0.08 * square) +
              "\" text-anchor=\"end\" font-size=\"" + size + "\" fill=\"";
      *out += label_colour(file % 2 == 0);
      *out += "\">";
      out->push_back(static_cast<char>('a' + file));
      *out += "</text>";
    }
    for (int row = 0; row < board.height(); ++row) {
      const int rank = board.height() - 1 - row;
      *out += "<text class=\"coordinate\" x=\"" + SvgNumber(0.06 * square) + "\" y=\"" +
              SvgNumber((row + 0.06) * square) + "\" dominant-baseline=\"hanging\" font-size=\"" +
              size + "\" fill=\"";
      *out += label_colour(rank % 2 == 0);
      *out += "\">" + std::to_string(rank + 1) + "</text>";
    }
    *out += '\n';
  }
  *out += "</g>\n";
}

}  // namespace

std::string SvgPicture(const Position& pos, std::span<const Move> last_action,
                       const SvgPictureOptions& options) {
  const PictureScene scene = MakePictureScene(pos, last_action, options.max_columns,
                                              options.square_size, !options.title.empty());
  const Layout& layout = scene.layout;
  const SvgGeometry& geometry = scene.geometry;
  const int notice_height = layout.hidden_count > 0 ? 20 : 0;
  const int64_t total_width = scene.width;
  const int64_t total_height = scene.height;
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
      SvgNumber(geometry.square * 0.85) +
      "px}.letter{font-weight:bold;text-anchor:middle;dominant-baseline:central;font-size:" +
      SvgNumber(geometry.square * 0.5) +
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
  out +=
      "\"/></marker>\n<marker id=\"checkhead\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" "
      "markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"";
  out += kCheckColor;
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
    const std::string x =
        SvgNumber(geometry.BoardX(static_cast<int>(c)) + geometry.board_width / 2.0);
    out += "<text x=\"" + x + "\" y=\"" + std::to_string(header_y + 20) +
           "\" class=\"label\" text-anchor=\"middle\"" +
           (static_cast<int>(c) == present_column ? " font-weight=\"bold\"" : "") + ">" +
           XmlEscape(HalfTurnLabel(half_turn)) + "</text>\n";
    if (static_cast<int>(c) == present_column) {
      out += "<text x=\"" + x + "\" y=\"" + std::to_string(header_y + 36) +
             "\" class=\"note\" text-anchor=\"middle\">present</text>\n";
    }
  }

  // Under the boards, so that a line only shows in the gaps between them.
  const std::string branch_width = SvgNumber(std::max(3.0, geometry.square / 3.0));
  for (const PictureCurve& branch : scene.branches) {
    out += "<path class=\"branch\" d=\"" + branch.path + "\" fill=\"none\" stroke=\"";
    out += kBranchColor;
    out += "\" stroke-width=\"" + branch_width + "\" stroke-linecap=\"round\"/>\n";
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
      AppendSvgBoard(*board, pos.labeling().Label(timeline), layout.columns[c],
                     geometry.BoardX(static_cast<int>(c)), y, geometry, options.coordinates, &out);
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

  // Arrows last, so that no board covers them: the moves, then the checks.
  const std::string stroke_width = SvgNumber(std::max(2.0, geometry.square / 6.0));
  const auto arrows = [&](const std::vector<PictureCurve>& curves, std::string_view kind,
                          std::string_view colour, std::string_view head) {
    for (const PictureCurve& curve : curves) {
      out += "<path class=\"";
      out += kind;
      out += "\" d=\"" + curve.path + "\" fill=\"none\" stroke=\"";
      out += colour;
      out += "\" stroke-opacity=\"0.85\" stroke-width=\"" + stroke_width +
             "\" stroke-linecap=\"round\" marker-end=\"url(#";
      out += head;
      out += ")\"/>\n";
    }
  };
  arrows(scene.moves, "arrow", kArrowColor, "arrowhead");
  arrows(scene.checks, "check", kCheckColor, "checkhead");
  out += "</svg>\n";
  return out;
}

}  // namespace fived
