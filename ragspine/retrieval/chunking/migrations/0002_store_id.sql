-- A random id for this corpus, made once, when its store is created (or first upgraded): a
-- saved index records it, so a store made again at the same place (a file deleted, a database
-- dropped and created) never takes an old index as its own, whatever its generation.
ALTER TABLE corpus_state ADD COLUMN store_id TEXT NOT NULL DEFAULT '';
UPDATE corpus_state SET store_id = lower(hex(randomblob(16))) WHERE id = 1;
