-- PostgreSQL twin of ../0002_store_id.sql: a random id for this corpus, made once, that a saved
-- index (on every host) records, so a database dropped and created under the same name never
-- takes an old index as its own.
ALTER TABLE corpus_state ADD COLUMN store_id TEXT NOT NULL DEFAULT '';
UPDATE corpus_state SET store_id = replace(gen_random_uuid()::text, '-', '') WHERE id = 1;
