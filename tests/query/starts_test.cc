// The starts of custom games (query/starts.h) on a collection written here: two custom starts,
// one of them with a copy and a name in its second game's headers, beside a Standard game that
// is no custom start.
#include "query/starts.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/query/query_test_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::RunIndexer;
using ::fived::testing::TempDir;

// Game 1 and its copy (game 2, the same moves, players and result) start from a 4x4 board of two
// kings and a rook; game 3 starts there too and names it; game 4 starts from another board;
// game 5 is Standard.
constexpr char kGames[] = R"([Board "custom"]
[White "Ann"]
[Black "Bo"]
[Result "*"]
[k3/4/4/K2R:0:1:w]

1. (0T1)Rd2 / (0T1)Kb3 *

[Board "custom"]
[White "Ann"]
[Black "Bo"]
[Result "*"]
[k3/4/4/K2R:0:1:w]

1. (0T1)Rd2 / (0T1)Kb3 *

[Board "Custom"]
[VariantName "Rook corner"]
[White "Cy"]
[Black "Di"]
[Result "*"]
[k3/4/4/K2R:0:1:w]

1. (0T1)Rd3 *

[Board "custom"]
[White "Ed"]
[Black "Flo"]
[Result "*"]
[2k2/5/5/5/2K1Q:0:1:w]

1. (0T1)Qe2 *

[Board "Standard"]
[White "Gus"]
[Black "Hal"]
[Result "*"]

1. e3 *
)";

TEST(StartsTest, GroupsCustomGamesByStart) {
  TempDir dir;
  const std::string input = dir.File("starts.5dpgn");
  std::ofstream(input) << kGames;
  const std::string database = dir.File("starts.sqlite");
  ASSERT_EQ(RunIndexer(database, {input}), 0);
  Result<GameStore> store = GameStore::Open(database);
  ASSERT_TRUE(store.ok()) << store.error().message();

  Result<std::vector<CustomStart>> starts = ListCustomStarts(store.value());
  ASSERT_TRUE(starts.ok()) << starts.error().message();
  ASSERT_EQ(starts.value().size(), 2u);
  const CustomStart& rook = starts.value()[0];
  EXPECT_EQ(rook.fen, "[k3/4/4/K2R:0:1:w]");
  EXPECT_EQ(rook.width, 4);
  EXPECT_EQ(rook.height, 4);
  EXPECT_EQ(rook.games, 2);  // games 1 and 3; game 2 copies game 1
  EXPECT_EQ(rook.copies, 1);
  EXPECT_EQ(rook.first_game, 1);
  EXPECT_EQ(rook.name, "Rook corner");  // game 3's: "custom" names nothing
  const CustomStart& queen = starts.value()[1];
  EXPECT_EQ(queen.fen, "[2k2/5/5/5/2K1Q:0:1:w]");
  EXPECT_EQ(queen.width, 5);
  EXPECT_EQ(queen.games, 1);
  EXPECT_EQ(queen.copies, 0);
  EXPECT_EQ(queen.first_game, 4);
  EXPECT_EQ(queen.name, "");

  EXPECT_EQ(DumpJson(CustomStartsJson(starts.value())),
            R"([{"fen":"[k3/4/4/K2R:0:1:w]","width":4,"height":4,"name":"Rook corner",)"
            R"("games":2,"copies":1,"first_game":1},{"fen":"[2k2/5/5/5/2K1Q:0:1:w]","width":5,)"
            R"("height":5,"name":null,"games":1,"copies":0,"first_game":4}])");
}

}  // namespace
}  // namespace fived
