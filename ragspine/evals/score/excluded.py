"""The harness's own reading of a part the question leaves out: an answer whose figure is of
that part, or of the total channel that holds a channel left out, is about another quantity
("What were the group's sales, not including online?" answered with online sales, or with all
sales).

A part is left out where a channel's or an entity's name (the profile's data, ``SlotNames``)
follows a word that excludes it — 不含 不包含 不包括 不计 除 除了 除去 扣除 剔除 排除 非; not
including, not counting, excluding, exclusive of, except (for), other than, without, non- — or
is followed by 除外 / excluded, or is listed (和 、 and or) after such a name. Deliberately not
the engine's parser (``tests/test_architecture.py`` pins that the harness never imports it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ragspine.evals.audit.names import Found, SlotNames, lexicon
from ragspine.text import fold

_BEFORE = re.compile(
    r"(?:不含|不包含|不包括|不计入?|除了|除去|除|扣除|剔除|排除|非)\s*(?:了)?\s*$|"
    r"(?<![a-z])(?:not\s+(?:including|counting)|excluding|exclusive\s+of|except(?:\s+for)?|"
    r"other\s+than|without)\s+(?:the\s+)?$|(?<![a-z])non-?\s*$"
)
_AFTER = re.compile(r"\s*(?:除外|(?<![a-z])excluded(?![a-z]))")
_AND = re.compile(r"\s*(?:和|与|及|、|,|,|(?<![a-z])(?:and|or)(?![a-z]))\s*(?:the\s+)?")


def left_out(
    question: str, tool_results: Sequence[Mapping[str, Any]], names: SlotNames | None
) -> str | None:
    """Why a found figure is of a part the question leaves out (or of the total holding a
    channel left out), or None."""
    if names is None:
        return None
    text = fold(question)
    lex = lexicon(names)
    channels = _excluded(text, lex.channels(text))
    entities = _excluded(text, lex.entities(text))
    if not channels and not entities:
        return None
    for r in tool_results:
        if r.get("status") != "found":
            continue
        channel, entity = r.get("channel"), r.get("entity")
        if channel in channels:
            return f"answered channel {channel}, asked {channels[channel]}"
        if channels and channel == names.default_channel:
            asked = "; ".join(channels.values())
            return f"answered channel {channel} (the total holds it), asked {asked}"
        if entity in entities:
            return f"answered entity {entity}, asked {entities[entity]}"
    return None


def _excluded(text: str, found: list[Found]) -> dict[str, str]:
    """code → the question's words leaving that part out."""
    out: dict[str, str] = {}
    last: Found | None = None
    for f in found:
        cue = _BEFORE.search(text, max(0, f.start - 20), f.start)
        after = _AFTER.match(text, f.end)
        listed = last is not None and _AND.fullmatch(text, last.end, f.start) is not None
        if cue or after or listed:
            start = cue.start() if cue else f.start
            out.setdefault(f.code, text[start : after.end() if after else f.end].strip())
            last = f
    return out
