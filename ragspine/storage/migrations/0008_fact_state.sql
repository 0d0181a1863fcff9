-- The fact store's generation (storage.generations): bumped by every write to its tables, in
-- the writer's transaction, so a service holding lookups in memory knows them current by one
-- number.
CREATE TABLE fact_state (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    generation   INTEGER NOT NULL
);
INSERT INTO fact_state (id, generation) VALUES (1, 0);

CREATE TRIGGER fact_metric_inserted AFTER INSERT ON fact_metric
BEGIN UPDATE fact_state SET generation = generation + 1 WHERE id = 1; END;
CREATE TRIGGER fact_metric_updated AFTER UPDATE ON fact_metric
BEGIN UPDATE fact_state SET generation = generation + 1 WHERE id = 1; END;
CREATE TRIGGER fact_metric_deleted AFTER DELETE ON fact_metric
BEGIN UPDATE fact_state SET generation = generation + 1 WHERE id = 1; END;
CREATE TRIGGER stored_profile_inserted AFTER INSERT ON stored_profile
BEGIN UPDATE fact_state SET generation = generation + 1 WHERE id = 1; END;
CREATE TRIGGER stored_profile_updated AFTER UPDATE ON stored_profile
BEGIN UPDATE fact_state SET generation = generation + 1 WHERE id = 1; END;
CREATE TRIGGER stored_profile_deleted AFTER DELETE ON stored_profile
BEGIN UPDATE fact_state SET generation = generation + 1 WHERE id = 1; END;
