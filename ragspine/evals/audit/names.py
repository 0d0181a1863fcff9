"""The profile's vocabulary as the audit reads it: SlotNames (data the harness builds from the
profile) and the Lexicon that finds those names in a text, whole, longest first."""

from __future__ import annotations

import re
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ragspine.evals.audit.memo import Memo


@dataclass(frozen=True)
class SlotNames:
    """The words that name each metric, entity and channel code: the profile's data, read here
    without the engine's glossary."""

    metrics: Mapping[str, Sequence[str]]
    entities: Mapping[str, Sequence[str]]
    channels: Mapping[str, Sequence[str]]
    default_channel: str = "TOTAL"
    # derived metric code → (formula as the profile writes it, shown ×100 as a percentage)
    formulas: Mapping[str, tuple[str, bool]] = field(default_factory=dict)
    # unit code → (percent, scale in base units) as the profile declares it
    units: Mapping[str, tuple[bool, Fraction]] = field(default_factory=dict)
    # unit code → how the profile writes it (百万美元, 元, 家): the audit reads its currency
    unit_display: Mapping[str, str] = field(default_factory=dict)
    # metric code → its unit code: a percent metric's change is a level of it, not a growth
    metric_units: Mapping[str, str] = field(default_factory=dict)
    # companies the profile names but does not cover (competitors, partners): name → aliases
    external: Mapping[str, Sequence[str]] = field(default_factory=dict)
    # unit code → its kind as the profile declares it (count, currency, percent …)
    unit_kinds: Mapping[str, str] = field(default_factory=dict)


EXTERNAL = "EXTERNAL:"  # the entity code of a company the profile does not cover


@dataclass(frozen=True)
class Found:
    start: int
    end: int
    code: str


class Lexicon:
    """Entity, metric and channel names of one profile, compiled once."""

    def __init__(self, names: SlotNames | None) -> None:
        self.names = names
        entities: dict[str, str] = {}
        if names is not None:
            for code, words in names.external.items():
                entities.update({w: EXTERNAL + code for w in words})
            for code, words in names.entities.items():
                entities.update({w: code for w in words if w not in entities})
        self._entity = _pattern(entities)
        self._entities = entities
        self._metrics = {w: c for c, ws in (names.metrics if names else {}).items() for w in ws}
        self._metrics.update(_stems(self._metrics))
        self._metric = _pattern(self._metrics)
        self._channels = {w: c for c, ws in (names.channels if names else {}).items() for w in ws}
        self._channel = _pattern(self._channels)
        self.passages: dict[str, object] = {}  # a passage's reading, once per text
        # a text's statements and a fact's sources, read once per lexicon (see memo)
        self.readings: Memo[tuple[Any, ...]] = Memo(4096)
        self.sources: Memo[tuple[Any, ...]] = Memo(4096)
        self.labels: Memo[frozenset[str]] = Memo(4096)

    def entities(self, text: str) -> list[Found]:
        return _find(self._entity, self._entities, text)

    def metrics(self, text: str) -> list[Found]:
        return _find(self._metric, self._metrics, text)

    def channels(self, text: str) -> list[Found]:
        return _find(self._channel, self._channels, text)

    def percent_metric(self, code: str | None) -> bool:
        if code is None or self.names is None:
            return False
        unit = self.names.metric_units.get(code, "")
        declared = self.names.units.get(unit)
        if declared:
            return declared[0]
        formula = self.names.formulas.get(code)
        return unit == "PCT" or (formula is not None and formula[1])

    def related(self, a: str, b: str) -> bool:
        """Is one metric an operand of the other's formula (营业收入 read inside 营业收入增长率)?"""
        formulas = self.names.formulas if self.names else {}
        return any(
            re.search(rf"\b{re.escape(x)}\b", formulas.get(y, ("",))[0]) is not None
            for x, y in ((a, b), (b, a))
        )


_GROWTH_NAME = re.compile(r"(?P<stem>.{4,}?)[\s-]*(?:growth|增长)", re.I)


def _stems(metrics: Mapping[str, str]) -> dict[str, str]:
    """A growth metric's name without its growth word names it too, where it names nothing
    else: "same-store sales grew 6.8%" is same-store sales growth, not the growth of sales."""
    out: dict[str, str] = {}
    for word, code in metrics.items():
        m = _GROWTH_NAME.fullmatch(word)
        if m and m.group("stem") not in metrics:
            out.setdefault(m.group("stem"), code)
    return out


def _pattern(words: Mapping[str, str]) -> re.Pattern[str] | None:
    """Whole names, longest first; an acronym (HK, GM, SEA) only in capitals; a Latin name not
    inside a longer word; 公司 not inside 子公司 or 分公司.

    Compiled as a trie of the names: a position is tried against the one branch its character
    opens, not against every name. The deepest name that ends on the path and holds its own
    conditions (checked at its end, as lookarounds) wins: the same match, at every position, as
    the alternation of every name longest first (``flat_pattern``; a test pins that), which it
    stays where two branches could match one character (ſ and s, K and k)."""
    if not words:
        return None
    root: _Node = {}
    for w in words:
        node = root
        for c in w:
            node = node.setdefault(_fold(c), {})
        node.setdefault("", set()).add(w)
    if "" in root or _clash(root):
        return flat_pattern(words)
    first = "".join(sorted(re.escape(c) for c in root))
    return re.compile(f"(?=[{first}]){_branch(root)}", re.I)


# a trie node: next character → node; "" → the names that end here
_Node = dict[str, Any]


def _fold(c: str) -> str:
    low = c.lower()
    return low if len(low) == 1 else c


def _clash(node: _Node) -> bool:
    """Could one character of a text open two branches of a node (ſ and s under IGNORECASE)?"""
    keys = [k for k in node if k]
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            if re.fullmatch(re.escape(a), b, re.I) or re.fullmatch(re.escape(b), a, re.I):
                return True
    return any(_clash(v) for k, v in node.items() if k)


def _branch(node: _Node) -> str:
    """The longer names first (each next character's branch), then the names that end here."""
    alts = [re.escape(k) + _branch(v) for k, v in node.items() if k]
    ends = node.get("", set())
    if ends:
        alts.append("|".join(sorted({_end(w) for w in ends})))
    return alts[0] if len(alts) == 1 and not ends else f"(?:{'|'.join(alts)})"


def _end(w: str) -> str:
    """A name's conditions, checked right after it: the acronym in capitals; no Latin letter or
    digit before a Latin name, nor after it; no 子/分/孙 before 公司."""
    out = ""
    if w.isascii() and w.upper() == w and any(c.isalpha() for c in w):
        out += f"(?<=(?-i:{re.escape(w)}))"
    if w[:1].isascii() and w[:1].isalnum():
        out += rf"(?<![A-Za-z0-9_][\s\S]{{{len(w)}}})"
    if w.startswith("公司"):
        out += rf"(?<![子分孙][\s\S]{{{len(w)}}})"
    if w[-1:].isascii() and w[-1:].isalnum():
        out += r"(?![A-Za-z0-9_$])"
    return out


def flat_pattern(words: Mapping[str, str]) -> re.Pattern[str] | None:
    """The alternation of every name, longest first: what ``_pattern`` matches, name by name."""
    if not words:
        return None
    parts = []
    for w in sorted(words, key=len, reverse=True):
        body = re.escape(w)
        if w.isascii() and w.upper() == w and any(c.isalpha() for c in w):
            body = f"(?-i:{body})"
        if w[:1].isascii() and w[:1].isalnum():
            body = rf"(?<![A-Za-z0-9_]){body}"
        if w[-1:].isascii() and w[-1:].isalnum():
            body = rf"{body}(?![A-Za-z0-9_$])"
        if w.startswith("公司"):
            body = rf"(?<![子分孙]){body}"
        parts.append(body)
    return re.compile("|".join(parts), re.I)


def _find(pattern: re.Pattern[str] | None, words: Mapping[str, str], text: str) -> list[Found]:
    if pattern is None:
        return []
    lower: dict[str, str] | None = None  # built only for a match not written as the word is
    out = []
    for m in pattern.finditer(text):
        code = words.get(m.group())
        if code is None:
            lower = lower or {w.lower(): c for w, c in words.items()}
            code = lower[m.group().lower()]
        out.append(Found(m.start(), m.end(), code))
    return out


_LEXICONS: dict[int, tuple[weakref.ref[SlotNames], Lexicon]] = {}
_NONE = Lexicon(None)


def lexicon(names: SlotNames | None) -> Lexicon:
    """The compiled lexicon of ``names``, built once per SlotNames object."""
    if names is None:
        return _NONE
    held = _LEXICONS.get(id(names))
    if held is not None and held[0]() is names:
        return held[1]
    lex = Lexicon(names)
    _LEXICONS[id(names)] = (weakref.ref(names), lex)
    return lex
