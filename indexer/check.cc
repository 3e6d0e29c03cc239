// The check mode of 5d-index; see check.h.
#include "indexer/check.h"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/legal.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "core/utf8.h"
#include "indexer/analyze.h"
#include "indexer/input.h"
#include "indexer/pipeline.h"
#include "indexer/verdict.h"

namespace fived {

namespace {

// "PREFIX verdict V WITNESS": whether the side to move at the end of the game can play, with one
// legal action in canonical move texts when it can.
void WriteVerdict(const std::string& prefix, Replayer* replayer, const CheckOptions& options,
                  std::ostream& out) {
  const FinalVerdict verdict = DecideFinalPosition(replayer, options.verdict_budget);
  out << prefix << "verdict\t" << VerdictName(verdict.verdict) << "\t" << verdict.witness << "\n";
}

// `name` is the source's name as printed: escaped for the terminal (core/utf8.h), as is every
// message, since both quote the input.
void CheckStream(const std::string& name, std::istream& in, const CheckOptions& options,
                 std::ostream& out, std::ostream& report, CheckSummary* summary) {
  TextReader text(in);  // UTF-16 read as UTF-8
  GameSplitter splitter(text.stream());
  while (std::optional<RawGame> raw = splitter.Next()) {
    ++summary->games;
    const std::string prefix = name + "\t" + std::to_string(raw->index) + "\t";
    std::optional<ReplayError> error;
    SyntaxResult syntax =
        raw->oversized > 0 ? SyntaxResult{} : ParseGameSyntax(raw->text, raw->first_line);
    std::optional<Replayer> replayer;
    if (raw->oversized > 0) {
      error.emplace();
      error->pos = TextPos{raw->first_line, 1};
      error->reason = OversizedReason(raw->oversized);
    } else if (syntax.error) {
      error.emplace();
      error->pos = syntax.error->pos;
      error->token = syntax.error->token;
      error->reason = syntax.error->reason;
    } else {
      // Counts need the game's promotion rules before its replay starts.
      SearchLimits limits;
      limits.budget = options.verdict_budget;
      std::optional<GameSetup> game_setup;
      if (options.output == CheckOptions::Output::kCountActions) {
        auto setup = SetupGame(syntax.game);
        if (GameSetup* made = std::get_if<GameSetup>(&setup)) game_setup = std::move(*made);
      }
      auto on_state = [&](int action, const Position& pos) {
        if (options.output == CheckOptions::Output::kHashes) {
          out << prefix << action << "\t" << pos.StateMd5() << "\n";
        } else if (options.output == CheckOptions::Output::kCountActions && game_setup) {
          limits.promotions = PromotionChoices(*game_setup, pos);
          const ActionCount count = CountActions(pos, limits, options.count_cap);
          out << prefix << action << "\t" << (count.capped ? ">=" : "") << count.count << "\n";
        }
      };
      ReplayOutcome outcome = ReplayGame(syntax.game, on_state);
      for (const ReplayError& warning : outcome.warnings) {
        ++summary->warnings;
        report << name << ": game " << raw->index
               << ", warning: " << EscapeForTerminal(warning.Message()) << "\n";
      }
      error = std::move(outcome.error);
      replayer = std::move(outcome.replayer);
    }
    if (error) {
      ++summary->rejected;
      const std::string message =
          "game " + std::to_string(raw->index) + ", " + EscapeForTerminal(error->Message());
      if (options.output != CheckOptions::Output::kSummary)
        out << prefix << "error\t" << message << "\n";
      report << name << ": " << message << "\n";
      continue;
    }
    ++summary->replayed;
    if (options.output == CheckOptions::Output::kFen) {
      out << prefix << "fen\t" << replayer->position().StateFen() << "\n";
    } else if (options.output == CheckOptions::Output::kVerdict) {
      WriteVerdict(prefix, &*replayer, options, out);
    }
  }
}

}  // namespace

CheckSummary CheckFiles(const std::vector<std::string>& paths, const CheckOptions& options,
                        std::ostream& out, std::ostream& err) {
  CheckSummary summary;
  std::ostream& report = options.output == CheckOptions::Output::kSummary ? out : err;
  // Directories stand for their games' files, as when indexing; other names are read as given.
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path != "-" && std::filesystem::is_directory(path, ec)) {
      std::vector<std::string> errors;  // none: the directory exists
      for (std::string& file : ExpandInputs({path}, &errors)) files.push_back(std::move(file));
    } else {
      files.push_back(path);
    }
  }
  // Compressed files and archives as the index mode reads them (input.h).
  bool damaged = false;
  auto member_of = [&](const std::string& path) {
    return [&, path](const std::string& member, std::istream& stream) {
      if (!member.empty() && !IsGameFileName(member)) return true;
      CheckStream(EscapeForTerminal(member.empty() ? path : path + ":" + member), stream, options,
                  out, report, &summary);
      return true;
    };
  };
  auto damage = [&](const std::string& message) {
    damaged = true;
    report << EscapeForTerminal(message) << "\n";
  };
  for (const std::string& path : files) {
    damaged = false;
    if (path == "-") {
      ReadStream(std::cin, path, member_of(path), damage);
      if (damaged) ++summary.unreadable_files;
      continue;
    }
    std::ifstream in(path, std::ios::binary);
    std::string error;
    const std::optional<InputKind> kind = in ? SniffFile(path, &error) : std::nullopt;
    if (!kind) {
      ++summary.unreadable_files;
      report << EscapeForTerminal(path) << ": cannot open file\n";
      continue;
    }
    if (*kind == InputKind::kPlain) {
      CheckStream(EscapeForTerminal(path), in, options, out, report, &summary);
      continue;
    }
    ReadPacked(path, member_of(path), damage);
    if (damaged) ++summary.unreadable_files;
  }
  report << "games: " << summary.games << ", replayed: " << summary.replayed
         << ", rejected: " << summary.rejected;
  if (summary.warnings > 0) report << ", warnings: " << summary.warnings;
  if (summary.unreadable_files > 0) report << ", unreadable files: " << summary.unreadable_files;
  report << "\n";
  return summary;
}

}  // namespace fived
