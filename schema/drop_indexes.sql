-- Drops the secondary indexes of indexes.sql, for a bulk load into an empty database:
-- 5d-index drops them when it starts on a database without games and builds them again with
-- indexes.sql before its last commit (building an index from the finished table sorts once,
-- which costs far less than keeping it up to date row by row). If the load is interrupted, the
-- next 5d-index run on the database builds them first. Queries are right without them, only
-- slower.
DROP INDEX IF EXISTS games_identity;
DROP INDEX IF EXISTS games_white_key;
DROP INDEX IF EXISTS games_black_key;
DROP INDEX IF EXISTS games_self_play;
DROP INDEX IF EXISTS games_date;
DROP INDEX IF EXISTS games_final_md5;
DROP INDEX IF EXISTS games_variant;
DROP INDEX IF EXISTS games_duplicate_of;
DROP INDEX IF EXISTS games_verdict;
DROP INDEX IF EXISTS games_result_conflict;
