"""The narrative guard: every number in model prose is held to the passages its sentence cites.

Control flow, not a prompt. The model's text is folded first (format and bidi characters gone,
every digit form normalised), so what is checked is what is shown. Then, sentence by sentence:

* a citation counts only if it names a retrieved passage (``(来源:doc locator)`` or ``[n]``);
  one that does not is dropped from the text;
* a sentence without a citation of its own leans on the next cited sentence of its line;
* a sentence quoted word for word from a passage it cites (nothing glued to the quote that
  would change a number in it) states what the passage states;
* every number in it must be stated by a cited passage (same value at the same scale, same
  kind, not a year or locator there, not with the opposite direction), or be a found fact or a
  difference or growth rate computed from two found facts;
* in a composite answer it may not give the structured half's metric, entity and period another
  value, nor a value for one the structured half could not find.

A sentence that fails is replaced by a short marker; the trace counts removals, never their text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import lru_cache
from itertools import combinations

from ragspine.agent.query_tools import FoundResult, ToolResult
from ragspine.agent.request import Request
from ragspine.numbers import Kind, Quantity, direction_before, fold_numbers, read_numbers
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import glossary_for
from ragspine.profile.periods import Period, find_periods
from ragspine.retrieval.base import NarrativeHit
from ragspine.text import fold

REMOVED_MARKER = "〔此句含无法核实的数字,已移除〕"

_CITATION = re.compile(r"[((](?:来源|出处|sources?)\s*[::]([^()()]*)[))]|\[(\d{1,2})\]", re.I)
_SENTENCE_END = re.compile(r"(?<=[。!?!?;;])|(?<=\.)(?=\s)")
_LEADING_CITATIONS = re.compile(rf"^\s*(?:(?:{_CITATION.pattern})\s*)+", re.I)
_SEPARATORS = re.compile(r"[、;;]\s*")  # not commas: locators hold them
# What makes a number an amount of money, a count of stores, or a rate: the fact's own kind.
_MONEY_AFTER = re.compile(r"^\s?(?:美元|元|港元|人民币|usd|us\$|hkd|cny|rmb|dollars?)", re.I)
_COUNT_AFTER = re.compile(r"^\s?(?:家|间|个|stores?|outlets?)", re.I)
_RELATIVE_PERIOD = re.compile(
    r"上年|上一年|去年|前一年|上年度|上年末|同期|prior year|previous year|last year|year earlier"
)
_FROM_BEFORE = re.compile(r"(?:由|从|from)\s*(?:上年的|去年的)?\s*$")
_LEVEL_BEFORE = re.compile(r"(?:至|到|为|达|to|at)\s*$")
_CHANGE_BEFORE = re.compile(r"(?:关闭|新开|净减少|净增加|净增|净减|减少了?|增加了?|net)\s*$")
_HALF = Decimal("0.5")
_EXACT = Decimal("0.0000005")
_SCALES = {"_K": Decimal(10**3), "_M": Decimal(10**6), "_B": Decimal(10**9), "_BN": Decimal(10**9)}


@dataclass
class GroundingReport:
    text: str
    numbers_removed: int = 0
    sentences_removed: int = 0
    citations_dropped: int = 0


def ground(
    req: Request, text: str, hits: Sequence[NarrativeHit], facts: Sequence[ToolResult] = ()
) -> GroundingReport:
    """The model's text with every unsupported sentence replaced and every fake citation gone."""
    report = GroundingReport(text="")
    found = [
        o for f in facts if f["status"] == "found" for o in [f, *(f.get("operands") or [])]
    ]  # a derived metric's operands are facts of the answer too
    derived = _derived(req.profile, found)
    slots = _slots(req, facts)
    passages = _Passages(hits)
    lines = []
    for line in fold_numbers(text).split("\n"):
        sentences = [passages.cite(s, report) for s in _sentences(line)]
        inherited: list[NarrativeHit] = []
        for i in range(len(sentences) - 1, -1, -1):  # uncited sentences lean on the next citation
            clean, cited = sentences[i]
            if cited:
                inherited = cited
            else:
                sentences[i] = (clean, inherited)
        kept = []
        for clean, cited in sentences:
            bad = _unsupported(req, clean, cited, derived, slots)
            if bad:
                report.numbers_removed += bad
                report.sentences_removed += 1
                kept.append(REMOVED_MARKER)
            else:
                kept.append(clean)
        lines.append("".join(kept))
    report.text = "\n".join(lines)
    return report


def _sentences(line: str) -> list[str]:
    """Sentences with the citations that follow them attached."""
    out: list[str] = []
    for piece in _SENTENCE_END.split(line):
        lead = _LEADING_CITATIONS.match(piece)
        if lead and out:
            out[-1] += lead.group()
            piece = piece[lead.end() :]
        if piece:
            out.append(piece)
    return out


class _Passages:
    """The retrieved passages, and what a citation of them may name."""

    def __init__(self, hits: Sequence[NarrativeHit]) -> None:
        self.hits = hits
        self.docs = sorted({h.doc_id for h in hits}, key=len, reverse=True)

    def cite(self, sentence: str, report: GroundingReport) -> tuple[str, list[NarrativeHit]]:
        """The sentence without citations of passages not retrieved, and the passages it cites."""
        cited: list[NarrativeHit] = []

        def keep(m: re.Match[str]) -> str:
            resolved = self.resolve(m.group(1), m.group(2))
            if not resolved:
                report.citations_dropped += 1
                return ""
            cited.extend(h for h in resolved if h not in cited)
            return m.group()

        clean = (
            _CITATION.sub(keep, sentence)
            if "(" in sentence or "(" in sentence or "[" in sentence
            else sentence
        )
        return clean, cited

    def resolve(self, body: str | None, number: str | None) -> list[NarrativeHit]:
        if number:
            n = int(number)
            return [self.hits[n - 1]] if 1 <= n <= len(self.hits) else []
        out = []
        for item in _SEPARATORS.split(body or ""):
            item = item.strip()
            doc = next((d for d in self.docs if item.startswith(d)), None)
            if doc is None:
                continue
            locator = item[len(doc) :].strip(" ·")
            out += [h for h in self.hits if h.doc_id == doc and locator in ("", h.locator)]
        return out


def _unsupported(
    req: Request,
    sentence: str,
    cited: Sequence[NarrativeHit],
    derived: list[Quantity],
    slots: Sequence[_Slot],
) -> int:
    """How many numbers in the sentence nothing it may rely on states.

    A sentence quoted word for word from a passage it cites states that passage's numbers in
    the passage's own words: only the composite check remains for it.
    """
    body = " ".join(_CITATION.sub(" ", sentence).split())
    if body and any(_quoted(body, _passage_text(h.text)) for h in cited):
        return _contradictions(req, sentence, None, slots, cited)
    claims = [q for q in read_numbers(sentence) if q.role == "value"]
    if not claims:
        return 0
    sources = [stated for h in cited for stated in _passage(h.text)]
    bad = 0
    for claim in claims:
        way = direction_before(sentence, claim.start)
        if any(_signed_match(claim, way, d) for d in derived):
            continue
        if not any(claim.matches(q) and not (way and theirs == -way) for q, theirs in sources):
            bad += 1
    return bad + _contradictions(req, sentence, claims, slots, cited)


def _quoted(body: str, passage: str) -> bool:
    """``body`` stands in the passage with nothing around it that would change a number in it:
    not "为12" out of "为120百万", "增长11" out of "增长11%", "was 2" out of "was 2 billion"."""
    start = passage.find(body)
    while start != -1:
        end = start + len(body)
        left, right = passage[max(0, start - 1) : start], passage[end:]
        cut_word = (left.isascii() and left.isalpha() and body[0].isalpha()) or (
            right[:1].isascii() and right[:1].isalpha() and body[-1].isalpha()
        )
        if not (_GLUED_BEFORE.match(left) or _GLUED_AFTER.match(right) or cut_word):
            return True
        start = passage.find(body, start + 1)
    return False


_GLUED_BEFORE = re.compile(r"[\d.,+\-零〇一二两三四五六七八九十百千万亿负]")
_GLUED_AFTER = re.compile(
    r"\s?(?:[\d.,%‰零〇一二两三四五六七八九十百千万亿个倍成]|billion|million|thousand|bn|mn"
    r"|percent|per cent|pp|bps|basis point|times)",
    re.I,
)


@lru_cache(maxsize=4096)
def _passage_text(text: str) -> str:
    """A passage as the model saw it (one line) and as the guard reads it (folded)."""
    return " ".join(fold_numbers(text).split())


@lru_cache(maxsize=4096)
def _passage(text: str) -> tuple[tuple[Quantity, int], ...]:
    """What a passage states, with the direction it states it in: read once per passage."""
    folded = fold_numbers(text)
    return tuple(
        (q, direction_before(folded, q.start)) for q in read_numbers(folded) if q.role == "value"
    )


@dataclass(frozen=True)
class _Slot:
    """One slot the structured half answered (``own``: its value) or could not find."""

    key: tuple[str, str, str, str]  # metric, entity, period type, period
    channel: str
    unit: str
    own: tuple[Quantity, ...]
    words: tuple[str, ...]  # the metric's folded names, for a cheap first look


def _slots(req: Request, facts: Sequence[ToolResult]) -> list[_Slot]:
    words = req.profile.memo("metric_words", lambda: _metric_words(req.profile))
    out = []
    for fact in facts:
        if fact["status"] == "found":
            key = (fact["metric_code"], fact["entity"], fact["period_type"], fact["period"])
            own = tuple(_fact_quantities(req.profile, fact))
            slot = _Slot(key, fact["channel"], fact["unit"], own, ())
        elif fact["status"] == "not_found":
            n = fact["normalized"]
            key = (n["metric_code"], n["entity"], n["period_type"], n["period"])
            slot = _Slot(key, n["channel"], _unit_of(req, n["metric_code"]), (), ())
        else:
            continue
        out.append(replace(slot, words=tuple(words.get(key[0], ()))))
    return list(dict.fromkeys(out))


def _contradictions(
    req: Request,
    sentence: str,
    claims: list[Quantity] | None,
    slots: Sequence[_Slot],
    cited: Sequence[NarrativeHit],
) -> int:
    """Values the sentence gives a slot the structured half answered or could not find.

    ``claims`` None: not read yet (read here only if the sentence names a slot's metric).
    """
    if not slots:
        return 0
    folded = fold(sentence)
    named = [s for s in slots if any(w in folded for w in s.words)]
    if not named:
        return 0  # names none of the answer's metrics: nothing to contradict
    glossary = glossary_for(req.profile)
    metrics = {m.code for m in glossary.metrics.find_all(folded)}
    named = [s for s in named if s.key[0] in metrics]
    if not named:
        return 0
    entities = {m.code for m in glossary.entities.find_all(folded)}
    channels = {m.code for m in glossary.channels.find_all(folded)} or {req.profile.default_channel}
    named = [s for s in named if s.channel in channels and (not entities or s.key[1] in entities)]
    if not named:
        return 0  # 线上收入 is not total revenue; 香港 is not 中国内地
    periods = glossary.find_periods(folded, req.reference_date)
    if claims is None:
        claims = [q for q in read_numbers(sentence) if q.role == "value"]
    bad = 0
    for slot in named:
        for claim in claims:
            if _is_change(sentence, claim):
                continue  # 净关闭45家, 减少20家: a change, not the level the fact states
            period = _period_of(req, sentence, claim, periods[0] if periods else None, cited)
            if period is None or (period != ("", "") and period != slot.key[2:]):
                continue  # a value for another period of the same metric
            if _same_kind(req.profile, claim, sentence, slot.unit) and not any(
                claim.matches(q) for q in slot.own
            ):
                bad += 1
    return bad


def _metric_words(profile: DomainProfile) -> dict[str, list[str]]:
    """Each metric's folded names: a cheap first look before the glossary's full match."""
    return {m.code: [fold(w) for w in (m.code, *m.aliases)] for m in profile.metrics}


def _is_change(sentence: str, claim: Quantity) -> bool:
    before = sentence[max(0, claim.start - 8) : claim.start]
    if _LEVEL_BEFORE.search(before):
        return False  # 下降至1320: the level reached
    return bool(_CHANGE_BEFORE.search(before)) or direction_before(sentence, claim.start) != 0


def _period_of(
    req: Request,
    sentence: str,
    claim: Quantity,
    first: Period | None,
    cited: Sequence[NarrativeHit],
) -> tuple[str, str] | None:
    """The period a number is stated for: the last one named before it, else the sentence's,
    else the one the cited documents' titles name; ("", "") when nothing says.

    None when it is another period the reader cannot place (上年, 由X增至Y's X): not this slot's.
    """
    before = fold(sentence[: claim.start])
    if _FROM_BEFORE.search(before[-6:]):
        return None
    named = find_periods(before, req.reference_date)
    relative = [m.end() for m in _RELATIVE_PERIOD.finditer(before)]
    last_named = named[-1] if named else None
    if relative and (last_named is None or relative[-1] > last_named.end):
        return None
    period = last_named.period if last_named else first
    if period is None:
        titled = {
            (m.period.period_type, m.period.period)
            for h in cited
            for m in find_periods(fold(h.title), req.reference_date)
            if m.period is not None
        }
        return titled.pop() if len(titled) == 1 else ("", "")
    return (period.period_type, period.period)


def _signed_match(claim: Quantity, way: int, computed: Quantity) -> bool:
    """A computed change carries its sign: 下降 5.7% matches -5.7, 增长 5.7% does not."""
    if way == 0 or claim.value < 0:
        return claim.matches(computed) or claim.matches(_negated(computed))
    return _negated(claim).matches(computed) if way < 0 else claim.matches(computed)


def _negated(q: Quantity) -> Quantity:
    return Quantity(-q.value, q.kind, q.precision, q.start, q.end, q.text, q.role)


def _unit_of(req: Request, metric_code: str) -> str:
    spec = req.profile.any_metric(metric_code)
    return spec.unit if spec is not None else ""


def _unit_kind(prof: DomainProfile, unit: str) -> str:
    """percent, count, ratio or amount: as the profile declares the unit (PCT and COUNT, the
    demo's codes, read as their names say when undeclared)."""
    declared = prof.unit(unit)
    if declared.kind != "amount" or any(u.code == unit for u in prof.units):
        return declared.kind
    return "count" if unit == "COUNT" else "amount"


def _same_kind(prof: DomainProfile, claim: Quantity, sentence: str, unit: str) -> bool:
    """Is this number of the fact's kind: a rate for a percentage, money for an amount, a count?"""
    kind = _unit_kind(prof, unit)
    if kind == "percent":
        return claim.kind == "percent"
    if claim.kind != "number":
        return False
    after = sentence[claim.end : claim.end + 6]
    if kind == "count":
        return bool(_COUNT_AFTER.match(after))
    if kind == "ratio":
        return False  # a plain multiple: only the number itself, which the passage check holds
    scaled = claim.precision > _HALF  # 1400百万, 4.55亿: a scale word was written
    return bool(_MONEY_AFTER.match(after)) or scaled or sentence[: claim.start].endswith("$")


def _scale(prof: DomainProfile, unit: str) -> Decimal:
    """What one of the unit is worth in base units: declared (万元 = 10000), else by the code's
    ending (USD_M = 1000000)."""
    if any(u.code == unit for u in prof.units):
        return Decimal(str(prof.unit(unit).scale))
    return next((v for k, v in _SCALES.items() if unit.upper().endswith(k)), Decimal(1))


def _fact_quantities(prof: DomainProfile, fact: FoundResult) -> list[Quantity]:
    """A found fact as written (1320 USD_M) and at scale (1,320,000,000)."""
    value = Decimal(str(fact["value"]))
    kind: Kind = "percent" if _unit_kind(prof, fact["unit"]) == "percent" else "number"
    scale = _scale(prof, fact["unit"])
    return [_exact(value, kind), _exact(value * scale, kind, scale)]


def _exact(value: Decimal, kind: Kind, scale: Decimal = Decimal(1)) -> Quantity:
    return Quantity(value, kind, _EXACT * scale, 0, 0, "")


def _derived(prof: DomainProfile, found: Sequence[FoundResult]) -> list[Quantity]:
    """Found facts, and what two of one series give: the difference and the growth rate."""
    out = [q for f in found for q in _fact_quantities(prof, f)]
    for a, b in combinations(found, 2):
        if (a["metric_code"], a["entity"], a["channel"], a["unit"]) != (
            b["metric_code"],
            b["entity"],
            b["channel"],
            b["unit"],
        ):
            continue
        # Both orders: which of the two is "before" is the sentence's to say, by its words.
        va, vb = Decimal(str(a["value"])), Decimal(str(b["value"]))
        scale = _scale(prof, a["unit"])
        kind: Kind = "points" if _unit_kind(prof, a["unit"]) == "percent" else "number"
        for base, other in ((va, vb), (vb, va)):
            out += [_exact(other - base, kind), _exact((other - base) * scale, kind, scale)]
            if base:
                out.append(_exact((other - base) / base * 100, "percent"))
    return out
