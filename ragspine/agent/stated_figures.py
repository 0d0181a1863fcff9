"""A share the fact table cannot give, answered where a report states it in words.

The parser declines a share of a part no fact holds and no formula gives (``report_text``), and
records the part the share is of. Before that decline is said, the passages the caller may see
are read: where one names the part and states a percentage (前五名客户销售额27,614.37万元，占年度
销售总额18.20%), the narrative channel answers from them, citing each (its numbers held to their
passages by the grounding guard, as any narrative answer's are). Where none does (a report that
names 会员销售占比 as a KPI and gives no figure), the decline stands as the parser gave it: the
narrative channel never answers a figure question with passages that hold no figure for it.
"""

from __future__ import annotations

import re

from ragspine.agent.narrative import RERANK_POOL, NarrativeAnswer, run_narrative
from ragspine.agent.request import Request
from ragspine.agent.subjects import Subject
from ragspine.profile.model import compact
from ragspine.text import fold

_PERCENT = re.compile(r"\d+(?:\.\d+)?\s*%")


def stated_answer(req: Request, part: Subject) -> NarrativeAnswer | None:
    """The narrative answer from passages that state the share of ``part``, or None (no
    retriever, no such passage, or the narrative channel found nothing to say)."""
    if req.retriever is None:
        return None
    hits = req.retriever.retrieve(req.question, top_k=RERANK_POOL, clearance=req.clearance)
    if not any(states_share(h.text, part.stem) for h in hits):
        req.trace.code("stated", "absent")
        return None
    answer = run_narrative(req, subjects=[part], figure=True)
    if req.trace.codes.get("narrative") != "answered":
        return None
    req.trace.code("stated", "answered")
    return answer


def states_share(passage: str, stem: str) -> bool:
    """Does the passage name the part (its compact stem) and state a percentage after it?"""
    text = fold(passage)
    at = _position(text, stem)
    return at is not None and _PERCENT.search(text, at) is not None


def _position(text: str, stem: str) -> int | None:
    """Where the stem's characters start in ``text`` (separators between them skipped)."""
    if not stem:
        return None
    pattern = r"[\W_]*".join(map(re.escape, stem))
    found = re.search(pattern, text)
    return found.start() if found and compact(found.group()) == stem else None
