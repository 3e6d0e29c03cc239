// The pattern index's tables; see pattern_index.h for the formats.
#include "schema/pattern_index.h"

#include <algorithm>
#include <unordered_map>

#include "core/varint.h"

namespace fived {

namespace {

constexpr const char* kInsertBlock =
    "INSERT INTO board_streams(first_game, last_game, data) VALUES(?1, ?2, ?3)";
constexpr const char* kNextChunk = "SELECT coalesce(max(chunk) + 1, 0) FROM piece_postings";
constexpr const char* kInsertChunk =
    "INSERT INTO piece_postings(chunk, feature, data) VALUES(?1, ?2, ?3)";
}  // namespace

// One primary-key search per chunk number, as schema/postings.h reads buckets.
const char* const PatternIndexSql::kFeatureChunks =
    "WITH RECURSIVE numbers(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM numbers "
    "WHERE n < (SELECT max(chunk) FROM piece_postings)) "
    "SELECT data FROM numbers JOIN piece_postings ON chunk = n AND feature = ?1";
namespace {

constexpr const char* kCountFeature =
    "INSERT INTO piece_counts(feature, games) VALUES(?1, ?2) "
    "ON CONFLICT(feature) DO UPDATE SET games = games + excluded.games";
constexpr const char* kFeatureCount = "SELECT games FROM piece_counts WHERE feature = ?1";
constexpr const char* kAllBlocks =
    "SELECT first_game, last_game, data FROM board_streams ORDER BY first_game";

}  // namespace
const char* const PatternIndexSql::kBlockOf =
    "SELECT first_game, last_game, data FROM board_streams WHERE first_game <= ?1 "
    "ORDER BY first_game DESC LIMIT 1";

std::string EncodeFeatureChunk(std::span<const int64_t> sorted_ids) {
  std::string list;
  list.push_back(0);
  PutVarint(sorted_ids.size(), &list);
  int64_t previous = 0;
  for (int64_t id : sorted_ids) {
    PutVarint(static_cast<uint64_t>(id - previous), &list);
    previous = id;
  }
  if (sorted_ids.empty()) return list;
  const int64_t first = sorted_ids.front();
  const uint64_t span = static_cast<uint64_t>(sorted_ids.back() - first) + 1;
  if (span / 8 + 12 >= list.size()) return list;
  std::string bitmap;
  bitmap.push_back(1);
  PutVarint(static_cast<uint64_t>(first), &bitmap);
  PutVarint(span, &bitmap);
  const size_t at = bitmap.size();
  bitmap.resize(at + (span + 7) / 8, '\0');
  for (int64_t id : sorted_ids) {
    const uint64_t i = static_cast<uint64_t>(id - first);
    bitmap[at + i / 8] =
        static_cast<char>(static_cast<uint8_t>(bitmap[at + i / 8]) | 1u << (i % 8));
  }
  return bitmap;
}

bool DecodeFeatureChunk(std::span<const uint8_t> data, std::vector<int64_t>* out) {
  if (data.empty()) return false;
  const size_t before = out->size();
  size_t pos = 1;
  auto fail = [&] {
    out->resize(before);
    return false;
  };
  if (data[0] == 0) {
    uint64_t count = 0;
    if (!GetVarint(data, &pos, &count) || count > data.size()) return fail();
    int64_t id = 0;
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t delta = 0;
      if (!GetVarint(data, &pos, &delta) || delta > (uint64_t{1} << 62)) return fail();
      id += static_cast<int64_t>(delta);
      out->push_back(id);
    }
    return pos == data.size() ? true : fail();
  }
  if (data[0] != 1) return fail();
  uint64_t first = 0, span = 0;
  if (!GetVarint(data, &pos, &first) || !GetVarint(data, &pos, &span) ||
      first > (uint64_t{1} << 62) || data.size() - pos != (span + 7) / 8) {
    return fail();
  }
  for (uint64_t i = 0; i < span; ++i) {
    if (data[pos + i / 8] >> (i % 8) & 1) out->push_back(static_cast<int64_t>(first + i));
  }
  return true;
}

std::string EncodeStreamBlock(std::span<const StreamOfGame> games, int64_t first_game) {
  std::string out;
  PutVarint(games.size(), &out);
  int64_t previous = first_game;
  for (const StreamOfGame& game : games) {
    PutVarint(static_cast<uint64_t>(game.game_id - previous), &out);
    PutVarint(game.stream.size(), &out);
    previous = game.game_id;
  }
  for (const StreamOfGame& game : games) out.append(game.stream);
  return out;
}

bool DecodeStreamBlock(std::string_view raw, int64_t first_game, std::vector<StreamOfGame>* out) {
  const std::span<const char> data(raw.data(), raw.size());
  size_t pos = 0;
  uint64_t count = 0;
  if (!GetVarint(data, &pos, &count) || count > raw.size()) return false;
  const size_t before = out->size();
  auto fail = [&] {
    out->resize(before);
    return false;
  };
  // The directory first (each stream's length kept in its view until the streams' start is
  // known), then the views.
  int64_t id = first_game;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t delta = 0, length = 0;
    if (!GetVarint(data, &pos, &delta) || !GetVarint(data, &pos, &length) ||
        delta > (uint64_t{1} << 40) || length > raw.size()) {
      return fail();
    }
    id += static_cast<int64_t>(delta);
    out->push_back(StreamOfGame{id, std::string_view(nullptr, 0)});
    out->back().stream = std::string_view(raw.data(), length);
  }
  for (size_t i = before; i < out->size(); ++i) {
    const size_t length = (*out)[i].stream.size();
    if (raw.size() - pos < length) return fail();
    (*out)[i].stream = raw.substr(pos, length);
    pos += length;
  }
  return pos == raw.size() ? true : fail();
}

struct PatternIndexWriter::Impl {
  Statement insert_block, next_chunk, insert_chunk, count_feature;
  // The games added since the last Write: their streams, one after another.
  std::vector<int64_t> ids;
  std::vector<size_t> ends;
  std::string streams;
  // Feature -> games, in order. Hashed: a game adds a hundred or more features, and an ordered
  // map's searches made the single writer thread a bottleneck; Write sorts the few thousand keys.
  std::unordered_map<uint32_t, std::vector<int64_t>> features;
  size_t feature_entries = 0;
  std::vector<uint32_t> scratch;

  size_t Start(size_t i) const { return i == 0 ? 0 : ends[i - 1]; }

  Status Insert(size_t begin, size_t end) {
    std::vector<StreamOfGame> games;
    for (size_t i = begin; i < end; ++i) {
      games.push_back({ids[i], std::string_view(streams).substr(Start(i), ends[i] - Start(i))});
    }
    const std::string block = std::string(1, '\0') + EncodeStreamBlock(games, ids[begin]);
    insert_block.Reset().BindAll(ids[begin], ids[end - 1]);
    insert_block.Bind(
        3, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(block.data()), block.size()));
    return insert_block.Run();
  }

  // Writes the games in blocks of at most kStreamBlockBytes (a game larger than that alone has a
  // block of its own). The directory takes about 3 bytes a game.
  Status WriteBlocks() {
    size_t begin = 0;
    while (begin < ids.size()) {
      size_t end = begin + 1;
      while (end < ids.size() && end - begin < static_cast<size_t>(kStreamBlockGames) &&
             ends[end] - Start(begin) + 3 * (end + 1 - begin) + 4 <= kStreamBlockBytes) {
        ++end;
      }
      if (Status error = Insert(begin, end); !error.ok()) return error;
      begin = end;
    }
    return Status();
  }
};

Result<PatternIndexWriter> PatternIndexWriter::Create(Database& db) {
  auto impl = std::make_unique<Impl>();
  for (auto [statement, sql] :
       {std::pair{&impl->insert_block, kInsertBlock}, std::pair{&impl->next_chunk, kNextChunk},
        std::pair{&impl->insert_chunk, kInsertChunk},
        std::pair{&impl->count_feature, kCountFeature}}) {
    Result<Statement> prepared = db.Prepare(sql);
    if (!prepared.ok()) return prepared.error();
    *statement = std::move(prepared).value();
  }
  return PatternIndexWriter(std::move(impl));
}

PatternIndexWriter::PatternIndexWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PatternIndexWriter::PatternIndexWriter(PatternIndexWriter&&) noexcept = default;
PatternIndexWriter& PatternIndexWriter::operator=(PatternIndexWriter&&) noexcept = default;
PatternIndexWriter::~PatternIndexWriter() = default;

void PatternIndexWriter::Add(int64_t game_id, std::string_view stream,
                             std::span<const uint32_t> features) {
  Impl& s = *impl_;
  s.ids.push_back(game_id);
  s.streams.append(stream);
  s.ends.push_back(s.streams.size());
  // The indexer's features come sorted and distinct (analyze.h); others are made so.
  std::span<const uint32_t> distinct = features;
  if (!std::is_sorted(features.begin(), features.end()) ||
      std::adjacent_find(features.begin(), features.end()) != features.end()) {
    s.scratch.assign(features.begin(), features.end());
    std::sort(s.scratch.begin(), s.scratch.end());
    s.scratch.erase(std::unique(s.scratch.begin(), s.scratch.end()), s.scratch.end());
    distinct = s.scratch;
  }
  for (uint32_t feature : distinct) s.features[feature].push_back(game_id);
  s.feature_entries += distinct.size();
}

size_t PatternIndexWriter::pending_bytes() const {
  return impl_->streams.size() + 2 * impl_->feature_entries;
}

Status PatternIndexWriter::Write() {
  Impl& s = *impl_;
  if (Status error = s.WriteBlocks(); !error.ok()) return error;
  if (s.feature_entries > 0) {
    s.next_chunk.Reset();
    Result<StepResult> step = s.next_chunk.Step();
    if (!step.ok()) return step.error();
    const int64_t chunk = s.next_chunk.Int64(0);
    s.next_chunk.Reset();
    // In feature order, so that the chunk's rows are appended in the primary key's order.
    std::vector<uint32_t> keys;
    keys.reserve(s.features.size());
    for (const auto& entry : s.features) {
      if (!entry.second.empty()) keys.push_back(entry.first);
    }
    std::sort(keys.begin(), keys.end());
    for (uint32_t feature : keys) {
      const std::vector<int64_t>& games = s.features[feature];
      const std::string data = EncodeFeatureChunk(games);
      s.insert_chunk.Reset().BindAll(chunk, static_cast<int64_t>(feature));
      s.insert_chunk.Bind(
          3, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(data.data()), data.size()));
      if (Status error = s.insert_chunk.Run(); !error.ok()) return error;
      s.count_feature.Reset().BindAll(static_cast<int64_t>(feature),
                                      static_cast<int64_t>(games.size()));
      if (Status error = s.count_feature.Run(); !error.ok()) return error;
    }
  }
  s.ids.clear();
  s.ends.clear();
  s.streams.clear();
  // The lists keep their memory for the next transaction, which has most of the same features.
  for (auto& entry : s.features) entry.second.clear();
  s.feature_entries = 0;
  return Status();
}

StreamBlockDecoder::StreamBlockDecoder() = default;
StreamBlockDecoder::~StreamBlockDecoder() = default;

Status StreamBlockDecoder::Decode(int64_t first, int64_t last, std::span<const uint8_t> data) {
  games_.clear();
  const std::string_view raw(reinterpret_cast<const char*>(data.data()), data.size());
  if (raw.empty() || raw[0] != 0 || !DecodeStreamBlock(raw.substr(1), first, &games_) ||
      games_.empty() || games_.back().game_id != last) {
    games_.clear();
    return Status::Database("board streams of games " + std::to_string(first) + " to " +
                            std::to_string(last) + " are damaged");
  }
  return Status();
}

struct PatternIndexReader::Impl {
  Statement feature_chunks, feature_count, all_blocks, block_of;
  StreamBlockDecoder decoder;
};

Result<PatternIndexReader> PatternIndexReader::Create(Database& db) {
  auto impl = std::make_unique<Impl>();
  for (auto [statement, sql] :
       {std::pair{&impl->feature_chunks, PatternIndexSql::kFeatureChunks},
        std::pair{&impl->feature_count, kFeatureCount}, std::pair{&impl->all_blocks, kAllBlocks},
        std::pair{&impl->block_of, PatternIndexSql::kBlockOf}}) {
    Result<Statement> prepared = db.Prepare(sql);
    if (!prepared.ok()) return prepared.error();
    *statement = std::move(prepared).value();
  }
  return PatternIndexReader(std::move(impl));
}

PatternIndexReader::PatternIndexReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PatternIndexReader::PatternIndexReader(PatternIndexReader&&) noexcept = default;
PatternIndexReader& PatternIndexReader::operator=(PatternIndexReader&&) noexcept = default;
PatternIndexReader::~PatternIndexReader() = default;

Result<std::vector<int64_t>> PatternIndexReader::GamesWithAny(std::span<const uint32_t> features) {
  std::vector<int64_t> ids;
  Statement& s = impl_->feature_chunks;
  // Each chunk is sorted, and the chunks of one write follow those of the writes before, so a
  // feature's ids mostly come sorted: sorting is needed only where a run steps back (merged
  // shards), and the features' runs are merged, not sorted again (a feature can hold most games).
  for (uint32_t feature : features) {
    const size_t start = ids.size();
    s.Reset().Bind(1, static_cast<int64_t>(feature));
    while (true) {
      Result<StepResult> step = s.Step();
      if (!step.ok()) return step.error();
      if (step.value() == StepResult::kDone) break;
      if (!DecodeFeatureChunk(s.Blob(0), &ids)) {
        s.Reset();
        return Status::Database("piece postings of feature " + std::to_string(feature) +
                                " are damaged");
      }
    }
    s.Reset();
    const auto run = ids.begin() + static_cast<ptrdiff_t>(start);
    if (!std::is_sorted(run, ids.end())) std::sort(run, ids.end());
    std::inplace_merge(ids.begin(), run, ids.end());
  }
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

Result<int64_t> PatternIndexReader::GamesWith(uint32_t feature) {
  Statement& s = impl_->feature_count;
  s.Reset().Bind(1, static_cast<int64_t>(feature));
  Result<StepResult> step = s.Step();
  if (!step.ok()) return step.error();
  const int64_t games = step.value() == StepResult::kRow ? s.Int64(0) : 0;
  s.Reset();
  return games;
}

Status PatternIndexReader::ForEachBlock(
    const std::function<bool(int64_t, int64_t, std::span<const uint8_t>)>& f,
    const std::vector<int64_t>* only) {
  Impl& s = *impl_;
  if (only == nullptr) {
    Statement& all = s.all_blocks;
    all.Reset();
    while (true) {
      Result<StepResult> step = all.Step();
      if (!step.ok()) return step.error();
      if (step.value() == StepResult::kDone) break;
      if (!f(all.Int64(0), all.Int64(1), all.Blob(2))) break;
    }
    all.Reset();
    return Status();
  }
  // The blocks of the candidates, each read once.
  size_t next = 0;
  Statement& block = s.block_of;
  while (next < only->size()) {
    const int64_t wanted = (*only)[next];
    block.Reset().Bind(1, wanted);
    Result<StepResult> step = block.Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kDone || block.Int64(1) < wanted) {
      ++next;  // not indexed
      continue;
    }
    const int64_t last = block.Int64(1);
    const bool more = f(block.Int64(0), last, block.Blob(2));
    block.Reset();
    if (!more) return Status();
    while (next < only->size() && (*only)[next] <= last) ++next;
  }
  block.Reset();
  return Status();
}

Status PatternIndexReader::ForEachStream(const std::function<bool(int64_t, std::string_view)>& f,
                                         const std::vector<int64_t>* only) {
  StreamBlockDecoder& decoder = impl_->decoder;
  Status failed;
  auto each_block = [&](int64_t first, int64_t last, std::span<const uint8_t> data) {
    failed = decoder.Decode(first, last, data);
    if (!failed.ok()) return false;
    size_t next = 0;
    if (only)
      next =
          static_cast<size_t>(std::lower_bound(only->begin(), only->end(), first) - only->begin());
    for (const StreamOfGame& game : decoder.games()) {
      if (only) {
        while (next < only->size() && (*only)[next] < game.game_id) ++next;
        if (next == only->size() || (*only)[next] != game.game_id) continue;
      }
      if (!f(game.game_id, game.stream)) return false;
    }
    return true;
  };
  if (Status error = ForEachBlock(each_block, only); !error.ok()) return error;
  return failed;
}

}  // namespace fived
