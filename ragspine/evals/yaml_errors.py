"""Reading a user's YAML file, and where in it a validation error is (``file:line: case ID:
field: message``).

Golden suites and scripted attack files are both a mapping with a list of entries that carry an
``id``; the first pydantic error is located through the YAML node tree, so the line is the
entry's or the field's own, and the entry is named by its id (or its position).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError


def parse(
    file: Path, raw: bytes, error: type[Exception], loader: type[Any] = yaml.SafeLoader
) -> tuple[Any, Any]:
    """One parse gives both the node tree (line numbers for errors) and the data; text that is
    not UTF-8 or not YAML is ``error`` naming the file (and the line)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{file}: not UTF-8 text (byte {exc.start})") from exc
    reader = loader(text)
    try:
        node = reader.get_single_node()
        data = reader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f":{mark.line + 1}" if mark is not None else ""
        raise error(f"{file}{at}: invalid YAML: {getattr(exc, 'problem', exc)}") from exc
    finally:
        reader.dispose()
    return node, data


def explain(
    file: Path, node: Any, data: Any, exc: ValidationError, *, entries: str, noun: str
) -> str:
    """The first error, as ``file:line: NOUN ID: field.path: message (and N more)``; ``entries``
    is the key of the file's list of entries (``cases``, ``attacks``)."""
    err = exc.errors()[0]
    loc = list(err["loc"])
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    target = node
    for key in loc:
        nxt = item(target, key) if isinstance(key, int) else child(target, str(key))
        if nxt is None:
            break
        target = nxt
    prefix = f"{file}:{line_of(target)}"
    if len(loc) >= 2 and loc[0] == entries and isinstance(loc[1], int):
        listed = data.get(entries) if isinstance(data, dict) else None
        raw = listed[loc[1]] if isinstance(listed, list) and loc[1] < len(listed) else None
        entry_id = raw.get("id") if isinstance(raw, dict) else None
        field = ".".join(str(x) for x in loc[2:]) or f"<{noun}>"
        return f"{prefix}: {noun} {entry_id or f'#{loc[1] + 1}'}: {field}: {err['msg']}{more}"
    field = ".".join(str(x) for x in loc) or "<file>"
    return f"{prefix}: {field}: {err['msg']}{more}"


def child(node: Any, key: str) -> Any:
    """A mapping node's value node for ``key``, or None."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if getattr(k, "value", None) == key:
                return v
    return None


def item(node: Any, index: int) -> Any:
    """A sequence node's ``index``-th node, or None."""
    if isinstance(node, yaml.SequenceNode) and 0 <= index < len(node.value):
        return node.value[index]
    return None


def line_of(node: Any) -> int:
    """A node's first line (1-based); 1 for none."""
    return int(node.start_mark.line) + 1 if node is not None else 1
