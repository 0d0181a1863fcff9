-- Every fact's sensitivity: its source file's (PUBLIC, INTERNAL or RESTRICTED), so a figure is
-- never shown to a caller its file is hidden from. Facts stored before this migration are ''
-- (not recorded): they take their file's level from the chunk store once it is known
-- (FactStore.adopt_levels) and are read as INTERNAL until then.
ALTER TABLE fact_metric ADD COLUMN sensitivity TEXT NOT NULL DEFAULT ''
    CHECK (sensitivity IN ('', 'PUBLIC', 'INTERNAL', 'RESTRICTED'));
ALTER TABLE fact_history ADD COLUMN sensitivity TEXT NOT NULL DEFAULT '';
