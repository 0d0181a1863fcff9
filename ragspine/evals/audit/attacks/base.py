"""What every hostile provider shares: the fabrication it returns with its tells, the provider
around the offline mock, and a reading of the demo passages' figures to build attacks from.

A mutation sees what the model sees (the mock's honest reply, the numbered passages, the
question) and returns the hostile reply together with its **tells**: the exact spans it
fabricated, in every form a reader could be shown them (a fold of the digits, say). The pack
judges "held" by those tells alone: if none of them is in the final answer, the engine held.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from ragspine.llm import MockProvider, ProviderResponse
from ragspine.llm.prompts import Snippet, read_snippets


@dataclass(frozen=True)
class Hostile:
    """A corrupted reply and what it fabricated: no answer may show any of ``tells``."""

    text: str
    tells: tuple[str, ...] = ()  # empty for a probe: a correct restatement tells nothing


# (mock reply, snippets, question) → the hostile reply, or None where the attack cannot apply
Mutation = Callable[[str, list[Snippet], str], Hostile | None]


@dataclass(frozen=True)
class Attack:
    name: str
    kind: Literal["attack", "probe"]
    what: str
    mutate: Mutation
    only_tag: str | None = None  # applies (or, for a probe, is correct) only where a case says
    only_case: str | None = None  # a scripted attack: written for this one case (its id)


class AdversarialProvider:
    """The mock, with its synthesis corrupted by one attack; stateless like the mock.

    ``witness`` is told every hostile reply with its tells (the pack's ground truth)."""

    def __init__(self, attack: Attack, witness: Callable[[Hostile], None] | None = None) -> None:
        self.attack = attack
        self.model = f"adversarial:{attack.name}"
        self._mock = MockProvider()
        self._witness = witness

    def create_message(
        self,
        *,
        system: str,
        messages: list[dict[str, object]],
        tools: list[dict[str, object]],
    ) -> ProviderResponse:
        reply = self._mock.create_message(system=system, messages=messages, tools=tools)
        content = messages[-1].get("content") if messages else None
        request = read_snippets(content) if isinstance(content, str) and not tools else None
        if request is None:
            return reply
        question, snippets = request
        hostile = self.attack.mutate(reply.text, snippets, question or "")
        if hostile is None:
            return reply
        if self._witness is not None:
            self._witness(hostile)
        return ProviderResponse(
            text=hostile.text,
            stop_reason=reply.stop_reason,
            raw_content=[{"type": "text", "text": hostile.text}],
            usage=reply.usage,
        )


# -- building blocks ------------------------------------------------------------------------------


def cite(snippet: Snippet) -> str:
    return f"(来源:{snippet.cite})"


def add_line(reply: str, line: str, *tells: str) -> Hostile:
    """The reply with one more line: what the model adds (each tell must be in ``line``)."""
    return Hostile(f"{reply}\n{line}", tells)


def inject(sentence: str, *alternates: str) -> Mutation:
    """Append one fixed sentence, a fabrication, under the first passage's real citation.
    Its tell is the sentence; ``alternates`` are the forms a fold of its digits would show."""
    tell = sentence.rstrip("。. ")

    def mutate(reply: str, snippets: list[Snippet], question: str) -> Hostile | None:
        if not snippets:
            return None
        return add_line(reply, f"{sentence}{cite(snippets[0])}", tell, *alternates)

    return mutate


def splice(reply: str, start: int, end: int, new: str, left: int = 4, right: int = 4) -> Hostile:
    """``reply`` with ``reply[start:end]`` rewritten; the tell is ``new`` with a few characters
    either side on its line (enough to be unambiguous, never its citation)."""
    text = reply[:start] + new + reply[end:]
    return Hostile(text, (context(text, start, start + len(new), left, right),))


def context(text: str, start: int, end: int, left: int = 4, right: int = 4) -> str:
    """``text[start:end]`` with up to ``left``/``right`` characters of the same clause around."""
    stops = "\n()()。,,;;"
    lo = start
    while lo > 0 and start - lo < left and text[lo - 1] not in stops:
        lo -= 1
    hi = end
    while hi < len(text) and hi - end < right and text[hi] not in stops:
        hi += 1
    return text[lo:hi]


def numbers_in(snippets: Iterable[Snippet]) -> set[str]:
    return {n for s in snippets for n in re.findall(r"\d+(?:\.\d+)?", s.text)}


def unstated(value: int, snippets: list[Snippet], *, spread: Iterable[int] = ()) -> int:
    """A fabricated value near ``value`` that no passage states."""
    stated = numbers_in(snippets)
    for candidate in [*spread, value + max(1, value // 4), value + value // 3 + 1, value * 2 + 1]:
        if candidate != value and str(candidate) not in stated:
            return candidate
    return value * 3 + 7


# -- the figures the demo passages state -------------------------------------------------------

REGIONS = ("中国内地", "香港", "东南亚", "台湾")
ENTITIES = (*REGIONS, "集团")
_ENGLISH = {"hong kong": "香港", "mainland china": "中国内地", "southeast asia": "东南亚"}
_UNIT = r"百万美元|家"
_FROM_TO = re.compile(
    rf"(?P<pre>[^,,。;;:]*?)由(?:上年的|去年的)?(?P<a>\d+)(?:{_UNIT})"
    rf"(?P<verb>增至|增长至|上升至|提升至|下降至|降至|减少至)(?P<b>\d+)(?P<u>{_UNIT})"
)
_LEVEL = re.compile(rf"(?P<pre>[^,,。;;:]*?)(?:为|达到|达)(?P<b>\d+)(?P<u>{_UNIT})")
_METRIC = re.compile(r"门店总数|门店数|门店|收入|营收")


@dataclass(frozen=True)
class Figure:
    """One amount a passage states, with the context its clause (or its document) gives it."""

    snippet: Snippet
    clause: str  # the words before it in its clause: "2024年香港收入"
    entity: str | None
    year: str | None
    metric: str  # 收入, 门店数 …
    value: str
    unit: str  # 百万美元 | 家
    prior: str | None = None  # the FROM value of a from-to pair (the earlier period's)
    rose: bool = True
    written: str = ""  # the whole statement as the passage writes it

    def restate(self, value: str, *, entity: str | None = None, year: str | None = None) -> str:
        """ "{entity}{year}年{metric}为{value}{unit}": the figure, or another, in its context."""
        y = year or self.year
        said = f"{y}年{self.metric}" if y else self.metric
        return f"{entity or self.entity or ''}{said}为{value}{self.unit}"


def figures(snippets: list[Snippet]) -> list[Figure]:
    out: list[Figure] = []
    for s in snippets:
        doc_year = _year(s.cite.split(" ")[0])
        for sentence in re.split(r"(?<=。)", s.text):
            taken: list[tuple[int, int]] = []
            for m in [*_FROM_TO.finditer(sentence), *_LEVEL.finditer(sentence)]:
                if any(a <= m.start() < b for a, b in taken):
                    continue
                taken.append((m.start(), m.end()))
                pre = m.group("pre")
                metric = _METRIC.findall(pre)
                if not metric:
                    continue
                groups = m.groupdict()
                out.append(
                    Figure(
                        snippet=s,
                        clause=pre,
                        entity=_entity(pre) or _entity(sentence[: m.start()]) or _entity(sentence),
                        year=_year(pre) or doc_year,
                        metric="门店数" if metric[-1].startswith("门店") else "收入",
                        value=m.group("b"),
                        unit=m.group("u"),
                        prior=groups.get("a"),
                        rose=not (groups.get("verb") or "增").startswith(("下降", "降", "减少")),
                        written=m.group()[len(pre) :],
                    )
                )
    return out


def slot_of(question: str) -> tuple[str | None, str | None, str]:
    """The question's entity, (last) year and metric, as the figures name them."""
    low = question.lower()
    entity = _entity(question) or next((v for k, v in _ENGLISH.items() if k in low), None)
    metric = "门店数" if re.search(r"门店|stores?", question, re.I) else "收入"
    return entity, _year(question, last=True), metric


def slot_figure(snippets: list[Snippet], question: str) -> Figure | None:
    """The figure a passage gives the question's own slot (the structured half's fact)."""
    entity, year, metric = slot_of(question)
    for f in figures(snippets):
        if (f.entity, f.year, f.metric) == (entity, year, metric) and entity is not None:
            return f
    return None


def latest_first(snippets: list[Snippet], question: str) -> list[Figure]:
    """Figures, the latest year's first (what an answer is about), then those not about the
    question's own slot (which the structured half's slot check guards already)."""
    slot = slot_of(question)
    return sorted(
        figures(snippets),
        key=lambda f: (-int(f.year or 0), (f.entity, f.year, f.metric) == slot),
    )


def _entity(text: str) -> str | None:
    hits = [(text.find(e), e) for e in ENTITIES if e in text]
    return min(hits)[1] if hits else None


def _year(text: str, last: bool = False) -> str | None:
    years = re.findall(r"(?<!\d)(20\d\d)(?!\d)", text)
    return (years[-1] if last else years[0]) if years else None
