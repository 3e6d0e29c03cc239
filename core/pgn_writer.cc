// Canonical 5dpgn writing; see pgn_writer.h.
#include "core/pgn_writer.h"

#include <bit>
#include <charconv>
#include <cstring>
#include <string_view>

#include "core/fen.h"

namespace fived {

std::string BoardRefText(const Position& pos, int timeline, int half_turn) {
  std::string out;
  AppendBoardRef(pos, timeline, half_turn, &out);
  return out;
}

char* PutBoardRef(const Position& pos, int timeline, int half_turn, char* end) {
  *end++ = '(';
  end = pos.labeling().PutLabel(timeline, end);
  *end++ = 'T';
  end = std::to_chars(end, end + 11, TurnOf(half_turn)).ptr;
  *end++ = ')';
  return end;
}

void AppendBoardRef(const Position& pos, int timeline, int half_turn, std::string* out) {
  char buffer[kMaxBoardRefChars];
  out->append(buffer, static_cast<size_t>(PutBoardRef(pos, timeline, half_turn, buffer) - buffer));
}

namespace {

// Whether another piece of the same type and colour on the source board can make a move to the
// same target; returns which coordinates of `from` are needed to tell them apart.
void Disambiguation(const Position& pos, const Move& move, Piece piece, bool* need_file,
                    bool* need_rank) {
  *need_file = *need_rank = false;
  const Board& board = *pos.BoardAt(move.src_timeline, move.src_half);
  const MoveView view(pos);
  // Only moves onto the target board can be confused with this one.
  const TargetBoard target{move.dst_timeline, move.dst_half};
  bool any = false, same_file = false, same_rank = false;
  auto consider = [&](Square from, Piece other) {
    if (from == move.from) return;
    const bool same_board =
        move.dst_timeline == move.src_timeline && move.dst_half == move.src_half;
    const bool reaches = !ReachDecidedByVector(other, same_board)
                             ? ForEachPieceMove(
                                   view, move.src_timeline, move.src_half, from, other,
                                   GenMode::kAll, PromotionSet{0xffff},
                                   [&](const Move& m, Piece) {
                                     return m.dst_timeline == move.dst_timeline &&
                                            m.dst_half == move.dst_half && m.to == move.to;
                                   },
                                   &target)
                             : PieceReaches(view, move.src_timeline, move.src_half, from, other,
                                            move.dst_timeline, move.dst_half, move.to);
    if (!reaches) return;
    any = true;
    same_file = same_file || from.file == move.from.file;
    same_rank = same_rank || from.rank == move.from.rank;
  };
  if (board.fits_bitboards()) {
    // The other pieces of the type and colour, from the bitboards.
    for (uint64_t others = board.type_bits(piece.type()) & board.colour_bits(piece.color());
         others != 0; others &= others - 1) {
      const int bit = std::countr_zero(others);
      const Square from{static_cast<int8_t>(bit % Board::kBitboardSide),
                        static_cast<int8_t>(bit / Board::kBitboardSide)};
      consider(from, board.at(from));
    }
  } else {
    for (int rank = 0; rank < board.height(); ++rank) {
      for (int file = 0; file < board.width(); ++file) {
        const Piece other = board.at(file, rank);
        if (other.empty() || other.type() != piece.type() || other.color() != piece.color()) {
          continue;
        }
        consider(Square{static_cast<int8_t>(file), static_cast<int8_t>(rank)}, other);
      }
    }
  }
  if (!any) return;
  if (!same_file) {
    *need_file = true;
  } else if (!same_rank) {
    *need_rank = true;
  } else {
    *need_file = *need_rank = true;
  }
}

}  // namespace

void AppendMoveText(const Position& pos, const Move& move, std::string* out) {
  // Written into a buffer and appended once: the replay writes every move of every game.
  char buffer[2 * kMaxBoardRefChars + 3 * kMaxSquareNameChars + 16];
  char* end = buffer;
  auto put = [&](std::string_view text) {
    std::memcpy(end, text.data(), text.size());
    end += text.size();
  };
  const Board& source = *pos.BoardAt(move.src_timeline, move.src_half);
  const Piece piece = source.at(move.from);
  end = PutBoardRef(pos, move.src_timeline, move.src_half, end);
  const char letter = PieceLetter(piece.type());
  if (move.flags & Move::kCastle) {
    if (source.width() == 8 && move.from.file == 4) {
      put(move.to.file > move.from.file ? "O-O" : "O-O-O");
    } else {
      *end++ = 'K';
      end = PutSquareName(move.from, end);
      end = PutSquareName(move.to, end);
    }
  } else {
    const Board* target = pos.BoardAt(move.dst_timeline, move.dst_half);
    const bool capture = (move.flags & Move::kEnPassant) || !target->at(move.to).empty();
    if (move.IsJump()) {
      *end++ = letter;
      end = PutSquareName(move.from, end);
      put(pos.TipHalf(move.dst_timeline) == move.dst_half ? ">" : ">>");
      if (capture) *end++ = 'x';
      end = PutBoardRef(pos, move.dst_timeline, move.dst_half, end);
      end = PutSquareName(move.to, end);
    } else if (IsPawnLike(piece.type())) {
      if (piece.type() == PieceType::kBrawn) *end++ = letter;
      if (capture) {
        *end++ = static_cast<char>('a' + move.from.file);
        *end++ = 'x';
      }
      end = PutSquareName(move.to, end);
    } else {
      *end++ = letter;
      bool need_file = false, need_rank = false;
      Disambiguation(pos, move, piece, &need_file, &need_rank);
      if (need_file) *end++ = static_cast<char>('a' + move.from.file);
      if (need_rank) end = std::to_chars(end, end + 4, move.from.rank + 1).ptr;
      if (capture) *end++ = 'x';
      end = PutSquareName(move.to, end);
    }
    if (move.promotion != PieceType::kNone) {
      *end++ = '=';
      *end++ = PieceLetter(move.promotion);
    }
  }
  out->append(buffer, static_cast<size_t>(end - buffer));
}

std::string ActionText(const Position& before, const std::vector<Move>& moves) {
  Position pos = before;
  std::string text;
  for (const Move& move : moves) {
    if (!text.empty()) text += ' ';
    AppendMoveText(pos, move, &text);
    ApplyMove(&pos, move);
  }
  return text;
}

std::string MoveText(const Position& pos, const Move& move) {
  std::string out;
  AppendMoveText(pos, move, &out);
  return out;
}

void MovetextBuilder::BeginAction(Color mover) {
  if (mover == Color::kWhite) {
    if (line_open_) out_ += '\n';
    ++turn_;
    out_ += std::to_string(turn_) + ".";
    line_open_ = true;
  } else if (!line_open_) {
    ++turn_;
    out_ += std::to_string(turn_) + "b.";
    line_open_ = true;
  } else {
    out_ += " /";
  }
  mover_ = mover;
}

void MovetextBuilder::AddMove(std::string_view text) {
  out_ += ' ';
  out_ += text;
}

void MovetextBuilder::EndAction() {
  if (mover_ == Color::kBlack) {
    out_ += '\n';
    line_open_ = false;
  }
}

std::string MovetextBuilder::Finish(const std::string& result) {
  std::string out = std::move(out_);
  if (!result.empty()) {
    if (line_open_) out += ' ';
    out += result;
    out += '\n';
  } else if (line_open_) {
    out += '\n';
  }
  *this = MovetextBuilder();
  return out;
}

std::string WriteMovetext(const Position& start, const std::vector<PlayedAction>& actions,
                          const std::string& result) {
  Position pos = start;
  MovetextBuilder builder;
  for (const PlayedAction& action : actions) {
    builder.BeginAction(action.mover);
    for (const PlayedMove& played : action.moves) {
      builder.AddMove(MoveText(pos, played.move));
      ApplyMove(&pos, played.move);
    }
    builder.EndAction();
  }
  return builder.Finish(result);
}

std::string WriteGame(const std::vector<std::pair<std::string, std::string>>& headers,
                      const GameSetup& setup, const std::vector<PlayedAction>& actions,
                      const std::string& result) {
  std::string out;
  for (const auto& [name, value] : headers) {
    out += '[' + name + " \"";
    for (char c : value) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += "\"]\n";
  }
  if (setup.variant == "custom") {
    const Position& start = setup.start;
    start.ForEachBoard([&](int l, int h, const Board& board) {
      AppendFenBoard(board, start.labeling().Label(l), TurnOf(h), ColorOf(h), &out);
      out += '\n';
    });
  }
  out += '\n';
  out += WriteMovetext(setup.start, actions, result);
  out += '\n';
  return out;
}

}  // namespace fived
