"""A run keeps where its stores were as the user named them: --resume and --retry-errors open
the same stores, a PostgreSQL database as much as a file (a URL is not a path: read as one,
``postgresql://h/db`` became ``postgresql:/h/db``, a file that is not there)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine.evals.run.records import RUN_FILE, RunRecord
from ragspine.evals.run.runner import RunOptions, options_of
from ragspine.store_location import parse_location


@pytest.mark.parametrize(
    "db, corpus, faq",
    [
        ("data/facts.db", "data/chunks.db", None),  # files, relative: as given
        ("/srv/facts.db", "/srv/chunks.db", "/srv/faq.db"),  # files, absolute
        # one database holding every store (a password is never recorded: none here)
        ("postgresql://app@db.internal:5432/acme",) * 3,
        ("postgresql://app@db.internal/acme", "/srv/chunks.db", None),  # a mix of both kinds
    ],
)
def test_a_runs_stores_read_back_as_they_were_given(
    tmp_path: Path, db: str, corpus: str, faq: str | None
) -> None:
    opts = RunOptions(
        golden=tmp_path / "golden",
        out=tmp_path,
        db=parse_location(db),
        corpus=parse_location(corpus),
        faq=parse_location(faq) if faq else None,
    )
    record = RunRecord(
        golden_path=str(opts.golden), golden_hash="x", provider="mock", options=opts.recorded()
    )
    (tmp_path / RUN_FILE).write_text(json.dumps(record.model_dump(mode="json")), "utf-8")
    back = options_of(tmp_path)
    assert (back.db, back.corpus, back.faq) == (opts.db, opts.corpus, opts.faq)
    assert back.recorded() == opts.recorded()
