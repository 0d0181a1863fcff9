"""A held metric asked as another measure of itself: in another currency, for a single month, as a
flow of openings, as a projection in years, or as a what-if. Its stored level answers none.

Each is a class of question where the metric's words are read right and the figure is still
another quantity (folded text: simplified, lower case):

- **another currency**: a currency named beside the metric (港元, 人民币, HKD, in euros) that is
  not the currency of the metric's unit (USD_M, 元) asks a conversion no fact holds (香港的收入折合
  多少亿港元 of a USD fact). A unit whose currency cannot be told from its code, display and English
  name is never judged. 元 alone names no currency in a question (多少亿元 of a USD figure is
  a scale, not a conversion). The local currency (in local currency, 以当地货币计, 本币) of a
  part of the company (Taiwan, 香港) is that part's own, which no profile states: asked of a part,
  it is a conversion (never the group's reporting-currency figure); of the company itself, its
  reporting currency.
- **a single month**: a month written as a period of its own (2020年12月单月, 12月份的收入, in
  December) is finer than any fiscal year, half or quarter a profile holds: the year's figure is
  not December's. A month-end (12月末, 12月31日, 截至…月底) is a balance date, and a range of
  months (10-12月, 1至6月) is a quarter or a half, and a month closing a quarter (9月季度, the
  September quarter) names the quarter: none is a month asked.
- **openings**: a count of stores (or any count metric) with an opening verb written before it
  (新开了多少家门店, 新开设, 开业, how many stores did ACME open, store openings) asks the stores
  opened in the period, a flow; the count held is the stock at the period's end. Net additions
  (净新开, net new stores) are the stock's change, read elsewhere.
- **a projection in years**: how many years until something happens (几年才能翻一番, 多少年才能
  收回, how many years would it need to pay off, doubling time, payback period) is a projection
  from the figures, never a figure held; a multiple between two held years (翻了几番) is not one.
- **a what-if**: a question in the conditional mood (If X had kept its margin, what would its gross
  profit have been; 如果…会是多少) asks a hypothetical figure, never the actual. A condition that
  only selects what to report (如果门店数超过170家,请告诉我单店收入) asks the actual figure.

Each returns the span of the question's words naming the quantity (declined by them), or, where
the words are scattered (a what-if, an English projection), a (zh, en) name built from them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ragspine.agent.derived_asks import derived_ask
from ragspine.agent.restricted_counts import restricted_count
from ragspine.profile import DomainProfile

Span = tuple[int, int]

# Currencies by ISO code, each with the words that name it in a question (folded: lower case,
# simplified). 元 alone is no currency word: 亿元 is a scale in any currency.
_CURRENCY_WORDS: dict[str, str] = {
    "HKD": r"港元|港币|(?<![a-z])(?:hkd|hong\s+kong\s+dollars?)(?![a-z])|hk\$",
    "USD": r"美元|美金|(?<![a-z])(?:usd|us\s+dollars?|u\.s\.\s+dollars?)(?![a-z])|us\$",
    "CNY": r"人民币|(?<![a-z])(?:rmb|cny|renminbi|yuan)(?![a-z])",
    "EUR": r"欧元|(?<![a-z])(?:eur|euros?)(?![a-z])|€",
    "JPY": r"日元|日圆|(?<![a-z])(?:jpy|yen)(?![a-z])",
    "GBP": r"英镑|(?<![a-z])(?:gbp|pounds?\s+sterling|sterling)(?![a-z])|£",
    "TWD": r"新台币|台币|(?<![a-z])(?:twd|new\s+taiwan\s+dollars?)(?![a-z])|nt\$",
    "SGD": r"新加坡元|新币|(?<![a-z])(?:sgd|singapore\s+dollars?)(?![a-z])|s\$",
}
_ANY_CURRENCY = re.compile("|".join(f"(?:{w})" for w in _CURRENCY_WORDS.values()))
# A part's own currency, by no ISO code: folded text (當地 reads 当地, 貨幣 reads 货币).
_LOCAL = re.compile(
    r"(?<![a-z])local[\s-]+currenc(?:y|ies)(?![a-z])|(?:当地|本地|本币|本位币)(?:货币|币种|币)?(?=计|口径|的|金额|$|\s|[,,。??])|当地货币|本地货币"
)
# How a unit's own code, display and English name say its currency (USD_M, 百万美元, million
# USD; CNY, 元, yuan): a unit shown as 元 with no other currency before it is the yuan.
_UNIT_CURRENCY: dict[str, re.Pattern[str]] = {
    **{code: re.compile(words) for code, words in _CURRENCY_WORDS.items()},
    "CNY": re.compile(_CURRENCY_WORDS["CNY"] + r"|(?<![美港日欧台币])元|^cny"),
    "USD": re.compile(_CURRENCY_WORDS["USD"] + r"|^usd|(?<![a-z])dollars?(?![a-z])"),
}

_SENTENCE_END = re.compile(r"[?？。!！;；]")

_MONTH = re.compile(
    r"(?<![\d\-~～至到])(?:1[0-2]|0?[1-9]|[一二三四五六七八九十]|十[一二])\s*月(?:份)?"
    r"(?!\s*(?:\d|末|底|初|季|[一二三]?十|[\-~～至到]))|单月|"
    r"(?<![a-z])(?:in|for|during)\s+(?:the\s+month\s+of\s+)?(?:january|february|march|april|may|"
    r"june|july|august|september|october|november|december)(?![a-z])(?!\s+(?:\d|quarter))"
)
_OPENING = re.compile(
    r"(?<!净)(?:新开设?了?|新开业|开业了?|开出了?|开设了?新)|"
    r"(?<![a-z])(?:open(?:ed|s)?|opening)(?![a-z])(?=.*(?<![a-z])stores?(?![a-z]))|"
    r"(?<![a-z])(?<!net\s)(?:store\s+openings|new\s+stores?)(?![a-z])"
)
_PROJECTION_ZH = re.compile(
    r"(?:几|多少)\s*年(?:时间)?(?:才能|才可以|才会|能|可以|可|就能|需要)?[^,,。;;??]{0,12}?"
    r"(?:翻一?番|翻倍|收回|回本|还清|偿还|偿清|达到|超过|赶上)|"
    r"(?<!了)翻一?番所需|翻倍所需|(?:要|需要|才能)[^,,。;;??]{0,6}?翻一?番"
)
_PROJECTION_EN = re.compile(
    r"(?<![a-z])how\s+(?:many|long)\s+(?:years?\b)?.*?(?<![a-z])(?:to|until|before)\s+"
    r"(?P<verb>(?:pay\s+(?:off|back)|repay|double|recoup|reach|break\s+even|catch\s+up))"
    r"(?![a-z])|(?<![a-z])(?P<name>doubling\s+time|payback\s+period|years\s+to\s+\w+)(?![a-z])"
)
# The conditional mood: an if-clause with a past perfect or a would-clause (English); a
# condition with 会 / 将 / 应该 before what is asked (Chinese).
_WHAT_IF_EN = re.compile(
    r"(?<![a-z])(?:if|had|suppose|supposing|assuming)(?![a-z]).*?(?<![a-z])would(?![a-z])|"
    r"(?<![a-z])would\s+(?:[\w'’-]+\s+){0,6}?have\s+been(?![a-z])"
)
_WHAT_IF_ZH = re.compile(
    r"(?:如果|假如|假设|要是|倘若|如若)[^。;;??]*?(?:的话)?[^。;;??]*?"
    r"(?:会是|会有|会达到|将会是|将是|将会|应该是|应是|就会是|会变成|会为)"
)


def other_currency(
    text: str,
    metric_spans: Sequence[tuple[str, int, int]],
    profile: DomainProfile,
    entities: Sequence[str] = (),
) -> Span | None:
    """The span from a metric to a currency its unit is not in, in one sentence, or None; a
    local currency asked of a part (``entities`` other than the company) is always another."""
    if any(e != profile.home_entity_code for e in entities):
        for word in _LOCAL.finditer(text):
            for code, start, end in metric_spans:
                if _currency_of(profile, code) and _one_sentence(text, (start, end), word.span()):
                    return min(start, word.start()), max(end, word.end())
    for word in _ANY_CURRENCY.finditer(text):
        asked = next(c for c, w in _CURRENCY_WORDS.items() if re.fullmatch(w, word.group()))
        for code, start, end in metric_spans:
            held = _currency_of(profile, code)
            if held is None or held == asked or not _one_sentence(text, (start, end), word.span()):
                continue
            return min(start, word.start()), max(end, word.end())
    return None


def _currency_of(profile: DomainProfile, code: str) -> str | None:
    """The currency a metric's figures are in, told by its unit; None where it cannot be told."""
    spec = profile.any_metric(code)
    unit = profile.unit(getattr(spec, "unit", "")) if spec is not None else None
    if unit is None or unit.kind != "amount":
        return None
    said = f"{unit.code} {unit.display} {unit.name_en or ''}".lower()
    found = [c for c, pattern in _UNIT_CURRENCY.items() if pattern.search(said)]
    return found[0] if len(found) == 1 else None


def single_month(text: str, metric_spans: Sequence[tuple[str, int, int]]) -> Span | None:
    """The span from a single month written as a period to the metric after it, or None."""
    for month in _MONTH.finditer(text):
        for _, start, end in metric_spans:
            if _one_sentence(text, month.span(), (start, end)):
                return min(month.start(), start), max(month.end(), end)
    return None


def openings(text: str, count_spans: Sequence[Span]) -> Span | None:
    """The span from an opening verb to the count metric it is written before, or None."""
    for verb in _OPENING.finditer(text):
        for start, end in count_spans:
            if _one_sentence(text, verb.span(), (start, end)) and verb.start() < end:
                return min(verb.start(), start), max(verb.end(), end)
    return None


def projection(text: str) -> tuple[Span | None, str | None]:
    """A projection in years: (its span, None) in Chinese; (None, its English name) in English;
    (None, None) when the question asks none."""
    zh = _PROJECTION_ZH.search(text)
    if zh is not None:
        return zh.span(), None
    en = _PROJECTION_EN.search(text)
    if en is None:
        return None, None
    if en.group("name"):
        return None, re.sub(r"\s+", " ", en.group("name"))
    return None, "years to " + re.sub(r"\s+", " ", en.group("verb"))


def what_if(text: str) -> bool:
    """Does the question ask in the conditional mood (a hypothetical figure)?"""
    return bool(_WHAT_IF_EN.search(text) or _WHAT_IF_ZH.search(text))


def _one_sentence(text: str, a: Span, b: Span) -> bool:
    start, end = min(a[0], b[0]), max(a[1], b[1])
    return _SENTENCE_END.search(text, start, end) is None


def decline_other_measure(
    text: str,
    reading: object,
    counts: Sequence[Span],
    profile: DomainProfile,
    english: bool,
    read: Sequence[Span] = (),
    said: Callable[[Span], str] | None = None,
    entities: Sequence[str] = (),
) -> bool:
    """Decline, in ``reading``, a held metric asked as another measure of itself (the classes
    above): True; the reading is left as it is when none is asked: False. ``read``: the spans
    the parser reads (never a count's predicate); ``said``: a span's words as the question
    writes them (a restricted count is named by them: 亏损门店, loss-making stores); ``entities``:
    the entity codes named (a local currency is a part's own)."""
    spans: list[tuple[str, int, int]] = getattr(reading, "spans", [])
    if not spans:
        return False
    span = other_currency(text, spans, profile, entities) or single_month(text, spans)
    span = span or openings(text, counts)
    name: tuple[str, str] | None = None
    subset = restricted_count(text, counts, read) if span is None else None  # 门店亏损
    if subset is not None:
        phrase = subset.name(said or (lambda s: text[s[0] : s[1]]))
        span, name = subset.span, (phrase, phrase)
    if span is None:
        span, en = projection(text)
        name = (text[span[0] : span[1]] if span else en or "", en) if en else None
    if span is None and name is None:  # 收入指数, 还需要增长, 按…增速推算 (derived_asks)
        span, name = derived_ask(text, spans)
    if span is None and name is None and what_if(text):
        spec = profile.any_metric(spans[-1][0])
        zh_name = getattr(spec, "name_zh", "") or spans[-1][0]
        en_name = getattr(spec, "name_en", None) or zh_name
        name = (f"假设情形下的{zh_name}", f"hypothetical {en_name}")
    if span is None and name is None:
        return False
    first = (spans[0][1], spans[-1][2])
    reading.declined = span or first  # type: ignore[attr-defined]
    named = name if english or span is None or subset is not None else None
    reading.declined_name = named  # type: ignore[attr-defined]
    reading.metrics, reading.spans = [], []  # type: ignore[attr-defined]
    return True
