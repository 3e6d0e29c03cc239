// Pattern searches; see pattern_search.h.
#include "query/pattern_search.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include "core/board_stream.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "schema/pattern_index.h"

namespace fived {

namespace {

// A square narrows the search when its set holds no empty square and at most this many piece
// bytes (a named piece is one or two: moved and unmoved); wider classes ('!', 'A') would read
// the postings of most games for little.
constexpr int kMaxNarrowingBytes = 4;
// Postings are read for the rarest squares first, until the candidates are this few (reading
// more postings would cost more than matching the candidates) or the squares run out.
constexpr size_t kFewCandidates = 256;
constexpr size_t kMaxNarrowingSquares = 8;
// Blocks matched per batch: read in order by this thread, matched by every thread.
constexpr size_t kBatchBlocks = 256;

struct Narrowing {
  int64_t games = 0;  // games holding any of the features (at most the sum of their counts)
  std::vector<uint32_t> features;
};

// The squares that narrow, rarest first.
Result<std::vector<Narrowing>> NarrowingSquares(PatternIndexReader& reader,
                                                const std::vector<BoardPattern>& patterns) {
  std::vector<Narrowing> squares;
  for (const BoardPattern& pattern : patterns) {
    for (uint16_t i : pattern.constrained) {
      const PieceSet set = pattern.squares[i];
      if (set & 1) continue;  // accepts an empty square: every game has some
      if (std::popcount(set) > kMaxNarrowingBytes) continue;
      Narrowing narrowing;
      for (int b = 1; b < 64; ++b) {
        if (!(set >> b & 1)) continue;
        const uint32_t feature =
            PieceFeature(pattern.width, pattern.height, i, static_cast<uint8_t>(b));
        Result<int64_t> games = reader.GamesWith(feature);
        if (!games.ok()) return games.error();
        if (games.value() == 0) continue;
        narrowing.features.push_back(feature);
        narrowing.games += games.value();
      }
      squares.push_back(std::move(narrowing));
    }
  }
  std::stable_sort(squares.begin(), squares.end(),
                   [](const Narrowing& a, const Narrowing& b) { return a.games < b.games; });
  return squares;
}

std::vector<int64_t> Intersect(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// A block as stored, or (sparse) only its candidates' streams: a search that knows its candidates
// copies those (a few hundred bytes a game) instead of the whole block (about 4 KB).
struct Block {
  int64_t first = 0, last = 0;
  std::vector<uint8_t> data;
  bool sparse = false;
  std::vector<std::pair<int64_t, size_t>>
      games;  // sparse: each game's id and the end of its stream
};

// What one thread needs to match games: its own decoder, stream reader and hits.
struct Matcher {
  StreamBlockDecoder decoder;
  BoardStreamReader reader;
  GameMatch match;
  std::vector<StreamOfGame> games;  // the block's games to match

  // Matches the games of a block (those in `only`, when given) into `out`.
  Status MatchBlock(const GameQuery& query, const Block& block, const std::vector<int64_t>* only,
                    std::vector<PositionMatch>* out, int64_t* matched, int64_t* boards) {
    games.clear();
    if (block.sparse) {
      size_t start = 0;
      for (const auto& [id, end] : block.games) {
        games.push_back(StreamOfGame{
            id, std::string_view(reinterpret_cast<const char*>(block.data.data()) + start,
                                 end - start)});
        start = end;
      }
    } else {
      if (Status error = decoder.Decode(block.first, block.last, block.data); !error.ok())
        return error;
      size_t next = 0;
      if (only) {
        next = static_cast<size_t>(std::lower_bound(only->begin(), only->end(), block.first) -
                                   only->begin());
      }
      for (const StreamOfGame& game : decoder.games()) {
        if (only) {
          while (next < only->size() && (*only)[next] < game.game_id) ++next;
          if (next == only->size() || (*only)[next] != game.game_id) continue;
        }
        games.push_back(game);
      }
    }
    for (const StreamOfGame& game : games) {
      ++*matched;
      const bool read = MatchGame(query, game.stream, reader, &match);
      *boards += reader.boards_read();
      if (!read) {
        return Status::Database("game " + std::to_string(game.game_id) +
                                ": its board stream is damaged");
      }
      if (match.action < 0) continue;
      PositionMatch found;
      found.game_id = game.game_id;
      found.action = match.action;
      for (const PatternHit& hit : match.boards) {
        if (!found.boards.empty()) found.boards += ' ';
        found.boards += BoardCoordinates(reader.labeling(), hit.timeline, hit.half_turn);
      }
      out->push_back(std::move(found));
    }
    return Status();
  }
};

// The matches of a query whose terms need the position (check): each game is replayed and its
// action becomes the first from the stream's answer on where HoldsAt says the position agrees;
// games where none does are dropped.
Result<std::vector<PositionMatch>> ConfirmByReplay(GameStore& store, const GameQuery& query,
                                                   std::vector<PositionMatch> matches) {
  size_t kept = 0;
  for (PositionMatch& match : matches) {
    Result<GameTexts> texts = store.Texts(match.game_id);
    if (!texts.ok()) return texts.error();
    const SyntaxResult syntax = ParseGameSyntax(texts.value().text);
    if (!syntax.status.ok()) continue;
    int found = -1;
    ReplayGame(syntax.game, [&](int action, const Position& pos) {
      if (found < 0 && action >= match.action && HoldsAt(query, pos)) found = action;
    });
    if (found < 0) continue;
    match.action = found;
    matches[kept++] = std::move(match);
  }
  matches.resize(kept);
  return matches;
}

}  // namespace

std::string BoardCoordinates(const TimelineLabeling& labeling, int timeline, int half_turn) {
  return labeling.Label(timeline) + ":" + std::to_string(TurnOf(half_turn)) + ":" +
         (ColorOf(half_turn) == Color::kWhite ? "w" : "b");
}

Result<std::vector<PositionMatch>> FindPatterns(GameStore& store,
                                                std::span<const BoardPattern> patterns,
                                                PatternSearchStats* stats, int jobs) {
  GameQuery query;
  query.boards.assign(patterns.begin(), patterns.end());
  return FindPatterns(store, query, stats, jobs);
}

Result<std::vector<PositionMatch>> FindPatterns(GameStore& store, const GameQuery& query,
                                                PatternSearchStats* stats, int jobs,
                                                const std::vector<int64_t>* within) {
  PatternSearchStats local;
  PatternSearchStats& counted = stats ? *stats : local;
  counted = PatternSearchStats{};
  const ReadSnapshot snapshot(store.db());
  Result<PatternIndexReader> created = PatternIndexReader::Create(store.db());
  if (!created.ok()) return created.error();
  PatternIndexReader& reader = created.value();

  // Candidates: those given, or the games holding the rarest named pieces, intersected.
  std::vector<int64_t> candidates;
  if (within) {
    candidates = *within;
    counted.narrowed = true;
  } else {
    Result<std::vector<Narrowing>> squares = NarrowingSquares(reader, query.boards);
    if (!squares.ok()) return squares.error();
    size_t read = 0;
    for (const Narrowing& square : squares.value()) {
      if (counted.narrowed &&
          (candidates.size() <= kFewCandidates || read == kMaxNarrowingSquares)) {
        break;
      }
      Result<std::vector<int64_t>> games = reader.GamesWithAny(square.features);
      if (!games.ok()) return games.error();
      candidates = counted.narrowed ? Intersect(candidates, games.value()) : games.value();
      counted.narrowed = true;
      ++read;
      if (candidates.empty()) break;
    }
  }
  std::vector<PositionMatch> matches;
  if (counted.narrowed && candidates.empty()) return matches;
  const std::vector<int64_t>* only = counted.narrowed ? &candidates : nullptr;

  // Many candidates are cheaper to find by reading every block in order than by a search each:
  // past about one a block in four (a block holds about six games). The last game id stands for
  // the games (counting the blocks would read the whole table).
  Result<int64_t> games = QueryInt(store.db(), "SELECT coalesce(max(id), 0) FROM games");
  if (!games.ok()) return games.error();
  const bool in_order = only == nullptr || static_cast<int64_t>(only->size()) > games.value() / 24;

  const int threads =
      std::max(1, jobs > 0 ? jobs : static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<Matcher> matchers(static_cast<size_t>(threads));
  // Two batches: while the workers match one, this thread reads the blocks of the next.
  struct Batch {
    std::vector<Block> blocks;  // buffers kept from batch to batch
    size_t size = 0;            // the blocks in use
    std::vector<std::vector<PositionMatch>> found;
  };
  Batch batches[2];
  int filling = 0;
  int running = -1;  // the batch being matched, -1 for none (guarded by mutex while matched)
  std::vector<int64_t> matched(static_cast<size_t>(threads)), boards(static_cast<size_t>(threads));
  std::vector<Status> errors(static_cast<size_t>(threads));
  Status failed;
  // The workers live for the whole search (a thread made per batch cost a tenth of a scan's
  // time): each round, they take the running batch's blocks in turn until none is left.
  std::mutex mutex;
  std::condition_variable wake, done;
  uint64_t round = 0;  // raised to start a round
  int busy = 0;        // workers still matching the round's batch
  bool stop = false;
  std::atomic<size_t> next{0};
  auto work = [&](size_t t) {
    for (uint64_t seen = 0;;) {
      int b;
      {
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] { return stop || round != seen; });
        if (stop) return;
        seen = round;
        b = running;
      }
      Batch& mine = batches[b];
      for (size_t i = next++; i < mine.size && errors[t].ok(); i = next++) {
        errors[t] = matchers[t].MatchBlock(query, mine.blocks[i], only, &mine.found[i], &matched[t],
                                           &boards[t]);
      }
      std::lock_guard lock(mutex);
      if (--busy == 0) done.notify_one();
    }
  };
  std::vector<std::thread> workers;
  for (size_t t = 0; t < static_cast<size_t>(threads); ++t) workers.emplace_back(work, t);
  // Stops and joins the workers however the search ends.
  struct Stopper {
    std::function<void()> stop;
    ~Stopper() { stop(); }
  } stopper{[&] {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    wake.notify_all();
    for (std::thread& worker : workers) worker.join();
  }};
  auto launch = [&](int b) {
    Batch& batch = batches[b];
    batch.found.assign(batch.size, {});
    next = 0;
    {
      std::lock_guard lock(mutex);
      running = b;
      busy = threads;
      ++round;
    }
    wake.notify_all();
  };
  // Waits for the running batch and takes its matches, in block order.
  auto finish = [&] {
    if (running < 0) return failed.ok();
    {
      std::unique_lock lock(mutex);
      done.wait(lock, [&] { return busy == 0; });
    }
    for (const Status& error : errors) {
      if (!error.ok() && failed.ok()) failed = error;
    }
    Batch& batch = batches[running];
    for (std::vector<PositionMatch>& part : batch.found) {
      for (PositionMatch& match : part) matches.push_back(std::move(match));
    }
    batch.size = 0;
    running = -1;
    return failed.ok();
  };
  StreamBlockDecoder sparse_decoder;  // this thread's, for the candidates of sparse blocks
  auto take = [&](int64_t first, int64_t last, std::span<const uint8_t> data) {
    std::vector<int64_t>::const_iterator candidate;
    if (only) candidate = std::lower_bound(only->begin(), only->end(), first);
    // A block without a candidate is not even copied.
    if (only && (candidate == only->end() || *candidate > last)) return true;
    Batch& batch = batches[filling];
    if (batch.size == batch.blocks.size()) batch.blocks.emplace_back();
    Block& block = batch.blocks[batch.size++];
    block.first = first;
    block.last = last;
    // Sparse when looked up by candidate (few games of each block wanted); a scan in order, which
    // wants many, copies whole blocks and leaves their decoding to the workers.
    block.sparse = only != nullptr && !in_order;
    if (!block.sparse) {
      block.data.assign(data.begin(), data.end());
    } else {
      block.data.clear();
      block.games.clear();
      if (Status error = sparse_decoder.Decode(first, last, data); !error.ok()) {
        failed = error;
        return false;
      }
      for (const StreamOfGame& game : sparse_decoder.games()) {
        while (candidate != only->end() && *candidate < game.game_id) ++candidate;
        if (candidate == only->end() || *candidate != game.game_id) continue;
        block.data.insert(block.data.end(), game.stream.begin(), game.stream.end());
        block.games.emplace_back(game.game_id, block.data.size());
      }
    }
    if (batch.size < kBatchBlocks) return true;
    if (!finish()) return false;
    launch(filling);
    filling ^= 1;
    return true;
  };
  Status read_error = reader.ForEachBlock(take, in_order ? nullptr : only);
  finish();
  if (read_error.ok() && failed.ok() && batches[filling].size > 0) {
    launch(filling);
    finish();
  }
  for (size_t t = 0; t < matched.size(); ++t) {
    counted.candidates += matched[t];
    counted.boards += boards[t];
  }
  if (!read_error.ok()) return read_error;
  if (!failed.ok()) return failed;
  if (query.needs_position()) return ConfirmByReplay(store, query, std::move(matches));
  return matches;
}

}  // namespace fived
