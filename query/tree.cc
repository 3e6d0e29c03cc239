// The opening tree; see tree.h.
//
// The cost of a tree is reading records: every counted game's record is decompressed (zstd with
// the database's dictionary) to get its moves. So each record is read once for all depths, only
// the actions the tree needs are kept, and the filter is checked on the narrow columns before
// the record is read at all.
#include "query/tree.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/variants.h"
#include "query/search.h"
#include "query/text.h"
#include "schema/ending.h"
#include "schema/meta.h"
#include "schema/position_stats.h"
#include "schema/search_keys.h"

namespace fived {

namespace {

enum class Outcome : uint8_t { kWhiteWins, kDraw, kBlackWins, kOther };

Outcome OutcomeOf(std::string_view result) {
  if (result == "1-0") return Outcome::kWhiteWins;
  if (result == "0-1") return Outcome::kBlackWins;
  if (result == "1/2-1/2") return Outcome::kDraw;
  return Outcome::kOther;
}

// One action of a game as the tree groups it.
struct LineAction {
  std::string text;  // the move texts joined by ' ', as played
  std::string key;   // the same texts sorted, when that differs from `text`; else empty

  std::string_view GroupKey() const { return key.empty() ? std::string_view(text) : key; }
};

// What the tree needs of a counted game: its result, its date and the actions it played from
// the state on (at most the tree's depth; fewer when it ended sooner).
struct GameLine {
  Outcome outcome = Outcome::kOther;
  bool derived = false;  // the outcome comes from the game's ending, not its result
  std::string date;      // TreeDate
  std::vector<LineAction> actions;
};

// Reads actions `first`, `first` + 1, ... (0-based; at most `count`) of canonical movetext into
// *out. Reads the tokens as SplitCanonicalMovetext (query/store.h) does, but stops at the last
// action wanted and copies only those: a game is usually far longer than the few actions a tree
// needs. An action without moves (never written by the canonical writer) ends the line there, so
// that out[k] is always action first + k.
void ReadActions(std::string_view movetext, int first, int count,
                 std::vector<std::string_view>* moves, std::vector<LineAction>* out) {
  out->clear();
  moves->clear();
  int action = -1;  // index of the action whose moves are being read; -1 before the first
  // Appends the action read so far, if wanted; false when the line ends before it.
  auto finish = [&] {
    if (action < first) return true;
    if (moves->empty()) return false;
    LineAction line;
    for (size_t i = 0; i < moves->size(); ++i) {
      if (i > 0) line.text += ' ';
      line.text += (*moves)[i];
    }
    if (moves->size() > 1) {
      std::sort(moves->begin(), moves->end());
      for (size_t i = 0; i < moves->size(); ++i) {
        if (i > 0) line.key += ' ';
        line.key += (*moves)[i];
      }
      if (line.key == line.text) line.key.clear();
    }
    out->push_back(std::move(line));
    moves->clear();
    return true;
  };
  bool ended = false;
  ForEachCanonicalToken(movetext, [&](std::string_view token, bool marker) {
    // A marker opens an action; so does a move before any marker.
    if (marker || action < 0) {
      if (action >= 0 && !finish()) {
        ended = true;
        return false;
      }
      ++action;
      if (action >= first + count) {
        ended = true;
        return false;
      }
      if (marker) return true;
    }
    if (action >= first) moves->push_back(token);
    return true;
  });
  if (ended) return;
  if (action >= 0) finish();
}

// A node under construction and the games (indexes into the GameLines) that played it.
struct NodeBuild {
  TreeNode node;
  std::vector<uint32_t> members;
};

// Widens the node's date range to `date` (a TreeDate; nothing when empty).
void AddDate(const std::string& date, TreeNode* node) {
  if (date.empty()) return;
  if (node->first_date.empty() || date < node->first_date) node->first_date = date;
  if (node->last_date.empty() || date > node->last_date) node->last_date = date;
}

// Counts `game` in *node: its games, its result and its dates.
void AddGame(const GameLine& game, TreeNode* node) {
  ++node->games;
  switch (game.outcome) {
    case Outcome::kWhiteWins:
      ++node->white_wins;
      break;
    case Outcome::kDraw:
      ++node->draws;
      break;
    case Outcome::kBlackWins:
      ++node->black_wins;
      break;
    case Outcome::kOther:
      break;
  }
  if (game.derived && game.outcome != Outcome::kOther) ++node->derived;
  AddDate(game.date, node);
}

// The nodes of the actions that `members` (in increasing game id) played at `level` (0: the
// action from the state), expanded down to level depth - 1.
std::vector<TreeNode> BuildLevel(const std::vector<GameLine>& games,
                                 const std::vector<uint32_t>& members, int level, int depth) {
  std::vector<NodeBuild> builds;
  std::unordered_map<std::string_view, size_t> by_key;
  for (const uint32_t member : members) {
    const GameLine& game = games[member];
    if (level >= static_cast<int>(game.actions.size())) continue;  // the game ended before
    const LineAction& played = game.actions[level];
    auto [it, inserted] = by_key.try_emplace(played.GroupKey(), builds.size());
    if (inserted) {
      // Members come in increasing id, so the first game of a group names its action.
      builds.emplace_back();
      builds.back().node.action = played.text;
    }
    NodeBuild& build = builds[it->second];
    AddGame(game, &build.node);
    build.members.push_back(member);
  }
  std::sort(builds.begin(), builds.end(), [](const NodeBuild& a, const NodeBuild& b) {
    if (a.node.games != b.node.games) return a.node.games > b.node.games;
    return a.node.action < b.node.action;
  });
  std::vector<TreeNode> nodes;
  nodes.reserve(builds.size());
  for (NodeBuild& build : builds) {
    if (level + 1 < depth) {
      build.node.expanded = true;
      build.node.children = BuildLevel(games, build.members, level + 1, depth);
    }
    nodes.push_back(std::move(build.node));
  }
  return nodes;
}

// The tree of depth 1 of a position from the statistics kept at ingest (schema/position_stats.h),
// when they hold every game that reached it: every match (a first visit; a state never repeats
// in a game) came within the first meta.position_stats_actions actions. nullopt otherwise.
Result<std::optional<TreeNode>> TreeFromStats(GameStore& store, uint64_t state_key,
                                              const std::vector<PositionMatch>& matches) {
  const Result<int> stats_actions = PositionStatsActions(store.db());
  if (!stats_actions.ok()) return stats_actions.error();
  for (const PositionMatch& match : matches) {
    if (match.action >= stats_actions.value()) return std::optional<TreeNode>();
  }
  auto rows = ReadPositionStats(store.db(), state_key);
  if (!rows.ok()) return rows.error();
  if (rows.value().empty()) return std::optional<TreeNode>();
  TreeNode position;
  position.expanded = true;
  for (ActionStat& stat : rows.value()) {
    TreeNode node;
    node.action = std::move(stat.text);
    node.games = stat.games;
    node.white_wins = stat.white_wins;
    node.draws = stat.draws;
    node.black_wins = stat.black_wins;
    node.derived = stat.derived;
    node.first_date = stat.first_date;
    node.last_date = stat.last_date;
    position.games += node.games;
    position.white_wins += node.white_wins;
    position.draws += node.draws;
    position.black_wins += node.black_wins;
    position.derived += node.derived;
    if (!node.first_date.empty() &&
        (position.first_date.empty() || node.first_date < position.first_date)) {
      position.first_date = node.first_date;
    }
    if (node.last_date > position.last_date) position.last_date = node.last_date;
    // The games that ended in the position count for it, under no action.
    if (stat.hash != 0) position.children.push_back(std::move(node));
  }
  std::sort(position.children.begin(), position.children.end(),
            [](const TreeNode& a, const TreeNode& b) {
              if (a.games != b.games) return a.games > b.games;
              return a.action < b.action;
            });
  return std::optional<TreeNode>(std::move(position));
}

// Whether `filter` keeps every game in `matches` (the games that reached one state): true when
// it asks for nothing but an official variant whose start no other official variant shares, and
// no custom game reached the state. A state holds every board since the start, so a game that
// reached it started where the variant starts: a game of another official variant cannot have,
// and a custom game (whose start may be anything) is looked for among the matches. The explorer
// asks for the tree of a variant's line this way; its statistics kept at ingest then apply.
Result<bool> OnlyVariantReaches(GameStore& store, const GameFilter& filter,
                                const std::vector<PositionMatch>& matches) {
  GameFilter rest = filter;
  rest.variant.clear();
  if (filter.variant.empty() || !rest.empty()) return false;
  static const std::unordered_map<std::string, uint64_t> kStarts = [] {
    std::unordered_map<std::string, uint64_t> starts;
    for (const Variant& variant : OfficialVariants()) {
      Result<Position> start = PositionFromMoves(variant.name, "");
      if (start.ok()) starts.emplace(variant.name, start.value().StateKey());
    }
    return starts;
  }();
  const auto own = kStarts.find(filter.variant);
  if (own == kStarts.end()) return false;  // custom, or a start that could not be built
  for (const auto& [name, key] : kStarts) {
    if (name != filter.variant && key == own->second) return false;
  }
  std::unordered_set<int64_t> ids;
  ids.reserve(matches.size());
  for (const PositionMatch& match : matches) ids.insert(match.game_id);
  Result<Statement> custom = store.db().Prepare("SELECT id FROM games WHERE variant = 'custom'");
  if (!custom.ok()) return custom.error();
  while (true) {
    Result<StepResult> step = custom.value().Step();
    if (!step.ok()) return step.error();
    if (step.value() != StepResult::kRow) return true;
    if (ids.count(custom.value().Int64(0)) > 0) return false;
  }
}

// "37.5%": one decimal is enough to tell actions apart and keeps the column narrow.
std::string Percent(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", value);
  return text;
}

// The score as the table shows it: "-" when no game has a result.
std::string ScoreText(const TreeNode& node) {
  const std::optional<double> score = node.score();
  return score ? Percent(*score) : "-";
}

// "2021.03.01 - 2022.01.05", one date when all games have it, nothing when none has one.
std::string DateRange(const TreeNode& node) {
  if (node.first_date.empty()) return {};
  if (node.first_date == node.last_date) return node.first_date;
  return node.first_date + " - " + node.last_date;
}

// A table row: `label`, `share` and the node's figures (see WriteTreeTable in tree.h).
std::vector<std::string> Row(std::string label, std::string share, const TreeNode& node) {
  return {std::move(label),
          std::move(share),
          std::to_string(node.games),
          std::to_string(node.results()),
          std::to_string(node.white_wins),
          std::to_string(node.draws),
          std::to_string(node.black_wins),
          std::to_string(node.derived),
          ScoreText(node),
          DateRange(node)};
}

// Appends the rows of the children of `parent` and, depth first, of theirs, each level indented
// two more spaces.
void CollectRows(const TreeNode& parent, int limit, int indent,
                 std::vector<std::vector<std::string>>* rows) {
  const std::vector<TreeNode>& nodes = parent.children;
  const std::string pad(static_cast<size_t>(indent), ' ');
  const size_t shown =
      limit > 0 ? std::min(nodes.size(), static_cast<size_t>(limit)) : nodes.size();
  for (size_t i = 0; i < shown; ++i) {
    const TreeNode& node = nodes[i];
    rows->push_back(Row(pad + node.action, Percent(node.ShareOf(parent)), node));
    CollectRows(node, limit, indent + 2, rows);
  }
  if (shown < nodes.size()) {
    // What the limit hides is still counted, so that the rows add up to their parent.
    TreeNode rest;
    for (size_t i = shown; i < nodes.size(); ++i) {
      const TreeNode& node = nodes[i];
      rest.games += node.games;
      rest.white_wins += node.white_wins;
      rest.draws += node.draws;
      rest.black_wins += node.black_wins;
      rest.derived += node.derived;
      AddDate(node.first_date, &rest);
      AddDate(node.last_date, &rest);
    }
    const size_t hidden = nodes.size() - shown;
    rows->push_back(Row(
        pad + "(" + std::to_string(hidden) + (hidden == 1 ? " other action)" : " other actions)"),
        Percent(rest.ShareOf(parent)), rest));
  }
}

// The keys the position and the actions share, from results to last_date, set in *json.
void SetCountsJson(const TreeNode& node, Json* json) {
  (*json)["results"] = node.results();
  (*json)["white_wins"] = node.white_wins;
  (*json)["draws"] = node.draws;
  (*json)["black_wins"] = node.black_wins;
  (*json)["derived"] = node.derived;
  const std::optional<double> score = node.score();
  (*json)["score"] = score ? JsonNumber(*score) : Json(nullptr);
  (*json)["first_date"] = node.first_date.empty() ? Json(nullptr) : Json(node.first_date);
  (*json)["last_date"] = node.last_date.empty() ? Json(nullptr) : Json(node.last_date);
}

// The array of the actions from `parent`, each with its own answers when it is expanded.
Json ActionsJson(const TreeNode& parent) {
  Json actions = Json::array();
  for (const TreeNode& node : parent.children) {
    Json action = {{"action", node.action},
                   {"games", node.games},
                   {"share", JsonNumber(node.ShareOf(parent))}};
    SetCountsJson(node, &action);
    if (node.expanded) action["children"] = ActionsJson(node);
    actions.push_back(std::move(action));
  }
  return actions;
}

}  // namespace

std::optional<double> TreeNode::score() const {
  const int64_t finished = results();
  if (finished == 0) return std::nullopt;
  return (static_cast<double>(white_wins) + static_cast<double>(draws) / 2) /
         static_cast<double>(finished) * 100;
}

double TreeNode::ShareOf(const TreeNode& parent) const {
  if (parent.games == 0) return 0;
  return static_cast<double>(games) / static_cast<double>(parent.games) * 100;
}

Result<TreeNode> BuildTree(GameStore& store, uint64_t state_key, const GameFilter& filter,
                           int depth) {
  depth = std::max(depth, 1);
  const ReadSnapshot snapshot(store.db());
  Result<std::vector<PositionMatch>> matches = FindState(store, state_key);
  if (!matches.ok()) return matches.error();
  bool stats_apply = filter.empty();
  if (!stats_apply && depth == 1 && !matches.value().empty()) {
    Result<bool> only_variant = OnlyVariantReaches(store, filter, matches.value());
    if (!only_variant.ok()) return only_variant.error();
    stats_apply = only_variant.value();
  }
  if (depth == 1 && stats_apply && !matches.value().empty()) {
    Result<std::optional<TreeNode>> kept = TreeFromStats(store, state_key, matches.value());
    if (!kept.ok()) return kept.error();
    if (kept.value()) return std::move(*kept.value());
  }

  const SqlCondition condition = FilterCondition(filter);
  const int id_param = static_cast<int>(condition.params.size()) + 1;
  // Copies never count (schema/copies.h): their originals do, as in every statistic.
  Result<Statement> prepared = store.db().Prepare(
      "SELECT games.result, games.date, games.verdict, games.checked_side "
      "FROM games WHERE games.id = ?" +
      std::to_string(id_param) + " AND games.duplicate_of IS NULL AND (" + condition.where + ")");
  if (!prepared.ok()) return prepared.error();
  Statement& select = prepared.value();
  BindParams(select, condition.params);

  std::vector<GameLine> games;
  std::vector<std::string_view> moves;
  // Matches come in game order, each the game's first visit of the state.
  for (const PositionMatch& match : matches.value()) {
    select.Reset().Bind(id_param, match.game_id);
    Result<StepResult> step = select.Step();
    if (!step.ok()) return step.error();
    if (step.value() != StepResult::kRow) continue;  // a copy, or filtered out
    GameLine game;
    std::optional<Decision::Verdict> verdict;
    if (!select.IsNull(2)) verdict = VerdictFromSql(select.Int64(2));
    std::optional<Color> checked_side;
    if (!select.IsNull(3)) checked_side = SideFromSql(select.Int64(3));
    const CountedResult counted = ResultToCount(select.Text(0), verdict, checked_side);
    game.outcome = OutcomeOf(counted.result);
    game.derived = counted.derived;
    game.date = TreeDate(select.Text(1));
    select.Reset();

    Result<GameTexts> texts = store.Texts(match.game_id);
    if (!texts.ok()) return texts.error();
    // The match's action is the number of actions played before the state; the next action is
    // therefore the movetext's action of that 0-based index.
    ReadActions(texts.value().moves, match.action, depth, &moves, &game.actions);
    games.push_back(std::move(game));
  }
  select.Reset();

  // Every counted game reached the position, also those that end there and play no action.
  TreeNode position;
  std::vector<uint32_t> members(games.size());
  for (size_t i = 0; i < members.size(); ++i) {
    AddGame(games[i], &position);
    members[i] = static_cast<uint32_t>(i);
  }
  position.expanded = true;
  position.children = BuildLevel(games, members, 0, depth);
  return position;
}

void WriteTreeTable(const TreeNode& position, int limit, std::string* out) {
  std::vector<std::vector<std::string>> rows = {{"action", "share", "games", "results",
                                                 "white wins", "draws", "black wins", "derived",
                                                 "score", "dates"}};
  // The position is the whole of which the actions are shares; it has no share of its own.
  rows.push_back(Row("(position)", "", position));
  CollectRows(position, limit, 0, &rows);
  // The action and the dates are text, left-aligned; the figures are right-aligned.
  *out += FormatTable(rows, {false, true, true, true, true, true, true, true, true, false});
}

Json TreeJson(const TreeNode& position) {
  Json json = {{"games", position.games}};
  SetCountsJson(position, &json);
  json["actions"] = ActionsJson(position);
  return json;
}

void WriteTreeJson(const TreeNode& position, std::string* out) {
  *out += DumpJson(TreeJson(position));
}

}  // namespace fived
