-- PostgreSQL twin of ../0001_create_chunks.sql. Document ids compare byte by byte (COLLATE "C"),
-- as SQLite compares them, so the chunks are paged in the same order on both.
CREATE TABLE document (
    doc_id        TEXT COLLATE "C" PRIMARY KEY CHECK (doc_id <> ''),
    title         TEXT NOT NULL,
    sensitivity   TEXT NOT NULL CHECK (sensitivity IN ('PUBLIC', 'INTERNAL', 'RESTRICTED')),
    language      TEXT NOT NULL DEFAULT '',
    entity        TEXT NOT NULL DEFAULT '',
    period        TEXT NOT NULL DEFAULT '',
    content_hash  TEXT NOT NULL CHECK (content_hash <> ''),
    source_path   TEXT NOT NULL,
    ingested_at   TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'))
);

CREATE TABLE chunk (
    chunk_id        TEXT PRIMARY KEY,
    doc_id          TEXT COLLATE "C" NOT NULL REFERENCES document (doc_id) ON DELETE CASCADE,
    ord             INTEGER NOT NULL,
    source_locator  TEXT NOT NULL CHECK (source_locator <> ''),
    title           TEXT NOT NULL,
    entity          TEXT NOT NULL DEFAULT '',
    period          TEXT NOT NULL DEFAULT '',
    sensitivity     TEXT NOT NULL CHECK (sensitivity IN ('PUBLIC', 'INTERNAL', 'RESTRICTED')),
    text            TEXT NOT NULL CHECK (text <> '')
);

CREATE UNIQUE INDEX ux_chunk_doc_ord ON chunk (doc_id, ord);

-- Bumped on every change, so a saved index (on every host) can tell that it is stale.
CREATE TABLE corpus_state (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    generation  INTEGER NOT NULL
);
INSERT INTO corpus_state (id, generation) VALUES (1, 0);
