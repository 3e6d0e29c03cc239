// The connection pool of 5d-query serve (query/store_pool.h): connections are kept and handed
// out again, only when nothing runs on them, and kept connections see what 5d-index adds later.
#include "query/store_pool.h"

#include <gtest/gtest.h>

#include <string>

#include "query/search.h"
#include "tests/query/query_test_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::RunIndexer;
using ::fived::testing::TempDir;

int64_t CountGames(GameStore& store) {
  Result<Statement> statement = store.db().Prepare("SELECT count(*) FROM games");
  EXPECT_TRUE(statement.ok());
  EXPECT_TRUE(statement.value().Step().ok());
  return statement.value().Int64(0);
}

TEST(StorePool, KeepsIdleConnectionsAndSeesNewGames) {
  TempDir dir;
  const std::string database = dir.File("games.sqlite");
  ASSERT_EQ(RunIndexer(database, {FIVED_SOURCE_DIR "/corpus/club-games.5dpgn"}), 0);
  StorePool pool(database, 2);
  auto a = pool.Take();
  auto b = pool.Take();
  ASSERT_TRUE(a.ok() && b.ok());
  GameStore* first = a.value().get();
  EXPECT_NE(first, b.value().get());
  EXPECT_EQ(CountGames(*a.value()), 8);
  pool.Give(std::move(a).value());
  pool.Give(std::move(b).value());
  EXPECT_EQ(pool.idle(), 2u);

  // A third one given back is closed: at most two are kept.
  auto c = pool.Take();
  auto d = pool.Take();
  auto e = pool.Take();
  ASSERT_TRUE(c.ok() && d.ok() && e.ok());
  EXPECT_EQ(pool.idle(), 0u);
  GameStore* kept = c.value().get();
  pool.Give(std::move(c).value());
  pool.Give(std::move(d).value());
  pool.Give(std::move(e).value());
  EXPECT_EQ(pool.idle(), 2u);

  // A kept connection sees the games added since it was opened.
  ASSERT_EQ(RunIndexer(database, {FIVED_SOURCE_DIR "/corpus/adri326-5dchess-notation.5dpgn"}), 0);
  auto again = pool.Take();
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again.value().get() == kept || pool.idle() == 1u);
  EXPECT_EQ(CountGames(*again.value()), 21);
  pool.Give(std::move(again).value());
}

TEST(StorePool, ClosesAConnectionWithAStatementStillRunning) {
  TempDir dir;
  const std::string database = dir.File("games.sqlite");
  ASSERT_EQ(RunIndexer(database, {FIVED_SOURCE_DIR "/corpus/club-games.5dpgn"}), 0);
  StorePool pool(database);
  auto taken = pool.Take();
  ASSERT_TRUE(taken.ok());
  {
    // A statement stepped to its first row and not reset holds a read snapshot.
    Result<Statement> running = taken.value()->db().Prepare("SELECT id FROM games");
    ASSERT_TRUE(running.ok());
    ASSERT_TRUE(running.value().Step().ok());
    pool.Give(std::move(taken).value());
  }
  EXPECT_EQ(pool.idle(), 0u);
  // A connection with an open transaction is not kept either.
  auto other = pool.Take();
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE(other.value()->db().Exec("BEGIN").ok());
  pool.Give(std::move(other).value());
  EXPECT_EQ(pool.idle(), 0u);
  EXPECT_TRUE(pool.Take().ok());
  EXPECT_FALSE(StorePool(dir.File("missing.sqlite")).Take().ok());
}

}  // namespace
}  // namespace fived
