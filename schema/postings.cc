// Posting lists of keys in chunks; see postings.h for the format.
#include "schema/postings.h"

#include <algorithm>

#include "core/varint.h"

namespace fived {

namespace {

constexpr uint64_t kLowMask = (uint64_t{1} << (64 - kPostingBucketBits)) - 1;

const char* TableName(PostingTable table) {
  switch (table) {
    case PostingTable::kStates:
      return "state_postings";
    case PostingTable::kStateMd5s:
      return "md5_postings";
    case PostingTable::kBoardKeys:
      return "board_keys";
  }
  return "state_postings";
}

inline bool Less(const Posting& a, const Posting& b) {
  if (a.key != b.key) return a.key < b.key;
  if (a.game_id != b.game_id) return a.game_id < b.game_id;
  return a.value < b.value;
}

}  // namespace

const char* PostingTableName(PostingTable table) { return TableName(table); }

int PostingKeyBytes(PostingTable table) { return table == PostingTable::kBoardKeys ? 1 : 7; }

namespace {
// Whether a table's postings carry a value (board_keys' would always be 0).
bool HasValue(PostingTable table) { return table != PostingTable::kBoardKeys; }
}  // namespace

namespace {
// Low bits of the key (below the bucket) that a table does not store.
int DroppedBits(PostingTable table) {
  return std::max(0, (64 - kPostingBucketBits) - 8 * PostingKeyBytes(table));
}
}  // namespace

uint64_t PostingKeyMask(PostingTable table) { return ~((uint64_t{1} << DroppedBits(table)) - 1); }

std::string EncodeChunk(std::span<const Posting> sorted, PostingTable table) {
  std::string out;
  if (sorted.empty()) return out;
  int64_t base = sorted.front().game_id;
  for (const Posting& p : sorted) base = std::min(base, p.game_id);
  out.reserve(sorted.size() * 10 + 4);
  PutVarint(static_cast<uint64_t>(base), &out);
  const int bytes = PostingKeyBytes(table);
  const int dropped = DroppedBits(table);
  for (const Posting& p : sorted) {
    const uint64_t low = (p.key & kLowMask) >> dropped;
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(low >> (8 * i)));
    PutVarint(static_cast<uint64_t>(p.game_id - base), &out);
    if (HasValue(table)) PutVarint(p.value, &out);
  }
  return out;
}

bool DecodeChunk(uint32_t bucket, std::span<const uint8_t> data, std::vector<Posting>* out,
                 PostingTable table) {
  const int bytes = PostingKeyBytes(table);
  const int dropped = DroppedBits(table);
  const size_t start = out->size();
  size_t pos = 0;
  uint64_t base = 0;
  if (!GetVarint(data, &pos, &base)) return data.empty();
  bool ok = true;
  while (pos < data.size()) {
    if (data.size() - pos < static_cast<size_t>(bytes)) {
      ok = false;
      break;
    }
    uint64_t low = 0;
    for (int i = 0; i < bytes; ++i) low |= static_cast<uint64_t>(data[pos + i]) << (8 * i);
    low <<= dropped;
    pos += bytes;
    uint64_t game = 0, value = 0;
    if (!GetVarint(data, &pos, &game) || (HasValue(table) && !GetVarint(data, &pos, &value))) {
      ok = false;
      break;
    }
    Posting p;
    p.key = (static_cast<uint64_t>(bucket) << (64 - kPostingBucketBits)) | low;
    p.game_id = static_cast<int64_t>(base + game);
    p.value = static_cast<uint32_t>(value);
    out->push_back(p);
  }
  if (!ok) {
    out->resize(start);
    return false;
  }
  return true;
}

Result<PostingWriter> PostingWriter::Create(Database& db, PostingTable table) {
  const std::string name = TableName(table);
  Result<Statement> next_chunk = db.Prepare("SELECT coalesce(max(chunk), -1) + 1 FROM " + name);
  if (!next_chunk.ok()) return next_chunk.error();
  Result<Statement> insert =
      db.Prepare("INSERT INTO " + name + "(chunk, bucket, data) VALUES(?1, ?2, ?3)");
  if (!insert.ok()) return insert.error();
  return PostingWriter(std::move(next_chunk).value(), std::move(insert).value(), table);
}

Status PostingWriter::Write(std::vector<Posting>* postings) {
  if (postings->empty()) return Status();
  Result<StepResult> step = next_chunk_.Reset().Step();
  if (!step.ok()) return step.error();
  const int64_t chunk_number = next_chunk_.Int64(0);
  next_chunk_.Reset();
  const uint64_t mask = PostingKeyMask(table_);
  // Distributed into buckets first (counting sort), then each bucket, a few dozen postings,
  // sorted: much cheaper than one comparison sort of a million postings.
  constexpr size_t kBuckets = size_t{1} << kPostingBucketBits;
  std::vector<uint32_t> starts(kBuckets + 1, 0);
  for (Posting& p : *postings) {
    p.key &= mask;
    ++starts[PostingBucket(p.key) + 1];
  }
  for (size_t b = 0; b < kBuckets; ++b) starts[b + 1] += starts[b];
  std::vector<Posting>& sorted = scratch_;
  sorted.resize(postings->size());
  std::vector<uint32_t> next(starts.begin(), starts.end() - 1);
  for (const Posting& p : *postings) sorted[next[PostingBucket(p.key)]++] = p;
  for (size_t b = 0; b < kBuckets; ++b) {
    if (starts[b] == starts[b + 1]) continue;
    const std::span<Posting> chunk(sorted.data() + starts[b], starts[b + 1] - starts[b]);
    std::sort(chunk.begin(), chunk.end(), Less);
    const std::string data = EncodeChunk(chunk, table_);
    insert_.Reset().BindAll(
        chunk_number, static_cast<int64_t>(b),
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(data.data()), data.size()));
    if (Status error = insert_.Run(); !error.ok()) return error;
  }
  return Status();
}

std::string PostingBucketSql(PostingTable table) {
  const std::string name = TableName(table);
  return "WITH RECURSIVE numbers(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM numbers WHERE n < "
         "(SELECT max(chunk) FROM " +
         name + ")) SELECT data FROM numbers JOIN " + name + " ON chunk = n AND bucket = ?1";
}

Result<PostingReader> PostingReader::Create(Database& db, PostingTable table) {
  const std::string name = TableName(table);
  Result<Statement> bucket = db.Prepare(PostingBucketSql(table));
  if (!bucket.ok()) return bucket.error();
  Result<Statement> all = db.Prepare("SELECT bucket, data FROM " + name);
  if (!all.ok()) return all.error();
  return PostingReader(std::move(bucket).value(), std::move(all).value(), table);
}

Result<std::vector<Posting>> PostingReader::Find(uint64_t key) {
  key &= PostingKeyMask(table_);
  const uint32_t bucket = PostingBucket(key);
  std::vector<Posting> chunk, found;
  bucket_.Reset().Bind(1, static_cast<int64_t>(bucket));
  while (true) {
    Result<StepResult> step = bucket_.Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kDone) break;
    chunk.clear();
    if (!DecodeChunk(bucket, bucket_.Blob(0), &chunk, table_)) {
      bucket_.Reset();
      return Status::Database("malformed posting chunk in bucket " + std::to_string(bucket));
    }
    for (const Posting& p : chunk) {
      if (p.key == key) found.push_back(p);
    }
  }
  bucket_.Reset();
  std::sort(found.begin(), found.end(), Less);
  return found;
}

Status PostingReader::ForEach(const std::function<bool(const Posting&)>& f) {
  std::vector<Posting> chunk;
  all_.Reset();
  while (true) {
    Result<StepResult> step = all_.Step();
    if (!step.ok()) return step.error();
    if (step.value() == StepResult::kDone) break;
    chunk.clear();
    const uint32_t bucket = static_cast<uint32_t>(all_.Int64(0));
    if (!DecodeChunk(bucket, all_.Blob(1), &chunk, table_)) {
      all_.Reset();
      return Status::Database("malformed posting chunk in bucket " + std::to_string(bucket));
    }
    for (const Posting& p : chunk) {
      if (!f(p)) {
        all_.Reset();
        return Status();
      }
    }
  }
  all_.Reset();
  return Status();
}

}  // namespace fived
