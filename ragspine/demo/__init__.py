"""The embedded ACME demo data: facts (and, later, documents) built by `ragspine fixtures`."""
