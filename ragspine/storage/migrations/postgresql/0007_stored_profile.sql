-- PostgreSQL twin of ../0007_stored_profile.sql.
CREATE TABLE stored_profile (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    sha256     TEXT NOT NULL,
    yaml_text  TEXT NOT NULL,
    stored_at  TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'))
);
