-- The value as the source wrote it ('318024319.30'): answers show the precision it was stored
-- with, and derived metrics compute from it exactly. '' = only the REAL value is known.
ALTER TABLE fact_metric ADD COLUMN value_text TEXT NOT NULL DEFAULT '';
