// Per-game analysis for the indexer; see analyze.h.
#include "indexer/analyze.h"

// For XXH3_state_t on the stack (one state per game, no allocation).
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <utility>

#include "core/board_stream.h"
#include "core/md5_lanes.h"
#include "core/pgn_writer.h"
#include "core/replay.h"
#include "core/state_md5.h"
#include "indexer/tactics.h"
#include "indexer/verdict.h"
#include "schema/ending.h"
#include "schema/position_stats.h"
#include "schema/search_keys.h"

namespace fived {

namespace {

std::string HeaderValue(const SyntaxGame& game, std::string_view name) {
  const Header* header = game.FindHeader(name);
  return header != nullptr ? header->value : std::string();
}

// `error` is TextErrorAt's (core/pgn_syntax.h): its place has the line, column and token.
void Reject(GameRecord* record, const Status& error) {
  const Place& place = *error.place();
  record->rejected = true;
  record->error_line = static_cast<int>(place.line);
  record->error_column = static_cast<int>(place.column);
  record->error_token = place.token;
  record->error_message = "game " + std::to_string(record->game_index) + ", " + error.message();
}

}  // namespace

std::string OversizedReason(uint64_t bytes) {
  return "a game of " + std::to_string(bytes) + " bytes, longer than the " +
         std::to_string(GameSplitter::kMaxGameBytes) +
         " a game may have (junk, or a decompression bomb?); only its first " +
         std::to_string(GameSplitter::kKeptBytes) + " bytes are kept";
}

GameRecord AnalyzeGame(RawGame raw, const AnalyzeOptions& options) {
  GameRecord record;
  record.byte_offset = raw.byte_offset;
  record.game_index = raw.index;
  record.first_line = raw.first_line;
  record.text = std::move(raw.text);
  record.text_hash = XXH3_64bits(record.text.data(), record.text.size());
  if (raw.oversized > 0) {
    Reject(&record, TextErrorAt(TextPos{record.first_line, 1}, "", OversizedReason(raw.oversized)));
    return record;
  }

  SyntaxResult syntax = ParseGameSyntax(record.text, record.first_line);
  if (!syntax.status.ok()) {
    Reject(&record, syntax.status);
    return record;
  }
  const SyntaxGame& game = syntax.game;
  for (const Header& h : game.headers) record.headers.emplace_back(h.name, h.value);

  std::vector<size_t> boards_after;  // board count after each state
  // The canonical movetext is written during the replay: a move's text needs the position
  // before it. An action's texts enter the movetext once the action is accepted.
  MovetextBuilder movetext;
  // The texts of the current action's moves, one after another, and where each ends.
  std::string action_texts;
  std::vector<size_t> text_ends;
  Color action_mover = Color::kWhite;
  std::vector<std::string_view> opening_texts;  // the current action's texts, for the opening
  record.states.reserve(game.actions.size() + 1);
  boards_after.reserve(game.actions.size() + 1);
  // One incremental MD5 stream per worker thread, reused from game to game.
  thread_local StateMd5Stream md5_stream;
  md5_stream.Reset();
  std::optional<Md5Digest> last_md5;
  auto on_state = [&](int action, const Position& pos) {
    if (options.all_state_md5) {
      last_md5 = md5_stream.Next(pos);
      record.state_md5s.push_back(Md5DigestKey(*last_md5));
    }
    record.states.push_back(
        StateRow{pos.StateKey(), action, pos.ToMove() == Color::kWhite ? 0 : 1});
    boards_after.push_back(pos.board_count());
    if (action == 0) return;
    movetext.BeginAction(action_mover);
    opening_texts.clear();
    size_t begin = 0;
    for (size_t end : text_ends) {
      const std::string_view text = std::string_view(action_texts).substr(begin, end - begin);
      movetext.AddMove(text);
      opening_texts.push_back(text);
      begin = end;
    }
    movetext.EndAction();
    if (action <= options.opening_actions) {
      std::string text;
      for (size_t i = 0; i < opening_texts.size(); ++i) {
        if (i > 0) text += ' ';
        text += opening_texts[i];
      }
      record.opening.emplace_back(ActionHash(opening_texts), std::move(text));
    }
    action_texts.clear();
    text_ends.clear();
  };
  auto on_move = [&](const Position& pos, const Move& move) {
    if (text_ends.empty()) action_mover = ColorOf(move.src_half);
    AppendMoveText(pos, move, &action_texts);
    text_ends.push_back(action_texts.size());
  };
  ReplayOutcome outcome = ReplayGame(game, on_state, on_move);
  if (!outcome.status.ok()) {
    Reject(&record, outcome.status);
    record.states.clear();
    record.state_md5s.clear();
    return record;
  }
  for (const Status& warning : outcome.warnings) record.warnings.push_back(warning.message());
  Replayer& replayer = *outcome.replayer;
  const Position& final_position = replayer.position();

  record.variant = replayer.setup().variant;
  record.width = final_position.width();
  record.height = final_position.height();
  record.even_start = final_position.labeling().even;
  record.white = HeaderValue(game, "White");
  record.black = HeaderValue(game, "Black");
  record.result = game.result.empty() ? HeaderValue(game, "Result") : game.result;
  record.date = HeaderValue(game, "Date");
  record.event = HeaderValue(game, "Event");
  record.white_key = NameKey(record.white);
  record.black_key = NameKey(record.black);
  if (const ParsedDate date = ParseDate(record.date); date.kind == DateKind::kDate) {
    record.date_first = date.bounds.first;
    record.date_last = date.bounds.last;
  }
  record.actions = static_cast<int>(replayer.actions().size());
  record.timelines = final_position.timeline_count();
  // The stream has hashed the final state already.
  if (last_md5) {
    record.final_md5 = Md5DigestHex(*last_md5);
  } else if (options.defer_final_md5) {
    record.final_state_fen = final_position.StateFen();
  } else {
    record.final_md5 = final_position.StateMd5();
  }
  record.start_key = record.states.front().key;
  record.final_key = final_position.StateKey();
  record.moves = movetext.Finish("");

  if (options.verdict_budget > 0) {
    FinalVerdict verdict = DecideFinalPosition(&replayer, options.verdict_budget);
    record.decided = true;
    record.verdict = verdict.verdict;
    record.to_move = verdict.to_move;
    record.in_check = verdict.in_check;
    record.witness = std::move(verdict.witness);
    record.verdict_work = verdict.work;
    // The result is claimed twice at most: by the header and by the token closing the moves.
    for (const std::string& claimed : {HeaderValue(game, "Result"), game.result}) {
      if (ResultContradicts(claimed, verdict.verdict, verdict.to_move)) {
        record.result_conflict = true;
      }
    }
  }

  if (options.tactics) {
    std::optional<Decision::Verdict> verdict;
    if (record.decided) verdict = record.verdict;
    GameTactics tactics = FindGameTactics(replayer, verdict, options.tactics_budget);
    record.tactics = std::move(tactics.rows);
    record.tactics_positions = tactics.positions;
  }

  // Every board with where and when it was added, for the pattern index (and --board).
  EncodeBoardStream(final_position, boards_after, &record.board_stream, &record.piece_features);
  record.board_keys.reserve(final_position.board_count());
  final_position.ForEachBoardInOrder(
      [&](int, int, uint64_t key) { record.board_keys.push_back(key); });
  std::sort(record.board_keys.begin(), record.board_keys.end());
  record.board_keys.erase(std::unique(record.board_keys.begin(), record.board_keys.end()),
                          record.board_keys.end());
  std::sort(record.piece_features.begin(), record.piece_features.end());
  record.piece_features.erase(
      std::unique(record.piece_features.begin(), record.piece_features.end()),
      record.piece_features.end());

  // Identity: the starting position and the canonical moves (the variant shapes the start).
  XXH3_state_t state;
  XXH3_INITSTATE(&state);
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, &record.start_key, sizeof record.start_key);
  XXH3_64bits_update(&state, record.moves.data(), record.moves.size());
  record.identity = XXH3_64bits_digest(&state);
  return record;
}

void HashFinalStates(std::span<GameRecord> records) {
  std::vector<std::string_view> texts;
  std::vector<size_t> which;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].final_state_fen.empty()) continue;
    texts.push_back(records[i].final_state_fen);
    which.push_back(i);
  }
  std::vector<Md5Digest> digests(texts.size());
  Md5Many(texts, digests);
  for (size_t j = 0; j < which.size(); ++j) {
    GameRecord& record = records[which[j]];
    record.final_md5 = Md5DigestHex(digests[j]);
    std::string().swap(record.final_state_fen);
  }
}

}  // namespace fived
