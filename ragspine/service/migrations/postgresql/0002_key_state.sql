-- The keys' generation (storage.generations): bumped by every statement that writes api_key, in
-- its transaction, so a replica holding the keys in memory knows them current by one number.
CREATE TABLE key_state (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    generation   BIGINT NOT NULL
);
INSERT INTO key_state (id, generation) VALUES (1, 0);

CREATE FUNCTION ragspine_keys.bump_key_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE ragspine_keys.key_state SET generation = generation + 1 WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER api_key_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_key
    FOR EACH STATEMENT EXECUTE FUNCTION ragspine_keys.bump_key_state();
