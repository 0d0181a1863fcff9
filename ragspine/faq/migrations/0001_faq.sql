-- Vetted FAQ items and the question variants that find them.
CREATE TABLE faq_item (
    id           INTEGER PRIMARY KEY,
    answer       TEXT NOT NULL,
    sources      TEXT NOT NULL,              -- JSON: [{"doc": …, "locator": …}], at least one
    valid_from   TEXT,                       -- ISO date, inclusive; NULL: no start
    valid_until  TEXT,                       -- ISO date, inclusive; NULL: no end
    enabled      INTEGER NOT NULL DEFAULT 1,
    sensitivity  TEXT NOT NULL DEFAULT 'INTERNAL',
    created_at   TEXT NOT NULL DEFAULT (datetime('now'))
);

CREATE TABLE faq_variant (
    item_id      INTEGER NOT NULL REFERENCES faq_item (id) ON DELETE CASCADE,
    question     TEXT NOT NULL,
    normalised   TEXT NOT NULL,              -- folded, without punctuation or spaces
    slots        TEXT NOT NULL               -- the parsed metric|entity|period|channel
);

CREATE INDEX ix_faq_variant_normalised ON faq_variant (normalised);
