-- 5dpgn-db schema, version 1: secondary indexes. Part of the version-1 schema (a new database
-- gets them right after schema_v1.sql); kept apart so that a bulk load may drop them and run this
-- file again afterwards (every statement is IF NOT EXISTS). schema/README.md explains each choice.

-- Duplicate detection looks up every new game's identity; "all copies of a game" too.
CREATE INDEX IF NOT EXISTS games_identity ON games(identity);
-- Games by player: the most common search.
CREATE INDEX IF NOT EXISTS games_white ON games(white);
CREATE INDEX IF NOT EXISTS games_black ON games(black);
-- Few distinct values, but game rows are wide (they hold the text), so counting or filtering by
-- variant, duplicates counted once or not, reads this narrow covering index instead of the table.
CREATE INDEX IF NOT EXISTS games_variant ON games(variant, duplicate_of);
-- Only duplicates have duplicate_of, so this partial index stays small.
CREATE INDEX IF NOT EXISTS games_duplicate_of ON games(duplicate_of)
  WHERE duplicate_of IS NOT NULL;
-- Headers need no index: their table is keyed by (name, value).
