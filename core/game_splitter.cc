// The game splitter of game_splitter.h: a byte-at-a-time state machine over a chunked buffer, so
// that every byte is looked at once and moved O(1) times however the games are laid out.
#include "core/game_splitter.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <ios>
#include <string_view>
#include <utility>

namespace fived {
namespace {

// Bytes read from the stream at a time.
constexpr size_t kChunkSize = 64 * 1024;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool IsResult(std::string_view s) { return s == "1-0" || s == "0-1" || s == "1/2-1/2" || s == "*"; }

}  // namespace

GameSplitter::GameSplitter(std::istream& in) : in_(in) {}

GameSplitter::GameSplitter(std::istream& in, const Start& start)
    : in_(in),
      buffer_offset_(start.offset),
      scan_(start.offset),
      started_(start.offset > 0),
      line_start_(start.offset),
      line_(start.line),
      games_(start.games) {}

bool GameSplitter::Fill() {
  if (eof_) return false;
  // Drop what no game can need any more, but only once it is at least half of the buffer: each
  // byte is then moved O(1) times, however many tiny games there are.
  uint64_t keep_from = in_game_ ? game_start_ : line_start_;
  const uint64_t end = buffer_offset_ + buffer_.size();
  if (in_game_ && !oversized_ && end - game_start_ > kMaxGameBytes) {
    // No game is this long: keep its head for the message, and no more of it.
    oversized_ = true;
    oversized_head_.assign(buffer_, static_cast<size_t>(game_start_ - buffer_offset_), kKeptBytes);
  }
  // Of an oversized game nothing more is kept, but the current line's start while its kind is
  // undecided (a game may start there).
  if (oversized_) keep_from = line_kind_ == LineKind::kUndecided ? line_start_ : scan_;
  if (keep_from == line_start_ && end - line_start_ > kMaxGameBytes) {
    // 16 MiB of white space at the start of a line: a game on it starts after them.
    line_start_ = scan_;
    keep_from = scan_;
  }
  const size_t drop = static_cast<size_t>(keep_from - buffer_offset_);
  if (drop > 0 && drop >= buffer_.size() / 2) {
    buffer_.erase(0, drop);
    buffer_offset_ += drop;
  }
  const size_t old_size = buffer_.size();
  buffer_.resize(old_size + kChunkSize);
  size_t got = 0;
  try {
    in_.read(buffer_.data() + old_size, static_cast<std::streamsize>(kChunkSize));
    got = static_cast<size_t>(in_.gcount());
  } catch (const std::ios_base::failure&) {
    // A stream that throws at its end is treated like one that does not.
    got = static_cast<size_t>(in_.gcount());
    eof_ = true;
  }
  buffer_.resize(old_size + got);
  if (got == 0) eof_ = true;
  return got > 0;
}

void GameSplitter::StartGame() {
  in_game_ = true;
  oversized_ = false;
  game_start_ = line_start_;
  game_end_ = line_start_;
  game_line_ = line_;
  has_movetext_ = false;
  blank_in_headers_ = false;
  ended_with_result_ = false;
  blank_after_result_ = false;
  token_len_ = 0;
}

RawGame GameSplitter::TakeGame() {
  RawGame game;
  if (oversized_) {
    game.text = std::move(oversized_head_);
    game.oversized = game_end_ - game_start_;
    oversized_ = false;
  } else {
    game.text.assign(buffer_, static_cast<size_t>(game_start_ - buffer_offset_),
                     static_cast<size_t>(game_end_ - game_start_));
  }
  game.byte_offset = game_start_;
  game.first_line = game_line_;
  game.index = ++games_;
  return game;
}

void GameSplitter::EndToken() {
  if (token_len_ == 0) return;
  bool result = false;
  if (token_len_ <= sizeof(token_)) {
    std::string_view token(token_, token_len_);
    // "/ 1-0" is the usual spelling; "/1-0" is read as the same two tokens.
    if (token.front() == '/') token.remove_prefix(1);
    result = IsResult(token);
  }
  ended_with_result_ = result;
  blank_after_result_ = false;
  token_len_ = 0;
}

void GameSplitter::EndLine(uint64_t next_line_start) {
  EndToken();
  in_quote_ = false;
  escape_ = false;
  if (line_has_content_) {
    if (in_game_) game_end_ = next_line_start;
  } else if (in_game_) {
    if (!has_movetext_) {
      blank_in_headers_ = true;
    } else if (ended_with_result_) {
      blank_after_result_ = true;
    }
  }
  // A line that starts inside a comment continues the movetext whatever it holds.
  line_kind_ = in_comment_ ? LineKind::kMovetext : LineKind::kUndecided;
  line_has_content_ = in_comment_;
}

void GameSplitter::HeaderByte(char c) {
  if (in_quote_) {
    if (escape_) {
      escape_ = false;
    } else if (c == '\\') {
      escape_ = true;
    } else if (c == '"') {
      in_quote_ = false;
    }
  } else if (c == '"') {
    in_quote_ = true;
  } else if (c == '{') {
    in_comment_ = true;
    has_movetext_ = true;
  }
}

std::string_view GameSplitter::LookAhead(uint64_t from, size_t limit) {
  auto available = [&] { return buffer_offset_ + buffer_.size() - from; };
  auto has_line_end = [&] {
    const size_t at = static_cast<size_t>(from - buffer_offset_);
    return buffer_.find('\n', at) != std::string::npos;
  };
  while (!has_line_end() && available() < limit && Fill()) {
  }
  std::string_view line(buffer_.data() + (from - buffer_offset_),
                        static_cast<size_t>(std::min<uint64_t>(available(), limit)));
  return line.substr(0, line.find('\n'));
}

bool GameSplitter::FenceLine() {
  // The line from its backtick on, as far as a fence could go (one byte more tells a longer line).
  const std::string_view line = LookAhead(scan_ - 1, kMaxFenceLine + 1);
  size_t i = 0;
  while (i < line.size() && line[i] == '`') ++i;
  if (i < 3) return false;
  // An info word ("5dpgn", "pgn", "c++"), then white space only.
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_' ||
                             line[i] == '-' || line[i] == '+' || line[i] == '.')) {
    ++i;
  }
  while (i < line.size() && IsSpace(line[i])) ++i;
  return i == line.size() && line.size() <= kMaxFenceLine;
}

bool GameSplitter::HeaderLine() {
  const std::string_view line = LookAhead(scan_ - 1, kMaxHeaderLook);
  // The bracket's first word, as the reader takes it (pgn_syntax.cc, ParseBracket).
  size_t q = 1;
  while (q < line.size() && !IsSpace(line[q]) && line[q] != ']' && line[q] != '"' &&
         line[q] != '[') {
    ++q;
  }
  if (q == line.size() && line.size() >= kMaxHeaderLook) return true;  // too long to tell
  const std::string_view word = line.substr(1, q - 1);
  if (q < line.size() && line[q] == ']' && word.find(':') != std::string_view::npos) return true;
  if (word.empty()) return false;
  while (q < line.size() && (line[q] == ' ' || line[q] == '\t')) ++q;
  return q < line.size() && line[q] == '"';
}

std::optional<RawGame> GameSplitter::Step(char c) {
  std::optional<RawGame> finished;
  if (c == '\n') {
    EndLine(scan_ + 1);
    ++line_;
    line_start_ = ++scan_;
    return finished;
  }
  ++scan_;
  if (in_comment_) {
    if (c == '}') in_comment_ = false;
    return finished;
  }
  if (line_kind_ == LineKind::kUndecided) {
    if (IsSpace(c)) return finished;
    // The first visible byte of a line decides whether a new game starts here; a code fence
    // ends the game and belongs to none.
    if (c == '`' && FenceLine()) {
      line_kind_ = LineKind::kFence;
      if (in_game_) {
        finished = TakeGame();
        in_game_ = false;
      }
      return finished;
    }
    line_has_content_ = true;
    const bool header = c == '[' && HeaderLine();
    // Movetext never holds a '[': a bracket that is not a header starts text of its own after
    // movetext, as a header would start a game.
    const bool bracket_text = c == '[' && !header;
    if (!in_game_) {
      StartGame();
    } else if (header || bracket_text ? has_movetext_ || (header && blank_in_headers_)
                                      : blank_after_result_) {
      finished = TakeGame();
      StartGame();
    }
    line_kind_ = header ? LineKind::kHeader : LineKind::kMovetext;
    if (!header) has_movetext_ = true;
  }
  if (line_kind_ == LineKind::kHeader) {
    HeaderByte(c);
    return finished;
  }
  if (line_kind_ == LineKind::kFence) return finished;
  if (IsSpace(c) || c == '{') {
    EndToken();
    if (c == '{') in_comment_ = true;
  } else {
    if (token_len_ < sizeof(token_)) token_[token_len_] = c;
    if (token_len_ <= sizeof(token_)) ++token_len_;  // one past the buffer marks "too long"
  }
  return finished;
}

std::optional<RawGame> GameSplitter::Next() {
  if (!started_) {
    started_ = true;
    Fill();
    if (buffer_.compare(0, 3, "\xEF\xBB\xBF") == 0) scan_ = line_start_ = 3;
  }
  while (!finished_) {
    if (scan_ == buffer_offset_ + buffer_.size() && !Fill()) {
      EndLine(scan_);
      finished_ = true;
      if (!in_game_) return std::nullopt;
      in_game_ = false;
      return TakeGame();
    }
    if (line_kind_ != LineKind::kUndecided) TakeBytes();
    if (scan_ == buffer_offset_ + buffer_.size()) continue;
    std::optional<RawGame> game = Step(buffer_[static_cast<size_t>(scan_ - buffer_offset_)]);
    if (game) return game;
  }
  return std::nullopt;
}

void GameSplitter::TakeBytes() {
  // What Step does for these bytes, in tight loops: nearly every byte of a file is in a token, a
  // header line or a comment.
  const char* const begin = buffer_.data() + (scan_ - buffer_offset_);
  const char* const end = buffer_.data() + buffer_.size();
  const char* p = begin;
  if (in_comment_) {
    while (p < end && *p != '\n' && *p != '}') ++p;
    if (p < end && *p == '}') {
      in_comment_ = false;
      ++p;
    }
  } else if (line_kind_ == LineKind::kFence) {
    while (p < end && *p != '\n') ++p;
  } else if (line_kind_ == LineKind::kHeader) {
    while (p < end && *p != '\n') {
      HeaderByte(*p++);
      if (in_comment_) break;
    }
  } else {
    for (; p < end; ++p) {
      const char c = *p;
      if (IsSpace(c) || c == '{') break;
      if (token_len_ < sizeof(token_)) token_[token_len_] = c;
      if (token_len_ <= sizeof(token_)) ++token_len_;  // one past the buffer marks "too long"
    }
  }
  scan_ += static_cast<uint64_t>(p - begin);
}

}  // namespace fived
