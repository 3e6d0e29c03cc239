// What 5d-index says about its runs; see report.h.
#include "indexer/report.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/tactics.h"
#include "core/utf8.h"
#include "schema/meta.h"

namespace fived {

namespace {

// "5d-index: MESSAGE" and a newline; messages quote file names and input, hence the escaping.
std::string ToolLine(std::string_view message) {
  return "5d-index: " + EscapeForTerminal(message) + "\n";
}

// "N games" or "1 game".
std::string Plural(long n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// H:MM:SS.
std::string Duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return buffer;
}

// A JSON object as one line, its keys in the order given. A database path need not be UTF-8;
// invalid bytes become U+FFFD so the text stays JSON.
std::string JsonLine(const nlohmann::ordered_json& json) {
  return json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string IndexSummaryJson(const std::string& database, const IndexSummary& summary,
                             double rate) {
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
                                 {"database_failed", !summary.database.ok()},
                                 {"not_stored", summary.not_stored},
                                 {"input_unread", summary.input_unread},
                                 {"database_error", nullptr}};
  if (!summary.database.ok()) json["database_error"] = summary.database.message();
  // Said only of a database with tactics, so that the usual summary stays as it was.
  if (summary.tactics) {
    json["tactics"] = {
        {"positions", summary.tactic_positions}, {"mates", summary.tactic_mates},
        {"found", summary.tactic_found},         {"missed", summary.tactic_missed},
        {"unknown", summary.tactic_unknown},     {"version", summary.tactics_version}};
  }
  return JsonLine(json);
}

// The summary's lines on standard error, each naming the database.
std::string IndexSummaryText(const std::string& database, const IndexSummary& summary,
                             double rate) {
  const std::string name = EscapeForTerminal(database);
  std::string text;
  char line[256];
  // The games not stored are said only after a database error, so that the usual line stays.
  const std::string not_stored =
      !summary.database.ok() ? ", " + std::to_string(summary.not_stored) + " not stored" : "";
  std::snprintf(line, sizeof line,
                ": %ld games read from %ld files: %ld indexed, %ld rejected, %ld copies, "
                "%ld already indexed%s; %.2f s, %.0f games/s\n",
                summary.games, summary.files, summary.indexed, summary.rejected, summary.duplicates,
                summary.skipped, not_stored.c_str(), summary.seconds, rate);
  text += name + line;
  // Said only when it happened, so that the usual summary stays two lines.
  if (summary.unchanged_files > 0 || summary.members_passed > 0) {
    std::snprintf(line, sizeof line,
                  ": %ld unchanged %s skipped; %ld archive %s passed over (not .5dpgn, .pgn "
                  "or .txt)\n",
                  summary.unchanged_files, summary.unchanged_files == 1 ? "file" : "files",
                  summary.members_passed, summary.members_passed == 1 ? "member" : "members");
    text += name + line;
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
  text += name + line;
  // Said only of a database with tactics, so that the usual summary stays as it was.
  if (summary.tactics) {
    std::snprintf(line, sizeof line,
                  ": mates in one in %ld positions searched: %ld positions with a mate (%ld "
                  "found, %ld missed), %ld unknown\n",
                  summary.tactic_positions, summary.tactic_mates, summary.tactic_found,
                  summary.tactic_missed, summary.tactic_unknown);
    text += name + line;
    if (summary.tactics_version < kTacticsVersion) {
      text += name + ": " + OlderTacticsText(summary.tactics_version) + "\n";
    }
  }
  return text;
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

// After a merge's database error: which inputs were merged (committed) before it and which were
// not, of `inputs` merged in order, the first `merged` of them committed.
std::string NotMergedMessage(const std::vector<std::string>& inputs, long merged) {
  const long count = static_cast<long>(inputs.size());
  if (merged == 0) {
    return "no input was merged before the error: running the same merge again merges them";
  }
  if (merged < count) {
    return "the inputs up to " + inputs[merged - 1] + " (" + std::to_string(merged) + " of " +
           std::to_string(count) + ") were merged before the error, those from " + inputs[merged] +
           " on are not: running the same merge again completes it, skipping what is already "
           "there";
  }
  return "every input was merged before the error, but the indexes are not built again: running "
         "the same merge again builds them";
}

}  // namespace

IndexMessages::IndexMessages(std::ostream& err, bool progress_line)
    : err_(err),
      progress_line_(progress_line && isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()) {}

void IndexMessages::InputError(std::string_view message) {
  Finish();
  err_ << ToolLine(message);
}

void IndexMessages::Rejected(std::string_view source, std::string_view message) {
  if (++rejections_ > kPrintedRejections) return;
  Finish();
  err_ << EscapeForTerminal(source) << ": " << EscapeForTerminal(message) << "\n";
}

void IndexMessages::Progress(uint64_t bytes, uint64_t total_bytes, const IndexSummary& committed,
                             const IndexSummary& uncommitted) {
  if (!progress_line_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_drawn_ < std::chrono::milliseconds(200)) return;
  last_drawn_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double rate = seconds > 0 ? committed.games / seconds : 0;
  std::string eta = "?";
  if (total_bytes > 0 && bytes > 0 && seconds > 0) {
    eta = Duration(seconds * (static_cast<double>(total_bytes) / bytes - 1));
  }
  char line[256];
  std::snprintf(line, sizeof line,
                "\r\033[K%.1f/%.1f MB  %ld games  %.0f games/s  %ld rejected  %ld copies  ETA %s",
                bytes / 1e6, total_bytes / 1e6, committed.games, rate,
                committed.rejected + uncommitted.rejected,
                committed.duplicates + uncommitted.duplicates, eta.c_str());
  err_ << line << std::flush;
}

void IndexMessages::Finish() {
  if (progress_line_) err_ << "\r\033[K" << std::flush;
}

ToolReport ReportIndex(const IndexResult& result, const std::string& database, bool json) {
  ToolReport report;
  if (!result.open_status.ok()) {
    report.err = ToolLine(result.open_status.message());
    report.status = kExitFailed;
    return report;
  }
  const IndexSummary& summary = result.summary;
  if (!summary.database.ok()) {
    report.err += ToolLine(database + ": database error: " + summary.database.message());
    report.err += ToolLine(NotStoredMessage(summary));
  }
  if (summary.rejected > kPrintedRejections) {
    report.err += "5d-index: " + std::to_string(summary.rejected - kPrintedRejections) +
                  " more rejected games are listed in the rejected table\n";
  }
  const double rate = summary.seconds > 0 ? summary.games / summary.seconds : 0;
  if (json) {
    report.out = IndexSummaryJson(database, summary, rate);
  } else {
    report.err += IndexSummaryText(database, summary, rate);
  }
  if (!summary.database.ok() || summary.io_errors > 0) {
    report.status = kExitFailed;
  } else {
    report.status = summary.rejected + summary.rejected_before > 0 ? kExitRejected : kExitOk;
  }
  return report;
}

ToolReport ReportMerge(const MergeResult& result, const MergeOptions& options, bool json) {
  ToolReport report;
  switch (result.failure) {
    case MergeResult::Failure::kRefused:
      return {"", ToolLine(result.message), kExitUsage};
    case MergeResult::Failure::kUnreadable:
      return {"", ToolLine(result.message), kExitFailed};
    case MergeResult::Failure::kStopped:
      report.err = ToolLine(result.message) +
                   ToolLine(options.output + ": " +
                            NotMergedMessage(options.inputs, result.summary.databases));
      report.status = kExitFailed;
      break;
    case MergeResult::Failure::kNone:
      break;
  }
  const MergeSummary& summary = result.summary;
  if (json) {
    nlohmann::ordered_json object = {
        {"database", options.output},       {"databases", summary.databases},
        {"games", summary.games},           {"merged", summary.merged},
        {"duplicates", summary.duplicates}, {"skipped", summary.skipped},
        {"rejected", summary.rejected},     {"database_error", nullptr}};
    if (!summary.database.ok()) object["database_error"] = summary.database.message();
    report.out = JsonLine(object);
  } else {
    report.err += EscapeForTerminal(options.output) + ": " + std::to_string(summary.games) +
                  " games from " + std::to_string(summary.databases) +
                  " databases: " + std::to_string(summary.merged) + " merged, " +
                  std::to_string(summary.duplicates) + " copies, " +
                  std::to_string(summary.skipped) + " already there; " +
                  std::to_string(summary.rejected) + " rejected games\n";
  }
  return report;
}

int Emit(const ToolReport& report, std::ostream& out, std::ostream& err) {
  out << report.out;
  err << report.err;
  return report.status;
}

}  // namespace fived
