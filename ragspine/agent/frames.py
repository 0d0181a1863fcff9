"""Frames: what a text's surroundings say where its own sentence is silent.

* a cited passage: its heading path, most specific first ("四、香港:增长的驱动因素" is about
  香港), then its document's title ("ACME集团2024财年管理层讨论与分析": ACME_GROUP, FY2024),
  which is also the period 上年 in it is relative to. ``NarrativeHit.title`` holds both: the
  chunk store keeps ``"<document title> › <heading> › <heading>"``;
* a heading in the model's answer (``## 香港``), for the lines under it;
* a table's row label, column header and unit note (``(百万美元)``), and the sentence before
  the table (see ``tables``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache

from ragspine.agent.cues import Vocabulary, currency_word
from ragspine.profile.periods import Period, find_periods
from ragspine.text import fold


@dataclass(frozen=True)
class Frame:
    """What a text's surroundings say where its own sentence is silent."""

    entity: str | None = None
    period: Period | None = None
    metric: str | None = None
    channel: str | None = None
    currency: str | None = None
    scale: int = 1  # a table's unit note: (百万美元) makes a bare 455 mean 455,000,000
    percent: bool = False  # a table's (%) column
    source: bool = False  # a source's figure of a metric, no channel named, is the total


NO_FRAME = Frame()


_TITLE_SEPARATOR = " › "
_UNIT_NOTE = re.compile(
    r"(?:[((]\s*(?:单位\s*[::]\s*)?|单位\s*[::]\s*|\bin\s+)"
    r"(?P<scale>百万|千万|亿|万|千|million|billion|thousand|mn|bn|m)?\s*"
    r"(?P<unit>美元|港元|港币|人民币|元|usd|hkd|rmb|cny|%|家|stores)?\s*(?:[))]|$)",
    re.I,
)
_NOTE_SCALES = {
    "百万": 10**6, "千万": 10**7, "亿": 10**8, "万": 10**4, "千": 10**3, "million": 10**6,
    "billion": 10**9, "thousand": 10**3, "mn": 10**6, "bn": 10**9, "m": 10**6,
}  # fmt: skip


def frame_of(
    texts: list[str], vocab: Vocabulary, ref: date, *, metric: bool = False, source: bool = False
) -> Frame:
    """The frame texts give, most specific first: for each of entity, period, channel (and
    metric, where asked), the first text naming exactly one; a text naming two of a kind
    (五、东南亚与台湾) says none, and the texts after it are not asked."""
    found: dict[str, object] = {}
    kinds = ("entities", "channels", "metrics") if metric else ("entities", "channels")
    for text in texts:
        view = fold(text)
        names = vocab.glossary.scan(view)
        for kind in kinds:
            codes = {m.code for k, m in names if k == kind}
            if kind not in found and codes:
                found[kind] = codes.pop() if len(codes) == 1 else None
        periods = {pm.period for pm in find_periods(view, ref) if pm.period is not None}
        if "period" not in found and periods:
            found["period"] = periods.pop() if len(periods) == 1 else None
    period = found.get("period")
    return Frame(
        entity=_str(found.get("entities")),
        period=period if isinstance(period, Period) else None,
        metric=_str(found.get("metrics")),
        channel=_str(found.get("channels")),
        source=source,
    )


def passage_frame(title: str, vocab: Vocabulary, ref: date) -> Frame:
    """A cited passage's frame: its headings, deepest first, then its document's title."""
    return _passage_frame(title, vocab, ref)


@lru_cache(maxsize=1024)
def _passage_frame(title: str, vocab: Vocabulary, ref: date) -> Frame:
    parts = [p for p in title.split(_TITLE_SEPARATOR) if p.strip()]
    return frame_of(parts[::-1], vocab, ref, source=True)


def with_unit_note(frame: Frame, *texts: str) -> Frame:
    """A table's unit note, where one of ``texts`` has one: (百万美元), 单位:万元, (%)."""
    for text in texts:
        for m in _UNIT_NOTE.finditer(fold(text)):
            scale, unit = (m.group("scale") or "").lower(), (m.group("unit") or "").lower()
            if not (scale or unit):
                continue
            return replace(
                frame,
                scale=_NOTE_SCALES.get(scale, 1),
                currency=frame.currency or (currency_word(unit) if unit != "%" else None),
                percent=unit == "%",
            )
    return frame


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def merged(first: Frame, then: Frame) -> Frame:
    """``first`` where it says something, else ``then``."""
    return replace(
        first,
        entity=first.entity or then.entity,
        period=first.period or then.period,
        metric=first.metric or then.metric,
        channel=first.channel or then.channel,
        currency=first.currency or then.currency,
        scale=first.scale if first.scale != 1 else then.scale,
        percent=first.percent or then.percent,
        source=first.source or then.source,
    )
