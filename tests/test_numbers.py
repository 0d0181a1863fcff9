"""The engine's number reader: one value, every notation, one reading."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.numbers import (
    Quantity,
    direction_before,
    fold_numbers,
    precision_of,
    read_numbers,
)

# -- renderers written for the tests, independently of the reader -----------------------------

_SIMPLE = "零一二三四五六七八九"
_DAXIE = "零壹贰叁肆伍陆柒捌玖"


def _cjk_below_10k(n: int, digits: str, units: str) -> str:
    out, zero = "", False
    for power, unit in ((1000, units[2]), (100, units[1]), (10, units[0]), (1, "")):
        d = n // power % 10
        if d:
            out += (digits[0] if zero and out else "") + digits[d] + unit
            zero = False
        elif out:
            zero = True
    return out


def to_cjk(n: int, *, daxie: bool = False) -> str:
    """1 up to 10**12 as 五十亿零一百万, 一千二百万三千零五 (or in 大写)."""
    digits, units = (_DAXIE, "拾佰仟") if daxie else (_SIMPLE, "十百千")
    sections = [(n // 10**8, "亿"), (n // 10**4 % 10**4, "万"), (n % 10**4, "")]
    text = ""
    for k, (part, unit) in enumerate(sections):
        if not part:
            continue
        higher = any(p for p, _ in sections[:k])
        if text and (part < 1000 or not sections[k - 1][0]) and higher:
            text += digits[0]  # a gap inside the number is read as 零
        text += _cjk_below_10k(part, digits, units) + unit
    return text


_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def to_english(n: int) -> str:
    """1..999,999 in words: 'one hundred and twenty thousand four'."""

    def below_1000(k: int) -> str:
        hundreds, rest = divmod(k, 100)
        words = [f"{_ONES[hundreds]} hundred"] if hundreds else []
        if rest:
            tail = (
                _ONES[rest]
                if rest < 20
                else _TENS[rest // 10] + (f"-{_ONES[rest % 10]}" if rest % 10 else "")
            )
            words.append(("and " if hundreds else "") + tail)
        return " ".join(words)

    thousands, rest = divmod(n, 1000)
    parts = [f"{below_1000(thousands)} thousand"] if thousands else []
    if rest:
        parts.append(below_1000(rest))
    return " ".join(parts)


def in_script(n: int, zero: int) -> str:
    return "".join(chr(zero + int(d)) for d in str(n))


NOTATIONS = {
    "ascii": str,
    "thousands": lambda n: f"{n:,}",
    "full_width": lambda n: in_script(n, 0xFF10),
    "arabic_indic": lambda n: in_script(n, 0x0660),
    "devanagari": lambda n: in_script(n, 0x0966),
    "math_bold": lambda n: in_script(n, 0x1D7CE),
    "zero_width": lambda n: "\u200b".join(str(n)),
    "bidi_isolated": lambda n: f"\u2066{n}\u2069",
    "superscript": lambda n: "".join("⁰¹²³⁴⁵⁶⁷⁸⁹"[int(d)] for d in str(n)),
    "cjk": to_cjk,
    "daxie": lambda n: to_cjk(n, daxie=True),
    "english": to_english,
}


def values(text: str) -> list[Quantity]:
    return [q for q in read_numbers(fold_numbers(text)) if q.role == "value"]


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=2, max_value=999_999))
def test_a_count_reads_the_same_in_every_notation(n: int) -> None:
    """Each notation, followed by a classifier as a sentence would have it."""
    for name, render in NOTATIONS.items():
        found = values(f"门店数为{render(n)}家。")
        assert [(q.value, q.kind) for q in found] == [(Decimal(n), "number")], (name, render(n))


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=1, max_value=99_999))
def test_an_amount_at_scale_reads_the_same_in_every_notation(n: int) -> None:
    """n million, written with every scale word and as plain digits."""
    forms = [
        f"{n}百万",
        f"{n:,}百万",
        f"{n / 100:.2f}亿",
        f"{n} million",
        f"{n}mn",
        f"{n * 1_000_000:,}",
        to_cjk(n * 1_000_000),
        f"{n / 1000:.3f}bn",
    ]
    for form in forms:
        found = values(f"收入为{form}美元")
        assert len(found) == 1, form
        assert found[0].value == n * 1_000_000 and found[0].kind == "number", form


@settings(max_examples=100, deadline=None)
@given(p=st.integers(min_value=1, max_value=99))
def test_a_percentage_reads_the_same_in_every_notation(p: int) -> None:
    forms = [
        f"{p}%",
        f"{p}％",
        f"百分之{p}",
        f"百分之{to_cjk(p)}",
        f"{to_english(p)} percent",
        f"{p} per cent",
        f"{in_script(p, 0xFF10)}%",
        f"{p}.0%",
        f"{p * 10}‰",
        f"\u200b{p}%",
    ]
    for form in forms:
        found = values(f"毛利率为{form}。")
        assert [(q.value, q.kind) for q in found] == [(Decimal(p), "percent")], form


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("两成", 20, "percent"),  # 成 is tenths
        ("六成", 60, "percent"),
        ("三分之一", Decimal(100) / 3, "percent"),  # a fraction
        ("a third", Decimal(100) / 3, "percent"),
        ("一半", 50, "percent"),
        ("翻倍", 2, "multiple"),  # a multiple, no digit at all
        ("doubled", 2, "multiple"),
        ("3倍", 3, "multiple"),
        ("3个百分点", 3, "points"),  # points are not percent
        ("50 bps", Decimal("0.5"), "points"),  # basis points are hundredths of a point
        ("一百二十家", 120, "number"),  # CJK with a classifier
        ("壹仟伍佰", 1500, "number"),  # 大写 needs none
        ("两千三百万", 23_000_000, "number"),  # 两 and 万
        ("三点五倍", Decimal("3.5"), "multiple"),  # 点 decimals
        ("负5%", -5, "percent"),  # a sign in words
        ("-0.7%", Decimal("-0.7"), "percent"),
        ("1.2万人", 12_000, "number"),
        ("twelve percent", 12, "percent"),
        ("2bn", 2_000_000_000, "number"),
        ("负债大于五亿", 500_000_000, "number"),  # a digit and 亿, from a real question
        ("负债总金额第7高", 7, "number"),  # a rank, not a quarter (real question)
    ],
)
def test_words_fractions_and_multiples(text: str, value: Decimal | int, kind: str) -> None:
    (q,) = values(text)
    assert (q.value, q.kind) == (Decimal(value), kind)


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("FY2024收入", "year"),  # a period label
        ("2024年收入", "year"),
        ("in 2024 revenue", "year"),
        ("2024Q3", "year"),  # the year of a quarter label
        ("第三季度", "period"),  # the quarter's number
        ("Q3 revenue", "period"),
        ("1. 门店关闭", "list"),  # list numbering
        ("①门店关闭", "list"),  # circled numbering becomes (1)
        ("门店数为2024家", "value"),  # a year-like number used as a count is a claim
        ("收入为2024", "value"),  # after a value cue too
    ],
)
def test_labels_are_not_claims(text: str, role: str) -> None:
    found = read_numbers(fold_numbers(text))
    assert found and found[0].role == role


@pytest.mark.parametrize(
    "text",
    [
        "统一管理",  # 一 inside a word
        "万一出现问题",  # 万一 is "in case"
        "one of the reasons",  # "one" alone is not a claim
        "千万不要",  # an idiom
        "安徽壹石通材料科技",  # one 大写 character inside a company name (real question)
        "法定代表人与上一年是否相同",  # 上一年 is a period word (real question)
        "2019-2021年的法定代表人",  # a range of years, not a minus (real question)
    ],
)
def test_numeral_characters_inside_words_are_not_numbers(text: str) -> None:
    assert values(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "(来源:MDA.md section=2,para=1)",  # a locator in a citation
        "(source: ACME_FY2024_MDA.md section=1.2,para=3)",
        "[3]",  # a citation by snippet number
    ],
)
def test_citations_are_lineage_not_numbers(text: str) -> None:
    assert read_numbers(fold_numbers(text)) == []


def test_folding_removes_what_would_show_another_number() -> None:
    shown = fold_numbers("收入\u202e554\u202c")  # RLO would display 455
    assert shown == "收入554" and [q.value for q in values(shown)] == [554]


@pytest.mark.parametrize(
    ("claim", "source", "ok"),
    [
        ("4.55亿", "455百万", True),  # the same value at another scale
        ("455亿", "455百万", False),  # the same digits at another scale
        ("4.55亿", "455.3百万", True),  # rounded down to what was written
        ("455.32百万", "455百万", False),  # precision the source does not have
        ("2,398", "2398", True),  # regrouped
        ("六成", "60%", True),  # 成 against percent
        ("12%", "12个百分点", False),  # percent is not points
        ("-11%", "11%", False),  # a flipped sign
    ],
)
def test_matches_compares_value_scale_and_kind(claim: str, source: str, ok: bool) -> None:
    (c,) = values(claim)
    (s,) = values(source)
    assert c.matches(s) is ok


@pytest.mark.parametrize(
    ("text", "direction"),
    [
        ("收入下降11%", -1),  # a fall
        ("收入增长约11%", 1),  # a rise, with 约 between
        ("revenue fell 3%", -1),
        ("收入为11%", 0),  # no direction stated
    ],
)
def test_direction_before_a_number(text: str, direction: int) -> None:
    (q,) = values(text)
    assert direction_before(fold_numbers(text), q.start) == direction


# -- the notations of the shared contract (issue 21, section 5) ---------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("门店数为Ⅻ家", 12),  # Roman numeral characters, one or several
        ("门店数为ⅩⅡ家", 12),
        ("门店数为ⅻ家", 12),
        ("XII stores", 12),  # ASCII Roman where it cannot be a word
        ("廿五家", 25),  # 廿 卅 卌
        ("卅家", 30),
        ("卌家", 40),
        ("〢〤家", 24),  # Suzhou numerals, positional
        ("〹家", 20),
        ("兩千三百萬", 23_000_000),  # traditional
        ("壹億貳仟萬", 120_000_000),
        ("约23.98億美元", 2_398_000_000),
        ("4亿5500万", 455_000_000),  # compound amounts
        ("1千3百20万", 13_200_000),
        ("1万2000人", 12_000),
        ("one thousand three hundred and twenty million", 1_320_000_000),  # English words
        ("one point three billion", 1_300_000_000),
        ("two million three hundred thousand", 2_300_000),
        ("1 320家", 1320),  # digit groups split by a space of any width
        ("1\u2009320家", 1320),
        ("1\u202f320家", 1320),
        ("1\u00a0320家", 1320),
        ("12 345 678家", 12_345_678),
        ("**20**876家", 20876),  # emphasis or markup inside a number
        ("1<b>3</b>20家", 1320),
        ("1，320家", 1320),  # a full-width comma before three digits
        ("１３２０家", 1320),  # full-width digits
        ("1999 stores", 1999),  # a four-digit count is a value, not a year
        ("2024家门店", 2024),
        ("2398百万美元", 2_398_000_000),
    ],
)
def test_every_notation_of_the_contract_is_read(text: str, value: int) -> None:
    (q,) = values(text)
    assert q.value == value, text


@pytest.mark.parametrize(
    "text",
    [
        "原因有三:①门店关闭;②汇率折算;③需求疲弱",  # an inline ①②③ list
        "详见第3节",  # a section number in prose
        "see section 4.2 below",
        "如表2所示",
        "I think so",  # the word I
        "MD&A",  # letters that spell a Roman numeral
        "Phase II of the plan",
        "单位:百万美元",  # a unit note, not one million
        "二〇二四年",  # a year in CJK digits
    ],
)
def test_labels_and_words_are_not_claims(text: str) -> None:
    assert values(text) == [], text


def test_a_malformed_citation_is_read_as_text() -> None:
    assert values("(来源:ACME_FY2024_MDA.md section=1.4,para=1)") == []
    assert values("(来源:ACME_FY2024_MDA.md section=1.4,para=1、ACME_ESG_Report_2024.md)") == []
    smuggled = values("(来源:ACME_FY2024_MDA.md section=1.4,para=1,增长40%)")
    assert [(q.value, q.kind) for q in smuggled] == [(Decimal(40), "percent")]
    assert [q.value for q in values("(来源:增长40%)")] == [Decimal(40)]


@pytest.mark.parametrize(
    ("written", "places", "precision"),
    [
        (455, 0, "0.5"),
        (540, 0, "5"),
        (2400, 0, "50"),
        (1000, 0, "500"),
        (0, 0, "0.5"),
        ("4.55", 2, "0.005"),
        ("33.60", 2, "0.005"),
    ],
)
def test_precision_reads_trailing_zeros_of_an_integer_as_rounding(
    written: int | str, places: int, precision: str
) -> None:
    assert precision_of(Decimal(written), places) == Decimal(precision)


@pytest.mark.parametrize(
    ("claim", "source", "ok"),
    [
        ("about USD 1 billion", "1320百万", False),  # ±0.5 billion, but never beyond 5%
        ("约1.3 billion", "1320百万", True),
        ("约11%", "10.98%", True),
        ("约30%", "27%", False),
        ("2400", "2450", True),  # 2400 carries ±50
        ("2400", "2460", False),
        ("1,000", "1,320", False),
        ("541", "540", False),
        ("10.98%", "约11%", False),  # a claim may round a source, never add precision
        ("13亿2000万", "1320百万", True),
    ],
)
def test_the_rounding_rule(claim: str, source: str, ok: bool) -> None:
    (c,) = values(claim)
    (s,) = values(source)
    assert c.matches(s) is ok


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("执行八折", Decimal(80), "percent"),  # X折: a price at X tenths
        ("八五折", Decimal(85), "percent"),  # 八五折: 85%
        ("双位数下滑", Decimal("54.5"), "percent"),  # 10 to 99, a change: percent
        ("半数以上的关店", Decimal(50), "percent"),  # 半数: half
        ("into a dozen centres", Decimal(12), "number"),  # a dozen
        ("a score of new stores", Decimal(20), "number"),  # a score of
    ],
)
def test_counts_and_shares_in_words_are_read(text: str, value: Decimal, kind: str) -> None:
    (q,) = [q for q in read_numbers(fold_numbers(text)) if q.role == "value"]
    assert (q.value, q.kind) == (value, kind)


def test_a_range_in_words_holds_what_lies_in_it_and_a_footnote_marker_is_no_number() -> None:
    (double,) = read_numbers("双位数增长")
    assert double.matches(
        replace(double, value=Decimal(12), precision=Decimal("0.5"), spread=False)
    )
    assert not double.matches(replace(double, value=Decimal("4.1"), spread=False))
    assert [q.role for q in read_numbers("增长约11%[^1]。")] == ["value", "list"]
