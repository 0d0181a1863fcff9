"""The engine's number reader and the audit's, run on real text neither was built on.

The 1,000 labelled questions and the official answers in ../shared/realworld were written by
other people about other companies. Both readers must read them without crashing, and agree on
every claim, except where the audit (over-inclusive by design) also reads a company name written
in digit characters (三六五网络, 七一二通信, 八一钢铁).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine.evals.audit.claims import is_label, normalise, read_claims
from ragspine.numbers import fold_numbers, read_numbers

REALWORLD = Path(__file__).parents[2] / "shared" / "realworld"
_DIGIT_NAME = set("零〇一二三四五六七八九")


def _texts() -> list[str]:
    texts = []
    for line in (REALWORLD / "questions_labelled_1000.jsonl").read_text("utf-8").splitlines():
        texts.append(json.loads(line)["question"])
    for line in (REALWORLD / "qa_600201_603339.jsonl").read_text("utf-8").splitlines():
        row = json.loads(line)
        texts += [row["question"], *(a for a in row["answer"] if isinstance(a, str))]
    return texts


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="needs ../shared/realworld beside the repo")
def test_both_readers_agree_on_real_questions_and_answers() -> None:
    texts = _texts()
    assert len(texts) > 1000
    disagreements = []
    for text in texts:
        engine = sorted(
            (float(q.value), q.kind) for q in read_numbers(fold_numbers(text)) if q.role == "value"
        )
        folded = normalise(text)
        claims = [(s, e, c) for s, e, c in read_claims(folded) if not is_label(folded, s, e, c)]
        assert all(c.value is not None for *_, c in claims), text  # nothing unreadable
        audit = sorted((float(c.value), c.kind) for *_, c in claims if c.value is not None)
        if engine != audit:
            extra = [c.text for *_, c in claims if (float(c.value or 0), c.kind) not in engine]
            if not all(set(t) <= _DIGIT_NAME for t in extra) or len(engine) > len(audit):
                disagreements.append((text[:60], engine, audit))
    assert disagreements == []
