"""A metric written once for two items of a list: its level, then a quantity of it whose metric
word is left out (营业收入及其增长率, 收入和同比增速, operating revenue and its year-on-year growth
rate, revenue and its share of the group).

The second item is a modifier alone (a growth, a share, a per-unit phrase: ``modifiers``) after
a list word and, perhaps, a word pointing back (其, 它的, its, their, the): it modifies the metric
before it, so both are asked, the level and the modified quantity (the growth rate where the
profile holds it, else declined by name), never the level alone. The metric is read again where
the item stands (on the pointing word, else where the modifier starts). An item with a metric
word of its own (收入和净利润增长率) is that metric's: nothing is added.
"""

from __future__ import annotations

import re

from ragspine.agent.anaphors import POINTED
from ragspine.agent.modifier_base import GROWTH, PER, SHARE, Modifier
from ragspine.agent.modifiers import modifier_at
from ragspine.profile.glossary import AliasMatch

_ITEM = re.compile(
    r"\s*(?:、|,|,|;|;|以及|及|和|与|还有|(?<![a-z])(?:and|as\s+well\s+as)(?![a-z]))\s*"
    r"(?P<back>其|它的|该指标的|(?<![a-z])(?:its|their|the)(?![a-z]))?\s*"
)
_BACK = re.compile(rf"\s*(?:其|它的|该指标的|its|their|the|{POINTED})?\s*")
_KINDS = (GROWTH, SHARE, PER)  # a quantity of the metric, never a second metric's level


def with_elided(text: str, scan: list[tuple[str, AliasMatch]]) -> list[tuple[str, AliasMatch]]:
    """The scan with the metric read again where a list item modifies it without naming it."""
    named = sorted((m for k, m in scan if k in ("metrics", "quantity")), key=lambda m: m.start)
    metrics = [m for k, m in scan if k == "metrics"]
    entities = [m for k, m in scan if k == "entities"]
    added: list[tuple[str, AliasMatch]] = []
    for i, m in enumerate(named):
        if not any(m is w for w in metrics):
            continue
        item = _ITEM.match(text, m.end)
        if item is None or item.end() == m.end:
            continue
        following = named[i + 1] if i + 1 < len(named) else None
        if following is not None and following.start < item.end() + 1:
            continue  # the item names a metric of its own: 收入和净利润增长率
        at = item.span("back") if item.group("back") else (item.end(), item.end())
        again = AliasMatch(m.code, *at)
        mod = modifier_at(text, again, metrics, entities, False, m.end)
        if mod is None or mod.kind not in _KINDS or mod.start < again.start:
            continue
        if following is not None and _of_another(text, mod, following):
            continue  # the growth rate of net profit: another metric's
        added.append(("metrics", again))
    return sorted([*scan, *added], key=lambda km: km[1].start)


_OF = re.compile(r"\s+(?:of|in|for)\s+(?:(?:the|its|their|[a-z]+['’]s)\s+)?")


def _of_another(text: str, mod: Modifier, following: AliasMatch) -> bool:
    """The modifier is another metric's: that metric's words inside it (a share's whole aside:
    its share of group revenue), or right after it (the growth rate of net profit)."""
    inside = following.start < mod.end
    if inside and mod.whole is not None and mod.whole[0] <= following.start < mod.whole[1]:
        return False
    return inside or _OF.fullmatch(text, mod.end, following.start) is not None


def elided_at(text: str, m: AliasMatch) -> bool:
    """A metric read again where a list item left its word out (its, 其, or no word at all) or a
    later clause points back to it (这个数字, that figure: ``anaphors``):
    a quantity of it the profile lacks is named from the metric's own names (门店数增长率)."""
    return _BACK.fullmatch(text, m.start, m.end) is not None
