// Board patterns; see pattern.h.
#include "core/pattern.h"

#include <cctype>
#include <charconv>
#include <cstdlib>

namespace fived {

namespace {

constexpr PieceSet kEmpty = 1;  // byte 0

PieceSet Bit(Piece piece) { return PieceSet{1} << piece.bits(); }

// Every piece of a colour, moved or unmoved.
PieceSet ColourSet(Color color) {
  PieceSet set = 0;
  for (int t = 1; t < kPieceTypeCount; ++t) set |= PieceSetOf(static_cast<PieceType>(t), color);
  return set;
}

bool IsPieceLetter(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) && PieceTypeFromLetter(c) != PieceType::kNone;
}

// Reads the pieces field, one rank after another (from the top), into rows of sets.
class FieldReader {
 public:
  // `text` starts at column `offset` + 1 of `whole`, the text errors point into; with `whole`
  // empty, errors say the column alone.
  FieldReader(std::string_view text, size_t offset, std::string_view whole)
      : text_(text), offset_(offset), whole_(whole) {}

  Status Read(std::vector<std::vector<PieceSet>>* rows) {
    rows->emplace_back();
    while (i_ < text_.size()) {
      const char c = text_[i_];
      if (c == '/') {
        if (rows->size() == kMaxBoardSide) return Error("more than 16 ranks");
        rows->emplace_back();
        ++i_;
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c))) {
        const size_t start = i_;
        int run = 0;
        while (i_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[i_]))) {
          run = run * 10 + (text_[i_] - '0');
          if (run > kMaxBoardSide) return ErrorAt(start, "a run of more than 16 empty squares");
          ++i_;
        }
        if (run == 0) return ErrorAt(start, "a run of 0 empty squares");
        for (int k = 0; k < run; ++k) rows->back().push_back(kEmpty);
      } else {
        PieceSet set = 0;
        if (Status error = Token(&set); !error.ok()) return error;
        rows->back().push_back(set);
      }
      if (rows->back().size() > kMaxBoardSide) return Error("a rank of more than 16 squares");
    }
    return Status();
  }

  // One token at the start of the text (for material terms); *consumed its length.
  Status ReadToken(PieceSet* set, size_t* consumed) {
    if (text_.empty()) return ErrorAt(0, "a piece, class or set is missing");
    if (Status error = Token(set); !error.ok()) return error;
    *consumed = i_;
    return Status();
  }

 private:
  Status ErrorAt(size_t i, std::string message) const {
    const size_t column = offset_ + i + 1;
    if (!whole_.empty()) return TextErrorAt(whole_, column, std::move(message));
    Place place;
    place.column = column;
    place.reason = message;
    return Status::InvalidArgument("col " + std::to_string(column) + ": " + message)
        .At(std::move(place));
  }
  Status Error(std::string message) const { return ErrorAt(i_, std::move(message)); }

  // One square's token at i_: a letter (maybe with '*'), '?', '!', 'A', 'a' or a bracket set.
  Status Token(PieceSet* set) {
    const char c = text_[i_];
    if (c == '[') return Bracket(set);
    if (c == ']') return Error("']' without '['");
    return Single(set, /*in_brackets=*/false);
  }

  Status Single(PieceSet* set, bool in_brackets) {
    const char c = text_[i_];
    if (c == '?' && !in_brackets) {
      *set = AllSquares();
      ++i_;
      return Status();
    }
    if (c == '.' && in_brackets) {
      *set = kEmpty;
      ++i_;
      return Status();
    }
    if (c == '!') {
      *set = ColourSet(Color::kWhite) | ColourSet(Color::kBlack);
      ++i_;
      return Status();
    }
    if (c == 'A' || c == 'a') {
      *set = ColourSet(c == 'A' ? Color::kWhite : Color::kBlack);
      ++i_;
      return Status();
    }
    if (!IsPieceLetter(c)) {
      if (c == '*') return Error("'*' must follow a piece letter");
      if (std::isprint(static_cast<unsigned char>(c))) {
        return Error(std::string("unknown piece letter or token '") + c + "'");
      }
      return Error("unexpected byte in the pattern");
    }
    const PieceType type = PieceTypeFromLetter(c);
    const Color color = std::isupper(static_cast<unsigned char>(c)) ? Color::kWhite : Color::kBlack;
    ++i_;
    if (i_ < text_.size() && text_[i_] == '*') {
      if (!TracksUnmoved(type)) {
        return Error(std::string("'*' after '") + c +
                     "': only P, W, K and R (pawns, brawns, kings, rooks) carry the unmoved mark");
      }
      ++i_;
      *set = Bit(Piece(type, color, /*unmoved=*/true));
      return Status();
    }
    *set = PieceSetOf(type, color);
    return Status();
  }

  Status Bracket(PieceSet* set) {
    const size_t open = i_;
    const size_t close = text_.find(']', open);
    if (close == std::string_view::npos || text_.find('/', open) < close ||
        text_.find('[', open + 1) < close) {
      return ErrorAt(open, "'[' is not closed");
    }
    ++i_;
    bool negated = false;
    if (i_ < text_.size() && text_[i_] == '^') {
      negated = true;
      ++i_;
    }
    PieceSet listed = 0;
    bool any = false;
    while (true) {
      if (text_[i_] == ']') break;
      PieceSet one = 0;
      if (Status error = Single(&one, /*in_brackets=*/true); !error.ok()) return error;
      listed |= one;
      any = true;
    }
    if (!any) return ErrorAt(open, negated ? "'[^]' lists nothing" : "'[]' lists nothing");
    ++i_;  // ']'
    *set = negated ? AllSquares() & ~listed : listed;
    if (*set == 0) return ErrorAt(open, "this set accepts nothing");
    return Status();
  }

  std::string_view text_;
  size_t offset_;
  std::string_view whole_;
  size_t i_ = 0;
};

// Parses one pin field ('*' or absent: nullopt).
bool ParseNumber(std::string_view s, int* value) {
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *value);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

PieceSet PieceSetOf(PieceType type, Color color) {
  PieceSet set = Bit(Piece(type, color));
  if (TracksUnmoved(type)) set |= Bit(Piece(type, color, /*unmoved=*/true));
  return set;
}

PieceSet AllSquares() {
  static const PieceSet all = kEmpty | ColourSet(Color::kWhite) | ColourSet(Color::kBlack);
  return all;
}

Result<PieceSet> ParseSquareToken(std::string_view text, size_t offset, size_t* consumed) {
  FieldReader reader(text, offset, /*whole=*/{});
  PieceSet set = 0;
  if (Status error = reader.ReadToken(&set, consumed); !error.ok()) return error;
  return set;
}

BoardPattern ExactPattern(const Board& board) {
  BoardPattern pattern;
  pattern.width = board.width();
  pattern.height = board.height();
  for (int rank = 0; rank < board.height(); ++rank) {
    for (int file = 0; file < board.width(); ++file) {
      pattern.squares.push_back(Bit(board.at(file, rank)));
      pattern.constrained.push_back(static_cast<uint16_t>(rank * board.width() + file));
    }
  }
  return pattern;
}

bool BoardPattern::Matches(const Board& board) const {
  if (board.width() != width || board.height() != height) return false;
  for (uint16_t i : constrained) {
    if (!Accepts(i, board.at(i % width, i / width).bits())) return false;
  }
  return true;
}

bool BoardPattern::PinsAccept(const TimelineLabeling& labeling, int timeline_index,
                              int half_turn) const {
  if (timeline &&
      labeling.FromNotation(timeline->negative, timeline->magnitude) != timeline_index) {
    return false;
  }
  if (turn && TurnOf(half_turn) != *turn) return false;
  if (color && ColorOf(half_turn) != *color) return false;
  return true;
}

std::string BoardPattern::ToString() const {
  // The token of one set: a letter (with '*'), '?', '!', 'A', 'a' or a bracket set.
  // The letters of a set ('.' for empty, a letter for both forms of a piece, "K*" for the
  // unmoved form alone); false when the set holds the moved form of a piece without the unmoved
  // one, which no letter says.
  auto letters = [](PieceSet set, std::string* listed) {
    if (set & kEmpty) *listed += '.';
    for (int c = 0; c < 2; ++c) {
      for (int t = 1; t < kPieceTypeCount; ++t) {
        const PieceType type = static_cast<PieceType>(t);
        const Color color = static_cast<Color>(c);
        const char letter =
            c == 0 ? PieceLetter(type) : static_cast<char>(std::tolower(PieceLetter(type)));
        const PieceSet both = PieceSetOf(type, color);
        const PieceSet unmoved = TracksUnmoved(type) ? Bit(Piece(type, color, true)) : 0;
        if ((set & both) == both) {
          *listed += letter;
        } else if (unmoved != 0 && (set & both) == unmoved) {
          *listed += letter;
          *listed += '*';
        } else if (set & both) {
          return false;
        }
      }
    }
    return true;
  };
  auto token = [&](PieceSet set) -> std::string {
    if (set == AllSquares()) return "?";
    if (set == (AllSquares() & ~kEmpty)) return "!";
    if (set == ColourSet(Color::kWhite)) return "A";
    if (set == ColourSet(Color::kBlack)) return "a";
    std::string listed;
    if (letters(set, &listed)) {
      if (listed.size() == 1 || (listed.size() == 2 && listed[1] == '*')) return listed;
      return "[" + listed + "]";
    }
    // A set such as [^.K*] (a king that has moved): written by what it leaves out. Sets read from
    // a pattern are unions of letters or their complements, so one of the two forms says it.
    listed.clear();
    letters(AllSquares() & ~set, &listed);
    return "[^" + listed + "]";
  };
  std::string out;
  for (int rank = height - 1; rank >= 0; --rank) {
    int empties = 0;
    for (int file = 0; file < width; ++file) {
      const PieceSet set = squares[rank * width + file];
      if (set == kEmpty) {
        ++empties;
        continue;
      }
      if (empties > 0) out += std::to_string(empties);
      empties = 0;
      out += token(set);
    }
    if (empties > 0) out += std::to_string(empties);
    if (rank > 0) out += '/';
  }
  auto offset = [](int value) {
    return value == 0 ? std::string("=")
                      : (value > 0 ? "=+" : "=-") + std::to_string(std::abs(value));
  };
  if (timeline || turn || color || relative()) {
    out += ':';
    if (timeline_offset) {
      out += offset(*timeline_offset);
    } else if (timeline) {
      out += timeline->negative ? "-" : (timeline->magnitude == 0 ? "" : "+");
      out += std::to_string(timeline->magnitude);
    } else {
      out += '*';
    }
    out += ':';
    out += turn_offset ? offset(*turn_offset) : turn ? std::to_string(*turn) : "*";
    out += ':';
    out += same_color ? "=" : color ? (*color == Color::kWhite ? "w" : "b") : "*";
  }
  return out;
}

Result<BoardPattern> ParseBoardPattern(std::string_view text) {
  // Leading and trailing spaces are not part of the pattern (columns still count them).
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  if (begin == end) return TextErrorAt(text, 1, "empty pattern");
  // The enclosing brackets: a '[' whose ']' is the last character and that holds a '/' or ':'
  // of its own, or a set ("[[Qq]7/...]", "[8/8:0:1:w]"); "[Qq]7/8/..." opens a set, and "[Qq]"
  // alone is the set of a one-square pattern.
  if (text[begin] == '[' && text[end - 1] == ']') {
    int depth = 0;
    bool own_separator = false, holds_set = false;
    size_t close = std::string_view::npos;
    for (size_t i = begin; i < end && close == std::string_view::npos; ++i) {
      const char c = text[i];
      if (c == '[') {
        if (++depth >= 2) holds_set = true;
      } else if (c == ']') {
        if (--depth == 0) close = i;
      } else if ((c == '/' || c == ':') && depth == 1) {
        own_separator = true;
      }
    }
    if (close == end - 1 && (own_separator || holds_set)) {
      ++begin;
      --end;
    }
  }
  // Fields: pieces, then optionally timeline, turn, colour.
  std::string_view body = text.substr(begin, end - begin);
  const size_t colon = body.find(':');
  const std::string_view pieces = body.substr(0, colon);
  BoardPattern pattern;
  std::vector<std::vector<PieceSet>> rows;
  FieldReader reader(pieces, begin, text);
  if (Status error = reader.Read(&rows); !error.ok()) return error;
  // Widths: every rank as wide as the first.
  const size_t width = rows.front().size();
  if (width == 0) return TextErrorAt(text, begin + 1, "the first rank is empty");
  {
    size_t rank_start = begin;
    for (size_t r = 0; r < rows.size(); ++r) {
      const size_t rank_end = pieces.find('/', rank_start - begin);
      const size_t rank_end_abs =
          rank_end == std::string_view::npos ? begin + pieces.size() : begin + rank_end;
      if (rows[r].size() != width) {
        return TextErrorAt(text, rank_start + 1,
                           "rank " + std::to_string(r + 1) + " from the top has " +
                               std::to_string(rows[r].size()) + " squares, the first has " +
                               std::to_string(width));
      }
      rank_start = rank_end_abs + 1;
    }
  }
  pattern.width = static_cast<int>(width);
  pattern.height = static_cast<int>(rows.size());
  pattern.squares.resize(width * rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    const size_t rank = rows.size() - 1 - r;
    for (size_t f = 0; f < width; ++f) pattern.squares[rank * width + f] = rows[r][f];
  }
  for (size_t i = 0; i < pattern.squares.size(); ++i) {
    if (pattern.squares[i] != AllSquares()) pattern.constrained.push_back(static_cast<uint16_t>(i));
  }
  if (colon == std::string_view::npos) return pattern;

  // The pins: ":L:T:c", each '*' for any.
  std::string_view fields[3];
  size_t starts[3] = {0, 0, 0};
  int count = 0;
  size_t start = colon + 1;
  for (size_t i = colon + 1; i <= body.size(); ++i) {
    if (i == body.size() || body[i] == ':') {
      if (count == 3) {
        // At the ':' that opened a fourth pin.
        return TextErrorAt(text, begin + start, "too many ':' fields (expected pieces:L:T:c)");
      }
      starts[count] = begin + start;
      fields[count++] = body.substr(start, i - start);
      start = i + 1;
    }
  }
  if (count != 3) {
    return TextErrorAt(text, begin + body.size() + 1,
                       "expected three pins after the pieces, ':timeline:turn:colour' ('*' for "
                       "any)");
  }
  // A relative pin: "=", "=+N", "=-N"; false when the field is not one.
  auto relative = [](std::string_view field, std::optional<int>* offset) {
    if (field.empty() || field.front() != '=') return false;
    field.remove_prefix(1);
    int value = 0;
    if (field.empty()) {
      *offset = 0;
      return true;
    }
    const bool negative = field.front() == '-';
    if (field.front() != '+' && field.front() != '-') return false;
    field.remove_prefix(1);
    if (!ParseNumber(field, &value) || value < 0 || value > kMaxHalfTurn) return false;
    *offset = negative ? -value : value;
    return true;
  };
  if (!fields[0].empty() && fields[0].front() == '=') {
    if (!relative(fields[0], &pattern.timeline_offset)) {
      return TextErrorAt(text, starts[0] + 1,
                         "timeline '" + std::string(fields[0]) +
                             "' is not =, =+N or =-N (relative to the previous "
                             "pattern's board)");
    }
  } else if (fields[0] != "*") {
    std::string_view l = fields[0];
    BoardPattern::TimelinePin pin;
    if (!l.empty() && (l.front() == '-' || l.front() == '+')) {
      pin.negative = l.front() == '-';
      l.remove_prefix(1);
    }
    if (!ParseNumber(l, &pin.magnitude) || pin.magnitude < 0 || pin.magnitude > kMaxTimelineIndex) {
      return TextErrorAt(
          text, starts[0] + 1,
          "timeline '" + std::string(fields[0]) + "' is not a timeline (0, +1, -1, -0, +0) or '*'");
    }
    pattern.timeline = pin;
  }
  if (!fields[1].empty() && fields[1].front() == '=') {
    if (!relative(fields[1], &pattern.turn_offset)) {
      return TextErrorAt(text, starts[1] + 1,
                         "turn '" + std::string(fields[1]) +
                             "' is not =, =+N or =-N (relative to the previous "
                             "pattern's board)");
    }
  } else if (fields[1] != "*") {
    int turn = 0;
    if (!ParseNumber(fields[1], &turn) || turn < 0 || turn > kMaxHalfTurn / 2) {
      return TextErrorAt(text, starts[1] + 1,
                         "turn '" + std::string(fields[1]) + "' is not a turn number or '*'");
    }
    pattern.turn = turn;
  }
  if (fields[2] == "=") {
    pattern.same_color = true;
  } else if (fields[2] != "*") {
    if (fields[2] != "w" && fields[2] != "b") {
      return TextErrorAt(text, starts[2] + 1,
                         "colour '" + std::string(fields[2]) + "' is not w, b, = or '*'");
    }
    pattern.color = fields[2] == "w" ? Color::kWhite : Color::kBlack;
  }
  return pattern;
}

}  // namespace fived
