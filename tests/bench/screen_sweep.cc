// Holds the check screen (core/check_screen.h) to every legal action, outside ctest: for every
// position of the games of 5dpgn collections, the screen's answer, then each legal action (up to
// a budget of moves) played and the opponent's check looked for (InCheck). Prints each position
// where an action checks although the screen said none could (a wrong "no check": the mate
// search would then deny a mate), and counts the actions after which the present moved back (a
// board the mover had to play on the present left unplayed, as a branch into the past allows) and
// those of them whose check comes from such an unplayed board (the case the screen and the reply
// proof left out until fd8c777: CheckScreen.ABranchIntoThePastLeavesTheBoardsOfThePresentUnplayed).
// Prints figures; asserts nothing.
// Usage: bench_screen_sweep [--budget N] FILE...   (moves per position, default 20,000)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/action.h"
#include "core/check_screen.h"
#include "core/legal.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "core/rules.h"
#include "tests/bench/bench_games.h"

int main(int argc, char** argv) {
  using namespace fived;
  uint64_t budget = 20000;
  std::vector<std::string> files;
  if (!bench::ReadBudgetAndFiles(argc, argv, &budget, &files)) {
    std::fprintf(stderr, "usage: bench_screen_sweep [--budget N] FILE...\n");
    return 2;
  }
  long positions = 0, screened = 0, complete = 0, actions = 0, wrong = 0;
  long moved_back = 0, checked_from_unplayed = 0, checked_from_unplayed_screened = 0;
  bench::GamesRead read;
  const bool all_read = bench::ForEachReplayedGame(
      files, &read, [&](const std::string& file, const RawGame& raw, const Replayer& replayer) {
        Position pos = replayer.setup().start;
        for (size_t action = 0;; ++action) {
          ++positions;
          SearchLimits limits;
          limits.promotions = PromotionChoices(replayer.setup(), pos);
          limits.budget = budget;
          const CheckScreen screen = ScreenChecks(pos, limits.promotions);
          const bool no_check = screen == CheckScreen::kNoCheck;
          screened += no_check ? 1 : 0;
          const int present = pos.Present();
          bool reported = false;
          const SearchStats stats =
              ForEachLegalAction(pos, limits, [&](const std::vector<Move>&, const Position& after) {
                ++actions;
                bool back = false;
                for (int l = pos.min_timeline(); l <= pos.max_timeline() && !back; ++l) {
                  back = pos.HasTimeline(l) && pos.IsActive(l) && pos.TipHalf(l) == present &&
                         after.TipHalf(l) == present;
                }
                const std::vector<Move> checks = Checks(after);
                if (back) {
                  ++moved_back;
                  for (const Move& check : checks) {
                    if (check.src_half == present && pos.IsActive(check.src_timeline) &&
                        after.TipHalf(check.src_timeline) == present) {
                      ++checked_from_unplayed;
                      checked_from_unplayed_screened += no_check ? 1 : 0;
                      break;
                    }
                  }
                }
                if (no_check && !checks.empty() && !reported) {
                  reported = true;
                  ++wrong;
                  std::printf("SCREEN WRONG %s game %d position %zu: an action checks\n",
                              file.c_str(), raw.index, action);
                }
                return false;
              });
          complete += stats.end == SearchEnd::kExhausted ? 1 : 0;
          if (action == replayer.actions().size()) break;
          for (const PlayedMove& played : replayer.actions()[action].moves) {
            ApplyMove(&pos, played.move);
          }
        }
      });
  if (!all_read) return 3;
  std::printf(
      "%ld positions (%ld enumerated completely at %llu moves), %ld said no check; %ld actions "
      "tried\n",
      positions, complete, static_cast<unsigned long long>(budget), screened, actions);
  std::printf("positions where an action checks though the screen said none could: %ld\n", wrong);
  std::printf(
      "actions leaving a board of the present unplayed: %ld; checking from such a board: %ld "
      "(%ld where the screen said no check)\n",
      moved_back, checked_from_unplayed, checked_from_unplayed_screened);
  return 0;
}
