// The first layer of the 5dpgn reader: cutting a stream into the texts of its games, each with its
// place in the stream, without reading the stream whole and without parsing the games
// (core/pgn_syntax.h parses one game's text). The indexer's reader thread runs it over files and
// archive members; nothing here fails: any bytes cut into games.
#ifndef FIVED_CORE_GAME_SPLITTER_H_
#define FIVED_CORE_GAME_SPLITTER_H_

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

namespace fived {

// One game's text as cut from a stream.
struct RawGame {
  // The game's bytes, exactly as in the file (no BOM); for an oversized game only its first
  // GameSplitter::kKeptBytes.
  std::string text;
  uint64_t byte_offset = 0;  // offset of text[0] in the file (after a BOM, the BOM counts)
  int first_line = 1;        // line number of text[0] in the file
  int index = 0;             // 1-based order of the game in the file
  // When the game is longer than GameSplitter::kMaxGameBytes: its length in bytes (no game is
  // that long; such a "game" is junk, or a decompression bomb). Else 0.
  uint64_t oversized = 0;
};

// Cuts a stream into games without reading it whole: memory is bounded by the largest game, and
// by kMaxGameBytes whatever the input.
// A game is an optional block of header lines ('[' at the start of a line, after optional spaces)
// followed by movetext. A new game starts at a header line that follows movetext, or at
// non-blank text that follows a blank line after a game's movetext ended with a result token
// (1-0, 0-1, 1/2-1/2, *). A header line that follows a blank line after a header block with no
// movetext also starts a new game (so "[Event \"x\"]\n\n[Event \"y\"]\n" is two empty games).
// A line is a header line when it starts as a header or a 5DFEN board line does; other lines
// that start with '[' are text (a chat's "[12:34 PM] alice" before a game is not the game's
// header block), and since movetext never holds a '[', such a line after movetext starts a new
// piece of text as a header line would start a new game.
// Comments {...} may span lines and hide '[' and blank lines. A Markdown code fence (a line of
// three or more backticks, maybe followed by a word such as "5dpgn"), as games pasted in a chat
// come, belongs to no game and ends the game before it. Leading UTF-8 BOM, CRLF and a
// missing final newline are accepted. Blank-only input yields no game. A game's text runs from the
// start of its first non-blank line to the end (line break included) of its last non-blank line;
// blank lines between games belong to no game. Not thread-safe; the stream must outlive it.
class GameSplitter {
 public:
  // Memory is bounded by this, however long a game (or a run of junk) is: past it, only a game's
  // first kKeptBytes are kept, and the rest is scanned for where the next game starts.
  static constexpr uint64_t kMaxGameBytes = 16 << 20;
  static constexpr size_t kKeptBytes = 4096;

  // Where a stream starts, when it is read from the start of a game other than the first (the
  // indexer reads a file that grew from where its last game started): the stream's first byte is
  // at file offset `offset`, the start of line `line`, and `games` games came before it. Offsets,
  // lines and game numbers then count as in the whole file; no BOM is looked for.
  struct Start {
    uint64_t offset = 0;
    int line = 1;
    int games = 0;
  };

  explicit GameSplitter(std::istream& in);
  GameSplitter(std::istream& in, const Start& start);
  // The next game, or nullopt at the end of the stream. Never throws on bad bytes.
  std::optional<RawGame> Next();

 private:
  enum class LineKind : uint8_t { kUndecided, kHeader, kMovetext, kFence };

  bool Fill();                          // reads one more chunk; false at the end of the stream
  std::optional<RawGame> Step(char c);  // classifies the byte at scan_, maybe closing a game
  void HeaderByte(char c);              // a byte of a header line other than its end
  // Whether the line whose first visible byte, a backtick, was just scanned is a code fence;
  // reads ahead to the line's end (a fence is short: kMaxFenceLine bytes at most).
  bool FenceLine();
  static constexpr size_t kMaxFenceLine = 64;
  // Whether the line whose first visible byte, '[', was just scanned starts as a header or a
  // 5DFEN board line does ("[Name "..." or "[pieces:timeline:turn:colour]", as pgn_syntax.h reads
  // them); a line that starts otherwise ("[01-Jan-21 12:34 PM] alice", a chat's message line) is
  // text. Reads ahead up to kMaxHeaderLook bytes; a longer first word counts as a header's.
  bool HeaderLine();
  static constexpr size_t kMaxHeaderLook = 4096;
  // The bytes of the current line from `from` on, as far as its end or `limit` bytes, reading
  // ahead in the stream as needed.
  std::string_view LookAhead(uint64_t from, size_t limit);
  // Once the line's kind is known, takes the bytes from scan_ on that Step would only note (up to
  // the line end, the end of a comment, a movetext token's end or the end of the buffer), as
  // Step would byte by byte.
  void TakeBytes();
  void StartGame();    // a game starts at the current line
  RawGame TakeGame();  // the current game's text, as cut so far
  void EndLine(uint64_t next_line_start);
  void EndToken();

  // All offsets are file offsets. The buffer keeps the bytes from the start of the current game
  // (or of the current line between games) to what was read last.
  std::istream& in_;
  std::string buffer_;
  uint64_t buffer_offset_ = 0;  // file offset of buffer_[0]
  uint64_t scan_ = 0;           // next byte to classify
  bool started_ = false;
  bool eof_ = false;
  bool finished_ = false;

  // The line being scanned.
  uint64_t line_start_ = 0;
  int line_ = 1;
  LineKind line_kind_ = LineKind::kUndecided;
  bool line_has_content_ = false;
  bool in_comment_ = false;  // inside {...}, which may span lines
  bool in_quote_ = false;    // inside a header value
  bool escape_ = false;      // after a backslash inside a header value
  char token_[8] = {};       // the first bytes of the current movetext token
  size_t token_len_ = 0;

  // The game being cut.
  bool in_game_ = false;
  bool oversized_ = false;  // the game outgrew kMaxGameBytes: its head is kept apart
  std::string oversized_head_;
  uint64_t game_start_ = 0;
  uint64_t game_end_ = 0;  // end of its last non-blank line so far
  int game_line_ = 1;
  bool has_movetext_ = false;
  bool blank_in_headers_ = false;    // a blank line followed a header-only block
  bool ended_with_result_ = false;   // the last movetext token was a result
  bool blank_after_result_ = false;  // ... and a blank line followed it
  int games_ = 0;
};

}  // namespace fived

#endif  // FIVED_CORE_GAME_SPLITTER_H_
