// The syntax layer of the 5dpgn reader (see pgn_syntax.h). ParseGameSyntax is a hand-written
// scanner: headers and 5DFEN lines first, then movetext tokens; each move token is read left to
// right with no backtracking beyond a lookahead of one board reference.
#include "core/pgn_syntax.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace fived {
namespace {

// Offending tokens are cut to this many bytes, so that a 10 MB run of junk makes a short message.
constexpr size_t kMaxErrorToken = 64;
// More digits than this in a turn or timeline number is junk, not a number (and would overflow).
constexpr int kMaxDigits = 9;
// Side lines are checked by a nested parser; junk such as 100,000 '(' must not exhaust the stack.
constexpr int kMaxVariationDepth = 16;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// 5D chess boards are at most 8x8.
// Boards are up to 16x16: files a to p, ranks 1 to 16.
bool IsFile(char c) { return c >= 'a' && c <= 'p'; }
bool IsRank(char c) { return c >= '1' && c <= '9'; }
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsPieceLetter(char c) { return c != 0 && std::strchr("PWKCQYSNRBUD", c) != nullptr; }
char ToLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

// ---------------------------------------------------------------------------------------------
// ParseGameSyntax

const Header* SyntaxGame::FindHeader(std::string_view name) const {
  for (const Header& header : headers) {
    if (header.name.size() != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < name.size() && same; ++i) {
      same = ToLower(header.name[i]) == ToLower(name[i]);
    }
    if (same) return &header;
  }
  return nullptr;
}

namespace {

// A hint token: "(~T4)", "(>L2)", "(>L-4)", "(+L1)".
struct Hint {
  std::optional<int> present_turn;
  std::optional<BoardRef> new_timeline;
};

class SyntaxParser {
 public:
  // `first_column` is the column of text[0]; it differs from 1 only for side lines.
  SyntaxParser(std::string_view text, int first_line, int first_column = 1, int depth = 0)
      : text_(text), first_line_(first_line), first_column_(first_column), depth_(depth) {}

  SyntaxResult Parse() {
    // A byte-order mark is the splitter's business, but a caller may hand over a whole file.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") p_ = 3;
    if (ParseHeaders() && ParseMovetext()) Finish();
    return std::move(out_);
  }

 private:
  // A comment as read, before it is known whether its sub-turn is listed.
  struct PendingComment {
    std::string text;
    int action_id;  // -1 when outside any sub-turn
    size_t sequence;
  };

  char At(size_t offset) const { return offset < text_.size() ? text_[offset] : '\0'; }
  bool StartsWith(size_t offset, std::string_view prefix) const {
    return text_.substr(std::min(offset, text_.size())).substr(0, prefix.size()) == prefix;
  }
  // Where a move or an annotation ends.
  bool IsDelimiter(size_t offset) const {
    const char c = At(offset);
    return offset >= text_.size() || IsSpace(c) || c == '{' || c == '/';
  }

  // Positions are asked for in increasing order, except for errors; keep a cursor.
  TextPos PosAt(size_t offset) {
    if (offset < pos_offset_) pos_offset_ = pos_line_ = pos_line_start_ = 0;
    while (pos_offset_ < offset) {
      const void* newline = std::memchr(text_.data() + pos_offset_, '\n', offset - pos_offset_);
      if (newline == nullptr) {
        pos_offset_ = offset;
        break;
      }
      pos_offset_ = static_cast<size_t>(static_cast<const char*>(newline) - text_.data()) + 1;
      ++pos_line_;
      pos_line_start_ = pos_offset_;
    }
    const int column = static_cast<int>(offset - pos_line_start_) + 1;
    return TextPos{first_line_ + pos_line_, pos_line_ == 0 ? column + first_column_ - 1 : column};
  }

  // The whitespace-delimited token at `offset`, cut to kMaxErrorToken bytes.
  std::string TokenAt(size_t offset) const {
    size_t end = offset;
    while (end < text_.size() && end - offset < kMaxErrorToken && !IsSpace(text_[end])) ++end;
    return std::string(text_.substr(offset, end - offset));
  }
  // The rest of the line at `offset` (without its line break), cut to kMaxErrorToken bytes.
  std::string LineAt(size_t offset) const {
    size_t end = offset;
    while (end < text_.size() && end - offset < kMaxErrorToken && text_[end] != '\n' &&
           text_[end] != '\r') {
      ++end;
    }
    return std::string(text_.substr(offset, end - offset));
  }

  bool Fail(size_t offset, std::string token, std::string reason) {
    if (out_.status.ok())
      out_.status = TextErrorAt(PosAt(offset), std::move(token), std::move(reason));
    return false;
  }

  void SkipSpace() {
    while (p_ < text_.size() && IsSpace(text_[p_])) ++p_;
  }

  // Reads 1 to kMaxDigits digits at `*offset`.
  bool ReadNumber(size_t* offset, int* value) const {
    int digits = 0;
    int number = 0;
    while (IsDigit(At(*offset))) {
      if (++digits > kMaxDigits) return false;
      number = number * 10 + (At(*offset) - '0');
      ++*offset;
    }
    *value = number;
    return digits > 0;
  }
  void SkipBlanks(size_t* offset) const {
    while (At(*offset) == ' ' || At(*offset) == '\t') ++*offset;
  }
  // An optional sign then a number: "-1", "+0", "3".
  bool ReadSigned(size_t* offset, BoardRef* ref) const {
    if (At(*offset) == '+' || At(*offset) == '-') {
      ref->explicit_sign = true;
      ref->negative = At(*offset) == '-';
      ++*offset;
    }
    return ReadNumber(offset, &ref->timeline);
  }

  // "(0T1)", "(-1T6)", "(+0T3)", "(L-1 T6)", "(L0T1)"; returns the offset past ')'.
  std::optional<size_t> MatchBoard(size_t offset, BoardRef* out) const {
    if (At(offset) != '(') return std::nullopt;
    size_t q = offset + 1;
    SkipBlanks(&q);
    if (At(q) == 'L') {
      ++q;
      SkipBlanks(&q);
    }
    BoardRef ref;
    if (!ReadSigned(&q, &ref)) return std::nullopt;
    SkipBlanks(&q);
    if (At(q) != 'T') return std::nullopt;
    ++q;
    SkipBlanks(&q);
    if (!ReadNumber(&q, &ref.turn)) return std::nullopt;
    SkipBlanks(&q);
    if (At(q) != ')') return std::nullopt;
    if (out != nullptr) *out = ref;
    return q + 1;
  }

  // "(~T4)", "(>L2)", "(>L+3)", "(>L-4)", "(+L1)", "(+L-2)"; returns the offset past ')'.
  std::optional<size_t> MatchHint(size_t offset, Hint* out) const {
    if (At(offset) != '(') return std::nullopt;
    size_t q = offset + 1;
    Hint hint;
    if (At(q) == '~') {
      ++q;
      SkipBlanks(&q);
      if (At(q) != 'T') return std::nullopt;
      ++q;
      int turn = 0;
      if (!ReadNumber(&q, &turn)) return std::nullopt;
      hint.present_turn = turn;
    } else if (At(q) == '>' || At(q) == '+') {
      ++q;
      SkipBlanks(&q);
      if (At(q) != 'L') return std::nullopt;
      ++q;
      BoardRef timeline;
      if (!ReadSigned(&q, &timeline)) return std::nullopt;
      hint.new_timeline = timeline;
    } else {
      return std::nullopt;
    }
    SkipBlanks(&q);
    if (At(q) != ')') return std::nullopt;
    if (out != nullptr) *out = hint;
    return q + 1;
  }

  // A piece letter, or one of 5d-chess-js's two-letter names. Returns its length, 0 if none.
  size_t MatchPiece(size_t offset, char* piece) const {
    static constexpr struct {
      char first, second, piece;
    } kLongNames[] = {{'R', 'Q', 'Y'}, {'P', 'R', 'S'}, {'B', 'R', 'W'}, {'C', 'K', 'C'}};
    for (const auto& name : kLongNames) {
      if (At(offset) == name.first && At(offset + 1) == name.second) {
        *piece = name.piece;
        return 2;
      }
    }
    if (!IsPieceLetter(At(offset))) return 0;
    *piece = At(offset);
    return 1;
  }

  // --- Headers -------------------------------------------------------------------------------

  bool ParseHeaders() {
    for (;;) {
      SkipSpace();
      if (At(p_) != '[') return true;
      if (!ParseBracket()) return false;
    }
  }

  bool ParseBracket() {
    const size_t start = p_;
    size_t q = start + 1;
    while (q < text_.size() && !IsSpace(text_[q]) && text_[q] != ']' && text_[q] != '"' &&
           text_[q] != '[') {
      ++q;
    }
    const std::string_view word = text_.substr(start + 1, q - start - 1);
    if (At(q) == ']' && word.find(':') != std::string_view::npos) {
      out_.game.boards.push_back(FenLine{std::string(word), PosAt(start)});
      p_ = q + 1;
      return true;
    }
    if (word.empty()) return Fail(start, LineAt(start), "malformed header");
    SkipBlanks(&q);
    if (At(q) != '"') return Fail(start, LineAt(start), "malformed header");
    ++q;
    std::string value;
    for (;;) {
      // Copy runs of plain bytes at once; stop at a quote, an escape or the end of the line.
      size_t run_end = q;
      while (run_end < text_.size() && text_[run_end] != '"' && text_[run_end] != '\\' &&
             text_[run_end] != '\n' && text_[run_end] != '\r') {
        ++run_end;
      }
      value.append(text_.substr(q, run_end - q));
      q = run_end;
      if (q >= text_.size() || text_[q] == '\n' || text_[q] == '\r') {
        return Fail(start, LineAt(start), "header value is not terminated");
      }
      if (text_[q] == '"') break;
      // A backslash escapes a quote or a backslash; before anything else it is itself.
      if (At(q + 1) == '"' || At(q + 1) == '\\') ++q;
      value.push_back(text_[q++]);
    }
    ++q;
    SkipBlanks(&q);
    if (At(q) != ']') return Fail(start, LineAt(start), "expected ']' after the header value");
    out_.game.headers.push_back(Header{std::string(word), std::move(value), PosAt(start)});
    p_ = q + 1;
    return true;
  }

  // --- Movetext ------------------------------------------------------------------------------

  bool ParseMovetext() {
    for (;;) {
      const size_t space_start = p_;
      SkipSpace();
      if (p_ > space_start &&
          std::memchr(text_.data() + space_start, '\n', p_ - space_start) != nullptr) {
        line_break_since_token_ = true;
      }
      if (p_ >= text_.size()) return true;
      if (text_[p_] == '{') {
        if (!ParseComment()) return false;
        continue;
      }
      if (!ParseToken()) return false;
      line_break_since_token_ = false;
    }
  }

  // Any token but a comment, at p_.
  bool ParseToken() {
    const size_t start = p_;
    const char c = text_[start];
    if (!out_.game.result.empty()) {
      return Fail(start, TokenAt(start), "unexpected token after the result");
    }
    if (c == '[') return Fail(start, LineAt(start), "header after the movetext");
    if (TryResult()) return true;
    bool marker = false;
    if (!ParseMarker(&marker)) return false;
    if (marker) return true;
    if (c == '/') return ParseSlash();
    if (c == '(') {
      if (MatchHint(start, nullptr)) return ParseLooseAnnotation();
      if (MatchBoard(start, nullptr)) return ParseMove();
      return ParseVariation();
    }
    if (c == '~' || c == '!' || c == '?') return ParseLooseAnnotation();
    if (IsFile(c) || c == 'x' || IsUpper(c) || c == '0') return ParseMove();
    return Fail(start, TokenAt(start), "unexpected token");
  }

  bool ParseComment() {
    const size_t start = p_;
    const size_t close = text_.find('}', start + 1);
    if (close == std::string_view::npos) {
      return Fail(start, TokenAt(start), "unterminated comment");
    }
    comments_.push_back(PendingComment{std::string(text_.substr(start + 1, close - start - 1)),
                                       action_open_ ? action_id_ : -1, sequence_++});
    p_ = close + 1;
    return true;
  }

  // "( ... )" that is neither a board nor a hint: a side line. It must be valid movetext itself
  // (checked by a nested parser, so errors inside keep their exact positions) and is kept as text.
  bool ParseVariation() {
    const size_t start = p_;
    int depth = 0;
    size_t q = start;
    while (q < text_.size()) {
      const char c = text_[q];
      if (c == '{') {
        const size_t close = text_.find('}', q + 1);
        if (close == std::string_view::npos) return Fail(q, TokenAt(q), "unterminated comment");
        q = close + 1;
        continue;
      }
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) break;
      ++q;
    }
    if (q >= text_.size()) return Fail(start, TokenAt(start), "unterminated variation");
    const std::string_view inner = text_.substr(start + 1, q - start - 1);
    // "(0T)e4", "(1,1)e4" and the like: a board reference gone wrong, not a side line.
    if (inner.find_first_of(" \t\r\n") == std::string_view::npos &&
        (inner.find('T') != std::string_view::npos || !IsDelimiter(q + 1))) {
      return Fail(start, TokenAt(start), "malformed board reference");
    }
    if (depth_ >= kMaxVariationDepth) {
      return Fail(start, TokenAt(start), "variations nested too deeply");
    }
    const TextPos inner_pos = PosAt(start + 1);
    SyntaxParser side_line(inner, inner_pos.line, inner_pos.column, depth_ + 1);
    if (!side_line.ParseMovetext()) {
      if (out_.status.ok()) out_.status = std::move(side_line.out_.status);
      return false;
    }
    out_.game.variations.emplace_back(inner);
    p_ = q + 1;
    return true;
  }

  // "1-0", "0-1", "1/2-1/2" or a lone "*"; true when one was read.
  bool TryResult() {
    for (std::string_view result : {"1/2-1/2", "1-0", "0-1", "*"}) {
      const size_t end = p_ + result.size();
      if (StartsWith(p_, result) &&
          (end >= text_.size() || IsSpace(text_[end]) || text_[end] == '{')) {
        CloseAction();
        out_.game.result = std::string(result);
        p_ = end;
        return true;
      }
    }
    return false;
  }

  // "12.", "12w.", "12b.", "12...", "w.", "b."; may be glued to the first move ("1.e4").
  bool ParseMarker(bool* handled) {
    const size_t start = p_;
    size_t q = start;
    int number = 0;
    const bool numbered = IsDigit(At(q));
    if (numbered && !ReadNumber(&q, &number)) {
      return Fail(start, TokenAt(start), "malformed turn number");
    }
    char colour = 0;
    if (At(q) == 'w' || At(q) == 'b') colour = At(q++);
    if (At(q) != '.' || (!numbered && colour == 0)) return true;  // not a marker
    const size_t dots_start = q;
    while (At(q) == '.') ++q;
    const size_t dots = q - dots_start;
    const bool black = colour == 'b' || (colour == 0 && dots >= 3);
    OpenAction(black, number, start);
    current_turn_ = number;
    p_ = q;
    *handled = true;
    return true;
  }

  bool ParseSlash() {
    const size_t start = p_;
    if (action_open_ && action_.black) {
      return Fail(start, TokenAt(start), "a second '/' in one turn");
    }
    OpenAction(/*black=*/true, action_open_ ? action_.turn_number : current_turn_, start);
    ++p_;
    return true;
  }

  // "~", "!?", "(~T4)", "(>L2)" and such written as their own token after a move.
  bool ParseLooseAnnotation() {
    const size_t start = p_;
    SyntaxMove* move = LastMove();
    if (move == nullptr) return Fail(start, TokenAt(start), "annotation without a move");
    return ParseSuffixes(start, move);
  }

  SyntaxMove* LastMove() {
    if (!action_open_ || action_.moves.empty()) return nullptr;
    return &action_.moves.back();
  }

  // Check marks, '~', glyphs and glued hints after a move, in any order, up to a delimiter.
  bool ParseSuffixes(size_t token_start, SyntaxMove* move) {
    while (!IsDelimiter(p_)) {
      const char c = text_[p_];
      if (c == '+') {
        move->check = true;
      } else if (c == '#') {
        move->mate = true;
      } else if (c == '*') {
        move->softmate = true;
      } else if (c == '~') {
        move->present_moved = true;
      } else if (c == '!' || c == '?') {
        size_t end = p_;
        while (At(end) == '!' || At(end) == '?') ++end;
        const std::string_view glyph = text_.substr(p_, end - p_);
        if (glyph != "!" && glyph != "?" && glyph != "!!" && glyph != "??" && glyph != "!?" &&
            glyph != "?!") {
          return Fail(token_start, TokenAt(token_start), "unknown annotation glyph");
        }
        move->glyphs.append(glyph);
        p_ = end;
        continue;
      } else if (c == '(') {
        Hint hint;
        std::optional<size_t> end = MatchHint(p_, &hint);
        if (!end) return Fail(token_start, TokenAt(token_start), "unexpected token");
        if (hint.present_turn) move->present_turn_hint = hint.present_turn;
        if (hint.new_timeline) move->new_timeline_hint = hint.new_timeline;
        p_ = *end;
        continue;
      } else {
        return Fail(token_start, TokenAt(token_start), "unexpected token");
      }
      ++p_;
    }
    return true;
  }

  // One move token, with its board prefix and suffixes; p_ is at its first byte.
  bool ParseMove() {
    const size_t start = p_;
    SyntaxMove move;
    move.pos = PosAt(start);
    size_t q = start;
    if (At(q) == '(') {
      BoardRef source;
      std::optional<size_t> end = MatchBoard(q, &source);
      if (!end) return Fail(start, TokenAt(start), "malformed board reference");
      move.source = source;
      q = *end;
    }
    if (StartsWith(q, "O-O-O") || StartsWith(q, "0-0-0")) {
      move.castle = SyntaxMove::Castle::kQueenside;
      q += 5;
    } else if (StartsWith(q, "O-O") || StartsWith(q, "0-0")) {
      move.castle = SyntaxMove::Castle::kKingside;
      q += 3;
    } else if (StartsWith(q, "0000")) {
      move.null_move = true;
      q += 4;
    } else if (!ParsePhysical(start, &q, &move)) {
      return false;
    }
    // The text keeps the marks that belong to the move itself, not glyphs or hints.
    size_t text_end = q;
    while (At(text_end) == '+' || At(text_end) == '#' || At(text_end) == '*' ||
           At(text_end) == '~') {
      ++text_end;
    }
    move.text = std::string(text_.substr(start, text_end - start));
    p_ = q;
    if (!ParseSuffixes(start, &move)) return false;
    AddMove(start, std::move(move));
    return true;
  }

  // A rank at *q (IsRank holds there): "1".."9", or "10".."16" on large boards. Returns it
  // zero-based and moves *q past it.
  int ParseRank(size_t* q) const {
    int rank = At(*q) - '0';
    ++*q;
    const char next = At(*q);
    if (rank == 1 && next >= '0' && next <= '6') {
      rank = 10 + (next - '0');
      ++*q;
    }
    return rank - 1;
  }

  // Piece, squares, jump and promotion of a physical move, from `*q`.
  bool ParsePhysical(size_t start, size_t* q, SyntaxMove* move) {
    if (IsUpper(At(*q))) {
      const size_t length = MatchPiece(*q, &move->piece);
      if (length == 0) return Fail(start, TokenAt(start), "unknown piece letter");
      *q += length;
    }
    // Files, ranks and separators before the destination: "e4", "bxc3", "N1c3", "e2-e4".
    struct Element {
      char kind;  // 'F' file, 'R' rank, 'x' capture, '-' long-algebraic dash
      int value;  // file 0 = 'a', rank 0 = '1'
    };
    Element elements[6];
    int count = 0;
    while (count < 6) {
      const char c = At(*q);
      if (IsFile(c)) {
        elements[count++] = {'F', c - 'a'};
      } else if (IsRank(c)) {
        elements[count++] = {'R', ParseRank(q)};
        continue;
      } else if (c == 'x' || c == '-') {
        elements[count++] = {c, 0};
      } else {
        break;
      }
      ++*q;
    }
    const bool full_square = count == 2 && elements[0].kind == 'F' && elements[1].kind == 'R';
    const bool board_follows = At(*q) == '(' && MatchBoard(*q, nullptr).has_value();
    if (At(*q) == '>' || (board_follows && full_square)) {
      // A jump. Before it stands the source square, or only the piece (ftxi's "K>>(0T2)c3").
      if (full_square) {
        move->from_file = elements[0].value;
        move->from_rank = elements[1].value;
      } else if (count != 0 || move->piece == 0) {
        return Fail(start, TokenAt(start), "malformed move");
      }
      if (At(*q) == '>') {
        const size_t arrows_start = *q;
        while (At(*q) == '>') ++*q;
        const size_t arrows = *q - arrows_start;
        if (arrows > 2) return Fail(start, TokenAt(start), "malformed move");
        move->jump = arrows == 1 ? SyntaxMove::Jump::kNonBranching : SyntaxMove::Jump::kBranching;
        if (At(*q) == 'x') {
          move->capture = true;
          ++*q;
        }
        if (At(*q) == '(') {
          BoardRef target;
          std::optional<size_t> end = MatchBoard(*q, &target);
          if (!end) return Fail(start, TokenAt(start), "malformed board reference");
          move->target = target;
          *q = *end;
        }
      } else {
        move->jump = SyntaxMove::Jump::kUnmarked;
        BoardRef target;
        *q = *MatchBoard(*q, &target);
        move->target = target;
        if (At(*q) == 'x') {
          move->capture = true;
          ++*q;
        }
      }
      if (!IsFile(At(*q)) || !IsRank(At(*q + 1))) {
        return Fail(start, TokenAt(start), "missing destination square");
      }
      move->to_file = At(*q) - 'a';
      ++*q;
      move->to_rank = ParseRank(q);
    } else {
      if (count < 2 || elements[count - 2].kind != 'F' || elements[count - 1].kind != 'R') {
        const bool nothing = count == 0 || (count == 1 && elements[0].kind == 'x');
        return Fail(start, TokenAt(start),
                    nothing ? "missing destination square" : "malformed move");
      }
      move->to_file = elements[count - 2].value;
      move->to_rank = elements[count - 1].value;
      // What precedes the destination: an optional separator, right before it, after an optional
      // file, rank or square.
      int before = count - 2;
      char separator = 0;
      if (before > 0 && (elements[before - 1].kind == 'x' || elements[before - 1].kind == '-')) {
        separator = elements[--before].kind;
      }
      if (before == 2 && elements[0].kind == 'F' && elements[1].kind == 'R') {
        move->from_file = elements[0].value;
        move->from_rank = elements[1].value;
      } else if (before == 1 && elements[0].kind == 'F') {
        move->from_file = elements[0].value;
      } else if (before == 1 && elements[0].kind == 'R') {
        move->from_rank = elements[0].value;
      } else if (before != 0) {
        return Fail(start, TokenAt(start), "malformed move");
      }
      if (separator == '-' && before != 2) return Fail(start, TokenAt(start), "malformed move");
      move->capture = separator == 'x';
    }
    // Promotion: "=Q", or the letter glued on ("e8Q").
    const bool equals = At(*q) == '=';
    if (equals || IsPieceLetter(At(*q))) {
      const size_t letter = *q + (equals ? 1 : 0);
      const size_t length = MatchPiece(letter, &move->promotion);
      if (length == 0) return Fail(start, TokenAt(start), "malformed promotion");
      *q = letter + length;
    }
    return true;
  }

  // --- Sub-turns -----------------------------------------------------------------------------

  void OpenAction(bool black, int turn_number, size_t offset) {
    CloseAction();
    action_ = SyntaxAction{};
    // Most actions have a move per timeline, a few timelines: one allocation for them.
    action_.moves.reserve(4);
    action_.black = black;
    action_.turn_number = turn_number;
    action_.pos = PosAt(offset);
    action_open_ = true;
    action_id_ = static_cast<int>(action_index_.size());
    action_index_.push_back(-1);
  }

  void CloseAction() {
    if (!action_open_) return;
    action_open_ = false;
    last_black_ = action_.black;
    if (action_.moves.empty()) return;
    action_index_[action_id_] = static_cast<int>(out_.game.actions.size());
    out_.game.actions.push_back(std::move(action_));
  }

  void AddMove(size_t start, SyntaxMove move) {
    // Without a marker, a move that starts a line after a sub-turn with moves opens the next
    // sub-turn. Only line breaks between tokens count: not those inside a comment, and a comment
    // before the move on its line does not make it any less the first move of the line.
    const bool starts_line = line_break_since_token_;
    if (!action_open_) {
      OpenAction(last_black_.has_value() && !*last_black_, 0, start);
    } else if (!action_.moves.empty() && starts_line) {
      OpenAction(!action_.black, 0, start);
    }
    if (action_.moves.empty()) action_.pos = move.pos;
    action_.moves.push_back(std::move(move));
    last_move_sequence_ = sequence_++;
    any_move_ = true;
  }

  void Finish() {
    CloseAction();
    // Comments go to their sub-turn, except those after the game's last move and those of
    // sub-turns with no move.
    for (PendingComment& comment : comments_) {
      const int index = comment.action_id < 0 ? -1 : action_index_[comment.action_id];
      if (index >= 0 && any_move_ && comment.sequence < last_move_sequence_) {
        out_.game.actions[index].comments.push_back(std::move(comment.text));
      } else {
        out_.game.comments.push_back(std::move(comment.text));
      }
    }
  }

  std::string_view text_;
  int first_line_;
  int first_column_;
  int depth_;  // of side lines
  size_t p_ = 0;
  bool line_break_since_token_ = false;  // outside comments, since the last non-comment token

  size_t pos_offset_ = 0;
  int pos_line_ = 0;
  size_t pos_line_start_ = 0;

  SyntaxAction action_;
  bool action_open_ = false;
  int action_id_ = -1;
  std::vector<int> action_index_;  // action id -> index in game.actions, -1 when not listed
  std::optional<bool> last_black_;
  int current_turn_ = 0;

  std::vector<PendingComment> comments_;
  size_t sequence_ = 0;  // orders comments and moves
  size_t last_move_sequence_ = 0;
  bool any_move_ = false;

  SyntaxResult out_;
};

}  // namespace

Status TextErrorAt(TextPos pos, std::string token, std::string reason, int action) {
  std::string message =
      "line " + std::to_string(pos.line) + ", col " + std::to_string(pos.column) + ": ";
  if (!token.empty()) message += token + ": ";
  message += reason;
  Place place;
  place.line = static_cast<size_t>(pos.line);
  place.column = static_cast<size_t>(pos.column);
  place.token = std::move(token);
  place.reason = std::move(reason);
  place.action = action;
  return Status::InvalidArgument(std::move(message)).At(std::move(place));
}

SyntaxResult ParseGameSyntax(std::string_view text, int first_line) {
  return SyntaxParser(text, first_line).Parse();
}

}  // namespace fived
