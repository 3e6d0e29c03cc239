// 5d-index verify; see verify.h.
#include "indexer/verify.h"

#include <sqlite3.h>
#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "indexer/analyze.h"
#include "schema/db.h"
#include "schema/ending.h"
#include "schema/game_check.h"
#include "schema/meta.h"
#include "schema/page_checksums.h"
#include "schema/pattern_index.h"
#include "schema/position_stats.h"
#include "schema/postings.h"
#include "schema/record.h"

namespace fived {
namespace {

// What a game contributes to each derived table, order-free: how many entries and a sum of their
// hashes. The same digest is made from the tables and from replaying the record.
struct Tally {
  long count = 0;
  uint64_t sum = 0;
  void Add(uint64_t a, uint64_t b = 0) {
    ++count;
    const uint64_t pair[2] = {a, b};
    sum += XXH3_64bits(pair, sizeof pair);
  }
  bool operator==(const Tally&) const = default;
};

struct GameDigest {
  Tally states, md5s, boards, features, headers;
  uint64_t stream = 0;  // XXH3-64 of the board stream; 0 when none
};

// Which tables a digest's tallies come from, for the messages.
constexpr std::pair<Tally GameDigest::*, const char*> kTallies[] = {
    {&GameDigest::states, "state postings"}, {&GameDigest::md5s, "state MD5 postings"},
    {&GameDigest::boards, "board keys"},     {&GameDigest::features, "piece postings"},
    {&GameDigest::headers, "headers"},
};

class Verifier {
 public:
  Verifier(Database& db, VerifyReport& report) : db_(db), report_(report), codecs_(db) {}

  // Runs every check; false when the file could not be read (report_.error says why).
  bool Run() {
    const ReadSnapshot snapshot(db_);
    return Integrity() && Meta() && Games() && Postings() && Patterns() && Headers() &&
           Statistics() && Compare();
  }

 private:
  void Problem(std::string line) {
    if (report_.problems.size() < kMaxProblems) {
      report_.problems.push_back(std::move(line));
    } else {
      ++report_.more_problems;
    }
  }
  void GameProblem(int64_t id, const std::string& what) {
    damaged_.insert(id);
    Problem("game " + std::to_string(id) + ": " + what);
  }
  // A failure while reading `what`: damage SQLite found (the check goes on with the next table),
  // or anything else, which ends it (false).
  bool Failed(const std::string& what, const Status& error) {
    const int code = error.primary_detail();
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB || code == 0 ||
        error.detail() == SQLITE_IOERR_DATA) {
      Problem(what + ": " + error.message());
      return true;
    }
    report_.error = db_.Path() + ": " + error.message();
    return false;
  }

  bool Integrity() {
    for (const char* pragma : {"PRAGMA integrity_check(100)", "PRAGMA foreign_key_check"}) {
      Result<Statement> check = db_.Prepare(pragma);
      if (!check.ok()) return Failed(pragma + 7, check.error());
      const bool integrity = std::string_view(pragma).find("integrity") != std::string_view::npos;
      while (true) {
        Result<StepResult> step = check.value().Step();
        if (!step.ok()) return Failed(pragma + 7, step.error());
        if (step.value() == StepResult::kDone) break;
        const Statement& row = check.value();
        if (integrity) {
          if (row.Text(0) != "ok") Problem("integrity_check: " + std::string(row.Text(0)));
        } else {
          Problem("foreign_key_check: a row of " + std::string(row.Text(0)) + " (rowid " +
                  std::string(row.Text(1)) + ") names a missing row of " +
                  std::string(row.Text(2)));
        }
      }
    }
    return true;
  }

  bool Meta() {
    Result<int> actions = PositionStatsActions(db_);
    if (!actions.ok()) return Failed("meta", actions.error());
    stats_actions_ = actions.value();
    if (stats_actions_ < 1 || stats_actions_ > 64) {
      Problem("meta: " + std::string(MetaKeyName(MetaKey::kPositionStatsActions)) + " is " +
              std::to_string(stats_actions_));
      stats_actions_ = 0;
    }
    Result<std::optional<std::string>> md5s = ReadMeta(db_, MetaKey::kStateMd5);
    if (!md5s.ok()) return Failed("meta", md5s.error());
    const std::string value = md5s.value().value_or("");
    if (value != StateMd5sText(StateMd5s::kAll) && value != StateMd5sText(StateMd5s::kFinal)) {
      Problem("meta: " + std::string(MetaKeyName(MetaKey::kStateMd5)) + " is '" + value + "'");
    }
    all_state_md5_ = value == StateMd5sText(StateMd5s::kAll);
    // Missing in a database made before the row existed (read as 1); otherwise a version number.
    Result<std::optional<std::string>> version = ReadMeta(db_, MetaKey::kTacticsVersion);
    if (!version.ok()) return Failed("meta", version.error());
    if (version.value()) {
      const std::string& text = *version.value();
      int number = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
      if (error != std::errc() || end != text.data() + text.size() || number < 1) {
        Problem("meta: " + std::string(MetaKeyName(MetaKey::kTacticsVersion)) + " is '" + text +
                "'");
      }
    }
    return true;
  }

  // Every game: its checksum and record, and what replaying its text gives.
  bool Games() {
    Result<Statement> select = db_.Prepare(
        std::string("SELECT id, ") + kGameSoundSql +
        ", record, coalesce(dictionary_id, 0), actions, start_key, final_key, identity, "
        "final_md5, duplicate_of IS NULL, result, date, verdict, checked_side FROM games "
        "ORDER BY id");
    if (!select.ok()) return Failed("games", select.error());
    Statement& s = select.value();
    AnalyzeOptions options;
    options.verdict_budget = 0;  // the endings are stored; replaying does not decide them again
    options.opening_actions = stats_actions_;
    options.all_state_md5 = all_state_md5_;
    while (true) {
      Result<StepResult> step = s.Step();
      if (!step.ok()) return Failed("games", step.error());
      if (step.value() == StepResult::kDone) break;
      ++report_.games;
      const int64_t id = s.Int64(0);
      if (s.Int64(1) != 1) {
        GameProblem(id, "record damaged");
        continue;
      }
      Result<RecordCodec*> codec = codecs_.For(s.Int64(3));
      if (!codec.ok()) return Failed("dictionaries", codec.error());
      RawGame raw;
      std::string moves;
      if (codec.value() == nullptr || !codec.value()->Decompress(s.Blob(2), &raw.text, &moves)) {
        GameProblem(id, "record damaged (it does not decompress)");
        continue;
      }
      const GameRecord game = AnalyzeGame(std::move(raw), options);
      if (game.rejected || game.actions != s.Int64(4) || game.start_key != KeyFromSql(s.Int64(5)) ||
          game.final_key != KeyFromSql(s.Int64(6)) || game.identity != KeyFromSql(s.Int64(7)) ||
          game.final_md5 != s.Text(8) || game.moves != moves) {
        GameProblem(id, "its row disagrees with a replay of its record");
        continue;
      }
      GameDigest& digest = expected_[id];
      for (const StateRow& state : game.states) {
        digest.states.Add(state.key, static_cast<uint64_t>(2 * state.action + state.to_move));
      }
      for (size_t i = 0; i < game.state_md5s.size(); ++i) {
        const StateRow& state = game.states[i];
        digest.md5s.Add(game.state_md5s[i] & PostingKeyMask(PostingTable::kStateMd5s),
                        static_cast<uint64_t>(2 * state.action + state.to_move));
      }
      for (uint64_t key : game.board_keys) {
        digest.boards.Add(key & PostingKeyMask(PostingTable::kBoardKeys));
      }
      for (uint32_t feature : game.piece_features) {
        digest.features.Add(feature);
      }
      int position = 0;
      for (const auto& [name, value] : game.headers) {
        digest.headers.Add(XXH3_64bits(name.data(), name.size()),
                           XXH3_64bits(value.data(), value.size()) + position++);
      }
      digest.stream = XXH3_64bits(game.board_stream.data(), game.board_stream.size());
      if (s.Int64(9) == 1) CountOpening(game, s);
    }
    return true;
  }

  // As the indexer counts an original game in position_actions (indexer/writer.cc).
  void CountOpening(const GameRecord& game, const Statement& s) {
    std::optional<Decision::Verdict> verdict;
    std::optional<Color> checked_side;
    if (!s.IsNull(12)) verdict = VerdictFromSql(s.Int64(12));
    if (!s.IsNull(13)) checked_side = SideFromSql(s.Int64(13));
    ActionStat stat = GameStat(s.Text(10), verdict, checked_side, s.Text(11));
    const int last = std::min(game.actions, stats_actions_ - 1);
    for (int a = 0; a <= last && a < static_cast<int>(game.states.size()); ++a) {
      const bool ended = a == game.actions;
      if (!ended && a >= static_cast<int>(game.opening.size())) break;
      stat.hash = ended ? 0 : game.opening[a].first;
      stat.text = ended ? std::string() : game.opening[a].second;
      auto [it, added] = stats_.try_emplace({game.states[a].key, stat.hash}, stat);
      if (!added) it->second.Add(stat);
    }
  }

  GameDigest& Found(int64_t id) { return found_[id]; }

  bool Postings() {
    const std::pair<PostingTable, Tally GameDigest::*> tables[] = {
        {PostingTable::kStates, &GameDigest::states},
        {PostingTable::kStateMd5s, &GameDigest::md5s},
        {PostingTable::kBoardKeys, &GameDigest::boards}};
    for (const auto& [table, tally] : tables) {
      Result<PostingReader> reader = PostingReader::Create(db_, table);
      if (!reader.ok()) return Failed(PostingTableName(table), reader.error());
      auto error = reader.value().ForEach([&, tally = tally](const Posting& p) {
        (Found(p.game_id).*tally).Add(p.key, p.value);
        return true;
      });
      if (!error.ok() && !Failed(PostingTableName(table), error)) return false;
    }
    return true;
  }

  bool Patterns() {
    Result<PatternIndexReader> reader = PatternIndexReader::Create(db_);
    if (!reader.ok()) return Failed("board_streams", reader.error());
    auto error = reader.value().ForEachStream([&](int64_t id, std::string_view stream) {
      Found(id).stream = XXH3_64bits(stream.data(), stream.size());
      return true;
    });
    if (!error.ok() && !Failed("board_streams", error)) return false;
    Result<Statement> select = db_.Prepare("SELECT chunk, feature, data FROM piece_postings");
    if (!select.ok()) return Failed("piece_postings", select.error());
    std::map<uint32_t, int64_t> counted;
    std::vector<int64_t> ids;
    while (true) {
      Result<StepResult> step = select.value().Step();
      if (!step.ok()) return Failed("piece_postings", step.error());
      if (step.value() == StepResult::kDone) break;
      const Statement& row = select.value();
      const uint32_t feature = static_cast<uint32_t>(row.Int64(1));
      ids.clear();
      if (!DecodeFeatureChunk(row.Blob(2), &ids)) {
        Problem("piece_postings: chunk " + std::string(row.Text(0)) + " of feature " +
                std::to_string(feature) + " is damaged");
        continue;
      }
      for (int64_t id : ids) Found(id).features.Add(feature);
      counted[feature] += static_cast<int64_t>(ids.size());
    }
    Result<Statement> counts = db_.Prepare("SELECT feature, games FROM piece_counts");
    if (!counts.ok()) return Failed("piece_counts", counts.error());
    std::map<uint32_t, int64_t> stored;
    while (true) {
      Result<StepResult> step = counts.value().Step();
      if (!step.ok()) return Failed("piece_counts", step.error());
      if (step.value() == StepResult::kDone) break;
      stored[static_cast<uint32_t>(counts.value().Int64(0))] = counts.value().Int64(1);
    }
    for (const auto& [feature, games] : counted) {
      auto it = stored.find(feature);
      const int64_t count = it == stored.end() ? 0 : it->second;
      if (count != games) {
        Problem("piece_counts: feature " + std::to_string(feature) + " counts " +
                std::to_string(count) + " games, its postings hold " + std::to_string(games));
      }
    }
    for (const auto& [feature, games] : stored) {
      if (games != 0 && !counted.count(feature)) {
        Problem("piece_counts: feature " + std::to_string(feature) + " counts " +
                std::to_string(games) + " games, its postings none");
      }
    }
    return true;
  }

  bool Headers() {
    Result<Statement> select = db_.Prepare("SELECT game_id, name, value, position FROM headers");
    if (!select.ok()) return Failed("headers", select.error());
    while (true) {
      Result<StepResult> step = select.value().Step();
      if (!step.ok()) return Failed("headers", step.error());
      if (step.value() == StepResult::kDone) break;
      const Statement& row = select.value();
      const std::string_view name = row.Text(1), value = row.Text(2);
      Found(row.Int64(0))
          .headers.Add(
              XXH3_64bits(name.data(), name.size()),
              XXH3_64bits(value.data(), value.size()) + static_cast<uint64_t>(row.Int64(3)));
    }
    Result<int64_t> rejected = QueryInt(db_, "SELECT count(*) FROM rejected");
    if (!rejected.ok()) return Failed("rejected", rejected.error());
    report_.rejected = static_cast<long>(rejected.value());
    return true;
  }

  bool Statistics() {
    // Damaged games cannot be counted again: what is wrong with them is said already.
    if (stats_actions_ == 0 || !damaged_.empty()) return true;
    Result<Statement> select = db_.Prepare(
        "SELECT state_key, action, text, games, white_wins, draws, black_wins, derived, "
        "coalesce(first_day, 0), coalesce(last_day, 0) FROM position_actions");
    if (!select.ok()) return Failed("position_actions", select.error());
    std::set<std::pair<uint64_t, uint64_t>> seen;
    while (true) {
      Result<StepResult> step = select.value().Step();
      if (!step.ok()) return Failed("position_actions", step.error());
      if (step.value() == StepResult::kDone) break;
      const Statement& row = select.value();
      const std::pair<uint64_t, uint64_t> key{KeyFromSql(row.Int64(0)), KeyFromSql(row.Int64(1))};
      seen.insert(key);
      auto it = stats_.find(key);
      const std::string where = "position_actions: the action " + std::string(row.Text(2)) +
                                " of state " + std::to_string(key.first);
      if (it == stats_.end()) {
        Problem(where + " is played by no game");
        continue;
      }
      const ActionStat& a = it->second;
      if (a.games != row.Int64(3) || a.white_wins != row.Int64(4) || a.draws != row.Int64(5) ||
          a.black_wins != row.Int64(6) || a.derived != row.Int64(7) ||
          TreeDay(a.first_date) != row.Int64(8) || TreeDay(a.last_date) != row.Int64(9) ||
          (key.second != 0 && a.text != row.Text(2))) {
        Problem(where + " counts " + std::to_string(row.Int64(3)) + " games, a recount " +
                std::to_string(a.games) + " (or their results or dates differ)");
      }
    }
    for (const auto& [key, stat] : stats_) {
      if (!seen.count(key)) {
        Problem("position_actions: the action " + stat.text + " of state " +
                std::to_string(key.first) + " is missing (" + std::to_string(stat.games) +
                " games played it)");
      }
    }
    return true;
  }

  // The games whose derived tables differ from their replay; postings of games that are not
  // there.
  bool Compare() {
    const GameDigest none;
    for (const auto& [id, expected] : expected_) {
      auto it = found_.find(id);
      const GameDigest& found = it == found_.end() ? none : it->second;
      for (const auto& [tally, name] : kTallies) {
        if (!(expected.*tally == found.*tally)) {
          GameProblem(id, std::string(name) + " disagree with its record (" +
                              std::to_string((found.*tally).count) + " stored, " +
                              std::to_string((expected.*tally).count) + " recounted)");
        }
      }
      if (expected.stream != found.stream) {
        GameProblem(id, "its board stream disagrees with its record");
      }
    }
    for (const auto& [id, found] : found_) {
      if (expected_.count(id) || damaged_.count(id)) continue;
      Problem("game " + std::to_string(id) + " is not in games, but " +
              (found.states.count > 0 ? "state postings" : "the pattern index or headers") +
              " name it");
    }
    report_.damaged_games.assign(damaged_.begin(), damaged_.end());
    return true;
  }

  Database& db_;
  VerifyReport& report_;
  int stats_actions_ = 0;
  bool all_state_md5_ = false;
  RecordCodecs codecs_;
  std::map<int64_t, GameDigest> expected_, found_;
  std::map<std::pair<uint64_t, uint64_t>, ActionStat> stats_;
  std::set<int64_t> damaged_;
};

}  // namespace

VerifyReport VerifyDatabase(const std::string& path) {
  VerifyReport report;
  Result<Database> opened = OpenDatabase(path, OpenMode::kReadOnly);
  if (!opened.ok()) {
    report.verdict = VerifyReport::Verdict::kUnreadable;
    report.error = opened.error().message();
    return report;
  }
  // Every page against its checksum first, straight from the file: the checks below stop at
  // the first damaged page each of their statements reads.
  const PageChecksumReport pages = CheckPageChecksums(path);
  for (int64_t page : pages.bad_pages) {
    if (report.problems.size() < kMaxProblems) {
      report.problems.push_back("page " + std::to_string(page) + ": fails its checksum");
    } else {
      ++report.more_problems;
    }
  }
  Verifier verifier(opened.value(), report);
  if (!verifier.Run()) {
    report.verdict = VerifyReport::Verdict::kUnreadable;
    return report;
  }
  report.verdict =
      report.problems.empty() ? VerifyReport::Verdict::kSound : VerifyReport::Verdict::kDamaged;
  return report;
}

}  // namespace fived
