"""What a claim may rely on, each number with its context: found facts (their slots), values
computed from two facts of one series (their series, between their periods), and cited passages
(each number read with its own sentence, then the passage's headings and document)."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations
from typing import Any

from ragspine.evals.audit.claims import Claim, normalise
from ragspine.evals.audit.context import Backdrop, Context, Statement, read
from ragspine.evals.audit.names import Lexicon
from ragspine.evals.audit.periods import find_periods, period_code
from ragspine.evals.audit.qualifiers import quantity_of
from ragspine.evals.audit.words import unit_of_code

ChunkText = Callable[[str, str], str | None]


@dataclass(frozen=True)
class Source:
    claim: Claim
    ctx: Context
    computed: bool = False  # a difference or growth: its sign is its direction


_UNIT_SCALE = {"_K": 10**3, "_M": 10**6, "_B": 10**9, "_BN": 10**9}
_TINY = Fraction(1, 10**6)


# what a fact's sources are read from: the rest of it (its source, its operands) says nothing
_FACT_FIELDS = ("value", "unit", "entity", "metric_code", "channel", "period_type", "period")


def fact_sources(fact: Mapping[str, Any], lex: Lexicon) -> list[Source]:
    """A found fact at its stored value and at scale, with its slots as its context; read once
    per lexicon for the same fields (each with its type: 1 and 1.0 are written differently)."""
    key = _key(fact)
    if key is None:
        return _fact_sources(fact, lex)
    return list(lex.sources.get(key, lambda: tuple(_fact_sources(fact, lex))))


def _key(fact: Mapping[str, Any], *extra: Hashable) -> tuple[Hashable, ...] | None:
    """The fields a fact is read from, each with its type; None where one is no plain value."""
    key = (*extra, *((type(v), v) for v in (fact.get(k) for k in _FACT_FIELDS)))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _fact_sources(fact: Mapping[str, Any], lex: Lexicon) -> list[Source]:
    value = Fraction(str(fact["value"]))
    unit = str(fact.get("unit", ""))
    names = lex.names
    declared = names.units.get(unit) if names else None
    percent = declared[0] if declared else unit == "PCT"
    kind = "percent" if percent else "number"
    scale = (
        declared[1]
        if declared
        else next((v for k, v in _UNIT_SCALE.items() if unit.upper().endswith(k)), 1)
    )
    ctx = fact_context(fact, lex, kind)
    return [
        Source(Claim("", value, kind, _TINY, 0), ctx),
        Source(Claim("", value * scale, kind, _TINY * scale, 0), ctx),
    ]


def _formula(fact: Mapping[str, Any], lex: Lexicon) -> str:
    formulas = lex.names.formulas if lex.names else {}
    return formulas.get(str(fact.get("metric_code")), ("",))[0]


def fact_context(fact: Mapping[str, Any], lex: Lexicon, kind: str = "number") -> Context:
    """A fact's slots as a context: read once per lexicon, like its sources."""
    key = _key(fact, "context", kind)
    if key is None:
        return _fact_context(fact, lex, kind)
    held = lex.sources.get(key, lambda: (_fact_context(fact, lex, kind),))
    return held[0]  # type: ignore[no-any-return]


def _fact_context(fact: Mapping[str, Any], lex: Lexicon, kind: str = "number") -> Context:
    unit = str(fact.get("unit", ""))
    display = lex.names.unit_display.get(unit, "") if lex.names else ""
    code = period_code(str(fact.get("period_type", "")), str(fact.get("period", "")))
    return Context(
        entity=str(fact["entity"]) if fact.get("entity") else None,
        period=(code,) if code else (),
        metric=str(fact["metric_code"]) if fact.get("metric_code") else None,
        # a derived metric's formula says what quantity it is; a base metric's figure is a level
        modifier=None if lex.names and fact.get("metric_code") in lex.names.formulas else "level",
        # a derived metric whose formula fixes its operands' channels (an online share) is of
        # no one channel: its name may say 线上 while its slot is the total
        channel=None
        if "[channel=" in _formula(fact, lex)
        else (str(fact["channel"]) if fact.get("channel") else None),
        unit=unit_of_code(unit, display, display == "COUNT"),
        role="level" if kind == "number" else None,
        quantity=_quantity(fact, lex, unit_of_code(unit, display, display == "COUNT")),
    )


def _quantity(fact: Mapping[str, Any], lex: Lexicon, unit: str | None) -> str | None:
    """A count fact's quantity: a flow where its metric's name says so (新开门店数, net new
    stores), else a stock (a store count is the count at the period's end)."""
    names = lex.names.metrics.get(str(fact.get("metric_code")), ()) if lex.names else ()
    for name in names:
        found = quantity_of(normalise(name), "")
        if found in ("net", "gross"):
            return found
    return "stock" if unit == "COUNT" else None


def computed_sources(facts: list[Mapping[str, Any]], lex: Lexicon) -> list[Source]:
    """Found facts, and for two of one series their difference and growth, both ways: each with
    the series' context, between the two periods."""
    out = [s for f in facts for s in fact_sources(f, lex)]
    for a, b in combinations(facts, 2):
        series = ("metric_code", "entity", "channel", "unit")
        if any(a.get(k) != b.get(k) for k in series):
            continue
        for x, y in ((a, b), (b, a)):
            base = fact_context(y, lex)
            periods = tuple(p for c in (fact_context(x, lex), base) for p in c.period)
            for sx, sy in zip(fact_sources(x, lex), fact_sources(y, lex), strict=True):
                cx, cy = sx.claim, sy.claim
                assert cx.value is not None and cy.value is not None
                # a change of a rate is in points, whether written 个百分点 or "PCT"
                kinds = ("points", "percent") if cx.kind == "percent" else ("number",)
                unit = base.unit if cx.kind == "number" else None
                ctx = Context(base.entity, periods, base.metric, "change", base.channel, unit)
                ctx = replace(ctx, role="change")
                out += [
                    Source(Claim("", cy.value - cx.value, k, cx.slack, 0), ctx, True) for k in kinds
                ]
            vx = Fraction(str(x["value"]))
            if vx:
                growth = (Fraction(str(y["value"])) - vx) / vx * 100
                ctx = Context(
                    base.entity, periods, base.metric, "growth", base.channel, role="change"
                )
                out.append(Source(Claim("", growth, "percent", _TINY, 0), ctx, True))
    return out


# -- passages -----------------------------------------------------------------------------------

_FRONT = re.compile(r"\A---\n((?:(?:title|entity|period): [^\n]*\n)+)---\n")


def with_context(text: str, *, title: str = "", entity: str = "", period: str = "") -> str:
    """A passage's text with what the audit reads where its sentences name nothing: its heading
    path (document title › section › …), its document's entity and period. The harness builds
    chunk texts with it; a text without it is read on its own."""
    given = (("title", title), ("entity", entity), ("period", period))
    lines = [f"{k}: {' '.join(v.split())}" for k, v in given if v]
    return f"---\n{''.join(line + chr(10) for line in lines)}---\n{text}" if lines else text


@dataclass(frozen=True)
class Passage:
    text: str  # normalised, on one line, as a quote of it would read
    statements: tuple[Statement, ...]
    backdrop: Backdrop


def passage(raw: str, lex: Lexicon) -> Passage:
    """A cited passage, read once however many answers cite it."""
    held = lex.passages.get(raw)
    if isinstance(held, Passage):
        return held
    meta: dict[str, str] = {}
    m = _FRONT.match(raw)
    if m:
        meta = dict(line.split(": ", 1) for line in m.group(1).splitlines())
        raw_text = raw[m.end() :]
    else:
        raw_text = raw
    text = normalise(raw_text)
    back = _backdrop(meta, lex, _LEAD_LABEL.match(text))
    back = replace(back, channel=_channel_of(meta.get("title", ""), text, lex))
    read_in = read(text, lex, back, carry=True)
    statements = tuple(t for s in read_in if s.claim.value is not None for t in _readings(s))
    out = Passage(" ".join(text.split()), statements, back)
    if len(lex.passages) < 8192:
        lex.passages[raw] = out
    return out


def _readings(st: Statement) -> list[Statement]:
    """执行八折 is a price at 80% of the list price, and a discount of 20%: both are stated."""
    if not st.claim.text.endswith("折") or st.claim.value is None:
        return [st]
    share = replace(st, ctx=replace(st.ctx, modifier="share"))
    cut = replace(st.claim, value=100 - st.claim.value)
    return [share, replace(st, claim=cut, ctx=replace(st.ctx, modifier="discount"))]


# A passage that opens with a label ("中国内地:2025年的目标是…") is about what the label names.
_LEAD_LABEL = re.compile(r"\s*([^:\n。]{1,12}):")


def _backdrop(meta: Mapping[str, str], lex: Lexicon, lead: re.Match[str] | None) -> Backdrop:
    """The passage's own leading label, then the deepest heading that names an entity (a
    period), then the document's own, then its title's: 四、香港:增长的驱动因素 is about 香港."""
    parts = [normalise(p) for p in meta.get("title", "").split(" › ")]
    headings, title = parts[1:][::-1], parts[:1]
    entity = _first(
        [
            _entity_of(lead.group(1), lex) if lead else None,
            *(_entity_of(h, lex) for h in headings),
            meta.get("entity") or None,
            *(_entity_of(t, lex) for t in title),
        ]
    )
    period = _first(
        [
            *(_period_of(h) for h in headings),
            _period_of(meta.get("period", "")),
            *(_period_of(t) for t in title),
        ]
    )
    return Backdrop(entity=entity, period=period)


def _channel_of(title: str, text: str, lex: Lexicon) -> str | None:
    """The channel a passage's figures are for where their clause names none: the deepest
    heading's channel word, else, where neither the passage nor its headings names any channel,
    the profile's default (收入为1320 in a passage that never says 线上 is the total's); else
    unknown (the channel may be named in a sentence before)."""
    for heading in normalise(title).split(" › ")[::-1]:
        found = lex.channels(heading)
        if found:
            return found[-1].code
    if lex.names is None or lex.channels(text):
        return None
    return lex.names.default_channel or None


def _first(items: Iterable[str | None]) -> str | None:
    return next((x for x in items if x), None)


def _entity_of(text: str, lex: Lexicon) -> str | None:
    found = lex.entities(text)
    return found[-1].code if found else None


def _period_of(text: str) -> str | None:
    return next((p.code for p in find_periods(normalise(text)) if p.code), None)
