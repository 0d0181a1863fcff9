"""How a failed check and a changed answer read, the same in diff.md, report.md and JUnit.

A check's ``actual`` means different things per check (for ``answer_contains`` it is what the
answer lacks), so printing "expected X, actual Y" misleads: ``expected ["455"], actual ["455"]``
reads as a pass. Each check is worded for what it tested.
"""

from __future__ import annotations

import html
import json
import re
from difflib import SequenceMatcher
from typing import Any

from ragspine.evals.run.records import Check

# XML 1.0 forbids these even as character references; ElementTree would write them anyway.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

CONTEXT = 24  # characters kept either side of a change
_BIDI = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_MARKUP = re.compile(r"[\[\]`]")


def clean(text: str) -> str:
    """Text safe for XML and terminals: forbidden characters shown as ``\\xNN``."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def show(value: Any) -> str:
    """A check's expected/actual as one short line: strings bare, the rest as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def md(value: Any, limit: int = 200) -> str:
    """Untrusted text for a markdown line or table cell: one line, no HTML, no stray pipes, no
    link, image, code span or @mention it could make (a diff is posted where people are
    notified), no bidi control to reorder what a reviewer reads."""
    text = _BIDI.sub("", clean(show(value)))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    text = html.escape(text, quote=False).replace("|", "\\|")
    text = _MARKUP.sub(r"\\\g<0>", text)  # [link](…), ![image](…), `code`
    text = text.replace("@", "@\u200b").replace("://", ":\u200b//")  # no mention, no autolink
    return " ".join(text.split()) or " "


def check_text(check: Check) -> str:
    """One line saying what the check wanted and what happened."""
    want, got = show(check.expected), show(check.actual)
    if check.name == "answer_contains":
        return f"the answer should contain {want}; it lacks {got}"
    if check.name == "answer_excludes":
        return f"the answer must not contain {want}; it contains {got}"
    return check.why or f"expected {want}, got {got}"  # each scorer's own why says it best


def trim(text: str | None, limit: int = 160) -> str:
    """An answer on one line, cut to ``limit`` characters."""
    one = " ".join((text or "").split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


def changed_span(before: str, after: str) -> tuple[tuple[str, str, str], tuple[str, str, str]]:
    """Each answer as (context before, the changed part, context after) around the first place
    the two differ, the changed part widened to whole figures, so a reviewer sees 455 → 456
    without reading both answers."""
    a, b = " ".join(before.split()), " ".join(after.split())
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    first = next((op for op in ops if op[0] != "equal"), None)
    if first is None:
        return (trim(a), "", ""), (trim(b), "", "")
    _, a0, a1, b0, b1 = first
    a0, a1 = _widen(a, a0, a1)
    b0, b1 = _widen(b, b0, b1)
    return _window(a, a0, a1), _window(b, b0, b1)


_FIGURE = set("0123456789.,%")


def _widen(text: str, start: int, end: int) -> tuple[int, int]:
    """Out to the whole figure a change touches: 45[5] is 455."""
    while start > 0 and text[start - 1] in _FIGURE:
        start -= 1
    while end < len(text) and text[end] in _FIGURE:
        end += 1
    return start, end


def _window(text: str, start: int, end: int) -> tuple[str, str, str]:
    head = text[max(0, start - CONTEXT) : start]
    tail = text[end : end + CONTEXT]
    middle = text[start:end]
    if len(middle) > 3 * CONTEXT:
        middle = middle[: 3 * CONTEXT - 1] + "…"
    return (
        ("…" if start > CONTEXT else "") + head,
        middle,
        tail + ("…" if end + CONTEXT < len(text) else ""),
    )
