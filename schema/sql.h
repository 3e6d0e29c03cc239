// The SQL files of schema/, embedded in the binary at build time by schema/embed_sql.cmake (see
// schema/CMakeLists.txt): schema/NAME.sql becomes kNameSql, holding the file's exact bytes. The
// views point into static storage and are valid for the whole program.
#ifndef FIVED_SCHEMA_SQL_H_
#define FIVED_SCHEMA_SQL_H_

#include <string_view>

namespace fived::sql {

// schema/schema_v6.sql: the tables of schema version 6.
extern const std::string_view kSchemaV6Sql;
// schema/indexes_v6.sql: the secondary indexes of schema version 6; every statement is
// CREATE INDEX IF NOT EXISTS, so running it again after dropping indexes rebuilds them.
extern const std::string_view kIndexesV6Sql;
// schema/drop_indexes_v6.sql: drops those indexes (DROP INDEX IF EXISTS), for bulk loads.
extern const std::string_view kDropIndexesV6Sql;

}  // namespace fived::sql

#endif  // FIVED_SCHEMA_SQL_H_
