// Writes every mate in one the tactics search (core/tactics.h, as 5d-index --tactics runs it)
// finds in a 5dpgn collection as a game of its own: the game's headers (its Result made "*"), its
// actions up to that position, then the solution. Another engine can then be asked whether each
// ends in checkmate (scripts/diff-mates.sh asks ftxi's 5dtools). With --none, the positions the
// search proves to have no mate in one instead, each as the game up to there, so that another
// engine can try every action (scripts/diff-mates.sh NONE=1). Prints the games on standard output
// and a count on standard error; asserts nothing.
// Usage: mate_games [--none] [--budget N] FILE...   (budget as 5d-index --tactics-budget, 2,000)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/action.h"
#include "core/pgn_writer.h"
#include "core/rules.h"
#include "core/tactics.h"
#include "tests/bench/bench_games.h"

namespace {

// The header lines of a game's text, the result made "*": the solution ends no recorded game.
std::string HeaderLines(std::string_view text) {
  std::string out;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line.front() != '[') continue;
    out += line.starts_with("[Result ") ? std::string_view("[Result \"*\"]") : line;
    out += '\n';
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fived;
  uint64_t budget = 2000;
  std::vector<std::string> files;
  std::vector<char*> args(argv, argv + argc);
  const auto none_flag = std::find(args.begin(), args.end(), std::string_view("--none"));
  const bool none = none_flag != args.end();
  if (none) args.erase(none_flag);
  if (!bench::ReadBudgetAndFiles(static_cast<int>(args.size()), args.data(), &budget, &files)) {
    std::fprintf(stderr, "usage: mate_games [--none] [--budget N] FILE...\n");
    return 2;
  }
  long positions = 0, mates = 0, proved_none = 0;
  bench::GamesRead read;
  const bool all_read = bench::ForEachReplayedGame(
      files, &read, [&](const std::string&, const RawGame& raw, const Replayer& replayer) {
        const std::string headers = HeaderLines(raw.text);
        Position pos = replayer.setup().start;
        // The movetext up to the current position, laid out again with the solution each time.
        std::vector<std::pair<Color, std::vector<std::string>>> played;
        auto movetext_so_far = [&played] {
          MovetextBuilder movetext;
          for (const auto& [mover, texts] : played) {
            movetext.BeginAction(mover);
            for (const std::string& text : texts) movetext.AddMove(text);
            movetext.EndAction();
          }
          return movetext;
        };
        for (size_t action = 0;; ++action) {
          MateInOneLimits limits;
          limits.search.promotions = PromotionChoices(replayer.setup(), pos);
          limits.search.budget = budget;
          limits.reply_budget = budget;
          ++positions;
          const MateInOne found = FindMateInOne(pos, limits);
          if (none && found.answer == MateInOne::Answer::kNone) {
            ++proved_none;
            MovetextBuilder movetext = movetext_so_far();
            std::printf("%s\n%s\n", headers.c_str(), movetext.Finish("").c_str());
          }
          if (!none && found.answer == MateInOne::Answer::kMates) {
            ++mates;
            MovetextBuilder movetext = movetext_so_far();
            Position scratch = pos;
            movetext.BeginAction(pos.ToMove());
            for (const Move& move : found.solution) {
              movetext.AddMove(MoveText(scratch, move));
              ApplyMove(&scratch, move);
            }
            movetext.EndAction();
            std::printf("%s\n%s\n", headers.c_str(), movetext.Finish("").c_str());
          }
          if (action == replayer.actions().size()) break;
          const Color mover = pos.ToMove();
          std::vector<std::string> texts;
          for (const PlayedMove& move : replayer.actions()[action].moves) {
            texts.push_back(MoveText(pos, move.move));
            ApplyMove(&pos, move.move);
          }
          played.emplace_back(mover, std::move(texts));
        }
      });
  if (!all_read) return 3;
  std::fprintf(stderr,
               "mate_games: %ld positions, %ld with a mate in one written, %ld proved to have none "
               "written (%d games rejected)\n",
               positions, mates, proved_none, read.rejected);
  return 0;
}
