// Position searches; see search.h.
#include "query/search.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <thread>

#include "core/fen.h"
#include "core/keys.h"
#include "core/pattern.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "core/state_md5.h"
#include "core/variants.h"
#include "query/pattern_search.h"
#include "query/text.h"
#include "schema/meta.h"
#include "schema/postings.h"

namespace fived {

namespace {

// kInvalidArgument: "--moves: col 14: Qh9: reason" plus the text and a caret under column
// `pos.column` when the text is one line; its place holds that column (0 otherwise) and the rest
// of the message before the caret.
Status PointAt(std::string_view option, std::string_view text, TextPos pos, std::string_view token,
               std::string_view reason) {
  std::string out = std::string(option) + ": ";
  const size_t start = out.size();
  const bool one_line = text.find('\n') == std::string_view::npos;
  if (pos.line > 0) {
    if (!one_line) out += "line " + std::to_string(pos.line) + ", ";
    out += "col " + std::to_string(pos.column) + ": ";
  }
  const size_t after_column = out.size();
  if (!token.empty()) out += std::string(token) + ": ";
  out += reason;
  Place place;
  const bool column = one_line && pos.line > 0 && pos.column >= 1;
  place.column = column ? static_cast<size_t>(pos.column) : 0;
  place.reason = out.substr(column ? after_column : start);
  if (one_line && pos.column >= 1) {
    out += "\n  " + std::string(text) + "\n  " + std::string(pos.column - 1, ' ') + "^";
  }
  return Status::InvalidArgument(std::move(out)).At(std::move(place));
}

// A failure of TextErrorAt's (core/pgn_syntax.h) in `moves`, pointed at as PointAt does; `more`
// is added to the reason.
Status PointAtMoves(std::string_view moves, const Status& error, std::string_view more = {}) {
  const Place& place = *error.place();
  return PointAt("--moves", moves, TextPosOf(place), place.token, place.reason + std::string(more));
}

// The postings of one key in `table`, grouped to the first value per game.
Result<std::vector<PositionMatch>> FirstPerGame(GameStore& store, PostingTable table, uint64_t key,
                                                int value_divisor) {
  Result<PostingReader> reader = PostingReader::Create(store.db(), table);
  if (!reader.ok()) return reader.error();
  Result<std::vector<Posting>> postings = reader.value().Find(key);
  if (!postings.ok()) return postings.error();
  std::vector<PositionMatch> matches;
  for (const Posting& p : postings.value()) {
    // Sorted by (game, value): the first posting of a game has its smallest value.
    if (!matches.empty() && matches.back().game_id == p.game_id) continue;
    matches.push_back({p.game_id, static_cast<int>(p.value) / value_divisor, {}});
  }
  return matches;
}

}  // namespace

Result<std::string> ResolveVariantName(std::string_view name) {
  if (IsCustomBoardName(name)) return std::string("custom");
  const Variant* variant = FindVariant(name);
  if (variant == nullptr) {
    return Status::InvalidArgument("unknown variant '" + std::string(name) +
                                   "' (official names: 5d-query --help lists them)");
  }
  return variant->name;
}

namespace {

// The header lines of a game starting from `boards` (5DFEN boards, as PositionFromState reads
// them): "[Board "custom"]" and a line a board, into *headers, with their number in *lines;
// kInvalidArgument saying why when a board does not read.
Status StateHeaders(std::string_view boards, std::string* headers, int* lines) {
  *headers = "[Board \"custom\"]\n";
  *lines = 1;
  size_t count = 0;
  for (size_t i = 0; i < boards.size();) {
    if (std::isspace(static_cast<unsigned char>(boards[i]))) {
      ++i;
      continue;
    }
    if (boards[i] != '[') {
      return Status::InvalidArgument("--state: expected '[' at character " + std::to_string(i + 1) +
                                     " (boards are written [pieces:timeline:turn:colour])");
    }
    const size_t end = boards.find(']', i);
    if (end == std::string_view::npos) {
      return Status::InvalidArgument("--state: board " + std::to_string(count + 1) +
                                     " has no closing ']'");
    }
    const std::string_view board = boards.substr(i, end + 1 - i);
    auto parsed = ParseFenBoard(board);
    if (!parsed.ok()) {
      return Status::InvalidArgument("--state: board " + std::to_string(count + 1) + " " +
                                     std::string(board) + ": " + parsed.error().message());
    }
    *headers += std::string(board) + "\n";
    ++*lines;
    ++count;
    i = end + 1;
  }
  if (count == 0) return Status::InvalidArgument("--state: no boards given");
  return Status();
}

// The position after `moves` played from the start `headers` (`lines` header lines, the boards
// among them `boards`) set up; see PositionFromMoves.
Result<Position> ReplayMoves(const std::string& headers, int lines, size_t boards,
                             std::string_view moves, std::vector<Move>* last_action) {
  // The header lines count from -lines and the blank line is 0, so positions count within
  // `moves`.
  const std::string text = headers + "\n" + std::string(moves);
  const SyntaxResult parsed = ParseGameSyntax(text, -lines);
  if (!parsed.status.ok()) return PointAtMoves(moves, parsed.status);
  if (parsed.game.boards.size() != boards ||
      parsed.game.headers.size() != static_cast<size_t>(lines) - boards) {
    constexpr std::string_view kOnlyMoves =
        "give only movetext (headers and boards are not allowed)";
    Place place;
    place.reason = kOnlyMoves;
    return Status::InvalidArgument("--moves: " + std::string(kOnlyMoves)).At(std::move(place));
  }
  SyntaxGame game = parsed.game;
  // In a file, moves on one line without a turn number belong to one action (the moves of a turn
  // on several timelines). Typed on the command line without numbers, "e3 e6 Nf3" means one move
  // an action, the players in turn.
  const bool numbered =
      moves.find('/') != std::string_view::npos ||
      std::any_of(game.actions.begin(), game.actions.end(),
                  [](const SyntaxAction& action) { return action.turn_number != 0; });
  if (!numbered) {
    std::vector<SyntaxAction> split;
    bool black = !game.actions.empty() && game.actions.front().black;
    for (const SyntaxAction& action : game.actions) {
      for (const SyntaxMove& move : action.moves) {
        SyntaxAction one;
        one.black = black;
        one.pos = move.pos;
        one.moves.push_back(move);
        split.push_back(std::move(one));
        black = !black;
      }
    }
    game.actions = std::move(split);
  }
  ReplayOutcome outcome = ReplayGame(game);
  if (!outcome.status.ok()) return PointAtMoves(moves, outcome.status);
  if (!outcome.warnings.empty()) {
    return PointAtMoves(moves, outcome.warnings.front(),
                        " (a position is searched after whole actions only)");
  }
  if (last_action != nullptr) {
    last_action->clear();
    if (!outcome.replayer->actions().empty()) {
      for (const PlayedMove& m : outcome.replayer->actions().back().moves) {
        last_action->push_back(m.move);
      }
    }
  }
  return outcome.replayer->position();
}

}  // namespace

Result<Position> PositionFromMoves(std::string_view variant, std::string_view moves,
                                   std::vector<Move>* last_action) {
  return ReplayMoves("[Board \"" + std::string(variant) + "\"]\n", 1, 0, moves, last_action);
}

Result<Position> PositionFromStateAndMoves(std::string_view boards, std::string_view moves,
                                           std::vector<Move>* last_action) {
  std::string headers;
  int lines = 0;
  if (Status error = StateHeaders(boards, &headers, &lines); !error.ok()) return error;
  return ReplayMoves(headers, lines, static_cast<size_t>(lines - 1), moves, last_action);
}

Result<Position> PositionFromState(std::string_view boards) {
  std::string text;
  int lines = 0;
  if (Status error = StateHeaders(boards, &text, &lines); !error.ok()) return error;
  text += "\n";
  const SyntaxResult parsed = ParseGameSyntax(text);
  if (!parsed.status.ok()) {
    return Status::InvalidArgument("--state: " + parsed.status.place()->reason);
  }
  Result<GameSetup> setup = SetupGame(parsed.game);
  if (!setup.ok()) return Status::InvalidArgument("--state: " + setup.error().place()->reason);
  return std::move(setup).value().start;
}

Result<BoardQuery> ParseBoardQuery(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  std::string_view inner = text;
  if (!inner.empty() && inner.front() == '[') inner.remove_prefix(1);
  if (!inner.empty() && inner.back() == ']') inner.remove_suffix(1);
  const bool placed = inner.find(':') != std::string_view::npos;
  // Without coordinates, any will do for parsing; they are not used.
  const std::string fen = placed ? std::string(inner) : std::string(inner) + ":0:1:w";
  auto parsed = ParseFenBoard(fen);
  if (!parsed.ok()) {
    return Status::InvalidArgument("--board: " + std::string(text) + ": " +
                                   parsed.error().message());
  }
  const FenBoard& fen_board = parsed.value();
  BoardQuery query;
  query.board = fen_board.board;
  query.key = BoardContentKey(fen_board.board);
  query.placed = placed;
  query.timeline_negative = fen_board.timeline_negative;
  query.timeline_signed_zero = fen_board.timeline_signed_zero;
  query.timeline_magnitude = fen_board.timeline_magnitude;
  query.half_turn = HalfTurn(fen_board.turn, fen_board.color);
  return query;
}

bool IsMd5(std::string_view text) {
  return text.size() == 32 && std::all_of(text.begin(), text.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c));
         });
}

Result<std::vector<PositionMatch>> FindState(GameStore& store, uint64_t key) {
  // State postings hold 2 * action + side to move.
  return FirstPerGame(store, PostingTable::kStates, key, 2);
}

Result<std::vector<PositionMatch>> FindFinalStateMd5(GameStore& store, std::string_view md5) {
  Result<Statement> statement = store.db().Prepare(
      "SELECT id, actions FROM games WHERE substr(final_md5, 1, 8) = substr(?1, 1, 8) "
      "AND +final_md5 = ?1 ORDER BY id");
  if (!statement.ok()) return statement.error();
  Statement& s = statement.value();
  const std::string lower = AsciiLower(md5);
  s.Bind(1, std::string_view(lower));
  std::vector<PositionMatch> matches;
  while (true) {
    Result<StepResult> step = s.Step();
    if (!step.ok()) return step.error();
    if (step.value() != StepResult::kRow) break;
    matches.push_back({s.Int64(0), static_cast<int>(s.Int64(1)), {}});
  }
  return matches;
}

Result<bool> IndexesEveryStateMd5(GameStore& store) {
  Result<StateMd5s> md5s = ReadStateMd5s(store.db());
  if (!md5s.ok()) return md5s.error();
  return md5s.value() == StateMd5s::kAll;
}

Result<std::vector<PositionMatch>> FindStateMd5(GameStore& store, std::string_view md5) {
  uint64_t key = 0;
  for (size_t i = 0; i < 16 && i < md5.size(); ++i) {
    const char c = md5[i];
    const int digit = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    key = key << 4 | static_cast<uint64_t>(digit);
  }
  // MD5 postings hold what state postings hold: 2 * action + side to move.
  return FirstPerGame(store, PostingTable::kStateMd5s, key, 2);
}

Result<std::vector<PositionMatch>> ScanStateMd5(GameStore& store, std::string_view md5,
                                                const std::vector<int64_t>& candidates, int jobs) {
  const ReadSnapshot snapshot(store.db());
  Md5Digest wanted{};
  for (size_t i = 0; i < wanted.size(); ++i) {
    auto nibble = [&](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
    wanted[i] = static_cast<uint8_t>(nibble(md5[2 * i]) << 4 | nibble(md5[2 * i + 1]));
  }
  // The connection is one thread's, so this thread reads the texts, a slice at a time, and the
  // workers replay them, each with its own incremental MD5 stream (core/state_md5.h).
  jobs = std::max(1, jobs);
  constexpr size_t kSlice = 4096;
  std::vector<PositionMatch> matches;
  std::vector<std::string> texts;
  std::vector<int> found;
  for (size_t begin = 0; begin < candidates.size(); begin += kSlice) {
    const size_t end = std::min(candidates.size(), begin + kSlice);
    texts.clear();
    for (size_t k = begin; k < end; ++k) {
      Result<GameTexts> read = store.Texts(candidates[k]);
      if (!read.ok()) return read.error();
      texts.push_back(std::move(read.value().text));
    }
    found.assign(texts.size(), -1);
    std::atomic<size_t> next{0};
    auto work = [&] {
      StateMd5Stream stream;
      for (size_t k = next++; k < texts.size(); k = next++) {
        const SyntaxResult parsed = ParseGameSyntax(texts[k]);
        if (!parsed.status.ok()) continue;
        stream.Reset();
        ReplayGame(parsed.game, [&](int action, const Position& pos) {
          if (found[k] < 0 && stream.Next(pos) == wanted) found[k] = action;
        });
      }
    };
    std::vector<std::thread> workers;
    for (int t = 1; t < jobs; ++t) workers.emplace_back(work);
    work();
    for (std::thread& worker : workers) worker.join();
    for (size_t k = 0; k < texts.size(); ++k) {
      if (found[k] >= 0) matches.push_back({candidates[begin + k], found[k], {}});
    }
  }
  return matches;
}

Result<std::vector<PositionMatch>> FindBoard(GameStore& store, const BoardQuery& query) {
  const ReadSnapshot snapshot(store.db());
  // The games holding a board with the key's top bits (board_keys), confirmed by the pattern of
  // exactly this board, pinned where it was placed.
  Result<std::vector<PositionMatch>> keyed =
      FirstPerGame(store, PostingTable::kBoardKeys, query.key, 1);
  if (!keyed.ok()) return keyed;
  std::vector<int64_t> candidates;
  for (const PositionMatch& match : keyed.value()) candidates.push_back(match.game_id);
  std::vector<PositionMatch> none;
  if (candidates.empty()) return none;
  BoardPattern pattern = ExactPattern(query.board);
  if (query.placed) {
    pattern.timeline = BoardPattern::TimelinePin{query.timeline_negative, query.timeline_magnitude};
    pattern.turn = TurnOf(query.half_turn);
    pattern.color = ColorOf(query.half_turn);
  }
  GameQuery exact;
  exact.boards.push_back(std::move(pattern));
  Result<std::vector<PositionMatch>> found = FindPatterns(store, exact, nullptr, 0, &candidates);
  if (!found.ok()) return found;
  // A board search names no boards: where it stood is what was asked (or anywhere).
  for (PositionMatch& match : found.value()) match.boards.clear();
  return found;
}

}  // namespace fived
