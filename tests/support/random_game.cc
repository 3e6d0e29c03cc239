// Random legal games; see random_game.h.
#include "tests/support/random_game.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "core/action.h"
#include "core/board.h"
#include "core/check.h"
#include "core/fen.h"
#include "core/pgn_syntax.h"
#include "core/pgn_writer.h"
#include "core/replay.h"
#include "core/variants.h"

namespace fived {
namespace {

bool AnyPromotion(const std::vector<PlayedMove>& moves) {
  for (const PlayedMove& m : moves) {
    if (m.move.promotion != PieceType::kNone) return true;
  }
  return false;
}

uint64_t RotateLeft(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// A seed for stream `stream` of `seed`: distinct streams of one seed, and one stream of distinct
// seeds, start far apart in the generator's state space.
uint64_t DeriveSeed(uint64_t seed, uint64_t stream) { return MixSeed(seed + MixSeed(stream + 1)); }

// Moves after which an action is abandoned. Every move turns at least one tip of the mover's
// colour into the opponent's, so an action ends well before this; the cap only guards the loop.
constexpr int kMaxMovesPerAction = 256;

// No board: stuck_on when every mandatory board could be played.
constexpr int kNoTimeline = INT_MIN;

// How many actions behind the longest line reached backtracking may go.
constexpr size_t kMaxBacktrackDepth = 4;

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

bool RandomGameGenerator::HasPieceOf(const Board& board, Color color) {
  for (int rank = 0; rank < board.height(); ++rank) {
    for (int file = 0; file < board.width(); ++file) {
      const Piece piece = board.at(file, rank);
      if (!piece.empty() && piece.color() == color) return true;
    }
  }
  return false;
}

bool RandomGameGenerator::CollectMoves(const GameSetup& setup, const RandomGameOptions& options,
                                       const Position& pos, int timeline) {
  physical_.clear();
  jumps_.clear();
  rescues_.clear();
  const bool may_branch = pos.timeline_count() < options.max_timelines;
  ForEachTipMove(pos, timeline, setup.promotions, [&](const Move& m, Piece) {
    if (!m.IsJump()) {
      physical_.push_back(m);
    } else if (pos.TipHalf(m.dst_timeline) == m.dst_half) {
      const bool rescue = std::find(dead_.begin(), dead_.end(), m.dst_timeline) != dead_.end();
      (rescue ? rescues_ : jumps_).push_back(m);
    } else if (may_branch) {
      jumps_.push_back(m);
    }
    return false;
  });
  return !physical_.empty() || !jumps_.empty() || !rescues_.empty();
}

Move RandomGameGenerator::TakeMove(const RandomGameOptions& options, GameRng& rng) {
  std::vector<Move>* list = &rescues_;
  if (list->empty()) {
    const bool jump = physical_.empty() || (!jumps_.empty() && rng.Chance(options.jump_bias));
    list = jump ? &jumps_ : &physical_;
  }
  assert(!list->empty());
  const size_t i = rng.Below(static_cast<uint32_t>(list->size()));
  const Move move = (*list)[i];
  (*list)[i] = list->back();
  list->pop_back();
  return move;
}

bool RandomGameGenerator::ChooseBoard(const RandomGameOptions& options, GameRng& rng,
                                      const Position& pos, const GameSetup& setup, Color mover,
                                      bool careful, bool* mandatory, int* timeline) {
  // Mandatory boards first; they are recomputed after every move, since a branch may move the
  // present back (and so change what is mandatory).
  boards_.clear();
  dead_.clear();
  const int present = pos.Present();
  if (ColorOf(present) == mover) {
    for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
      if (!pos.HasTimeline(l) || !pos.IsActive(l) || pos.TipHalf(l) != present) continue;
      // A board without a piece of the mover can only be played by a jump onto it.
      (HasPieceOf(pos.Tip(l), mover) ? boards_ : dead_).push_back(l);
    }
  }
  *mandatory = !boards_.empty() || !dead_.empty();
  if (!*mandatory) {
    if (!rng.Chance(options.optional_move_chance)) return false;
    for (int l = pos.min_timeline(); l <= pos.max_timeline(); ++l) {
      if (pos.HasTimeline(l) && ColorOf(pos.TipHalf(l)) == mover) boards_.push_back(l);
    }
  }
  while (!boards_.empty()) {
    size_t pick = rng.Below(static_cast<uint32_t>(boards_.size()));
    // Boards that had no safe move in an earlier try go first, so that moves on other boards
    // cannot be what spoils them.
    if (careful && *mandatory) {
      for (int l : stuck_boards_) {
        auto found = std::find(boards_.begin(), boards_.end(), l);
        if (found != boards_.end()) {
          pick = static_cast<size_t>(found - boards_.begin());
          break;
        }
      }
    }
    *timeline = boards_[pick];
    if (CollectMoves(setup, options, pos, *timeline)) return true;
    boards_[pick] = boards_.back();
    boards_.pop_back();
  }
  return false;
}

bool RandomGameGenerator::PlayAction(const GameSetup& setup, const RandomGameOptions& options,
                                     GameRng& rng, Position* pos, PlayedAction* action) {
  const Color mover = pos->ToMove();
  const Position::Mark mark = pos->GetMark();
  action->mover = mover;
  stuck_boards_.clear();
  for (int attempt = 0; attempt < options.action_tries; ++attempt) {
    // The first try plays random moves and judges the whole action once, which is cheapest when
    // the mover is not in trouble. Later tries are careful: a move after which a royal piece of
    // the mover is capturable is taken back at once and another is tried. This is sound because
    // the mover's later moves cannot undo such a capture: they never change the opponent's tips
    // (the sources) nor existing boards (where the royal stands); they only add boards.
    const bool careful = attempt > 0;
    const bool promoting = PromotingCapturesCount(*pos);  // before the action
    action->moves.clear();
    bool failed = false;
    int stuck_on = kNoTimeline;
    for (int n = 0; n < kMaxMovesPerAction; ++n) {
      bool mandatory = false;
      int timeline = 0;
      if (!ChooseBoard(options, rng, *pos, setup, mover, careful, &mandatory, &timeline)) {
        failed = mandatory;  // a mandatory board is left that nothing can play
        break;
      }
      bool played = false;
      while (!played && (!physical_.empty() || !jumps_.empty() || !rescues_.empty())) {
        const Move move = TakeMove(options, rng);
        const Position::Mark before = pos->GetMark();
        const MoveEffect effect = ApplyMove(pos, move);
        if (careful && RoyalCapturable(*pos, Opponent(mover),
                                       promoting || move.promotion != PieceType::kNone ||
                                           AnyPromotion(action->moves))) {
          pos->Rollback(before);
          continue;
        }
        action->moves.push_back({move, effect});
        played = true;
      }
      if (!played) {
        failed = mandatory;
        if (mandatory) stuck_on = timeline;
        break;
      }
    }
    if (!failed && !action->moves.empty() &&
        JudgeAction(*pos, mover, promoting || AnyPromotion(action->moves)).problem ==
            ActionVerdict::Problem::kNone) {
      return true;
    }
    pos->Rollback(mark);
    if (stuck_on != kNoTimeline) {
      // Every move of a mandatory board played first leaves a royal piece capturable. Other
      // moves could only help by jumping onto that board or by moving the present back before
      // it, which random tries hardly ever find: take it as having no legal action.
      if (action->moves.empty()) break;
      if (std::find(stuck_boards_.begin(), stuck_boards_.end(), stuck_on) == stuck_boards_.end()) {
        stuck_boards_.push_back(stuck_on);
      }
    }
  }
  action->moves.clear();
  return false;
}

void RandomGameGenerator::PlayAttempt(const GameSetup& setup, const RandomGameOptions& options,
                                      GameRng& rng, int target, RandomGame* game) {
  game->actions.clear();
  game->final_position = setup.start;
  Position& pos = game->final_position;
  action_marks_.clear();
  int backtracks = options.backtracks;
  size_t longest = 0;
  while (static_cast<int>(game->actions.size()) < target) {
    const Position::Mark mark = pos.GetMark();
    PlayedAction action;
    if (PlayAction(setup, options, rng, &pos, &action)) {
      game->actions.push_back(std::move(action));
      action_marks_.push_back(mark);
      longest = std::max(longest, game->actions.size());
      continue;
    }
    // Random play mates quickly once kings can be attacked through time; taking back the
    // opponent's last action and playing another lets most games reach their length. Never
    // far behind the longest line reached, so that a mating start cannot unwind the game.
    if (backtracks == 0 || game->actions.empty() ||
        game->actions.size() + kMaxBacktrackDepth <= longest) {
      break;
    }
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
  const int target = options.min_actions + static_cast<int>(length_rng.Below(static_cast<uint32_t>(
                                               options.max_actions - options.min_actions + 1)));
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
  CollectionOptions checked = options;
  std::vector<GameSetup> setups;
  for (std::string& name : checked.variants) {
    const Variant* variant = FindVariant(name);
    if (variant == nullptr || IsCustomBoardName(name)) return "unknown variant \"" + name + "\"";
    SyntaxGame syntax;
    syntax.headers.push_back(Header{"Board", variant->name, TextPos{}});
    if (!options.promotions.empty()) {
      syntax.headers.push_back(Header{"Promotions", options.promotions, TextPos{}});
    }
    Result<GameSetup> setup = SetupGame(syntax);
    if (!setup.ok()) return "variant \"" + name + "\": " + setup.error().place()->reason;
    setups.push_back(std::move(setup).value());
    name = variant->name;  // written in the canonical spelling, whatever was asked for
  }
  options_ = std::move(checked);
  setups_ = std::move(setups);
  return "";
}

namespace {

// The pieces a custom game's pawns promote to: those asked for, else a queen, as the official game
// and the other engines have it.
std::string CustomPromotions(const CollectionOptions& options) {
  return options.promotions.empty() ? "Q" : options.promotions;
}

}  // namespace

std::string RandomCustomBoard(uint64_t seed) {
  constexpr int kSide = 8;
  for (uint64_t attempt = 0;; ++attempt) {
    GameRng rng(DeriveSeed(seed, attempt));
    Board board(kSide, kSide);
    auto place = [&](int file, int rank, Piece piece) {
      if (!board.at(file, rank).empty()) return;
      board.Set(file, rank, piece);
    };
    // Each king on its home square (e1, e8), unmoved, or on a random square.
    auto king_square = [&](int home_rank, int* file, int* rank) {
      const bool home = rng.Chance(0.4);
      *file = home ? 4 : static_cast<int>(rng.Below(kSide));
      *rank = home ? home_rank : static_cast<int>(rng.Below(kSide));
      return home;
    };
    int white_file, white_rank, black_file, black_rank;
    const bool white_home = king_square(0, &white_file, &white_rank);
    const bool black_home = king_square(kSide - 1, &black_file, &black_rank);
    if (std::abs(black_file - white_file) <= 1 && std::abs(black_rank - white_rank) <= 1) continue;
    place(white_file, white_rank, Piece(PieceType::kKing, Color::kWhite, white_home));
    // A black king drawn on e8 is unmoved too (the runs in scripts/ftxi-actions/README.md were
    // made so).
    place(black_file, black_rank,
          Piece(PieceType::kKing, Color::kBlack,
                black_home || (black_file == 4 && black_rank == kSide - 1)));
    for (int corner = 0; corner < 4; ++corner) {
      if (!rng.Chance(0.4)) continue;
      const bool white = corner < 2;
      place(corner % 2 == 0 ? 0 : kSide - 1, white ? 0 : kSide - 1,
            Piece(PieceType::kRook, white ? Color::kWhite : Color::kBlack, /*unmoved=*/true));
    }
    static constexpr PieceType kKinds[] = {PieceType::kPawn, PieceType::kKnight, PieceType::kBishop,
                                           PieceType::kRook, PieceType::kQueen};
    const int more = 2 + static_cast<int>(rng.Below(13));
    for (int i = 0; i < more; ++i) {
      const Color color = rng.Chance(0.5) ? Color::kWhite : Color::kBlack;
      const int kind = static_cast<int>(rng.Below(5));
      const int file = static_cast<int>(rng.Below(kSide));
      int rank = static_cast<int>(rng.Below(kSide));
      bool unmoved = false;
      if (kind == 0) {
        rank = 1 + static_cast<int>(rng.Below(kSide - 2));  // a pawn: never on the last ranks
        unmoved = rank == (color == Color::kWhite ? 1 : kSide - 2);
      }
      place(file, rank, Piece(kKinds[kind], color, unmoved));
    }
    std::string fen;
    AppendFenBoard(board, "0", 1, Color::kWhite, &fen);
    // Black's king may not be capturable with white to move.
    const SyntaxResult syntax =
        ParseGameSyntax("[Board \"custom\"]\n[Size \"8x8\"]\n" + fen + "\n\n");
    if (!syntax.status.ok()) continue;
    const Result<GameSetup> setup = SetupGame(syntax.game);
    if (!setup.ok() || RoyalCapturable(setup.value().start, Color::kWhite, true)) continue;
    return fen;
  }
}

std::string CollectionGenerator::Game(int index, RandomGame* game) {
  assert(!setups_.empty() && index >= 0);
  const size_t which = static_cast<size_t>(index) % setups_.size();
  RandomGameOptions options;
  options.seed = DeriveSeed(options_.seed, static_cast<uint64_t>(index));
  options.min_actions = options_.min_actions;
  options.max_actions = options_.max_actions;
  options.jump_bias = options_.jump_bias;
  options.max_timelines = options_.max_timelines;
  const GameSetup* setup = &setups_[which];
  GameSetup custom;
  if (options_.custom_boards) {
    const SyntaxResult syntax = ParseGameSyntax(
        "[Board \"custom\"]\n[Size \"8x8\"]\n[Promotions \"" + CustomPromotions(options_) +
        "\"]\n" + RandomCustomBoard(options.seed) + "\n\n");
    custom = SetupGame(syntax.game).value();  // RandomCustomBoard checked that it sets up
    setup = &custom;
  }
  std::optional<RandomGame> played = generator_.Generate(*setup, options);

  // Made-up players and dates, so that searches by name and date have something to find.
  static constexpr const char* kPlayers[] = {"Ada", "Bart", "Cleo", "Dov",  "Eli", "Fay",
                                             "Gus", "Hana", "Ivo",  "Juno", "Kai", "Lin"};
  constexpr int kPlayerCount = static_cast<int>(sizeof(kPlayers) / sizeof(kPlayers[0]));
  const uint64_t pick = MixSeed(options.seed);
  const int white = static_cast<int>(pick % kPlayerCount);
  const int black =
      (white + 1 + static_cast<int>((pick >> 32) % (kPlayerCount - 1))) % kPlayerCount;
  char date[16];
  std::snprintf(date, sizeof(date), "%04d.%02d.%02d", 2020 + (index / 336) % 6,
                (index / 28) % 12 + 1, index % 28 + 1);

  std::vector<std::pair<std::string, std::string>> headers = {
      {"Event", "Random game " + std::to_string(index + 1) + " (seed " +
                    std::to_string(options_.seed) + ")"},
      {"White", std::string("Random ") + kPlayers[white]},
      {"Black", std::string("Random ") + kPlayers[black]},
      {"Date", date},
      {"Result", "*"},
      {"Board", options_.custom_boards ? "custom" : options_.variants[which]},
      {"Mode", "5D"},
  };
  if (options_.custom_boards) {
    headers.emplace_back("Size", "8x8");
    headers.emplace_back("Promotions", CustomPromotions(options_));
  } else if (!options_.promotions.empty()) {
    headers.emplace_back("Promotions", options_.promotions);
  }
  const std::vector<PlayedAction> no_actions;
  std::string text = WriteGame(headers, *setup, played ? played->actions : no_actions, "*");
  if (game != nullptr) {
    if (played) {
      *game = std::move(*played);
    } else {
      *game = RandomGame();
      game->final_position = setup->start;
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
