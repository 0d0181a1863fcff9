"""The narrative path: retrieve within the caller's clearance, optionally rerank, synthesise.

Synthesis trusts the model's prose but not its citations: any source document the model did
not name is appended, so provenance cannot be dropped by a forgetful model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ragspine.agent.asked import event_words
from ragspine.agent.definitions import NO_DEFINITION, defining_hits
from ragspine.agent.grounding import ground
from ragspine.agent.passage_periods import by_period
from ragspine.agent.query_tools import Source, ToolResult
from ragspine.agent.request import (
    DEGRADED_NARRATIVE,
    DEGRADED_PROVIDER,
    Request,
    note_provider_error,
)
from ragspine.agent.subjects import EVENT, QUANTITY, WORD, Subject, in_english, mentions
from ragspine.errors import ProviderError
from ragspine.llm import ask_model
from ragspine.llm.prompts import NARRATIVE_SYSTEM, Snippet, snippets_message
from ragspine.profile.model import compact
from ragspine.profile.periods import Period
from ragspine.retrieval.base import NarrativeHit, NarrativeRetriever
from ragspine.text import fold

__all__ = ["NarrativeAnswer", "NarrativeHit", "NarrativeRetriever", "run_narrative"]

# No corpus (the default one absent: a store of facts alone, or documents not yet ingested).
NARRATIVE_NOT_WIRED = (
    "未检索到相关文档:没有可用的文档库(no document corpus: `ragspine ingest` builds one)。"
    "为避免误导,不提供任何推测。"
)
NARRATIVE_NO_HITS = "未检索到与问题相关的文档,无法据实回答;为避免误导,不提供任何推测。"
NARRATIVE_NO_HITS_EN = (
    "No passage relevant to the question was retrieved, so it cannot be answered from the "
    "documents; nothing is guessed."
)
NARRATIVE_PROVIDER_DOWN = "AI 服务暂时不可用,无法生成文档归纳;为避免误导,不提供任何推测。"
# A name no passage the caller may see holds: said so, never answered with other passages. The
# name is not repeated: the caller may not be cleared for what it is.
NO_SUBJECT_ZH = "检索到的文档中没有提到问题所问的对象,无法据实回答;为避免误导,不提供任何推测。"
NO_SUBJECT_EN = (
    "No passage in the documents available to you mentions what the question asks about, so it "
    "cannot be answered from them; nothing is guessed."
)

# A figure asked of a name no passage holds: declined by the name the question gives it (the
# user's own words; the answer is the same whatever documents the caller may not see).
NO_SUBJECT_FIGURE_ZH = (
    "「{name}」:检索到的文档中没有提到它,无法据实回答;为避免误导,不提供任何数字。"
)
NO_SUBJECT_FIGURE_EN = (
    "“{name}” is not mentioned in any passage of the documents available to you, so no figure "
    "can be given for it; nothing is guessed."
)
# The name is found, the quantity asked of it is not (首席执行官 named, 薪酬 nowhere beside it):
# said by both, never answered with what the passages say of the name.
NO_ASKED_FIGURE_ZH = (
    "「{name}」的「{asked}」:检索到的文档中没有提到,无法据实回答;为避免误导,不提供任何数字。"
)
NO_ASKED_FIGURE_EN = (
    "The {asked} of “{name}” is not mentioned in any passage of the documents available to you, "
    "so no figure can be given for it; nothing is guessed."
)
NO_ASKED_ZH = (
    "「{name}」的「{asked}」:检索到的文档中没有提到,无法据实回答;为避免误导,不提供任何推测。"
)
NO_ASKED_EN = (
    "The {asked} of “{name}” is not mentioned in any passage of the documents available to you, "
    "so it cannot be answered from them; nothing is guessed."
)

TOP_K = 5
RERANK_POOL = 12
DEFINITION_POOL = 40  # a definition may rank below passages that merely use the word


class NarrativeAnswer(NamedTuple):
    text: str
    sources: list[Source]
    degraded: str | None = None
    model_text: str | None = None  # the model's prose before the guard, for audits


def run_narrative(
    req: Request,
    *,
    facts: Sequence[ToolResult] = (),
    top_k: int = TOP_K,
    define: str | None = None,
    subjects: Sequence[Subject] = (),
    figure: bool = False,
    periods: Sequence[Period] = (),
    base: Sequence[Period] = (),
) -> NarrativeAnswer:
    """Retrieve, synthesise from snippets only, hold every number to its cited snippet, and
    force every source into the answer. ``facts`` are the structured half's, in a composite;
    ``define`` is a concept question's term: only passages that define it may answer;
    ``subjects`` are names the profile does not know, and the quantity a figure is asked of
    them (``asked.py``): only documents that name each may answer;
    ``figure``: the question asks for a figure, so a name no passage holds is declined by it;
    ``periods``: the periods the question names, which passages are held to (``passage_periods``:
    another period's passages only when no document of these has any, and then said so);
    ``base``: the periods a change asked about is measured against, whose passages stay too."""
    trace = req.trace
    if req.retriever is None:
        trace.code("narrative", "not_wired")
        return NarrativeAnswer(NARRATIVE_NOT_WIRED, [], DEGRADED_NARRATIVE)
    with trace.span("retrieve"):
        wide = req.rerank or (any(s.kind != WORD for s in subjects) and define is None)
        pool = DEFINITION_POOL if define else RERANK_POOL if wide else top_k
        # a period's passages may rank below another period's: looked for in a wider pool
        wider = max(pool, RERANK_POOL) if periods else pool
        hits = req.retriever.retrieve(req.question, top_k=wider, clearance=req.clearance)
    held = by_period(hits, periods, english=in_english(req.question), base=base)
    if held.code != "unjudged":
        trace.code("period", held.code)
    hits = held.hits[:pool]
    trace.count("narrative_hits", len(hits))
    if define is not None:
        hits = defining_hits(define, hits)
        trace.count("defining_hits", len(hits))
        if not hits:
            trace.code("narrative", "no_definition")
            return NarrativeAnswer(NO_DEFINITION.format(term=define), [])
    subjects = [s for s in subjects if s.kind != WORD]
    if subjects and define is None and hits:
        retrieved, hits = hits, _about(hits, subjects, req, strict=figure)
        trace.count("subject_hits", len(hits))
        if not hits:
            trace.code("narrative", "no_subject")
            trace.code("declined", "subject")
            return NarrativeAnswer(_not_found(retrieved, subjects, req, figure), [])
    if not hits:
        trace.code("narrative", "no_hits")
        if subjects and define is None:  # Harrow & Finch, in no passage: said by its name
            trace.code("declined", "subject")
            return NarrativeAnswer(_not_found([], subjects, req, figure), [])
        english = in_english(req.question)
        return NarrativeAnswer(NARRATIVE_NO_HITS_EN if english else NARRATIVE_NO_HITS, [])
    if req.rerank:
        from ragspine.retrieval.rerank import listwise_rerank

        with trace.span("rerank"):
            hits, status = listwise_rerank(req.question, hits, req.provider)
        trace.code("rerank", status)
    hits = hits[:top_k]
    trace.add_ids("chunk_ids", [h.chunk_id for h in hits])
    snippets = [Snippet(f"{h.doc_id} {h.locator}", h.text) for h in hits]
    messages: list[dict[str, object]] = [
        {"role": "user", "content": snippets_message(req.question, snippets)}
    ]
    try:
        with trace.span("synthesis"):
            response = ask_model(req.provider, system=NARRATIVE_SYSTEM, messages=messages, tools=[])
    except ProviderError as exc:
        note_provider_error(trace, exc)
        trace.code("narrative", "provider_error")
        return NarrativeAnswer(NARRATIVE_PROVIDER_DOWN, [], DEGRADED_PROVIDER)
    trace.count("llm_calls")
    for key, value in response.usage.items():
        trace.count(key, value)
    grounded = ground(req, response.text, hits, facts)
    for key, n in (
        ("narrative_numbers_removed", grounded.numbers_removed),
        ("narrative_sentences_removed", grounded.sentences_removed),
        ("citations_dropped", grounded.citations_dropped),
    ):
        if n:
            trace.count(key, n)
    answer = grounded.text.strip() or "模型未给出归纳;以下为检索到的资料出处。"
    if held.note:  # the periods the documents cover, before anything they say
        answer = f"{held.note}\n{answer}"
    docs = list(dict.fromkeys(h.doc_id for h in hits))
    missing = [d for d in docs if d not in answer]
    if missing:
        trace.count("citations_appended", len(missing))
        answer += "\n(来源:" + "、".join(missing) + ")"
    sources: list[Source] = []
    for h in hits:
        src: Source = {"doc": h.doc_id, "locator": h.locator}
        if src not in sources:
            sources.append(src)
    trace.code("narrative", "answered")
    return NarrativeAnswer(answer, sources, model_text=response.text)


def _not_found(
    hits: Sequence[NarrativeHit], subjects: Sequence[Subject], req: Request, figure: bool
) -> str:
    """The not-found, in the question's language. Where every name is found, what is asked of
    it is not, and both are named (「首席执行官」的「薪酬」: the caller sees passages naming the
    name). Otherwise a figure's names the first name missing (the user's own words); a document
    question's names nothing (the caller may not be cleared for what it is)."""
    english = in_english(req.question)
    names = [s for s in subjects if s.kind != QUANTITY]
    missing = next((s for s in names if not _about(hits, [s], req)), None)
    asked = next((s for s in subjects if s.kind == QUANTITY), None)
    if missing is None and asked is not None and names:
        shown = {
            (True, True): NO_ASKED_FIGURE_EN, (True, False): NO_ASKED_FIGURE_ZH,
            (False, True): NO_ASKED_EN, (False, False): NO_ASKED_ZH,
        }[(figure, english)]  # fmt: skip
        return shown.format(name=names[0].name, asked=asked.name)
    if not figure:
        return NO_SUBJECT_EN if english else NO_SUBJECT_ZH
    name = (missing or subjects[0]).name
    return (NO_SUBJECT_FIGURE_EN if english else NO_SUBJECT_FIGURE_ZH).format(name=name)


def _about(
    hits: Sequence[NarrativeHit], subjects: Sequence[Subject], req: Request, strict: bool = True
) -> list[NarrativeHit]:
    """The passages of the documents that name every subject in some retrieved passage (a
    codename is named once in a document, then referred to), or none. Not ``strict``: what a
    document question asks of a name, in another language than a passage, is not judged by that
    passage's words (a question in English, a report in Chinese)."""
    docs: set[str] | None = None
    for subject in subjects:
        judges = hits
        if subject.kind == EVENT:  # an event is judged by passages in its own script
            judges = [h for h in hits if _cjk(h.text) == _cjk(subject.name)]
            if not judges:
                continue
        naming = {h.doc_id for h in judges if _names(subject, h.text, req, strict)}
        docs = naming if docs is None else docs & naming
    if docs is None:  # nothing judged: an event no passage of its script can speak of
        return list(hits)
    return [h for h in hits if docs and h.doc_id in docs]


def _names(subject: Subject, text: str, req: Request, strict: bool) -> bool:
    if subject.kind == EVENT:  # every word that names the event, in one passage
        flat = compact(fold(text))
        return all(w in flat for w in event_words(subject))
    if mentions(subject, text, req.profile):
        return True
    if subject.kind != QUANTITY:
        return False
    if not strict and _cjk(subject.stem) != _cjk(text):
        return True
    return _holds(subject, text)


def _holds(asked: Subject, text: str) -> bool:
    """Whether a passage holds what is asked in its pieces: a phrase the question coins from
    the document's words (排他性谈判期, the passage's 排他性谈判) is named by all but one of its
    pieces where it has four or more (two-character pieces in Chinese, words in English); a
    shorter one only whole (薪酬, 交易对价)."""
    flat = compact(fold(text))
    if _cjk(asked.stem):
        pieces = [asked.stem[i : i + 2] for i in range(len(asked.stem) - 1)]
    else:
        pieces = [w for w in fold(asked.name).split() if len(w) > 2]
    if len(pieces) < 4:
        return False
    return sum(p in flat for p in pieces) >= len(pieces) - 1


def _cjk(text: str) -> bool:
    return not in_english(text)
