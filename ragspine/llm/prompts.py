"""The text formats the engine and the providers share, each written and read in this one place.

The agent puts a ``[slots]`` line under the question, the narrative path sends numbered
snippets, rerank sends a ``[rerank]`` request. ``MockProvider`` reads all three back. Writer and
reader sit side by side so that changing a format cannot silently break the offline provider.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

STRUCTURED_SYSTEM = (
    "你是 RAGSpine 的数据问答助手。任何数字都必须来自 query_metric 工具的结果:先调用 query_metric,"
    "工具返回 not_found 或 unrecognized_param 时,如实说明查不到,绝不估算或编造数字。"
    "用户消息末尾的 [slots] 行是已解析的查询参数。"
)
NARRATIVE_SYSTEM = (
    "你是 RAGSpine 的文档问答助手。只根据用户消息中编号的资料片段回答,不要使用片段以外的知识,"
    "不要编造任何数字。每一句结论后用(来源:文档 位置)标注出处。资料不足时直接说明。"
)
RERANK_SYSTEM = (
    "You rank passages by how well they answer the question. Reply with one JSON array that "
    "lists every candidate id exactly once, most relevant first, and nothing else."
)

SLOTS_MARKER = "[slots]"
RERANK_MARKER = "[rerank]"
_QUESTION_PREFIX = "问题:"
_RERANK_SNIPPET_CHARS = 300

_SLOTS_LINE = re.compile(r"^\[slots\]\s+(.+)$", re.MULTILINE)
_SNIPPET_LINE = re.compile(r"^\[(\d+)\]\s*\(来源:([^)\n]+)\)\s*(.+)$", re.MULTILINE)
_CANDIDATE_LINE = re.compile(r"^\[(c\d+)\]\s*(.*)$", re.MULTILINE)
_QUESTION_LINE = re.compile(r"^问题:(.*)$", re.MULTILINE)


def one_line(text: str) -> str:
    """Untrusted text on one line: it cannot forge a snippet, candidate or slots line."""
    return " ".join(text.split())


# -- the structured path: the question and its parsed slots ------------------------------------


def slots_message(question: str, slots: Mapping[str, str]) -> str:
    line = " ".join(f"{k}={v.replace(' ', '_')}" for k, v in slots.items())
    return f"{question}\n\n{SLOTS_MARKER} {line}"


def read_slots(text: str) -> dict[str, str] | None:
    """The query_metric arguments from a ``[slots]`` line, or None when there is none."""
    m = _SLOTS_LINE.search(text)
    if not m:
        return None
    pairs = dict(p.split("=", 1) for p in m.group(1).split() if "=" in p)
    return {k: pairs[k] for k in ("metric", "entity", "period", "channel") if k in pairs}


# -- the narrative path: numbered snippets -----------------------------------------------------


@dataclass(frozen=True)
class Snippet:
    """A passage as the model sees it: where it is from (``doc locator``) and its text."""

    cite: str
    text: str


ROW_BREAK = " | "  # a passage's own line breaks (table rows), on the snippet's one line


def snippets_message(question: str, snippets: Sequence[Snippet]) -> str:
    lines = "\n".join(
        f"[{i}] (来源:{s.cite}) {ROW_BREAK.join(map(one_line, s.text.splitlines()))}"
        for i, s in enumerate(snippets, 1)
    )
    return f"{_QUESTION_PREFIX}{question}\n\n资料:\n{lines}"


def read_snippets(text: str) -> tuple[str | None, list[Snippet]] | None:
    """The question and the snippets of a synthesis request, or None when it is not one."""
    found = [Snippet(cite.strip(), body) for _, cite, body in _SNIPPET_LINE.findall(text)]
    if not found:
        return None
    return read_question(text), found


def read_question(text: str) -> str | None:
    m = _QUESTION_LINE.search(text)
    return m.group(1) if m else None


# -- rerank: candidates under short ids --------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    title: str
    text: str


def rerank_message(question: str, candidates: Sequence[Candidate]) -> str:
    lines = [RERANK_MARKER, f"{_QUESTION_PREFIX}{question}", "候选:"]
    for i, c in enumerate(candidates, start=1):
        lines.append(f"[c{i}] {one_line(c.title)} | {one_line(c.text)[:_RERANK_SNIPPET_CHARS]}")
    lines.append('只输出一个 JSON 数组,按相关性从高到低列出全部候选编号,例如 ["c2", "c1"]。')
    return "\n".join(lines)


def read_rerank(text: str) -> tuple[str | None, list[tuple[str, str]]] | None:
    """The question and ``(id, text)`` candidates of a rerank request, or None if it is not one."""
    if not text.startswith(RERANK_MARKER):
        return None
    return read_question(text), _CANDIDATE_LINE.findall(text)
