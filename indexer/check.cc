// The check mode of 5d-index; see check.h.
#include "indexer/check.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unordered_map>

#include "core/action.h"
#include "core/decide.h"
#include "core/hypercuboid.h"
#include "core/legal.h"
#include "core/pgn_syntax.h"
#include "core/pgn_writer.h"
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

// A count of legal actions as written: the count, ">=N" when the search stopped at the cap or
// its budget first, and 0 rather than ">=0" when the ending search proves that none exists.
std::string CountText(const Position& pos, const SearchLimits& limits, uint64_t count,
                      bool capped) {
  if (capped && count == 0) {
    const Decision decision = Decide(pos, limits);
    if (decision.verdict == Decision::Verdict::kCheckmate ||
        decision.verdict == Decision::Verdict::kStalemate) {
      return "0";
    }
  }
  return (capped ? ">=" : "") + std::to_string(count);
}

// "PREFIX ACTION action TEXT" for each legal action of `pos` (its moves in canonical 5dpgn, in
// play order), sorted by text, then "PREFIX ACTION count N": the actions CountActions counts, one
// per state reached. Where several orders of branches reach one state, the smallest text stands
// for it, so that the listing does not depend on the order the search meets them in.
void ListActions(const std::string& prefix, int action, const Position& pos,
                 const SearchLimits& limits, uint64_t cap, std::ostream& out) {
  std::unordered_map<uint64_t, std::string> by_state;
  const SearchStats stats = ForEachHypercuboidAction(
      pos, limits, [&](const std::vector<Move>& moves, const Position& after) {
        std::string text = ActionText(pos, moves);
        auto [it, added] = by_state.try_emplace(after.StateKey(), text);
        if (!added) {
          if (text < it->second) it->second = std::move(text);
          return false;
        }
        return by_state.size() >= cap;
      });
  std::vector<std::string> texts;
  texts.reserve(by_state.size());
  for (auto& [key, text] : by_state) texts.push_back(std::move(text));
  std::sort(texts.begin(), texts.end());
  const std::string head = prefix + std::to_string(action) + "\t";
  for (const std::string& text : texts) out << head << "action\t" << text << "\n";
  out << head << "count\t"
      << CountText(pos, limits, texts.size(), stats.end != SearchEnd::kExhausted) << "\n";
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
    Status error;
    SyntaxResult syntax =
        raw->oversized > 0 ? SyntaxResult{} : ParseGameSyntax(raw->text, raw->first_line);
    std::optional<Replayer> replayer;
    if (raw->oversized > 0) {
      error = TextErrorAt(TextPos{raw->first_line, 1}, "", OversizedReason(raw->oversized));
    } else if (!syntax.status.ok()) {
      error = syntax.status;
    } else {
      // Counts need the game's promotion rules before its replay starts.
      SearchLimits limits;
      limits.budget = options.verdict_budget;
      std::optional<GameSetup> game_setup;
      bool listed = false;
      const bool actions = options.output == CheckOptions::Output::kCountActions ||
                           options.output == CheckOptions::Output::kListActions;
      if (actions) {
        Result<GameSetup> setup = SetupGame(syntax.game);
        if (setup.ok()) game_setup = std::move(setup).value();
      }
      auto on_state = [&](int action, const Position& pos) {
        if (options.output == CheckOptions::Output::kHashes) {
          out << prefix << action << "\t" << pos.StateMd5() << "\n";
        } else if (options.output == CheckOptions::Output::kCountActions && game_setup &&
                   (options.at_action < 0 || action == options.at_action)) {
          limits.promotions = PromotionChoices(*game_setup, pos);
          const ActionCount count = CountActions(pos, limits, options.count_cap);
          out << prefix << action << "\t" << CountText(pos, limits, count.count, count.capped)
              << "\n";
        } else if (options.output == CheckOptions::Output::kListActions && game_setup &&
                   action == options.at_action) {
          limits.promotions = PromotionChoices(*game_setup, pos);
          ListActions(prefix, action, pos, limits, options.count_cap, out);
          listed = true;
        }
      };
      ReplayOutcome outcome = ReplayGame(syntax.game, on_state);
      if (options.output == CheckOptions::Output::kCountActions && options.at_action >= 0 &&
          game_setup && outcome.status.ok() && outcome.replayer &&
          options.at_action > static_cast<int>(outcome.replayer->actions().size())) {
        out << prefix << "error\tgame " << raw->index << " has "
            << outcome.replayer->actions().size() << " actions: no action " << options.at_action
            << "\n";
      }
      if (options.output == CheckOptions::Output::kListActions && game_setup &&
          outcome.status.ok() && outcome.replayer) {
        const Position& final_pos = outcome.replayer->position();
        const int final_action = static_cast<int>(outcome.replayer->actions().size());
        if (options.at_action < 0) {
          limits.promotions = PromotionChoices(*game_setup, final_pos);
          ListActions(prefix, final_action, final_pos, limits, options.count_cap, out);
        } else if (!listed) {
          out << prefix << "error\tgame " << raw->index << " has " << final_action
              << " actions: no action " << options.at_action << "\n";
        }
      }
      for (const Status& warning : outcome.warnings) {
        ++summary->warnings;
        report << name << ": game " << raw->index
               << ", warning: " << EscapeForTerminal(warning.message()) << "\n";
      }
      error = std::move(outcome.status);
      replayer = std::move(outcome.replayer);
    }
    if (!error.ok()) {
      ++summary->rejected;
      const std::string message =
          "game " + std::to_string(raw->index) + ", " + EscapeForTerminal(error.message());
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
    const Result<InputKind> kind =
        in ? SniffFile(path) : Result<InputKind>(Status::Io(path + ": cannot read the file"));
    if (!kind.ok()) {
      ++summary.unreadable_files;
      report << EscapeForTerminal(path) << ": cannot open file\n";
      continue;
    }
    if (kind.value() == InputKind::kPlain) {
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
