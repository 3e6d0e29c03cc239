// The database writer of 5d-index; see writer.h.
#include "indexer/writer.h"

#include <cassert>
#include <filesystem>
#include <map>
#include <unordered_map>
#include <utility>

#include "schema/copies.h"
#include "schema/ending.h"
#include "schema/pattern_index.h"
#include "schema/position_stats.h"
#include "schema/postings.h"
#include "schema/record.h"
#include "schema/search_keys.h"
#include "schema/sql.h"
#include "schema/tactics.h"

namespace fived {

namespace {

// Postings (states and board keys) gathered before they are written and committed: some 25,000
// typical games per transaction. It also sizes the posting chunks (about 90 postings per bucket
// and table, under 1 KB),
// which must stay within SQLite's local payload (about 4,000 bytes on the database's 16 KiB
// pages; schema/postings.h).
constexpr size_t kFlushRows = 3'000'000;
// The pattern index's part of a transaction (board streams and piece postings) kept in memory at
// most: about a kilobyte a typical game.
constexpr size_t kFlushPatternBytes = 64 << 20;

// Records are compressed with a dictionary trained on the database's first games: 1,000 of them,
// or fewer when their records reach 3 MiB (about 50 times the dictionary, as zstd advises; the
// training's time grows with the bytes, and long games gave it 10 MB for no smaller records).
constexpr long kDictionarySamples = 1000;
constexpr size_t kDictionarySampleBytes = 3 << 20;
constexpr size_t kMinDictionarySamples = 64;
constexpr size_t kDictionaryBytes = 64 * 1024;

constexpr const char* kInsertSource =
    "INSERT INTO sources(path, member, first_indexed, last_indexed) "
    "VALUES(?1, ?2, datetime('now'), datetime('now')) "
    "ON CONFLICT(path, member) DO UPDATE SET last_indexed = excluded.last_indexed "
    "RETURNING id";
// What a complete reading of a file saw (pipeline.h FileState); NULLs for the resume point of a
// file that is not plain text.
constexpr const char* kFinishSource =
    "UPDATE sources SET size = ?2, mtime_ns = ?3, content_hash = ?4, resume_offset = ?5, "
    "resume_line = ?6, resume_games = ?7, last_indexed = datetime('now') WHERE id = ?1";
// The games and rejections stored from a file (and its members), for an unchanged file's counts.
constexpr const char* kStoredFromFile =
    "SELECT (SELECT count(*) FROM games WHERE source_id IN "
    "(SELECT id FROM sources WHERE path = ?1)), (SELECT count(*) FROM rejected WHERE source_id IN "
    "(SELECT id FROM sources WHERE path = ?1))";
constexpr const char* kPreviousState =
    "SELECT size, mtime_ns, content_hash, resume_offset, resume_line, resume_games "
    "FROM sources WHERE path = ?1 AND member = '' AND content_hash IS NOT NULL";
constexpr const char* kInsertGame =
    "INSERT OR IGNORE INTO games(source_id, byte_offset, game_index, text_hash, variant, width, "
    "height, even_start, white, black, result, date, event, actions, timelines, final_md5, "
    "start_key, final_key, identity, duplicate_of, record, dictionary_id, white_key, black_key, "
    "date_min, date_max, verdict, checked_side, witness, verdict_work, result_conflict, "
    "checksum) "
    "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, "
    "NULLIF(?20, 0), ?21, ?22, ?23, ?24, NULLIF(?25, 0), NULLIF(?26, 0), ?27, ?28, ?29, ?30, ?31, "
    // The row's checksum (schema/game_check.h): the values above in kGameCheckColumns' order.
    "fived_game_check(?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?23, ?24, "
    "NULLIF(?25, 0), NULLIF(?26, 0), ?14, ?15, ?16, ?17, ?18, ?19, ?21, ?27, ?28, ?29, ?30, ?31))";
// The originals of an identity, lowest id first, with what a copy of them must agree with
// (schema/copies.h). The identity index holds (identity, duplicate_of, id): one range of it,
// without the copies, however many there are.
constexpr const char* kOriginalsOfIdentity =
    "SELECT id, white_key, black_key, date, result FROM games "
    "WHERE identity = ?1 AND duplicate_of IS NULL ORDER BY id";
constexpr const char* kOriginalRecord =
    "SELECT start_key, record, dictionary_id, white_key, black_key, date, result FROM games "
    "WHERE id = ?1";
constexpr const char* kLatestDictionary =
    "SELECT id, data FROM dictionaries ORDER BY id DESC LIMIT 1";
constexpr const char* kDictionaryById = "SELECT data FROM dictionaries WHERE id = ?1";
constexpr const char* kInsertDictionary =
    "INSERT INTO dictionaries(data, created_at) VALUES(?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))";
constexpr const char* kInsertHeader =
    "INSERT INTO headers(game_id, position, name, value) VALUES(?1, ?2, ?3, ?4)";
constexpr const char* kInsertRejected =
    "INSERT OR IGNORE INTO rejected(source_id, byte_offset, game_index, text_hash, line, col, "
    "token, message, text) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
// Standard input has no stable place, so its games are recognised by their text among what the
// database held before the run (index.h): the games of an identity up to the last id before the
// run (through the identity index), and the rejections, whose text hashes are loaded once.
constexpr const char* kGamesOfIdentity =
    "SELECT id, text_hash FROM games WHERE identity = ?1 AND id <= ?2";
constexpr const char* kLastGame = "SELECT coalesce(max(id), 0) FROM games";
constexpr const char* kRejectedHashes = "SELECT id, text_hash FROM rejected";
constexpr const char* kRejectedText = "SELECT text FROM rejected WHERE id = ?1";
// An identity with this many earlier games (the same moves under many headers) keeps its
// candidates in memory, so that a stream repeating it does not read them again per game.
constexpr size_t kKeptCandidates = 16;

std::optional<std::string_view> Optional(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return std::string_view(s);
}

// Prepared statements of the writer, made once.
struct Statements {
  Statement source, finish_source, previous_state, stored_from_file, game, originals,
      original_record, latest_dictionary, dictionary_by_id, insert_dictionary, header, rejected,
      games_of_identity, rejected_text;
  std::optional<PostingWriter> states, md5s, boards;
  std::optional<PositionStatsWriter> stats;
  std::optional<PatternIndexWriter> patterns;
  std::optional<TacticsWriter> tactics;
};

Status Prepare(Database& db, Statements* s) {
  struct Item {
    Statement* statement;
    const char* sql;
  } items[] = {{&s->source, kInsertSource},
               {&s->finish_source, kFinishSource},
               {&s->previous_state, kPreviousState},
               {&s->stored_from_file, kStoredFromFile},
               {&s->game, kInsertGame},
               {&s->originals, kOriginalsOfIdentity},
               {&s->original_record, kOriginalRecord},
               {&s->latest_dictionary, kLatestDictionary},
               {&s->dictionary_by_id, kDictionaryById},
               {&s->insert_dictionary, kInsertDictionary},
               {&s->header, kInsertHeader},
               {&s->rejected, kInsertRejected},
               {&s->games_of_identity, kGamesOfIdentity},
               {&s->rejected_text, kRejectedText}};
  for (const Item& item : items) {
    Result<Statement> prepared = db.Prepare(item.sql);
    if (!prepared.ok()) return prepared.error();
    *item.statement = std::move(prepared).value();
  }
  Result<PostingWriter> states = PostingWriter::Create(db, PostingTable::kStates);
  if (!states.ok()) return states.error();
  s->states.emplace(std::move(states).value());
  Result<PostingWriter> boards = PostingWriter::Create(db, PostingTable::kBoardKeys);
  if (!boards.ok()) return boards.error();
  s->boards.emplace(std::move(boards).value());
  Result<PostingWriter> md5s = PostingWriter::Create(db, PostingTable::kStateMd5s);
  if (!md5s.ok()) return md5s.error();
  s->md5s.emplace(std::move(md5s).value());
  Result<PositionStatsWriter> stats = PositionStatsWriter::Create(db);
  if (!stats.ok()) return stats.error();
  s->stats.emplace(std::move(stats).value());
  Result<PatternIndexWriter> patterns = PatternIndexWriter::Create(db);
  if (!patterns.ok()) return patterns.error();
  s->patterns.emplace(std::move(patterns).value());
  Result<TacticsWriter> tactics = TacticsWriter::Create(db);
  if (!tactics.ok()) return tactics.error();
  s->tactics.emplace(std::move(tactics).value());
  return Status();
}

}  // namespace

class Writer::Impl {
 public:
  // In a bulk load (into a database without games) the secondary indexes are built at the end
  // and copies are found through a map of this run's originals.
  Impl(Database& db, int stats_actions, std::unique_ptr<Statements> statements,
       const std::vector<std::string>& sources, IndexSummary& summary, IndexReporter& reporter,
       long commit_every, SharedDictionary& shared, bool bulk)
      : bulk_(bulk),
        stats_actions_(stats_actions),
        db_(db),
        statements_(std::move(statements)),
        s_(*statements_),
        shared_(shared),
        sources_(sources),
        summary_(summary),
        reporter_(reporter),
        file_ids_(sources.size(), 0),
        commit_every_(commit_every) {}

  // Takes a batch. Until the database has a record dictionary, batches wait (up to
  // kDictionarySamples games) so that one can be trained on them; then they are written.
  Status Write(GameBatch&& batch) {
    // Read, whatever becomes of them (the games of an unchanged file count when written).
    for (const GameRecord& game : batch.games) {
      ++summary_.games;
      summary_.warnings += static_cast<long>(game.warnings.size());
    }
    summary_.members_passed += batch.members_passed;
    if (!codec_) {
      if (Status error = LoadDictionary(); !error.ok()) return error;
    }
    if (!codec_) {
      for (const GameRecord& game : batch.games) {
        if (game.rejected) continue;
        ++waiting_games_;
        waiting_bytes_ += game.text.size() + game.moves.size();
      }
      waiting_.push_back(std::move(batch));
      if (waiting_games_ < kDictionarySamples && waiting_bytes_ < kDictionarySampleBytes) {
        return Status();
      }
      return Release();
    }
    return WriteNow(batch);
  }

  // Remembers what the database holds before this run, which the games of standard input are
  // compared with: the last game id and the rejections' text hashes. Call before the first
  // Write when "-" is among the sources.
  Status RememberBeforeRun() {
    Result<int64_t> last = QueryInt(db_, kLastGame);
    if (!last.ok()) return last.error();
    last_game_before_ = last.value();
    Result<Statement> rejected = db_.Prepare(kRejectedHashes);
    if (!rejected.ok()) return rejected.error();
    while (true) {
      Result<StepResult> step = rejected.value().Step();
      if (!step.ok()) return step.error();
      if (step.value() == StepResult::kDone) break;
      rejections_before_.emplace(KeyFromSql(rejected.value().Int64(1)), rejected.value().Int64(0));
    }
    return Status();
  }

  // Writes whatever waits, the kept postings, builds the indexes of a bulk load, and commits.
  Status Finish() {
    if (Status error = Release(); !error.ok()) return error;
    if (bulk_) {
      if (Status error = Begin(); !error.ok()) return error;
      if (Status error = db_.Exec(sql::kIndexesSql); !error.ok()) return error;
    }
    return Flush();
  }

  // Writes the kept postings and commits: everything written so far is durable, and a crash
  // before this point loses only whole games.
  Status Flush() {
    if (!transaction_) return Status();
    if (Status error = s_.states->Write(&states_); !error.ok()) return error;
    if (Status error = s_.boards->Write(&boards_); !error.ok()) return error;
    if (!md5s_.empty()) {
      if (Status error = s_.md5s->Write(&md5s_); !error.ok()) return error;
    }
    if (Status error = s_.stats->Write(); !error.ok()) return error;
    if (Status error = s_.patterns->Write(); !error.ok()) return error;
    states_.clear();
    boards_.clear();
    md5s_.clear();
    Status error = transaction_->Commit();
    transaction_.reset();
    games_since_commit_ = 0;
    if (!error.ok()) return error;
    AddCommitted();
    return Status();
  }

  // What the open transaction counted, not yet in the summary.
  const IndexSummary& Uncommitted() const { return uncommitted_; }

 private:
  // Adds a batch to the open transaction (beginning one when none is open). The postings of the
  // games are kept back and written when enough have gathered (Flush).
  // Begins a transaction when none is open.
  Status Begin() {
    if (transaction_) return Status();
    Result<Transaction> begun = Transaction::Begin(db_);
    if (!begun.ok()) return begun.error();
    transaction_.emplace(std::move(begun).value());
    return Status();
  }

  Status WriteNow(const GameBatch& batch) {
    if (Status error = Begin(); !error.ok()) return error;
    // Standard input is recorded as a source only once one of its games is to be stored.
    const bool standard_input = sources_[batch.source] == "-";
    if (file_ids_[batch.source] == 0 && !standard_input) {
      if (Status error = AddSource(batch.source, "", &file_ids_[batch.source]); !error.ok())
        return error;
    }
    if (batch.unchanged) {
      if (Status error = CountUnchanged(batch.source); !error.ok()) return error;
    }
    // A member's row is made with its first game: an archive's empty members leave no trace.
    int64_t* member_id = nullptr;
    if (!batch.member.empty()) member_id = &member_ids_[{batch.source, batch.member}];
    for (const GameRecord& game : batch.games) {
      if (standard_input) {
        Result<bool> before = game.rejected ? RejectedBefore(game) : IndexedBefore(game);
        if (!before.ok()) return before.error();
        if (before.value()) {
          ++uncommitted_.skipped;
          if (game.rejected) ++uncommitted_.rejected_before;
          continue;
        }
        if (file_ids_[batch.source] == 0) {
          if (Status error = AddSource(batch.source, "", &file_ids_[batch.source]); !error.ok())
            return error;
        }
      }
      if (member_id && *member_id == 0) {
        if (Status error = AddSource(batch.source, batch.member, member_id); !error.ok())
          return error;
      }
      const int64_t source_id = member_id ? *member_id : file_ids_[batch.source];
      auto error =
          game.rejected ? WriteRejected(source_id, batch, game) : WriteGame(source_id, game);
      if (!error.ok()) return error;
    }
    if (batch.finished && !standard_input) {
      if (Status error = FinishSource(file_ids_[batch.source], *batch.finished); !error.ok())
        return error;
    }
    games_since_commit_ += static_cast<long>(batch.games.size());
    if (states_.size() + boards_.size() + md5s_.size() >= kFlushRows ||
        s_.patterns->pending_bytes() >= kFlushPatternBytes ||
        (commit_every_ > 0 && games_since_commit_ >= commit_every_)) {
      return Flush();
    }
    return Status();
  }

  // Uses the database's newest dictionary, when it has one.
  Status LoadDictionary() {
    s_.latest_dictionary.Reset();
    Result<StepResult> step = s_.latest_dictionary.Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kRow) {
      dictionary_id_ = s_.latest_dictionary.Int64(0);
      const std::span<const uint8_t> data = s_.latest_dictionary.Blob(1);
      const std::string_view dictionary(reinterpret_cast<const char*>(data.data()), data.size());
      codec_ = std::make_unique<RecordCodec>(dictionary);
      shared_.Publish(dictionary_id_, dictionary);
    }
    s_.latest_dictionary.Reset();
    return Status();
  }

  // Trains and stores a dictionary on the waiting games (none when there are too few), then
  // writes them.
  Status Release() {
    if (!codec_) {
      std::vector<std::string> samples;
      for (const GameBatch& batch : waiting_) {
        for (const GameRecord& game : batch.games) {
          if (!game.rejected) samples.push_back(game.text + game.moves);
        }
      }
      std::string dictionary;
      if (samples.size() >= kMinDictionarySamples) {
        dictionary = TrainRecordDictionary(samples, kDictionaryBytes);
      }
      if (!dictionary.empty()) {
        if (Status error = Begin(); !error.ok()) return error;
        s_.insert_dictionary.Reset().Bind(
            1, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(dictionary.data()),
                                        dictionary.size()));
        if (Status error = s_.insert_dictionary.Run(); !error.ok()) return error;
        dictionary_id_ = db_.LastInsertRowId();
      }
      codec_ = std::make_unique<RecordCodec>(dictionary);
      shared_.Publish(dictionary_id_, dictionary);
    }
    for (const GameBatch& batch : waiting_) {
      if (Status error = WriteNow(batch); !error.ok()) return error;
    }
    waiting_.clear();
    waiting_games_ = 0;
    waiting_bytes_ = 0;
    return Status();
  }

  // The original `game` is a copy of (schema/copies.h): the first original of its identity, in id
  // order, whose players, date and result agree with the game's (`headers`) and whose start and
  // canonical moves are the game's; 0 for none.
  Result<int64_t> FindOriginal(const GameRecord& game, const CopyHeaders& headers,
                               const CopyKey& key) {
    std::vector<int64_t> candidates;
    if (bulk_) {
      originals_.FindAgreeing(game.identity, key, [&](const OriginalsByIdentity::Original& o) {
        candidates.push_back(o.id);
        return false;
      });
    } else {
      s_.originals.Reset().Bind(1, KeyToSql(game.identity));
      while (true) {
        Result<StepResult> step = s_.originals.Step();
        if (!step.ok()) return step.error();
        if (step.value() == StepResult::kDone) break;
        const Statement& row = s_.originals;
        if (HeadersAgree({row.Text(1), row.Text(2), row.Text(3), row.Text(4)}, headers)) {
          candidates.push_back(row.Int64(0));
        }
      }
      s_.originals.Reset();
    }
    // Usually the first candidate is the one; the others are read only when its moves differ
    // (a hash collision) or, in a bulk load, when a hash hid a difference in its headers.
    for (const int64_t id : candidates) {
      Result<bool> same = SameGame(id, game, headers);
      if (!same.ok()) return same.error();
      if (same.value()) return id;
    }
    return 0;
  }

  // Whether the stored game `id` has the same start and canonical moves (its identity matched:
  // this rules out a hash collision) and headers that agree with `headers`.
  Result<bool> SameGame(int64_t id, const GameRecord& game, const CopyHeaders& headers) {
    uint64_t start_key = 0;
    std::string moves;
    bool agree = false;
    Result<bool> found = ReadStored(id, &start_key, nullptr, &moves, &headers, &agree);
    if (!found.ok() || !found.value()) return found;
    return agree && start_key == game.start_key && moves == game.moves;
  }

  // Reads the start key of stored game `id` and, when asked, its text and canonical moves from
  // its record, and whether its headers agree with `headers` (schema/copies.h) into *agree. False
  // when there is no such game.
  Result<bool> ReadStored(int64_t id, uint64_t* start_key, std::string* text, std::string* moves,
                          const CopyHeaders* headers = nullptr, bool* agree = nullptr) {
    s_.original_record.Reset().Bind(1, id);
    Result<StepResult> step = s_.original_record.Step();
    if (!step.ok()) return step.error();
    if (step.value() != StepResult::kRow) return false;
    *start_key = KeyFromSql(s_.original_record.Int64(0));
    if (headers != nullptr) {
      const Statement& row = s_.original_record;
      *agree = HeadersAgree({row.Text(3), row.Text(4), row.Text(5), row.Text(6)}, *headers);
    }
    const std::span<const uint8_t> record = s_.original_record.Blob(1);
    const std::vector<uint8_t> bytes(record.begin(), record.end());
    std::optional<int64_t> dictionary;
    if (!s_.original_record.IsNull(2)) dictionary = s_.original_record.Int64(2);
    s_.original_record.Reset();
    Result<RecordCodec*> codec = CodecFor(dictionary);
    if (!codec.ok()) return codec.error();
    if (!codec.value()->Decompress(bytes, text, moves)) {
      return Status::Database("game " + std::to_string(id) + ": its record cannot be read");
    }
    return true;
  }

  // The codec of a dictionary (or of none), loaded once.
  Result<RecordCodec*> CodecFor(std::optional<int64_t> dictionary) {
    const int64_t key = dictionary.value_or(0);
    auto it = readers_.find(key);
    if (it != readers_.end()) return it->second.get();
    std::string data;
    if (dictionary) {
      s_.dictionary_by_id.Reset().Bind(1, *dictionary);
      Result<StepResult> step = s_.dictionary_by_id.Step();
      if (!step.ok()) return step.error();
      if (step.value() == StepResult::kRow) {
        const std::span<const uint8_t> blob = s_.dictionary_by_id.Blob(0);
        data.assign(reinterpret_cast<const char*>(blob.data()), blob.size());
      }
      s_.dictionary_by_id.Reset();
    }
    auto [inserted, ok] = readers_.emplace(key, std::make_unique<RecordCodec>(data));
    return inserted->second.get();
  }

  // Whether the database held a game with the text of `game` (from standard input) before this
  // run: the games of its identity stored before, then their text hashes, then their texts.
  Result<bool> IndexedBefore(const GameRecord& game) {
    if (last_game_before_ == 0) return false;
    std::vector<std::pair<uint64_t, int64_t>> read;  // (text hash, id)
    const std::vector<std::pair<uint64_t, int64_t>>* candidates = &read;
    if (auto kept = kept_candidates_.find(game.identity); kept != kept_candidates_.end()) {
      candidates = &kept->second;
    } else {
      s_.games_of_identity.Reset().BindAll(KeyToSql(game.identity), last_game_before_);
      while (true) {
        Result<StepResult> step = s_.games_of_identity.Step();
        if (!step.ok()) return step.error();
        if (step.value() == StepResult::kDone) break;
        read.emplace_back(KeyFromSql(s_.games_of_identity.Int64(1)), s_.games_of_identity.Int64(0));
      }
      s_.games_of_identity.Reset();
      if (read.size() >= kKeptCandidates) {
        candidates = &kept_candidates_.emplace(game.identity, std::move(read)).first->second;
      }
    }
    for (const auto& [text_hash, id] : *candidates) {
      if (text_hash != game.text_hash) continue;
      Result<bool> same = SameText(id, game.text);
      if (!same.ok() || same.value()) return same;
    }
    return false;
  }

  // Whether stored game `id` has the text `text` (its text hash matched: this rules out a
  // collision).
  Result<bool> SameText(int64_t id, const std::string& text) {
    uint64_t start_key = 0;
    std::string stored;
    Result<bool> found = ReadStored(id, &start_key, &stored, nullptr);
    if (!found.ok() || !found.value()) return found;
    return stored == text;
  }

  // Whether a rejection with the text of `game` (from standard input) was recorded before this
  // run.
  Result<bool> RejectedBefore(const GameRecord& game) {
    const auto [begin, end] = rejections_before_.equal_range(game.text_hash);
    for (auto it = begin; it != end; ++it) {
      s_.rejected_text.Reset().Bind(1, it->second);
      Result<StepResult> step = s_.rejected_text.Step();
      if (!step.ok()) return step.error();
      const bool same = step.value() == StepResult::kRow &&
                        s_.rejected_text.Text(0) == std::string_view(game.text);
      s_.rejected_text.Reset();
      if (same) return true;
    }
    return false;
  }

  // Finds or adds the sources row of source `source`'s `member` ("" for the file itself).
  Status AddSource(size_t source, const std::string& member, int64_t* id) {
    s_.source.Reset().BindAll(std::string_view(StoredSourcePath(sources_[source])),
                              std::string_view(member));
    Result<StepResult> step = s_.source.Step();
    if (!step.ok()) return step.error();
    *id = s_.source.Int64(0);
    s_.source.Reset();
    return Status();
  }

  // Counts an original game in the position statistics of its first actions (position_stats.h):
  // each position it reached, with the action it played there or "" where it ended.
  void CountOpening(const GameRecord& game) {
    std::optional<Decision::Verdict> verdict;
    std::optional<Color> checked_side;
    if (game.decided) {
      verdict = game.verdict;
      if (game.in_check) checked_side = game.to_move;
    }
    ActionStat stat = GameStat(game.result, verdict, checked_side, game.date);
    // The states after 0 to stats_actions_ - 1 actions (and not past the game's end).
    const int last = std::min(game.actions, stats_actions_ - 1);
    for (int a = 0; a <= last && a < static_cast<int>(game.states.size()); ++a) {
      const bool ended = a == game.actions;
      assert(ended || a < static_cast<int>(game.opening.size()));
      stat.hash = ended ? 0 : game.opening[a].first;
      stat.text = ended ? std::string() : game.opening[a].second;
      s_.stats->Add(game.states[a].key, stat);
    }
  }

  // An unchanged file was not read: its games and rejections count as read and already indexed,
  // as they would have been, so that the summary and the exit status say the same as before.
  Status CountUnchanged(size_t source) {
    ++summary_.unchanged_files;
    s_.stored_from_file.Reset().Bind(1, std::string_view(StoredSourcePath(sources_[source])));
    Result<StepResult> step = s_.stored_from_file.Step();
    if (!step.ok()) return step.error();
    const long games = static_cast<long>(s_.stored_from_file.Int64(0));
    const long rejected = static_cast<long>(s_.stored_from_file.Int64(1));
    s_.stored_from_file.Reset();
    summary_.games += games + rejected;
    uncommitted_.skipped += games + rejected;
    uncommitted_.rejected_before += rejected;
    return Status();
  }

  // Adds what the transaction just committed counted to the summary, which counts only what is
  // stored (index_summary.h).
  void AddCommitted() {
    IndexSummary& to = summary_;
    const IndexSummary& from = uncommitted_;
    to.indexed += from.indexed;
    to.rejected += from.rejected;
    to.duplicates += from.duplicates;
    to.skipped += from.skipped;
    to.rejected_before += from.rejected_before;
    to.checkmates += from.checkmates;
    to.stalemates += from.stalemates;
    to.playable += from.playable;
    to.unknown += from.unknown;
    to.undecided += from.undecided;
    to.result_conflicts += from.result_conflicts;
    to.tactic_positions += from.tactic_positions;
    to.tactic_mates += from.tactic_mates;
    to.tactic_found += from.tactic_found;
    to.tactic_missed += from.tactic_missed;
    to.tactic_unknown += from.tactic_unknown;
    uncommitted_ = IndexSummary();
  }

  // Records what a complete reading of a file saw, in the transaction of its last games.
  Status FinishSource(int64_t id, const FileState& state) {
    std::optional<int64_t> offset, line, games;
    if (state.resumable) {
      offset = static_cast<int64_t>(state.resume.offset);
      line = state.resume.line;
      games = state.resume.games;
    }
    s_.finish_source.Reset().BindAll(id, static_cast<int64_t>(state.size), state.mtime_ns,
                                     KeyToSql(state.content_hash), offset, line, games);
    return s_.finish_source.Run();
  }

 public:
  Result<std::optional<FileState>> PreviousState(const std::string& source) {
    if (source == "-") return std::optional<FileState>();
    s_.previous_state.Reset().Bind(1, std::string_view(StoredSourcePath(source)));
    Result<StepResult> step = s_.previous_state.Step();
    if (!step.ok()) return step.error();
    std::optional<FileState> state;
    if (step.value() == StepResult::kRow) {
      const Statement& row = s_.previous_state;
      state.emplace();
      state->size = static_cast<uint64_t>(row.Int64(0));
      state->mtime_ns = row.Int64(1);
      state->content_hash = KeyFromSql(row.Int64(2));
      state->resumable = !row.IsNull(3);
      state->resume =
          GameSplitter::Start{static_cast<uint64_t>(row.Int64(3)), static_cast<int>(row.Int64(4)),
                              static_cast<int>(row.Int64(5))};
    }
    s_.previous_state.Reset();
    return state;
  }

 private:
  Status WriteRejected(int64_t source_id, const GameBatch& batch, const GameRecord& game) {
    s_.rejected.Reset().BindAll(source_id, static_cast<int64_t>(game.byte_offset), game.game_index,
                                KeyToSql(game.text_hash), game.error_line, game.error_column,
                                std::string_view(game.error_token),
                                std::string_view(game.error_message), std::string_view(game.text));
    if (Status error = s_.rejected.Run(); !error.ok()) return error;
    if (db_.Changes() == 0) {
      ++uncommitted_.skipped;
      ++uncommitted_.rejected_before;
      return Status();
    }
    ++uncommitted_.rejected;
    reporter_.Rejected(SourceName(sources_[batch.source], batch.member), game.error_message);
    return Status();
  }

  // A game's tactics rows, counted for the summary.
  Status WriteTactics(int64_t id, const GameRecord& game) {
    uncommitted_.tactic_positions += game.tactics_positions;
    for (const PositionTactics& row : game.tactics) {
      if (Status error = s_.tactics->Add(id, row); !error.ok()) return error;
      if (row.unknown) {
        ++uncommitted_.tactic_unknown;
        continue;
      }
      ++uncommitted_.tactic_mates;
      if (row.played == true) ++uncommitted_.tactic_found;
      if (row.played == false) ++uncommitted_.tactic_missed;
    }
    return Status();
  }

  Status WriteGame(int64_t source_id, const GameRecord& game) {
    const CopyHeaders headers{game.white_key, game.black_key, game.date, game.result};
    const CopyKey key = bulk_ ? CopyKey::Of(headers) : CopyKey();
    // The game this one is a copy of; 0 for none (game ids start at 1).
    Result<int64_t> found = FindOriginal(game, headers, key);
    if (!found.ok()) return found.error();
    const int64_t original = found.value();
    // Compressed by the worker with this dictionary, or now.
    std::string compressed_here;
    if (game.compressed_with != dictionary_id_) {
      compressed_here = codec_->Compress(game.text, game.moves);
    }
    const std::string& record =
        game.compressed_with == dictionary_id_ ? game.compressed : compressed_here;
    std::optional<int64_t> dictionary;
    if (dictionary_id_ != 0) dictionary = dictionary_id_;

    s_.game.Reset().BindAll(
        source_id, static_cast<int64_t>(game.byte_offset), game.game_index,
        KeyToSql(game.text_hash), std::string_view(game.variant), game.width, game.height,
        game.even_start ? 1 : 0, Optional(game.white), Optional(game.black), Optional(game.result),
        Optional(game.date), Optional(game.event), game.actions, game.timelines,
        std::string_view(game.final_md5), KeyToSql(game.start_key), KeyToSql(game.final_key),
        KeyToSql(game.identity), original,
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(record.data()), record.size()),
        dictionary, Optional(game.white_key), Optional(game.black_key),
        static_cast<int64_t>(game.date_first), static_cast<int64_t>(game.date_last));
    // How the game ends (schema/ending.h); NULL when its final position was not decided.
    std::optional<int64_t> verdict, checked_side, work;
    if (game.decided) {
      verdict = VerdictToSql(game.verdict);
      if (game.in_check) checked_side = SideToSql(game.to_move);
      work = static_cast<int64_t>(game.verdict_work);
    }
    s_.game.Bind(27, verdict).Bind(28, checked_side).Bind(29, Optional(game.witness));
    s_.game.Bind(30, work).Bind(31, game.result_conflict ? 1 : 0);
    if (Status error = s_.game.Run(); !error.ok()) return error;
    if (db_.Changes() == 0) {  // this game of this file is already indexed
      ++uncommitted_.skipped;
      return Status();
    }
    const int64_t id = db_.LastInsertRowId();
    if (bulk_ && original == 0) originals_.Add(game.identity, id, key);
    ++uncommitted_.indexed;
    if (original != 0) ++uncommitted_.duplicates;
    if (!game.decided) ++uncommitted_.undecided;
    if (game.decided) {
      switch (game.verdict) {
        case Decision::Verdict::kCheckmate:
          ++uncommitted_.checkmates;
          break;
        case Decision::Verdict::kStalemate:
          ++uncommitted_.stalemates;
          break;
        case Decision::Verdict::kPlayable:
          ++uncommitted_.playable;
          break;
        case Decision::Verdict::kUnknown:
          ++uncommitted_.unknown;
          break;
      }
    }
    if (game.result_conflict) ++uncommitted_.result_conflicts;

    int position = 0;
    for (const auto& [name, value] : game.headers) {
      s_.header.Reset().BindAll(id, position++, std::string_view(name), std::string_view(value));
      if (Status error = s_.header.Run(); !error.ok()) return error;
    }
    for (const StateRow& state : game.states) {
      states_.push_back(
          Posting{state.key, id, static_cast<uint32_t>(2 * state.action + state.to_move)});
    }
    // Every state's MD5, when the database indexes them (as the states, in the same order).
    assert(game.state_md5s.empty() || game.state_md5s.size() == game.states.size());
    for (size_t i = 0; i < game.state_md5s.size(); ++i) {
      const StateRow& state = game.states[i];
      md5s_.push_back(
          Posting{game.state_md5s[i], id, static_cast<uint32_t>(2 * state.action + state.to_move)});
    }
    if (Status error = WriteTactics(id, game); !error.ok()) return error;
    if (original == 0) CountOpening(game);
    for (uint64_t key : game.board_keys) boards_.push_back(Posting{key, id, 0});
    s_.patterns->Add(id, game.board_stream, game.piece_features);
    return Status();
  }

  const bool bulk_;
  const int stats_actions_;        // meta.position_stats_actions
  OriginalsByIdentity originals_;  // bulk load: this run's originals
  Database& db_;
  std::unique_ptr<Statements> statements_;
  Statements& s_;
  SharedDictionary& shared_;
  const std::vector<std::string>& sources_;
  IndexSummary& summary_;
  // The counts of the open transaction, added to summary_ once it commits (games read, warnings,
  // members passed and unchanged files are counted in summary_ at once).
  IndexSummary uncommitted_;
  IndexReporter& reporter_;
  std::vector<int64_t> file_ids_;  // sources row of each file (member ''), 0 until made
  std::map<std::pair<size_t, std::string>, int64_t> member_ids_;  // of (file, member)
  std::optional<Transaction> transaction_;
  std::vector<Posting> states_;
  std::vector<Posting> boards_;
  std::vector<Posting> md5s_;
  long commit_every_ = 0;
  long games_since_commit_ = 0;
  std::unique_ptr<RecordCodec> codec_;  // compresses new records; null until decided
  int64_t dictionary_id_ = 0;           // its dictionary, 0 for none
  std::map<int64_t, std::unique_ptr<RecordCodec>> readers_;  // by dictionary id (0: none)
  std::vector<GameBatch> waiting_;
  long waiting_games_ = 0;
  size_t waiting_bytes_ = 0;  // of their records (text and moves)
  // Standard input (RememberBeforeRun): the last game id before this run (0: none, or no "-"),
  // the ids of the rejections before it by text hash, and the candidates kept per identity.
  int64_t last_game_before_ = 0;
  std::unordered_multimap<uint64_t, int64_t> rejections_before_;
  std::unordered_map<uint64_t, std::vector<std::pair<uint64_t, int64_t>>> kept_candidates_;
};

void SharedDictionary::Publish(int64_t id, std::string_view data) {
  auto dictionary = std::make_shared<const Dictionary>(Dictionary{id, std::string(data)});
  std::lock_guard lock(mu_);
  dictionary_ = std::move(dictionary);
}

std::shared_ptr<const SharedDictionary::Dictionary> SharedDictionary::Get() const {
  std::lock_guard lock(mu_);
  return dictionary_;
}

void SharedDictionary::CompressBatch(GameBatch& batch) const {
  const std::shared_ptr<const Dictionary> dictionary = Get();
  if (!dictionary) return;
  // One codec per worker thread, remade when the dictionary changes.
  thread_local std::shared_ptr<const Dictionary> codec_dictionary;
  thread_local std::unique_ptr<RecordCodec> codec;
  if (codec_dictionary != dictionary) {
    codec = std::make_unique<RecordCodec>(dictionary->data);
    codec_dictionary = dictionary;
  }
  for (GameRecord& game : batch.games) {
    if (game.rejected) continue;
    game.compressed = codec->Compress(game.text, game.moves);
    game.compressed_with = dictionary->id;
  }
}

Result<std::unique_ptr<Writer>> Writer::Create(Database& db, int stats_actions,
                                               const std::vector<std::string>& sources,
                                               IndexSummary& summary, IndexReporter& reporter,
                                               long commit_every, SharedDictionary& shared,
                                               bool bulk) {
  auto statements = std::make_unique<Statements>();
  if (Status error = Prepare(db, statements.get()); !error.ok()) return error;
  return std::unique_ptr<Writer>(
      new Writer(std::make_unique<Impl>(db, stats_actions, std::move(statements), sources, summary,
                                        reporter, commit_every, shared, bulk)));
}

Writer::Writer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Writer::~Writer() = default;

Status Writer::Write(GameBatch&& batch) { return impl_->Write(std::move(batch)); }
Status Writer::RememberBeforeRun() { return impl_->RememberBeforeRun(); }
Status Writer::Finish() { return impl_->Finish(); }
const IndexSummary& Writer::Uncommitted() const { return impl_->Uncommitted(); }
Result<std::optional<FileState>> Writer::PreviousState(const std::string& source) {
  return impl_->PreviousState(source);
}

std::string StoredSourcePath(const std::string& name) {
  if (name == "-") return name;
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(name, ec);
  return ec ? name : absolute.lexically_normal().string();
}

std::string SourceName(const std::string& file, const std::string& member) {
  return member.empty() ? file : file + ":" + member;
}

}  // namespace fived
