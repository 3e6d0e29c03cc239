// The index mode of 5d-index; see index.h.
#include "indexer/index.h"

#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "core/utf8.h"
#include "indexer/pipeline.h"
#include "indexer/writer.h"
#include "schema/db.h"
#include "schema/position_stats.h"
#include "schema/sql.h"

namespace fived {

namespace {

std::string Duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return buffer;
}

// The live progress line on a terminal.
class Progress {
 public:
  Progress(bool enabled, uint64_t total_bytes)
      : enabled_(enabled && isatty(STDERR_FILENO)),
        total_bytes_(total_bytes),
        start_(std::chrono::steady_clock::now()) {}

  // `s` is the summary, `uncommitted` what the open transaction counted besides (shown at once).
  void Update(uint64_t bytes, const IndexSummary& s, const IndexSummary& uncommitted,
              bool force = false) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double rate = seconds > 0 ? s.games / seconds : 0;
    std::string eta = "?";
    if (total_bytes_ > 0 && bytes > 0 && seconds > 0) {
      eta = Duration(seconds * (static_cast<double>(total_bytes_) / bytes - 1));
    }
    std::fprintf(stderr,
                 "\r\033[K%.1f/%.1f MB  %ld games  %.0f games/s  %ld rejected  %ld copies  "
                 "ETA %s",
                 bytes / 1e6, total_bytes_ / 1e6, s.games, rate, s.rejected + uncommitted.rejected,
                 s.duplicates + uncommitted.duplicates, eta.c_str());
  }
  void Finish() {
    if (enabled_) std::fprintf(stderr, "\r\033[K");
  }
  // Clears the line so that a message can be written; the next Update draws it again.
  void Clear() { Finish(); }

 private:
  bool enabled_;
  uint64_t total_bytes_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
};

// The summary as one compact JSON object, its keys in a fixed order (new ones go at the end).
std::string SummaryJson(const std::string& database, const IndexSummary& summary, double rate) {
  nlohmann::ordered_json json = {{"database", database},
                                 {"files", summary.files},
                                 {"games", summary.games},
                                 {"indexed", summary.indexed},
                                 {"rejected", summary.rejected},
                                 {"duplicates", summary.duplicates},
                                 {"skipped", summary.skipped},
                                 {"warnings", summary.warnings},
                                 {"unchanged_files", summary.unchanged_files},
                                 {"members_passed", summary.members_passed},
                                 {"endings",
                                  {{"checkmate", summary.checkmates},
                                   {"stalemate", summary.stalemates},
                                   {"playable", summary.playable},
                                   {"unknown", summary.unknown},
                                   {"undecided", summary.undecided}}},
                                 {"result_conflicts", summary.result_conflicts},
                                 {"io_errors", summary.io_errors},
                                 // Milliseconds are all a person reads of it.
                                 {"seconds", std::round(summary.seconds * 1000) / 1000},
                                 {"games_per_second", static_cast<long>(rate)},
                                 {"database_failed", summary.database_failed},
                                 {"not_stored", summary.not_stored},
                                 {"input_unread", summary.input_unread},
                                 {"database_error", nullptr}};
  if (summary.database_failed) json["database_error"] = summary.database_error;
  // A database path need not be UTF-8; invalid bytes become U+FFFD so the text stays JSON.
  return json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// "N games" or "1 game".
std::string Plural(long n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// After a database error: what was stored before it, what is not, and how to add it.
std::string NotStoredMessage(const IndexSummary& summary) {
  std::string message = Plural(summary.indexed, "game") + " and " +
                        Plural(summary.rejected, "rejection") + " were stored before the error";
  if (summary.not_stored > 0) {
    message += "; the " + Plural(summary.not_stored, "game") + " read since the last commit " +
               (summary.not_stored == 1 ? "is" : "are") + " not stored";
    if (summary.input_unread) message += ", nor is the rest of the input";
    return message + ": running the same command again adds them";
  }
  if (summary.input_unread) {
    return message + "; the rest of the input is not read: running the same command again adds it";
  }
  // What failed came after the games (a bulk load's indexes, say).
  return message +
         " and every game read is in the database: running the same command again completes the "
         "run";
}

// Writes "5d-index: MESSAGE" to err; messages quote file names and input, hence the escaping.
void Report(std::ostream& err, std::string_view message) {
  err << "5d-index: " << EscapeForTerminal(message) << "\n";
}

// Whether a source can be opened for reading (standard input is taken to be readable).
bool CanOpen(const std::string& source) {
  if (source == "-") return true;
  std::ifstream in(source, std::ios::binary);
  return in.is_open();
}

// What IndexInto did.
struct IndexOutcome {
  bool opened = false;  // false: the database could not be opened or prepared (reported)
  // The run created the database, every input failed and it holds nothing: it is to be removed.
  bool remove_database = false;
};

// Opens (or creates) the database and reads `sources` into it, counting in `summary`.
IndexOutcome IndexInto(const IndexOptions& options, const std::vector<std::string>& sources,
                       uint64_t total_bytes, IndexSummary& summary, std::ostream& err) {
  IndexOutcome outcome;
  DbResult<Database> opened = OpenDatabase(options.database, OpenMode::kReadWrite);
  if (!opened.ok()) {
    Report(err, opened.error().message);
    return outcome;
  }
  Database db = std::move(opened).value();
  // A large page cache keeps the key B-trees in memory during bulk loads.
  if (auto error = db.Exec("PRAGMA cache_size = -262144")) {
    Report(err, options.database + ": " + error->message);
    return outcome;
  }

  // A database without games is bulk loaded: its secondary indexes are dropped now and built
  // when the games are in. Otherwise they are built first if an interrupted bulk load left
  // them out.
  const DbResult<int64_t> has_games = QueryInt(db, "SELECT EXISTS (SELECT 1 FROM games)");
  if (!has_games.ok()) {
    Report(err, options.database + ": " + has_games.error().message);
    return outcome;
  }
  const bool bulk = has_games.value() == 0;
  if (auto error = db.Exec(bulk ? sql::kDropIndexesSql : sql::kIndexesSql)) {
    Report(err, options.database + ": " + error->message);
    return outcome;
  }
  // Every state's MD5 or the final ones': the database's choice, which only a database without
  // games can still change.
  DbResult<Statement> state_md5 = db.Prepare("SELECT value FROM meta WHERE key = 'state_md5'");
  if (!state_md5.ok()) {
    Report(err, options.database + ": " + state_md5.error().message);
    return outcome;
  }
  bool all_state_md5 = state_md5.value().Step().ok() && state_md5.value().Text(0) == "all";
  state_md5.value().Reset();
  if (options.all_state_md5 && !all_state_md5) {
    const DbResult<int64_t> rejected = QueryInt(db, "SELECT EXISTS (SELECT 1 FROM rejected)");
    if (!bulk || !rejected.ok() || rejected.value() != 0) {
      Report(err, options.database +
                      ": this database indexes the MD5 of final states only; --all-state-md5 "
                      "needs a new database (index the collections again into one)");
      return outcome;
    }
    if (auto error = db.Exec("UPDATE meta SET value = 'all' WHERE key = 'state_md5'")) {
      Report(err, options.database + ": " + error->message);
      return outcome;
    }
    all_state_md5 = true;
  }
  const DbResult<int> stats_actions = PositionStatsActions(db);
  if (!stats_actions.ok()) {
    Report(err, options.database + ": " + stats_actions.error().message);
    return outcome;
  }
  SharedDictionary shared_dictionary;
  DbResult<std::unique_ptr<Writer>> created =
      Writer::Create(db, stats_actions.value(), sources, summary, err, options.commit_every,
                     shared_dictionary, bulk);
  if (!created.ok()) {
    Report(err, options.database + ": " + created.error().message);
    return outcome;
  }
  outcome.opened = true;
  Writer& writer = *created.value();
  Progress progress(options.progress, total_bytes);
  writer.SetBeforeMessage([&] { progress.Clear(); });
  if (std::find(sources.begin(), sources.end(), "-") != sources.end()) {
    if (auto error = writer.RememberBeforeRun()) {
      summary.database_failed = true;
      summary.database_error = error->message;
      summary.input_unread = true;
      return outcome;
    }
  }
  // What the last complete reading of each file saw: unchanged files are skipped, grown ones
  // read from their last game (pipeline.h).
  std::vector<std::optional<FileState>> previous;
  if (!bulk) {
    for (const std::string& source : sources) {
      DbResult<std::optional<FileState>> state = writer.PreviousState(source);
      if (!state.ok()) {
        summary.database_failed = true;
        summary.database_error = state.error().message;
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
    if (auto error = writer.Write(std::move(batch))) {
      summary.database_failed = true;
      summary.database_error = error->message;
      summary.input_unread = !last;
      return false;
    }
    progress.Update(bytes_before + bytes_done, summary, writer.Uncommitted());
    return true;
  };
  callbacks.on_analyzed = [&](GameBatch& batch) { shared_dictionary.CompressBatch(batch); };
  std::set<size_t> failed_sources;  // an archive may fail more than once
  callbacks.on_source_error = [&](size_t source, const std::string& message) {
    ++summary.io_errors;
    failed_sources.insert(source);
    progress.Clear();
    Report(err, message);
  };
  const int jobs =
      options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  AnalyzeOptions analyze;
  analyze.verdict_budget = options.verdict_budget;
  analyze.opening_actions = stats_actions.value();
  analyze.all_state_md5 = all_state_md5;
  RunPipeline(sources, previous, jobs, analyze, callbacks);
  if (!summary.database_failed) {
    if (auto error = writer.Finish()) {
      summary.database_failed = true;
      summary.database_error = error->message;
    }
  }
  progress.Finish();
  if (db.created() && !summary.database_failed && summary.games == 0 &&
      failed_sources.size() == sources.size()) {
    // Checked in the file itself, in case another process wrote to it meanwhile.
    const DbResult<int64_t> rows =
        QueryInt(db, "SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM rejected)");
    outcome.remove_database = rows.ok() && rows.value() == 0;
  }
  return outcome;
}

}  // namespace

int RunIndex(const IndexOptions& options, std::ostream& out, std::ostream& err,
             IndexSummary* summary_out) {
  const auto start = std::chrono::steady_clock::now();
  IndexSummary summary;
  std::vector<std::string> input_errors;
  const std::vector<std::string> sources = ExpandInputs(options.inputs, &input_errors);
  for (const std::string& message : input_errors) Report(err, message);
  summary.io_errors += static_cast<long>(input_errors.size());
  summary.files = static_cast<long>(sources.size());

  // When no input can be read at all, the database is not opened (nor created).
  const bool readable = std::any_of(sources.begin(), sources.end(), CanOpen);
  if (!readable) {
    for (const std::string& source : sources) Report(err, source + ": cannot read the file");
    summary.io_errors += static_cast<long>(sources.size());
  }
  if (readable || summary.io_errors == 0) {
    uint64_t total_bytes = 0;
    for (const std::string& source : sources) {
      std::error_code ec;
      if (source != "-") total_bytes += std::filesystem::file_size(source, ec);
    }
    const IndexOutcome outcome = IndexInto(options, sources, total_bytes, summary, err);
    if (!outcome.opened) {
      if (summary_out) *summary_out = summary;
      return 3;
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
  if (summary.database_failed) {
    summary.not_stored = summary.games - summary.indexed - summary.rejected - summary.skipped;
  }
  assert(summary.not_stored >= 0 && summary.games == summary.indexed + summary.rejected +
                                                         summary.skipped + summary.not_stored);

  if (summary.database_failed) {
    Report(err, options.database + ": database error: " + summary.database_error);
    Report(err, NotStoredMessage(summary));
  }
  if (summary.rejected > kPrintedRejections) {
    err << "5d-index: " << summary.rejected - kPrintedRejections
        << " more rejected games are listed in the rejected table\n";
  }
  const double rate = summary.seconds > 0 ? summary.games / summary.seconds : 0;
  if (options.json) {
    out << SummaryJson(options.database, summary, rate) << "\n";
  } else {
    char line[256];
    // The games not stored are said only after a database error, so that the usual line stays.
    const std::string not_stored =
        summary.database_failed ? ", " + std::to_string(summary.not_stored) + " not stored" : "";
    std::snprintf(line, sizeof line,
                  ": %ld games read from %ld files: %ld indexed, %ld rejected, %ld copies, "
                  "%ld already indexed%s; %.2f s, %.0f games/s\n",
                  summary.games, summary.files, summary.indexed, summary.rejected,
                  summary.duplicates, summary.skipped, not_stored.c_str(), summary.seconds, rate);
    err << EscapeForTerminal(options.database) << line;
    // Said only when it happened, so that the usual summary stays two lines.
    if (summary.unchanged_files > 0 || summary.members_passed > 0) {
      std::snprintf(line, sizeof line,
                    ": %ld unchanged %s skipped; %ld archive %s passed over (not .5dpgn, .pgn "
                    "or .txt)\n",
                    summary.unchanged_files, summary.unchanged_files == 1 ? "file" : "files",
                    summary.members_passed, summary.members_passed == 1 ? "member" : "members");
      err << EscapeForTerminal(options.database) << line;
    }
    // How the indexed games end: their final positions' verdicts.
    const std::string undecided =
        summary.undecided > 0 ? ", " + std::to_string(summary.undecided) + " undecided" : "";
    std::snprintf(line, sizeof line,
                  ": endings of the indexed games: %ld checkmate, %ld stalemate, %ld playable, "
                  "%ld unknown%s; %ld result %s\n",
                  summary.checkmates, summary.stalemates, summary.playable, summary.unknown,
                  undecided.c_str(), summary.result_conflicts,
                  summary.result_conflicts == 1 ? "conflict" : "conflicts");
    err << EscapeForTerminal(options.database) << line;
  }
  if (summary_out) *summary_out = summary;
  if (summary.database_failed || summary.io_errors > 0) return 3;
  return summary.rejected + summary.rejected_before > 0 ? 1 : 0;
}

}  // namespace fived
