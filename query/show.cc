// The show command; see show.h.
#include "query/show.h"

#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "core/tactics.h"
#include "core/utf8.h"
#include "core/vmn_writer.h"
#include "query/export.h"
#include "query/find.h"
#include "query/request_params.h"
#include "schema/ending.h"
#include "schema/meta.h"

namespace fived {

namespace {

// The format of show: table, json, 5dpgn or vmn (which only show writes).
Result<OutputFormat> ReadShowFormat(const Request& request) {
  const std::string text = Text(request, "format", "table");
  if (text == "vmn") return OutputFormat::kVmn;
  const std::optional<OutputFormat> format = ParseOutputFormat(text);
  if (!format || *format == OutputFormat::kCsv) {
    return BadRequest("show writes " + Name(request, "format") + " table, json, 5dpgn or vmn");
  }
  return *format;
}

// The game id of show's one argument.
Result<int64_t> ReadGameId(const Request& request) {
  if (request.args.size() != 1) {
    return BadRequest("show takes one game id: 5d-query show ID");
  }
  const std::optional<int64_t> id = ParseInteger(request.args.front());
  if (!id) return BadRequest("show: '" + request.args.front() + "' is not a game id");
  return *id;
}

// A stored game's text as VMN (core/vmn_writer.h), from a replay of it; nullopt when it no longer
// replays.
std::optional<std::string> GameVmn(const std::string& text) {
  VmnBuilder vmn;
  const ReplayOutcome outcome =
      ReplayGame(ParseGameSyntax(text).game, {},
                 [&vmn](const Position& before, const Move& move) { vmn.AddMove(before, move); });
  if (!outcome.replayer || !outcome.status.ok()) return std::nullopt;
  return vmn.Finish(outcome.replayer->position());
}

// How a game ends, for show: "checkmate, white in check", "playable, no side in check; a
// legal action: (0T9)Nf3", "unknown, ... (the search stopped after N moves tried)", and whether
// it contradicts the game's result; or "not decided".
std::string EndingText(const GameRow& game) {
  if (!game.verdict) return "not decided";
  std::string out = VerdictName(*game.verdict);
  if (game.checked_side) {
    out += game.checked_side == Color::kWhite ? ", white in check" : ", black in check";
  } else {
    out += ", no side in check";
  }
  if (!game.witness.empty()) out += "; a legal action: " + game.witness;
  if (*game.verdict == Decision::Verdict::kUnknown) {
    out += " (the search stopped after " + std::to_string(game.verdict_work) + " moves tried)";
  }
  // The conflict may be with the Result header or the result closing the moves, which can
  // differ, so the text names neither.
  if (game.result_conflict) out += "; contradicts the game's result";
  return out;
}

}  // namespace

Result<ShowAnswer> RunShow(GameStore& store, const Request& request) {
  if (Status status = CheckRequest(request); !status.ok()) return status;
  Result<int64_t> id = ReadGameId(request);
  if (!id.ok()) return id.error();
  auto row = store.Row(id.value());
  if (!row.ok()) return row.error();
  if (!row.value()) {
    return Status(StatusCode::kNotFound, "no game " + std::to_string(id.value()));
  }
  ShowAnswer answer;
  answer.game = std::move(*row.value());
  auto texts = store.Texts(id.value());
  if (!texts.ok()) return texts.error();
  answer.texts = std::move(texts).value();
  Result<OutputFormat> format = ReadShowFormat(request);
  if (!format.ok()) return format.error();
  answer.format = format.value();
  if (answer.format == OutputFormat::kPgn) return answer;  // the text as stored; no position
  if (answer.format == OutputFormat::kVmn) {
    std::optional<std::string> vmn = GameVmn(answer.texts.text);
    if (!vmn) {
      return Status(StatusCode::kDatabase,
                    "show: game " + std::to_string(id.value()) + " no longer replays");
    }
    answer.vmn = std::move(*vmn);
    return answer;
  }
  answer.picture.max_columns = static_cast<int>(Number(request, "columns", 0));
  answer.picture.unicode = Given(request, "unicode");
  answer.coordinates = Given(request, "coordinates");

  const int actions = answer.game.actions;
  answer.action = static_cast<int>(Number(request, "action", actions));
  if (answer.action > actions) {
    return BadRequest(Name(request, "action") + ": game " + std::to_string(id.value()) +
                      " has actions 0 to " + std::to_string(actions));
  }
  // The position after the action, from a replay of the stored text.
  const SyntaxResult parsed = ParseGameSyntax(answer.texts.text);
  bool reached = false;
  ReplayOutcome outcome = ReplayGame(parsed.game, [&](int n, const Position& p) {
    if (n != answer.action) return;
    answer.position = p;
    reached = true;
  });
  if (!reached || !outcome.replayer) {
    return Status(StatusCode::kDatabase,
                  "show: game " + std::to_string(id.value()) + " no longer replays");
  }
  if (answer.action > 0) {
    for (const PlayedMove& m : outcome.replayer->actions()[answer.action - 1].moves) {
      answer.last_moves.push_back(m.move);
    }
  }
  Result<std::vector<BoardAddress>> marks = ReadMarks(request, answer.position);
  if (!marks.ok()) return marks.error();
  answer.picture.marked = std::move(marks).value();
  return answer;
}

std::string ShowText(const ShowAnswer& answer) {
  // Values from the input are escaped: they never act on the terminal.
  const GameRow& game = answer.game;
  std::string out = "Game " + std::to_string(game.id) + ": " +
                    EscapeForTerminal(game.white.empty() ? "?" : game.white) + " - " +
                    EscapeForTerminal(game.black.empty() ? "?" : game.black);
  if (!game.result.empty()) out += "  " + EscapeForTerminal(game.result);
  if (!game.date.empty()) out += "  " + EscapeForTerminal(game.date);
  out += "\n" + game.variant + ", " + std::to_string(game.actions) + " actions, " +
         std::to_string(game.timelines) + " timelines";
  if (game.duplicate_of != 0) out += ", a copy of game " + std::to_string(game.duplicate_of);
  out += "\nSource: " +
         EscapeForTerminal(game.member.empty() ? game.source : game.source + ":" + game.member) +
         " (game " + std::to_string(game.game_index) + ", byte " +
         std::to_string(game.byte_offset) + ")\n";
  out += "Ending: " + EndingText(game) + "\n\n";
  for (const auto& [name, value] : HeadersOfText(answer.texts.text)) {
    out += "[" + EscapeForTerminal(name) + " \"" + EscapeForTerminal(value) + "\"]\n";
  }
  const std::string& moves = answer.texts.moves;
  out += "\n" + moves;
  if (!moves.empty() && moves.back() != '\n') out += "\n";
  out += "\nAfter action " + std::to_string(answer.action) + " of " + std::to_string(game.actions) +
         ":\n";
  out += TextPicture(answer.position, answer.picture);
  return out;
}

std::string ShowSvg(const ShowAnswer& answer) {
  SvgPictureOptions options;
  options.max_columns = answer.picture.max_columns;
  options.marked = answer.picture.marked;
  options.coordinates = answer.coordinates;
  options.title =
      "Game " + std::to_string(answer.game.id) + " after action " + std::to_string(answer.action);
  return SvgPicture(answer.position, answer.last_moves, options);
}

Result<Json> ShowJson(GameStore& store, const ShowAnswer& answer) {
  FoundGame found;
  found.row = answer.game;
  Result<Json> game = GameJson(store, found, false);
  if (!game.ok()) return game.error();
  Json json = std::move(game).value();
  // The game page marks the mates in one found and missed on its move list.
  const Result<bool> tactics = ReadTactics(store.db());
  if (!tactics.ok()) return tactics.error();
  if (tactics.value()) {
    Result<Json> mates = MatesJson(store, answer.game.id);
    if (!mates.ok()) return mates.error();
    json["mates"] = std::move(mates).value();
    // Said on the page when an earlier build searched them (meta.tactics_version).
    const Result<int> version = ReadTacticsVersion(store.db());
    if (!version.ok()) return version.error();
    if (version.value() < kTacticsVersion) json["mates_note"] = OlderTacticsText(version.value());
  }
  const std::vector<ActionMoves> actions = SplitCanonicalMovetext(answer.texts.moves);
  json["moves"] = actions;
  // The moves as played are in last_moves; the canonical texts say them as the move list does.
  Json last = Json::array();
  if (answer.action > 0 && answer.action <= static_cast<int>(actions.size())) {
    last = actions[answer.action - 1];
  }
  // The picture as the explorer's pages draw it (picture_scene.h), not as SVG: a tenth of the
  // bytes on a game of many timelines, and the page draws only the boards in view.
  json["position"] = {{"action", answer.action},
                      {"to_move", answer.position.ToMove() == Color::kWhite ? "white" : "black"},
                      {"fen", answer.position.StateFen()},
                      {"last_moves", std::move(last)},
                      {"picture", PictureJson(answer.position, answer.last_moves,
                                              answer.picture.max_columns, answer.picture.marked)}};
  return json;
}

Result<std::string> ShowPgn(GameStore& store, const ShowAnswer& answer) {
  Result<std::string> text = ExportGame(store, answer.game, ExportForm::kOriginal);
  if (!text.ok()) return text.error();
  return std::move(text).value();
}

}  // namespace fived
