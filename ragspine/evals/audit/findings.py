"""The audit's own reading of an answer: every number in it is a claim with its context (value,
scale, kind, precision, currency, direction and from/to role, modality, entity, period, metric
and modifier, channel), held to what its line relies on. It shares no code with the engine's
reader or guard (a test pins that), so a blind spot in one is not a blind spot in both.

A claim is supported by a source number with the same value within the claim's precision, the
same kind, and the same context wherever both state it (unknown never contradicts; stated and
different always does): a found fact the line cites, a passage the line cites (each of its
numbers read with its own sentence, then the passage's headings and document), any found fact
of the answer or a difference or growth rate of two of one series. The question is never a
source; the assumption note only for its own line. A finding names why: ``unsupported`` (no
source has the value), ``wrong_currency``, ``target_as_result``, ``reversed``, ``wrong_entity``,
``wrong_period``, ``wrong_metric``, ``wrong_channel`` (a source has the value, for another
context), ``unparsed``, ``bidi``, from the slot check ``contradicts_fact``, ``not_found_slot``,
and ``wrong_rank`` (an ordinal, see ordinals), ``wrong_date`` (an event's date, see dates).

Over-inclusive by design: anything number-like the audit cannot parse is reported as
``unparsed``, never skipped. What is not a claim: text inside a well-formed citation, a year in
a period label, a quarter or half number, list and section numbers; the N of an ordinal is a
rank, judged as one. A line quoted word for word
from a passage it cites is taken as stated, unless a heading above it gives it a context; a
sentence that joins whole sentences of the passages it cites with commas is read as those
sentences, each with its own context.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from ragspine.evals.audit.arithmetic import one_step
from ragspine.evals.audit.citations import (
    Citation,
    blank,
    citations,
    quote_joints,
    unmarked,
    unquote,
    whole_clause_of,
)
from ragspine.evals.audit.claims import Claim, normalise
from ragspine.evals.audit.context import SENTENCE, Backdrop, Context, Statement, read
from ragspine.evals.audit.dates import date_findings
from ragspine.evals.audit.derived import recomputed
from ragspine.evals.audit.labels import wrong_label
from ragspine.evals.audit.names import Lexicon, SlotNames, lexicon
from ragspine.evals.audit.ordinals import is_ordinal, rank_findings
from ragspine.evals.audit.periods import find_periods
from ragspine.evals.audit.slots import Finding, may_name_a_slot, slot_conflicts
from ragspine.evals.audit.sources import (
    ChunkText,
    Passage,
    Source,
    computed_sources,
    fact_sources,
    passage,
)
from ragspine.evals.audit.support import verdict
from ragspine.evals.audit.tables import cell_statements, table_blocks

__all__ = ["ChunkText", "Finding", "SlotNames", "audit_answer"]

# A direction override or isolate next to digits shows the reader another number than the text.
_BIDI_NEAR_DIGIT = re.compile(
    r"[\u202a-\u202e\u2066-\u2069][^\u202c\u2069]{0,12}\d|\d[\u202a-\u202e\u2066-\u2069]"
)


def audit_answer(
    answer: str,
    *,
    question: str = "",  # never a source: a number the user wrote must be stated like any other
    assumption_note: str = "",
    tool_results: Iterable[Mapping[str, Any]] = (),
    chunk_text: ChunkText | None = None,
    names: SlotNames | None = None,
    given: Collection[tuple[str, str]] | None = None,
) -> list[Finding]:
    """Every number in the answer that nothing its line relies on states with its context.

    With ``given`` (the passages handed to the model, as (doc, locator)), a citation of any
    other passage is no source: the model never read it, whatever the store holds.

    With ``names`` (each metric and entity code → the words that name it), also every amount a
    prose sentence gives a slot the tool answered (another value) or could not find (any value).
    """
    findings = [Finding(m.group(), "bidi") for m in _BIDI_NEAR_DIGIT.finditer(answer)]
    results = recomputed(tool_results, names)
    facts_by_key: dict[tuple[Any, ...], Mapping[str, Any]] = {}
    for r in results:  # duplicates counted once
        if r.get("status") == "found":
            key = tuple(
                r.get(k) for k in ("metric_code", "entity", "channel", "period_type", "period")
            )
            facts_by_key.setdefault(key, r)
    facts = list(facts_by_key.values())
    slots = list(
        {
            repr(sorted(r.items())): r for r in results if r.get("status") in ("found", "not_found")
        }.values()
    )  # duplicates counted once
    lex = lexicon(names)
    if given is not None and chunk_text is not None:
        chunk_text = _only(chunk_text, frozenset(given))
    reader = _Reader(lex, facts, chunk_text, slots, names)
    reader.given(normalise(question), normalise(assumption_note))
    lines = _rejoined(normalise(answer).split("\n"))
    tables = {start: end for start, end in table_blocks(lines)}
    heading, skip_to = Backdrop(), 0
    for i, line in enumerate(lines):
        if i < skip_to:
            continue
        if i in tables:
            skip_to = tables[i]
            around = (lines[i - 1] if i else "", lines[skip_to] if skip_to < len(lines) else "")
            findings += reader.table(lines[i:skip_to], around, heading)
            continue
        heading = _heading(line, lex, heading)
        findings += reader.line(line, heading)
    return findings


def _only(chunk_text: ChunkText, given: frozenset[tuple[str, str]]) -> ChunkText:
    return lambda doc, locator: chunk_text(doc, locator) if (doc, locator) in given else None


class _Reader:
    """One answer's sources, and the audit of its lines and tables against them."""

    def __init__(
        self,
        lex: Lexicon,
        facts: list[Mapping[str, Any]],
        chunk_text: ChunkText | None,
        slots: list[Mapping[str, Any]],
        names: SlotNames | None,
    ) -> None:
        self.lex, self.chunk_text, self.slots, self.names = lex, chunk_text, slots, names
        # a derived metric shares its first operand's source: a line citing it states the operand
        self.by_source = {
            (f["source"]["doc"], f["source"]["locator"]): f for f in facts if "operands" not in f
        }
        self.computed = computed_sources(facts, lex)
        self.question, self.note_head, self.note = "", "", list[Source]()
        self.earlier: list[Source] = []  # figures earlier lines state and a source supports

    def given(self, question: str, note: str) -> None:
        """The question (never a source: only its words quoted back in 「」 are a mention) and
        the assumption note (a source for its own line)."""
        self.question = question
        self.note_head = note.split("\n")[0].strip()
        self.note = [Source(c, Context()) for c in _claims_of(note)]

    def _cited(self, cites: Sequence[Citation]) -> tuple[list[Source], list[Passage], bool]:
        """The sources the citations name: found facts, passages; and whether one is a fact."""
        local: list[Source] = []
        passages: list[Passage] = []
        fact_cited = False
        for cite in cites:
            for doc, locator in cite.entries:
                fact = self.by_source.get((doc, locator))
                if fact is not None:
                    local += fact_sources(fact, self.lex)
                    fact_cited = True
                elif self.chunk_text is not None and locator:
                    p = passage(self.chunk_text(doc, locator) or "", self.lex)
                    passages.append(p)
                    local += [Source(s.claim, s.ctx) for s in p.statements]
        return local, passages, fact_cited

    def _judge(
        self,
        statements: Iterable[Statement],
        sources: list[Source],
        passages: Sequence[Passage] = (),
    ) -> list[Finding]:
        out = []
        for st in statements:
            if st.claim.value is None:
                out.append(Finding(st.claim.text, "unparsed"))
                continue
            why = verdict(st.claim, st.ctx, sources, self.lex)
            if why is None and wrong_label(st, [p.statements for p in passages], self.lex):
                why = "wrong_label"
            if why is not None:
                out.append(Finding(st.claim.text, why))
        return out

    def line(self, line: str, heading: Backdrop) -> list[Finding]:
        cites = citations(line, self.by_source)
        local, passages, fact_cited = self._cited(cites)
        bare = unmarked(unquote(blank(line, cites), self.question))
        body = " ".join(bare.split())
        if not body:
            return []
        # A line quoted word for word from a passage it cites states what the passage states,
        # unless a heading above it gives it another context; the slot check still reads it.
        quoted = any(whole_clause_of(body, p.text) for p in passages) and heading == Backdrop()
        slot_check = (
            self.names is not None
            and not fact_cited
            and may_name_a_slot(line, self.slots, self.names)
        )
        statements = read(bare, self.lex, heading, _joints(bare, passages))
        # the N of a rank (排第二位, 2nd) is no amount: the rank check judges it
        statements = [st for st in statements if not is_ordinal(bare, st.start)]
        if quoted and not slot_check:
            self.earlier += [Source(st.claim, st.ctx) for st in statements if st.claim.value]
            return []
        note = self.note if self.note_head and self.note_head in body else []
        sources = [*local, *self.computed, *note]
        stepped = self._stepped(bare, statements, sources, [p.text for p in passages])
        statements = [st for i, st in enumerate(statements) if i not in stepped]
        out = [] if quoted else self._judge(statements, sources, passages)
        if not quoted:
            out += self._ranks_and_dates(bare, sources, passages)
        if slot_check:
            out += slot_conflicts(bare, statements, self.slots, self.lex, self._slot_sources)
        return out

    def _stepped(
        self,
        text: str,
        statements: Sequence[Statement],
        sources: list[Source],
        cited: Sequence[str] = (),
    ) -> set[int]:
        """The statements no source states that are one step the sentence asks for over its
        supported figures, or over the figures earlier lines of the answer state and a source
        supports (see arithmetic): a sum, a ratio, an average… computed right."""
        supported = {
            i
            for i, st in enumerate(statements)
            if st.claim.value is not None and verdict(st.claim, st.ctx, sources, self.lex) is None
        }
        out: set[int] = set()
        earlier = list(self.earlier)
        self.earlier += [Source(statements[i].claim, statements[i].ctx) for i in supported]
        for i, st in enumerate(statements):
            if i in supported or st.claim.value is None:
                continue
            span = _sentence_of(text, st.start)
            stated = [
                Source(o.claim, o.ctx)
                for j, o in enumerate(statements)
                if j in supported and span[0] <= o.start < span[1]
            ]
            if one_step(st, text, span, [*sources, *earlier, *stated], self.lex, cited):
                out.add(i)
        return out

    def _ranks_and_dates(
        self, text: str, sources: Sequence[Source], passages: Sequence[Passage]
    ) -> list[Finding]:
        """Ordinals held to the ranks the cited passages give their items (or the named
        entities' sourced figures), event dates to the dates they give the event."""
        texts = [p.text for p in passages]
        figures = [
            (s.ctx.entity, s.ctx.metric, s.ctx.period, s.claim.value)
            for s in [*sources, *self.earlier]
            if s.claim.value is not None and s.claim.kind == "number"
        ]
        found = rank_findings(text, texts, figures, self.lex) + date_findings(text, texts)
        return [Finding(number, why) for number, why in found]

    def _slot_sources(self, slot: Mapping[str, Any]) -> list[Source]:
        return fact_sources(slot, self.lex)

    def table(
        self, rows: Sequence[str], around: tuple[str, str], heading: Backdrop
    ) -> list[Finding]:
        """A markdown table: its cells against the citations in it and on the lines beside it."""
        cites = [c for text in (*rows, *around) for c in citations(text, self.by_source)]
        local, _, _ = self._cited(cites)
        bare = [unquote(blank(r, citations(r, self.by_source)), self.question) for r in rows]
        before = blank(around[0], citations(around[0], self.by_source))
        return self._judge(
            cell_statements(bare, before, self.lex, heading), [*local, *self.computed]
        )


# A line that ends in a figure, and the next line opening with its scale or unit (455\n百万美元):
# one statement broken by a wrap, read as one line (the unit, and the citation after it, are the
# figure's).
_ENDS_IN_FIGURE = re.compile(r"\d\s*$")
_OPENS_WITH_UNIT = re.compile(
    r"\s*(?:万亿|百万|千万|亿|万|千|%|‰|个百分点|百分点|倍|美元|港元|元|人民币|家|"
    r"(?:million|billion|thousand|trillion|bn|mn|percent|per cent|pp|bps|times|US dollars|USD"
    r"|HKD|RMB|stores?)(?![A-Za-z]))",
    re.I,
)


def _rejoined(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if out and _ENDS_IN_FIGURE.search(out[-1]) and _OPENS_WITH_UNIT.match(line):
            glue = " " if line.lstrip()[:1].isascii() else ""
            out[-1] = out[-1].rstrip() + glue + line.lstrip()
        else:
            out.append(line)
    return out


def _joints(line: str, passages: Sequence[Passage]) -> list[int]:
    """Where each whole sentence of a cited passage starts in a sentence of the line that joins
    two or more of them, quoted word for word, with commas."""
    if not passages:
        return []
    quotes = {
        q
        for p in passages
        for a, b in _spans(p.text)
        if len(q := p.text[a:b].strip().rstrip("。!?;.").rstrip()) >= 4
    }
    return [a + at for a, b in _spans(line) for at in quote_joints(line[a:b], quotes)]


def _sentence_of(text: str, at: int) -> tuple[int, int]:
    return next(((a, b) for a, b in _spans(text) if a <= at < b), (0, len(text)))


def _spans(text: str) -> list[tuple[int, int]]:
    out, at = [], 0
    for m in SENTENCE.finditer(text):
        out.append((at, m.end()))
        at = m.end()
    return [*out, (at, len(text))]


_MD_HEADING = re.compile(r"^\s*(?:#{1,6}\s+(?P<md>.+?)|\*\*(?P<bold>[^*]{1,40})\*\*:?)\s*$")
_LABEL_LINE = re.compile(r"^\s*(?:\*\*)?(?P<label>[^:\n]{1,40}?)(?:\*\*)?\s*:\s*(?:\*\*)?\s*$")
_FILLER = re.compile(r"[\s的和及与、/\-·|()]*")


def _heading(line: str, lex: Lexicon, current: Backdrop) -> Backdrop:
    """A heading line (# …, **…**, or a label line 香港:) and the context it gives the lines
    below it; a label line that names something else (归因分析:) clears it."""
    m = _MD_HEADING.match(line)
    label = _LABEL_LINE.match(line) if m is None else None
    if m is None and label is None:
        return current
    text = (m.group("md") or m.group("bold")) if m else label.group("label") if label else ""
    entities, metrics = lex.entities(text), lex.metrics(text)
    channels, periods = lex.channels(text), [p for p in find_periods(text) if p.code]
    if label is not None:
        rest = list(text)
        spans = [(f.start, f.end) for f in [*entities, *metrics, *channels]]
        for start, end in [*spans, *((p.start, p.end) for p in periods)]:
            rest[start:end] = " " * (end - start)
        if not _FILLER.fullmatch("".join(rest)):
            return Backdrop()  # a heading that is no label: what it says is not a slot
    return Backdrop(
        entity=entities[-1].code if entities else None,
        period=periods[-1].code if periods else None,
        metric=metrics[-1].code if metrics else None,
        channel=channels[-1].code if channels else None,
    )


def _claims_of(text: str) -> list[Claim]:
    return [st.claim for st in read(text, lexicon(None)) if st.claim.value is not None]
