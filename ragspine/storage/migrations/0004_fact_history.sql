-- Superseded facts: when a changed source file is ingested again, its facts move here (with the
-- time they were superseded) and the new version's facts take their place. Nothing is lost.
CREATE TABLE fact_history (
    id                 INTEGER PRIMARY KEY,
    metric_code        TEXT NOT NULL,
    entity             TEXT NOT NULL,
    geography          TEXT NOT NULL,
    channel            TEXT NOT NULL,
    period_type        TEXT NOT NULL,
    period             TEXT NOT NULL,
    value              REAL NOT NULL,
    unit               TEXT NOT NULL,
    source_doc_id      TEXT NOT NULL,
    source_locator     TEXT NOT NULL,
    source_file_hash   TEXT NOT NULL DEFAULT '',
    extractor_version  TEXT NOT NULL DEFAULT '',
    mapping_version    TEXT NOT NULL DEFAULT '',
    value_text         TEXT NOT NULL DEFAULT '',
    superseded_at      TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE INDEX ix_fact_history_doc ON fact_history (source_doc_id);
CREATE INDEX ix_fact_metric_doc ON fact_metric (source_doc_id);
