// Reading games back from the database; see store.h.
#include "query/store.h"

#include <sqlite3.h>  // SQLITE_CORRUPT for a damaged record

#include <cctype>

#include "core/pgn_syntax.h"
#include "query/filter.h"
#include "schema/ending.h"
#include "schema/game_check.h"
#include "schema/search_keys.h"

namespace fived {

// The last column is kGameSoundSql (schema/game_check.h): 1 when the row matches its checksum.
const std::string kGameRowColumns =
    std::string(
        "games.id, sources.path, games.byte_offset, games.game_index, games.variant, games.width, "
        "games.height, games.even_start, games.white, games.black, games.result, games.date, "
        "games.event, games.actions, games.timelines, games.final_md5, games.start_key, "
        "games.final_key, games.identity, games.duplicate_of, games.white_key, games.black_key, "
        "games.date_min, games.date_max, games.verdict, games.checked_side, games.witness, "
        "games.verdict_work, games.result_conflict, sources.member, ") +
    kGameSoundSql;

Result<GameRow> ReadGameRow(const Statement& s) {
  if (s.Int64(30) != 1) {
    return Status::Database("game " + std::to_string(s.Int64(0)) + ": record damaged",
                            SQLITE_CORRUPT);
  }
  GameRow row;
  row.id = s.Int64(0);
  row.source = std::string(s.Text(1));
  row.byte_offset = s.Int64(2);
  row.game_index = static_cast<int>(s.Int64(3));
  row.variant = std::string(s.Text(4));
  row.width = static_cast<int>(s.Int64(5));
  row.height = static_cast<int>(s.Int64(6));
  row.even_start = s.Int64(7) != 0;
  row.white = std::string(s.Text(8));
  row.black = std::string(s.Text(9));
  row.result = std::string(s.Text(10));
  row.date = std::string(s.Text(11));
  row.event = std::string(s.Text(12));
  row.actions = static_cast<int>(s.Int64(13));
  row.timelines = static_cast<int>(s.Int64(14));
  row.final_md5 = std::string(s.Text(15));
  row.start_key = KeyFromSql(s.Int64(16));
  row.final_key = KeyFromSql(s.Int64(17));
  row.identity = KeyFromSql(s.Int64(18));
  row.duplicate_of = s.Int64(19);
  row.white_key = std::string(s.Text(20));
  row.black_key = std::string(s.Text(21));
  row.date_first = static_cast<int32_t>(s.Int64(22));
  row.date_last = static_cast<int32_t>(s.Int64(23));
  if (!s.IsNull(24)) row.verdict = VerdictFromSql(s.Int64(24));
  if (!s.IsNull(25)) row.checked_side = SideFromSql(s.Int64(25));
  row.witness = std::string(s.Text(26));
  row.verdict_work = s.Int64(27);
  row.result_conflict = s.Int64(28) != 0;
  row.member = std::string(s.Text(29));
  return row;
}

std::vector<ActionMoves> SplitCanonicalMovetext(std::string_view movetext) {
  std::vector<ActionMoves> actions;
  ForEachCanonicalToken(movetext, [&](std::string_view token, bool opens_action) {
    if (opens_action || actions.empty()) actions.emplace_back();
    if (!opens_action) actions.back().emplace_back(token);
    return true;
  });
  return actions;
}

std::string_view HeaderBlock(std::string_view text) {
  // A byte-order mark the splitter left (a second one, or one inside a file) hides nothing.
  size_t end = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (end < text.size()) {
    size_t first = end;
    while (first < text.size() && (text[first] == ' ' || text[first] == '\t')) ++first;
    if (first >= text.size() || text[first] != '[') break;
    const size_t newline = text.find('\n', end);
    end = newline == std::string_view::npos ? text.size() : newline + 1;
  }
  return text.substr(0, end);
}

std::vector<std::pair<std::string, std::string>> HeadersOfText(std::string_view text) {
  // Headers come first: only they are parsed (5DFEN board lines among them are told apart by
  // the parser).
  const SyntaxResult parsed = ParseGameSyntax(HeaderBlock(text));
  std::vector<std::pair<std::string, std::string>> headers;
  headers.reserve(parsed.game.headers.size());
  for (const Header& h : parsed.game.headers) headers.emplace_back(h.name, h.value);
  return headers;
}

struct GameStore::Statements {
  Statement row, record;
};

GameStore::GameStore(Database db)
    : db_(std::make_unique<Database>(std::move(db))),
      s_(std::make_unique<Statements>()),
      codecs_(std::make_unique<RecordCodecs>(*db_)) {}
GameStore::GameStore(GameStore&&) noexcept = default;
GameStore& GameStore::operator=(GameStore&&) noexcept = default;
GameStore::~GameStore() {
  // Statements before their connection.
  s_.reset();
  codecs_.reset();
  db_.reset();
}

Result<GameStore> GameStore::Open(const std::string& path) {
  Result<Database> opened = OpenDatabase(path, OpenMode::kReadOnly);
  if (!opened.ok()) return opened.error();
  GameStore store(std::move(opened).value());
  // Searches read postings and records all over the file: mapping it saves a copy per page read
  // (about 10% of an opening tree). As much as SQLite maps (its limit, 2 GiB as Debian builds it;
  // the pages past it are read by copy). Failing to map is harmless, so errors are ignored.
  (void)store.db_->Exec("PRAGMA mmap_size = 1099511627776");
  if (Status error = store.db_->RegisterTextFunction(kNameKeyFunction, NameKey); !error.ok()) {
    return Status::Database(path + ": " + error.message(), error.detail());
  }
  const std::string row_sql = std::string("SELECT ") + kGameRowColumns +
                              " FROM games JOIN sources ON sources.id = games.source_id"
                              " WHERE games.id = ?1";
  const std::string record_sql =
      std::string("SELECT record, dictionary_id, ") + kGameSoundSql + " FROM games WHERE id = ?1";
  for (auto [statement, sql] : {
           std::pair{&store.s_->row, std::string_view(row_sql)},
           std::pair{&store.s_->record, std::string_view(record_sql)},
       }) {
    Result<Statement> prepared = store.db_->Prepare(sql);
    if (!prepared.ok()) return prepared.error();
    *statement = std::move(prepared).value();
  }
  return store;
}

Result<std::optional<GameRow>> GameStore::Row(int64_t id) {
  Statement& s = s_->row;
  s.Reset().Bind(1, id);
  Result<StepResult> step = s.Step();
  if (!step.ok()) return step.error();
  std::optional<GameRow> row;
  if (step.value() == StepResult::kRow) {
    Result<GameRow> read = ReadGameRow(s);
    if (!read.ok()) {
      s.Reset();
      return read.error();
    }
    row = std::move(read).value();
  }
  s.Reset();
  return row;
}

Result<RecordCodec*> GameStore::Codec(int64_t dictionary_id) {
  Result<RecordCodec*> codec = codecs_->For(dictionary_id);
  if (codec.ok() && codec.value() == nullptr) {
    return Status::Database("dictionary " + std::to_string(dictionary_id) + " is missing", 1);
  }
  return codec;
}

Result<GameTexts> GameStore::Texts(int64_t id) {
  Statement& s = s_->record;
  s.Reset().Bind(1, id);
  Result<StepResult> step = s.Step();
  if (!step.ok()) return step.error();
  if (step.value() != StepResult::kRow) {
    return Status::Database("game " + std::to_string(id) + " does not exist", 1);
  }
  if (s.Int64(2) != 1) {
    s.Reset();
    return Status::Database("game " + std::to_string(id) + ": record damaged", SQLITE_CORRUPT);
  }
  Result<RecordCodec*> codec = Codec(s.Int64(1));
  if (!codec.ok()) {
    s.Reset();
    return codec.error();
  }
  GameTexts texts;
  const bool ok = codec.value()->Decompress(s.Blob(0), &texts.text, &texts.moves);
  s.Reset();
  if (!ok)
    return Status::Database("game " + std::to_string(id) + ": record damaged", SQLITE_CORRUPT);
  return texts;
}

Result<std::vector<std::pair<std::string, std::string>>> GameStore::Headers(int64_t id) {
  Result<GameTexts> texts = Texts(id);
  if (!texts.ok()) return texts.error();
  return HeadersOfText(texts.value().text);
}

Result<std::vector<ActionMoves>> GameStore::Actions(int64_t id) {
  Result<GameTexts> texts = Texts(id);
  if (!texts.ok()) return texts.error();
  return SplitCanonicalMovetext(texts.value().moves);
}

}  // namespace fived
