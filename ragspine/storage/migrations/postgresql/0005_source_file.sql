-- PostgreSQL twin of ../0005_source_file.sql.
CREATE TABLE source_file (
    doc_id       TEXT PRIMARY KEY,
    file_hash    TEXT NOT NULL,
    facts        INTEGER NOT NULL,
    ingested_at  TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'))
);

INSERT INTO source_file (doc_id, file_hash, facts)
SELECT source_doc_id, MAX(source_file_hash), COUNT(*) FROM fact_metric
WHERE source_file_hash != '' GROUP BY source_doc_id;
