// Posting lists: the chunk format (pinned bytes), round trips, and lookups across chunks written
// by several transactions.
#include "schema/postings.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <random>

namespace fived {
namespace {

namespace fs = std::filesystem;

TEST(Postings, ChunkBytesAreAsDocumented) {
  // Key 0x1234000000000102: bucket 0x48d (top 14 bits), low 50 bits 0x0000000000102 in 7 bytes
  // little endian; base game 5, then game - base and value.
  const std::vector<Posting> postings = {{0x1234000000000102ull, 5, 3},
                                         {0x1234000000000102ull, 7, 300}};
  EXPECT_EQ(PostingBucket(postings[0].key), 0x48du);
  const std::string data = EncodeChunk(postings, PostingTable::kStates);
  const std::string expected = std::string("\x05", 1) +                          // base 5
                               std::string("\x02\x01\x00\x00\x00\x00\x00", 7) +  // key
                               std::string("\x00\x03", 2) +  // game 5-5, value 3
                               std::string("\x02\x01\x00\x00\x00\x00\x00", 7) +
                               std::string("\x02\xac\x02", 3);  // game 7-5, value 300
  EXPECT_EQ(data, expected);
  std::vector<Posting> decoded;
  ASSERT_TRUE(DecodeChunk(
      0x48d, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(data.data()), data.size()),
      &decoded, PostingTable::kStates));
  EXPECT_EQ(decoded, postings);
}

TEST(Postings, MalformedChunksAreRefused) {
  std::vector<Posting> out;
  const uint8_t truncated[] = {0x05, 0x02, 0x01, 0x00};  // a key cut short
  EXPECT_FALSE(DecodeChunk(1, truncated, &out, PostingTable::kStates));
  const uint8_t bad_varint[] = {0x05, 0, 0, 0, 0, 0, 0, 0, 0x80};  // 7 key bytes, then a cut varint
  EXPECT_FALSE(DecodeChunk(1, bad_varint, &out, PostingTable::kStates));
  EXPECT_TRUE(out.empty());
}

TEST(Postings, WriteAndFindAcrossTransactions) {
  const fs::path dir = fs::temp_directory_path() / ("fived-postings-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  Result<Database> opened = OpenDatabase((dir / "p.sqlite").string(), OpenMode::kReadWrite);
  ASSERT_TRUE(opened.ok()) << opened.error().message();
  Database& db = opened.value();

  std::mt19937_64 rng(42);
  std::multimap<uint64_t, std::pair<int64_t, uint32_t>> expected;
  std::vector<uint64_t> keys;
  for (int i = 0; i < 200; ++i) keys.push_back(rng());
  keys.push_back(0);
  keys.push_back(~uint64_t{0});
  // Keys written in one transaction only: their buckets have a chunk under one chunk number.
  std::vector<uint64_t> single(3);
  for (uint64_t& key : single) {
    key = rng();
    keys.push_back(key);
  }
  size_t written = 0;
  for (int round = 0; round < 4; ++round) {
    Result<Transaction> transaction = Transaction::Begin(db);
    ASSERT_TRUE(transaction.ok());
    Result<PostingWriter> writer = PostingWriter::Create(db, PostingTable::kStates);
    ASSERT_TRUE(writer.ok()) << writer.error().message();
    std::vector<Posting> postings;
    // Round 2 writes nothing, which must not use a chunk number.
    const int count = round == 2 ? 0 : 1000;
    for (int i = 0; i < count; ++i) {
      const uint64_t key = i == 0 ? single[round == 3 ? 2 : round] : keys[rng() % 202];
      const int64_t game = 1 + round * 1000 + i;
      const uint32_t value = static_cast<uint32_t>(rng() % 5000);
      postings.push_back({key, game, value});
      expected.emplace(key, std::make_pair(game, value));
    }
    written += postings.size();
    ASSERT_TRUE(writer.value().Write(&postings).ok());
    ASSERT_TRUE(transaction.value().Commit().ok());
  }
  // One chunk number per transaction that wrote postings, and one row per bucket and chunk.
  Result<Statement> chunks = db.Prepare(
      "SELECT group_concat(chunk) FROM (SELECT chunk, count(*) AS rows, "
      "count(DISTINCT bucket) AS buckets FROM state_postings GROUP BY chunk "
      "HAVING rows = buckets ORDER BY chunk)");
  ASSERT_TRUE(chunks.ok());
  ASSERT_TRUE(chunks.value().Step().ok());
  EXPECT_EQ(chunks.value().Text(0), "0,1,2");
  // The single keys' buckets (no other key of the test falls in them) hold one row, under the
  // number of the transaction that wrote it, not 0 as a count per bucket would give.
  Result<Statement> chunk_of =
      db.Prepare("SELECT group_concat(chunk) FROM state_postings WHERE bucket = ?1");
  ASSERT_TRUE(chunk_of.ok());
  for (int i = 0; i < 3; ++i) {
    chunk_of.value().Reset().Bind(1, static_cast<int64_t>(PostingBucket(single[i])));
    ASSERT_TRUE(chunk_of.value().Step().ok());
    EXPECT_EQ(chunk_of.value().Text(0), std::to_string(i));
  }
  Result<PostingReader> reader = PostingReader::Create(db, PostingTable::kStates);
  ASSERT_TRUE(reader.ok());
  size_t total = 0;
  for (uint64_t key : keys) {
    Result<std::vector<Posting>> found = reader.value().Find(key);
    ASSERT_TRUE(found.ok());
    std::vector<std::pair<int64_t, uint32_t>> want;
    for (auto [it, end] = expected.equal_range(key); it != end; ++it) want.push_back(it->second);
    std::sort(want.begin(), want.end());
    std::vector<std::pair<int64_t, uint32_t>> got;
    for (const Posting& p : found.value()) {
      EXPECT_EQ(p.key, key);
      got.emplace_back(p.game_id, p.value);
    }
    EXPECT_EQ(got, want) << key;
    total += got.size();
  }
  EXPECT_EQ(total, written);
  EXPECT_EQ(written, 3000u);
  for (uint64_t key : single) EXPECT_EQ(reader.value().Find(key).value().size(), 1u);
  size_t scanned = 0;
  ASSERT_TRUE(reader.value().ForEach([&](const Posting&) { return ++scanned, true; }).ok());
  EXPECT_EQ(scanned, 3000u);
  // The other table is empty.
  Result<PostingReader> md5s = PostingReader::Create(db, PostingTable::kStateMd5s);
  ASSERT_TRUE(md5s.ok());
  EXPECT_TRUE(md5s.value().Find(keys[0]).value().empty());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fived
