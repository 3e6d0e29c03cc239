// Compressed game records: round trips with and without a dictionary, texts with NUL bytes, and
// refusal of data that is not a record of this dictionary.
#include "schema/record.h"

#include <gtest/gtest.h>

namespace fived {
namespace {

std::span<const uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::vector<std::string> Samples() {
  std::vector<std::string> samples;
  for (int i = 0; i < 400; ++i) {
    std::string game = "[Event \"Game " + std::to_string(i) + "\"]\n[White \"P" +
                       std::to_string(i % 17) + "\"]\n[Black \"Q" + std::to_string(i % 13) +
                       "\"]\n[Board \"Standard\"]\n\n";
    for (int t = 1; t <= 10 + i % 7; ++t) {
      game += std::to_string(t) + ". (0T" + std::to_string(t) + ")Nf3 / (0T" + std::to_string(t) +
              ")Nf6\n";
    }
    samples.push_back(game + game.substr(game.find("\n\n") + 2));
  }
  return samples;
}

TEST(Record, RoundTripsWithoutDictionary) {
  RecordCodec codec;
  const std::string text = std::string("[Event \"x\"]\n\n1. e4\0 / e5\n", 24);
  const std::string data = codec.Compress(text, "1. (0T1)e4 / (0T1)e5\n");
  std::string back_text, back_moves;
  ASSERT_TRUE(codec.Decompress(Bytes(data), &back_text, &back_moves));
  EXPECT_EQ(back_text, text);  // a NUL byte in the text survives
  EXPECT_EQ(back_moves, "1. (0T1)e4 / (0T1)e5\n");
  const std::string empty = codec.Compress("", "");
  ASSERT_TRUE(codec.Decompress(Bytes(empty), &back_text, &back_moves));
  EXPECT_EQ(back_text, "");
  EXPECT_EQ(back_moves, "");
}

TEST(Record, DictionaryShrinksRecordsAndIsRequired) {
  const std::vector<std::string> samples = Samples();
  const std::string dictionary = TrainRecordDictionary(samples, 16384);
  ASSERT_FALSE(dictionary.empty());
  RecordCodec with(dictionary), without;
  size_t plain = 0, trained = 0;
  const std::string text = samples[7].substr(0, samples[7].size() / 2);
  const std::string moves = samples[7].substr(samples[7].size() / 2);
  const std::string data = with.Compress(text, moves);
  plain += without.Compress(text, moves).size();
  trained += data.size();
  EXPECT_LT(trained, plain);
  std::string back_text, back_moves;
  ASSERT_TRUE(with.Decompress(Bytes(data), &back_text, &back_moves));
  EXPECT_EQ(back_text, text);
  EXPECT_EQ(back_moves, moves);
  // Without the dictionary the record cannot be read.
  EXPECT_FALSE(without.Decompress(Bytes(data), &back_text, &back_moves));
  EXPECT_FALSE(with.Decompress(Bytes(std::string("not zstd at all")), &back_text, &back_moves));
}

TEST(Record, TooFewSamplesGiveNoDictionary) {
  EXPECT_EQ(TrainRecordDictionary({"a", "b"}, 16384), "");
}

}  // namespace
}  // namespace fived
