// The index mode of 5d-index; see index.h.
#include "indexer/index.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "core/tactics.h"
#include "indexer/pipeline.h"
#include "indexer/writer.h"
#include "schema/db.h"
#include "schema/meta.h"
#include "schema/sql.h"

namespace fived {

namespace {

// Whether a source can be opened for reading (standard input is taken to be readable).
bool CanOpen(const std::string& source) {
  if (source == "-") return true;
  std::ifstream in(source, std::ios::binary);
  return in.is_open();
}

// `error` with the database's name before its message.
Status InDatabase(const std::string& database, const Status& error) {
  return Status(error.code(), database + ": " + error.message(), error.detail());
}

// What IndexInto did.
struct IndexOutcome {
  // Why the database could not be opened or prepared; ok() when it was.
  Status open_status;
  // The run created the database, every input failed and it holds nothing: it is to be removed.
  bool remove_database = false;
};

// Opens (or creates) the database and reads `sources` into it, counting in `summary`.
IndexOutcome IndexInto(const IndexOptions& options, const std::vector<std::string>& sources,
                       uint64_t total_bytes, IndexSummary& summary, IndexReporter& reporter) {
  IndexOutcome outcome;
  Result<Database> opened = OpenDatabase(options.database, OpenMode::kReadWrite);
  if (!opened.ok()) {
    outcome.open_status = opened.error();
    return outcome;
  }
  Database db = std::move(opened).value();
  // A large page cache keeps the key B-trees in memory during bulk loads.
  if (Status error = db.Exec("PRAGMA cache_size = -262144"); !error.ok()) {
    outcome.open_status = InDatabase(options.database, error);
    return outcome;
  }

  // A database without games is bulk loaded: its secondary indexes are dropped now and built
  // when the games are in. Otherwise they are built first if an interrupted bulk load left
  // them out.
  const Result<int64_t> has_games = QueryInt(db, "SELECT EXISTS (SELECT 1 FROM games)");
  if (!has_games.ok()) {
    outcome.open_status = InDatabase(options.database, has_games.error());
    return outcome;
  }
  const bool bulk = has_games.value() == 0;
  if (Status error = db.Exec(bulk ? sql::kDropIndexesSql : sql::kIndexesSql); !error.ok()) {
    outcome.open_status = InDatabase(options.database, error);
    return outcome;
  }
  // Every state's MD5 or the final ones': the database's choice, which only a database without
  // games can still change.
  const Result<StateMd5s> state_md5s = ReadStateMd5s(db);
  if (!state_md5s.ok()) {
    outcome.open_status = InDatabase(options.database, state_md5s.error());
    return outcome;
  }
  // A setting the database does not have yet: only one without games nor rejections may take it
  // up (write(), then true); otherwise open_status says `refusal` and it is false.
  auto take_up = [&](const char* refusal, const auto& write) {
    const Result<int64_t> rejected = QueryInt(db, "SELECT EXISTS (SELECT 1 FROM rejected)");
    if (!bulk || !rejected.ok() || rejected.value() != 0) {
      outcome.open_status = Status::InvalidArgument(options.database + ": " + refusal);
      return false;
    }
    if (Status error = write(); !error.ok()) {
      outcome.open_status = InDatabase(options.database, error);
      return false;
    }
    return true;
  };
  bool all_state_md5 = state_md5s.value() == StateMd5s::kAll;
  if (options.all_state_md5 && !all_state_md5) {
    if (!take_up("this database indexes the MD5 of final states only; --all-state-md5 needs a new "
                 "database (index the collections again into one)",
                 [&] { return WriteStateMd5s(db, StateMd5s::kAll); })) {
      return outcome;
    }
    all_state_md5 = true;
  }
  const Result<bool> has_tactics = ReadTactics(db);
  if (!has_tactics.ok()) {
    outcome.open_status = InDatabase(options.database, has_tactics.error());
    return outcome;
  }
  bool tactics = has_tactics.value();
  if (options.tactics && !tactics) {
    if (!take_up("this database was made without --tactics; --tactics needs a new database "
                 "(index the collections again into one)",
                 [&] {
                   if (Status error = WriteTactics(db, true); !error.ok()) return error;
                   return WriteTacticsVersion(db, kTacticsVersion);
                 })) {
      return outcome;
    }
    tactics = true;
  }
  summary.tactics = tactics;
  if (tactics) {
    Result<int> version = ReadTacticsVersion(db);
    // A database without games holds no earlier search's answers: it takes this build's.
    if (version.ok() && version.value() != kTacticsVersion && bulk) {
      const Status written = WriteTacticsVersion(db, kTacticsVersion);
      version = written.ok() ? Result<int>(kTacticsVersion) : Result<int>(written);
    }
    if (!version.ok()) {
      outcome.open_status = InDatabase(options.database, version.error());
      return outcome;
    }
    summary.tactics_version = version.value();
  }
  const Result<int> stats_actions = PositionStatsActions(db);
  if (!stats_actions.ok()) {
    outcome.open_status = InDatabase(options.database, stats_actions.error());
    return outcome;
  }
  SharedDictionary shared_dictionary;
  Result<std::unique_ptr<Writer>> created =
      Writer::Create(db, stats_actions.value(), sources, summary, reporter, options.commit_every,
                     shared_dictionary, bulk);
  if (!created.ok()) {
    outcome.open_status = InDatabase(options.database, created.error());
    return outcome;
  }
  Writer& writer = *created.value();
  if (std::find(sources.begin(), sources.end(), "-") != sources.end()) {
    if (Status error = writer.RememberBeforeRun(); !error.ok()) {
      summary.database = error;
      summary.input_unread = true;
      return outcome;
    }
  }
  // What the last complete reading of each file saw: unchanged files are skipped, grown ones
  // read from their last game (pipeline.h).
  std::vector<std::optional<FileState>> previous;
  if (!bulk) {
    for (const std::string& source : sources) {
      Result<std::optional<FileState>> state = writer.PreviousState(source);
      if (!state.ok()) {
        summary.database = state.error();
        summary.input_unread = true;
        return outcome;
      }
      previous.push_back(state.value());
    }
  }
  uint64_t bytes_before = 0;  // bytes of the sources already finished
  size_t current_source = 0;
  PipelineCallbacks callbacks;
  callbacks.on_batch = [&](GameBatch&& batch) {
    if (batch.source != current_source) {
      for (size_t s = current_source; s < batch.source; ++s) {
        std::error_code ec;
        if (sources[s] != "-") bytes_before += std::filesystem::file_size(sources[s], ec);
      }
      current_source = batch.source;
    }
    // Known to be the input's last batch when it finishes the last file.
    const bool last = batch.finished && batch.source + 1 == sources.size();
    const uint64_t bytes_done = batch.bytes_done;
    if (Status error = writer.Write(std::move(batch)); !error.ok()) {
      summary.database = error;
      summary.input_unread = !last;
      return false;
    }
    reporter.Progress(bytes_before + bytes_done, total_bytes, summary, writer.Uncommitted());
    return true;
  };
  callbacks.on_analyzed = [&](GameBatch& batch) { shared_dictionary.CompressBatch(batch); };
  std::set<size_t> failed_sources;  // an archive may fail more than once
  callbacks.on_source_error = [&](size_t source, const std::string& message) {
    ++summary.io_errors;
    failed_sources.insert(source);
    reporter.InputError(message);
  };
  const int jobs =
      options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  AnalyzeOptions analyze;
  analyze.verdict_budget = options.verdict_budget;
  analyze.opening_actions = stats_actions.value();
  analyze.all_state_md5 = all_state_md5;
  analyze.tactics = tactics;
  analyze.tactics_budget = options.tactics_budget;
  RunPipeline(sources, previous, jobs, analyze, callbacks);
  if (summary.database.ok()) {
    if (Status error = writer.Finish(); !error.ok()) {
      summary.database = error;
    }
  }
  if (db.created() && summary.database.ok() && summary.games == 0 &&
      failed_sources.size() == sources.size()) {
    // Checked in the file itself, in case another process wrote to it meanwhile.
    const Result<int64_t> rows =
        QueryInt(db, "SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM rejected)");
    outcome.remove_database = rows.ok() && rows.value() == 0;
  }
  return outcome;
}

}  // namespace

IndexResult RunIndex(const IndexOptions& options, IndexReporter* reporter_or_null) {
  const auto start = std::chrono::steady_clock::now();
  IndexReporter silent;
  IndexReporter& reporter = reporter_or_null ? *reporter_or_null : silent;
  IndexResult result;
  IndexSummary& summary = result.summary;
  std::vector<std::string> input_errors;
  const std::vector<std::string> sources = ExpandInputs(options.inputs, &input_errors);
  for (const std::string& message : input_errors) reporter.InputError(message);
  summary.io_errors += static_cast<long>(input_errors.size());
  summary.files = static_cast<long>(sources.size());

  // When no input can be read at all, the database is not opened (nor created).
  const bool readable = std::any_of(sources.begin(), sources.end(), CanOpen);
  if (!readable) {
    for (const std::string& source : sources)
      reporter.InputError(source + ": cannot read the file");
    summary.io_errors += static_cast<long>(sources.size());
  }
  if (readable || summary.io_errors == 0) {
    uint64_t total_bytes = 0;
    for (const std::string& source : sources) {
      std::error_code ec;
      if (source != "-") total_bytes += std::filesystem::file_size(source, ec);
    }
    const IndexOutcome outcome = IndexInto(options, sources, total_bytes, summary, reporter);
    if (!outcome.open_status.ok()) {
      result.open_status = outcome.open_status;
      return result;
    }
    if (outcome.remove_database) {
      for (const char* suffix : {"", "-wal", "-shm"}) {
        std::error_code ignored;
        std::filesystem::remove(options.database + suffix, ignored);
      }
    }
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Every game read is counted once, by what became of it, once that is committed.
  if (!summary.database.ok()) {
    summary.not_stored = summary.games - summary.indexed - summary.rejected - summary.skipped;
  }
  assert(summary.not_stored >= 0 && summary.games == summary.indexed + summary.rejected +
                                                         summary.skipped + summary.not_stored);
  return result;
}

}  // namespace fived
