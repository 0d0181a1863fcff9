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

from ragspine.evals.audit.citations import unmarked
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


# -- words for amounts, generated in context ------------------------------------------------------

_ONE_DIGIT = "一二三四五六七八九"


def _reading_engine(text: str) -> list[tuple[object, ...]]:
    """Each value: a range in words as its ends, else (value, kind)."""
    out: list[tuple[object, ...]] = []
    for q in read_numbers(fold_numbers(text)):
        if q.role != "value":
            continue
        if q.spread:  # its precision is its half-width plus the rounding of its ends
            half = Fraction(str(q.precision)) - Fraction(1, 2)
            value = Fraction(str(q.value))
            out.append(("span", value - half, value + half))
        else:
            out.append((Fraction(str(q.value)), q.kind))
    return out


def _reading_audit(text: str) -> list[tuple[object, ...]]:
    """The audit's reading of its lines as it reads an answer: footnote markers blanked, a
    link's figures only where written with a unit (``unmarked``). A range in words holds a
    number or a percentage alike (``support.same_value``), so only its ends are compared."""
    folded = "\n".join(unmarked(line) for line in normalise(text).split("\n"))
    out: list[tuple[object, ...]] = []
    for s, e, c in read_claims(folded):
        if is_label(folded, s, e, c):
            continue
        out.append(("span", *c.span) if c.span else (c.value, c.kind))
    return out


def _zhe(tens: int, units: int, style: int) -> str:
    """A price at tens.units tenths in one of four ways: 八五折, 8.5折, 85折, 八折."""
    if not units:
        return f"{_ONE_DIGIT[tens - 1]}折" if style % 2 else f"{tens}折"
    return [
        f"{_ONE_DIGIT[tens - 1]}{_ONE_DIGIT[units - 1]}折",
        f"{tens}.{units}折",
        f"{tens}{units}折",
    ][style % 3]


_RANGES = [  # (words, low, high)
    ("双位数", 10, 99),
    ("两位数", 10, 99),
    ("个位数", 0, 9),
    ("三位数", 100, 999),
    ("double-digit", 10, 99),
    ("single-digit", 0, 9),
    ("triple-digit", 100, 999),
]
_RANGE_CONTEXTS = [
    "收入实现{w}增长。",  # a change after it
    "收入同比下滑了{w}。",  # a change before it
    "门店数量为{w}。",  # a count
    "revenue saw {w} growth in 2024.",  # a change after it, in English
    "sales fell by {w}s.",  # a change before it, in English
]


def _in_context(
    n: int, pick: int, tens: int, units: int
) -> list[tuple[str, list[tuple[object, ...]]]]:
    """Texts with a word for an amount in them, each with what it says, in order."""
    p, nf = Fraction(tens * 10 + units), Fraction(n)
    words, low, high = _RANGES[pick % len(_RANGES)]
    span = ("span", Fraction(low), Fraction(high))
    return [
        (
            f"会员商品执行{_zhe(tens, units, pick)}销售,售价{n}元。",
            [(p, "percent"), (nf, "number")],
        ),
        (
            f"全场{_zhe(tens, units, pick + 1)}让利,共{to_cjk(n)}家门店参加。",
            [(p, "percent"), (nf, "number")],
        ),
        (
            f"固定资产折旧{n}万元,按{_zhe(tens, units, pick + 2)}计算。",
            [(nf * 10_000, "number"), (p, "percent")],  # 折旧 is no 折 (N年 could read as a year)
        ),
        (_RANGE_CONTEXTS[pick % len(_RANGE_CONTEXTS)].format(w=words), [span]),
        (f"共{n}家门店,其中半数以上盈利。", [(nf, "number"), (Fraction(50), "percent")]),
        (f"过半门店位于香港,共{n}家。", [(Fraction(50), "percent"), (nf, "number")]),
        (f"过半年后,门店数为{n}家。", [(nf, "number")]),  # half a year: no share
        (f"一半的收入来自{n}家门店。", [(Fraction(50), "percent"), (nf, "number")]),
        (
            f"half of the {to_english(n)} stores were closed.",
            [(Fraction(50), "percent"), (nf, "number")],
        ),
        ("the network was consolidated into a dozen centres.", [(Fraction(12), "number")]),
        ("half a dozen new stores opened.", [(Fraction(6), "number")]),
        ("a score of new stores opened.", [(Fraction(20), "number")]),
        (f"the store won a score of {n} points.", [(nf, "number")]),  # a score, not twenty
        (f"收入增长约{units + 1}%[^{pick % 9 + 1}]。", [(Fraction(units + 1), "percent")]),
        (
            f"详见 https://ir.example.com/{2020 + pick % 6}/report-{n}.pdf ,门店为{n}家。",
            [(nf, "number")],  # the link's year and path segment are no claims
        ),
        (
            f"See https://ir.example.com/esg/cut-{units + 1}-percent-in-2024 for details.",
            [(Fraction(units + 1), "percent")],  # a figure with its unit in a slug is one
        ),
        (
            f"in the second quarter of 2024, revenue rose {units + 1}%.",
            [(Fraction(units + 1), "percent")],  # the quarter of 2024 is a date
        ),
    ]


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=999_999),
    pick=st.integers(min_value=0, max_value=1000),
    tens=st.integers(min_value=1, max_value=9),
    units=st.integers(min_value=0, max_value=9),
)
def test_both_readers_read_amounts_in_words_alike(n: int, pick: int, tens: int, units: int) -> None:
    """折, 双位数 / double-digit, 半数 / 过半 / 一半 / half, a dozen, a score of, a footnote
    marker, figures in a link: in generated sentences both readers read what the text says
    (value and kind; a range's ends), each its own way."""
    for text, meant in _in_context(n, pick, tens, units):
        engine, audit = _reading_engine(text), _reading_audit(text)
        assert engine == meant, ("engine", text, engine)
        assert audit == meant, ("audit", text, audit)


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        # a half-year is a period: only the year and the amount are read
        ("In the first half of 2024, revenue was 655 million.", ["2024", "655 million"]),
        # hyphenated, and a half-year report: no share
        ("In the second-half of 2024 the half-year report listed 12 stores", ["2024", "12"]),
        # half-dozen is a count word neither reader takes as 50%
        ("a half-dozen stores closed", []),
        # the share itself is still read, alone and after a comparative
        ("Half of the stores closed, more than half of revenue", ["Half", "half"]),
    ],
)
def test_half_is_a_share_only_when_it_is_one(text: str, figures: list[str]) -> None:
    assert [q.text for q in read_numbers(text)] == figures
    assert [c.text for _, _, c in read_claims(normalise(text))] == figures
