// 5d-index merge; see merge.h.
#include "indexer/merge.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/board_stream.h"
#include "core/tactics.h"
#include "schema/copies.h"
#include "schema/db.h"
#include "schema/ending.h"
#include "schema/game_check.h"
#include "schema/game_columns.h"
#include "schema/meta.h"
#include "schema/pattern_index.h"
#include "schema/position_stats.h"
#include "schema/postings.h"
#include "schema/record.h"
#include "schema/search_keys.h"
#include "schema/sql.h"

namespace fived {
namespace {

// A game's own values are copied as they are (schema/game_columns.h), so its checksum stays
// right (schema/game_check.h); the ids it holds are renumbered. CopyGames selects the values
// first, in kGameValueColumns' order, then these columns of the input.
constexpr int kValueColumns = static_cast<int>(kGameValueColumns.size());
constexpr int kSelectedId = kValueColumns;
constexpr int kSelectedSource = kValueColumns + 1;
constexpr int kSelectedDictionary = kValueColumns + 2;  // 0 for none
constexpr int kSelectedSound = kValueColumns + 3;       // 1 when the row matches its checksum

// The place of a value in CopyGames' select.
constexpr int SelectedValue(std::string_view name) {
  return static_cast<int>(GameValueColumn(name));
}
static_assert(SelectedValue("identity") < kValueColumns &&
              SelectedValue("white_key") < kValueColumns &&
              SelectedValue("black_key") < kValueColumns && SelectedValue("date") < kValueColumns &&
              SelectedValue("result") < kValueColumns);

// The value columns' names, in order, as "byte_offset, game_index, ...".
std::string ValueColumnList() {
  std::string list;
  for (const GameColumn& column : kGameValueColumns) {
    if (!list.empty()) list += ", ";
    list += column.name;
  }
  return list;
}

// Games are committed in transactions of this many, and the statistics counted in passes of it.
constexpr int64_t kGamesPerPass = 100000;

// What must agree between the databases merged (schema/meta.h).
struct Settings {
  int stats_actions = 0;
  StateMd5s state_md5s = StateMd5s::kFinal;
  bool tactics = false;
  bool operator==(const Settings&) const = default;
};

Result<Settings> ReadSettings(Database& db) {
  Result<int> stats = PositionStatsActions(db);
  if (!stats.ok()) return stats.error();
  Result<StateMd5s> md5s = ReadStateMd5s(db);
  if (!md5s.ok()) return md5s.error();
  Result<bool> tactics = ReadTactics(db);
  if (!tactics.ok()) return tactics.error();
  return Settings{stats.value(), md5s.value(), tactics.value()};
}

// What decides whether a game of the output is the original of a new one (schema/copies.h).
struct StoredGame {
  uint64_t start_key = 0;
  std::string moves;  // canonical
  std::string white_key, black_key, date, result;
  CopyHeaders headers() const { return {white_key, black_key, date, result}; }
};

// The start, canonical moves and compared headers of a stored game of `db`.
Result<StoredGame> ReadStoredGame(Database& db, RecordCodecs& codecs, int64_t id) {
  Result<Statement> select = db.Prepare(
      "SELECT start_key, record, coalesce(dictionary_id, 0), white_key, black_key, date, result "
      "FROM games WHERE id = ?1");
  if (!select.ok()) return select.error();
  Statement& s = select.value();
  s.Bind(1, id);
  Result<StepResult> step = s.Step();
  if (!step.ok()) return step.error();
  if (step.value() != StepResult::kRow)
    return Status::Database("game " + std::to_string(id) + " is gone");
  Result<RecordCodec*> codec = codecs.For(s.Int64(2));
  if (!codec.ok()) return codec.error();
  StoredGame game;
  std::string text;
  if (codec.value() == nullptr || !codec.value()->Decompress(s.Blob(1), &text, &game.moves)) {
    return Status::Database("game " + std::to_string(id) + ": its record cannot be read");
  }
  game.start_key = KeyFromSql(s.Int64(0));
  game.white_key = std::string(s.Text(3));
  game.black_key = std::string(s.Text(4));
  game.date = std::string(s.Text(5));
  game.result = std::string(s.Text(6));
  return game;
}

// Merges one input into the output (attached as `src`), in one transaction.
class InputMerge {
 public:
  InputMerge(Database& out, Database& in, RecordCodecs& out_codecs, OriginalsByIdentity& originals,
             MergeSummary& summary)
      : out_(out),
        in_(in),
        out_codecs_(out_codecs),
        in_codecs_(in),
        originals_(originals),
        summary_(summary) {}

  Status Run() {
    if (Status error = CopyDictionaries(); !error.ok()) return error;
    if (Status error = CopySources(); !error.ok()) return error;
    if (Status error = CopyGames(); !error.ok()) return error;
    if (Status error = CopyHeadersAndRejections(); !error.ok()) return error;
    for (PostingTable table :
         {PostingTable::kStates, PostingTable::kBoardKeys, PostingTable::kStateMd5s}) {
      if (Status error = CopyPostings(table); !error.ok()) return error;
    }
    return CopyPatternIndex();
  }

 private:
  // A dictionary the output has already (the input was merged before: a merge run again after
  // an error) is used as it is rather than copied again. The output holds one per indexing run
  // or merged input, so comparing them all costs nothing.
  Status CopyDictionaries() {
    Result<Statement> select = in_.Prepare("SELECT id, data, created_at FROM dictionaries");
    if (!select.ok()) return select.error();
    Result<Statement> existing =
        out_.Prepare("SELECT id FROM dictionaries WHERE data = ?1 ORDER BY id LIMIT 1");
    if (!existing.ok()) return existing.error();
    Result<Statement> insert =
        out_.Prepare("INSERT INTO dictionaries(data, created_at) VALUES(?1, ?2)");
    if (!insert.ok()) return insert.error();
    while (true) {
      Result<StepResult> step = select.value().Step();
      if (!step.ok()) return step.error();
      if (step.value() == StepResult::kDone) break;
      Statement& found = existing.value().Reset().Bind(1, select.value().Blob(1));
      Result<StepResult> row = found.Step();
      if (!row.ok()) return row.error();
      if (row.value() == StepResult::kRow) {
        dictionaries_[select.value().Int64(0)] = found.Int64(0);
        found.Reset();
        continue;
      }
      found.Reset();
      insert.value().Reset().BindAll(select.value().Blob(1), select.value().Text(2));
      if (Status error = insert.value().Run(); !error.ok()) return error;
      dictionaries_[select.value().Int64(0)] = out_.LastInsertRowId();
    }
    return Status();
  }

  Status CopySources() {
    Result<Statement> select = in_.Prepare(
        "SELECT id, path, member, size, mtime_ns, content_hash, resume_offset, resume_line, "
        "resume_games, first_indexed, last_indexed FROM sources");
    if (!select.ok()) return select.error();
    // A file indexed into both keeps what the output knew of it; a new one what the input did.
    Result<Statement> insert = out_.Prepare(
        "INSERT INTO sources(path, member, size, mtime_ns, content_hash, resume_offset, "
        "resume_line, resume_games, first_indexed, last_indexed) "
        "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT(path, member) DO UPDATE "
        "SET last_indexed = max(last_indexed, excluded.last_indexed) RETURNING id");
    if (!insert.ok()) return insert.error();
    Statement& s = select.value();
    Statement& i = insert.value();
    while (true) {
      Result<StepResult> step = s.Step();
      if (!step.ok()) return step.error();
      if (step.value() == StepResult::kDone) break;
      i.Reset().ClearBindings();
      for (int column = 1; column <= 10; ++column) {
        if (s.IsNull(column)) {
          i.Bind(column, nullptr);
        } else if (column <= 2 || column >= 9) {
          i.Bind(column, s.Text(column));
        } else {
          i.Bind(column, s.Int64(column));
        }
      }
      Result<StepResult> inserted = i.Step();
      if (!inserted.ok()) return inserted.error();
      sources_[s.Int64(0)] = i.Int64(0);
      i.Reset();
    }
    return Status();
  }

  Status CopyGames() {
    Result<Statement> select = in_.Prepare("SELECT " + ValueColumnList() +
                                           ", id, source_id, coalesce(dictionary_id, 0), " +
                                           kGameSoundSql + " FROM games ORDER BY id");
    if (!select.ok()) return select.error();
    // The values bound as ?1 to ?kValueColumns, then the new ids.
    std::string placeholders;
    for (int k = 1; k <= kValueColumns + 3; ++k) {
      placeholders += (k > 1 ? ", ?" : "?") + std::to_string(k);
    }
    constexpr int kBoundSource = kValueColumns + 1;
    constexpr int kBoundOriginal = kValueColumns + 2;
    constexpr int kBoundDictionary = kValueColumns + 3;
    Result<Statement> insert =
        out_.Prepare("INSERT OR IGNORE INTO games(" + ValueColumnList() +
                     ", source_id, duplicate_of, dictionary_id) VALUES(" + placeholders + ")");
    if (!insert.ok()) return insert.error();
    Statement& s = select.value();
    Statement& i = insert.value();
    while (true) {
      Result<StepResult> step = s.Step();
      if (!step.ok()) return step.error();
      if (step.value() == StepResult::kDone) break;
      ++summary_.games;
      const int64_t old_id = s.Int64(kSelectedId);
      // A damaged game is not copied: the merge stops, as on any error of its input.
      if (s.Int64(kSelectedSound) != 1) {
        return Status::Database("game " + std::to_string(old_id) + ": record damaged",
                                SQLITE_CORRUPT);
      }
      const uint64_t identity = KeyFromSql(s.Int64(SelectedValue("identity")));
      const CopyHeaders headers{s.Text(SelectedValue("white_key")),
                                s.Text(SelectedValue("black_key")), s.Text(SelectedValue("date")),
                                s.Text(SelectedValue("result"))};
      const CopyKey key = CopyKey::Of(headers);
      const int64_t dictionary = s.Int64(kSelectedDictionary);
      // The original it is a copy of among the games before it, as the indexer finds it: the
      // first original of its identity whose headers agree with its own and whose moves are its
      // own.
      std::vector<int64_t> candidates;
      originals_.FindAgreeing(identity, key, [&](const OriginalsByIdentity::Original& o) {
        candidates.push_back(o.id);
        return false;
      });
      int64_t original = 0;
      std::optional<StoredGame> ours;
      for (const int64_t candidate : candidates) {
        if (!ours) {
          Result<StoredGame> read = ReadStoredGame(in_, in_codecs_, old_id);
          if (!read.ok()) return read.error();
          ours = std::move(read).value();
        }
        Result<StoredGame> theirs = ReadStoredGame(out_, out_codecs_, candidate);
        if (!theirs.ok()) return theirs.error();
        if (theirs.value().start_key == ours->start_key && theirs.value().moves == ours->moves &&
            HeadersAgree(theirs.value().headers(), ours->headers())) {
          original = candidate;
          break;
        }
      }
      i.Reset().ClearBindings();
      for (int k = 0; k < kValueColumns; ++k) {
        if (s.IsNull(k)) continue;  // NULL: bindings were cleared
        switch (kGameValueColumns[k].type) {
          case ColumnType::kInteger:
            i.Bind(k + 1, s.Int64(k));
            break;
          case ColumnType::kText:
            i.Bind(k + 1, s.Text(k));
            break;
          case ColumnType::kBlob:
            i.Bind(k + 1, s.Blob(k));
            break;
        }
      }
      i.Bind(kBoundSource, sources_.at(s.Int64(kSelectedSource)));
      if (original != 0) i.Bind(kBoundOriginal, original);
      if (dictionary != 0) i.Bind(kBoundDictionary, dictionaries_.at(dictionary));
      if (Status error = i.Run(); !error.ok()) return error;
      if (out_.Changes() == 0) {  // the same game of the same file is there already
        ++summary_.skipped;
        continue;
      }
      const int64_t new_id = out_.LastInsertRowId();
      if (games_.size() <= static_cast<size_t>(old_id)) games_.resize(old_id + 1, 0);
      games_[old_id] = new_id;
      ++summary_.merged;
      if (original != 0) {
        ++summary_.duplicates;
      } else {
        originals_.Add(identity, new_id, key);
      }
    }
    return Status();
  }

  // Headers and rejections through the attached input, with the new ids from temporary maps.
  Status CopyHeadersAndRejections() {
    if (Status error = out_.Exec(
            "CREATE TEMP TABLE IF NOT EXISTS merge_games(old INTEGER PRIMARY KEY, new INTEGER);"
            "CREATE TEMP TABLE IF NOT EXISTS merge_sources(old INTEGER PRIMARY KEY, new INTEGER);"
            "DELETE FROM merge_games; DELETE FROM merge_sources");
        !error.ok()) {
      return error;
    }
    Result<Statement> game = out_.Prepare("INSERT INTO merge_games VALUES(?1, ?2)");
    if (!game.ok()) return game.error();
    for (size_t old_id = 0; old_id < games_.size(); ++old_id) {
      if (games_[old_id] == 0) continue;
      game.value().Reset().BindAll(static_cast<int64_t>(old_id), games_[old_id]);
      if (Status error = game.value().Run(); !error.ok()) return error;
    }
    Result<Statement> source = out_.Prepare("INSERT INTO merge_sources VALUES(?1, ?2)");
    if (!source.ok()) return source.error();
    for (const auto& [old_id, new_id] : sources_) {
      source.value().Reset().BindAll(old_id, new_id);
      if (Status error = source.value().Run(); !error.ok()) return error;
    }
    if (Status error = out_.Exec(
            "INSERT INTO headers(name, value, game_id, position) SELECT h.name, h.value, m.new, "
            "h.position FROM src.headers h JOIN merge_games m ON m.old = h.game_id");
        !error.ok()) {
      return error;
    }
    if (Status error = out_.Exec(
            "INSERT INTO tactics(game_id, action, side, answer, mating, complete, played, "
            "solution) SELECT m.new, t.action, t.side, t.answer, t.mating, t.complete, t.played, "
            "t.solution FROM src.tactics t JOIN merge_games m ON m.old = t.game_id");
        !error.ok()) {
      return error;
    }
    const int64_t before = QueryInt(out_, "SELECT total_changes()").value();
    if (Status error = out_.Exec(
            "INSERT OR IGNORE INTO rejected(source_id, byte_offset, game_index, text_hash, line, "
            "col, token, message, text) SELECT m.new, r.byte_offset, r.game_index, r.text_hash, "
            "r.line, r.col, r.token, r.message, r.text FROM src.rejected r "
            "JOIN merge_sources m ON m.old = r.source_id ORDER BY r.id");
        !error.ok()) {
      return error;
    }
    summary_.rejected += QueryInt(out_, "SELECT total_changes()").value() - before;
    return Status();
  }

  // Copies every chunk of a posting table under new chunk numbers (after the output's), with the
  // game ids renumbered and the postings of games not copied left out. Ids only grow with the
  // old ones, so each chunk stays sorted.
  // The games' board streams under their new ids, and their piece features again (read from the
  // streams), written a part at a time so that a large input is never held whole.
  Status CopyPatternIndex() {
    constexpr size_t kPartBytes = 64 << 20;
    Result<PatternIndexReader> reader = PatternIndexReader::Create(in_);
    if (!reader.ok()) return reader.error();
    Result<PatternIndexWriter> writer = PatternIndexWriter::Create(out_);
    if (!writer.ok()) return writer.error();
    BoardStreamReader stream_reader;
    std::vector<uint32_t> features;
    Status failed;
    auto copy = [&](int64_t old_id, std::string_view stream) {
      const size_t old = static_cast<size_t>(old_id);
      const int64_t new_id = old < games_.size() ? games_[old] : 0;
      if (new_id == 0) return true;  // already in the output
      features.clear();
      if (!BoardStreamFeatures(stream, stream_reader, &features)) {
        failed = Status::Database(in_.Path() + ": the board stream of game " +
                                  std::to_string(old_id) + " is damaged");
        return false;
      }
      writer.value().Add(new_id, stream, features);
      if (writer.value().pending_bytes() >= kPartBytes) failed = writer.value().Write();
      return failed.ok();
    };
    if (Status error = reader.value().ForEachStream(copy); !error.ok()) return error;
    if (!failed.ok()) return failed;
    return writer.value().Write();
  }

  Status CopyPostings(PostingTable table) {
    const std::string name = PostingTableName(table);
    Result<int64_t> next = QueryInt(out_, "SELECT coalesce(max(chunk), -1) + 1 FROM " + name);
    if (!next.ok()) return next.error();
    Result<Statement> select =
        in_.Prepare("SELECT chunk, bucket, data FROM " + name + " ORDER BY chunk, bucket");
    if (!select.ok()) return select.error();
    Result<Statement> insert =
        out_.Prepare("INSERT INTO " + name + "(chunk, bucket, data) VALUES(?1, ?2, ?3)");
    if (!insert.ok()) return insert.error();
    std::vector<Posting> postings;
    Statement& s = select.value();
    while (true) {
      Result<StepResult> step = s.Step();
      if (!step.ok()) return step.error();
      if (step.value() == StepResult::kDone) break;
      const uint32_t bucket = static_cast<uint32_t>(s.Int64(1));
      postings.clear();
      if (!DecodeChunk(bucket, s.Blob(2), &postings, table)) {
        return Status::Database(in_.Path() + ": malformed chunk in " + name);
      }
      size_t kept = 0;
      for (const Posting& posting : postings) {
        const size_t old_id = static_cast<size_t>(posting.game_id);
        const int64_t new_id = old_id < games_.size() ? games_[old_id] : 0;
        if (new_id == 0) continue;
        postings[kept] = posting;
        postings[kept].game_id = new_id;
        ++kept;
      }
      postings.resize(kept);
      if (postings.empty()) continue;
      const std::string data = EncodeChunk(postings, table);
      insert.value().Reset().BindAll(
          next.value() + s.Int64(0), static_cast<int64_t>(bucket),
          std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(data.data()), data.size()));
      if (Status error = insert.value().Run(); !error.ok()) return error;
    }
    return Status();
  }

  Database& out_;
  Database& in_;
  RecordCodecs& out_codecs_;
  RecordCodecs in_codecs_;
  OriginalsByIdentity& originals_;  // the originals of the output, by identity
  MergeSummary& summary_;
  std::map<int64_t, int64_t> dictionaries_;  // input id -> output id
  std::map<int64_t, int64_t> sources_;
  std::vector<int64_t> games_;  // by input id: output id, 0 when not copied
};

// Counts the per-position action statistics again over the originals of `db`
// (schema/position_stats.h), as the indexer counts them game by game: the state keys of each
// game's first actions come from its state postings, the actions from its record.
Status RecountPositionStats(Database& db) {
  Result<int> depth = PositionStatsActions(db);
  if (!depth.ok()) return depth.error();
  const int actions = depth.value();
  if (Status error = db.Exec("DELETE FROM position_actions"); !error.ok()) return error;
  if (actions <= 0) return Status();
  Result<int64_t> last = QueryInt(db, "SELECT coalesce(max(id), 0) FROM games");
  if (!last.ok()) return last.error();
  Result<PositionStatsWriter> writer = PositionStatsWriter::Create(db);
  if (!writer.ok()) return writer.error();
  RecordCodecs codecs(db);
  Result<PostingReader> reader = PostingReader::Create(db, PostingTable::kStates);
  if (!reader.ok()) return reader.error();
  Result<Statement> select = db.Prepare(
      "SELECT id, result, date, verdict, checked_side, actions, record, "
      "coalesce(dictionary_id, 0) FROM games WHERE duplicate_of IS NULL AND id > ?1 AND id <= ?2 "
      "ORDER BY id");
  if (!select.ok()) return select.error();
  // In passes of game ids, so that the state keys kept stay small.
  for (int64_t from = 0; from < last.value(); from += kGamesPerPass) {
    const int64_t to = std::min(last.value(), from + kGamesPerPass);
    std::vector<uint64_t> keys(static_cast<size_t>((to - from) * actions), 0);
    std::vector<uint8_t> known(keys.size(), 0);
    if (Status error = reader.value().ForEach([&](const Posting& posting) {
          const int action = static_cast<int>(posting.value / 2);
          if (posting.game_id > from && posting.game_id <= to && action < actions) {
            const size_t slot =
                static_cast<size_t>((posting.game_id - from - 1) * actions + action);
            keys[slot] = posting.key;
            known[slot] = 1;
          }
          return true;
        });
        !error.ok()) {
      return error;
    }
    Statement& s = select.value();
    s.Reset().BindAll(from, to);
    std::vector<std::string_view> moves;
    std::vector<uint64_t> hashes;  // the action hashes of the game being counted
    while (true) {
      Result<StepResult> step = s.Step();
      if (!step.ok()) return step.error();
      if (step.value() == StepResult::kDone) break;
      const int64_t id = s.Int64(0);
      std::optional<Decision::Verdict> verdict;
      if (!s.IsNull(3)) verdict = VerdictFromSql(s.Int64(3));
      std::optional<Color> checked_side;
      if (!s.IsNull(4)) checked_side = SideFromSql(s.Int64(4));
      ActionStat stat = GameStat(s.Text(1), verdict, checked_side, s.Text(2));
      const int game_actions = static_cast<int>(s.Int64(5));
      Result<RecordCodec*> codec = codecs.For(s.Int64(7));
      if (!codec.ok()) return codec.error();
      std::string text, movetext;
      if (codec.value() == nullptr || !codec.value()->Decompress(s.Blob(6), &text, &movetext)) {
        return Status::Database("game " + std::to_string(id) + ": its record cannot be read");
      }
      // The texts of its first actions.
      std::vector<std::string> played;
      moves.clear();
      int action = -1;
      auto finish = [&] {
        if (action >= 0 && !moves.empty()) {
          std::string joined;
          for (size_t k = 0; k < moves.size(); ++k) {
            if (k > 0) joined += ' ';
            joined += moves[k];
          }
          played.push_back(std::move(joined));
          stat.hash = ActionHash(moves);
          hashes.push_back(stat.hash);
        }
        moves.clear();
      };
      hashes.clear();
      ForEachCanonicalToken(movetext, [&](std::string_view token, bool marker) {
        if (marker || action < 0) {
          finish();
          ++action;
          if (action >= actions) return false;
          if (marker) return true;
        }
        moves.push_back(token);
        return true;
      });
      if (action < actions) finish();
      const int visits = std::min(game_actions, actions - 1);
      for (int a = 0; a <= visits; ++a) {
        const size_t slot = static_cast<size_t>((id - from - 1) * actions + a);
        if (!known[slot]) break;  // (a game always has its states posted)
        const bool ended = a == game_actions;
        if (!ended && a >= static_cast<int>(played.size())) break;
        stat.hash = ended ? 0 : hashes[a];
        stat.text = ended ? std::string() : played[a];
        writer.value().Add(keys[slot], stat);
      }
    }
    s.Reset();
    if (Status error = writer.value().Write(); !error.ok()) return error;
  }
  return Status();
}

}  // namespace

MergeResult RunMerge(const MergeOptions& options) {
  MergeResult result;
  MergeSummary& summary = result.summary;
  // Ends the merge with `failure`, said by `message`.
  auto end = [&](MergeResult::Failure failure, std::string message) {
    result.failure = failure;
    result.message = std::move(message);
    return result;
  };
  // Every input is checked before anything is written.
  std::optional<Settings> settings;
  // With tactics: the oldest search that found the inputs' mates in one (schema/meta.h).
  int tactics_version = kTacticsVersion;
  for (const std::string& input : options.inputs) {
    std::error_code ec;
    if (std::filesystem::exists(options.output, ec) &&
        std::filesystem::equivalent(input, options.output, ec)) {
      return end(MergeResult::Failure::kRefused, input + ": is the output of the merge");
    }
    Result<Database> opened = OpenDatabase(input, OpenMode::kReadOnly);
    if (!opened.ok()) {
      // A file that is not a database to merge is refused; one that cannot be read, not.
      const int code = opened.error().primary_detail();
      return end(code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CORRUPT
                     ? MergeResult::Failure::kUnreadable
                     : MergeResult::Failure::kRefused,
                 opened.error().message());
    }
    Result<Settings> read = ReadSettings(opened.value());
    if (!read.ok()) {
      return end(MergeResult::Failure::kUnreadable, input + ": " + read.error().message());
    }
    if (settings && !(*settings == read.value())) {
      return end(MergeResult::Failure::kRefused,
                 input + ": made with other settings than " + options.inputs.front() +
                     " (position statistics of " + std::to_string(read.value().stats_actions) +
                     " actions, MD5s of " + std::string(StateMd5sText(read.value().state_md5s)) +
                     " states, tactics " + std::string(TacticsText(read.value().tactics)) + ")");
    }
    settings = read.value();
    if (settings->tactics) {
      Result<int> version = ReadTacticsVersion(opened.value());
      if (!version.ok()) {
        return end(MergeResult::Failure::kUnreadable, input + ": " + version.error().message());
      }
      tactics_version = std::min(tactics_version, version.value());
    }
  }
  Result<Database> opened = OpenDatabase(options.output, OpenMode::kReadWrite);
  if (!opened.ok()) return end(MergeResult::Failure::kUnreadable, opened.error().message());
  Database& db = opened.value();
  // Stops the merge on a database error: what was committed stays, and the summary counts only
  // that.
  auto fail = [&](const Status& error) {
    summary.database = error;
    return end(MergeResult::Failure::kStopped,
               options.output + ": database error: " + error.message());
  };
  if (Status error = db.Exec("PRAGMA cache_size = -262144"); !error.ok()) return fail(error);
  const Result<int64_t> has_games =
      QueryInt(db, "SELECT EXISTS (SELECT 1 FROM games) OR EXISTS (SELECT 1 FROM rejected)");
  if (!has_games.ok()) return fail(has_games.error());
  const bool empty = has_games.value() == 0;
  if (settings) {
    Result<Settings> own = ReadSettings(db);
    if (!own.ok()) return fail(own.error());
    if (!(own.value() == *settings)) {
      if (!empty || own.value().stats_actions != settings->stats_actions) {
        return end(MergeResult::Failure::kRefused,
                   options.output + ": made with other settings than the inputs");
      }
      // A new output takes the inputs' choice of state MD5s.
      if (Status error = WriteStateMd5s(db, settings->state_md5s); !error.ok()) return fail(error);
      if (Status error = WriteTactics(db, settings->tactics); !error.ok()) return fail(error);
    } else if (settings->tactics && !empty) {
      Result<int> own_version = ReadTacticsVersion(db);
      if (!own_version.ok()) return fail(own_version.error());
      tactics_version = std::min(tactics_version, own_version.value());
    }
    if (settings->tactics) {
      if (Status error = WriteTacticsVersion(db, tactics_version); !error.ok()) return fail(error);
    }
  }
  // Into an empty output, a bulk load: the secondary indexes are built once at the end.
  if (empty) {
    if (Status error = db.Exec(sql::kDropIndexesSql); !error.ok()) return fail(error);
  } else if (Status error = db.Exec(sql::kIndexesSql); !error.ok()) {
    return fail(error);
  }
  OriginalsByIdentity originals;
  {
    Result<Statement> select = db.Prepare(
        "SELECT identity, id, white_key, black_key, date, result FROM games "
        "WHERE duplicate_of IS NULL ORDER BY id");
    if (!select.ok()) return fail(select.error());
    while (true) {
      Result<StepResult> step = select.value().Step();
      if (!step.ok()) return fail(step.error());
      if (step.value() == StepResult::kDone) break;
      const Statement& row = select.value();
      originals.Add(KeyFromSql(row.Int64(0)), row.Int64(1),
                    CopyKey::Of({row.Text(2), row.Text(3), row.Text(4), row.Text(5)}));
    }
  }
  RecordCodecs out_codecs(db);
  for (const std::string& input : options.inputs) {
    Result<Database> in = OpenDatabase(input, OpenMode::kReadOnly);
    if (!in.ok()) {
      summary.database = in.error();
      return end(MergeResult::Failure::kStopped, in.error().message());
    }
    Result<Statement> attach = db.Prepare("ATTACH DATABASE ?1 AS src");
    if (!attach.ok()) return fail(attach.error());
    if (Status error = attach.value().Bind(1, std::string_view(input)).Run(); !error.ok())
      return fail(error);
    {
      Result<Transaction> transaction = Transaction::Begin(db);
      if (!transaction.ok()) return fail(transaction.error());
      // Counted apart, and in the summary once committed.
      MergeSummary counted;
      InputMerge merge(db, in.value(), out_codecs, originals, counted);
      if (Status error = merge.Run(); !error.ok()) {
        // A damaged game of the input ("game 12: record damaged"): the input is named.
        if (error.primary_detail() == SQLITE_CORRUPT && error.message().starts_with("game ")) {
          return fail(Status::Database(input + ": " + error.message(), error.detail()));
        }
        return fail(error);
      }
      // The opening statistics are counted again with each input, in its transaction, so that
      // a merge stopped later leaves them right for what it committed.
      if (Status error = RecountPositionStats(db); !error.ok()) return fail(error);
      if (Status error = transaction.value().Commit(); !error.ok()) return fail(error);
      ++summary.databases;
      summary.games += counted.games;
      summary.merged += counted.merged;
      summary.duplicates += counted.duplicates;
      summary.skipped += counted.skipped;
      summary.rejected += counted.rejected;
    }
    if (Status error = db.Exec("DETACH DATABASE src"); !error.ok()) return fail(error);
  }
  {
    Result<Transaction> transaction = Transaction::Begin(db);
    if (!transaction.ok()) return fail(transaction.error());
    if (empty) {
      if (Status error = db.Exec(sql::kIndexesSql); !error.ok()) return fail(error);
    }
    if (Status error = transaction.value().Commit(); !error.ok()) return fail(error);
  }
  return result;
}

}  // namespace fived
