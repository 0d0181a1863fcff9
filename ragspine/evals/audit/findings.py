"""The audit's own reading of an answer: every number-like thing in it, each held to the sources
its sentence relies on. It shares no code with the engine's reader or guard (a test pins that),
so a blind spot in one is not a blind spot in both.

Over-inclusive by design: anything number-like the audit cannot parse is reported as
``unparsed``, never skipped. What is not a claim: text inside a citation (document names,
locators), a year in a period label (FY2024, 2024年, 2024Q3), a quarter or half number, and list
numbering at the start of a line. A claim is explained by the found fact its line cites, by a
passage its line cites, by a found fact or a difference or growth rate of two found facts of one
series, or by the question or the assumption note; by value at scale, by kind (number, percent,
points, multiple), and not against the direction the source states.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

from ragspine.evals.audit.claims import Claim, is_label, normalise, read_claims

ChunkText = Callable[[str, str], str | None]

# A direction override or isolate next to digits shows the reader another number than the text.
_BIDI_NEAR_DIGIT = re.compile(
    r"[\u202a-\u202e\u2066-\u2069][^\u202c\u2069]{0,12}\d|\d[\u202a-\u202e\u2066-\u2069]"
)
_CITE = re.compile(r"[((](?:来源|出处|sources?)\s*[::]([^()()]*)[))]", re.I)


@dataclass(frozen=True)
class SlotNames:
    """The words that name each metric, entity and channel code: the profile's data, read here
    without the engine's glossary."""

    metrics: Mapping[str, Sequence[str]]
    entities: Mapping[str, Sequence[str]]
    channels: Mapping[str, Sequence[str]]
    default_channel: str = "TOTAL"
    # derived metric code → (formula as the profile writes it, shown ×100 as a percentage)
    formulas: Mapping[str, tuple[str, bool]] = field(default_factory=dict)
    # unit code → (percent, scale in base units) as the profile declares it
    units: Mapping[str, tuple[bool, Fraction]] = field(default_factory=dict)


@dataclass(frozen=True)
class Finding:
    number: str
    reason: str  # unsupported | unparsed | reversed


# -- checking -----------------------------------------------------------------------------------


_UNIT_SCALE = {"_K": 10**3, "_M": 10**6, "_B": 10**9, "_BN": 10**9}


def _fact_claims(
    fact: Mapping[str, Any], units: Mapping[str, tuple[bool, Fraction]] | None = None
) -> list[Claim]:
    value = Fraction(str(fact["value"]))
    unit = str(fact.get("unit", ""))
    declared = (units or {}).get(unit)
    percent = declared[0] if declared else unit == "PCT"
    kind = "percent" if percent else "number"
    scale = (
        declared[1]
        if declared
        else next((v for k, v in _UNIT_SCALE.items() if unit.upper().endswith(k)), 1)
    )
    tiny = Fraction(1, 10**6)
    return [Claim("", value, kind, tiny, 0), Claim("", value * scale, kind, tiny * scale, 0)]


def _computed(
    facts: list[Mapping[str, Any]], units: Mapping[str, tuple[bool, Fraction]] | None = None
) -> list[Claim]:
    """Found facts, and for two of one series their difference and growth, both ways."""
    out = [c for f in facts for c in _fact_claims(f, units)]
    for a, b in combinations(facts, 2):
        series = ("metric_code", "entity", "channel", "unit")
        if any(a.get(k) != b.get(k) for k in series):
            continue
        for x, y in ((a, b), (b, a)):
            for cx, cy in zip(_fact_claims(x, units), _fact_claims(y, units), strict=True):
                assert cx.value is not None and cy.value is not None
                # a change of a rate is in points, whether written 个百分点 or "PCT"
                kinds = ("points", "percent") if cx.kind == "percent" else ("number",)
                out += [Claim("", cy.value - cx.value, k, cx.slack, 0) for k in kinds]
            vx = Fraction(str(x["value"]))
            if vx:
                growth = (Fraction(str(y["value"])) - vx) / vx * 100
                out.append(Claim("", growth, "percent", Fraction(1, 10**6), 0))
    return out


def _supported(claim: Claim, sources: Iterable[Claim], signed: bool = False) -> str | None:
    """None if a source states the claim; else why not."""
    reversed_ = False
    assert claim.value is not None
    for src in sources:
        if src.value is None or src.kind != claim.kind:
            continue
        value = claim.value
        if signed and claim.direction < 0 < value:
            value = -value
        if abs(value - src.value) <= claim.slack + src.slack / 1000 or (
            not signed and abs(abs(value) - abs(src.value)) <= claim.slack and claim.direction == 0
        ):
            if claim.direction and src.direction and claim.direction != src.direction:
                reversed_ = True
                continue
            return None
    return "reversed" if reversed_ else "unsupported"


def audit_answer(
    answer: str,
    *,
    question: str = "",
    assumption_note: str = "",
    tool_results: Iterable[Mapping[str, Any]] = (),
    chunk_text: ChunkText | None = None,
    names: SlotNames | None = None,
) -> list[Finding]:
    """Every number in the answer that nothing its line relies on states.

    With ``names`` (each metric and entity code → the words that name it), also every amount a
    prose sentence gives a slot the tool answered (another value) or could not find (any value).
    """
    findings = [Finding(m.group(), "bidi") for m in _BIDI_NEAR_DIGIT.finditer(answer)]
    tool_results = _recomputed(tool_results, names)
    facts_by_key: dict[tuple[Any, ...], Mapping[str, Any]] = {}
    for r in tool_results:  # duplicates counted once
        if r.get("status") == "found":
            key = tuple(
                r.get(k) for k in ("metric_code", "entity", "channel", "period_type", "period")
            )
            facts_by_key.setdefault(key, r)
    facts = list(facts_by_key.values())
    slots = list(
        {
            repr(sorted(r.items())): r
            for r in tool_results
            if r.get("status") in ("found", "not_found")
        }.values()
    )  # duplicates counted once
    # a derived metric shares its first operand's source: a line citing it states the operand
    by_source = {
        (f["source"]["doc"], f["source"]["locator"]): f for f in facts if "operands" not in f
    }
    units = names.units if names else None
    computed = _computed(facts, units)
    given = [*_stated(question), *_stated(assumption_note)]
    for line in normalise(answer).split("\n"):
        cited = [_cited(c.group(1), by_source) for c in _CITE.finditer(line)]
        local: list[Claim] = []
        passages: list[str] = []
        for doc, locator, fact in cited:
            if fact is not None:
                local += _fact_claims(fact, units)
            elif chunk_text is not None and doc:
                passage = _passage(chunk_text(doc, locator) or "")
                passages.append(passage.text)
                local += passage.claims
        bare = _CITE.sub(lambda m: " " * len(m.group()), line)
        # A line quoted word for word from a passage it cites states what the passage states;
        # only the slot check, which reads the line against the tool's answer, remains.
        body = " ".join(bare.split())
        quoted = bool(body) and any(_whole_clause_of(body, p) for p in passages)
        prose = not any(fact is not None for *_, fact in cited)
        slot_check = names is not None and prose and _may_name_a_slot(line, slots, names)
        if quoted and not slot_check:
            continue
        claims = read_claims(bare)
        for start, end, claim in [] if quoted else claims:
            if is_label(bare, start, end, claim):
                continue
            if claim.value is None:
                findings.append(Finding(claim.text, "unparsed"))
                continue
            why = _supported(claim, [*local, *given])
            if why is not None and _supported(claim, computed, signed=True) is None:
                why = None
            if why is not None:
                findings.append(Finding(claim.text, why))
        if slot_check and names is not None:
            findings += _slot_conflicts(bare, claims, slots, names)
    return findings


def _recomputed(
    results: Iterable[Mapping[str, Any]], names: SlotNames | None
) -> list[Mapping[str, Any]]:
    """A derived metric's operands as facts, and its value as the audit computes it from them
    with the profile's formula: the engine's own figure for it is never taken on trust."""
    out: list[Mapping[str, Any]] = []
    for r in results:
        operands = r.get("operands") if r.get("status") == "found" else None
        if operands is None:
            out.append(r)
            continue
        out += [o for o in operands if isinstance(o, Mapping)]
        spec = (names.formulas if names else {}).get(str(r.get("metric_code")))
        own = (str(r.get("period", "")), str(r.get("entity", "")), str(r.get("channel", "")))
        value = _evaluate(spec[0], operands, *own) if spec else None
        if value is not None:
            out.append({**r, "value": str(value * 100 if spec and spec[1] else value)})
    return out


# CODE[entity=X, channel=Y]: an operand fixed to another entity or channel than the result's
# (a share of the group, of one channel), read as _at(CODE, entity=X, channel=Y).
_FIXED = re.compile(r"\b([A-Za-z_]\w*)\s*\[([^\[\]]*)\]")


def _evaluate(
    formula: str, operands: Sequence[Any], period: str, entity: str = "", channel: str = ""
) -> Fraction | None:
    """The formula over the operand facts, in exact fractions; None if anything is off. An
    operand is the result's own entity and channel unless the formula fixes one."""
    rows: list[tuple[str, str, str, str, Fraction]] = []
    for o in operands:
        try:
            value = Fraction(str(o["value_text"]))
        except (KeyError, TypeError, ValueError):
            return None
        where = (str(o.get("entity") or ""), str(o.get("channel") or ""))
        rows.append((str(o.get("metric_code")), str(o.get("period")), *where, value))
    earlier = f"{int(period[:4]) - 1:04d}{period[4:]}" if period[:4].isdigit() else ""

    def fact(node: ast.AST, when: str) -> Fraction:
        fixed: dict[str, str] = {}
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "_at"
            and len(node.args) == 1
        ):
            for kw in node.keywords:
                if kw.arg not in ("entity", "channel") or not isinstance(kw.value, ast.Name):
                    raise ValueError(ast.dump(node))
                fixed[kw.arg] = kw.value.id
            node = node.args[0]
        if not isinstance(node, ast.Name):
            raise ValueError(ast.dump(node))
        want = (fixed.get("entity", entity), fixed.get("channel", channel))
        for code, at, *where, value in rows:
            if (code, at) == (node.id, when) and all(
                not w or not o or w == o for w, o in zip(want, where, strict=True)
            ):
                return value
        raise KeyError(node.id)

    def walk(node: ast.AST) -> Fraction:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return Fraction(str(node.value))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "prev"
            and len(node.args) == 1
        ):
            return fact(node.args[0], earlier)
        return fact(node, period)

    try:
        return walk(ast.parse(_FIXED.sub(r"_at(\1, \2)", formula), mode="eval"))
    except (SyntaxError, ValueError, KeyError, ZeroDivisionError):
        return None


_OPS: dict[type, Callable[[Fraction, Fraction], Fraction]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}

_OTHER_PERIOD = re.compile(r"(由|从|上年的?|去年的?|上一年的?|from|prior year|last year)\s*$", re.I)
_AMOUNT_AFTER = re.compile(r"^\s?(美元|元|港元|人民币|USD|dollars?)", re.I)
_CHANGE = re.compile(r"(关闭|新开|净减少?|净增加?|减少了?|增加了?|net|closed|opened)\s*$", re.I)
_COUNT_AFTER = re.compile(r"^\s?(家|间|个|stores?)", re.I)


def _slot_conflicts(
    line: str,
    claims: list[tuple[int, int, Claim]],
    slots: list[Mapping[str, Any]],
    names: SlotNames,
) -> list[Finding]:
    """Amounts a prose sentence states for a slot the tool answered otherwise or not at all."""
    out: list[Finding] = []
    if not slots or not claims:
        return out
    offset = 0
    for sentence in re.split(r"(?<=[。!?;!?;])", line):
        begin, offset = offset, offset + len(sentence)
        mine = [(s - begin, e - begin, c) for s, e, c in claims if begin <= s < offset]
        if not mine:
            continue
        low = sentence.lower()
        named = [s for s in slots if _names_slot(sentence, low, s, names)]
        # A sentence naming two found slots (a derived metric and, in its formula, an operand)
        # states a value that either one gives: not a contradiction of the other.
        stated = [
            c for s in named if s.get("status") == "found" for c in _fact_claims(s, names.units)
        ]
        for slot in named:
            keys = slot if slot.get("status") == "found" else slot.get("normalized", {})
            for start, end, claim in mine:
                if claim.value is None or is_label(sentence, start, end, claim):
                    continue
                if _OTHER_PERIOD.search(sentence[max(0, start - 6) : start]):
                    continue
                near = sentence[max(0, start - 6) : start], sentence[end : end + 4]
                unit = str(keys.get("unit", ""))
                percent = names.units[unit][0] if unit in names.units else unit == "PCT"
                if not _same_kind(claim, *near, "PCT" if percent else unit):
                    continue
                if slot.get("status") == "not_found":
                    out.append(Finding(claim.text, "not_found_slot"))
                elif _supported(claim, stated) is not None:
                    out.append(Finding(claim.text, "contradicts_fact"))
    return out


def _names_slot(sentence: str, low: str, slot: Mapping[str, Any], names: SlotNames) -> bool:
    """Does the sentence name the slot's metric, entity, year and channel?"""
    keys = slot if slot.get("status") == "found" else slot.get("normalized", {})
    metric, entity, period = (keys.get(k, "") for k in ("metric_code", "entity", "period"))
    named = [
        any(w.lower() in low for w in words.get(code, [code]))
        for code, words in ((metric, names.metrics), (entity, names.entities))
    ]
    # Only a sentence that names the slot's year is read as stating its value: without one,
    # the passage may be about another year, and the audit cannot tell.
    if not all(named) or str(period)[:4] not in sentence:
        return False
    return _same_channel(low, str(keys.get("channel", "")), names)


def _same_channel(low: str, channel: str, names: SlotNames) -> bool:
    """A sentence about 线上收入 is not about total revenue, nor the reverse."""
    if channel and channel != names.default_channel:
        return any(w.lower() in low for w in names.channels.get(channel, [channel]))
    others = [w for c, words in names.channels.items() if c != names.default_channel for w in words]
    return not any(w.lower() in low for w in others)


def _same_kind(claim: Claim, before: str, after: str, unit: str) -> bool:
    """Is this number the kind of level the fact states: a rate, an amount, a count?"""
    if claim.direction or claim.signed or _CHANGE.search(before):
        return False  # a change (增加45家, 净关闭45家, +0.9 PCT) is not the level the fact states
    if unit == "PCT":
        return claim.kind == "percent"
    if claim.kind != "number":
        return False
    if unit == "COUNT":
        return bool(_COUNT_AFTER.match(after))
    return bool(_AMOUNT_AFTER.match(after)) or claim.slack > Fraction(1, 2)


@dataclass(frozen=True)
class _Passage:
    text: str  # normalised, on one line, as a quote of it would read
    claims: tuple[Claim, ...]


@lru_cache(maxsize=4096)
def _passage(raw: str) -> _Passage:
    """A cited passage, read once however many answers cite it."""
    text = normalise(raw)
    return _Passage(" ".join(text.split()), _claims_of(text))


def _whole_clause_of(body: str, passage: str) -> bool:
    """Is ``body`` in the passage with nothing glued on either side that would change a number
    (a digit, a numeral, a scale word, a percent sign, the rest of a word)?"""
    at = passage.find(body)
    while at != -1:
        end = at + len(body)
        left, right = passage[at - 1 : at], passage[end : end + 12]
        glued = _GLUE_LEFT.fullmatch(left) or _GLUE_RIGHT.match(right)
        cut_word = (left[:1].isalpha() and body[:1].isalpha() and left.isascii()) or (
            right[:1].isalpha() and body[-1:].isalpha() and right[:1].isascii()
        )  # "one" out of "someone"
        if not glued and not cut_word:
            return True
        at = passage.find(body, at + 1)
    return False


_GLUE_LEFT = re.compile(r"[\d.,+\-零〇一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟负]")
_GLUE_RIGHT = re.compile(
    r"\s?(?:[\d.,%‰零〇一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟个倍成]"
    r"|(?:billion|million|thousand|trillion|bn|mn|percent|per cent|pct|pp|bps|basis|times)\b)",
    re.I,
)


def _may_name_a_slot(line: str, slots: list[Mapping[str, Any]], names: SlotNames) -> bool:
    """A cheap first look: does the line hold a slot's year and one of its metric's words?"""
    low = line.lower()
    for slot in slots:
        keys = slot if slot.get("status") == "found" else slot.get("normalized", {})
        words = names.metrics.get(str(keys.get("metric_code", "")), ())
        if str(keys.get("period", ""))[:4] in line and any(w.lower() in low for w in words):
            return True
    return False


@lru_cache(maxsize=1024)
def _stated(raw: str) -> tuple[Claim, ...]:
    """What the question or the assumption note states, read once per text: every audit of a
    case reads its question again, and most assumption notes are alike."""
    return _claims_of(normalise(raw))


def _claims_of(text: str) -> tuple[Claim, ...]:
    """What a source states: its numbers, less its labels (a year label is no support)."""
    return tuple(
        c for s, e, c in read_claims(text) if c.value is not None and not is_label(text, s, e, c)
    )


def _cited(body: str, by_source: Mapping[tuple[str, str], Any]) -> tuple[str, str, Any]:
    """(doc, locator, the found fact it names or None) for one citation's text."""
    text = body.strip()
    for (doc, locator), fact in by_source.items():
        if text.startswith(doc) and text[len(doc) :].strip(" ·") == locator:
            return doc, locator, fact
    doc, _, locator = text.partition(" ")
    return doc, locator.strip(" ·"), None
