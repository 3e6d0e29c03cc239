// Replaying written games; see replay.h.
#include "core/replay.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <span>

#include "core/fen.h"
#include "core/pgn_writer.h"
#include "core/variants.h"

namespace fived {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Status HeaderError(const Header* header, std::string reason) {
  if (header == nullptr) return TextErrorAt(TextPos{}, "", std::move(reason));
  return TextErrorAt(header->pos, "[" + header->name + " \"" + header->value + "\"]",
                     std::move(reason));
}

// Parses "WxH" (also "W x H"); returns false when malformed.
bool ParseSize(std::string_view text, int* width, int* height) {
  text = Trim(text);
  const size_t x = text.find_first_of("xX");
  if (x == std::string_view::npos) return false;
  const std::string_view w = Trim(text.substr(0, x));
  const std::string_view h = Trim(text.substr(x + 1));
  auto parse = [](std::string_view s, int* v) {
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
    return ec == std::errc() && ptr == s.data() + s.size();
  };
  return parse(w, width) && parse(h, height);
}

PromotionSet DefaultPromotions() {
  PromotionSet set;
  for (PieceType t :
       {PieceType::kCommonKing, PieceType::kQueen, PieceType::kPrincess, PieceType::kKnight,
        PieceType::kRook, PieceType::kBishop, PieceType::kUnicorn, PieceType::kDragon}) {
    set.Add(t);
  }
  return set;
}

// Reads the timeline of a board string into the internal index, once the labeling is known.
int TimelineOf(const FenBoard& fen, const TimelineLabeling& labeling) {
  return labeling.FromNotation(fen.timeline_negative, fen.timeline_magnitude);
}

// An official variant's starting boards, parsed once for the whole program (thread-safe) rather
// than for every game. Null if one of them does not parse; SetupGame then parses them itself and
// reports the error.
const std::vector<FenBoard>* OfficialBoards(const Variant& variant) {
  static const auto* const all = [] {
    auto* parsed = new std::vector<std::optional<std::vector<FenBoard>>>;
    for (const Variant& v : OfficialVariants()) {
      std::vector<FenBoard> boards;
      for (const std::string& text : v.boards) {
        auto result = ParseFenBoard(text, v.width, v.height);
        if (result.ok()) boards.push_back(std::move(result).value());
      }
      if (boards.size() == v.boards.size()) {
        parsed->emplace_back(std::move(boards));
      } else {
        parsed->emplace_back();
      }
    }
    return parsed;
  }();
  const std::span<const Variant> variants = OfficialVariants();
  for (size_t i = 0; i < variants.size(); ++i) {
    if (&variants[i] == &variant) return (*all)[i] ? &*(*all)[i] : nullptr;
  }
  return nullptr;
}

}  // namespace

Result<GameSetup> SetupGame(const SyntaxGame& game) {
  GameSetup setup;
  const Header* board_header = game.FindHeader("Board");
  if (board_header == nullptr) board_header = game.FindHeader("Variant");
  const std::string board_name = board_header ? board_header->value : "";
  const Header* size_header = game.FindHeader("Size");
  int width = 0, height = 0;
  if (size_header != nullptr && !ParseSize(size_header->value, &width, &height)) {
    return HeaderError(size_header, "board size is not of the form WxH");
  }
  if (size_header != nullptr &&
      (width < 1 || height < 1 || width > kMaxBoardSide || height > kMaxBoardSide)) {
    return HeaderError(size_header, "board size must be between 1x1 and 16x16");
  }

  const bool custom =
      IsCustomBoardName(board_name) || (board_header == nullptr && !game.boards.empty());
  std::vector<std::string> fen_texts;  // boards to parse (none when official_boards is set)
  std::vector<TextPos> fen_positions;
  const std::vector<FenBoard>* official_boards = nullptr;
  if (custom) {
    if (game.boards.empty()) {
      return HeaderError(board_header, "a custom game needs 5DFEN board lines");
    }
    setup.variant = "custom";
    for (const FenLine& line : game.boards) {
      fen_texts.push_back(line.text);
      fen_positions.push_back(line.pos);
    }
  } else {
    const Variant* variant = FindVariant(board_name);
    if (board_header == nullptr && size_header != nullptr && variant != nullptr &&
        (width != variant->width || height != variant->height)) {
      return HeaderError(size_header,
                         "no Board header and no 5DFEN boards: the starting position "
                         "of a " +
                             size_header->value + " game is unknown");
    }
    if (variant == nullptr) {
      return HeaderError(board_header, "unknown variant \"" + board_name + "\"");
    }
    setup.variant = variant->name;
    if (size_header != nullptr && (width != variant->width || height != variant->height)) {
      return HeaderError(size_header, "the variant " + variant->name + " is " +
                                          std::to_string(variant->width) + "x" +
                                          std::to_string(variant->height));
    }
    width = variant->width;
    height = variant->height;
    official_boards = OfficialBoards(*variant);
    if (official_boards == nullptr) fen_texts = variant->boards;
    fen_positions.assign(variant->boards.size(), board_header ? board_header->pos : TextPos{});
    if (variant->default_promotion == "S") setup.default_promotion = PieceType::kPrincess;
  }

  std::vector<FenBoard> parsed;
  for (size_t i = 0; i < fen_texts.size(); ++i) {
    auto result = ParseFenBoard(fen_texts[i], width, height);
    if (!result.ok()) {
      return TextErrorAt(fen_positions[i], "[" + fen_texts[i] + "]",
                         "bad 5DFEN board: " + result.error().message());
    }
    parsed.push_back(std::move(result).value());
  }
  const std::vector<FenBoard>& boards = official_boards ? *official_boards : parsed;
  bool even = false;
  if (!boards.empty()) {
    width = boards.front().board.width();
    height = boards.front().board.height();
  }
  for (const FenBoard& fen : boards) even = even || fen.timeline_signed_zero;
  TimelineLabeling labeling;
  labeling.even = even;
  std::vector<Position::InitialBoard> initial;
  initial.reserve(boards.size());
  for (size_t i = 0; i < boards.size(); ++i) {
    const FenBoard& fen = boards[i];
    const int timeline = TimelineOf(fen, labeling);
    if (fen.timeline_magnitude > kMaxTimelineIndex || std::abs(timeline) > kMaxTimelineIndex ||
        fen.turn >= kMaxHalfTurn / 2) {
      return TextErrorAt(i < fen_positions.size() ? fen_positions[i] : TextPos{},
                         i < fen_texts.size() ? "[" + fen_texts[i] + "]" : "",
                         "bad starting position: a board on timeline " +
                             std::to_string(fen.timeline_magnitude) + ", turn " +
                             std::to_string(fen.turn) + " (this tool replays timelines up to " +
                             std::to_string(kMaxTimelineIndex) + " and turns before " +
                             std::to_string(kMaxHalfTurn / 2) + ")");
    }
    initial.push_back({fen.board, timeline, HalfTurn(fen.turn, fen.color)});
  }
  if (Status error = setup.start.Init(width, height, even, initial); !error.ok()) {
    return TextErrorAt(fen_positions.empty() ? TextPos{} : fen_positions.front(), "",
                       "bad starting position: " + error.message());
  }

  setup.promotions = DefaultPromotions();
  if (const Header* promotions = game.FindHeader("Promotions")) {
    PromotionSet set;
    PieceType first = PieceType::kNone;
    for (char c : promotions->value) {
      if (c == ',' || std::isspace(static_cast<unsigned char>(c))) continue;
      const PieceType type = PieceTypeFromLetter(c);
      if (type == PieceType::kNone || IsRoyal(type) || IsPawnLike(type)) {
        return HeaderError(promotions, std::string("cannot promote to '") + c + "'");
      }
      set.Add(type);
      if (first == PieceType::kNone) first = type;
    }
    if (first != PieceType::kNone) {
      setup.promotions = set;
      setup.promotions_written = true;
      setup.default_promotion = first;
    }
  }
  return setup;
}

namespace {

// The internal timeline of a written board reference.
int TimelineOfRef(const Position& pos, const BoardRef& ref) {
  return pos.labeling().FromNotation(ref.negative, ref.timeline);
}

std::string WrittenBoard(const BoardRef& ref) {
  std::string out = "(";
  if (ref.negative) {
    out += '-';
  } else if (ref.explicit_sign) {
    out += '+';
  }
  out += std::to_string(ref.timeline) + "T" + std::to_string(ref.turn) + ")";
  return out;
}

std::string ColorName(Color c) { return c == Color::kWhite ? "white" : "black"; }

// Checks that a written source board is one the mover may move from; returns its timeline and
// half-turn or a reason.
Result<std::pair<int, int>> SourceBoard(const Position& pos, Color mover, const BoardRef& ref) {
  const int timeline = TimelineOfRef(pos, ref);
  const int half = HalfTurn(ref.turn, mover);
  if (!pos.HasTimeline(timeline)) {
    return Status::InvalidArgument("there is no timeline " + pos.labeling().Label(timeline));
  }
  if (pos.TipHalf(timeline) != half) {
    if (pos.BoardAt(timeline, half) == nullptr) {
      return Status::InvalidArgument("board " + WrittenBoard(ref) + " does not exist for " +
                                     ColorName(mover));
    }
    return Status::InvalidArgument("board " + WrittenBoard(ref) +
                                   " is not the last board of its timeline, " + ColorName(mover) +
                                   " cannot move from it");
  }
  return std::make_pair(timeline, half);
}

bool PieceMatches(const SyntaxMove& written, PieceType type) {
  if (written.piece != 0) return PieceTypeFromLetter(written.piece) == type;
  if (written.from_file >= 0 && written.from_rank >= 0) return true;  // "e2e4": whatever is there
  return IsPawnLike(type);
}

std::string PieceWord(const SyntaxMove& written) {
  if (written.piece != 0) return std::string(PieceName(PieceTypeFromLetter(written.piece)));
  if (written.from_file >= 0 && written.from_rank >= 0) return "piece";
  return "pawn";
}

}  // namespace

Result<Move> ResolveMove(const Position& pos, Color mover, const SyntaxMove& written,
                         const GameSetup& setup) {
  if (written.null_move)
    return Status::InvalidArgument("a null move (0000) is not a 5D chess move");

  // Squares beyond the board: say so rather than that no piece reaches them.
  auto size = [&] { return std::to_string(pos.width()) + "x" + std::to_string(pos.height()); };
  if (written.from_file >= pos.width()) {
    return Status::InvalidArgument("file " +
                                   std::string(1, static_cast<char>('a' + written.from_file)) +
                                   " is off the " + size() + " board");
  }
  if (written.from_rank >= pos.height()) {
    return Status::InvalidArgument("rank " + std::to_string(written.from_rank + 1) +
                                   " is off the " + size() + " board");
  }
  if (written.to_file >= pos.width() || written.to_rank >= pos.height()) {
    return Status::InvalidArgument("square " +
                                   SquareName(Square{static_cast<int8_t>(written.to_file),
                                                     static_cast<int8_t>(written.to_rank)}) +
                                   " is off the " + size() + " board");
  }

  // Source boards: the written one, or every tip the mover may play.
  // Scratch lists reused between calls (one per thread): resolving a move allocates nothing.
  thread_local std::vector<std::pair<int, int>> sources;
  thread_local std::vector<Move> found;
  sources.clear();
  found.clear();
  if (written.source) {
    auto source = SourceBoard(pos, mover, *written.source);
    if (!source.ok()) return source.error();
    sources.push_back(source.value());
  } else {
    for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
      if (pos.HasTimeline(l) && ColorOf(pos.TipHalf(l)) == mover) {
        sources.emplace_back(l, pos.TipHalf(l));
      }
    }
    if (sources.empty())
      return Status::InvalidArgument("no board where " + ColorName(mover) + " can move");
  }

  // Target board, when written; otherwise the source board.
  std::optional<std::pair<int, int>> target;
  if (written.target) {
    target.emplace(TimelineOfRef(pos, *written.target), HalfTurn(written.target->turn, mover));
    if (pos.BoardAt(target->first, target->second) == nullptr) {
      return Status::InvalidArgument("target board " + WrittenBoard(*written.target) +
                                     " does not exist");
    }
  }

  const bool any_target = !written.target && (written.jump == SyntaxMove::Jump::kBranching ||
                                              written.jump == SyntaxMove::Jump::kNonBranching);
  const MoveView view(pos);
  const PieceType written_type =
      written.piece != 0 ? PieceTypeFromLetter(written.piece) : PieceType::kNone;
  const bool whole_square = written.from_file >= 0 && written.from_rank >= 0;
  const Square to{static_cast<int8_t>(written.to_file), static_cast<int8_t>(written.to_rank)};
  // Tries the piece on `from` of a source board.
  auto consider = [&](int timeline, int half, const Board& board, Square from, Piece piece) {
    // Pawns and brawns never change file by more than one.
    if (IsPawnLike(piece.type()) && written.to_file >= 0 &&
        std::abs(from.file - written.to_file) > 1) {
      return;
    }
    const int dst_l = target ? target->first : timeline;
    const int dst_h = target ? target->second : half;
    if (piece.type() == PieceType::kPawn && !any_target && written.to_file >= 0 &&
        dst_l == timeline && dst_h == half && !PawnMayReachOnBoard(board, from, piece, to)) {
      return;
    }
    // (An unmoved king's move on its own board may be castling written as the king's move.)
    if (!any_target && written.castle == SyntaxMove::Castle::kNone &&
        ReachDecidedByVector(piece, dst_l == timeline && dst_h == half)) {
      // A piece's move to a known square: one vector to check, nothing to generate.
      Move m;
      if (written.promotion == 0 &&
          PieceReaches(view, timeline, half, from, piece, dst_l, dst_h, to, &m)) {
        found.push_back(m);
      }
      return;
    }
    // With the target board known (written, or the source board itself for a physical move),
    // only the lines through it are walked.
    const TargetBoard target_board{dst_l, dst_h};
    ForEachPieceMove(
        view, timeline, half, from, piece, GenMode::kAll, setup.promotions,
        [&](const Move& m, Piece) {
          if (written.castle != SyntaxMove::Castle::kNone) {
            if (!(m.flags & Move::kCastle)) return false;
            const bool kingside = m.to.file > m.from.file;
            if (kingside != (written.castle == SyntaxMove::Castle::kKingside)) return false;
            found.push_back(m);
            return false;
          }
          if (any_target) {
            // "N>>d3": a jump whose target board is left to the position.
            if (!m.IsJump()) return false;
            const bool branching =
                m.dst_timeline == m.src_timeline || pos.TipHalf(m.dst_timeline) != m.dst_half;
            if (branching != (written.jump == SyntaxMove::Jump::kBranching)) return false;
          } else if (m.dst_timeline != dst_l || m.dst_half != dst_h) {
            return false;
          }
          if (m.to != to) return false;
          const PieceType promotion =
              written.promotion ? PieceTypeFromLetter(written.promotion) : setup.default_promotion;
          if (m.promotion != PieceType::kNone && m.promotion != promotion) return false;
          if (m.promotion == PieceType::kNone && written.promotion != 0) return false;
          found.push_back(m);
          return false;
        },
        any_target ? nullptr : &target_board);
  };
  for (const auto& [timeline, half] : sources) {
    const Board& board = *pos.BoardAt(timeline, half);
    if (board.fits_bitboards()) {
      // The candidates from the bitboards: the mover's pieces of the written kind, on the
      // written file and rank.
      uint64_t candidates = board.colour_bits(mover);
      if (written.castle != SyntaxMove::Castle::kNone) {
        candidates &= board.type_bits(PieceType::kKing);
      } else if (written_type != PieceType::kNone) {
        candidates &= board.type_bits(written_type);
      } else if (!whole_square) {
        candidates &= board.type_bits(PieceType::kPawn) | board.type_bits(PieceType::kBrawn);
      }
      if (written.from_rank >= 0) candidates &= uint64_t{0xff} << (8 * written.from_rank);
      if (written.from_file >= 0) candidates &= uint64_t{0x0101010101010101} << written.from_file;
      for (; candidates != 0; candidates &= candidates - 1) {
        const int square = std::countr_zero(candidates);
        const Square from{static_cast<int8_t>(square % 8), static_cast<int8_t>(square / 8)};
        consider(timeline, half, board, from, board.at(from));
      }
      continue;
    }
    for (int rank = 0; rank < board.height(); ++rank) {
      if (written.from_rank >= 0 && rank != written.from_rank) continue;
      for (int file = 0; file < board.width(); ++file) {
        if (written.from_file >= 0 && file != written.from_file) continue;
        const Piece piece = board.at(file, rank);
        if (piece.empty() || piece.color() != mover) continue;
        if (written.castle != SyntaxMove::Castle::kNone) {
          if (piece.type() != PieceType::kKing) continue;
        } else if (!PieceMatches(written, piece.type())) {
          continue;
        }
        consider(timeline, half, board,
                 Square{static_cast<int8_t>(file), static_cast<int8_t>(rank)}, piece);
      }
    }
  }

  // A pawn move without a letter may also mean a brawn; prefer pawns when both match.
  if (found.size() > 1 && written.piece == 0) {
    std::vector<Move> pawns;
    for (const Move& m : found) {
      if (pos.BoardAt(m.src_timeline, m.src_half)->at(m.from).type() == PieceType::kPawn) {
        pawns.push_back(m);
      }
    }
    if (!pawns.empty()) found = pawns;
  }
  // A king move written "Kg8" where one king steps to g8 and another castles there means the
  // step: writers that spell castling as the king's move (5d-chess-js) disambiguate the castle.
  if (found.size() > 1 && written.castle == SyntaxMove::Castle::kNone) {
    std::vector<Move> steps;
    for (const Move& m : found) {
      if (!(m.flags & Move::kCastle)) steps.push_back(m);
    }
    if (!steps.empty()) found = steps;
  }
  if (found.size() == 1) return found.front();

  std::string where;
  if (written.source) {
    where = " on board " + WrittenBoard(*written.source);
  } else if (sources.size() == 1) {
    where = " on board " + BoardRefText(pos, sources[0].first, sources[0].second);
  }
  if (written.castle != SyntaxMove::Castle::kNone) {
    const std::string side = written.castle == SyntaxMove::Castle::kKingside ? "O-O" : "O-O-O";
    if (found.empty())
      return Status::InvalidArgument("castling " + side + " is not possible" + where);
    return Status::InvalidArgument("castling " + side + " is ambiguous" + where);
  }
  std::string destination = written.target ? WrittenBoard(*written.target) : "";
  destination += SquareName(
      Square{static_cast<int8_t>(written.to_file), static_cast<int8_t>(written.to_rank)});
  if (found.empty()) {
    if (written.promotion != 0 &&
        !setup.promotions.Contains(PieceTypeFromLetter(written.promotion))) {
      return Status::InvalidArgument(std::string("promotion to ") + written.promotion +
                                     " is not allowed in this game");
    }
    return Status::InvalidArgument("no " + PieceWord(written) + where + " can reach " +
                                   destination);
  }
  std::string list;
  for (const Move& m : found) {
    if (!list.empty()) list += ", ";
    list += BoardRefText(pos, m.src_timeline, m.src_half) + SquareName(m.from);
  }
  return Status::InvalidArgument("ambiguous: " + std::to_string(found.size()) +
                                 " pieces can reach " + destination + " (" + list + ")");
}

Replayer::Replayer(GameSetup setup)
    : setup_(std::move(setup)),
      pos_(setup_.start),
      promoting_captures_(PromotingCapturesCount(pos_)) {}

Status Replayer::Play(const SyntaxAction& action, int action_number, bool keep_unfinished) {
  Position& pos = pos_;
  const Position::Mark mark = pos.GetMark();
  const Color mover = pos.ToMove();
  PlayedAction played;
  played.mover = mover;
  played.moves.reserve(action.moves.size());
  auto fail = [&](TextPos at, std::string token, std::string reason) {
    pos.Rollback(mark);
    return TextErrorAt(at, std::move(token), std::move(reason), action_number);
  };
  if (action.moves.empty()) return fail(action.pos, "", "empty action");
  // Moves keep timelines and half-turns in 16 bits: a game that goes beyond the limits is
  // refused before a move could wrap (every action starts within them).
  if (pos.min_timeline() < -kMaxTimelineIndex || pos.max_timeline() > kMaxTimelineIndex) {
    return fail(action.pos, "",
                "the game has gone beyond timeline " + std::to_string(kMaxTimelineIndex) +
                    ", the most this tool replays");
  }
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    if (pos.HasTimeline(l) && pos.TipHalf(l) >= kMaxHalfTurn) {
      return fail(action.pos, "",
                  "the game has reached turn " + std::to_string(kMaxHalfTurn / 2) +
                      ", beyond the turns this tool replays");
    }
  }
  for (const SyntaxMove& written : action.moves) {
    const Result<Move> resolved = ResolveMove(pos, mover, written, setup_);
    if (!resolved.ok()) return fail(written.pos, written.text, resolved.error().message());
    const Move move = resolved.value();
    if (move_hook_) move_hook_(pos, move);
    played.moves.push_back({move, ApplyMove(&pos, move)});
  }
  bool promoting_captures = promoting_captures_;
  for (const PlayedMove& m : played.moves) {
    promoting_captures = promoting_captures || m.move.promotion != PieceType::kNone;
  }
  const ActionVerdict verdict = JudgeAction(pos, mover, promoting_captures);
  const SyntaxMove& last = action.moves.back();
  switch (verdict.problem) {
    case ActionVerdict::Problem::kNone:
      break;
    case ActionVerdict::Problem::kMandatoryBoardsLeft: {
      std::string boards;
      for (int l : verdict.mandatory_left) {
        if (!boards.empty()) boards += ", ";
        boards += BoardRefText(pos, l, pos.TipHalf(l));
      }
      const std::string reason =
          "action is incomplete: " + ColorName(mover) + " must also move on " + boards;
      if (!keep_unfinished) return fail(last.pos, last.text, reason);
      unfinished_ = std::move(played);
      return TextErrorAt(last.pos, last.text, reason, action_number);
    }
    case ActionVerdict::Problem::kRoyalCapturable: {
      const Move& c = verdict.capture;
      const Board* at = pos.BoardAt(c.dst_timeline, c.dst_half);
      const std::string royal =
          at != nullptr ? std::string(PieceName(at->at(c.to).type())) : std::string("royal piece");
      return fail(last.pos, last.text,
                  "action leaves " + ColorName(mover) + "'s " + royal + " on " +
                      BoardRefText(pos, c.dst_timeline, c.dst_half) + SquareName(c.to) +
                      " capturable from " + BoardRefText(pos, c.src_timeline, c.src_half) +
                      SquareName(c.from));
    }
  }
  actions_.push_back(std::move(played));
  promoting_captures_ = promoting_captures;
  return Status();
}

ReplayOutcome ReplayGame(const SyntaxGame& game,
                         const std::function<void(int, const Position&)>& on_state,
                         const std::function<void(const Position&, const Move&)>& on_move) {
  ReplayOutcome outcome;
  Result<GameSetup> setup = SetupGame(game);
  if (!setup.ok()) {
    outcome.status = setup.error();
    return outcome;
  }
  outcome.replayer.emplace(std::move(setup).value());
  Replayer& replayer = *outcome.replayer;
  if (on_move) replayer.SetMoveHook(on_move);
  if (on_state) on_state(0, replayer.position());
  int number = 0;
  for (const SyntaxAction& action : game.actions) {
    ++number;
    const bool last = number == static_cast<int>(game.actions.size());
    if (Status error = replayer.Play(action, number, last); !error.ok()) {
      // Play keeps the moves of the last action only when its one fault is boards left to play.
      if (last && !replayer.unfinished().moves.empty()) {
        const Place& place = *error.place();
        outcome.warnings.push_back(TextErrorAt(
            TextPosOf(place), place.token,
            place.reason + "; the moves of this unfinished action are kept but not counted",
            place.action));
      } else {
        outcome.status = std::move(error);
      }
      return outcome;
    }
    if (on_state) on_state(number, replayer.position());
  }
  return outcome;
}

}  // namespace fived
