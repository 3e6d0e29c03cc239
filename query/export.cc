// Exported game texts; see export.h.
#include "query/export.h"

#include <sstream>
#include <utility>
#include <vector>

#include "core/pgn_syntax.h"
#include "core/pgn_writer.h"
#include "core/replay.h"

namespace fived {

namespace {

// The splitter's idea of space: such bytes before the first visible one of a line leave the
// line's kind open.
bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool IsResultToken(std::string_view text) {
  return text == "1-0" || text == "0-1" || text == "1/2-1/2" || text == "*";
}

// Whether the splitter reads the first line of `text` with something on it as a header line.
bool StartsWithHeaderLine(std::string_view text) {
  for (char c : text) {
    if (!IsSpace(c)) return c == '[';
  }
  return false;
}

void AppendHeaderLine(std::string_view name, std::string_view value, std::string* out) {
  *out += '[';
  *out += name;
  *out += " \"";
  for (char c : value) {
    if (c == '"' || c == '\\') *out += '\\';
    *out += c;
  }
  *out += "\"]\n";
}

std::string OriginalForm(const GameRow& row, std::string_view text) {
  // The parser skips a byte-order mark at the start of a game; the splitter would see it as
  // movetext (a game can start with one when its file began with two).
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::string out;
  if (!StartsWithHeaderLine(text)) AppendHeaderLine("Board", row.variant, &out);
  out += text;
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

// The canonical movetext of `game` with the moves of an unfinished last action (a game saved
// before its last submit: its moves count for the final state, not as an action, and the stored
// canonical movetext leaves them out). Without such an action, the stored movetext.
std::string CanonicalMovetext(const SyntaxGame& game, const GameRow& row, const GameTexts& texts) {
  // Every written sub-turn of an indexed game is an action, but for an unfinished last one; only
  // those rare games are replayed.
  if (game.actions.size() <= static_cast<size_t>(row.actions)) return texts.moves;
  MovetextBuilder movetext;
  std::vector<std::string> action_texts;  // the moves since the last action ended
  Color mover = Color::kWhite;
  auto flush = [&] {
    movetext.BeginAction(mover);
    for (const std::string& text : action_texts) movetext.AddMove(text);
    movetext.EndAction();
    action_texts.clear();
  };
  auto on_state = [&](int action, const Position&) {
    if (action > 0) flush();
  };
  auto on_move = [&](const Position& pos, const Move& move) {
    if (action_texts.empty()) mover = ColorOf(move.src_half);
    action_texts.push_back(MoveText(pos, move));
  };
  const ReplayOutcome outcome = ReplayGame(game, on_state, on_move);
  if (!outcome.status.ok()) return texts.moves;
  if (!action_texts.empty()) flush();
  return movetext.Finish("");
}

// nullopt when the stored text no longer parses (it did when it was indexed).
std::optional<std::string> CanonicalForm(const GameRow& row, const GameTexts& texts) {
  const SyntaxResult parsed = ParseGameSyntax(texts.text);
  if (!parsed.status.ok()) return std::nullopt;
  const std::vector<Header>& headers = parsed.game.headers;
  const std::vector<FenLine>& boards = parsed.game.boards;
  std::string out;
  // Headers and board lines merged back into the order they were written in.
  auto before = [](const TextPos& a, const TextPos& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  };
  size_t h = 0, b = 0;
  while (h < headers.size() || b < boards.size()) {
    if (b == boards.size() || (h < headers.size() && before(headers[h].pos, boards[b].pos))) {
      AppendHeaderLine(headers[h].name, headers[h].value, &out);
      ++h;
    } else {
      out += '[' + boards[b].text + "]\n";
      ++b;
    }
  }
  if (out.empty()) AppendHeaderLine("Board", row.variant, &out);
  std::string movetext = CanonicalMovetext(parsed.game, row, texts);
  if (IsResultToken(row.result)) {
    if (!movetext.empty() && movetext.back() == '\n') movetext.pop_back();
    movetext += (movetext.empty() ? "" : " ") + row.result + "\n";
  }
  if (!movetext.empty()) {
    if (movetext.back() != '\n') movetext += '\n';
    out += '\n' + movetext;
  }
  return out;
}

// `text`, or `text` and a line "{}" when only that makes it stand alone; nullopt when neither
// stands alone.
std::optional<std::string> Alone(std::string text) {
  if (StandsAlone(text)) return text;
  text += "{}\n";
  if (StandsAlone(text)) return text;
  return std::nullopt;
}

}  // namespace

bool StandsAlone(std::string_view text) {
  static constexpr std::string_view kBefore = "[Before \"game\"]\n";
  static constexpr std::string_view kAfter = "[After \"game\"]\n";
  std::string probe;
  probe.reserve(kBefore.size() + text.size() + kAfter.size() + 2);
  probe.append(kBefore).append("\n").append(text).append("\n").append(kAfter);
  std::istringstream in(std::move(probe));
  GameSplitter splitter(in);
  const std::optional<RawGame> before = splitter.Next();
  const std::optional<RawGame> game = splitter.Next();
  const std::optional<RawGame> after = splitter.Next();
  return before && before->text == kBefore && game && game->text == text && after &&
         after->text == kAfter && !splitter.Next();
}

std::optional<std::string> ExportedGameText(const GameRow& row, const GameTexts& texts,
                                            ExportForm form) {
  std::optional<std::string> canonical;
  if (form == ExportForm::kCanonical) {
    canonical = CanonicalForm(row, texts);
    if (canonical) canonical = Alone(std::move(*canonical));
    if (canonical) return canonical;
  }
  std::optional<std::string> original = Alone(OriginalForm(row, texts.text));
  if (original || form == ExportForm::kCanonical) return original;
  canonical = CanonicalForm(row, texts);
  return canonical ? Alone(std::move(*canonical)) : std::nullopt;
}

Result<std::string> ExportGame(GameStore& store, const GameRow& row, ExportForm form) {
  Result<GameTexts> texts = store.Texts(row.id);
  if (!texts.ok()) return texts.error();
  std::optional<std::string> text = ExportedGameText(row, texts.value(), form);
  if (!text) {
    return Status::Database(
        "game " + std::to_string(row.id) + " cannot be written so that it reads back on its own",
        1);
  }
  return std::move(*text);
}

}  // namespace fived
