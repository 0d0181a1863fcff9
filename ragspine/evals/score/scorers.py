"""Scorers: one behaviour each, each returning a Check (expected, actual, passed, why), or
None when the case says nothing the scorer could judge.

``unsupported_numbers`` is the independent audit of the anti-fabrication guard (``audit.py``,
which shares no code with the engine's reader): every number in an answer must be stated by what
its line relies on, a cited fact or passage, a found fact or a change computed from two, the
question or the surfaced assumption.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ragspine.agent.record import AnswerRecord
from ragspine.evals.audit.claims import normalise
from ragspine.evals.audit.findings import Finding, SlotNames, audit_answer
from ragspine.evals.golden.suite import GoldenCase
from ragspine.evals.run.records import Check
from ragspine.evals.score.asked import longer_term
from ragspine.evals.score.excluded import left_out
from ragspine.evals.score.reading import found_metrics, metrics_about, read_decline

ChunkText = Callable[[str, str], str | None]  # (doc, locator) → the chunk's text
ScoreFn = Callable[[GoldenCase, "Observed"], Check | None]


@dataclass(frozen=True)
class Scorer:
    check: str  # the name of the Check it returns
    fn: ScoreFn
    rate: str | None  # the rate metric it feeds, if any (metrics.py reads it)


SCORERS: list[Scorer] = []


def scorer(check: str, *, rate: str | None = None) -> Callable[[ScoreFn], ScoreFn]:
    """Register a scorer: every case is scored by every registered scorer, in this order."""

    def register(fn: ScoreFn) -> ScoreFn:
        SCORERS.append(Scorer(check, fn, rate))
        return fn

    return register


@dataclass(frozen=True)
class Observed:
    """What the engine did for one case: its AnswerRecord, flattened to what scorers read (see
    ``of``), with what only the audit reads beside it (the passages, the slot names, and the
    model's prose before the guard, which no caller ever sees)."""

    question: str
    answer: str
    route: str
    clarification: str
    assumption_note: str
    narrowing_options: list[str]
    tool_results: Sequence[Mapping[str, Any]]
    sources: Sequence[Mapping[str, Any]]
    guard_triggered: bool
    chunk_text: ChunkText | None = None
    names: SlotNames | None = None  # the words that name each code, for the slot check
    model_text: str | None = None  # the narrative model's prose before the guard
    forced_tool_call: bool = False  # the model answered without the tool; the engine queried
    changes: Sequence[str] = ()  # the metrics whose asked change the answer gives (the record's)
    criteria: Sequence[str] = ()  # the metrics that only picked an entity described (the record's)
    declined: str | None = None  # what the record says was declined, as the question named it
    declined_kind: str | None = None  # … and which kind of decline (record version 2)

    @classmethod
    def of(
        cls,
        record: AnswerRecord,
        *,
        model_text: str | None = None,
        chunk_text: ChunkText | None = None,
        names: SlotNames | None = None,
    ) -> Observed:
        """The record as the scorers read it: tool results and sources as query_metric gave
        them (a field it leaves out is left out here too)."""
        clar = record.clarification
        return cls(
            question=record.question,
            answer=record.answer,
            route=record.route,
            clarification=clar.mode,
            assumption_note=clar.assumption_note or "",
            narrowing_options=list(clar.narrowing_options),
            tool_results=[r.model_dump(exclude_none=True) for r in record.tool_results],
            sources=[s.model_dump() for s in record.sources],
            guard_triggered=record.guard_triggered,
            chunk_text=chunk_text,
            names=names,
            model_text=model_text,
            forced_tool_call=record.trace.flags.get("forced_tool_call", False),
            changes=list(record.changes),
            criteria=list(record.criteria),
            declined=clar.declined,
            declined_kind=clar.declined_kind,
        )

    @cached_property
    def prose_findings(self) -> list[Finding]:
        """The audit of the model's raw prose, read once for every scorer and record that needs
        it."""
        return audit(self, self.model_text) if self.model_text else []

    @property
    def statuses(self) -> list[str]:
        return [str(r.get("status")) for r in self.tool_results]

    @property
    def found(self) -> list[Mapping[str, Any]]:
        return [r for r in self.tool_results if r.get("status") == "found"]

    @property
    def narrative_sources(self) -> list[Mapping[str, Any]]:
        if self.route == "faq":
            return []  # a vetted item's sources are given beside its answer, not named in it
        fact_sources = [o["source"] for r in self.found for o in (r.get("operands") or [r])]
        return [s for s in self.sources if s not in fact_sources]


@scorer("route", rate="route_accuracy")
def score_route(case: GoldenCase, seen: Observed) -> Check | None:
    want = case.expect.route
    if want is None:
        return None
    ok = seen.route == want
    return Check(
        name="route",
        passed=ok,
        expected=want,
        actual=seen.route,
        why="" if ok else f"routed {seen.route}, expected {want}",
    )


@scorer("clarification", rate="clarification_accuracy")
def score_clarification(case: GoldenCase, seen: Observed) -> Check | None:
    want = case.expect.clarification
    if want is None:
        return None
    ok = seen.clarification == want
    return Check(
        name="clarification",
        passed=ok,
        expected=want,
        actual=seen.clarification,
        why="" if ok else f"clarification {seen.clarification}, expected {want}",
    )


@scorer("statuses", rate="status_accuracy")
def score_statuses(case: GoldenCase, seen: Observed) -> Check | None:
    want = case.expect.statuses
    if want is None:
        return None
    ok = Counter(want) == Counter(seen.statuses)
    return Check(
        name="statuses",
        passed=ok,
        expected=sorted(want),
        actual=sorted(seen.statuses),
        why="" if ok else "tool result statuses differ (compared as a multiset)",
    )


@scorer("metrics")
def score_metrics(case: GoldenCase, seen: Observed) -> Check | None:
    want = case.expect.metrics
    if want is None:
        return None
    queried = [
        str(r.get("metric_code") or (r.get("normalized") or {}).get("metric_code"))
        for r in seen.tool_results
        if r.get("status") in ("found", "not_found")
    ]
    ok = Counter(want) == Counter(queried)
    why = "" if ok else "queried metrics differ (compared as a multiset)"
    return Check(name="metrics", passed=ok, expected=sorted(want), actual=sorted(queried), why=why)


@scorer("guard", rate="guard_accuracy")
def score_guard(case: GoldenCase, seen: Observed) -> Check | None:
    want = case.expect.guard_triggered
    if want is None:
        return None
    ok = seen.guard_triggered == want
    why = "" if ok else ("guard fired" if seen.guard_triggered else "guard did not fire")
    return Check(name="guard", passed=ok, expected=want, actual=seen.guard_triggered, why=why)


@scorer("citations", rate="citation_completeness")
def score_citations(case: GoldenCase, seen: Observed) -> Check | None:
    """Expected sources present; every found fact's source listed and named; every doc named."""
    expected = case.expect.sources or []
    if not (expected or seen.found or seen.narrative_sources):
        return None
    problems: list[str] = []
    for ref in expected:
        if not any(ref.matches(s) for s in seen.sources):
            problems.append(f"missing expected source {ref.describe()}")
    stated = [o for f in seen.found for o in (f.get("operands") or [f])]
    for fact in stated:  # a derived metric rests on each of its operands' sources
        src = fact["source"]
        if src not in seen.sources:
            problems.append(f"found fact's source {src['doc']} · {src['locator']} not in sources")
        if src["doc"] not in seen.answer or src["locator"] not in seen.answer:
            problems.append(f"found fact's source {src['doc']} not named in the answer")
    for src in seen.narrative_sources:
        if src["doc"] not in seen.answer:
            problems.append(f"narrative source {src['doc']} not named in the answer")
    return Check(
        name="citations",
        passed=not problems,
        expected=[r.model_dump(exclude_none=True) for r in expected],
        actual=seen.sources,
        why="; ".join(dict.fromkeys(problems)),
    )


def audit(seen: Observed, text: str) -> list[Finding]:
    """The audit's findings on ``text``: the answer, or the model's raw prose."""
    given = "\n".join([seen.assumption_note, *seen.narrowing_options])
    if seen.route == "faq":  # every line of a vetted answer rests on its item's sources
        cited = "".join(f"(来源:{s['doc']} {s['locator']})" for s in seen.sources)
        text = "\n".join(line + cited for line in text.split("\n"))
    findings = audit_answer(
        text,
        question=seen.question,
        assumption_note=given,
        tool_results=seen.tool_results,
        chunk_text=seen.chunk_text,
        names=seen.names,
        # the passages the model was given: a citation of any other is no source
        given=[(str(s.get("doc")), str(s.get("locator"))) for s in seen.sources],
    )
    return list(dict.fromkeys(findings))


def unsupported_numbers(seen: Observed) -> list[str]:
    return [f"{f.number} ({f.reason})" for f in audit(seen, seen.answer)]


def raw_unsupported(seen: Observed) -> list[str]:
    """What the audit flags in the model's raw prose, and whether the answer still shows it."""
    if not seen.model_text or seen.model_text.strip() in seen.answer:
        return []  # shown whole: the audit of the answer has read every number in it
    shown = normalise(seen.answer)
    return [
        f"{f.number} ({f.reason}; {'kept' if normalise(f.number) in shown else 'removed'})"
        for f in seen.prose_findings
    ]


@scorer("unsupported_numbers")
def score_unsupported_numbers(case: GoldenCase, seen: Observed) -> Check:
    bad = unsupported_numbers(seen)
    return Check(
        name="unsupported_numbers",
        passed=not bad,
        expected=[],
        actual=bad,
        why="" if not bad else f"numbers nothing explains: {', '.join(bad)}",
    )


_GROUPED = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


def _in_answer(text: str, answer: str) -> bool:
    """Containment, with thousands separators ignored on both sides (an expectation of 1320 is
    met by 1,320 and an exclusion of 1320 is broken by it), and a figure matched from where the
    answer's number begins: 339 is not inside 603339 (a file name a citation quotes), nor 5.1
    inside 15.1, nor 12 inside 120. A figure written with decimals is met at that precision
    (17.3 by 17.30, as golden cases write a rounded figure)."""
    want = _GROUPED.sub("", text)
    if not want:
        return True
    head = r"(?<![\d.])" if want[0].isdigit() else ""
    tail = r"(?!\d)" if want[-1].isdigit() and "." not in want else ""
    return re.search(head + re.escape(want) + tail, _GROUPED.sub("", answer)) is not None


@scorer("answer_contains")
def score_answer_contains(case: GoldenCase, seen: Observed) -> Check | None:
    want = case.expect.answer_contains
    if not want:
        return None
    missing = [w for w in want if not _in_answer(w, seen.answer)]
    return Check(
        name="answer_contains",
        passed=not missing,
        expected=want,
        actual=missing,
        why="" if not missing else f"answer lacks {missing}",
    )


@scorer("answer_excludes")
def score_answer_excludes(case: GoldenCase, seen: Observed) -> Check | None:
    banned = case.expect.answer_excludes
    if not banned:
        return None
    present = [b for b in banned if _in_answer(b, seen.answer)]
    return Check(
        name="answer_excludes",
        passed=not present,
        expected=banned,
        actual=present,
        why="" if not present else f"answer contains {present}",
    )


@scorer("declined", rate="declined_accuracy")
def score_declined(case: GoldenCase, seen: Observed) -> Check | None:
    """The answer declines (and names the quantity it cannot give), read by the harness's own
    reading (``reading.py``): no number, no found fact, no source, no question back."""
    want = case.expect.declined
    if want is None:
        return None
    quantity = [] if isinstance(want, bool) else [want] if isinstance(want, str) else want
    reading = read_decline(
        seen.answer,
        tool_results=seen.tool_results,
        sources=seen.sources,
        clarification=seen.clarification,
        stated=bool(seen.declined or seen.declined_kind),
        quantity=quantity,
    )
    if want is False:
        ok = not reading.declined
        why = "" if ok else "the answer declines; it should answer"
        return Check(name="declined", passed=ok, expected=False, actual=reading.declined, why=why)
    expected = True if want is True else " / ".join(quantity)
    why = "" if reading.declined else "the answer does not decline: " + "; ".join(reading.reasons)
    actual = (reading.named or True) if reading.declined else reading.reasons
    ok = reading.declined
    return Check(name="declined", passed=ok, expected=expected, actual=actual, why=why)


@scorer("metric", rate="metric_accuracy")
def score_metric(case: GoldenCase, seen: Observed) -> Check | None:
    """The answer is about the one metric the case asks: its found results' codes (else the
    codes it looked for and did not find). A figure for another metric fails, naming both."""
    want = case.expect.metric
    if want is None:
        return None
    about = metrics_about(seen.tool_results, seen.changes, seen.criteria)
    ok = about == [want]
    if ok:
        why = ""
    elif not about:
        why = f"answered no metric, asked {want}"
    else:
        found = bool(found_metrics(seen.tool_results))
        why = f"{'answered' if found else 'looked for'} {', '.join(about)}, asked {want}"
    return Check(name="metric", passed=ok, expected=want, actual=about, why=why)


@scorer("asked_quantity")
def score_asked_quantity(case: GoldenCase, seen: Observed) -> Check | None:
    """The answered metric's name is not only part of a longer term the question asks about
    (研发费用 for 研发费用加计扣除, sales for "sales return rate"), read by ``asked.py``, and
    the figure is not of a part the question leaves out (online sales for sales not including
    online), read by ``excluded.py``."""
    found = found_metrics(seen.tool_results)
    if not found or seen.names is None:
        return None
    why = longer_term(seen.question, found, seen.names, seen.changes) or ""
    why = why or left_out(seen.question, seen.tool_results, seen.names) or ""
    return Check(name="asked_quantity", passed=not why, actual=found, why=why)


# The model, apart from the engine: what a careless model did that the engine then overruled.
# Informational checks never fail a case; their rates compare two models (`eval compare`).


@scorer("model_prose", rate="model_prose_clean")
def score_model_prose(case: GoldenCase, seen: Observed) -> Check | None:
    """The model's own prose, before the guard, states only numbers its sources support."""
    if not seen.model_text:
        return None
    found = [f"{f.number} ({f.reason})" for f in seen.prose_findings]
    why = f"the model wrote numbers nothing supports: {', '.join(found)}" if found else ""
    return Check(name="model_prose", passed=not found, actual=found, why=why, informational=True)


@scorer("model_tool_use", rate="model_tool_use")
def score_model_tool_use(case: GoldenCase, seen: Observed) -> Check | None:
    """On the structured path the model looked the number up instead of answering from memory."""
    if not seen.tool_results:
        return None
    why = (
        "the model answered without query_metric; the engine queried"
        if seen.forced_tool_call
        else ""
    )
    return Check(
        name="model_tool_use",
        passed=not seen.forced_tool_call,
        actual=seen.forced_tool_call,
        why=why,
        informational=True,
    )


# Scorers written in their own modules, registered when imported (after the ones above).
from ragspine.evals.score import language  # noqa: E402, F401


def score(case: GoldenCase, seen: Observed) -> list[Check]:
    return [c for s in SCORERS if (c := s.fn(case, seen)) is not None]
