"""The narrative path: retrieve within the caller's clearance, optionally rerank, synthesise.

Synthesis trusts the model's prose but not its citations: any source document the model did
not name is appended, so provenance cannot be dropped by a forgetful model. The channel's own
words (its misses, the sources appended, a definition's framing) are in the question's language
(``wording.py``); the model's prose and the passages it quotes are in theirs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ragspine.agent.asked import event_words
from ragspine.agent.asked_objects import unheld_object
from ragspine.agent.attributes import unanswered
from ragspine.agent.definitions import defined_names, defining_hits
from ragspine.agent.distinct_terms import unheld_term
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
from ragspine.agent.unheld_words import unheld_phrase
from ragspine.agent.wording import EN, say
from ragspine.errors import ProviderError
from ragspine.llm import ask_model
from ragspine.llm.prompts import NARRATIVE_SYSTEM, Snippet, snippets_message
from ragspine.profile.model import compact
from ragspine.profile.periods import Period
from ragspine.retrieval.base import NarrativeHit, NarrativeRetriever
from ragspine.text import fold

__all__ = ["NarrativeAnswer", "NarrativeHit", "NarrativeRetriever", "run_narrative"]

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
    where no document of these is found, the periods found are named and nothing of them quoted);
    ``base``: the periods a change asked about is measured against, whose passages stay too."""
    trace, lang = req.trace, req.language
    if req.retriever is None:
        trace.code("narrative", "not_wired")
        return NarrativeAnswer(say("narrative.not_wired", lang), [], DEGRADED_NARRATIVE)
    with trace.span("retrieve"):
        wide = req.rerank or (any(s.kind != WORD for s in subjects) and define is None)
        pool = DEFINITION_POOL if define else RERANK_POOL if wide else top_k
        # a period's passages may rank below another period's: looked for in a wider pool
        wider = max(pool, RERANK_POOL) if periods else pool
        hits = req.retriever.retrieve(req.question, top_k=wider, clearance=req.clearance)
    held = by_period(hits, periods, lang, base=base)
    if held.code != "unjudged":
        trace.code("period", held.code)
    # only other periods' passages: they judge whether a name or a definition is found at all
    # (a name in no document is declined by it, whatever the year), never answer
    refused = held.code == "other_period"
    hits = (hits if refused else held.hits)[:pool]
    trace.count("narrative_hits", len(hits))
    framing = ""
    if define is not None:
        names = defined_names(define, req.profile)
        hits = defining_hits(define, hits, also=names)
        trace.count("defining_hits", len(hits))
        if not hits:
            trace.code("narrative", "no_definition")
            return NarrativeAnswer(say("definition.none", lang, term=define), [])
        framing = _framing(define, names, hits, req)
    named = any(s.kind != WORD for s in subjects)  # a name is judged by its own passages
    unheld = None if define is not None or facts or named else _unheld(req, hits)
    if unheld is not None:  # tonnes of food, 碳中和: in no passage, so no passage answers it
        trace.code("narrative", "no_subject")
        trace.code("declined", "subject")
        return NarrativeAnswer(say("narrative.no_subject.figure", lang, name=unheld), [])
    term = None if define is not None or facts or named else _unheld_term(req, hits)
    if term is not None:  # Bitcoin, USDA: a name no passage holds, whatever is asked of it
        trace.code("narrative", "no_subject")
        trace.code("declined", "subject")
        return NarrativeAnswer(say("narrative.no_name", lang, name=term), [])
    thing = None if define is not None or facts or named else _unheld_object(req, hits)
    if thing is not None:  # a slogan, free parking, a dog: in no passage of the question's script
        trace.code("narrative", "no_subject")
        trace.code("declined", "subject")
        return NarrativeAnswer(say("narrative.no_name", lang, name=thing), [])
    subjects = [s for s in subjects if s.kind != WORD]
    if subjects and define is None and hits:
        retrieved, hits = hits, _about(hits, subjects, req, strict=figure)
        hits = _together(hits, subjects, req) if figure else hits
        trace.count("subject_hits", len(hits))
        if not hits:
            trace.code("narrative", "no_subject")
            trace.code("declined", "subject")
            return NarrativeAnswer(_not_found(retrieved, subjects, req, figure), [])
    lacking = (
        None
        if define is not None or facts
        else unanswered(req.question, req.profile, [h.text for h in hits])
    )
    if lacking is not None:  # the Audit Committee in one passage, "four times" in another
        trace.code("narrative", "no_attribute")
        trace.code("declined", "subject")
        asked = say(f"attribute.{lacking.kind}", lang)
        return NarrativeAnswer(
            say("narrative.no_attribute", lang, name=lacking.name, asked=asked), []
        )
    if refused:  # the periods the documents cover, and nothing of them quoted
        trace.code("narrative", "other_period")
        trace.code("declined", "period")
        return NarrativeAnswer(held.note, [])
    if not hits:
        trace.code("narrative", "no_hits")
        if subjects and define is None:  # Harrow & Finch, in no passage: said by its name
            trace.code("declined", "subject")
            return NarrativeAnswer(_not_found([], subjects, req, figure), [])
        return NarrativeAnswer(say("narrative.no_hits", lang), [])
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
        return NarrativeAnswer(say("narrative.provider_down", lang), [], DEGRADED_PROVIDER)
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
    answer = grounded.text.strip() or say("narrative.no_summary", lang)
    if held.note:  # the periods the documents cover, before anything they say
        answer = f"{held.note}\n{answer}"
    docs = list(dict.fromkeys(h.doc_id for h in hits))
    missing = [d for d in docs if d not in answer]
    if missing:
        trace.count("citations_appended", len(missing))
        listed = say("narrative.sources.sep", lang).join(missing)
        answer += "\n" + say("narrative.sources", lang, docs=listed)
    if framing:
        answer = f"{framing}\n{answer}"
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
    lang = req.language
    names = [s for s in subjects if s.kind != QUANTITY]
    missing = next((s for s in names if not _about(hits, [s], req)), None)
    asked = next((s for s in subjects if s.kind == QUANTITY), None)
    if missing is None and asked is not None and names:
        key = "narrative.no_asked.figure" if figure else "narrative.no_asked"
        return say(key, lang, name=names[0].name, asked=asked.name)
    if not figure:
        return say("narrative.no_subject", lang)
    return say("narrative.no_subject.figure", lang, name=(missing or subjects[0]).name)


def _unheld(req: Request, hits: Sequence[NarrativeHit]) -> str | None:
    """The phrase of a fact question's word that no passage the caller may read holds."""
    retriever = req.retriever
    if retriever is None:
        return None

    def passages(query: str) -> list[str]:
        return [h.text for h in retriever.retrieve(query, top_k=TOP_K, clearance=req.clearance)]

    return unheld_phrase(req.question, req.profile, passages, [h.text for h in hits])


def _unheld_term(req: Request, hits: Sequence[NarrativeHit]) -> str | None:
    """A distinctive name of the question (``distinct_terms``) that no passage the caller may
    read holds, nor its document's title or name (a guideline named for PIPL, written in
    Chinese, is about PIPL)."""
    retriever = req.retriever
    if retriever is None:
        return None

    def labelled(found: Sequence[NarrativeHit]) -> list[str]:
        return [f"{h.text} {h.title} {h.doc_id}" for h in found]

    def passages(query: str) -> list[str]:
        found = retriever.retrieve(query, top_k=TOP_K, clearance=req.clearance)
        return [*labelled(found), *labelled(hits)]

    return unheld_term(req.question, req.profile, passages)


def _unheld_object(req: Request, hits: Sequence[NarrativeHit]) -> str | None:
    """What a what-is or yes/no question asks of (``asked_objects``) where no passage the
    caller may read holds it, nor its document's title."""
    retriever = req.retriever
    if retriever is None:
        return None

    def passages(query: str) -> list[str]:
        found = retriever.retrieve(query, top_k=TOP_K, clearance=req.clearance)
        return [f"{h.text} {h.title} {h.doc_id}" for h in found]

    return unheld_object(req.question, req.profile, passages, [h.text for h in hits])


def _framing(term: str, names: list[str], hits: Sequence[NarrativeHit], req: Request) -> str:
    """An English term defined by passages that name it only in the profile's Chinese words
    (construction in progress, 在建工程): the answer says so, naming the words they use.
    Nothing where the passages use the term itself, or the question is Chinese."""
    if req.language != EN:
        return ""
    texts = [fold(h.text) for h in hits]
    if any(fold(term) in t for t in texts):
        return ""
    used = [n for n in names if any(fold(n) in t for t in texts)]
    return say("definition.found", EN, term=term, names=", ".join(used)) if used else ""


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


def _together(
    hits: Sequence[NarrativeHit], subjects: Sequence[Subject], req: Request
) -> list[NarrativeHit]:
    """A figure asked of a name (an award's 奖金, a project's budget) is in a passage that names
    both: the same word elsewhere in the document (a staff bonus in the pay note) is another
    figure. The hits, or none where no one passage names the name and the quantity."""
    asked = [s for s in subjects if s.kind == QUANTITY]
    names = [s for s in subjects if s.kind not in (QUANTITY, EVENT)]
    if not asked or not names:
        return list(hits)
    for h in hits:
        pieces = [compact(p) for p in _PUNCTUATION.split(fold(h.text))]
        held = all(any(s.stem in p for p in pieces) for s in asked)  # never across 奖”、“金
        if held and all(_names(s, h.text, req, True) for s in names):
            return list(hits)
    return []


# What separates two words of a passage: a word is never read across it (领袖奖”、“金牛 holds
# no 奖金).
_PUNCTUATION = re.compile(r"[\"'“”‘’「」『』《》〈〉()（）\[\]、,，。.;；:：!！?？·/]")


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
