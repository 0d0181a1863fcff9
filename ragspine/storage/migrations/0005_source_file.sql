-- Every file ingested, with the hash it was ingested at, even when it gave no facts: an unchanged
-- file is skipped only when both stores hold its current version.
CREATE TABLE source_file (
    doc_id       TEXT PRIMARY KEY,
    file_hash    TEXT NOT NULL,
    facts        INTEGER NOT NULL,
    ingested_at  TEXT NOT NULL DEFAULT (datetime('now'))
);

INSERT INTO source_file (doc_id, file_hash, facts)
SELECT source_doc_id, MAX(source_file_hash), COUNT(*) FROM fact_metric
WHERE source_file_hash != '' GROUP BY source_doc_id;
