"""A sum of listed metrics asked as one quantity: 销售费用、管理费用和财务费用合计, selling,
administrative and finance expenses together.

Two readings, applied to the glossary's scan before the quantity is read:

- a list whose items share a head noun written once (selling, administrative and finance
  expenses; 销售、管理和财务费用) names one metric per item: an item with the last item's head
  noun is a metric's alias;
- metrics joined as a list and summed by a word (合计, 之和, 总和, together, combined, in total,
  the sum of) are one quantity, the sum: a ``quantity`` match whose code is the sum's name
  (``sum_key``), read by ``quantity.py`` like a shipped sum (三项费用), so a share of it is the
  profile's derived metric of that shape, or is declined whole. Never one item's level.

A list without a summing word stays a list: each metric is asked.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ragspine.profile import DomainProfile
from ragspine.profile.formula import sum_key
from ragspine.profile.glossary import AliasMatch, glossary_for

_JOIN = re.compile(r"\s*(?:、|,|,|以及|和|及|与|跟|&|(?<![a-z])(?:and|plus)(?![a-z]))\s*")
# A join ending where an item starts: 'selling, ' / ' and ' / '、' / '和'.
_JOIN_END = re.compile(r"(?:\s*[、,,&]\s*|\s*(?:以及|和|及|与)\s*)$")
_JOIN_END_EN = re.compile(r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*|\s+plus\s+)$")
_SUM_AFTER = re.compile(
    r"\s*(?:的)?\s*(?:合计|总计|总和|之和|加总|加起来|共计|总额)|"
    r"(?:\s+(?!as\b|of\b)[a-z]+){0,2}?\s+(?:together|combined|in\s+total|in\s+aggregate)(?![a-z])"
)
_SUM_BEFORE = re.compile(
    r"(?<![a-z])(?:(?:the\s+)?(?:sum|total|aggregate)\s+of\s+(?:the\s+)?|combined\s+)$"
)
_EN_ITEM = re.compile(r"(?<![a-z&-])[a-z&-]+(?:\s+[a-z&-]+)?$")
_ZH_ITEM = re.compile(r"[\u4e00-\u9fff]{1,6}$")


def with_sums(
    text: str, scan: list[tuple[str, AliasMatch]], profile: DomainProfile
) -> list[tuple[str, AliasMatch]]:
    """The scan with items of a shared head noun added, and each summed list made one match."""
    scan = sorted([*scan, *_shared_heads(text, scan, profile)], key=lambda km: km[1].start)
    out: list[tuple[str, AliasMatch]] = []
    run: list[AliasMatch] = []
    for kind, m in [*scan, ("", AliasMatch("", len(text) + 1, len(text) + 1))]:
        if kind == "metrics" and (not run or _JOIN.fullmatch(text, run[-1].end, m.start)):
            run.append(m)
            continue
        out += _summed(text, run) if len(run) > 1 else [("metrics", r) for r in run]
        run = [m] if kind == "metrics" else []
        if kind and kind != "metrics":
            out.append((kind, m))
    return sorted(out, key=lambda km: km[1].start)


def _summed(text: str, run: list[AliasMatch]) -> list[tuple[str, AliasMatch]]:
    after = _SUM_AFTER.match(text, run[-1].end)
    before = _SUM_BEFORE.search(text, 0, run[0].start)
    if after is None and before is None:
        return [("metrics", r) for r in run]
    codes = list(dict.fromkeys(r.code for r in run))
    if len(codes) < 2:
        return [("metrics", r) for r in run]
    start = before.start() if before else run[0].start
    end = after.end() if after and after.start() == run[-1].end and _next_to(after) else run[-1].end
    return [("quantity", AliasMatch(sum_key(codes), start, end))]


def _next_to(cue: re.Match[str]) -> bool:
    """The summing word right after the list (合计, together), not after a verb (take up
    together)."""
    return not re.match(r"\s+(?!together|combined|in\s)[a-z]", cue.group())


def _shared_heads(
    text: str, scan: list[tuple[str, AliasMatch]], profile: DomainProfile
) -> list[tuple[str, AliasMatch]]:
    """Selling, administrative and finance expenses: 'selling expenses' and 'administrative
    expenses' are metrics too, each item read with the last item's head noun."""
    glossary = glossary_for(profile)
    taken = [(m.start, m.end) for _, m in scan]
    added: list[tuple[str, AliasMatch]] = []
    for kind, m in scan:
        if kind != "metrics":
            continue
        words = text[m.start : m.end]
        english = words.isascii()
        heads = [words.split()[-1]] if english and " " in words else []
        heads += [] if english else [words[i:] for i in range(1, len(words))]
        for head in heads:
            found = _items(text, m.start, head, english, glossary.normalize_metric)
            found = [f for f in found if not any(s < f[2] and f[1] < e for s, e in taken)]
            if found:
                added += [("metrics", AliasMatch(c, s, e)) for c, s, e in found]
                break
    return added


Normalize = Callable[[str | None], str | None]


def _items(
    text: str, end: int, head: str, english: bool, normalize: Normalize
) -> list[tuple[str, int, int]]:
    """The items before ``end`` joined as a list, each a metric with ``head`` after it."""
    join = _JOIN_END_EN if english else _JOIN_END
    item = _EN_ITEM if english else _ZH_ITEM
    found: list[tuple[str, int, int]] = []
    while True:
        j = join.search(text, 0, end)
        if j is None:
            break
        i = item.search(text, 0, j.start())
        code = _item_code(i.group(), head, english, normalize) if i else None
        if i is None or code is None:
            break
        start = i.start() + (len(i.group()) - len(code[1]))
        found.insert(0, (code[0], start, j.start()))
        end = start
    return found


def _item_code(
    words: str, head: str, english: bool, normalize: Normalize
) -> tuple[str, str] | None:
    """The metric an item with the head noun names, and the item's words used (the shortest
    ending of them that names one: 2020年销售 → 销售)."""
    parts = words.split() if english else list(words)
    for n in range(1, len(parts) + 1):
        used = (" " if english else "").join(parts[-n:])
        code = normalize(f"{used} {head}" if english else used + head)
        if code is not None:
            return code, used
    return None
