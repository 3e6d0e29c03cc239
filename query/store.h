// Reading games back from a 5dpgn-db database: the summary row of a game, its original text and
// canonical movetext (decompressed from its record), its headers in file order, and its actions
// as canonical move texts. Everything 5d-query shows about a game comes through here.
//
// A GameStore owns a read-only connection (schema/db.h): it never creates or changes a file, and
// it reads the last committed state while 5d-index appends. Not thread-safe: one store per thread.
#ifndef FIVED_QUERY_STORE_H_
#define FIVED_QUERY_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/decide.h"
#include "core/types.h"
#include "schema/db.h"
#include "schema/record.h"

namespace fived {

// The columns of games that listings show (schema/README.md documents each).
struct GameRow {
  int64_t id = 0;
  std::string source;  // sources.path
  std::string member;  // sources.member: the archive member the game is in ("" for a file)
  int64_t byte_offset = 0;
  int game_index = 0;
  std::string variant;
  int width = 8;
  int height = 8;
  bool even_start = false;
  std::string white, black, result, date, event;  // empty when the header is missing
  std::string white_key, black_key;  // search keys (schema/search_keys.h); empty when missing
  int32_t date_first = 0;            // the days the date may stand for, YYYYMMDD; 0 when the
  int32_t date_last = 0;             // game has no readable date
  int actions = 0;
  int timelines = 0;
  std::string final_md5;
  uint64_t start_key = 0;
  uint64_t final_key = 0;
  uint64_t identity = 0;
  int64_t duplicate_of = 0;  // 0: an original
  // How the game ends (schema/ending.h): the final position's verdict (nullopt: not decided),
  // the side in check there (nullopt: none), the witness of a playable verdict (empty
  // otherwise), the moves the search tried and whether the verdict contradicts the result.
  std::optional<Decision::Verdict> verdict;
  std::optional<Color> checked_side;
  std::string witness;
  int64_t verdict_work = 0;
  bool result_conflict = false;
};

// The SELECT list that ReadGameRow expects, for queries that join other conditions: the games
// table must be named `games` and sources joined as `sources`. It includes whether the row
// matches its checksum (schema/game_check.h).
extern const std::string kGameRowColumns;
// Reads a row selected with kGameRowColumns (columns 0 onwards). A row that does not match its
// checksum is an error with SQLITE_CORRUPT: "game 812: record damaged".
Result<GameRow> ReadGameRow(const Statement& statement);

// A game's texts, as stored in its record.
struct GameTexts {
  std::string text;   // the game exactly as it is in its source file
  std::string moves;  // canonical movetext (core/pgn_writer.h), without the result
};

// One action as canonical move texts, in the order played.
using ActionMoves = std::vector<std::string>;

// ForEachCanonicalToken, which reads canonical movetext, is in schema/record.h with the records.

// Splits canonical movetext into actions (a move before any marker opens one too).
std::vector<ActionMoves> SplitCanonicalMovetext(std::string_view movetext);

class GameStore {
 public:
  // Opens `path` read-only. A missing file, a file that is not a 5dpgn-db database or a database
  // of another schema version is an error whose message names the path. The connection has the
  // SQL function kNameKeyFunction (query/filter.h).
  static Result<GameStore> Open(const std::string& path);

  GameStore(GameStore&&) noexcept;
  GameStore& operator=(GameStore&&) noexcept;
  ~GameStore();

  Database& db() { return *db_; }

  // The game `id`, or nullopt when there is none; SQLITE_CORRUPT ("game 812: record damaged")
  // when its row does not match its checksum.
  Result<std::optional<GameRow>> Row(int64_t id);
  // The texts of game `id` (which must exist). Fails with SQLITE_CORRUPT ("game 812: record
  // damaged") when the row does not match its checksum or the record cannot be decompressed.
  Result<GameTexts> Texts(int64_t id);
  // Headers of game `id` in file order, as written (names with their case). Read from the
  // original text, so this includes every header of the game.
  Result<std::vector<std::pair<std::string, std::string>>> Headers(int64_t id);
  // The canonical actions of game `id`.
  Result<std::vector<ActionMoves>> Actions(int64_t id);

 private:
  struct Statements;
  explicit GameStore(Database db);
  // The codec of a dictionary (0: none), made on first use.
  Result<RecordCodec*> Codec(int64_t dictionary_id);

  std::unique_ptr<Database> db_;
  std::unique_ptr<Statements> s_;
  std::unique_ptr<RecordCodecs> codecs_;  // on the heap, like db_, so that moves keep it valid
};

// The header lines at the start of a game's text (headers and 5DFEN boards, up to the first line
// that does not start with '['), as written. The splitter (core/pgn_syntax.h) starts a new game at
// a header line after a blank line, so a game's headers are never interrupted by one.
std::string_view HeaderBlock(std::string_view text);
// Headers of a game's text in file order (empty when the text does not parse).
std::vector<std::pair<std::string, std::string>> HeadersOfText(std::string_view text);

}  // namespace fived

#endif  // FIVED_QUERY_STORE_H_
