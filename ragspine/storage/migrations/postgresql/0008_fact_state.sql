-- PostgreSQL twin of ../0008_fact_state.sql: one statement trigger per table.
CREATE TABLE fact_state (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    generation   BIGINT NOT NULL
);
INSERT INTO fact_state (id, generation) VALUES (1, 0);

CREATE FUNCTION ragspine_facts.bump_fact_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE ragspine_facts.fact_state SET generation = generation + 1 WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER fact_metric_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON fact_metric
    FOR EACH STATEMENT EXECUTE FUNCTION ragspine_facts.bump_fact_state();
CREATE TRIGGER stored_profile_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
    ON stored_profile FOR EACH STATEMENT EXECUTE FUNCTION ragspine_facts.bump_fact_state();
