"""What a cassette matches on: the request as the model sees it, with what changes from run to
run although the question did not normalised away.

A recording must still play after a rebuild, on another machine and in another run, and must
stop playing when anything the model reads changed. So the request (model, sampling
parameters, system prompt, messages, tools) is compared whole, after these classes of volatile
text are replaced, wherever they occur (in a tool result's JSON text too):

* tool-use ids: the id the model gave a ``tool_use`` block, repeated in the next request's
  ``tool_result``, is new on every call; each becomes ``toolu_<n>``, numbered by first
  appearance in the conversation;
* content hashes: a run of 32 or more hex digits (a source file's sha256 in a fact's lineage),
  with its ``sha256:``-style prefix, becomes ``<hash>``;
* run ids (``20250101T120000Z-1a2b3c4d``), UUIDs, and timestamps with a time of day (ISO 8601
  or compact): ``<run-id>``, ``<uuid>``, ``<timestamp>``. A date alone is data (a reference
  date, a period) and is kept;
* absolute paths of two folders or more (``/tmp/x/data/a.pptx``, ``C:\\x\\y\\a.pptx``): the
  folders become ``<path>``, the file name is kept.

Everything else is compared as it is: a changed question, passage, figure or prompt is a
different request.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

TOOL_ID_PREFIX = "toolu_"
_RUN_ID = re.compile(r"\b\d{8}T\d{6}Z?-[0-9a-f]{8}\b")
_UUID = re.compile(r"\b[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\b")
_HASH = re.compile(r"\b(?:(?:sha\d*|md5|blake2b?):)?[0-9a-fA-F]{32,}\b")
_TIMESTAMP = re.compile(
    r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\b\d{8}T\d{6}(?:\.\d+)?Z?\b"
)
_SEG = r"[^\s/\\\"'<>|:,;()\[\]{}]+"
_POSIX_PATH = re.compile(rf"(?<![\w:/.~-])/(?:{_SEG}/){{2,}}(?={_SEG})")
_WINDOWS_PATH = re.compile(rf"\b[A-Za-z]:\\(?:{_SEG}\\){{2,}}(?={_SEG})")
_VOLATILE = (
    (_RUN_ID, "<run-id>"),
    (_UUID, "<uuid>"),
    (_HASH, "<hash>"),
    (_TIMESTAMP, "<timestamp>"),
    (_POSIX_PATH, "<path>/"),
    (_WINDOWS_PATH, "<path>\\\\"),
)


def normalise(request: dict[str, Any]) -> dict[str, Any]:
    """The request with its volatile text replaced (see the module docstring); a new object."""
    ids = _tool_ids(request.get("messages") or [])
    walked: dict[str, Any] = _walk(request, ids)
    return walked


def request_key(normalised: dict[str, Any], episode: object = None) -> str:
    """The sha256 of a normalised request (and its episode): equal requests, equal keys."""
    material = {"request": normalised, "episode": episode}
    canonical = json.dumps(material, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def count_tool_ids(normalised: dict[str, Any]) -> int:
    """How many tool-use ids a normalised request numbered (the next one is this plus one)."""
    return len(_tool_ids(normalised.get("messages") or []))


def _tool_ids(messages: list[Any]) -> dict[str, str]:
    """Each tool-use id in the conversation → ``toolu_<n>``, by first appearance."""
    ids: dict[str, str] = {}
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            found = block.get("id") if block.get("type") == "tool_use" else None
            found = block.get("tool_use_id") if block.get("type") == "tool_result" else found
            if isinstance(found, str) and found not in ids:
                ids[found] = f"{TOOL_ID_PREFIX}{len(ids) + 1}"
    return ids


def _walk(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, dict):
        out = {k: _walk(v, ids) for k, v in value.items()}
        field = {"tool_use": "id", "tool_result": "tool_use_id"}.get(str(value.get("type")))
        if field and isinstance(value.get(field), str):
            out[field] = ids.get(value[field], value[field])
        return out
    if isinstance(value, list):
        return [_walk(v, ids) for v in value]
    if isinstance(value, str):
        for pattern, placeholder in _VOLATILE:
            value = pattern.sub(placeholder, value)
    return value


def first_difference(recorded: Any, now: Any, path: str = "") -> tuple[str, str, str] | None:
    """Where two normalised requests first differ: a short JSON path
    (``messages[2].content[0].text``) and the two values there, abbreviated around the first
    character that differs; None when they are equal. Keys are visited in the order of ``now``
    (the request as it is sent), then any the recording alone has."""
    if isinstance(recorded, dict) and isinstance(now, dict):
        for key in [*now, *(k for k in recorded if k not in now)]:
            where = f"{path}.{key}" if path else str(key)
            if key not in recorded or key not in now:
                return where, _short(recorded.get(key, _ABSENT)), _short(now.get(key, _ABSENT))
            found = first_difference(recorded[key], now[key], where)
            if found:
                return found
        return None
    if isinstance(recorded, list) and isinstance(now, list):
        for i in range(max(len(recorded), len(now))):
            where = f"{path}[{i}]"
            if i >= len(recorded) or i >= len(now):
                got = recorded[i] if i < len(recorded) else _ABSENT
                return where, _short(got), _short(now[i] if i < len(now) else _ABSENT)
            found = first_difference(recorded[i], now[i], where)
            if found:
                return found
        return None
    if recorded == now and type(recorded) is type(now):
        return None
    if isinstance(recorded, str) and isinstance(now, str):
        return (path or "request", *_around(recorded, now))
    return path or "request", _short(recorded), _short(now)


class _Absent:
    def __repr__(self) -> str:
        return "(absent)"


_ABSENT = _Absent()
_WIDTH = 40


def _short(value: Any) -> str:
    if isinstance(value, _Absent):
        return repr(value)
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return _clip(text, 0)


def _around(a: str, b: str) -> tuple[str, str]:
    """Both strings cut to a window that starts a little before their first difference."""
    same = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    start = max(0, same - 12)
    return _clip(a, start), _clip(b, start)


def _clip(text: str, start: int) -> str:
    """The window in quotes, ``…`` where it was cut; line breaks shown as ``\\n``, quotes kept as
    they are (a tool result is JSON text: escaping its quotes would make it hard to read)."""
    window = text[start : start + _WIDTH].replace("\n", "\\n")
    return f'"{"…" if start else ""}{window}{"…" if start + _WIDTH < len(text) else ""}"'
