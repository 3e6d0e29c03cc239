-- 5dpgn-db schema, version 1: the tables. Applied once, in one transaction, when Database::Open
-- creates a database; the C++ side then writes the meta rows. Secondary indexes are in
-- indexes_v1.sql so that a bulk load can drop and rebuild them. schema/README.md documents every
-- column. What is written here is frozen: any change is a new file and a new schema version.
--
-- Keys and hashes (start_key, final_key, identity, text_hash, states.key, boards.key) are unsigned
-- 64-bit values stored as the signed INTEGER with the same bits (KeyToSql in schema/db.h).

-- Facts about the database itself: schema_version, key_version, application, created_at.
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- Every input read: a file by its absolute path, or '-' for standard input.
CREATE TABLE sources (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  size INTEGER,
  first_indexed TEXT,
  last_indexed TEXT
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
  actions INTEGER NOT NULL CHECK (actions >= 0),
  timelines INTEGER NOT NULL CHECK (timelines >= 1),
  final_md5 TEXT NOT NULL,
  start_key INTEGER NOT NULL,
  final_key INTEGER NOT NULL,
  identity INTEGER NOT NULL,
  duplicate_of INTEGER REFERENCES games(id) CHECK (duplicate_of <> id),
  moves TEXT NOT NULL,
  text TEXT NOT NULL,
  -- The same text at the same place of the same file is the same game: re-indexing adds nothing.
  UNIQUE (source_id, byte_offset, text_hash)
);

-- Every header of a game, in file order. Names compare case-insensitively (ASCII), values
-- exactly.
CREATE TABLE headers (
  game_id INTEGER NOT NULL REFERENCES games(id),
  position INTEGER NOT NULL CHECK (position >= 0),
  name TEXT NOT NULL COLLATE NOCASE,
  value TEXT NOT NULL,
  PRIMARY KEY (game_id, position)
) WITHOUT ROWID;

-- The state key after each action (action 0 = the starting position). Keyed by the state so that
-- "which games reached this position" is one index range. game_id is a games.id; it is not
-- declared a foreign key because this is the bulk table (one check per row would cost a lookup).
CREATE TABLE states (
  key INTEGER NOT NULL,
  game_id INTEGER NOT NULL,
  action INTEGER NOT NULL CHECK (action >= 0),
  to_move INTEGER NOT NULL CHECK (to_move IN (0, 1)),
  PRIMARY KEY (key, game_id, action)
) WITHOUT ROWID;

-- Every board of a game's final state, by content key, with its place and the action that
-- created it (0 for the starting boards). Not a foreign key, as for states.
CREATE TABLE boards (
  key INTEGER NOT NULL,
  game_id INTEGER NOT NULL,
  timeline INTEGER NOT NULL,
  half_turn INTEGER NOT NULL CHECK (half_turn >= 0),
  action INTEGER NOT NULL CHECK (action >= 0),
  PRIMARY KEY (key, game_id, timeline, half_turn)
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
