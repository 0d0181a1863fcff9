-- The fact table: one row per controlled (metric, entity, channel, period), lineage NOT NULL.
CREATE TABLE fact_metric (
    id              INTEGER PRIMARY KEY,
    metric_code     TEXT NOT NULL CHECK (metric_code <> ''),
    entity          TEXT NOT NULL CHECK (entity <> ''),
    geography       TEXT NOT NULL,
    channel         TEXT NOT NULL CHECK (channel <> ''),
    period_type     TEXT NOT NULL CHECK (period_type IN ('FY', 'H', 'Q')),
    period          TEXT NOT NULL CHECK (period <> ''),
    value           REAL NOT NULL,
    unit            TEXT NOT NULL CHECK (unit <> ''),
    source_doc_id   TEXT NOT NULL CHECK (source_doc_id <> ''),
    source_locator  TEXT NOT NULL CHECK (source_locator <> '')
);

CREATE UNIQUE INDEX ux_fact_metric_key
    ON fact_metric (metric_code, entity, channel, period_type, period);
