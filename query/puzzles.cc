// Puzzles from the stored mates in one; see puzzles.h.
#include "query/puzzles.h"

#include <utility>

#include "core/action.h"
#include "core/decide.h"
#include "core/pgn_syntax.h"
#include "core/pgn_writer.h"
#include "core/replay.h"
#include "core/rules.h"
#include "query/request_params.h"
#include "schema/tactics.h"

namespace fived {

namespace {

// The moves a puzzle's solution is checked with: far more than a mate usually takes to prove.
constexpr uint64_t kReadBackBudget = 1'000'000;

const char* SideName(Color side) { return side == Color::kWhite ? "white" : "black"; }

// Whether `text` replays as a puzzle for `side` whose one action checkmates.
bool ReadsBackAsMate(const std::string& text, Color side) {
  const SyntaxResult syntax = ParseGameSyntax(text);
  if (!syntax.status.ok()) return false;
  ReplayOutcome outcome = ReplayGame(syntax.game);
  if (!outcome.status.ok() || !outcome.replayer) return false;
  Replayer& replayer = *outcome.replayer;
  if (replayer.setup().start.ToMove() != side || replayer.actions().size() != 1) return false;
  SearchLimits limits;
  limits.promotions = PromotionChoices(replayer.setup(), replayer.position());
  limits.budget = kReadBackBudget;
  return Decide(replayer.mutable_position(), limits).verdict == Decision::Verdict::kCheckmate;
}

}  // namespace

std::optional<std::string> MakePuzzle(const std::string& game_text, int action,
                                      const std::string& solution, int64_t game_id,
                                      const GameRow& source) {
  const SyntaxResult syntax = ParseGameSyntax(game_text);
  if (!syntax.status.ok()) return std::nullopt;
  std::optional<Position> position;
  ReplayOutcome outcome = ReplayGame(syntax.game, [&](int n, const Position& pos) {
    if (n == action) position = pos;
  });
  if (!position || !outcome.replayer) return std::nullopt;
  const Color side = position->ToMove();

  GameSetup setup = outcome.replayer->setup();
  setup.variant = "custom";
  setup.start = std::move(*position);
  std::vector<std::pair<std::string, std::string>> headers = {
      {"Board", "custom"},
      {"Size", std::to_string(setup.start.width()) + "x" + std::to_string(setup.start.height())},
      {"Puzzle", "mate in 1"},
      {"ToMove", SideName(side)},
      {"Source", "game " + std::to_string(game_id) + ", after action " + std::to_string(action)}};
  if (!source.white.empty()) headers.emplace_back("White", source.white);
  if (!source.black.empty()) headers.emplace_back("Black", source.black);
  if (!source.date.empty()) headers.emplace_back("Date", source.date);
  // The source's promotion rules hold in the puzzle too.
  if (const Header* promotions = syntax.game.FindHeader("Promotions")) {
    headers.emplace_back("Promotions", promotions->value);
  }
  std::string text = WriteGame(headers, setup, {}, "");
  // WriteGame ends with an empty movetext: the solution takes its place.
  while (!text.empty() && text.back() == '\n') text.pop_back();
  MovetextBuilder movetext;
  movetext.BeginAction(side);
  size_t begin = 0;
  while (begin < solution.size()) {
    size_t end = solution.find(' ', begin);
    if (end == std::string::npos) end = solution.size();
    movetext.AddMove(std::string_view(solution).substr(begin, end - begin));
    begin = end + 1;
  }
  movetext.EndAction();
  text += "\n\n" + movetext.Finish("") + "\n";
  if (!ReadsBackAsMate(text, side)) return std::nullopt;
  return text;
}

Result<PuzzlesAnswer> RunPuzzles(GameStore& store, const Request& request) {
  if (Status status = CheckRequest(request); !status.ok()) return status;
  PuzzlesAnswer answer;
  const std::string format = Text(request, "format", "5dpgn");
  if (format == "json") {
    answer.format = OutputFormat::kJson;
  } else if (format != "5dpgn") {
    return BadRequest("puzzles writes " + Name(request, "format") + " 5dpgn or json");
  }
  GameFilter filter;
  if (Status status = ReadFilter(request, &filter); !status.ok()) return status;
  if (Status status = TacticsHint(store, request, filter, &answer.hints); !status.ok()) {
    return status;
  }
  filter.mate_in_one = true;
  const bool only_move = Given(request, "only-move");
  auto ids = FilteredIds(store, filter);
  if (!ids.ok()) return ids.error();
  for (int64_t id : ids.value()) {
    auto rows = ReadGameTactics(store.db(), id);
    if (!rows.ok()) return rows.error();
    std::optional<GameRow> row;
    std::optional<GameTexts> texts;
    for (const PositionTactics& tactics : rows.value()) {
      if (tactics.unknown) continue;
      if (only_move && !(tactics.complete && tactics.mating == 1)) continue;
      if (!texts) {
        auto read_row = store.Row(id);
        if (!read_row.ok()) return read_row.error();
        auto read_texts = store.Texts(id);
        if (!read_texts.ok()) return read_texts.error();
        if (!read_row.value()) break;
        row = std::move(*read_row.value());
        texts = std::move(read_texts).value();
      }
      std::optional<std::string> text =
          MakePuzzle(texts->text, tactics.action, tactics.solution, id, *row);
      if (!text) {
        ++answer.left_out;
        continue;
      }
      answer.puzzles.push_back({id, tactics.action, tactics.side, tactics.mating, tactics.complete,
                                tactics.solution, std::move(*text)});
    }
  }
  if (answer.left_out > 0) {
    answer.hints.push_back(std::to_string(answer.left_out) +
                           " mate-in-one positions left out: as custom games (every timeline "
                           "an initial one) their solutions do not mate");
  }
  return answer;
}

std::string WritePuzzles(const PuzzlesAnswer& answer) {
  if (answer.format == OutputFormat::kPgn) {
    std::string out;
    for (const Puzzle& puzzle : answer.puzzles) out += puzzle.text;
    return out;
  }
  Json json = Json::array();
  for (const Puzzle& puzzle : answer.puzzles) {
    json.push_back({{"game", puzzle.game_id},
                    {"action", puzzle.action},
                    {"side", SideName(puzzle.side)},
                    {"solutions", puzzle.solutions},
                    {"complete", puzzle.complete},
                    {"solution", puzzle.solution},
                    {"pgn", puzzle.text}});
  }
  return DumpJson(json) + "\n";
}

}  // namespace fived
