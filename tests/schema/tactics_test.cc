// The tactics table (schema/tactics.h): its frozen integers, a row written and read back with
// every field, the checks the table makes on its own, and meta.tactics.
#include "schema/tactics.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/tactics.h"
#include "schema/db.h"
#include "schema/meta.h"
#include "tests/temp_dir.h"

namespace fived {
namespace {

using ::fived::testing::TempDir;

Database Open(const std::string& path) {
  Result<Database> db = OpenDatabase(path, OpenMode::kReadWrite);
  EXPECT_TRUE(db.ok()) << (db.ok() ? "" : db.error().message());
  return std::move(db).value();
}

TEST(Tactics, StoredValuesAreFrozen) {
  // Golden: every database of schema version 9 holds these numbers (schema/README.md).
  EXPECT_EQ(kTacticsMates, 1);
  EXPECT_EQ(kTacticsUnknown, 3);
  EXPECT_EQ(TacticsText(true), "on");
  EXPECT_EQ(TacticsText(false), "off");
}

TEST(Tactics, RowsReadBackAsWritten) {
  TempDir dir;
  Database db = Open(dir.File("games.db"));
  // The rows refer to a game by id; foreign keys are on, so the game must exist.
  ASSERT_TRUE(db.Exec("INSERT INTO sources(path) VALUES('x')").ok());
  ASSERT_TRUE(
      db.Exec("INSERT INTO games(source_id, byte_offset, game_index, text_hash, variant, width, "
              "height, "
              "even_start, actions, timelines, final_md5, start_key, final_key, identity, record, "
              "checksum) VALUES(1, 0, 1, 0, 'custom', 4, 4, 0, 2, 1, '', 0, 0, 0, x'', 0)")
          .ok());
  Result<TacticsWriter> writer = TacticsWriter::Create(db);
  ASSERT_TRUE(writer.ok());
  PositionTactics found;
  found.action = 0;
  found.side = Color::kWhite;
  found.mating = 2;
  found.complete = true;
  found.played = true;
  found.solution = "(0T1)Qb3";
  PositionTactics unknown;
  unknown.action = 1;
  unknown.side = Color::kBlack;
  unknown.unknown = true;
  PositionTactics last;
  last.action = 2;
  last.mating = 1;
  last.solution = "(0T2)Rh8";
  for (const PositionTactics& row : {unknown, last, found}) {
    ASSERT_TRUE(writer.value().Add(1, row).ok());
  }
  Result<std::vector<PositionTactics>> rows = ReadGameTactics(db, 1);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows.value().size(), 3u);
  const PositionTactics& a = rows.value()[0];
  EXPECT_EQ(a.action, 0);
  EXPECT_EQ(a.side, Color::kWhite);
  EXPECT_FALSE(a.unknown);
  EXPECT_EQ(a.mating, 2u);
  EXPECT_TRUE(a.complete);
  EXPECT_EQ(a.played, true);
  EXPECT_EQ(a.solution, "(0T1)Qb3");
  const PositionTactics& b = rows.value()[1];
  EXPECT_EQ(b.side, Color::kBlack);
  EXPECT_TRUE(b.unknown);
  EXPECT_EQ(b.mating, 0u);
  EXPECT_FALSE(b.played.has_value());
  EXPECT_TRUE(b.solution.empty());
  const PositionTactics& c = rows.value()[2];
  EXPECT_FALSE(c.complete);
  EXPECT_FALSE(c.played.has_value());
  // Stored as the README says: unknown rows have no count nor solution.
  EXPECT_EQ(QueryInt(db, "SELECT answer FROM tactics WHERE action = 1").value(), 3);
  EXPECT_EQ(QueryInt(db, "SELECT mating IS NULL AND solution IS NULL FROM tactics WHERE action = 1")
                .value(),
            1);
  EXPECT_TRUE(ReadGameTactics(db, 2).value().empty());
  // The table refuses what no version writes.
  EXPECT_FALSE(db.Exec("INSERT INTO tactics VALUES(1, 5, 0, 2, 1, 1, NULL, 'x')").ok());
  EXPECT_FALSE(db.Exec("INSERT INTO tactics VALUES(1, 6, 2, 1, 1, 1, NULL, 'x')").ok());
}

TEST(Tactics, MetaSaysWhetherTheDatabaseHasThem) {
  TempDir dir;
  Database db = Open(dir.File("games.db"));
  EXPECT_EQ(ReadTactics(db).value(), false);
  ASSERT_TRUE(WriteTactics(db, true).ok());
  EXPECT_EQ(ReadTactics(db).value(), true);
  // A database made before the row existed has it off, and gets the row when it is written.
  ASSERT_TRUE(db.Exec("DELETE FROM meta WHERE key = 'tactics'").ok());
  EXPECT_EQ(ReadTactics(db).value(), false);
  ASSERT_TRUE(WriteTactics(db, true).ok());
  EXPECT_EQ(ReadTactics(db).value(), true);
}

TEST(Tactics, MetaSaysWhichSearchFoundThem) {
  TempDir dir;
  Database db = Open(dir.File("games.db"));
  // A new database has no row: one made before the row existed reads as the first search.
  EXPECT_EQ(ReadMeta(db, MetaKey::kTacticsVersion).value(), std::nullopt);
  EXPECT_EQ(ReadTacticsVersion(db).value(), 1);
  ASSERT_TRUE(WriteTacticsVersion(db, 7).ok());
  EXPECT_EQ(ReadMeta(db, MetaKey::kTacticsVersion).value(), "7");
  EXPECT_EQ(ReadTacticsVersion(db).value(), 7);
  ASSERT_TRUE(WriteTacticsVersion(db, 3).ok());
  EXPECT_EQ(ReadTacticsVersion(db).value(), 3);
  EXPECT_EQ(OlderTacticsText(1),
            "the mates in one of this database were searched by an earlier build (tactics "
            "version 1; this build's is " +
                std::to_string(kTacticsVersion) +
                "), which in rare positions could record a mate in one as none: index the "
                "collections again into a new database with --tactics to settle them");
}

}  // namespace
}  // namespace fived
