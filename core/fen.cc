// 5DFEN reading and canonical writing.
#include "core/fen.h"

#include <bit>
#include <cctype>
#include <charconv>
#include <cstring>
#include <vector>

namespace fived {

namespace {

struct Row {
  std::vector<Piece> squares;
};

// Parses the pieces field into rows of squares; fails (kInvalidArgument) saying what is wrong.
Status ParseRows(std::string_view field, std::vector<Row>* rows) {
  rows->emplace_back();
  size_t i = 0;
  while (i < field.size()) {
    const char c = field[i];
    if (c == '/') {
      rows->emplace_back();
      ++i;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int run = 0;
      while (i < field.size() && std::isdigit(static_cast<unsigned char>(field[i]))) {
        run = run * 10 + (field[i] - '0');
        if (run > kMaxBoardSide) {
          return Status::InvalidArgument("run of " + std::to_string(run) +
                                         " empty squares is too long");
        }
        ++i;
      }
      for (int k = 0; k < run; ++k) rows->back().squares.push_back(Piece());
      continue;
    }
    if (c == '+') {
      return Status::InvalidArgument(std::string("unknown piece '+") +
                                     (i + 1 < field.size() ? field[i + 1] : ' ') + "'");
    }
    const PieceType type = PieceTypeFromLetter(c);
    if (type == PieceType::kNone || !std::isalpha(static_cast<unsigned char>(c))) {
      return Status::InvalidArgument(std::string("unknown piece letter '") + c + "'");
    }
    const Color color = std::isupper(static_cast<unsigned char>(c)) ? Color::kWhite : Color::kBlack;
    ++i;
    bool unmoved = false;
    if (i < field.size() && field[i] == '*') {
      unmoved = TracksUnmoved(type);
      ++i;
    }
    rows->back().squares.push_back(Piece(type, color, unmoved));
    if (rows->back().squares.size() > kMaxBoardSide) {
      return Status::InvalidArgument("row is wider than 16 squares");
    }
  }
  return Status();
}

bool ParseInt(std::string_view s, int* value) {
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *value);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

Result<FenBoard> ParseFenBoard(std::string_view text, int width, int height) {
  if (!text.empty() && text.front() == '[') text.remove_prefix(1);
  if (!text.empty() && text.back() == ']') text.remove_suffix(1);
  std::string_view fields[4];
  int nfields = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == ':') {
      if (nfields == 4) {
        return Status::InvalidArgument(
            "too many ':' fields (expected pieces:timeline:turn:colour)");
      }
      fields[nfields++] = text.substr(start, i - start);
      start = i + 1;
    }
  }
  if (nfields != 4) {
    return Status::InvalidArgument("expected 4 fields pieces:timeline:turn:colour");
  }

  std::vector<Row> rows;
  if (Status status = ParseRows(fields[0], &rows); !status.ok()) return status;
  const int nrows = static_cast<int>(rows.size());
  int widest = 0;
  for (const Row& r : rows) widest = std::max(widest, static_cast<int>(r.squares.size()));
  if (height == 0) height = nrows;
  if (width == 0) width = widest;
  if (width < 1 || height < 1 || width > kMaxBoardSide || height > kMaxBoardSide) {
    return Status::InvalidArgument("board size " + std::to_string(width) + "x" +
                                   std::to_string(height) + " is outside 1x1..16x16");
  }
  if (nrows != height) {
    return Status::InvalidArgument(std::to_string(nrows) + " rows, expected " +
                                   std::to_string(height));
  }
  FenBoard out;
  out.board = Board(width, height);
  for (int r = 0; r < nrows; ++r) {
    const int squares = static_cast<int>(rows[r].squares.size());
    if (squares != width) {
      return Status::InvalidArgument("row " + std::to_string(r + 1) + " has " +
                                     std::to_string(squares) + " squares, expected " +
                                     std::to_string(width));
    }
    const int rank = height - 1 - r;
    for (int f = 0; f < width; ++f) out.board.Set(f, rank, rows[r].squares[f]);
  }

  std::string_view tl = fields[1];
  if (!tl.empty() && (tl.front() == '+' || tl.front() == '-')) {
    out.timeline_negative = tl.front() == '-';
    tl.remove_prefix(1);
    if (tl == "0") out.timeline_signed_zero = true;
  }
  if (!ParseInt(tl, &out.timeline_magnitude) || out.timeline_magnitude < 0) {
    return Status::InvalidArgument("bad timeline '" + std::string(fields[1]) + "'");
  }
  if (!ParseInt(fields[2], &out.turn) || out.turn < 0) {
    return Status::InvalidArgument("bad turn '" + std::string(fields[2]) + "'");
  }
  if (fields[3] == "w" || fields[3] == "W") {
    out.color = Color::kWhite;
  } else if (fields[3] == "b" || fields[3] == "B") {
    out.color = Color::kBlack;
  } else {
    return Status::InvalidArgument("bad colour '" + std::string(fields[3]) + "' (expected w or b)");
  }
  return out;
}

namespace {

// The 5DFEN text of every piece byte (letter, and '*' where canonical), built once.
struct PieceTexts {
  char text[256][2];
  uint8_t length[256];
  PieceTexts() {
    for (int bits = 0; bits < 256; ++bits) {
      const Piece p = Piece::FromBits(static_cast<uint8_t>(bits));
      length[bits] = 0;
      // Byte values that no piece has (type codes 13 to 15) stay empty.
      if (p.empty() || static_cast<int>(p.type()) >= kPieceTypeCount) continue;
      const char letter = PieceLetter(p.type());
      text[bits][0] = p.color() == Color::kWhite ? letter : static_cast<char>(std::tolower(letter));
      length[bits] = 1;
      if (p.unmoved() && TracksUnmoved(p.type())) text[bits][length[bits]++] = '*';
    }
  }
};

const PieceTexts& Texts() {
  static const PieceTexts texts;
  return texts;
}

// Writes a run of empty squares (1 to 16) at `out`; returns the end.
char* PutRun(int run, char* out) {
  if (run >= 10) *out++ = static_cast<char>('0' + run / 10);
  *out++ = static_cast<char>('0' + run % 10);
  return out;
}

}  // namespace

namespace {

// At most two characters a square and a separator a row.
constexpr size_t kMaxFenPieces = 2 * kMaxSquares + kMaxBoardSide;

// Writes the pieces field of a board at `end`; returns the new end. May write up to 16 bytes
// past the end it returns (room for kMaxFenPieces + 16 bytes). With a cache (boards up to 8x8),
// a rank whose squares are those of the same rank when the cache last saw it is copied from
// there rather than written again.
char* PutFenPieces(const Board& board, char* end, FenRowCache* cache = nullptr) {
  const PieceTexts& texts = Texts();
  auto put_piece = [&](int file, int rank) {
    const uint8_t bits = board.at(file, rank).bits();
    *end++ = texts.text[bits][0];
    if (texts.length[bits] == 2) *end++ = texts.text[bits][1];
  };
  if (board.fits_bitboards()) {
    // Only the occupied squares are visited, from the bitboard of each rank, and nothing
    // branches on the text: a run of empty squares (at most 7) is one digit, written always and
    // kept when there is a run; a piece's text is two bytes, written always, kept as long as it is.
    const uint64_t occupied = board.occupied_bits();
    const int width = board.width();
    if (cache != nullptr && (cache->width != width || cache->height != board.height())) {
      *cache = FenRowCache();
      cache->width = width;
      cache->height = board.height();
    }
    for (int rank = board.height() - 1; rank >= 0; --rank) {
      uint64_t squares = 0;
      if (cache != nullptr) {
        // A rank is at most 8 bytes here (the board keeps zeros beyond its width).
        std::memcpy(&squares, board.rank_bytes(rank), sizeof squares);
        if (cache->squares[rank] == squares) {
          std::memcpy(end, cache->text[rank], sizeof cache->text[rank]);
          end += cache->length[rank];
          *end = '/';
          end += rank > 0;
          continue;
        }
      }
      char* const start = end;
      int file = 0;
      for (uint64_t row = (occupied >> (rank * Board::kBitboardSide)) & 0xff; row != 0;
           row &= row - 1) {
        const int next = std::countr_zero(row);
        *end = static_cast<char>('0' + (next - file));
        end += next > file;
        const uint8_t bits = board.at(next, rank).bits();
        std::memcpy(end, texts.text[bits], 2);
        end += texts.length[bits];
        file = next + 1;
      }
      *end = static_cast<char>('0' + (width - file));
      end += width > file;
      if (cache != nullptr) {
        cache->squares[rank] = squares;
        cache->length[rank] = static_cast<uint8_t>(end - start);
        std::memcpy(cache->text[rank], start, sizeof cache->text[rank]);
      }
      *end = '/';
      end += rank > 0;
    }
    return end;
  }
  for (int rank = board.height() - 1; rank >= 0; --rank) {
    int run = 0;
    for (int file = 0; file < board.width(); ++file) {
      const uint8_t bits = board.at(file, rank).bits();
      if (bits == 0) {
        ++run;
        continue;
      }
      if (run > 0) {
        end = PutRun(run, end);
        run = 0;
      }
      put_piece(file, rank);
    }
    if (run > 0) end = PutRun(run, end);
    if (rank > 0) *end++ = '/';
  }
  return end;
}

}  // namespace

void AppendFenPieces(const Board& board, std::string* out) {
  char buffer[kMaxFenPieces + 16];
  out->append(buffer, static_cast<size_t>(PutFenPieces(board, buffer) - buffer));
}

std::string FenPieces(const Board& board) {
  std::string out;
  out.reserve(static_cast<size_t>(board.width() * board.height() + board.height()));
  AppendFenPieces(board, &out);
  return out;
}

char* PutFenBoard(const Board& board, std::string_view timeline_label, int turn, Color color,
                  char* end, FenRowCache* cache) {
  *end++ = '[';
  end = PutFenPieces(board, end, cache);
  *end++ = ':';
  std::memcpy(end, timeline_label.data(), timeline_label.size());
  end += timeline_label.size();
  *end++ = ':';
  end = std::to_chars(end, end + 11, turn).ptr;
  *end++ = ':';
  *end++ = color == Color::kWhite ? 'w' : 'b';
  *end++ = ']';
  return end;
}

void AppendFenBoard(const Board& board, std::string_view timeline_label, int turn, Color color,
                    std::string* out, FenRowCache* cache) {
  // Written in place: with --all-state-md5 this runs for every board of every game
  // (core/state_md5.h); whole states go through PutFenBoard directly (Position::StateMd5).
  const size_t size = out->size();
  out->resize(size + MaxFenBoardChars(timeline_label.size()));
  char* end = PutFenBoard(board, timeline_label, turn, color, out->data() + size, cache);
  out->resize(static_cast<size_t>(end - out->data()));
}

}  // namespace fived
