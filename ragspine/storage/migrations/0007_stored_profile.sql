-- The profile a store's facts were mapped with, as the user gave it (its YAML text as written and
-- its SHA-256): `ask`, `eval run` and `serve` answer with it when no --profile is given. A
-- different profile stored later is a new version; the highest is the store's. Kept, never
-- rewritten: the history says which profile mapped the facts when.
CREATE TABLE stored_profile (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    sha256     TEXT NOT NULL,
    yaml_text  TEXT NOT NULL,
    stored_at  TEXT NOT NULL DEFAULT (datetime('now'))
);
