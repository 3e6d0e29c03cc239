-- 5dpgn-db schema: the secondary indexes (a new database gets them right after the tables of
-- schema.sql). They are kept apart so that a bulk load may drop them and run this file again
-- afterwards (every statement is IF NOT EXISTS). schema/README.md explains each choice.

-- The indexer looks up the originals of every new game's identity (duplicate_of IS NULL: one
-- range of the index, without the copies, however many there are); "all games with these moves"
-- too.
CREATE INDEX IF NOT EXISTS games_identity ON games(identity, duplicate_of);
-- Games by player, the most common search. The keys are case-folded already, so 5d-query's
-- --player, --white and --black fold what users type the same way: `white_key = ?1` and
-- `white_key GLOB ?1` (with a literal prefix) are index lookups.
CREATE INDEX IF NOT EXISTS games_white_key ON games(white_key);
CREATE INDEX IF NOT EXISTS games_black_key ON games(black_key);
-- The rare games where one player has both sides, so that a player's games are counted as
-- white's plus black's less these, three index ranges, without reading a row: query with
-- `white_key = black_key AND white_key = ?1`, the index's own condition. Databases made before
-- 2026-11-25 lack it and count the same, more slowly.
CREATE INDEX IF NOT EXISTS games_self_play ON games(white_key) WHERE white_key = black_key;
-- Games by date range (--date-from, --date-to) and sorted by date.
CREATE INDEX IF NOT EXISTS games_date ON games(date_min);
-- Games by the specification's MD5 of their final state (5d-query --state-md5). The first 8 hex
-- digits are selective enough and keep the index small: query with
-- `substr(final_md5, 1, 8) = substr(?1, 1, 8) AND +final_md5 = ?1` (the unary + keeps SQLite from
-- substituting ?1 for final_md5 in the first term, which would hide the index).
CREATE INDEX IF NOT EXISTS games_final_md5 ON games(substr(final_md5, 1, 8));
-- Few distinct values, but game rows are wide (they hold the text), so counting or filtering by
-- variant, duplicates counted once or not, reads this narrow covering index instead of the table.
CREATE INDEX IF NOT EXISTS games_variant ON games(variant, duplicate_of);
-- Only duplicates have duplicate_of, so this partial index stays small.
CREATE INDEX IF NOT EXISTS games_duplicate_of ON games(duplicate_of)
  WHERE duplicate_of IS NOT NULL;
-- Games by how they end (5d-query --ending, and stats counting endings): few values, so a narrow
-- covering index like games_variant's.
CREATE INDEX IF NOT EXISTS games_verdict ON games(verdict, duplicate_of);
-- Result conflicts are rare, so this partial index stays small; query with
-- `result_conflict = 1`, the index's own condition.
CREATE INDEX IF NOT EXISTS games_result_conflict ON games(duplicate_of)
  WHERE result_conflict = 1;
-- Headers need no index: their table is keyed by (name, value).
