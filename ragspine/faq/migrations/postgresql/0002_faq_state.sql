-- PostgreSQL twin of ../0002_faq_state.sql: one statement trigger per table.
CREATE TABLE faq_state (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    generation   BIGINT NOT NULL
);
INSERT INTO faq_state (id, generation) VALUES (1, 0);

CREATE FUNCTION ragspine_faq.bump_faq_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE ragspine_faq.faq_state SET generation = generation + 1 WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER faq_item_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON faq_item
    FOR EACH STATEMENT EXECUTE FUNCTION ragspine_faq.bump_faq_state();
CREATE TRIGGER faq_variant_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON faq_variant
    FOR EACH STATEMENT EXECUTE FUNCTION ragspine_faq.bump_faq_state();
