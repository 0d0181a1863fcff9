-- Documents and their chunks. Lineage (doc_id, source_locator) is NOT NULL on every chunk.
CREATE TABLE document (
    doc_id        TEXT PRIMARY KEY CHECK (doc_id <> ''),
    title         TEXT NOT NULL,
    sensitivity   TEXT NOT NULL CHECK (sensitivity IN ('PUBLIC', 'INTERNAL', 'RESTRICTED')),
    language      TEXT NOT NULL DEFAULT '',
    entity        TEXT NOT NULL DEFAULT '',
    period        TEXT NOT NULL DEFAULT '',
    content_hash  TEXT NOT NULL CHECK (content_hash <> ''),
    source_path   TEXT NOT NULL,
    ingested_at   TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE TABLE chunk (
    chunk_id        TEXT PRIMARY KEY,
    doc_id          TEXT NOT NULL REFERENCES document (doc_id) ON DELETE CASCADE,
    ord             INTEGER NOT NULL,
    source_locator  TEXT NOT NULL CHECK (source_locator <> ''),
    title           TEXT NOT NULL,
    entity          TEXT NOT NULL DEFAULT '',
    period          TEXT NOT NULL DEFAULT '',
    sensitivity     TEXT NOT NULL CHECK (sensitivity IN ('PUBLIC', 'INTERNAL', 'RESTRICTED')),
    text            TEXT NOT NULL CHECK (text <> '')
);

CREATE UNIQUE INDEX ux_chunk_doc_ord ON chunk (doc_id, ord);

-- Bumped on every change, so a saved index can tell that it is stale.
CREATE TABLE corpus_state (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    generation  INTEGER NOT NULL
);
INSERT INTO corpus_state (id, generation) VALUES (1, 0);
