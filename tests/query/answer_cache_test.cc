// The answer cache of 5d-query serve (query/answer_cache.h): answers are found under the version
// they were kept at and no other, the least recently used go first when it is full, and the
// database's version changes exactly when 5d-index adds something.
#include "query/answer_cache.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/query/query_test_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::RunIndexer;
using ::fived::testing::TempDir;

TEST(AnswerCache, FindsAnAnswerUnderItsVersionOnly) {
  AnswerCache<std::string> cache(1000);
  EXPECT_FALSE(cache.Find("tree", "1:-:1"));
  cache.Keep("tree", "1:-:1", "answer", 6);
  EXPECT_EQ(cache.Find("tree", "1:-:1"), "answer");
  // Another version: the answer is out of date and dropped.
  EXPECT_FALSE(cache.Find("tree", "2:-:1"));
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_FALSE(cache.Find("tree", "1:-:1"));
  // Keeping a key again replaces its answer.
  cache.Keep("tree", "2:-:1", "old", 3);
  cache.Keep("tree", "2:-:1", "new", 3);
  EXPECT_EQ(cache.Find("tree", "2:-:1"), "new");
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.bytes(), 3u + 4u);  // the answer and its key
}

TEST(AnswerCache, DropsTheLeastRecentlyUsedWhenFull) {
  AnswerCache<int> cache(3 * 11);  // three answers of 10 bytes with one-byte keys
  cache.Keep("a", "v", 1, 10);
  cache.Keep("b", "v", 2, 10);
  cache.Keep("c", "v", 3, 10);
  EXPECT_EQ(cache.Find("a", "v"), 1);  // a is now the most recently used
  cache.Keep("d", "v", 4, 10);         // b goes
  EXPECT_FALSE(cache.Find("b", "v"));
  EXPECT_EQ(cache.Find("a", "v"), 1);
  EXPECT_EQ(cache.Find("c", "v"), 3);
  EXPECT_EQ(cache.Find("d", "v"), 4);
  EXPECT_EQ(cache.bytes(), 33u);
  // Larger than the whole cache: not kept, and nothing else is dropped for it.
  cache.Keep("e", "v", 5, 40);
  EXPECT_FALSE(cache.Find("e", "v"));
  EXPECT_EQ(cache.size(), 3u);
  // A cache of no bytes keeps nothing.
  AnswerCache<int> none(0);
  none.Keep("a", "v", 1, 0);
  EXPECT_FALSE(none.Find("a", "v"));
}

TEST(AnswerCache, DatabaseVersionChangesWhenTheIndexerAddsRows) {
  TempDir dir;
  const std::string database = dir.File("games.sqlite");
  ASSERT_EQ(RunIndexer(database, {FIVED_SOURCE_DIR "/corpus/club-games.5dpgn"}), 0);
  Result<GameStore> store = GameStore::Open(database);
  ASSERT_TRUE(store.ok());
  Result<std::string> first = DatabaseVersion(store.value());
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first.value(), "8:-:1");  // 8 games, nothing rejected, one source
  // Indexing the same file again adds nothing.
  ASSERT_EQ(RunIndexer(database, {FIVED_SOURCE_DIR "/corpus/club-games.5dpgn"}), 0);
  Result<std::string> same = DatabaseVersion(store.value());
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same.value(), first.value());
  // A rejected game alone changes it; so do new games. The open connection sees both.
  ASSERT_EQ(RunIndexer(database,
                       {FIVED_SOURCE_DIR "/corpus/rejected/teln0-vs-shad-simple-no-queens.5dpgn"}),
            1);
  Result<std::string> rejected = DatabaseVersion(store.value());
  ASSERT_TRUE(rejected.ok());
  EXPECT_EQ(rejected.value(), "8:1:2");
  ASSERT_EQ(RunIndexer(database, {FIVED_SOURCE_DIR "/corpus/adri326-5dchess-notation.5dpgn"}), 0);
  Result<std::string> more = DatabaseVersion(store.value());
  ASSERT_TRUE(more.ok());
  EXPECT_EQ(more.value(), "21:1:3");  // and 13 games more
}

}  // namespace
}  // namespace fived
