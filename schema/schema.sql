-- 5dpgn-db schema: the tables. Applied once, in one transaction, when Database::Open creates a
-- database; the C++ side then writes the meta rows (meta.schema_version is kSchemaVersion of
-- schema/db.h). Secondary indexes are in indexes.sql so that a bulk load can drop and rebuild
-- them. schema/README.md documents every column and the history of the versions. What is written
-- here is frozen: any change makes a new schema version (git keeps the files of the old ones).
--
-- Keys and hashes (start_key, final_key, identity, text_hash) are unsigned
-- 64-bit values stored as the signed INTEGER with the same bits (KeyToSql in schema/db.h).

-- Facts about the database itself: schema_version, key_version, application, created_at.
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- Every input read: a file by its absolute path, or '-' for standard input, and each member of
-- an archive (zip, tar) with games. The row of a file itself (member '') records what the last
-- complete reading of it saw, so that an unchanged file is skipped and a grown one is read from
-- where its last game started: its size, modification time and XXH3-64 hash, and the offset,
-- line and number of its last game (NULL until a reading of the file completed).
CREATE TABLE sources (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  member TEXT NOT NULL DEFAULT '',
  size INTEGER CHECK (size >= 0),
  mtime_ns INTEGER,
  content_hash INTEGER,
  resume_offset INTEGER CHECK (resume_offset >= 0),
  resume_line INTEGER CHECK (resume_line >= 1),
  resume_games INTEGER CHECK (resume_games >= 0),
  first_indexed TEXT,
  last_indexed TEXT,
  UNIQUE (path, member)
);

-- Zstd dictionaries the game records are compressed with (schema/record.h), trained by the
-- indexer on the first games it stores.
CREATE TABLE dictionaries (
  id INTEGER PRIMARY KEY,
  data BLOB NOT NULL,
  created_at TEXT NOT NULL
);

-- One row per indexed game.
CREATE TABLE games (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES sources(id),
  byte_offset INTEGER NOT NULL CHECK (byte_offset >= 0),
  game_index INTEGER NOT NULL CHECK (game_index >= 1),
  text_hash INTEGER NOT NULL,
  variant TEXT NOT NULL,
  width INTEGER NOT NULL CHECK (width BETWEEN 1 AND 16),
  height INTEGER NOT NULL CHECK (height BETWEEN 1 AND 16),
  even_start INTEGER NOT NULL CHECK (even_start IN (0, 1)),
  white TEXT,
  black TEXT,
  result TEXT,
  date TEXT,
  event TEXT,
  -- Search keys (schema/search_keys.h): the players' names trimmed, their inner spaces made one,
  -- case-folded and in Unicode NFC (NULL when absent or blank), and the first and last day the
  -- Date header may stand for, as YYYYMMDD integers (NULL when absent, unknown or unreadable).
  white_key TEXT,
  black_key TEXT,
  date_min INTEGER,
  date_max INTEGER CHECK (date_max >= date_min),
  actions INTEGER NOT NULL CHECK (actions >= 0),
  timelines INTEGER NOT NULL CHECK (timelines >= 1),
  final_md5 TEXT NOT NULL,
  start_key INTEGER NOT NULL,
  final_key INTEGER NOT NULL,
  identity INTEGER NOT NULL,
  -- For a copy, the original it copies (schema/copies.h): an earlier game with the same identity
  -- and moves whose players, date and result agree with its own; NULL for an original.
  duplicate_of INTEGER REFERENCES games(id) CHECK (duplicate_of <> id),
  -- The original text and the canonical movetext, compressed together (schema/record.h) with
  -- the dictionary dictionary_id (NULL: no dictionary).
  record BLOB NOT NULL,
  dictionary_id INTEGER REFERENCES dictionaries(id),
  -- How the game ends (schema/ending.h): the verdict on the final position for the side to move,
  -- 1 checkmate, 2 stalemate, 3 playable, 4 unknown (the search ran out of its budget), NULL
  -- when it was not decided; the side in check there (0 white, 1 black; NULL when neither is or
  -- the verdict is NULL); one legal action in canonical move texts (playable only); the moves
  -- the search tried; and 1 when the verdict contradicts the game's result (Result header or
  -- the result closing its movetext).
  verdict INTEGER CHECK (verdict BETWEEN 1 AND 4),
  checked_side INTEGER CHECK (checked_side IN (0, 1)),
  witness TEXT,
  verdict_work INTEGER CHECK (verdict_work >= 0),
  result_conflict INTEGER NOT NULL DEFAULT 0 CHECK (result_conflict IN (0, 1)),
  -- XXH3-64 of the columns above but id, source_id, duplicate_of and dictionary_id
  -- (schema/game_check.h), as a key: a row or record that no longer matches it is damaged.
  checksum INTEGER NOT NULL,
  -- The same text at the same place of the same file is the same game: re-indexing adds nothing.
  UNIQUE (source_id, byte_offset, text_hash)
);

-- Every header of every game, stored by name and value: finding games by a header is one range
-- of this table, with no second copy in an index. Names compare case-insensitively (ASCII),
-- values exactly. (A game's headers in file order are in its record, games.record.)
CREATE TABLE headers (
  name TEXT NOT NULL COLLATE NOCASE,
  value TEXT NOT NULL,
  game_id INTEGER NOT NULL REFERENCES games(id),
  position INTEGER NOT NULL CHECK (position >= 0),
  PRIMARY KEY (name, value, game_id, position)
) WITHOUT ROWID;

-- Posting lists of state keys (format: schema/postings.h). The key space is cut
-- into 16,384 buckets by a key's top 14 bits. Each write transaction adds one chunk of postings
-- per bucket it touches, all numbered with the transaction's chunk number (one more than the
-- table's largest), so a transaction appends to the end of the table instead of touching every
-- page of it. "Which games reached this state" reads the key's bucket in every chunk number.
-- Every state of every game (action 0 = the start) with its action and side to move. (Boards
-- are found through the pattern index below.)
CREATE TABLE state_postings (
  chunk INTEGER NOT NULL CHECK (chunk >= 0),
  bucket INTEGER NOT NULL CHECK (bucket BETWEEN 0 AND 16383),
  data BLOB NOT NULL,
  PRIMARY KEY (chunk, bucket)
) WITHOUT ROWID;

-- Per-position action statistics (schema/position_stats.h), kept up to date by the indexer as an
-- opening explorer keeps them: for every position original games reached within their first
-- meta.position_stats_actions actions, one row per action played from it. action: XXH3-64 of the
-- move texts sorted and joined by ' ', as a key (0 for the games that ended in the position);
-- text: the move texts in the order the first game played them; the games, their results
-- (derived: from a proven ending) and the first and last of their dates as YYYYMMDD (99 for an
-- unknown month or day). A tree of such a position reads its rows instead of its games' records.
CREATE TABLE position_actions (
  state_key INTEGER NOT NULL,
  action INTEGER NOT NULL,
  text TEXT,
  games INTEGER NOT NULL CHECK (games >= 1),
  white_wins INTEGER NOT NULL,
  draws INTEGER NOT NULL,
  black_wins INTEGER NOT NULL,
  derived INTEGER NOT NULL,
  first_day INTEGER,
  last_day INTEGER,
  PRIMARY KEY (state_key, action)
) WITHOUT ROWID;

-- Every state of every game by its specification MD5, as state_postings holds them by state key:
-- the key is the MD5's first 8 bytes (big endian). Written only when meta.state_md5 is 'all'
-- (5d-index --all-state-md5 on a new database); with 'final', --state-md5 finds final states
-- through games.final_md5 alone.
CREATE TABLE md5_postings (
  chunk INTEGER NOT NULL CHECK (chunk >= 0),
  bucket INTEGER NOT NULL CHECK (bucket BETWEEN 0 AND 16383),
  data BLOB NOT NULL,
  PRIMARY KEY (chunk, bucket)
) WITHOUT ROWID;

-- Every distinct board of every game by its content key (schema/postings.h: 1 byte of key below
-- the bucket, no value): the candidates of an exact board (--board), which the pattern index
-- confirms.
CREATE TABLE board_keys (
  chunk INTEGER NOT NULL CHECK (chunk >= 0),
  bucket INTEGER NOT NULL CHECK (bucket BETWEEN 0 AND 16383),
  data BLOB NOT NULL,
  PRIMARY KEY (chunk, bucket)
) WITHOUT ROWID;

-- The pattern index (schema/pattern_index.h): every board of every game as a board stream
-- (core/board_stream.h), the streams of consecutive games in zstd blocks keyed by their first
-- and last game id; and for each piece feature (a board size, a square and a piece byte) the
-- games some board of which holds it, one chunk per write transaction as in the other posting
-- tables, with each feature's count of games. `5d-query --pattern` and `--board` read them
-- instead of replaying games.
CREATE TABLE board_streams (
  first_game INTEGER PRIMARY KEY,
  last_game INTEGER NOT NULL CHECK (last_game >= first_game),
  data BLOB NOT NULL
);

CREATE TABLE piece_postings (
  chunk INTEGER NOT NULL CHECK (chunk >= 0),
  feature INTEGER NOT NULL CHECK (feature >= 0),
  data BLOB NOT NULL,
  PRIMARY KEY (chunk, feature)
) WITHOUT ROWID;

-- How many games each piece feature has (the sum of its chunks' games), so that a search narrows
-- by the rarest pieces a pattern names first.
CREATE TABLE piece_counts (
  feature INTEGER PRIMARY KEY,
  games INTEGER NOT NULL CHECK (games >= 0)
);

-- Mates in one (5d-index --tactics; meta.tactics is 'on'), core/tactics.h: one row per position
-- of a game (after `action` actions; 0 = the start) in which the side to move (`side`, 0 white,
-- 1 black) had a proven mate in one (answer 1), or whose search ran out of its budget before
-- settling it (answer 3, nothing claimed). A position of such a game without a row was proved to
-- have no mate in one. For answer 1: the mating actions found (`mating`, every one when
-- `complete` is 1, a lower bound otherwise), one of them in canonical move texts (`solution`, in
-- the position before it) and whether the action played from the position mated (`played`: 1
-- found, 0 missed; NULL for the final position, from which no action was played, and when it
-- could not be proved). The action played from the position before a row of answer 1 allowed
-- that mate. The integers are frozen (schema/tactics.h).
CREATE TABLE tactics (
  game_id INTEGER NOT NULL REFERENCES games(id),
  action INTEGER NOT NULL CHECK (action >= 0),
  side INTEGER NOT NULL CHECK (side IN (0, 1)),
  answer INTEGER NOT NULL CHECK (answer IN (1, 3)),
  mating INTEGER CHECK (mating >= 1),
  complete INTEGER NOT NULL CHECK (complete IN (0, 1)),
  played INTEGER CHECK (played IN (0, 1)),
  solution TEXT,
  PRIMARY KEY (game_id, action)
) WITHOUT ROWID;

-- Games that could not be indexed, with where and why.
CREATE TABLE rejected (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES sources(id),
  byte_offset INTEGER NOT NULL CHECK (byte_offset >= 0),
  game_index INTEGER NOT NULL CHECK (game_index >= 1),
  text_hash INTEGER NOT NULL,
  line INTEGER,
  col INTEGER,
  token TEXT,
  message TEXT NOT NULL,
  text TEXT NOT NULL,
  UNIQUE (source_id, byte_offset, text_hash)
);
