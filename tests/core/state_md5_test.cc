// The incremental state MD5 (core/state_md5.h) against the full-state MD5 (Position::StateMd5)
// at every state of every game: the sample collections, random games with many timelines (new
// timelines on both sides, actions on low timelines under others), and, when ../shared is there,
// the 1,494 oracle games and the public corpus.
#include "core/state_md5.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "tests/core/test_util.h"
#include "tests/support/random_game.h"

namespace fived {
namespace {

// Replays every game of `text` and compares both MD5s at every state; returns the states compared.
long CompareStates(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  GameSplitter splitter(in);
  StateMd5Stream stream;
  long compared = 0;
  while (std::optional<RawGame> raw = splitter.Next()) {
    SyntaxResult syntax = ParseGameSyntax(raw->text, raw->first_line);
    if (!syntax.status.ok()) continue;
    stream.Reset();
    bool same = true;
    ReplayGame(syntax.game, [&](int action, const Position& position) {
      const std::string incremental = Md5DigestHex(stream.Next(position));
      if (same && incremental != position.StateMd5()) {
        ADD_FAILURE() << name << " game " << raw->index << " action " << action;
        same = false;
      }
      ++compared;
    });
  }
  return compared;
}

std::string ReadAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(StateMd5Test, DigestHelpers) {
  Md5Digest digest{};
  for (int i = 0; i < 16; ++i) digest[i] = static_cast<uint8_t>(i * 17);
  EXPECT_EQ(Md5DigestHex(digest), "00112233445566778899aabbccddeeff");
  EXPECT_EQ(Md5DigestKey(digest), 0x0011223344556677ull);
}

TEST(StateMd5Test, SampleCollectionsAgreeAtEveryState) {
  const std::filesystem::path corpus = std::filesystem::path(FIVED_SOURCE_DIR) / "corpus";
  long compared = 0;
  for (const char* file : {"adri326-5dchess-notation.5dpgn", "club-games.5dpgn"}) {
    compared += CompareStates(ReadAll(corpus / file), file);
  }
  EXPECT_GT(compared, 100);
}

TEST(StateMd5Test, RandomGamesWithManyTimelinesAgreeAtEveryState) {
  CollectionOptions options;
  options.min_actions = 20;
  options.max_actions = 60;
  options.jump_bias = 0.8;
  options.max_timelines = 12;
  std::string error;
  const std::string text = GenerateCollection(30, options, &error);
  ASSERT_EQ(error, "");
  EXPECT_GT(CompareStates(text, "random"), 500);
}

TEST(StateMd5Test, OracleAndPublicCorpusAgreeAtEveryState) {
  const std::string shared = testing::SharedDir();
  if (shared.empty()) GTEST_SKIP() << "../shared is absent";
  long compared =
      CompareStates(ReadAll(std::filesystem::path(shared) / "oracle/public/all.5dpgn"), "oracle");
  EXPECT_GT(compared, 36000);
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::filesystem::path(shared) / "corpus")) {
    if (entry.is_regular_file()) compared += CompareStates(ReadAll(entry.path()), entry.path());
  }
}

}  // namespace
}  // namespace fived
