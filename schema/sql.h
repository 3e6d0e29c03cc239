// The SQL files of schema/, embedded in the binary at build time by schema/embed_sql.cmake (see
// schema/CMakeLists.txt): schema/NAME.sql becomes kNameSql, holding the file's exact bytes. The
// views point into static storage and are valid for the whole program.
#ifndef FIVED_SCHEMA_SQL_H_
#define FIVED_SCHEMA_SQL_H_

#include <string_view>

namespace fived::sql {

// schema/schema.sql: the tables of schema version kSchemaVersion (schema/db.h).
extern const std::string_view kSchemaSql;
// schema/indexes.sql: its secondary indexes; every statement is CREATE INDEX IF NOT EXISTS, so
// running it again after dropping indexes rebuilds them.
extern const std::string_view kIndexesSql;
// schema/drop_indexes.sql: drops those indexes (DROP INDEX IF EXISTS), for bulk loads.
extern const std::string_view kDropIndexesSql;

}  // namespace fived::sql

#endif  // FIVED_SCHEMA_SQL_H_
