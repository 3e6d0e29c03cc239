// Random legal games; see random_game.h.
#include "core/random_game.h"

#include <cassert>
#include <cstdio>
#include <utility>

#include "core/action.h"
#include "core/pgn_writer.h"
#include "core/variants.h"

namespace fived {
long g_hist[202]; long g_fail[4][10]; long g_calls[4]; long g_cur;
namespace {

uint64_t RotateLeft(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// A seed for stream `stream` of `seed`: distinct streams of one seed, and one stream of distinct
// seeds, start far apart in the generator's state space.
uint64_t DeriveSeed(uint64_t seed, uint64_t stream) { return MixSeed(seed + MixSeed(stream + 1)); }

// Moves after which an action is abandoned. Every move turns at least one tip of the mover's
// colour into the opponent's, so an action ends well before this; the cap only guards the loop.
constexpr int kMaxMovesPerAction = 256;

}  // namespace

uint64_t MixSeed(uint64_t value) {
  uint64_t z = value + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

GameRng::GameRng(uint64_t seed) {
  // splitmix64: consecutive outputs of its Weyl sequence (MixSeed adds the increment).
  for (uint64_t& word : state_) {
    word = MixSeed(seed);
    seed += 0x9e3779b97f4a7c15ULL;
  }
}

uint64_t GameRng::Next() {
  const uint64_t result = RotateLeft(state_[1] * 5, 7) * 9;
  const uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = RotateLeft(state_[3], 45);
  return result;
}

void RandomGameGenerator::CollectMoves(const GameSetup& setup, const RandomGameOptions& options,
                                       const Position& pos, int timeline) {
  physical_.clear();
  jumps_.clear();
  const int half = pos.TipHalf(timeline);
  const Board& board = pos.Tip(timeline);
  const Color mover = ColorOf(half);
  const bool may_branch = pos.timeline_count() < options.max_timelines;
  const MoveView view(pos);
  for (int rank = 0; rank < board.height(); ++rank) {
    for (int file = 0; file < board.width(); ++file) {
      const Piece piece = board.at(file, rank);
      if (piece.empty() || piece.color() != mover) continue;
      const Square from{static_cast<int8_t>(file), static_cast<int8_t>(rank)};
      ForEachPieceMove(view, timeline, half, from, piece, GenMode::kAll, setup.promotions,
                       [&](const Move& m, Piece) {
                         if (!m.IsJump()) {
                           physical_.push_back(m);
                         } else if (may_branch || pos.TipHalf(m.dst_timeline) == m.dst_half) {
                           jumps_.push_back(m);
                         }
                         return false;
                       });
    }
  }
}

Move RandomGameGenerator::TakeMove(const RandomGameOptions& options, GameRng& rng) {
  assert(!physical_.empty() || !jumps_.empty());
  const bool jump = physical_.empty() || (!jumps_.empty() && rng.Chance(options.jump_bias));
  std::vector<Move>& list = jump ? jumps_ : physical_;
  const size_t i = rng.Below(static_cast<uint32_t>(list.size()));
  const Move move = list[i];
  list[i] = list.back();
  list.pop_back();
  return move;
}

bool RandomGameGenerator::PlayAction(const GameSetup& setup, const RandomGameOptions& options,
                                     GameRng& rng, Position* pos, PlayedAction* action) {
  const Color mover = pos->ToMove();
  const Position::Mark mark = pos->GetMark();
  action->mover = mover;
  for (int attempt = 0; attempt < options.action_tries; ++attempt) {
    // The first try plays random moves and judges the whole action once, which is cheapest when
    // the mover is not in trouble. Later tries are careful: a move after which a royal piece of
    // the mover is capturable is taken back at once and another is tried. This is sound because
    // the mover's later moves cannot undo such a capture: they never change the opponent's tips
    // (the sources) nor existing boards (where the royal stands); they only add boards.
    const bool careful = attempt > 0;
    action->moves.clear();
    bool stuck = false;
    int mandatory_at_start = 0;
    for (int n = 0; n < kMaxMovesPerAction; ++n) {
      // Mandatory boards first, in random order; the present is recomputed after every move,
      // since a branch may move it back (and so change what is mandatory).
      boards_.clear();
      const int present = pos->Present();
      if (ColorOf(present) == mover) {
        for (int l = pos->min_timeline(); l <= pos->max_timeline(); ++l) {
          if (pos->HasTimeline(l) && pos->IsActive(l) && pos->TipHalf(l) == present) {
            boards_.push_back(l);
          }
        }
      }
      const bool mandatory = !boards_.empty();
      if (n == 0) mandatory_at_start = static_cast<int>(boards_.size());
      if (!mandatory) {
        if (!rng.Chance(options.optional_move_chance)) break;
        for (int l = pos->min_timeline(); l <= pos->max_timeline(); ++l) {
          if (pos->HasTimeline(l) && ColorOf(pos->TipHalf(l)) == mover) boards_.push_back(l);
        }
        if (boards_.empty()) break;
      }
      const int timeline = boards_[rng.Below(static_cast<uint32_t>(boards_.size()))];
      CollectMoves(setup, options, *pos, timeline);
      bool played = false;
      while (!played && (!physical_.empty() || !jumps_.empty())) {
        const Move move = TakeMove(options, rng);
        const Position::Mark before = pos->GetMark();
        const MoveEffect effect = ApplyMove(pos, move);
        if (careful && (++g_cur, RoyalCapturable(*pos, Opponent(mover)))) {
          pos->Rollback(before);
          continue;
        }
        action->moves.push_back({move, effect});
        played = true;
      }
      if (!played) {
        stuck = mandatory;
        break;
      }
    }
    if (!stuck && !action->moves.empty() &&
        (++g_cur, JudgeAction(*pos, mover).problem == ActionVerdict::Problem::kNone)) {
      ++g_hist[attempt]; g_calls[attempt == 0 ? 0 : 1] += g_cur; g_cur = 0;
      return true;
    }
    pos->Rollback(mark);
    // Every move of the only mandatory board, played first, leaves a royal piece capturable:
    // no other order can help (nothing else is played before it), so there is no legal action.
    if (careful && stuck && action->moves.empty() && mandatory_at_start == 1) break;
  }
  action->moves.clear();
  ++g_hist[201]; g_calls[2] += g_cur; g_cur = 0;
  { int nm=0; for (int l = pos->min_timeline(); l <= pos->max_timeline(); ++l) if (pos->HasTimeline(l) && pos->IsActive(l) && pos->TipHalf(l) == pos->Present()) ++nm;
    ++g_fail[0][nm > 9 ? 9 : nm]; }
  return false;
}

void RandomGameGenerator::PlayAttempt(const GameSetup& setup, const RandomGameOptions& options,
                                      GameRng& rng, int target, RandomGame* game) {
  game->actions.clear();
  game->final_position = setup.start;
  Position& pos = game->final_position;
  action_marks_.clear();
  int backtracks = options.backtracks;
  while (static_cast<int>(game->actions.size()) < target) {
    const Position::Mark mark = pos.GetMark();
    PlayedAction action;
    if (PlayAction(setup, options, rng, &pos, &action)) {
      game->actions.push_back(std::move(action));
      action_marks_.push_back(mark);
      continue;
    }
    // Random play mates quickly once kings can be attacked through time; taking back the
    // opponent's last action and playing another lets most games reach their length.
    if (backtracks == 0 || game->actions.empty()) break;
    --backtracks;
    pos.Rollback(action_marks_.back());
    action_marks_.pop_back();
    game->actions.pop_back();
  }
}

std::optional<RandomGame> RandomGameGenerator::Generate(const GameSetup& setup,
                                                        const RandomGameOptions& options) {
  assert(options.min_actions >= 0 && options.min_actions <= options.max_actions);
  GameRng length_rng(DeriveSeed(options.seed, 0));
  const int target =
      options.min_actions +
      static_cast<int>(length_rng.Below(static_cast<uint32_t>(options.max_actions -
                                                              options.min_actions + 1)));
  std::optional<RandomGame> best;
  const int attempts = options.game_attempts < 1 ? 1 : options.game_attempts;
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    GameRng rng(DeriveSeed(options.seed, static_cast<uint64_t>(attempt)));
    RandomGame game;
    game.target_actions = target;
    PlayAttempt(setup, options, rng, target, &game);
    if (!best || game.actions.size() > best->actions.size()) best = std::move(game);
    best->attempts = attempt;
    if (static_cast<int>(best->actions.size()) >= options.min_actions) break;
  }
  if (best->actions.empty() && target > 0) return std::nullopt;
  return best;
}

std::optional<RandomGame> GenerateGame(const GameSetup& setup, const RandomGameOptions& options) {
  RandomGameGenerator generator;
  return generator.Generate(setup, options);
}

std::vector<std::string> DefaultCollectionVariants() {
  return {
      "Standard",
      "Standard - Turn Zero",
      "Standard - Two Timelines",
      "Standard - Princess",
      "Misc - Timeline Battlegrounds",
      "Simple - No Queens",
      "Small",
      "Focused - Just Brawns",
      "Misc - Royal Queen Showdown",
      "Standard - Reversed Royalty",
      "Misc - Timeline Invasion",
      "Misc - Timeline Marauders",
      "Focused - Just Unicorns",
      "Focused - Just Dragons",
  };
}

std::string CollectionGenerator::Init(const CollectionOptions& options) {
  if (options.min_actions < 0 || options.min_actions > options.max_actions) {
    return "action counts must satisfy 0 <= min <= max, got " +
           std::to_string(options.min_actions) + " and " + std::to_string(options.max_actions);
  }
  if (options.variants.empty()) return "no variant to play";
  options_ = options;
  setups_.clear();
  for (const std::string& name : options.variants) {
    const Variant* variant = FindVariant(name);
    if (variant == nullptr || IsCustomBoardName(name)) return "unknown variant \"" + name + "\"";
    SyntaxGame syntax;
    syntax.headers.push_back(Header{"Board", variant->name, TextPos{}});
    auto setup = SetupGame(syntax);
    if (auto* error = std::get_if<ReplayError>(&setup)) {
      return "variant \"" + name + "\": " + error->reason;
    }
    setups_.push_back(std::get<GameSetup>(std::move(setup)));
    // Write the canonical name, whatever spelling was asked for.
    options_.variants[setups_.size() - 1] = variant->name;
  }
  return "";
}

std::string CollectionGenerator::Game(int index, RandomGame* game) {
  assert(!setups_.empty() && index >= 0);
  const size_t which = static_cast<size_t>(index) % setups_.size();
  RandomGameOptions options;
  options.seed = DeriveSeed(options_.seed, static_cast<uint64_t>(index) + 1000);
  options.min_actions = options_.min_actions;
  options.max_actions = options_.max_actions;
  options.jump_bias = options_.jump_bias;
  options.max_timelines = options_.max_timelines;
  std::optional<RandomGame> played = generator_.Generate(setups_[which], options);

  // Made-up players and dates, so that searches by name and date have something to find.
  static constexpr const char* kPlayers[] = {"Ada", "Bart", "Cleo", "Dov",  "Eli",  "Fay",
                                             "Gus", "Hana", "Ivo",  "Juno", "Kai",  "Lin"};
  constexpr int kPlayerCount = static_cast<int>(sizeof(kPlayers) / sizeof(kPlayers[0]));
  const uint64_t pick = MixSeed(options.seed);
  const int white = static_cast<int>(pick % kPlayerCount);
  const int black = (white + 1 + static_cast<int>((pick >> 32) % (kPlayerCount - 1))) % kPlayerCount;
  char date[16];
  std::snprintf(date, sizeof(date), "%04d.%02d.%02d", 2020 + (index / 336) % 6,
                (index / 28) % 12 + 1, index % 28 + 1);

  const std::vector<std::pair<std::string, std::string>> headers = {
      {"Event", "Random game " + std::to_string(index + 1) + " (seed " +
                    std::to_string(options_.seed) + ")"},
      {"White", std::string("Random ") + kPlayers[white]},
      {"Black", std::string("Random ") + kPlayers[black]},
      {"Date", date},
      {"Result", "*"},
      {"Board", options_.variants[which]},
      {"Mode", "5D"},
  };
  static const std::vector<PlayedAction> kNoActions;
  std::string text =
      WriteGame(headers, setups_[which], played ? played->actions : kNoActions, "*");
  if (game != nullptr) {
    if (played) {
      *game = std::move(*played);
    } else {
      *game = RandomGame();
      game->final_position = setups_[which].start;
    }
  }
  return text;
}

std::string GenerateCollection(int games, const CollectionOptions& options, std::string* error) {
  CollectionGenerator generator;
  std::string message = generator.Init(options);
  if (!message.empty()) {
    if (error != nullptr) *error = std::move(message);
    return "";
  }
  std::string out;
  for (int i = 0; i < games; ++i) out += generator.Game(i);
  return out;
}

}  // namespace fived
