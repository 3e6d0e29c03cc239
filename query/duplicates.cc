// Duplicate games: exact copies, same-moves games, prefixes and twins; see duplicates.h.
#include "query/duplicates.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <numeric>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/pgn_syntax.h"
#include "query/export.h"
#include "query/text.h"
#include "schema/copies.h"
#include "schema/postings.h"

namespace fived {

namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// What the search needs of a game; the games are kept in id order and named by their index.
struct GameInfo {
  int64_t id = 0;
  uint64_t identity = 0;
  uint64_t start_key = 0;
  uint64_t final_key = 0;
  int actions = 0;
  std::string variant;
  std::string white, black, date;    // as written; empty when missing
  std::string white_key, black_key;  // search keys (schema/search_keys.h); empty when missing
  std::string result;                // as written; empty when missing
  int64_t duplicate_of = 0;          // the original of a copy; 0 for an original
};

// Game id -> index into the games. Rowids of games are dense (the indexer only appends), so a
// vector does; a database whose rows were deleted by hand falls back to a hash map.
class IdIndex {
 public:
  explicit IdIndex(const std::vector<GameInfo>& games) {
    const int64_t max_id = games.empty() ? 0 : games.back().id;
    dense_ = max_id <= 4 * static_cast<int64_t>(games.size()) + 1024;
    if (dense_) {
      by_id_.assign(static_cast<size_t>(max_id) + 1, kNone);
      for (uint32_t i = 0; i < games.size(); ++i) by_id_[games[i].id] = i;
    } else {
      for (uint32_t i = 0; i < games.size(); ++i) sparse_.emplace(games[i].id, i);
    }
  }
  // The index of game `id`, or kNone for a game that was not loaded (one added since).
  uint32_t Find(int64_t id) const {
    if (dense_) return id >= 0 && id < static_cast<int64_t>(by_id_.size()) ? by_id_[id] : kNone;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? kNone : it->second;
  }

 private:
  bool dense_ = true;
  std::vector<uint32_t> by_id_;
  std::unordered_map<int64_t, uint32_t> sparse_;
};

// A header value that says something: not empty and not only '?' (PGN's "unknown").
bool Known(std::string_view value) { return value.find_first_not_of("? ") != std::string::npos; }

// Dates compare with '-' and '/' read as '.', as the filters read them.
std::string NormalizedDate(std::string_view date) {
  std::string out(date);
  std::replace(out.begin(), out.end(), '-', '.');
  std::replace(out.begin(), out.end(), '/', '.');
  return out;
}

std::string ActionsText(int actions) {
  return std::to_string(actions) + (actions == 1 ? " action" : " actions");
}

Result<std::vector<GameInfo>> LoadGames(Database& db) {
  Result<Statement> prepared = db.Prepare(
      "SELECT id, identity, start_key, final_key, actions, variant, white, black, date, "
      "white_key, black_key, result, coalesce(duplicate_of, 0) "
      "FROM games ORDER BY id");
  if (!prepared.ok()) return prepared.error();
  Statement& s = prepared.value();
  std::vector<GameInfo> games;
  while (true) {
    Result<StepResult> step = s.Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kDone) break;
    GameInfo& game = games.emplace_back();
    game.id = s.Int64(0);
    game.identity = KeyFromSql(s.Int64(1));
    game.start_key = KeyFromSql(s.Int64(2));
    game.final_key = KeyFromSql(s.Int64(3));
    game.actions = static_cast<int>(s.Int64(4));
    game.variant = std::string(s.Text(5));
    game.white = std::string(s.Text(6));
    game.black = std::string(s.Text(7));
    game.white_key = std::string(s.Text(9));
    game.black_key = std::string(s.Text(10));
    game.date = std::string(s.Text(8));
    game.result = std::string(s.Text(11));
    game.duplicate_of = s.Int64(12);
  }
  return games;
}

// The canonical actions of games, read from their records on demand. A prefix is checked against
// the same long game again and again, so the long games are kept, up to a bound on memory.
class ActionCache {
 public:
  explicit ActionCache(GameStore& store) : store_(store) {}

  Result<const std::vector<ActionMoves>*> Get(int64_t id) {
    auto it = cache_.find(id);
    if (it != cache_.end()) return &it->second;
    Result<std::vector<ActionMoves>> actions = store_.Actions(id);
    if (!actions.ok()) return actions.error();
    if (cache_.size() >= kMaxGames) cache_.clear();
    return &cache_.emplace(id, std::move(actions).value()).first->second;
  }

 private:
  static constexpr size_t kMaxGames = 4096;
  GameStore& store_;
  std::unordered_map<int64_t, std::vector<ActionMoves>> cache_;
};

// Whether the first `count` actions of a and b are equal (both have at least `count`).
bool SameStart(const std::vector<ActionMoves>& a, const std::vector<ActionMoves>& b, int count) {
  const size_t n = static_cast<size_t>(count);
  return a.size() >= n && b.size() >= n && std::equal(a.begin(), a.begin() + n, b.begin());
}

// Games of one identity split into the sets that really are the same game (a 64-bit hash may
// collide): same variant, start and canonical movetext. Appends the sets of two or more games.
Status SplitIdentity(GameStore& store, const std::vector<GameInfo>& games,
                     const std::vector<uint32_t>& members,
                     std::vector<std::vector<uint32_t>>* sets) {
  struct Copy {
    std::string variant;
    uint64_t start_key;
    std::string moves;
    std::vector<uint32_t> games;
  };
  std::vector<Copy> copies;
  for (uint32_t index : members) {
    const GameInfo& game = games[index];
    Result<GameTexts> texts = store.Texts(game.id);
    if (!texts.ok()) return texts.error();
    auto same = [&](const Copy& c) {
      return c.variant == game.variant && c.start_key == game.start_key &&
             c.moves == texts.value().moves;
    };
    auto it = std::find_if(copies.begin(), copies.end(), same);
    if (it == copies.end()) {
      copies.push_back(Copy{game.variant, game.start_key, std::move(texts.value().moves), {}});
      it = copies.end() - 1;
    }
    it->games.push_back(index);
  }
  for (Copy& copy : copies) {
    if (copy.games.size() >= 2) sets->push_back(std::move(copy.games));
  }
  return Status();
}

// The originals that played the same moves as another original, in sets of the same moves, each
// in id order.
Result<std::vector<std::vector<uint32_t>>> SameMovesSets(GameStore& store,
                                                         const std::vector<GameInfo>& games) {
  // The identity index, (identity, duplicate_of), answers this without reading the games table.
  Result<Statement> prepared = store.db().Prepare(
      "SELECT identity FROM games WHERE duplicate_of IS NULL GROUP BY identity "
      "HAVING count(*) > 1");
  if (!prepared.ok()) return prepared.error();
  std::unordered_set<uint64_t> shared;
  while (true) {
    Result<StepResult> step = prepared.value().Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kDone) break;
    shared.insert(KeyFromSql(prepared.value().Int64(0)));
  }
  std::unordered_map<uint64_t, std::vector<uint32_t>> by_identity;
  for (uint32_t i = 0; i < games.size(); ++i) {
    if (games[i].duplicate_of == 0 && shared.count(games[i].identity) != 0) {
      by_identity[games[i].identity].push_back(i);
    }
  }
  std::vector<std::vector<uint32_t>> sets;
  for (const auto& [identity, members] : by_identity) {
    if (members.size() < 2) continue;
    if (Status error = SplitIdentity(store, games, members, &sets); !error.ok()) return error;
  }
  return sets;
}

// A game B that passed through game A's final state at A's last action: a possible extension.
struct Candidate {
  uint32_t prefix;
  uint32_t longer;
};

// Game index -> the game it is the start of (the longest such game; kNone when none), found
// among `candidates`, which this sorts.
Result<std::vector<uint32_t>> LongestExtensions(GameStore& store,
                                                const std::vector<GameInfo>& games,
                                                std::vector<Candidate>* candidates) {
  // Per prefix, the longest candidates first: the first one whose moves agree is the answer, so
  // most prefixes cost one comparison however many games begin with them.
  std::sort(candidates->begin(), candidates->end(), [&](const Candidate& x, const Candidate& y) {
    if (x.prefix != y.prefix) return x.prefix < y.prefix;
    if (games[x.longer].actions != games[y.longer].actions) {
      return games[x.longer].actions > games[y.longer].actions;
    }
    return x.longer < y.longer;
  });
  std::vector<uint32_t> extension(games.size(), kNone);
  ActionCache cache(store);
  size_t i = 0;
  while (i < candidates->size()) {
    const uint32_t prefix = (*candidates)[i].prefix;
    size_t end = i;
    while (end < candidates->size() && (*candidates)[end].prefix == prefix) ++end;
    Result<std::vector<ActionMoves>> prefix_actions = store.Actions(games[prefix].id);
    if (!prefix_actions.ok()) return prefix_actions.error();
    for (; i < end; ++i) {
      const uint32_t longer = (*candidates)[i].longer;
      Result<const std::vector<ActionMoves>*> longer_actions = cache.Get(games[longer].id);
      if (!longer_actions.ok()) return longer_actions.error();
      if (SameStart(prefix_actions.value(), *longer_actions.value(), games[prefix].actions)) {
        extension[prefix] = longer;
        break;
      }
    }
    i = end;
  }
  return extension;
}

std::string PrefixReason(const std::vector<GameInfo>& games, const std::vector<uint32_t>& members) {
  // members[0] is the complete game, the rest its prefixes from the longest.
  std::string reason = members.size() == 2 ? "game " : "games ";
  for (size_t i = 1; i < members.size(); ++i) {
    if (i > 1) reason += i + 1 == members.size() ? " and " : ", ";
    reason +=
        std::to_string(games[members[i]].id) + " (" + ActionsText(games[members[i]].actions) + ")";
  }
  reason += members.size() == 2 ? " is" : " are";
  reason += " the start of game " + std::to_string(games[members[0]].id) + " (" +
            ActionsText(games[members[0]].actions) + ")";
  return reason;
}

// Twins among the games with a key_at (index -> state key after `twin_actions` actions; nullopt
// for games that cannot be twins): same players, date, start and state, then the same moves, and
// not all of them the same game or games of one same-moves set (`lead`: the lowest index of each
// game's set).
Result<std::vector<DuplicateGroup>> TwinGroups(GameStore& store, const std::vector<GameInfo>& games,
                                               const std::vector<std::optional<uint64_t>>& key_at,
                                               const std::vector<uint32_t>& lead,
                                               int twin_actions) {
  std::unordered_map<std::string, std::vector<uint32_t>> buckets;
  for (uint32_t i = 0; i < games.size(); ++i) {
    if (!key_at[i]) continue;
    const GameInfo& game = games[i];
    std::string bucket = game.white_key;
    bucket += '\0';
    bucket += game.black_key;
    bucket += '\0';
    bucket += NormalizedDate(game.date);
    bucket += '\0';
    bucket += std::to_string(game.start_key) + ":" + std::to_string(*key_at[i]);
    buckets[bucket].push_back(i);
  }
  std::vector<DuplicateGroup> groups;
  for (auto& [bucket, members] : buckets) {
    if (members.size() < 2) continue;
    std::sort(members.begin(), members.end());
    // Equal 64-bit state keys are all but certainly equal states; the moves settle it.
    std::vector<std::pair<std::vector<ActionMoves>, std::vector<uint32_t>>> by_moves;
    for (uint32_t index : members) {
      Result<std::vector<ActionMoves>> actions = store.Actions(games[index].id);
      if (!actions.ok()) return actions.error();
      std::vector<ActionMoves>& moves = actions.value();
      moves.resize(std::min(moves.size(), static_cast<size_t>(twin_actions)));
      auto it = std::find_if(by_moves.begin(), by_moves.end(),
                             [&](const auto& entry) { return entry.first == moves; });
      if (it == by_moves.end()) {
        by_moves.emplace_back(std::move(moves), std::vector<uint32_t>{});
        it = by_moves.end() - 1;
      }
      it->second.push_back(index);
    }
    for (const auto& entry : by_moves) {
      // (A name of its own: clang 14 does not let a lambda capture a structured binding.)
      const std::vector<uint32_t>& twins = entry.second;
      // Games of one same-moves set played the same game's moves: they are twins of another game
      // together, never of each other.
      const bool other_moves = std::any_of(twins.begin(), twins.end(), [&](uint32_t index) {
        return lead[index] != lead[twins.front()];
      });
      if (twins.size() < 2 || !other_moves) continue;
      const GameInfo& first = games[twins.front()];
      DuplicateGroup group;
      group.kind = "twin";
      for (uint32_t index : twins) group.ids.push_back(games[index].id);
      group.reason = "same players (" + first.white + ", " + first.black + "), date " + first.date +
                     " and first " + ActionsText(twin_actions);
      groups.push_back(std::move(group));
    }
  }
  return groups;
}

// What the games of a same-moves set differ in, as its reason says it: "players", "dates" and
// "results" where two of its games have values that differ (schema/copies.h compares them so),
// e.g. "different players or dates".
std::string Differences(const std::vector<GameInfo>& games, const std::vector<uint32_t>& set) {
  // Whether two of the values differ, absent ones aside.
  auto differ = [&](auto value) {
    std::string first;
    for (uint32_t index : set) {
      const std::string v(value(games[index]));
      if (v.empty()) continue;
      if (first.empty()) {
        first = v;
      } else if (v != first) {
        return true;
      }
    }
    return false;
  };
  std::vector<std::string> kinds;
  if (differ([](const GameInfo& g) { return g.white_key; }) ||
      differ([](const GameInfo& g) { return g.black_key; })) {
    kinds.push_back("players");
  }
  if (differ([](const GameInfo& g) { return CopyDate(g.date); })) kinds.push_back("dates");
  if (differ([](const GameInfo& g) { return std::string(CopyResult(g.result)); })) {
    kinds.push_back("results");
  }
  // Originals always differ in one of them; a database written otherwise is still described.
  if (kinds.empty()) kinds = {"players", "dates", "results"};
  std::string out = "different ";
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (i > 0) out += i + 1 == kinds.size() ? " or " : ", ";
    out += kinds[i];
  }
  return out;
}

int64_t SmallestId(const DuplicateGroup& group) {
  return *std::min_element(group.ids.begin(), group.ids.end());
}

}  // namespace

Result<std::vector<DuplicateGroup>> FindDuplicates(GameStore& store,
                                                   const DuplicateOptions& options) {
  const ReadSnapshot snapshot(store.db());
  const int twin_actions = std::max(1, options.twin_actions);
  Result<std::vector<GameInfo>> loaded = LoadGames(store.db());
  if (!loaded.ok()) return loaded.error();
  const std::vector<GameInfo>& games = loaded.value();
  const IdIndex index(games);

  // Copies, as recorded: each original with the games that point to it, ids ascending (a copy
  // always comes after its original).
  std::vector<bool> original(games.size(), true);
  std::unordered_map<uint32_t, std::vector<uint32_t>> copies_of;
  for (uint32_t i = 0; i < games.size(); ++i) {
    if (games[i].duplicate_of == 0) continue;
    original[i] = false;
    const uint32_t of = index.Find(games[i].duplicate_of);
    if (of != kNone) copies_of[of].push_back(i);
  }
  std::vector<DuplicateGroup> exact_groups;
  for (const auto& [of, copies] : copies_of) {
    DuplicateGroup group;
    group.kind = "exact";
    group.ids.push_back(games[of].id);
    for (uint32_t copy : copies) group.ids.push_back(games[copy].id);
    group.reason = "same variant (" + games[of].variant + "), start and " +
                   ActionsText(games[of].actions) +
                   "; same players, date and result where both have them";
    exact_groups.push_back(std::move(group));
  }

  // Originals with the same moves as other originals. Each set is one line of moves: the
  // prefix search below tries it once, through its lowest id (`lead`), and names every game of
  // it.
  Result<std::vector<std::vector<uint32_t>>> same_moves = SameMovesSets(store, games);
  if (!same_moves.ok()) return same_moves.error();
  std::vector<uint32_t> lead(games.size());
  std::iota(lead.begin(), lead.end(), 0u);
  std::vector<uint32_t> set_of(games.size(), kNone);
  std::vector<DuplicateGroup> same_moves_groups;
  for (uint32_t s = 0; s < same_moves.value().size(); ++s) {
    const std::vector<uint32_t>& set = same_moves.value()[s];
    DuplicateGroup group;
    group.kind = "same-moves";
    for (uint32_t member : set) {
      group.ids.push_back(games[member].id);
      lead[member] = set.front();
      set_of[member] = s;
    }
    const GameInfo& first = games[set.front()];
    group.reason = "same variant (" + first.variant + "), start and " + ActionsText(first.actions) +
                   "; " + Differences(games, set);
    same_moves_groups.push_back(std::move(group));
  }

  // Final states of the possible prefixes, chained: final key -> first game, next_prefix[game]
  // -> the next one with that key (several games may end in the same state).
  const uint64_t key_mask = PostingKeyMask(PostingTable::kStates);
  std::unordered_map<uint64_t, uint32_t> first_prefix;
  std::vector<uint32_t> next_prefix(games.size(), kNone);
  first_prefix.reserve(games.size());
  for (uint32_t i = 0; i < games.size(); ++i) {
    if (!original[i] || lead[i] != i || games[i].actions < 1) continue;
    auto [it, inserted] = first_prefix.emplace(games[i].final_key & key_mask, i);
    if (!inserted) {
      next_prefix[i] = it->second;
      it->second = i;
    }
  }
  // Twins need known players and date and at least twin_actions actions.
  std::vector<bool> twin_eligible(games.size(), false);
  for (uint32_t i = 0; i < games.size(); ++i) {
    const GameInfo& game = games[i];
    twin_eligible[i] = original[i] && game.actions >= twin_actions && Known(game.white) &&
                       Known(game.black) && Known(game.date);
  }

  // One pass over every state of every game.
  Result<PostingReader> reader = PostingReader::Create(store.db(), PostingTable::kStates);
  if (!reader.ok()) return reader.error();
  std::vector<Candidate> candidates;
  std::vector<std::optional<uint64_t>> key_at(games.size());
  const uint32_t twin_action = static_cast<uint32_t>(twin_actions);
  Status error = reader.value().ForEach([&](const Posting& posting) {
    const uint32_t longer = index.Find(posting.game_id);
    if (longer == kNone || !original[longer]) return true;
    const uint32_t action = posting.value >> 1;
    if (action == twin_action && twin_eligible[longer]) key_at[longer] = posting.key;
    if (lead[longer] != longer) return true;  // its set's lowest id stands for it
    if (action == 0 || static_cast<int>(action) >= games[longer].actions) return true;
    auto it = first_prefix.find(posting.key);
    if (it == first_prefix.end()) return true;
    for (uint32_t prefix = it->second; prefix != kNone; prefix = next_prefix[prefix]) {
      if (games[prefix].actions == static_cast<int>(action)) {
        candidates.push_back(Candidate{prefix, longer});
      }
    }
    return true;
  });
  if (!error.ok()) return error;

  Result<std::vector<uint32_t>> extension = LongestExtensions(store, games, &candidates);
  if (!extension.ok()) return extension.error();
  std::unordered_map<uint32_t, std::vector<uint32_t>> prefixes_of;
  for (uint32_t i = 0; i < games.size(); ++i) {
    const uint32_t longer = extension.value()[i];
    if (longer == kNone) continue;
    // Every game of a same-moves set is the start of the longer game.
    std::vector<uint32_t> alike{i};
    if (set_of[i] != kNone) alike = same_moves.value()[set_of[i]];
    for (uint32_t prefix : alike) {
      prefixes_of[longer].push_back(prefix);
      // A prefix is reported with its complete game, not as a twin.
      key_at[prefix].reset();
    }
  }
  std::vector<DuplicateGroup> prefix_groups;
  for (auto& [longer, prefixes] : prefixes_of) {
    std::sort(prefixes.begin(), prefixes.end(), [&](uint32_t x, uint32_t y) {
      if (games[x].actions != games[y].actions) return games[x].actions > games[y].actions;
      return x < y;
    });
    std::vector<uint32_t> members{longer};
    members.insert(members.end(), prefixes.begin(), prefixes.end());
    DuplicateGroup group;
    group.kind = "prefix";
    for (uint32_t member : members) group.ids.push_back(games[member].id);
    group.reason = PrefixReason(games, members);
    prefix_groups.push_back(std::move(group));
  }

  Result<std::vector<DuplicateGroup>> twins = TwinGroups(store, games, key_at, lead, twin_actions);
  if (!twins.ok()) return twins.error();

  std::vector<DuplicateGroup> groups;
  for (std::vector<DuplicateGroup>* kind :
       {&exact_groups, &same_moves_groups, &prefix_groups, &twins.value()}) {
    std::sort(kind->begin(), kind->end(), [](const DuplicateGroup& x, const DuplicateGroup& y) {
      return SmallestId(x) < SmallestId(y);
    });
    for (DuplicateGroup& group : *kind) groups.push_back(std::move(group));
  }
  for (DuplicateGroup& group : groups) {
    for (int64_t id : group.ids) {
      const GameInfo& game = games[index.Find(id)];
      group.games.push_back(
          {id, game.white, game.black, game.date, game.result, game.duplicate_of});
    }
  }
  return groups;
}

namespace {

// Sets of game ids (union-find over the ids of the groups).
class IdSets {
 public:
  void Join(int64_t a, int64_t b) {
    const int64_t root_a = Root(a);
    const int64_t root_b = Root(b);
    if (root_a != root_b) parent_[std::max(root_a, root_b)] = std::min(root_a, root_b);
  }
  int64_t Root(int64_t id) {
    int64_t root = id;
    while (true) {
      const int64_t parent = parent_.try_emplace(root, root).first->second;
      if (parent == root) break;
      root = parent;
    }
    // Path compression keeps later lookups short.
    while (id != root) {
      int64_t& parent = parent_[id];
      id = std::exchange(parent, root);
    }
    return root;
  }
  std::vector<int64_t> Ids() const {
    std::vector<int64_t> ids;
    for (const auto& [id, parent] : parent_) ids.push_back(id);
    return ids;
  }

 private:
  std::unordered_map<int64_t, int64_t> parent_;
};

// How complete a copy is; a larger value is kept.
struct Completeness {
  int actions = 0;
  size_t headers = 0;
  size_t comments = 0;
  int64_t id = 0;

  bool operator<(const Completeness& other) const {
    if (actions != other.actions) return actions < other.actions;
    if (headers != other.headers) return headers < other.headers;
    if (comments != other.comments) return comments < other.comments;
    return id > other.id;  // the lower id wins a tie
  }
};

Result<Completeness> CompletenessOf(GameStore& store, int64_t id) {
  Result<std::optional<GameRow>> row = store.Row(id);
  if (!row.ok()) return row.error();
  if (!row.value()) return Status::Database("game " + std::to_string(id) + " does not exist", 1);
  Result<GameTexts> texts = store.Texts(id);
  if (!texts.ok()) return texts.error();
  const SyntaxResult parsed = ParseGameSyntax(texts.value().text);
  Completeness completeness;
  completeness.actions = row.value()->actions;
  completeness.headers = parsed.game.headers.size();
  completeness.comments = parsed.game.comments.size();
  for (const SyntaxAction& action : parsed.game.actions) {
    completeness.comments += action.comments.size();
  }
  completeness.id = id;
  return completeness;
}

}  // namespace

Result<int> ExportUnique(GameStore& store, const std::vector<DuplicateGroup>& groups,
                         std::ostream& out, const ExportUniqueOptions& options,
                         std::vector<int64_t>* written_ids) {
  const ReadSnapshot snapshot(store.db());
  IdSets sets;
  for (const DuplicateGroup& group : groups) {
    // Games of a same-moves group are different games; twins may be.
    if (group.kind == "same-moves") continue;
    if (group.kind == "twin" && !options.collapse_twins) continue;
    for (int64_t id : group.ids) sets.Join(group.ids.front(), id);
  }
  std::unordered_map<int64_t, Completeness> best;  // set root -> its most complete copy
  for (int64_t id : sets.Ids()) {
    Result<Completeness> completeness = CompletenessOf(store, id);
    if (!completeness.ok()) return completeness.error();
    auto [it, inserted] = best.emplace(sets.Root(id), completeness.value());
    if (!inserted && it->second < completeness.value()) it->second = completeness.value();
  }
  std::unordered_set<int64_t> dropped;
  for (int64_t id : sets.Ids()) {
    if (best.at(sets.Root(id)).id != id) dropped.insert(id);
  }

  Result<Statement> ids = store.db().Prepare("SELECT id FROM games ORDER BY id");
  if (!ids.ok()) return ids.error();
  int written = 0;
  while (true) {
    Result<StepResult> step = ids.value().Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kDone) break;
    const int64_t id = ids.value().Int64(0);
    if (dropped.count(id) != 0) continue;
    Result<std::optional<GameRow>> row = store.Row(id);
    if (!row.ok()) return row.error();
    if (!row.value()) continue;  // cannot happen in a read snapshot
    Result<std::string> text = ExportGame(store, *row.value(), ExportForm::kOriginal);
    if (!text.ok()) return text.error();
    if (written > 0) out << '\n';
    out << text.value();
    if (!out) return Status::Database("cannot write the exported games", 1);
    if (written_ids != nullptr) written_ids->push_back(id);
    ++written;
  }
  out.flush();
  if (!out) return Status::Database("cannot write the exported games", 1);
  return written;
}

// Where the table's ids and reasons start: after "same-moves" and a space.
constexpr size_t kKindColumn = 11;

void WriteDuplicatesTable(const std::vector<DuplicateGroup>& groups, std::string* out) {
  if (groups.empty()) {
    *out += "no duplicates\n";
    return;
  }
  // The kinds' names and the reasons start in one column, after the longest name.
  const std::string indent(kKindColumn, ' ');
  int exact = 0, same_moves = 0, prefix = 0, twin = 0;
  size_t games = 0;
  for (const DuplicateGroup& group : groups) {
    std::string line = group.kind;
    line.resize(std::max<size_t>(line.size() + 1, kKindColumn), ' ');
    line += "ids ";
    for (size_t i = 0; i < group.ids.size(); ++i) {
      if (i > 0) line += ", ";
      line += std::to_string(group.ids[i]);
    }
    *out += line + "\n" + indent + group.reason + "\n\n";
    exact += group.kind == "exact";
    same_moves += group.kind == "same-moves";
    prefix += group.kind == "prefix";
    twin += group.kind == "twin";
    games += group.ids.size();
  }
  *out += std::to_string(groups.size()) + (groups.size() == 1 ? " group" : " groups") + " of " +
          std::to_string(games) + " games: " + std::to_string(exact) + " exact, " +
          std::to_string(same_moves) + " same-moves, " + std::to_string(prefix) + " prefix, " +
          std::to_string(twin) + (twin == 1 ? " twin\n" : " twins\n");
}

Json DuplicatesJson(const std::vector<DuplicateGroup>& groups) {
  Json json = Json::array();
  for (const DuplicateGroup& group : groups) {
    Json games = Json::array();
    for (const DuplicateGame& game : group.games) {
      // Headers as find's objects write them: empty when missing.
      games.push_back(
          {{"id", game.id},
           {"white", game.white},
           {"black", game.black},
           {"date", game.date},
           {"result", game.result},
           {"duplicate_of", game.duplicate_of != 0 ? Json(game.duplicate_of) : Json(nullptr)}});
    }
    json.push_back({{"kind", group.kind},
                    {"ids", group.ids},
                    {"reason", group.reason},
                    {"games", std::move(games)}});
  }
  return json;
}

void WriteDuplicatesJson(const std::vector<DuplicateGroup>& groups, std::string* out) {
  *out += DumpJson(DuplicatesJson(groups)) + "\n";
}

}  // namespace fived
