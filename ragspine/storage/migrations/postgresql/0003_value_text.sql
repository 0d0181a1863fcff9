-- PostgreSQL twin of ../0003_value_text.sql.
ALTER TABLE fact_metric ADD COLUMN value_text TEXT NOT NULL DEFAULT '';
