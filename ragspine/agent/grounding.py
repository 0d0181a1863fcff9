"""The narrative guard: every number in model prose is a claim with its context, held to what
the passages its sentence cites (or the answer's found facts) state in the same context.

Control flow, not a prompt. The model's text is folded first (format and bidi characters gone,
every digit form normalised), so what is checked is what is shown. Then, sentence by sentence:

* a citation counts only if it is well formed (``(来源:DOC LOCATOR、…)`` or ``[n]``) and names
  a retrieved passage; one naming no retrieved passage is dropped from the text; anything else
  in parentheses is text, and its numbers are read like any other;
* a sentence without a citation of its own leans on the next cited sentence of its line; a row
  of a table the model wrote, on the citations of its table;
* every number it shows is read with its context (``claims``: entity, period, metric and
  modifier, channel, currency, modality, direction and from/to role) and must be stated by a
  source in the same context (``support``): a cited passage's number read the same way, with
  the passage's heading path and document where its sentence is silent; a found fact; a
  difference or growth rate of two found facts of one series. The question is never a source;
* a sentence quoted word for word from a passage it cites states what the passage states,
  unless the answer puts it under a heading, or after words on its line, naming another
  context: then it is read in that context like any other sentence;
* in a composite answer it may not give the structured half's metric, entity, period and
  channel another value, nor a value for one the structured half could not find.

A sentence (or a table cell) that fails is replaced by a short marker; the trace counts
removals, never their text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from ragspine.agent.arithmetic import Step, computed
from ragspine.agent.claims import ACTUAL, Claim, Claims, read_claims
from ragspine.agent.cues import vocabulary
from ragspine.agent.event_dates import moved_dates
from ragspine.agent.frames import NO_FRAME, Frame, frame_of, merged, passage_frame
from ragspine.agent.guard_slots import Slot, metric_words, slots
from ragspine.agent.labels import swapped
from ragspine.agent.ordinals import judged_ordinals
from ragspine.agent.query_tools import ToolResult
from ragspine.agent.request import Request
from ragspine.agent.support import (
    Statement,
    backing,
    close,
    compatible,
    fact_statements,
    passage_statements,
    passage_text,
    quote_claims,
    quoted,
    supporters,
    unit_kind,
)
from ragspine.agent.tables import noted, table_cells, table_end, with_cell
from ragspine.agent.units import convertible
from ragspine.agent.wording import ZH, say
from ragspine.numbers import CITATION, Quantity, fold_numbers, read_numbers
from ragspine.profile.periods import Period
from ragspine.retrieval.base import NarrativeHit
from ragspine.text import fold

REMOVED_MARKER = say("guard.removed", ZH)  # a Chinese answer's; each language's in wording.py

_SENTENCE_END = re.compile(r"(?<=[。!?!?;;])|(?<=\.)(?=\s)")
_LEADING_CITATIONS = re.compile(rf"^\s*(?:(?:{CITATION.pattern})\s*)+", re.I)
_SEPARATORS = re.compile(r"\s*[、;;]\s*")  # not commas: locators hold them
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_SCALE_WRITTEN = re.compile(r"[百千万亿億萬]|million|billion|thousand|bn|mn", re.I)


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
    guard = _Guard(req, hits, facts, report)
    lines = fold_numbers(text).split("\n")
    out: list[str] = []
    headings: list[Frame] = []
    i = 0
    while i < len(lines):
        end = table_end(lines, i)
        if end > i:
            before = lines[i - 1] if i else ""
            after = lines[end] if end < len(lines) else ""
            out += guard.table(lines, i, end, _frame(headings), before, after)
            i = end
            continue
        heading = _HEADING.match(lines[i])
        if heading:
            level = len(heading.group(1))
            own = frame_of([heading.group(2)], guard.vocab, req.reference_date)
            headings = [*headings[: level - 1], *[NO_FRAME] * (level - 1 - len(headings)), own]
        out.append(guard.line(lines[i], _frame(headings)))
        i += 1
    report.text = "\n".join(out)
    return report


def _frame(headings: list[Frame]) -> Frame:
    frame = NO_FRAME
    for own in headings:
        frame = merged(own, frame)
    return frame


def _close(q: Quantity, source: Statement) -> bool:
    """Does the source state this value at all, in its own unit or one it converts to?"""
    if close(q, source.quantity):
        return True
    return any(close(c, source.quantity) for c in convertible(q, source.context.currency))


def _inside(q: Quantity, spans: Sequence[tuple[int, int]]) -> bool:
    """Is the value inside one of the spans (an ordinal a cited passage ranks: 第二位)?"""
    return any(start <= q.start < end for start, end in spans)


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


class _Guard:
    """One answer's sources, and the checks a sentence or a cell goes through."""

    def __init__(
        self,
        req: Request,
        hits: Sequence[NarrativeHit],
        facts: Sequence[ToolResult],
        report: GroundingReport,
    ) -> None:
        self.req, self.report, self.hits = req, report, hits
        self.removed = say("guard.removed", req.language)  # what stands where a sentence went
        self.ref = req.reference_date
        self.vocab = vocabulary(req.profile)
        self.docs = sorted({h.doc_id for h in hits}, key=len, reverse=True)
        self.facts = fact_statements(self.vocab, facts)
        self.slots = slots(req, facts)
        self.pool: list[Statement] | None = None

    # -- citations -----------------------------------------------------------------------------

    def cite(self, sentence: str, *, count: bool = True) -> tuple[str, list[NarrativeHit]]:
        """The sentence without citations of passages not retrieved, and the passages it cites.
        ``count``: a dropped citation is counted (once: a line is cited once as a line)."""
        clean, cited, _ = self.cited(sentence, count=count)
        return clean, cited

    def cited(self, sentence: str, *, count: bool = True) -> tuple[str, list[NarrativeHit], bool]:
        """``cite``, and whether the sentence named a passage that was not retrieved."""
        cited: list[NarrativeHit] = []
        dropped = False
        if "(" not in sentence and "(" not in sentence and "[" not in sentence:
            return sentence, cited, dropped

        def keep(m: re.Match[str]) -> str:
            nonlocal dropped
            resolved = self.resolve(m.group("body"), m.group("n"))
            if not resolved:
                self.report.citations_dropped += count
                dropped = True
                return ""
            cited.extend(h for h in resolved if h not in cited)
            return m.group()

        return CITATION.sub(keep, sentence), cited, dropped

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

    # -- prose ---------------------------------------------------------------------------------

    def line(self, line: str, frame: Frame) -> str:
        read = [self.cited(s) for s in _sentences(line)]
        # A sentence that cites a passage it was never given (a document above the caller's
        # clearance, one not retrieved) rests on nothing the answer may show: it goes whole,
        # numbers or not.
        unsourced = {i for i, (_, _, dropped) in enumerate(read) if dropped}
        sentences = [(clean, cited) for clean, cited, _ in read]
        inherited: list[NarrativeHit] = []
        for i in range(len(sentences) - 1, -1, -1):  # uncited sentences lean on the next citation
            clean, cited = sentences[i]
            if cited:
                inherited = cited
            else:
                sentences[i] = (clean, inherited)
        kept = []
        for i, (clean, cited) in enumerate(sentences):
            before = "".join(s for s, _ in sentences[:i])
            if i in unsourced:
                self.report.numbers_removed += sum(q.role == "value" for q in read_numbers(clean))
                self.report.sentences_removed += 1
                kept.append(self.removed)
                continue
            bad = self.sentence(clean, cited, frame, before)
            if bad:
                self.report.numbers_removed += bad
                self.report.sentences_removed += 1
                kept.append(self.removed)
            else:
                kept.append(clean)
        return "".join(kept)

    def sentence(
        self, sentence: str, cited: Sequence[NarrativeHit], frame: Frame, before: str
    ) -> int:
        """How many numbers in the sentence nothing it may rely on states in their context.

        A sentence quoted word for word from a passage it cites, with nothing around it in the
        answer giving it another context, states that passage's numbers in the passage's own
        words: only the composite check remains for it.
        """
        body = " ".join(CITATION.sub(" ", sentence).split())
        if body and quoted(body, cited):
            frame = merged(frame, frame_of([before], self.vocab, self.ref)) if before else frame
            if frame == NO_FRAME:
                if not self.names_a_slot(sentence):
                    return 0
                return self.contradictions(quote_claims(sentence, self.vocab, self.ref), cited)
        claims = Claims(sentence, self.vocab, self.ref, frame)
        passages = [passage_text(h.text) for h in cited]
        bad, ranked = judged_ordinals(sentence, passages)
        bad += moved_dates(body, passages)
        claims.quantities = [q for q in claims.quantities if not _inside(q, ranked)]
        return bad + self.judge(claims.quantities, claims.read, sentence, cited)

    def judge(
        self,
        quantities: list[Quantity],
        read: Callable[[], list[Claim]],
        text: str,
        cited: Sequence[NarrativeHit],
    ) -> int:
        """How many of the values no source states in their context. Their contexts are read
        only if some source states the value at all."""
        if not quantities:
            return 0
        sources: list[Statement] = [
            *self.facts,
            *(s for h in cited for s in passage_statements(h, self.vocab, self.ref)),
        ]
        near = [[s for s in sources if _close(q, s)] for q in quantities]
        missing = [i for i, n in enumerate(near) if not n]
        done = {i for i in missing if computed(self.step(text, read()), i)} if missing else set()
        bad = len(missing) - len(done)
        if any(near):
            claims = read()
            held = [supporters(c, n) if n else [] for c, n in zip(claims, near, strict=True)]
            bad += sum(isinstance(h, str) for n, h in zip(near, held, strict=True) if n)
            bad += len(swapped(claims, [h if isinstance(h, list) else [] for h in held]))
        if self.names_a_slot(text):  # a computed figure is no slot's value
            bad += self.contradictions([c for i, c in enumerate(read()) if i not in done], cited)
        return bad

    def step(self, text: str, claims: list[Claim]) -> Step:
        """What a computed figure of ``text`` may be worked out from: the answer's found facts
        and every passage it was given."""
        if self.pool is None:
            given = (s for h in self.hits for s in passage_statements(h, self.vocab, self.ref))
            self.pool = [*self.facts, *given]
        return Step(text, self.vocab, self.ref, claims, self.pool)

    # -- tables --------------------------------------------------------------------------------

    def table(
        self, lines: list[str], start: int, end: int, frame: Frame, before: str, after: str
    ) -> list[str]:
        """The table's rows, each cell with an unsupported claim replaced by the marker."""
        rows = {n: self.cite(lines[n]) for n in range(start, end)}
        shared = [h for _, cited in rows.values() for h in cited]
        for near in (before, after):  # a citation on the line before or after the table
            shared += [h for h in self.cite(near, count=False)[1] if h not in shared]
        out = {n: clean for n, (clean, _) in rows.items()}
        clean = [*lines[:start], *(out[n] for n in range(start, end))]
        for cell in table_cells(clean, start, end, self.vocab, self.ref, frame, before):
            claims = noted(read_claims(cell.text, self.vocab, self.ref, cell.frame), cell.frame)
            quantities = [c.quantity for c in claims]
            cites = rows[cell.line][1] or shared
            bad = self.judge(quantities, partial(list, claims), cell.text, cites)
            if bad:
                self.report.numbers_removed += bad
                self.report.sentences_removed += 1
                out[cell.line] = with_cell(out[cell.line], cell.index, self.removed)
        return [out[n] for n in range(start, end)]

    # -- the composite slot check --------------------------------------------------------------

    def names_a_slot(self, sentence: str) -> bool:
        """A cheap first look: does the sentence hold a name of a slot's metric at all?"""
        if not self.slots:
            return False
        words = self.req.profile.memo("metric_words", lambda: metric_words(self.req.profile))
        folded = fold(sentence)
        return any(w in folded for slot in self.slots for w in words.get(slot.metric, ()))

    def contradictions(self, claims: list[Claim], cited: Sequence[NarrativeHit]) -> int:
        """Values given to a slot the structured half answered or could not find: a claim of the
        slot's metric (and modifier), entity, channel and period, in the slot's kind.

        A claim whose words name no period is the slot's, unless the cited passage statement
        that supports it is another period's own figure (410 quoted from the FY2023 review,
        not the 上年 of a FY2024 one), or every passage it cites is another period's."""
        if not self.slots or not claims:
            return 0
        titled = {passage_frame(h.title, self.vocab, self.ref).period for h in cited}
        fallback = titled.pop() if len(titled) == 1 else None
        default = self.vocab.default_channel
        bad = 0
        for claim in claims:
            c = claim.context
            if c.earlier or c.modality != ACTUAL or c.metric is None:
                continue
            period: Period | bool | None = c.period or False  # False: not looked up yet
            for slot in self.slots:
                base, own = self.vocab.shapes.get(slot.metric, (slot.metric, "level"))
                if (
                    c.metric != base
                    or not compatible(c.modifier, own)
                    or c.entity not in (None, slot.entity)
                    or (c.channel or default) != slot.channel
                    or not self.same_kind(claim, slot)
                ):
                    continue
                if period is False:
                    period = self.period_of(claim, cited) or fallback
                if period is not None and period != slot.period:
                    continue
                if not any(claim.quantity.matches(q) for q in slot.own) or not slot.found:
                    bad += 1
        return bad

    def period_of(self, claim: Claim, cited: Sequence[NarrativeHit]) -> Period | None:
        """The period of the cited statement supporting a claim, when it is that statement's
        own (not a 上年 or FROM figure of it)."""
        passages = [s for h in cited for s in passage_statements(h, self.vocab, self.ref)]
        by = backing(claim, passages)
        return by.context.period if by is not None and not by.context.earlier else None

    def same_kind(self, claim: Claim, slot: Slot) -> bool:
        """Is this number of the fact's kind: a rate for a percentage, money in the fact's
        currency (or with a scale word) for an amount, stores for a count?"""
        kind = unit_kind(self.req.profile, slot.unit)
        q, currency = claim.quantity, claim.context.currency
        if kind == "percent":
            return q.kind == "percent"
        if q.kind != "number" or kind == "ratio":
            return False
        if kind == "count":
            return currency == "COUNT"
        if currency is not None:
            return currency == self.vocab.currency_of_unit(slot.unit)
        return bool(_SCALE_WRITTEN.search(q.text))
