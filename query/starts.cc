// The starting positions of custom games; see starts.h.
#include "query/starts.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "core/variants.h"

namespace fived {

namespace {

// The headers that may name a start, most telling first (starts.h CustomStart::name).
constexpr std::array<std::string_view, 4> kNameHeaders = {"VariantName", "Variant", "Board",
                                                          "Puzzle"};

// The rank of header `name` in kNameHeaders (compared without case, as header names are), or
// kNameHeaders.size() for another header.
size_t NameRank(std::string_view name) {
  const auto same = [](std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
             return (x | 0x20) == (y | 0x20);
           });
  };
  for (size_t i = 0; i < kNameHeaders.size(); ++i) {
    if (same(name, kNameHeaders[i])) return i;
  }
  return kNameHeaders.size();
}

}  // namespace

Result<std::vector<CustomStart>> ListCustomStarts(GameStore& store) {
  const ReadSnapshot snapshot(store.db());
  Database& db = store.db();
  std::vector<CustomStart> starts;
  std::map<int64_t, size_t> by_key;  // start_key (as SQL stores it) -> index in starts
  {
    Result<Statement> groups = db.Prepare(
        "SELECT start_key, count(*), count(duplicate_of), min(id), min(width), min(height) "
        "FROM games WHERE variant = 'custom' GROUP BY start_key");
    if (!groups.ok()) return groups.error();
    Statement& s = groups.value();
    while (true) {
      Result<StepResult> step = s.Step();
      if (!step.ok()) return step.error();
      if (step.value() == StepResult::kDone) break;
      CustomStart start;
      start.copies = s.Int64(2);
      start.games = s.Int64(1) - start.copies;
      start.first_game = s.Int64(3);
      start.width = static_cast<int>(s.Int64(4));
      start.height = static_cast<int>(s.Int64(5));
      by_key[s.Int64(0)] = starts.size();
      starts.push_back(std::move(start));
    }
  }
  // Names: the best ranked header of the first game (by id) of each start that has one.
  {
    Result<Statement> headers = db.Prepare(
        "SELECT games.start_key, games.id, headers.name, headers.value FROM headers "
        "JOIN games ON games.id = headers.game_id WHERE games.variant = 'custom' AND "
        "headers.name IN ('VariantName', 'Variant', 'Board', 'Puzzle') ORDER BY games.id");
    if (!headers.ok()) return headers.error();
    Statement& s = headers.value();
    std::map<int64_t, std::pair<int64_t, size_t>> best;  // start_key -> (game, rank)
    while (true) {
      Result<StepResult> step = s.Step();
      if (!step.ok()) return step.error();
      if (step.value() == StepResult::kDone) break;
      const std::string_view value = s.Text(3);
      if (value.empty() || IsCustomBoardName(value)) continue;
      const auto start = by_key.find(s.Int64(0));
      if (start == by_key.end()) continue;
      const int64_t game = s.Int64(1);
      const size_t rank = NameRank(s.Text(2));
      auto [kept, added] = best.try_emplace(s.Int64(0), game, rank);
      // A later game never replaces the name of an earlier one; a game's better header does.
      if (!added && (kept->second.first != game || kept->second.second <= rank)) continue;
      kept->second = {game, rank};
      starts[start->second].name = std::string(value);
    }
  }
  for (CustomStart& start : starts) {
    Result<GameTexts> texts = store.Texts(start.first_game);
    if (!texts.ok()) return texts.error();
    const Result<GameSetup> setup = SetupGame(ParseGameSyntax(texts.value().text).game);
    if (!setup.ok()) {
      return Status::Database(
          "game " + std::to_string(start.first_game) + ": its start no longer reads",
          SQLITE_CORRUPT);
    }
    start.fen = setup.value().start.StateFen();
  }
  std::sort(starts.begin(), starts.end(), [](const CustomStart& a, const CustomStart& b) {
    if (a.games != b.games) return a.games > b.games;
    return a.first_game < b.first_game;
  });
  return starts;
}

Json CustomStartsJson(const std::vector<CustomStart>& starts) {
  Json out = Json::array();
  for (const CustomStart& start : starts) {
    out.push_back({{"fen", start.fen},
                   {"width", start.width},
                   {"height", start.height},
                   {"name", start.name.empty() ? Json(nullptr) : Json(start.name)},
                   {"games", start.games},
                   {"copies", start.copies},
                   {"first_game", start.first_game}});
  }
  return out;
}

}  // namespace fived
