// Pattern searches; see pattern_search.h.
#include "query/pattern_search.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "core/board_stream.h"
#include "schema/pattern_index.h"

namespace fived {

namespace {

// A square narrows the search when its set holds no empty square and at most this many piece
// bytes (a named piece is one or two: moved and unmoved); wider classes ('!', 'A') would read
// the postings of most games for little.
constexpr int kMaxNarrowingBytes = 4;
// The narrowing squares read at most (the most specific first): each costs a read of its
// postings, and a few already leave few candidates.
constexpr size_t kMaxNarrowingSquares = 6;

struct Narrowing {
  int bytes = 0;  // piece bytes in the set
  std::vector<uint32_t> features;
};

std::vector<Narrowing> NarrowingSquares(std::span<const BoardPattern> patterns) {
  std::vector<Narrowing> squares;
  for (const BoardPattern& pattern : patterns) {
    for (uint16_t i : pattern.constrained) {
      const PieceSet set = pattern.squares[i];
      if (set & 1) continue;  // accepts an empty square: every game has some
      const int bytes = std::popcount(set);
      if (bytes > kMaxNarrowingBytes) continue;
      Narrowing narrowing;
      narrowing.bytes = bytes;
      for (int b = 1; b < 64; ++b) {
        if (set >> b & 1) {
          narrowing.features.push_back(
              PieceFeature(pattern.width, pattern.height, i, static_cast<uint8_t>(b)));
        }
      }
      squares.push_back(std::move(narrowing));
    }
  }
  std::stable_sort(squares.begin(), squares.end(),
                   [](const Narrowing& a, const Narrowing& b) { return a.bytes < b.bytes; });
  if (squares.size() > kMaxNarrowingSquares) squares.resize(kMaxNarrowingSquares);
  return squares;
}

std::vector<int64_t> Intersect(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace

std::string BoardCoordinates(const TimelineLabeling& labeling, int timeline, int half_turn) {
  return labeling.Label(timeline) + ":" + std::to_string(TurnOf(half_turn)) + ":" +
         (ColorOf(half_turn) == Color::kWhite ? "w" : "b");
}

DbResult<std::vector<PositionMatch>> FindPatterns(GameStore& store,
                                                  std::span<const BoardPattern> patterns,
                                                  PatternSearchStats* stats) {
  PatternSearchStats local;
  PatternSearchStats& counted = stats ? *stats : local;
  counted = PatternSearchStats{};
  const ReadSnapshot snapshot(store.db());
  DbResult<PatternIndexReader> created = PatternIndexReader::Create(store.db());
  if (!created.ok()) return created.error();
  PatternIndexReader& reader = created.value();

  std::vector<int64_t> candidates;
  for (const Narrowing& square : NarrowingSquares(patterns)) {
    DbResult<std::vector<int64_t>> games = reader.GamesWithAny(square.features);
    if (!games.ok()) return games.error();
    candidates = counted.narrowed ? Intersect(candidates, games.value()) : games.value();
    counted.narrowed = true;
    if (candidates.empty()) break;
  }

  std::vector<PositionMatch> matches;
  if (counted.narrowed && candidates.empty()) return matches;
  BoardStreamReader stream_reader;
  std::vector<PatternHit> hits;
  std::optional<DbError> damaged;
  auto match = [&](int64_t game_id, std::string_view stream) {
    ++counted.candidates;
    if (!FirstHits(patterns, stream, stream_reader, &hits)) {
      damaged = DbError{0, "game " + std::to_string(game_id) + ": its board stream is damaged"};
      return false;
    }
    PositionMatch found;
    found.game_id = game_id;
    for (const PatternHit& hit : hits) {
      if (hit.board < 0) return true;
      found.action = std::max(found.action, hit.action);
      if (!found.boards.empty()) found.boards += ' ';
      found.boards += BoardCoordinates(stream_reader.labeling(), hit.timeline, hit.half_turn);
    }
    matches.push_back(std::move(found));
    return true;
  };
  if (auto error = reader.ForEachStream(match, counted.narrowed ? &candidates : nullptr)) {
    return *error;
  }
  if (damaged) return *damaged;
  return matches;
}

}  // namespace fived
