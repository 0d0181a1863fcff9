-- PostgreSQL twin of ../0006_fact_sensitivity.sql.
ALTER TABLE fact_metric ADD COLUMN sensitivity TEXT NOT NULL DEFAULT ''
    CHECK (sensitivity IN ('', 'PUBLIC', 'INTERNAL', 'RESTRICTED'));
ALTER TABLE fact_history ADD COLUMN sensitivity TEXT NOT NULL DEFAULT '';
