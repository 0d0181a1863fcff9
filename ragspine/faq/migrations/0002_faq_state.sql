-- The FAQ's generation (storage.generations): bumped by every write to its items or variants,
-- in the writer's transaction, so a service holding the items in memory knows them current by
-- one number.
CREATE TABLE faq_state (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    generation   INTEGER NOT NULL
);
INSERT INTO faq_state (id, generation) VALUES (1, 0);

CREATE TRIGGER faq_item_inserted AFTER INSERT ON faq_item
BEGIN UPDATE faq_state SET generation = generation + 1 WHERE id = 1; END;
CREATE TRIGGER faq_item_updated AFTER UPDATE ON faq_item
BEGIN UPDATE faq_state SET generation = generation + 1 WHERE id = 1; END;
CREATE TRIGGER faq_item_deleted AFTER DELETE ON faq_item
BEGIN UPDATE faq_state SET generation = generation + 1 WHERE id = 1; END;
CREATE TRIGGER faq_variant_inserted AFTER INSERT ON faq_variant
BEGIN UPDATE faq_state SET generation = generation + 1 WHERE id = 1; END;
CREATE TRIGGER faq_variant_updated AFTER UPDATE ON faq_variant
BEGIN UPDATE faq_state SET generation = generation + 1 WHERE id = 1; END;
CREATE TRIGGER faq_variant_deleted AFTER DELETE ON faq_variant
BEGIN UPDATE faq_state SET generation = generation + 1 WHERE id = 1; END;
