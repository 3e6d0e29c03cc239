// What the indexer stores about one game: everything is computed here, in a worker thread, from
// the game's text alone, so that the database writer only copies values into SQLite.
#ifndef FIVED_INDEXER_ANALYZE_H_
#define FIVED_INDEXER_ANALYZE_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/decide.h"
#include "core/pgn_syntax.h"
#include "core/types.h"
#include "schema/tactics.h"

namespace fived {

struct StateRow {
  uint64_t key = 0;  // state key (core/keys.h) after `action` actions
  int action = 0;    // 0 = the starting position
  int to_move = 0;   // 0 white, 1 black
};

// A game as the database keeps it. When `rejected` is set only the identity fields, the text and
// the error fields are meaningful.
struct GameRecord {
  // Where it came from.
  uint64_t byte_offset = 0;
  int game_index = 0;
  int first_line = 0;
  std::string text;
  uint64_t text_hash = 0;  // XXH3-64 of text: with the source and offset, the re-index identity

  bool rejected = false;
  int error_line = 0;
  int error_column = 0;
  std::string error_token;
  std::string error_message;  // "game 12, line 40, col 17: (0T5)Nxe5: no knight ..."

  std::vector<std::pair<std::string, std::string>> headers;  // in file order, as written
  std::string variant;
  int width = 0;
  int height = 0;
  bool even_start = false;  // timelines -0 and +0 (types.h's numbering)
  std::string white, black, result, date, event;
  // Search keys (schema/search_keys.h): NameKey of White and Black (empty: none), and the days
  // the Date may stand for (0 and 0 when it has none or cannot be read).
  std::string white_key, black_key;
  int32_t date_first = 0;
  int32_t date_last = 0;
  int actions = 0;
  int timelines = 0;
  std::string final_md5;  // lowercase hex; empty until HashFinalStates with defer_final_md5
  // With AnalyzeOptions::defer_final_md5: the final state's 5DFEN, which HashFinalStates hashes
  // (and clears).
  std::string final_state_fen;
  uint64_t start_key = 0;
  uint64_t final_key = 0;
  uint64_t identity = 0;  // same variant, start and moves <=> same identity (copies)
  std::string moves;      // canonical movetext (pgn_writer.h), without the result
  // How the game ends (indexer/verdict.h, stored as schema/ending.h says): the verdict on the
  // final position for the side to move there, whether that side is in check, the witness of a
  // playable verdict and the moves tried; `decided` false leaves them unset (stored as NULL).
  bool decided = false;
  Decision::Verdict verdict = Decision::Verdict::kUnknown;
  Color to_move = Color::kWhite;
  bool in_check = false;
  std::string witness;
  uint64_t verdict_work = 0;
  // The verdict contradicts the Result header or the result closing the movetext
  // (ResultContradicts in schema/ending.h).
  bool result_conflict = false;
  std::vector<std::string> warnings;
  // With AnalyzeOptions::tactics (indexer/tactics.h): the positions with a mate in one or left
  // unknown, and how many positions were searched (0 without the option).
  std::vector<PositionTactics> tactics;
  long tactics_positions = 0;
  std::vector<StateRow> states;
  // With AnalyzeOptions::all_state_md5: Md5DigestKey of every state's MD5, as `states`.
  std::vector<uint64_t> state_md5s;
  // The first AnalyzeOptions::opening_actions actions as schema/position_stats.h keeps them:
  // (ActionHash, move texts joined by ' ' in played order).
  std::vector<std::pair<uint64_t, std::string>> opening;
  // Every board of the game as a board stream (core/board_stream.h), and the piece features its
  // boards hold, sorted and distinct: the game's part of the pattern index
  // (schema/pattern_index.h).
  std::string board_stream;
  std::vector<uint32_t> piece_features;
  // The content keys of the game's boards (core/keys.h), sorted and distinct (board_keys).
  std::vector<uint64_t> board_keys;
  // The original text and canonical movetext compressed as a record (schema/record.h) with the
  // dictionary `compressed_with` (0: none) by the worker that analyzed the game, once the
  // writer has chosen a dictionary; -1 when not compressed yet.
  std::string compressed;
  int64_t compressed_with = -1;
};

struct AnalyzeOptions {
  // Moves tried (core/decide.h Decide) before the final position's verdict is unknown; 0 decides
  // nothing (the verdict is left unset).
  uint64_t verdict_budget = 20000;  // IndexOptions::verdict_budget
  // Actions kept in GameRecord::opening: the database's meta.position_stats_actions.
  int opening_actions = 0;
  // Fill GameRecord::state_md5s (core/state_md5.h).
  bool all_state_md5 = false;
  // Fill GameRecord::tactics, searching every position with this budget (FindGameTactics).
  bool tactics = false;
  uint64_t tactics_budget = 2000;
  // Leave final_md5 to HashFinalStates, which hashes a batch's final states together
  // (core/md5_lanes.h): the record keeps the final state's 5DFEN instead. No effect with
  // all_state_md5 (whose stream hashes the final state anyway).
  bool defer_final_md5 = false;
};

// Why a game longer than GameSplitter::kMaxGameBytes (RawGame::oversized, `bytes` long) is
// rejected.
std::string OversizedReason(uint64_t bytes);

// Parses, replays and describes one game (whose text moves into the record), and decides its
// final position. Thread-safe; never throws on bad input.
GameRecord AnalyzeGame(RawGame raw, const AnalyzeOptions& options = {});

// Sets final_md5 of every record that holds its final state's 5DFEN (defer_final_md5), several at
// a time where the processor allows (core/md5_lanes.h), and frees the text.
void HashFinalStates(std::span<GameRecord> records);

}  // namespace fived

#endif  // FIVED_INDEXER_ANALYZE_H_
