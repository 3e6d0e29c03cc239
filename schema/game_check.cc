// The checksum of a game's row; see game_check.h.
#include "schema/game_check.h"

#include <sqlite3.h>
#include <xxhash.h>

#include <cstdint>
#include <cstring>
#include <memory>

namespace fived {
namespace {

void UpdateLittleEndian(XXH3_state_t* state, uint64_t value, int bytes) {
  unsigned char out[8];
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
  XXH3_64bits_update(state, out, static_cast<size_t>(bytes));
}

void GameCheck(sqlite3_context* context, int count, sqlite3_value** args) {
  struct Free {
    void operator()(XXH3_state_t* s) const { XXH3_freeState(s); }
  };
  const std::unique_ptr<XXH3_state_t, Free> state(XXH3_createState());
  if (state == nullptr) {
    sqlite3_result_error_nomem(context);
    return;
  }
  XXH3_64bits_reset(state.get());
  for (int i = 0; i < count; ++i) {
    sqlite3_value* value = args[i];
    const int type = sqlite3_value_type(value);
    switch (type) {
      case SQLITE_INTEGER:
        UpdateLittleEndian(state.get(), 1, 1);
        UpdateLittleEndian(state.get(), static_cast<uint64_t>(sqlite3_value_int64(value)), 8);
        break;
      case SQLITE_FLOAT: {
        const double real = sqlite3_value_double(value);
        uint64_t bits = 0;
        std::memcpy(&bits, &real, sizeof bits);
        UpdateLittleEndian(state.get(), 2, 1);
        UpdateLittleEndian(state.get(), bits, 8);
        break;
      }
      case SQLITE_TEXT:
      case SQLITE_BLOB: {
        // Asked for before the size, as SQLite's documentation says to.
        const void* bytes = type == SQLITE_TEXT
                                ? static_cast<const void*>(sqlite3_value_text(value))
                                : sqlite3_value_blob(value);
        const int size = sqlite3_value_bytes(value);
        UpdateLittleEndian(state.get(), type == SQLITE_TEXT ? 3 : 4, 1);
        UpdateLittleEndian(state.get(), static_cast<uint32_t>(size), 4);
        if (size > 0) XXH3_64bits_update(state.get(), bytes, static_cast<size_t>(size));
        break;
      }
      default:
        UpdateLittleEndian(state.get(), 5, 1);
        break;
    }
  }
  sqlite3_result_int64(context, static_cast<sqlite3_int64>(XXH3_64bits_digest(state.get())));
}

}  // namespace

const char* const kGameSoundSql =
    "fived_game_check(games.byte_offset, games.game_index, games.text_hash, games.variant, "
    "games.width, games.height, games.even_start, games.white, games.black, games.result, "
    "games.date, games.event, games.white_key, games.black_key, games.date_min, games.date_max, "
    "games.actions, games.timelines, games.final_md5, games.start_key, games.final_key, "
    "games.identity, games.record, games.verdict, games.checked_side, games.witness, "
    "games.verdict_work, games.result_conflict) = games.checksum";

int RegisterGameCheck(sqlite3* db) {
  return sqlite3_create_function_v2(db, kGameCheckFunction, -1,
                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr,
                                    GameCheck, nullptr, nullptr, nullptr);
}

}  // namespace fived
