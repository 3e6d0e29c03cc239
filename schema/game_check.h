// The checksum of a game's row (games.checksum): XXH3-64 of the values the game was stored with,
// so that a damaged row or record is found as damaged ("game 812: record damaged") instead of
// being shown as a game. It covers every column of the game except the numbers that name other
// rows (id, source_id, duplicate_of, dictionary_id), which `5d-index merge` renumbers and which
// SQLite's own checks watch: the unique key (source_id, byte_offset, text_hash) and the indexes
// on duplicate_of hold copies of them that PRAGMA integrity_check compares with the table, and a
// record read with another dictionary does not decompress.
//
// The checksum is computed by SQL, through the function kGameCheckFunction that OpenDatabase
// (db.h) registers on every connection: the writers store
// `fived_game_check(<kGameCheckColumns>)` in `checksum`, and a reader compares the two. The hashed
// bytes are, for each argument in order, a type byte (1 integer, 2 real, 3 text, 4 blob, 5 NULL)
// and then: an integer as 8 bytes little endian (two's complement), a real as the 8 bytes of its
// IEEE double little endian, a text or blob as its length in 4 bytes little endian and its
// bytes; XXH3-64 with seed 0 of them all, stored as a key (KeyToSql). Frozen with the schema
// version.
#ifndef FIVED_SCHEMA_GAME_CHECK_H_
#define FIVED_SCHEMA_GAME_CHECK_H_

struct sqlite3;

namespace fived {

// The SQL function's name and the columns it takes, in order (28 of them).
inline constexpr const char* kGameCheckFunction = "fived_game_check";
inline constexpr const char* kGameCheckColumns =
    "byte_offset, game_index, text_hash, variant, width, height, even_start, white, black, "
    "result, date, event, white_key, black_key, date_min, date_max, actions, timelines, "
    "final_md5, start_key, final_key, identity, record, verdict, checked_side, witness, "
    "verdict_work, result_conflict";
inline constexpr int kGameCheckArguments = 28;
// `fived_game_check(<kGameCheckColumns with games. before each>) = games.checksum`: 1 when the
// row is sound, 0 when it is damaged (for a SELECT that joins games with other tables).
extern const char* const kGameSoundSql;

// Registers kGameCheckFunction (deterministic, any number of arguments) on `db`. Returns SQLite's
// result code.
int RegisterGameCheck(sqlite3* db);

}  // namespace fived

#endif  // FIVED_SCHEMA_GAME_CHECK_H_
