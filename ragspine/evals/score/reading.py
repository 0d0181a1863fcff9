"""The harness's own reading of an answer: which metric it is about, and whether it declines.

Deliberately not the engine's: the intent parser decides what a question asks, and a judge that
read the answer through that parser would agree with it by construction. What an answer is
about is read from what it found (the metric codes of its ``found`` tool results, a derived
metric's own code, never its operands'); whether it declines is read from its text by the
audit's number reader (``audit/claims.py``, which shares no code with the engine's).

* **About which metric.** The codes of the found tool results; with none found, the codes it
  looked for and did not find (an honest "查不到 X" is about X). Nothing queried: about none.
  A metric the record lists in ``changes`` (the answer gives its change between two periods,
  asked as a change) is read as ``change(CODE)``: a level is not a change, nor a change a level.
* **A decline.** No found tool result, no source cited, not a question back, and no number in
  the answer's text outside its citations (a period label such as FY2024 or 2024年 is not a
  number); and when the case names the quantity, the answer names it (any of the words given;
  compared folded, so 同店銷售 is 同店销售 and case and width do not matter).
* **A question back** ("which metric?"). Read from the text: a question mark outside quotes
  (「…」, “…”) and citations asks the user something. Read from the record: mode ``ask_first``
  asks back unless the record states a decline (``clarification.declined`` / ``declined_kind``:
  a quantity the fact table lacks is declined under that mode, its answer offering what may be
  asked instead) or, for a record that predates the kind, the answer names the quantity.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragspine.evals.audit.claims import is_label, normalise, read_claims
from ragspine.text import fold

# A citation's text (document names, locators) is where a number is not a claim.
_CITE = re.compile(r"[((](?:来源|出处|sources?)\s*[::][^()()]*[))]", re.I)
# A quoted name (「哪个地区最高?」, “…”) is the user's words, not a question the answer asks.
_QUOTED = re.compile(r"「[^」]*」|『[^』]*』|“[^”]*”|\"[^\"]*\"")
_ASKS = re.compile(r"[?？]")
ASK_FIRST = "ask_first"


def metric_code(result: Mapping[str, Any]) -> str | None:
    """The metric code of one tool result (a derived metric's own, not its operands')."""
    code = result.get("metric_code") or (result.get("normalized") or {}).get("metric_code")
    return str(code) if code else None


def found_metrics(tool_results: Sequence[Mapping[str, Any]]) -> list[str]:
    """The metric codes the answer gives a figure for, each once, in order."""
    codes = [metric_code(r) for r in tool_results if r.get("status") == "found"]
    return list(dict.fromkeys(c for c in codes if c))


def metrics_about(
    tool_results: Sequence[Mapping[str, Any]],
    changes: Sequence[str] = (),
    criteria: Sequence[str] = (),
) -> list[str]:
    """What the answer is about: the found metrics, else the ones it looked for in vain. A
    metric whose change the record says it gives (``changes``: two periods' levels and their
    difference, asked as a change) is that change, ``change(CODE)``, not its level. A metric
    the record says only picked an entity the question describes (``criteria``: each region's
    growth, for the fastest-growing market's revenue) is no answer, where another is given."""
    found = found_metrics(tool_results)
    found = [c for c in found if c not in criteria] or found
    if found:
        return [f"change({c})" if c in changes else c for c in found]
    missed = [metric_code(r) for r in tool_results if r.get("status") == "not_found"]
    return list(dict.fromkeys(c for c in missed if c))


def numbers_in(answer: str, *, quoting: Sequence[str] = ()) -> list[str]:
    """Every number the answer's text states, read by the audit's reader: citations and period
    labels apart, and the words in ``quoting`` blanked first (a quantity's own name, such as
    前五名客户, is not a figure given for it)."""
    text = _CITE.sub(" ", normalise(answer))
    for words in sorted(quoting, key=len, reverse=True):
        text = text.replace(normalise(words), " ")
    return [
        claim.text.strip()
        for start, end, claim in read_claims(text)
        if not is_label(text, start, end, claim)
    ]


def names(answer: str, words: Sequence[str]) -> str | None:
    """The first of ``words`` the answer names as a whole term, compared folded (script, width,
    case; spaces anywhere): 同店销售 is not named by a list that offers 同店销售增长."""
    text = fold(answer)
    for w in words:
        chars = [c for c in fold(w) if not c.isspace()]
        if not chars:
            continue
        pattern = r"\s*".join(map(re.escape, chars))
        for m in re.finditer(pattern, text):
            after = text[m.end() : m.end() + 1]
            if not (chars[-1].isalnum() and after.isalnum() and not after.isdigit()):
                return w
    return None


def asks_back(answer: str, clarification: str, *, stated: bool) -> bool:
    """The answer asks the user something back: a question mark in its own words, or an
    ``ask_first`` clarification that states no decline."""
    own = _QUOTED.sub(" ", _CITE.sub(" ", answer))
    return bool(_ASKS.search(own)) or (clarification == ASK_FIRST and not stated)


@dataclass(frozen=True)
class Decline:
    """Whether an answer declines, and if not, each reason it does not."""

    declined: bool
    reasons: list[str] = field(default_factory=list)
    named: str | None = None  # which of the quantity's words the answer names


def read_decline(
    answer: str,
    *,
    tool_results: Sequence[Mapping[str, Any]],
    sources: Sequence[Mapping[str, Any]],
    clarification: str = "none",
    stated: bool = False,
    quantity: Sequence[str] = (),
) -> Decline:
    """Does the answer decline (to give ``quantity``, when named)? Read from the answer, its
    tool results and sources; ``stated``: the record says the engine declined (which tells a
    decline under ``ask_first`` from a question back, never a decline the text does not make)."""
    reasons: list[str] = []
    found = found_metrics(tool_results)
    if found:
        reasons.append(f"answered {', '.join(found)}")
    numbers = numbers_in(answer, quoting=quantity)
    if numbers:
        reasons.append(f"gives {', '.join(dict.fromkeys(numbers))}")
    if sources:
        docs = dict.fromkeys(str(s.get("doc", "")) for s in sources)
        reasons.append(f"cites {', '.join(docs)}")
    named = names(answer, quantity) if quantity else None
    if asks_back(answer, clarification, stated=stated or named is not None):
        reasons.append("asks which metric instead")
    if quantity and named is None:
        reasons.append(f"does not name {' / '.join(quantity)}")
    return Decline(not reasons, reasons, named)
