-- PostgreSQL twin of ../0002_version_lineage.sql.
ALTER TABLE fact_metric ADD COLUMN source_file_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE fact_metric ADD COLUMN extractor_version TEXT NOT NULL DEFAULT '';
ALTER TABLE fact_metric ADD COLUMN mapping_version TEXT NOT NULL DEFAULT '';
