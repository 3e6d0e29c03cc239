// Finding games: filters as SQL (patterns, dates, results, headers; bound values that cannot change
// a query), position searches by state, MD5 and board, sorting and paging, and the output
// formats. The database is corpus/adri326-5dchess-notation.5dpgn indexed by 5d-index; expected
// games are read from that file's headers, and positions are computed here by replaying its
// games, independently of the database.
#include "query/find.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/keys.h"
#include "core/pgn_syntax.h"
#include "core/replay.h"
#include "query/search.h"
#include "tests/query/query_test_util.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

namespace fs = std::filesystem;

const std::string kCorpus =
    std::string(FIVED_SOURCE_DIR) + "/corpus/adri326-5dchess-notation.5dpgn";

// The corpus's games in file order (game i of the file is database id i: one file, indexed once).
std::vector<SyntaxGame> CorpusGames() {
  std::ifstream in(kCorpus, std::ios::binary);
  GameSplitter splitter(in);
  std::vector<SyntaxGame> games;
  while (auto raw = splitter.Next()) games.push_back(ParseGameSyntax(raw->text).game);
  return games;
}

class FindTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fived::testing::TempDir();
    db_path_ = dir_->File("corpus.sqlite");
    ASSERT_EQ(fived::testing::RunIndexer(db_path_, {kCorpus}), 0);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    auto store = GameStore::Open(db_path_);
    ASSERT_TRUE(store.ok()) << store.error().message();
    store_.emplace(std::move(store).value());
  }

  std::vector<int64_t> Ids(const FindRequest& request) {
    auto games = FindGames(*store_, request);
    EXPECT_TRUE(games.ok()) << games.error().message();
    std::vector<int64_t> ids;
    if (games.ok()) {
      for (const FoundGame& g : games.value()) ids.push_back(g.row.id);
    }
    return ids;
  }
  std::vector<int64_t> Ids(const GameFilter& filter) {
    FindRequest request;
    request.filter = filter;
    return Ids(request);
  }

  static fived::testing::TempDir* dir_;
  static std::string db_path_;
  std::optional<GameStore> store_;
};

fived::testing::TempDir* FindTest::dir_ = nullptr;
std::string FindTest::db_path_;

// The ids of corpus games whose header `name` satisfies `pred` (ids count from 1).
template <typename Pred>
std::vector<int64_t> IdsWhere(Pred pred) {
  std::vector<int64_t> ids;
  const std::vector<SyntaxGame> games = CorpusGames();
  for (size_t i = 0; i < games.size(); ++i) {
    if (pred(games[i])) ids.push_back(static_cast<int64_t>(i + 1));
  }
  return ids;
}

std::string HeaderOf(const SyntaxGame& game, std::string_view name) {
  const Header* h = game.FindHeader(name);
  return h ? h->value : std::string();
}

TEST(FilterTest, WildcardPatternsBecomeEscapedGlobPatterns) {
  EXPECT_FALSE(HasWildcards("Shad Amethyst"));
  EXPECT_TRUE(HasWildcards("Shad*"));
  EXPECT_TRUE(HasWildcards("C?U"));
  EXPECT_EQ(GlobPattern("shad*"), "shad*");
  EXPECT_EQ(GlobPattern("c?u"), "c?u");
  EXPECT_EQ(GlobPattern("50%_[a]\\b*"), "50%_[[]a]\\b*");
}

TEST(FilterTest, DateBoundsAreTheFirstOrLastDayOfWhatIsWritten) {
  const std::vector<std::tuple<std::string, int32_t, int32_t>> cases = {
      {"2021", 20210101, 20211231},       {"2021.03", 20210301, 20210331},
      {"2021.3.5", 20210305, 20210305},   {"2021-03-15", 20210315, 20210315},
      {"2021/03/15", 20210315, 20210315}, {"2020.02", 20200201, 20200229},
      {"2021.02", 20210201, 20210228},
  };
  for (const auto& [text, from, to] : cases) {
    EXPECT_EQ(DateBound(text, false).value(), from) << text;
    EXPECT_EQ(DateBound(text, true).value(), to) << text;
  }
  for (const char* bad : {"", "21", "2021.123", "2021.03.15.1", "March", "2021..03", "2021.x",
                          "2021.13", "2021.02.30", "2021.00", "6-14-2021", "2021.03-01"}) {
    const auto bound = DateBound(bad, false);
    ASSERT_FALSE(bound.ok()) << bad;
    EXPECT_EQ(bound.error().message().rfind("'" + std::string(bad) + "' is not a date", 0), 0u)
        << bound.error().message();
  }
}

TEST(FilterTest, ResultsInWordsOrNotation) {
  EXPECT_EQ(NormalizeResult("1-0").value_or(""), "1-0");
  EXPECT_EQ(NormalizeResult("White").value_or(""), "1-0");
  EXPECT_EQ(NormalizeResult("black").value_or(""), "0-1");
  EXPECT_EQ(NormalizeResult("draw").value_or(""), "1/2-1/2");
  EXPECT_EQ(NormalizeResult("1/2").value_or(""), "1/2-1/2");
  EXPECT_EQ(NormalizeResult("*").value_or(""), "*");
  EXPECT_FALSE(NormalizeResult("2-0"));
}

TEST(FilterTest, ValuesAreBoundNeverPasted) {
  GameFilter filter;
  filter.player = "x' OR 1=1 --";
  filter.headers.emplace_back("Event') OR 1=1 --", "*");
  const SqlCondition condition = FilterCondition(filter);
  EXPECT_EQ(condition.where.find("OR 1=1"), std::string::npos) << condition.where;
  EXPECT_EQ(condition.params.size(), 4u);
}

TEST_F(FindTest, PlayersAreCaseInsensitiveWithWildcards) {
  const auto shad = [](const SyntaxGame& g) {
    return HeaderOf(g, "White") == "Shad Amethyst" || HeaderOf(g, "Black") == "Shad Amethyst";
  };
  const std::vector<int64_t> expected = IdsWhere(shad);
  ASSERT_EQ(expected.size(), 7u);
  GameFilter filter;
  filter.player = "shad amethyst";
  EXPECT_EQ(Ids(filter), expected);
  filter.player = "SHAD*";
  EXPECT_EQ(Ids(filter), expected);
  filter.player = "Shad Amethys?";
  EXPECT_EQ(Ids(filter), expected);
  filter.player = "Shad";  // no wildcard: the whole name
  EXPECT_TRUE(Ids(filter).empty());
  filter.player = "Shad%";  // '%' is a character, not a wildcard
  EXPECT_TRUE(Ids(filter).empty());

  GameFilter white;
  white.white = "shad*";
  EXPECT_EQ(Ids(white),
            IdsWhere([](const SyntaxGame& g) { return HeaderOf(g, "White") == "Shad Amethyst"; }));
  GameFilter black;
  black.black = "c?u";
  EXPECT_EQ(Ids(black),
            IdsWhere([](const SyntaxGame& g) { return HeaderOf(g, "Black") == "CPU"; }));
}

TEST_F(FindTest, InjectionAttemptsMatchNothing) {
  GameFilter filter;
  filter.player = "x' OR '1'='1";
  EXPECT_TRUE(Ids(filter).empty());
  GameFilter header;
  header.headers.emplace_back("White' OR 1=1 --", "*");
  EXPECT_TRUE(Ids(header).empty());
}

TEST_F(FindTest, DatesResultsVariantsAndHeaders) {
  GameFilter dates;
  dates.date_from = DateBound("2020.08.24", false).value();
  dates.date_to = DateBound("2020.08.25", true).value();
  EXPECT_EQ(Ids(dates), IdsWhere([](const SyntaxGame& g) {
              const std::string d = HeaderOf(g, "Date");
              return d == "2020.08.24" || d == "2020.08.25";
            }));
  GameFilter year;
  year.date_from = DateBound("2021", false).value();
  EXPECT_EQ(Ids(year), IdsWhere([](const SyntaxGame& g) {
              return HeaderOf(g, "Date").rfind("2021", 0) == 0;
            }));

  GameFilter won;
  won.result = "1-0";
  EXPECT_EQ(Ids(won), IdsWhere([](const SyntaxGame& g) { return HeaderOf(g, "Result") == "1-0"; }));

  GameFilter standard;
  standard.variant = "Standard";
  EXPECT_EQ(Ids(standard),
            IdsWhere([](const SyntaxGame& g) { return HeaderOf(g, "Board") == "Standard"; }));

  GameFilter event;
  event.headers.emplace_back("event", "*online*");
  EXPECT_EQ(Ids(event), IdsWhere([](const SyntaxGame& g) {
              std::string e = HeaderOf(g, "Event");
              for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
              return e.find("online") != std::string::npos;
            }));
}

// Games with names in several scripts and spellings, and dates of every precision; game i of the
// list is database id i + 1. Each game plays other moves, so none is a duplicate.
struct NamedGame {
  const char* white;
  const char* black;
  const char* date;  // nullptr: no Date header
};
const NamedGame kNamedGames[] = {
    {"INÊS CARVALHO", "Pavel Dvořák", "2021.03"},                 // 1
    {"  inês   carvalho ", "Ανδρέας Παπαδόπουλος", "6-14-2021"},  // 2: unreadable date
    {"IN\x45\xCC\x82S Carvalho", "ανδρέας κ", "2021.03.15"},      // 3: E + combining circumflex
    {"Bob", "PAVEL DVOŘÁK", "2021.??.??"},                        // 4
    {"李小龍", "bob", nullptr},                                   // 5
    {"Ann", "Bob", "2021.02.28"},                                 // 6
    {"Ann", "Cy", "2021-03-01"},                                  // 7
    {"Cy", "Ann", "2021.03.15"},                                  // 8: ties with 3 on date
};
const char* const kNamedMoves[] = {"1. e3 / e6", "1. e3 / f6", "1. d3 / e6", "1. d3 / f6",
                                   "1. c3 / e6", "1. c3 / f6", "1. b3 / e6", "1. b3 / f6"};

std::string NamedCollection() {
  std::string text;
  for (size_t i = 0; i < std::size(kNamedGames); ++i) {
    const NamedGame& g = kNamedGames[i];
    text += std::string("[White \"") + g.white + "\"]\n[Black \"" + g.black + "\"]\n";
    if (g.date != nullptr) text += std::string("[Date \"") + g.date + "\"]\n";
    text += std::string("\n") + kNamedMoves[i] + "\n\n";
  }
  return text;
}

std::vector<int64_t> FilteredIdsOf(GameStore& store, const GameFilter& filter) {
  auto ids = FilteredIds(store, filter);
  EXPECT_TRUE(ids.ok());
  return ids.ok() ? ids.value() : std::vector<int64_t>{};
}

TEST(FilterTest, NamesCompareByUnicodeCaseFoldingTrimmed) {
  fived::testing::TempDir dir;
  GameStore store = fived::testing::IndexCollection(dir, NamedCollection());
  auto player = [&](const char* name) {
    GameFilter filter;
    filter.player = name;
    return FilteredIdsOf(store, filter);
  };
  const std::vector<int64_t> ines = {1, 2, 3};
  EXPECT_EQ(player("INÊS CARVALHO"), ines);
  EXPECT_EQ(player("inês carvalho"), ines);
  EXPECT_EQ(player(" Inês  Carvalho "), ines);
  EXPECT_EQ(player("inÊs*"), ines);
  EXPECT_EQ(player("PAVEL DVOŘÁK"), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(player("ανδρέας*"), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(player("ΑΝΔΡΈΑΣ ?"), (std::vector<int64_t>{3}));
  EXPECT_EQ(player("李小龍"), (std::vector<int64_t>{5}));
  EXPECT_EQ(player("BOB"), (std::vector<int64_t>{4, 5, 6}));
  EXPECT_TRUE(player("ines carvalho").empty());  // accents are not ignored, only case
  GameFilter white;
  white.white = "bob";
  EXPECT_EQ(FilteredIdsOf(store, white), (std::vector<int64_t>{4}));
  GameFilter header;
  header.headers.emplace_back("black", "παύλος*");
  EXPECT_TRUE(FilteredIdsOf(store, header).empty());
  header.headers = {{"black", "ΑΝΔΡΈΑΣ*"}};
  EXPECT_EQ(FilteredIdsOf(store, header), (std::vector<int64_t>{2, 3}));
}

TEST(FilterTest, DatesMatchEveryDayTheyMayStandForAndUnreadableOnesNone) {
  fived::testing::TempDir dir;
  GameStore store = fived::testing::IndexCollection(dir, NamedCollection());
  auto between = [&](const char* from, const char* to) {
    GameFilter filter;
    if (from != nullptr) filter.date_from = DateBound(from, false).value();
    if (to != nullptr) filter.date_to = DateBound(to, true).value();
    return FilteredIdsOf(store, filter);
  };
  // Game 1 is dated 2021.03, game 4 2021.??.??; game 2's date cannot be read, game 5 has none.
  EXPECT_EQ(between("2021.03", nullptr), (std::vector<int64_t>{1, 3, 4, 7, 8}));
  EXPECT_EQ(between("2021.03", "2021.03"), (std::vector<int64_t>{1, 3, 4, 7, 8}));
  EXPECT_EQ(between("2021.03.15", "2021.03.15"), (std::vector<int64_t>{1, 3, 4, 8}));
  EXPECT_EQ(between(nullptr, "2021.02"), (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(between("2000", nullptr), (std::vector<int64_t>{1, 3, 4, 6, 7, 8}));
  EXPECT_EQ(between(nullptr, "2100"), (std::vector<int64_t>{1, 3, 4, 6, 7, 8}));
  EXPECT_TRUE(between("2022", nullptr).empty());

  auto row = store.Row(2);
  ASSERT_TRUE(row.ok() && row.value());
  EXPECT_EQ(row.value()->date, "6-14-2021");
  EXPECT_EQ(row.value()->date_first, 0);
}

TEST(FindOrderTest, DescendingSortsKeepAscendingIdsForTiesAndMissingValuesLast) {
  fived::testing::TempDir dir;
  GameStore store = fived::testing::IndexCollection(dir, NamedCollection());
  auto sorted = [&](const char* order) {
    FindRequest request;
    request.sort = *ParseSortOrder(order);
    auto games = FindGames(store, request);
    EXPECT_TRUE(games.ok());
    std::vector<int64_t> ids;
    for (const FoundGame& g : games.value()) ids.push_back(g.row.id);
    return ids;
  };
  // By first day, then last day: 4 (2021.??.??) starts on 2021.01.01; 7 (2021-03-01) and
  // 1 (2021.03) both start on 2021.03.01, and 1 ends later; 3 and 8 share 2021.03.15; 2 and 5
  // have no readable date.
  EXPECT_EQ(sorted("date"), (std::vector<int64_t>{4, 6, 7, 1, 3, 8, 2, 5}));
  EXPECT_EQ(sorted("-date"), (std::vector<int64_t>{3, 8, 1, 7, 6, 4, 2, 5}));
  // Names sort by their keys: "ann" (6, 7), "bob" (4), "cy", "inês carvalho" (1, 2, 3), "李".
  EXPECT_EQ(sorted("white"), (std::vector<int64_t>{6, 7, 4, 8, 1, 2, 3, 5}));
  EXPECT_EQ(sorted("-white"), (std::vector<int64_t>{5, 1, 2, 3, 8, 4, 6, 7}));
  // The same order when the games come from a position search and are sorted in memory.
  FindRequest request;
  request.sort = *ParseSortOrder("-date");
  auto start = PositionFromMoves("Standard", "");
  ASSERT_TRUE(start.ok());
  auto matches = FindState(store, start.value().StateKey());
  ASSERT_TRUE(matches.ok());
  request.positions = matches.value();
  auto games = FindGames(store, request);
  ASSERT_TRUE(games.ok());
  std::vector<int64_t> ids;
  for (const FoundGame& g : games.value()) ids.push_back(g.row.id);
  EXPECT_EQ(ids, sorted("-date"));
  request.sort = *ParseSortOrder("-white");
  games = FindGames(store, request);
  ids.clear();
  for (const FoundGame& g : games.value()) ids.push_back(g.row.id);
  EXPECT_EQ(ids, sorted("-white"));
}

TEST(SearchTest, MovesWithoutNumbersAreOneMoveAnAction) {
  auto numbered = PositionFromMoves("Standard", "1. e3 / e6 2. Nf3");
  auto plain = PositionFromMoves("Standard", "e3 e6 Nf3");
  ASSERT_TRUE(numbered.ok());
  ASSERT_TRUE(plain.ok()) << plain.error().message();
  EXPECT_EQ(plain.value().StateKey(), numbered.value().StateKey());
  auto lines = PositionFromMoves("Standard", "e3\ne6\nNf3");
  ASSERT_TRUE(lines.ok());
  EXPECT_EQ(lines.value().StateKey(), numbered.value().StateKey());
  // An illegal move still points at itself.
  auto bad = PositionFromMoves("Standard", "e3 e6 Qh9");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message().find("Qh9"), std::string::npos);
}

TEST_F(FindTest, SortLimitOffsetAndCount) {
  FindRequest request;
  request.sort = *ParseSortOrder("-actions");
  auto all = FindGames(*store_, request);
  ASSERT_TRUE(all.ok());
  ASSERT_GE(all.value().size(), 3u);
  for (size_t i = 1; i < all.value().size(); ++i) {
    EXPECT_GE(all.value()[i - 1].row.actions, all.value()[i].row.actions);
  }
  request.limit = 2;
  request.offset = 1;
  int64_t total = 0;
  auto page = FindGames(*store_, request, &total);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page.value().size(), 2u);
  EXPECT_EQ(page.value()[0].row.id, all.value()[1].row.id);
  EXPECT_EQ(page.value()[1].row.id, all.value()[2].row.id);
  EXPECT_EQ(total, static_cast<int64_t>(all.value().size()));
  EXPECT_EQ(CountGames(*store_, request).value(), total);
  EXPECT_FALSE(ParseSortOrder("name"));
}

TEST_F(FindTest, StatesAreFoundAfterEveryAction) {
  const std::vector<SyntaxGame> games = CorpusGames();
  // Every state of game 4 (Shad Amethyst - Anon) is found, with game 4 at an action no later than
  // the one where the replay saw it.
  std::vector<std::pair<uint64_t, int>> states;
  ReplayOutcome outcome = ReplayGame(games[3], [&](int action, const Position& pos) {
    states.emplace_back(pos.StateKey(), action);
  });
  ASSERT_TRUE(outcome.status.ok());
  ASSERT_GT(states.size(), 10u);
  for (const auto& [key, action] : states) {
    auto matches = FindState(*store_, key);
    ASSERT_TRUE(matches.ok());
    bool found = false;
    for (const PositionMatch& m : matches.value()) {
      if (m.game_id == 4) {
        found = true;
        EXPECT_LE(m.action, action);
      }
    }
    EXPECT_TRUE(found) << "action " << action;
  }
  // The standard start: every game that starts there (Standard games, and a custom game whose
  // boards are the standard ones), at action 0.
  auto start = PositionFromMoves("Standard", "");
  ASSERT_TRUE(start.ok());
  const uint64_t start_key = start.value().StateKey();
  auto matches = FindState(*store_, start_key);
  ASSERT_TRUE(matches.ok());
  std::vector<int64_t> ids;
  for (const PositionMatch& m : matches.value()) {
    ids.push_back(m.game_id);
    EXPECT_EQ(m.action, 0);
  }
  const std::vector<int64_t> expected = IdsWhere([&](const SyntaxGame& g) {
    auto setup = SetupGame(g);
    return setup.ok() && setup.value().start.StateKey() == start_key;
  });
  EXPECT_EQ(ids, expected);
  EXPECT_GE(expected.size(), 6u);
}

TEST_F(FindTest, MovesStateAndMd5FindTheSameGame) {
  const std::vector<SyntaxGame> games = CorpusGames();
  std::string fen_after_3, md5_after_3, final_md5;
  int actions = 0;
  ReplayOutcome outcome = ReplayGame(games[3], [&](int action, const Position& pos) {
    if (action == 3) {
      fen_after_3 = pos.StateFen();
      md5_after_3 = pos.StateMd5();
    }
    final_md5 = pos.StateMd5();
    actions = action;
  });
  ASSERT_TRUE(outcome.status.ok());

  auto by_state = PositionFromState(fen_after_3);
  ASSERT_TRUE(by_state.ok()) << by_state.error().message();
  auto state_matches = FindState(*store_, by_state.value().StateKey());
  ASSERT_TRUE(state_matches.ok());
  ASSERT_FALSE(state_matches.value().empty());

  auto final_matches = FindFinalStateMd5(*store_, final_md5);
  ASSERT_TRUE(final_matches.ok());
  ASSERT_EQ(final_matches.value().size(), 1u);
  EXPECT_EQ(final_matches.value()[0].game_id, 4);
  EXPECT_EQ(final_matches.value()[0].action, actions);
  // Upper case works too.
  std::string upper = final_md5;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(FindFinalStateMd5(*store_, upper).value().size(), 1u);
  // An intermediate state's MD5 is not a final state's; the scan finds it.
  EXPECT_TRUE(FindFinalStateMd5(*store_, md5_after_3).value().empty());
  auto scanned = ScanStateMd5(*store_, md5_after_3, {1, 2, 3, 4, 5});
  ASSERT_TRUE(scanned.ok());
  ASSERT_EQ(scanned.value().size(), 1u);
  EXPECT_EQ(scanned.value()[0].game_id, 4);
  EXPECT_EQ(scanned.value()[0].action, 3);
  // On every core: the same.
  auto parallel = ScanStateMd5(*store_, md5_after_3, {1, 2, 3, 4, 5}, 4);
  ASSERT_TRUE(parallel.ok());
  ASSERT_EQ(parallel.value().size(), 1u);
  EXPECT_EQ(parallel.value()[0].game_id, 4);
  EXPECT_EQ(parallel.value()[0].action, 3);
  // This database indexes final states' MD5s only: the index finds nothing inside games.
  EXPECT_FALSE(IndexesEveryStateMd5(*store_).value());
  EXPECT_TRUE(FindStateMd5(*store_, md5_after_3).value().empty());
}

TEST(FindStateMd5Test, EveryStateOfEveryGameWithAllStateMd5) {
  fived::testing::TempDir dir;
  const std::string db = dir.File("all.sqlite");
  ASSERT_EQ(fived::testing::RunIndexer(db, {kCorpus}, {"--all-state-md5"}), 0);
  Result<GameStore> store = GameStore::Open(db);
  ASSERT_TRUE(store.ok());
  EXPECT_TRUE(IndexesEveryStateMd5(store.value()).value());
  // Every state of every game is found by its MD5, at its first action there, with upper case
  // digits too; the games found are those found by the state's key.
  const std::vector<SyntaxGame> games = CorpusGames();
  int compared = 0;
  for (const SyntaxGame& game : games) {
    ReplayGame(game, [&](int, const Position& pos) {
      std::string md5 = pos.StateMd5();
      if (compared % 2) {
        for (char& c : md5) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      }
      auto by_md5 = FindStateMd5(store.value(), md5);
      auto by_key = FindState(store.value(), pos.StateKey());
      ASSERT_TRUE(by_md5.ok() && by_key.ok());
      ASSERT_EQ(by_md5.value().size(), by_key.value().size());
      for (size_t i = 0; i < by_md5.value().size(); ++i) {
        EXPECT_EQ(by_md5.value()[i].game_id, by_key.value()[i].game_id);
        EXPECT_EQ(by_md5.value()[i].action, by_key.value()[i].action);
      }
      ++compared;
    });
  }
  EXPECT_GT(compared, 100);
  // The choice is the database's: a later run without the option still indexes every state, and
  // a database of final MD5s with games cannot take the option up.
  const std::string final_db = dir.File("final.sqlite");
  ASSERT_EQ(fived::testing::RunIndexer(final_db, {kCorpus}), 0);
  EXPECT_EQ(fived::testing::RunIndexer(final_db, {kCorpus}, {"--all-state-md5"}), 3);
}

TEST_F(FindTest, BoardsAnywhereOrAtTheirCoordinates) {
  const std::vector<SyntaxGame> games = CorpusGames();
  // The last board game 4 made, at its coordinates and anywhere.
  ReplayOutcome outcome = ReplayGame(games[3]);
  ASSERT_TRUE(outcome.replayer);
  const Position& pos = outcome.replayer->position();
  const int l = pos.min_timeline();
  const std::string fen = pos.BoardFen(l, pos.TipHalf(l));
  auto placed = ParseBoardQuery(fen);
  ASSERT_TRUE(placed.ok()) << placed.error().message();
  auto matches = FindBoard(*store_, placed.value());
  ASSERT_TRUE(matches.ok());
  ASSERT_EQ(matches.value().size(), 1u);
  EXPECT_EQ(matches.value()[0].game_id, 4);

  // The same board one turn later is nowhere in game 4.
  std::string moved = fen;
  const size_t turn_end = moved.rfind(':');
  const size_t turn_start = moved.rfind(':', turn_end - 1);
  const int turn = std::stoi(moved.substr(turn_start + 1, turn_end - turn_start - 1));
  moved.replace(turn_start + 1, turn_end - turn_start - 1, std::to_string(turn + 1));
  auto elsewhere = FindBoard(*store_, ParseBoardQuery(moved).value());
  ASSERT_TRUE(elsewhere.ok());
  EXPECT_TRUE(elsewhere.value().empty());

  // The starting board of Standard, without coordinates: in every game that has it.
  auto start =
      ParseBoardQuery("[r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*]");
  ASSERT_TRUE(start.ok());
  EXPECT_FALSE(start.value().placed);
  auto anywhere = FindBoard(*store_, start.value());
  ASSERT_TRUE(anywhere.ok());
  std::vector<int64_t> ids;
  for (const PositionMatch& m : anywhere.value()) {
    ids.push_back(m.game_id);
    EXPECT_EQ(m.action, 0);
  }
  const std::vector<int64_t> standard =
      IdsWhere([](const SyntaxGame& g) { return HeaderOf(g, "Board") == "Standard"; });
  for (int64_t id : standard) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  }
}

TEST(SearchTest, BadMovesPointAtTheMove) {
  auto pos = PositionFromMoves("Standard", "1. e3 / f6 2. Qh9");
  ASSERT_FALSE(pos.ok());
  EXPECT_EQ(pos.error().message(),
            "--moves: col 15: Qh9: square h9 is off the 8x8 board\n"
            "  1. e3 / f6 2. Qh9\n"
            "                ^")
      << pos.error().message();
  auto illegal = PositionFromMoves("Standard", "1. e3 / f6 2. Qe4");
  ASSERT_FALSE(illegal.ok());
  EXPECT_NE(illegal.error().message().find("--moves: col 15: Qe4: "), std::string::npos)
      << illegal.error().message();
  auto unfinished = PositionFromMoves("Standard - Two Timelines", "1. (-0T1)e3");
  ASSERT_FALSE(unfinished.ok());
  EXPECT_NE(unfinished.error().message().find("incomplete"), std::string::npos)
      << unfinished.error().message();
}

TEST(SearchTest, VariantsBoardsAndStatesAreChecked) {
  Result<std::string> variant = ResolveVariantName("turn zero");
  ASSERT_TRUE(variant.ok());
  EXPECT_EQ(variant.value(), "Standard - Turn Zero");
  const Result<std::string> unknown = ResolveVariantName("Chess960");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message(),
            "unknown variant 'Chess960' (official names: 5d-query --help lists them)");
  EXPECT_EQ(ResolveVariantName("custom").value(), "custom");

  auto board = ParseBoardQuery("[r*nbqk*bnr*/p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*]");
  ASSERT_FALSE(board.ok());
  EXPECT_EQ(board.error().message().rfind("--board: ", 0), 0u);

  auto state = PositionFromState("[8/8/8/8/8/8/8/8:0:1:w] junk");
  ASSERT_FALSE(state.ok());
  EXPECT_EQ(state.error().message(),
            "--state: expected '[' at character 25 (boards are written "
            "[pieces:timeline:turn:colour])");
  EXPECT_FALSE(PositionFromState("").ok());
  EXPECT_TRUE(IsMd5("0123456789abcdefABCDEF0123456789"));
  EXPECT_FALSE(IsMd5("0123456789abcdef"));
}

TEST_F(FindTest, OutputFormats) {
  FindRequest request;
  request.filter.white = "CPU";
  auto games = FindGames(*store_, request);
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games.value().size(), 2u);

  std::ostringstream table_out;
  ASSERT_TRUE(
      WriteGames(*store_, games.value(), OutputFormat::kTable, false, false, table_out).ok());
  const std::string table = table_out.str();
  std::istringstream lines(table);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("id  white  black", 0), 0u) << header;
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 3);

  std::ostringstream json;
  ASSERT_TRUE(WriteGames(*store_, games.value(), OutputFormat::kJson, true, false, json).ok());
  EXPECT_EQ(json.str().front(), '[');
  EXPECT_NE(json.str().find("\"headers\":{"), std::string::npos);
  EXPECT_NE(json.str().find("\"Event\":\"Game analysis: AI vs AI\""), std::string::npos);
  EXPECT_NE(json.str().find("\"action\":"), std::string::npos);

  std::ostringstream csv;
  ASSERT_TRUE(WriteGames(*store_, games.value(), OutputFormat::kCsv, false, false, csv).ok());
  EXPECT_EQ(csv.str().rfind("id,white,black,result,date,variant,actions,timelines,verdict\r\n", 0),
            0u);

  // 5dpgn: the original texts, which read back as the same games.
  std::ostringstream pgn;
  ASSERT_TRUE(WriteGames(*store_, games.value(), OutputFormat::kPgn, false, false, pgn).ok());
  std::istringstream in(pgn.str());
  GameSplitter splitter(in);
  int count = 0;
  while (auto raw = splitter.Next()) {
    ++count;
    EXPECT_EQ(ParseGameSyntax(raw->text).game.FindHeader("White")->value, "CPU");
  }
  EXPECT_EQ(count, 2);
  // Canonical: replays to the same final state as the original.
  std::ostringstream canonical;
  ASSERT_TRUE(WriteGames(*store_, games.value(), OutputFormat::kPgn, false, true, canonical).ok());
  std::istringstream canonical_in(canonical.str());
  GameSplitter canonical_splitter(canonical_in);
  size_t i = 0;
  while (auto raw = canonical_splitter.Next()) {
    ASSERT_LT(i, games.value().size());
    ReplayOutcome outcome = ReplayGame(ParseGameSyntax(raw->text).game);
    ASSERT_TRUE(outcome.status.ok()) << raw->text;
    EXPECT_EQ(outcome.replayer->position().StateMd5(), games.value()[i].row.final_md5);
    ++i;
  }
  EXPECT_EQ(i, 2u);
}

TEST(GameStoreTest, MissingOrForeignFilesAreErrors) {
  fived::testing::TempDir dir;
  auto missing = GameStore::Open(dir.File("none.sqlite"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message().find("no such database file"), std::string::npos)
      << missing.error().message();
  EXPECT_FALSE(fs::exists(dir.File("none.sqlite")));
  auto foreign = GameStore::Open(kCorpus);
  ASSERT_FALSE(foreign.ok());
  EXPECT_NE(foreign.error().message().find("not a 5dpgn-db database"), std::string::npos)
      << foreign.error().message();
}

TEST(GameStoreTest, HeadersAfterAByteOrderMarkAreRead) {
  // The splitter removes a file's byte-order mark; a second one stays in the game's text.
  const std::string text = "\xEF\xBB\xBF[White \"Ann\"]\n[Black \"Bob\"]\n\n1. e3\n";
  EXPECT_EQ(HeaderBlock(text), "\xEF\xBB\xBF[White \"Ann\"]\n[Black \"Bob\"]\n");
  const auto headers = HeadersOfText(text);
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_EQ(headers[0], (std::pair<std::string, std::string>{"White", "Ann"}));
  EXPECT_EQ(headers[1], (std::pair<std::string, std::string>{"Black", "Bob"}));
}

TEST(GameStoreTest, CanonicalMovetextSplitsIntoActions) {
  const auto actions = SplitCanonicalMovetext(
      "1. (0T1)e3 / (0T1)f6\n2. (0T2)Qe2 (1T2)Nf3 / (0T2)Nc6\n3b. (0T3)a6\n1-0\n");
  ASSERT_EQ(actions.size(), 5u);
  EXPECT_EQ(actions[0], ActionMoves({"(0T1)e3"}));
  EXPECT_EQ(actions[2], ActionMoves({"(0T2)Qe2", "(1T2)Nf3"}));
  EXPECT_EQ(actions[4], ActionMoves({"(0T3)a6"}));
  EXPECT_TRUE(SplitCanonicalMovetext("").empty());
}

}  // namespace
}  // namespace fived

namespace fived {
namespace {

// A player's games by page (two index ranges merged, query/find.cc) and by count (two ranges
// counted, less the games where the player has both sides) are the pages and counts of the whole
// list, which is found without splitting (no limit), for every sort order, exact names and
// patterns, and a game whose player has both sides.
TEST(PlayerPagesTest, PagesAndCountsOfAPlayerAreThoseOfTheWholeList) {
  fived::testing::TempDir dir;
  const std::string db = dir.File("players.sqlite");
  const std::string games = dir.File("players.5dpgn");
  const char* kPlayers[][2] = {{"Ada", "Bob"}, {"Bob", "ada"}, {"ADA", "Ada"}, {"Cy", "Bob"},
                               {"Bob", "Cy"},  {"Ada", "Cy"},  {"Cy", "ADA "}, {"Bob", "Ada"},
                               {"Ada", "Ada"}, {"Dee", "Bob"}, {"Ada", "Dee"}, {"Dee", "ada"}};
  const char* kDates[] = {"2021.03.01", "", "2020",       "2021.03.01", "2019.12.31", "2022.01.05",
                          "2021.03",    "", "2020.06.01", "2021.03.01", "2018",       "2023.02.02"};
  const char* kMoves[] = {"1. e3 / e6", "1. d3 / d6", "1. Nf3 / Nf6\n2. e3 / e6", "1. c3 / c6"};
  int64_t expected_ada = 0;
  {
    std::ofstream out(games, std::ios::binary);
    for (int i = 0; i < 12; ++i) {
      out << "[Board \"Standard\"]\n[White \"" << kPlayers[i][0] << "\"]\n[Black \""
          << kPlayers[i][1] << "\"]\n";
      if (*kDates[i] != '\0') out << "[Date \"" << kDates[i] << "\"]\n";
      out << "\n" << kMoves[i % 4] << "\n\n";
      const std::string white = kPlayers[i][0], black = kPlayers[i][1];
      auto is_ada = [](std::string name) {
        while (!name.empty() && name.back() == ' ') name.pop_back();
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return name == "ada";
      };
      if (is_ada(white) || is_ada(black)) ++expected_ada;
    }
  }
  ASSERT_EQ(fived::testing::RunIndexer(db, {games}), 0);
  Result<GameStore> opened = GameStore::Open(db);
  ASSERT_TRUE(opened.ok()) << opened.error().message();
  GameStore& store = opened.value();
  int pages = 0;
  for (const char* player : {"ada", "ADA", "a*", "*", "bob", "c?", "nobody"}) {
    for (const char* sort : {"id", "-id", "date", "-date", "white", "-black", "actions"}) {
      FindRequest request;
      request.filter.player = player;
      request.sort = *ParseSortOrder(sort);
      auto all = FindGames(store, request);
      ASSERT_TRUE(all.ok()) << all.error().message();
      std::vector<int64_t> all_ids;
      for (const FoundGame& g : all.value()) all_ids.push_back(g.row.id);
      auto count = CountGames(store, request);
      ASSERT_TRUE(count.ok());
      EXPECT_EQ(count.value(), static_cast<int64_t>(all_ids.size())) << player;
      if (std::string(player) == "ada") {
        EXPECT_EQ(count.value(), expected_ada);
      }
      for (const int limit : {1, 2, 3, 5, 20}) {
        for (int offset = 0; offset <= static_cast<int>(all_ids.size()); offset += 2) {
          request.limit = limit;
          request.offset = offset;
          int64_t total = -1;
          auto page = FindGames(store, request, &total);
          ASSERT_TRUE(page.ok()) << page.error().message();
          std::vector<int64_t> page_ids;
          for (const FoundGame& g : page.value()) page_ids.push_back(g.row.id);
          const size_t begin = std::min(all_ids.size(), static_cast<size_t>(offset));
          const size_t end = std::min(all_ids.size(), begin + static_cast<size_t>(limit));
          EXPECT_EQ(page_ids, std::vector<int64_t>(all_ids.begin() + begin, all_ids.begin() + end))
              << player << " sorted by " << sort << ", limit " << limit << " offset " << offset;
          EXPECT_EQ(total, static_cast<int64_t>(all_ids.size()));
          ++pages;
        }
      }
    }
  }
  EXPECT_GT(pages, 200);
  EXPECT_EQ(expected_ada, 9);
}

}  // namespace
}  // namespace fived
