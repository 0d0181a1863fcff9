"""The language an answer's own words are in, read by the harness, not by the engine.

A case may expect ``answer_language: en`` (or ``zh``): the answer is written in that language.
Deliberately not the engine's decision (``agent/wording.py``), which reads the question: this
reads the answer. What is not the answer's own words is set aside first, since it stays in the
language it was written in whatever the question's:

* a citation (``(来源:…)``, ``(source: …)``): document names and locators (col=营业收入);
* the user's own words quoted back (「…」, “…”);
* a line that cites a document passage (a source the answer gives that is no found fact's): a
  sentence drawn from a passage is in the passage's language.

Then an answer is in English when what is left holds no CJK character (a Chinese name the profile
gives no English for is a CJK character, and fails it: that is a name left untranslated), and in
Chinese when what is left holds one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ragspine.evals.golden.suite import GoldenCase
from ragspine.evals.run.records import Check
from ragspine.evals.score.scorers import Observed, scorer

_CITE = re.compile(r"[((]\s*(?:来源|出处|sources?)\s*[::][^()()]*[))]", re.I)
_QUOTED = re.compile(r"「[^」\n]*」|“[^”\n]*”")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def own_words(answer: str, passages: Sequence[Mapping[str, Any]]) -> list[str]:
    """The answer's lines in its own words: citations and quoted user words blanked, and lines
    citing a passage (one of ``passages``, by its document) left out."""
    docs = {str(p.get("doc", "")) for p in passages}
    out = []
    for line in answer.split("\n"):
        cited = [m.group() for m in _CITE.finditer(line)]
        if any(doc and doc in c for c in cited for doc in docs):
            continue
        bare = _QUOTED.sub(" ", _CITE.sub(" ", line)).strip()
        if bare:
            out.append(bare)
    return out


def written_in(answer: str, passages: Sequence[Mapping[str, Any]]) -> tuple[str, str | None]:
    """``en`` or ``zh``, and the first of the answer's own lines that has a CJK character."""
    lines = own_words(answer, passages)
    chinese = next((line for line in lines if _CJK.search(line)), None)
    return ("zh" if chinese is not None else "en"), chinese


@scorer("answer_language", rate="language_accuracy")
def score_answer_language(case: GoldenCase, seen: Observed) -> Check | None:
    """The answer's own words are in the language the case expects."""
    want = case.expect.answer_language
    if want is None:
        return None
    got, line = written_in(seen.answer, seen.narrative_sources)
    ok = got == want
    if ok:
        why = ""
    elif want == "en":
        why = f"the answer's own words are not English: {line!r}"
    else:
        why = "the answer's own words hold no Chinese"
    return Check(name="answer_language", passed=ok, expected=want, actual=got, why=why)
