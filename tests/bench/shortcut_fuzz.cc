// Holds the mate search's proofs to brute force on random sparse positions, outside ctest: custom
// games of one to three timelines (some tips ahead of the present), each board holding both kings
// and a few random pieces, then a few random legal actions played from them (new timelines, the
// present moving back). On every position the check screen's "no check" (core/check_screen.h) is
// held to every legal action (none may leave the opponent in check) and the reply proof's "no
// mate" (core/reply_proof.h), the branch escape's (core/branch_escape.h), the two's in parts
// (where the opponent has more timelines) and the versions proof's (core/version_proof.h, as the
// mate search asks it) to a search without shortcuts (no mating action may exist), and the
// versions proof's for the actions that create no timeline, wherever the opponent has more, to
// every such action (none may mate). Prints
// each position where one is wrong, as a custom game and the action that shows it, and the counts;
// asserts nothing. With --search 1, the whole mate-in-one search (core/tactics.h) with its
// shortcuts is held to the same search without them on every position, as bench_mates
// --brute-force does on games; with --actions 1, the number of legal actions the hypercuboid
// search finds (core/legal.h) is held to the plain sequence search of tests/support; with
// --endings 1, Decide's verdict (core/decide.h) is held to that search too (checkmate or
// stalemate where it finds no legal action, playable where it finds one). It found the gaps
// closed in fd8c777 and 1a9155b.
// Usage: bench_shortcut_fuzz [--seed S] [--positions N] [--size W] [--extra E] [--plies P]
//   [--pieces LETTERS] [--search 0|1] [--actions 0|1] [--endings 0|1]
//   (defaults: seed 1, 100000 random setups, 6x6 boards, up to 2 extra pieces a board drawn from
//   NBRQP of either colour (LETTERS: any of PWKCQYSNRBUD; K and Y add royal pieces), up to 3
//   random actions played from each setup, no comparison beyond the screen's and the proof's)
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/action.h"
#include "core/branch_escape.h"
#include "core/check_screen.h"
#include "core/decide.h"
#include "core/legal.h"
#include "core/pgn_syntax.h"
#include "core/pgn_writer.h"
#include "core/replay.h"
#include "core/reply_proof.h"
#include "core/rules.h"
#include "core/tactics.h"
#include "core/version_proof.h"
#include "tests/support/sequence_search.h"

namespace {

using namespace fived;

// A board of width x width in 5DFEN from (piece letter, square) pairs, square = rank * width +
// file; empty when two share a square.
std::string BoardFen(int width, const std::vector<std::pair<char, int>>& pieces) {
  std::vector<char> grid(static_cast<size_t>(width) * width, 0);
  for (const auto& [letter, square] : pieces) {
    if (grid[square] != 0) return "";
    grid[square] = letter;
  }
  std::string out;
  for (int rank = width - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < width; ++file) {
      const char letter = grid[rank * width + file];
      if (letter == 0) {
        ++empty;
        continue;
      }
      if (empty > 0) out += static_cast<char>('0' + empty);
      empty = 0;
      out += letter;
    }
    if (empty > 0) out += static_cast<char>('0' + empty);
    if (rank > 0) out += '/';
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t seed = 1;
  long setups = 100000;
  int width = 6, extra = 2, plies = 3;
  bool search = false, actions = false, endings = false;
  std::string letters = "NBRQP";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    const long value = std::strtol(argv[i + 1], nullptr, 10);
    if (arg == "--pieces") {
      letters = argv[i + 1];
    } else if (arg == "--seed") {
      seed = static_cast<uint32_t>(value);
    } else if (arg == "--positions") {
      setups = value;
    } else if (arg == "--size") {
      width = static_cast<int>(value);
    } else if (arg == "--extra") {
      extra = static_cast<int>(value);
    } else if (arg == "--plies") {
      plies = static_cast<int>(value);
    } else if (arg == "--search") {
      search = value != 0;
    } else if (arg == "--actions") {
      actions = value != 0;
    } else if (arg == "--endings") {
      endings = value != 0;
    } else {
      std::fprintf(stderr,
                   "usage: bench_shortcut_fuzz [--seed S] [--positions N] [--size W] [--extra E] "
                   "[--plies P] [--pieces LETTERS] [--search 0|1] [--actions 0|1] "
                   "[--endings 0|1]\n");
      return 2;
    }
  }
  if (width < 4 || width > 8) {
    std::fprintf(stderr, "--size is 4 to 8\n");
    return 2;
  }
  std::mt19937 rng(seed);
  long positions = 0, no_check = 0, no_mate = 0, screen_wrong = 0, proof_wrong = 0;
  long escape_no_mate = 0, escape_wrong = 0, parts_no_mate = 0, parts_wrong = 0;
  long compared = 0, search_wrong = 0, counted = 0, count_wrong = 0;
  long decided = 0, decided_wrong = 0;
  long versions_no_mate = 0, versions_wrong = 0, quiet_no_mate = 0, quiet_wrong = 0;
  for (long setup = 0; setup < setups; ++setup) {
    std::string text = "[Board \"custom\"]\n[Size \"" + std::to_string(width) + "x" +
                       std::to_string(width) + "\"]\n";
    const int timelines = 1 + static_cast<int>(rng() % 3);
    const int present = 4 + static_cast<int>(rng() % 2);
    bool made = true;
    for (int l = 0; l < timelines && made; ++l) {
      const int tip = present + (rng() % 3 == 0 ? static_cast<int>(rng() % 3) : 0);
      const int first = 2 + (l > 0 ? static_cast<int>(rng() % 2) : 0);
      for (int half = first; half <= tip && made; ++half) {
        const int squares = width * width;
        std::vector<std::pair<char, int>> pieces = {{'K', static_cast<int>(rng() % squares)},
                                                    {'k', static_cast<int>(rng() % squares)}};
        const int count = extra > 0 ? static_cast<int>(rng() % (extra + 1)) : 0;
        for (int i = 0; i < count; ++i) {
          const char upper = letters[rng() % letters.size()];
          const char letter = rng() % 2 == 0 ? upper : static_cast<char>(upper - 'A' + 'a');
          const int square = static_cast<int>(rng() % squares);
          const bool pawn = upper == 'P' || upper == 'W';
          if (pawn && (square < width || square >= squares - width)) continue;
          pieces.push_back({letter, square});
        }
        const std::string fen = BoardFen(width, pieces);
        made = !fen.empty();
        text += "[" + fen + ":" + std::to_string(l) + ":" + std::to_string(half / 2) + ":" +
                (half % 2 == 0 ? "w" : "b") + "]\n";
      }
    }
    if (!made) continue;
    const SyntaxResult syntax = ParseGameSyntax(text);
    if (!syntax.status.ok()) continue;
    ReplayOutcome outcome = ReplayGame(syntax.game);
    if (!outcome.status.ok() || !outcome.replayer) continue;
    Position pos = outcome.replayer->position();
    MovetextBuilder movetext;  // the random actions played, for the report
    auto game_text = [&] {
      MovetextBuilder copy = movetext;
      return text + copy.Finish("");
    };
    const PromotionSet promotions = PromotionChoices(outcome.replayer->setup(), pos);
    for (int ply = 0; ply <= plies; ++ply) {
      ++positions;
      SearchLimits limits;
      limits.promotions = promotions;
      limits.budget = 50000;
      const CheckScreen screen = ScreenChecks(pos, promotions);
      bool proved = false;
      if (screen == CheckScreen::kMayCheck) {
        proved = ProveNoMateByReplies(pos, promotions).result == ReplyProof::Result::kNoMate;
      }
      // The branch escape is held to brute force wherever it claims, whatever the screen said.
      uint64_t escape_work = 0;
      const bool escaped = ProveNoMateByBranchEscape(pos, promotions, &escape_work);
      // And the proof in two parts (where the opponent has more timelines), as one claim.
      BranchEscape escape(pos, promotions, &escape_work);
      const bool in_parts = ProveNoMateInParts(pos, promotions, &escape, &escape_work);
      // The versions proof, as the mate search asks it (every action, or where the opponent has
      // one timeline more, the actions that create none, with the branch escape for the others),
      // and alone for the actions that create no timeline wherever the opponent has more.
      const int ahead = pos.CreatedBy(Opponent(pos.ToMove())) - pos.CreatedBy(pos.ToMove());
      const bool versions =
          (ahead <= 0 || (ahead == 1 && escape.ProveForBranchingActions())) &&
          ProveNoMateByVersions(pos, promotions, 100000, 200000, ahead <= 0 ? -1 : 0).proved;
      const bool quiet_versions =
          ahead >= 1 && ProveNoMateByVersions(pos, promotions, 100000, 200000, 0).proved;
      // Every action is tried (up to the budget): the screen's claim is checked on each, and one
      // of them, drawn at random, is played next.
      std::vector<Move> checking, next, quiet_mate;
      long seen = 0;
      ForEachLegalAction(pos, limits, [&](const std::vector<Move>& moves, const Position& after) {
        if (screen == CheckScreen::kNoCheck && checking.empty() && InCheck(after)) {
          checking = moves;
        }
        if (quiet_versions && quiet_mate.empty() &&
            after.CreatedBy(pos.ToMove()) == pos.CreatedBy(pos.ToMove()) && InCheck(after)) {
          SearchLimits deciding = limits;
          deciding.budget = 200000;
          if (Decide(after, deciding).verdict == Decision::Verdict::kCheckmate) quiet_mate = moves;
        }
        if (rng() % static_cast<uint32_t>(++seen) == 0) next = moves;
        return false;
      });
      no_check += screen == CheckScreen::kNoCheck ? 1 : 0;
      if (!checking.empty()) {
        ++screen_wrong;
        std::printf("SCREEN WRONG (no check, but this action checks: %s)\n%s\n",
                    ActionText(pos, checking).c_str(), game_text().c_str());
      }
      versions_no_mate += versions ? 1 : 0;
      quiet_no_mate += quiet_versions ? 1 : 0;
      if (!quiet_mate.empty()) {
        ++quiet_wrong;
        std::printf(
            "QUIET VERSIONS WRONG (no mate creating no timeline, but this one mates: %s)\n"
            "%s\n",
            ActionText(pos, quiet_mate).c_str(), game_text().c_str());
      }
      if (proved || escaped || in_parts || versions) {
        no_mate += proved ? 1 : 0;
        escape_no_mate += escaped ? 1 : 0;
        parts_no_mate += in_parts ? 1 : 0;
        MateInOneLimits plain;
        plain.search = limits;
        plain.reply_budget = 200000;
        plain.shortcuts = false;
        plain.stop_at_first = true;
        const MateInOne reference = FindMateInOne(pos, plain);
        if (reference.mating > 0) {
          proof_wrong += proved ? 1 : 0;
          escape_wrong += escaped ? 1 : 0;
          parts_wrong += in_parts ? 1 : 0;
          versions_wrong += versions ? 1 : 0;
          std::printf("%s WRONG (no mate, but this action mates: %s)\n%s\n",
                      proved     ? "PROOF"
                      : escaped  ? "ESCAPE"
                      : in_parts ? "PARTS"
                                 : "VERSIONS",
                      ActionText(pos, reference.solution).c_str(), game_text().c_str());
        }
      }
      if (search) {
        MateInOneLimits fast;
        fast.search = limits;
        fast.search.budget = 2000;
        fast.reply_budget = 2000;
        MateInOneLimits plain = fast;
        plain.search.budget = 50000;
        plain.reply_budget = 50000;
        plain.shortcuts = false;
        plain.few_actions.moves_per_action = 0;
        const MateInOne found = FindMateInOne(pos, fast);
        const MateInOne reference = FindMateInOne(pos, plain);
        // Wrong: a mate denied, a mate claimed where there is none, or a complete count that
        // differs (an unknown answer claims nothing).
        bool wrong = reference.mating > 0 && found.answer == MateInOne::Answer::kNone;
        if (reference.complete) {
          ++compared;
          wrong = wrong || (found.answer == MateInOne::Answer::kMates && reference.mating == 0);
          wrong = wrong || (found.complete && found.mating != reference.mating);
        }
        if (wrong) {
          ++search_wrong;
          std::printf("SEARCH WRONG (shortcuts %s %llu, brute force %s %llu)\n%s\n",
                      MateInOneAnswerName(found.answer),
                      static_cast<unsigned long long>(found.mating),
                      MateInOneAnswerName(reference.answer),
                      static_cast<unsigned long long>(reference.mating), game_text().c_str());
        }
      }
      if (actions) {
        SearchLimits both = limits;
        both.budget = 200000;
        const ActionCount fast = CountActions(pos, both, 0);
        const ActionCount plain = CountActionsBySequence(pos, both, 0);
        if (!fast.capped && !plain.capped) {
          ++counted;
          if (fast.count != plain.count) {
            ++count_wrong;
            std::printf("COUNT WRONG (hypercuboid search %llu, sequence search %llu)\n%s\n",
                        static_cast<unsigned long long>(fast.count),
                        static_cast<unsigned long long>(plain.count), game_text().c_str());
          }
        }
      }
      if (endings) {
        SearchLimits budgeted = limits;
        budgeted.budget = 200000;
        const Decision decision = Decide(pos, budgeted);
        const ActionCount plain = CountActionsBySequence(pos, budgeted, 1);
        if (decision.verdict != Decision::Verdict::kUnknown && (plain.count > 0 || !plain.capped)) {
          ++decided;
          const bool none = plain.count == 0;
          Decision::Verdict expected = Decision::Verdict::kPlayable;
          if (none) {
            expected = InCheck(pos) ? Decision::Verdict::kCheckmate : Decision::Verdict::kStalemate;
          }
          if (decision.verdict != expected) {
            ++decided_wrong;
            std::printf("ENDING WRONG (Decide %s, the sequence search %s)\n%s\n",
                        VerdictName(decision.verdict), VerdictName(expected), game_text().c_str());
          }
        }
      }
      if (next.empty()) break;
      movetext.BeginAction(pos.ToMove());
      for (const Move& move : next) {
        movetext.AddMove(MoveText(pos, move));
        ApplyMove(&pos, move);
      }
      movetext.EndAction();
    }
  }
  std::printf(
      "%ld positions from %ld setups (seed %u, %dx%d): screen said no check on %ld (%ld wrong), "
      "reply proof said no mate on %ld (%ld wrong), branch escape on %ld (%ld wrong), the two in "
      "parts on %ld (%ld wrong)\n",
      positions, setups, seed, width, width, no_check, screen_wrong, no_mate, proof_wrong,
      escape_no_mate, escape_wrong, parts_no_mate, parts_wrong);
  std::printf(
      "versions proof said no mate on %ld (%ld wrong); for the actions creating no timeline, "
      "where the opponent has more, on %ld (%ld wrong)\n",
      versions_no_mate, versions_wrong, quiet_no_mate, quiet_wrong);
  if (endings) {
    std::printf("endings decided and held to the sequence search: %ld positions, %ld wrong\n",
                decided, decided_wrong);
  }
  if (actions) {
    std::printf("actions counted by both searches: %ld positions, %ld counts differ\n", counted,
                count_wrong);
  }
  if (search) {
    std::printf("mate search against brute force: %ld positions searched completely, %ld wrong\n",
                compared, search_wrong);
  }
  return 0;
}
