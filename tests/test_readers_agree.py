"""The engine's number reader and the audit's, run on real text neither was built on.

The 1,000 labelled questions and the official answers in ../shared/realworld were written by
other people about other companies. Both readers must read them without crashing, and agree on
every claim, except where the audit (over-inclusive by design) also reads a company name written
in digit characters (三六五网络, 七一二通信, 八一钢铁).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.evals.audit.claims import is_label, normalise, read_claims
from ragspine.numbers import fold_numbers, read_numbers
from tests.test_numbers import to_cjk, to_english

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


def _engine(text: str) -> list[tuple[Fraction, str]]:
    return sorted(
        (Fraction(str(q.value)), q.kind)
        for q in read_numbers(fold_numbers(text))
        if q.role == "value"
    )


def _audit(text: str) -> list[tuple[Fraction, str]]:
    folded = normalise(text)
    return sorted(
        (c.value, c.kind)
        for s, e, c in read_claims(folded)
        if c.value is not None and not is_label(folded, s, e, c)
    )


_SUZHOU = "〇〡〢〣〤〥〦〧〨〩"


def _notations(n: int) -> list[str]:
    """One count (or amount) written in each notation the contract names (section 5)."""
    grouped = f"{n:,}"
    forms = [
        f"门店数为{grouped.replace(',', chr(0x202F))}家。",  # narrow no-break space groups
        f"门店数为{grouped.replace(',', chr(0x2009))}家。",  # thin space groups
        f"门店数为{''.join(_SUZHOU[int(d)] for d in str(n))}家。",  # Suzhou numerals
        f"门店数为**{str(n)[:1]}**{str(n)[1:]}家。" if n >= 10 else f"门店数为{n}家。",
        f"the network had {to_english(n)} stores." if n > 1 else "门店数为1家。",  # with "and"
        f"收入为{n}億美元。",  # traditional 億
        f"收入为{n // 100}亿{n % 100 * 100}万美元。"
        if n % 100 and n >= 100
        else f"收入为{n}亿美元。",
    ]
    if n >= 1000:
        forms.append(f"门店数为{grouped.replace(',', '，')}家。")  # full-width comma groups
    if 1000 <= n <= 2999:
        forms.append(f"共有{n}家门店。")  # a four-digit count is a value, not a year
    if 1 <= n <= 12:
        forms.append(f"门店数为{chr(0x2160 + n - 1)}家。")  # Roman numerals
    if 20 <= n <= 39:
        forms.append(f"门店数为{'廿卅'[n // 10 - 2]}{to_cjk(n % 10) if n % 10 else ''}家。")
    return forms


@settings(max_examples=150, deadline=None)
@given(n=st.integers(min_value=1, max_value=999_999))
def test_both_readers_read_every_notation_of_the_contract_alike(n: int) -> None:
    """Generated text in each notation: the guard's reader and the audit's, each its own way,
    agree on what the number is (value and kind), and both read it."""
    for text in _notations(n):
        engine, audit = _engine(text), _audit(text)
        assert engine == audit, (text, engine, audit)
        assert engine, text  # read, not skipped
