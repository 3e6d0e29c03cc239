// The columns of the games table (schema/schema.sql) as C++ knows them: each column's name and
// storage type, split into the game's own values and the numbers that name other rows. Code that
// copies whole rows (5d-index merge) builds its SQL from these lists, and a test holds them to the
// table that schema.sql creates (tests/indexer/merge_test.cc), so that a column added to the
// schema and not here fails a test instead of being silently left behind.
#ifndef FIVED_SCHEMA_GAME_COLUMNS_H_
#define FIVED_SCHEMA_GAME_COLUMNS_H_

#include <array>
#include <cstddef>
#include <string_view>

namespace fived {

// How a column's values are stored and bound: the column's declared type in schema.sql.
enum class ColumnType { kInteger, kText, kBlob };

struct GameColumn {
  std::string_view name;
  ColumnType type;
};

// The game's own values, in schema.sql's order: every column of games but kGameReferenceColumns.
// They are those of the row's checksum (schema/game_check.h), then the checksum itself.
inline constexpr std::array<GameColumn, 29> kGameValueColumns = {{
    {"byte_offset", ColumnType::kInteger},
    {"game_index", ColumnType::kInteger},
    {"text_hash", ColumnType::kInteger},
    {"variant", ColumnType::kText},
    {"width", ColumnType::kInteger},
    {"height", ColumnType::kInteger},
    {"even_start", ColumnType::kInteger},
    {"white", ColumnType::kText},
    {"black", ColumnType::kText},
    {"result", ColumnType::kText},
    {"date", ColumnType::kText},
    {"event", ColumnType::kText},
    {"white_key", ColumnType::kText},
    {"black_key", ColumnType::kText},
    {"date_min", ColumnType::kInteger},
    {"date_max", ColumnType::kInteger},
    {"actions", ColumnType::kInteger},
    {"timelines", ColumnType::kInteger},
    {"final_md5", ColumnType::kText},
    {"start_key", ColumnType::kInteger},
    {"final_key", ColumnType::kInteger},
    {"identity", ColumnType::kInteger},
    {"record", ColumnType::kBlob},
    {"verdict", ColumnType::kInteger},
    {"checked_side", ColumnType::kInteger},
    {"witness", ColumnType::kText},
    {"verdict_work", ColumnType::kInteger},
    {"result_conflict", ColumnType::kInteger},
    {"checksum", ColumnType::kInteger},
}};

// The columns of games that hold ids of rows (of games, sources, dictionaries): a copy of the row
// into another database gives them that database's ids.
inline constexpr std::array<std::string_view, 4> kGameReferenceColumns = {
    "id", "source_id", "duplicate_of", "dictionary_id"};

// The place of column `name` in kGameValueColumns; kGameValueColumns.size() when it is not one
// (use it in a constant expression and check it with static_assert).
constexpr size_t GameValueColumn(std::string_view name) {
  size_t i = 0;
  while (i < kGameValueColumns.size() && kGameValueColumns[i].name != name) ++i;
  return i;
}

}  // namespace fived

#endif  // FIVED_SCHEMA_GAME_COLUMNS_H_
