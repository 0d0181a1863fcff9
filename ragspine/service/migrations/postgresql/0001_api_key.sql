-- API keys when the stores are in PostgreSQL (a SQLite deployment keeps them in keys.yaml):
-- each key's SHA-256 and the clearance it carries, never the key itself.
CREATE TABLE api_key (
    name         TEXT PRIMARY KEY CHECK (name <> ''),
    sha256       TEXT NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    clearance    TEXT NOT NULL CHECK (clearance IN ('PUBLIC', 'INTERNAL', 'RESTRICTED')),
    disabled     BOOLEAN NOT NULL DEFAULT false,
    created_at   TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'))
);
