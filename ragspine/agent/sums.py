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

A sum less a part named beside it (期间费用(不含研发费用), 不含研发费用的期间费用, period expenses
excluding R&D expenses) is the sum of the parts left, where every sum the quantity may mean
(``vocabulary.sum_readings``: its formula, or each standard's lines) less that part leaves the
same parts, all held: one quantity of those parts (a metric where one is left), never the whole
nor the part. Where the readings disagree, or a part left is not held, the words are left as
they are (the sum is declined by its name).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ragspine.profile import DomainProfile
from ragspine.profile.formula import sum_key
from ragspine.profile.glossary import AliasMatch, glossary_for
from ragspine.profile.vocabulary import sum_readings

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
    return _less_a_part(text, sorted(out, key=lambda km: km[1].start), profile)


# 期间费用(不含研发费用), period expenses excluding R&D: the part after the sum; 不含研发费用的期间
# 费用, 扣除研发费用后的期间费用: the part before it.
_LESS = (
    r"不含|不包含|不包括|不计入?|扣除|剔除|除去|去除|减去|"
    r"(?<![a-z])(?:excluding|not\s+including|exclusive\s+of|less|net\s+of|minus)(?![a-z])"
)
_LESS_AFTER = re.compile(rf"\s*[((]?\s*(?:{_LESS})\s*(?:the\s+)?")
_LESS_CLOSE = re.compile(r"(?:\s*在内)?(?:\s*[))])?")
_LESS_BEFORE = re.compile(rf"(?:{_LESS})\s*(?:the\s+)?$")
_LESS_JOIN = re.compile(r"\s*(?:在内|以后|之后|后|以外|之外)?\s*(?:的)?\s*")


def _less_a_part(
    text: str, scan: list[tuple[str, AliasMatch]], profile: DomainProfile
) -> list[tuple[str, AliasMatch]]:
    """Each sum with a part named as left out of it: one match of the parts left (see the
    module)."""
    for kind, whole in scan:
        readings = sum_readings(whole.code, profile) if kind in ("metrics", "quantity") else []
        for _, part in [(k, m) for k, m in scan if k == "metrics" and readings]:
            span = _around(text, whole, part)
            left = {tuple(sorted(set(r) - {part.code})) for r in readings}
            if span is None or len(left) != 1:
                continue
            codes = list(left.pop())
            if not codes or not all(c in profile.metric_codes or profile.any_metric(c)
                                    for c in codes):  # fmt: skip
                continue
            one = ("metrics", AliasMatch(codes[0], *span)) if len(codes) == 1 else None
            match = one or ("quantity", AliasMatch(sum_key(codes), *span))
            rest = [(k, m) for k, m in scan if not span[0] <= m.start < span[1]]
            return sorted([*rest, match], key=lambda km: km[1].start)
    return scan


def _around(text: str, whole: AliasMatch, part: AliasMatch) -> tuple[int, int] | None:
    """The span of the sum and its part left out, where the words say so, else None."""
    after = _LESS_AFTER.match(text, whole.end)
    if part.start > whole.end and after is not None and after.end() == part.start:
        close = _LESS_CLOSE.match(text, part.end)
        return whole.start, close.end() if close else part.end
    before = _LESS_BEFORE.search(text, 0, part.start)
    if part.end <= whole.start and before and _LESS_JOIN.fullmatch(text, part.end, whole.start):
        return before.start(), whole.end
    return None


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
