// Prints what the move generator and the check test make of every state of every game of a 5dpgn
// file, in a form another implementation can print too, to compare engines state by state
// (scripts/reference-moves/run.sh holds them to 5d-chess-js). Prints figures; asserts nothing.
//
// Usage:
//   move_keys FILE             a line per game and state: "GAME STATE MOVES CHECK DIGEST", the
//                              state numbered from 0 (the start) by actions played; MOVES the moves
//                              of the side to move on every board it may move from, CHECK 1 when it
//                              is in check, DIGEST the MD5 of the moves' keys, sorted, one a line
//   move_keys FILE GAME:STATE  the keys themselves, sorted
//   move_keys --custom FILE    the games again, each as a custom game (its starting boards in
//                              5DFEN, a Size header, the variant's name in a Variant header) with
//                              canonical movetext: for a reader that knows few variants by name
//
// A move's key: "<timeline>T<turn><w|b> <from> -> <timeline>T<turn> <to> <promotion letter>",
// timelines written with their sign ("+0", "-1"). Promotions are those a player could choose
// (PromotionChoices).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/game_splitter.h"
#include "core/legal.h"
#include "core/md5_lanes.h"
#include "core/movegen.h"
#include "core/pgn_syntax.h"
#include "core/pgn_writer.h"
#include "core/replay.h"
#include "core/state_md5.h"

namespace fived {
namespace {

std::string SignedLabel(const Position& pos, int timeline) {
  std::string label = pos.labeling().Label(timeline);
  if (label[0] != '+' && label[0] != '-') label.insert(0, "+");
  return label;
}

std::string BoardKey(const Position& pos, int timeline, int half) {
  return SignedLabel(pos, timeline) + "T" + std::to_string(TurnOf(half));
}

// The sorted keys of the moves of the side to move.
std::vector<std::string> MoveKeys(const GameSetup& setup, const Position& pos) {
  const PromotionSet promotions = PromotionChoices(setup, pos);
  std::vector<std::string> keys;
  for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
    if (!pos.HasTimeline(l) || ColorOf(pos.TipHalf(l)) != pos.ToMove()) continue;
    ForEachTipMove(pos, l, promotions, [&](const Move& m, Piece) {
      std::string key = BoardKey(pos, m.src_timeline, m.src_half);
      key += ColorOf(m.src_half) == Color::kWhite ? "w " : "b ";
      key += SquareName(m.from) + " -> " + BoardKey(pos, m.dst_timeline, m.dst_half) + " " +
             SquareName(m.to) + " ";
      if (m.promotion != PieceType::kNone) key += PieceLetter(m.promotion);
      keys.push_back(std::move(key));
      return false;
    });
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::string Md5Hex(std::string_view data) {
  Md5Digest digest;
  Md5Many(std::span<const std::string_view>(&data, 1), std::span<Md5Digest>(&digest, 1));
  return Md5DigestHex(digest);
}

int Run(int argc, char** argv) {
  const bool custom = argc == 3 && std::string(argv[1]) == "--custom";
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: move_keys FILE [GAME:STATE] | move_keys --custom FILE\n";
    return 2;
  }
  const char* path = custom ? argv[2] : argv[1];
  int only_game = 0, only_state = -1;
  if (!custom && argc == 3 && std::sscanf(argv[2], "%d:%d", &only_game, &only_state) != 2) {
    std::cerr << "move_keys: GAME:STATE expected, not " << argv[2] << "\n";
    return 2;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "move_keys: cannot read " << path << "\n";
    return 2;
  }
  GameSplitter splitter(in);
  while (std::optional<RawGame> raw = splitter.Next()) {
    if (only_game != 0 && raw->index != only_game) continue;
    const SyntaxResult syntax = ParseGameSyntax(raw->text, raw->first_line);
    if (!syntax.status.ok()) {
      std::printf("%d syntax-error\n", raw->index);
      continue;
    }
    const Result<GameSetup> setup = SetupGame(syntax.game);
    if (!setup.ok()) {
      std::printf("%d setup-error %s\n", raw->index, setup.error().message().c_str());
      continue;
    }
    const GameSetup& game_setup = setup.value();
    auto print_state = [&](int state, const Position& pos) {
      if (only_state >= 0 && state != only_state) return;
      std::string joined;
      const std::vector<std::string> keys = MoveKeys(game_setup, pos);
      for (const std::string& key : keys) {
        if (!joined.empty()) joined += '\n';
        joined += key;
      }
      if (only_state >= 0) {
        std::printf("%s\n", joined.c_str());
      } else {
        std::printf("%d %d %zu %d %s\n", raw->index, state, keys.size(), InCheck(pos) ? 1 : 0,
                    Md5Hex(joined).c_str());
      }
    };
    std::function<void(int, const Position&)> on_state;
    if (!custom) on_state = print_state;
    const ReplayOutcome outcome = ReplayGame(syntax.game, on_state);
    if (!outcome.status.ok()) {
      if (!custom)
        std::printf("%d replay-error %s\n", raw->index, outcome.status.message().c_str());
      continue;
    }
    if (custom) {
      GameSetup as_custom = game_setup;
      as_custom.variant = "custom";
      const std::string size = std::to_string(game_setup.start.width()) + "x" +
                               std::to_string(game_setup.start.height());
      std::fputs(WriteGame({{"Mode", "5D"},
                            {"Board", "Custom"},
                            {"Size", size},
                            {"Variant", game_setup.variant}},
                           as_custom, outcome.replayer->actions(), "")
                     .c_str(),
                 stdout);
      std::fputs("\n", stdout);
    }
  }
  return 0;
}

}  // namespace
}  // namespace fived

int main(int argc, char** argv) { return fived::Run(argc, argv); }
