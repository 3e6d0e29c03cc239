// Times the mate-in-one search (core/tactics.h) on every position of the games of a 5dpgn
// collection, one thread, as 5d-index --tactics runs it: how many positions are proved to have
// a mate, proved to have none (and how many of those by the check screen, core/check_screen.h,
// without enumerating an action, and how many by the reply proof, core/reply_proof.h), or left
// unknown, and why (the legal actions' search ran out of
// budget, or some decision after a checking action did), and how the reply proof ended where it
// ran, and the versions proof (core/version_proof.h) where the position was left unknown (run a
// second time for that, outside the timed part). CPU time of the thread; and, as a
// yardstick for it, the CPU of one move generation per position (every move of the mover's
// playable boards, generated and counted), the unit note 7 of docs/BENCHMARKS.md proposes for
// the pass's cost. Prints figures; asserts nothing.
// Usage: bench_mates [--budget N] [--few-actions MOVES FACTOR] [--no-shortcuts] [--brute-force M]
// [--list-unknown]
// FILE...   (budget as 5d-index --tactics-budget, default 2,000; --few-actions:
// MateInOneLimits::few_actions, default 10 50, 0 0 for none; --no-shortcuts: neither the check
// screen, the reply proof, the replayed escape nor the targeted mate search, every position
// enumerated as before them; --brute-force M: also tries every action of every position without
// any shortcut, M moves at most, outside the timed part, and prints each position where the two
// disagree: a mate the shortcuts deny, or a complete count they contradict. That comparison is
// the one to run after a change to the shortcuts: the tests run it on fewer positions;
// --list-unknown: prints each position left unknown, with how the reply proof and the versions
// proof ended there.)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "core/action.h"
#include "core/check_screen.h"
#include "core/legal.h"
#include "core/movegen.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "core/reply_proof.h"
#include "core/rules.h"
#include "core/tactics.h"
#include "core/version_proof.h"
#include "tests/bench/bench_games.h"

int main(int argc, char** argv) {
  using namespace fived;
  using bench::ThreadCpuMs;
  uint64_t budget = 2000;
  bool screen = true;
  MateInOneLimits::FewActions few;
  uint64_t brute_budget = 0;
  bool list_unknown = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--brute-force" && i + 1 < argc) {
      brute_budget = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--budget" && i + 1 < argc) {
      budget = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--few-actions" && i + 2 < argc) {
      few.moves_per_action = std::strtoull(argv[++i], nullptr, 10);
      few.max_factor = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--no-shortcuts") {
      screen = false;
    } else if (arg == "--list-unknown") {
      list_unknown = true;
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr,
                 "usage: bench_mates [--budget N] [--few-actions MOVES FACTOR] [--no-shortcuts] "
                 "[--brute-force M] [--list-unknown] FILE...\n");
    return 2;
  }
  long positions = 0, mates = 0, none = 0, unknown = 0, by_search = 0, by_decide = 0;
  long screened[3] = {0, 0, 0};
  long none_without_check = 0, by_finder = 0, contradicted = 0, by_replies = 0;
  long by_branch = 0, by_parts = 0, by_versions = 0, versions_mates = 0;
  long unknown_brute[3] = {0, 0, 0};  // the unknown positions brute force: mate, none, unknown
  long compared = 0, compared_mates = 0, disagreements = 0;
  long proof_results[4][4] = {};  // by ReplyProof::Result, then by rounds run (0, 1, 2, 3 or more)
  long proof_unknown[4][4] = {};  // the same, for the positions left unknown
  std::map<std::string, long> versions_unknown;  // the versions proof there, by where it stopped
  double screen_ms = 0, search_ms = 0;
  double search_ms_by[3] = {0, 0, 0};  // by MateInOne::Answer: mates, none, unknown
  double movegen_ms = 0;
  long moves_generated = 0;
  bench::GamesRead read;
  const bool all_read = bench::ForEachReplayedGame(
      files, &read, [&](const std::string& file, const RawGame& game, const Replayer& replayer) {
        const RawGame* raw = &game;
        Position pos = replayer.setup().start;
        for (size_t action = 0;; ++action) {
          MateInOneLimits limits;
          limits.search.promotions = PromotionChoices(replayer.setup(), pos);
          limits.search.budget = budget;
          limits.reply_budget = budget;
          limits.shortcuts = screen;
          limits.few_actions = few;
          // The yardstick: one generation of every move of the mover's playable boards.
          const double movegen_start = ThreadCpuMs();
          for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
            if (!pos.HasTimeline(l) || ColorOf(pos.TipHalf(l)) != pos.ToMove()) continue;
            ForEachTipMove(pos, l, limits.search.promotions, [&](const Move&, Piece) {
              ++moves_generated;
              return false;
            });
          }
          const double screen_start = ThreadCpuMs();
          movegen_ms += screen_start - movegen_start;
          const CheckScreen screened_as = ScreenChecks(pos, limits.search.promotions);
          const double search_start = ThreadCpuMs();
          screen_ms += search_start - screen_start;
          ++screened[static_cast<int>(screened_as)];
          const MateInOne found = FindMateInOne(pos, limits);
          const double searched_ms = ThreadCpuMs() - search_start;
          search_ms += searched_ms;
          search_ms_by[static_cast<int>(found.answer)] += searched_ms;
          // Why the reply proof failed where it ran: run again, outside the timed part.
          if (screen && screened_as == CheckScreen::kMayCheck) {
            const ReplyProof proof = ProveNoMateByReplies(pos, limits.search.promotions);
            const int round = std::min(proof.rounds, 3);
            ++proof_results[static_cast<int>(proof.result)][round];
            if (found.answer == MateInOne::Answer::kUnknown) {
              ++proof_unknown[static_cast<int>(proof.result)][round];
              // Why the versions proof stopped there, asked as the search asks it (every action,
              // or the actions creating no timeline where the opponent has more).
              const int ahead = pos.CreatedBy(Opponent(pos.ToMove())) - pos.CreatedBy(pos.ToMove());
              const VersionProof versions =
                  ProveNoMateByVersions(pos, limits.search.promotions, kVersionProofFactor * budget,
                                        budget, ahead <= 0 ? -1 : 0);
              const std::string why =
                  std::string(VersionProofStopName(versions.stop)) +
                  (ahead <= 0 ? ""
                   : ahead == 1
                       ? " (the actions creating no timeline; opponent one ahead)"
                       : " (the actions creating no timeline; opponent two or more ahead)");
              ++versions_unknown[why];
              if (list_unknown) {
                std::printf(
                    "UNKNOWN %s game %d position %zu: %s after round %d, %llu slots, %llu "
                    "versions; versions proof: %s; search: %llu actions, %llu checking, %llu "
                    "undecided, %llu moves\n",
                    file.c_str(), raw->index, action, ReplyProofResultName(proof.result),
                    proof.rounds, static_cast<unsigned long long>(proof.slots),
                    static_cast<unsigned long long>(proof.versions), why.c_str(),
                    static_cast<unsigned long long>(found.actions),
                    static_cast<unsigned long long>(found.checking),
                    static_cast<unsigned long long>(found.undecided),
                    static_cast<unsigned long long>(found.work));
              }
            }
          }
          if (brute_budget != 0) {
            MateInOneLimits plain = limits;
            plain.search.budget = brute_budget;
            plain.reply_budget = brute_budget;
            plain.shortcuts = false;
            plain.few_actions.moves_per_action = 0;
            const MateInOne reference = FindMateInOne(pos, plain);
            bool disagree = reference.mating > 0 && found.answer == MateInOne::Answer::kNone;
            if (found.answer == MateInOne::Answer::kUnknown) {
              ++(reference.mating > 0                           ? unknown_brute[0]
                 : reference.answer == MateInOne::Answer::kNone ? unknown_brute[1]
                                                                : unknown_brute[2]);
            }
            if (reference.complete) {
              ++compared;
              if (reference.mating > 0) ++compared_mates;
              // An unknown is no answer, so no disagreement (counted above instead).
              disagree = disagree || (found.answer != MateInOne::Answer::kUnknown &&
                                      (found.answer == MateInOne::Answer::kMates) !=
                                          (reference.answer == MateInOne::Answer::kMates));
              disagree = disagree || (found.complete && found.mating != reference.mating);
            }
            if (disagree) {
              ++disagreements;
              std::printf(
                  "DISAGREE %s game %d position %zu: brute force %s %llu%s, shortcuts %s %llu\n",
                  file.c_str(), raw->index, action, MateInOneAnswerName(reference.answer),
                  static_cast<unsigned long long>(reference.mating),
                  reference.complete ? "" : " (incomplete)", MateInOneAnswerName(found.answer),
                  static_cast<unsigned long long>(found.mating));
            }
          }
          ++positions;
          switch (found.answer) {
            case MateInOne::Answer::kMates:
              ++mates;
              if (found.found_by_targeted_search) ++by_finder;
              if (found.found_by_versions) ++versions_mates;
              break;
            case MateInOne::Answer::kNone:
              ++none;
              if (found.proved_by_replies) ++by_replies;
              if (found.proved_by_branch) ++by_branch;
              if (found.proved_in_parts) ++by_parts;
              if (found.proved_by_versions) ++by_versions;
              if (!found.screened && !found.proved_by_replies && !found.proved_by_branch &&
                  !found.proved_in_parts && !found.proved_by_versions && found.checking == 0) {
                ++none_without_check;
              }
              break;
            case MateInOne::Answer::kUnknown:
              ++unknown;
              ++(found.undecided > 0 ? by_decide : by_search);
              break;
          }
          if (action == replayer.actions().size()) break;
          // The action played is a legal action: if it checks, the screen must have allowed it
          // (a free check of the screen on every position of the games). Not when it promotes to
          // a piece the search does not offer (the generator of the random games promotes to any
          // piece replay accepts, PromotionChoices offers those of the game): the screen speaks
          // of the actions the search would try.
          bool offered = true;
          for (const PlayedMove& played : replayer.actions()[action].moves) {
            const PieceType promotion = played.move.promotion;
            if (promotion != PieceType::kNone && !limits.search.promotions.Contains(promotion)) {
              offered = false;
            }
            ApplyMove(&pos, played.move);
          }
          if (screened_as == CheckScreen::kNoCheck && offered && InCheck(pos)) {
            ++contradicted;
            std::printf(
                "screen contradicted: %s game %d, the action played from position %zu "
                "checks\n",
                file.c_str(), raw->index, action);
          }
        }
      });
  if (!all_read) return 3;
  const double replay_ms = read.replay_ms;
  std::printf("%ld positions, budget %llu, few actions %llu %llu, shortcuts %s\n", positions,
              static_cast<unsigned long long>(budget),
              static_cast<unsigned long long>(few.moves_per_action),
              static_cast<unsigned long long>(few.max_factor), screen ? "on" : "off");
  std::printf("mates %ld  none %ld  unknown %ld (%.1f%%: %ld search out of budget, %ld decision)\n",
              mates, none, unknown, positions ? 100.0 * unknown / positions : 0.0, by_search,
              by_decide);
  std::printf(
      "check screen: no check %ld  may check %ld  not applicable %ld  (mates found by the "
      "targeted search: %ld)\n",
      screened[0], screened[1], screened[2], by_finder);
  std::printf("none proved by a safe reply to every action (reply proof): %ld\n", by_replies);
  std::printf("none proved by one branch answering every action (branch escape): %ld\n", by_branch);
  std::printf(
      "none proved in two parts (one branch answering the actions that create as many "
      "timelines as the opponent has more, a reply to each the others): %ld\n",
      by_parts);
  std::printf(
      "none proved by the mandatory boards' versions taken together (versions proof): %ld "
      "(mates it found where the enumeration found none: %ld)\n",
      by_versions, versions_mates);
  // A table of proof_results' shape: each result's total, then by round.
  auto print_by_result = [](const char* title, const long(&table)[4][4]) {
    std::printf("%s", title);
    for (int result = 0; result < 4; ++result) {
      long total = 0;
      for (int round = 0; round < 4; ++round) total += table[result][round];
      std::printf("%s %s %ld (%ld/%ld/%ld)", result == 0 ? "" : ",",
                  ReplyProofResultName(static_cast<ReplyProof::Result>(result)), total,
                  table[result][1], table[result][2], table[result][3]);
    }
    std::printf("\n");
  };
  print_by_result(
      "reply proof where the screen says may check, by result (after round 1 / 2 / 3 or more):",
      proof_results);
  print_by_result("of which left unknown:", proof_unknown);
  std::printf("versions proof on the positions left unknown, by where it stopped:");
  for (const auto& [why, count] : versions_unknown) std::printf(" %s %ld;", why.c_str(), count);
  std::printf("\n");
  std::printf("none proved by trying every action, none of them a check: %ld\n",
              none_without_check);
  std::printf("actions played that check after the screen said none could: %ld\n", contradicted);
  std::printf("cpu: replay %.0f ms  screen %.0f ms  mate search %.0f ms\n", replay_ms, screen_ms,
              search_ms);
  std::printf(
      "one move generation per position: %.0f ms (%ld moves); screen and mate search %.0f times "
      "that\n",
      movegen_ms, moves_generated, movegen_ms > 0 ? (screen_ms + search_ms) / movegen_ms : 0.0);
  std::printf("mate search cpu by answer: mates %.0f ms  none %.0f ms  unknown %.0f ms\n",
              search_ms_by[static_cast<int>(MateInOne::Answer::kMates)],
              search_ms_by[static_cast<int>(MateInOne::Answer::kNone)],
              search_ms_by[static_cast<int>(MateInOne::Answer::kUnknown)]);
  if (brute_budget != 0) {
    std::printf(
        "brute force at %llu moves: %ld positions searched completely (%ld with a mate), %ld "
        "disagreements\n",
        static_cast<unsigned long long>(brute_budget), compared, compared_mates, disagreements);
    std::printf(
        "of the positions left unknown, brute force found a mate in %ld, none in %ld, and "
        "neither in %ld\n",
        unknown_brute[0], unknown_brute[1], unknown_brute[2]);
  }
  return 0;
}
