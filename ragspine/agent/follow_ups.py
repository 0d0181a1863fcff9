"""A yes/no question followed by a how-many one about the same thing.

"金宇生物有没有通勤班车?有几条线路?" (is there a shuttle bus? how many routes?) asks first
whether a thing exists, then how many of its parts there are: the second sentence names no
quantity of its own (its count is of the thing the first asked of), so it is the documents'
account of that thing, never a metric to pick from a menu. The thing asked of is the yes/no
sentence's; where no passage holds it the answer is a not-found naming it (asked_objects.py).
Only where the yes/no sentence comes first and the how-many one follows; a how-many sentence
naming a held metric is that metric's (the router reads the metric before this rule).
"""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"[^??。!!]+[??。!!]*")
# a yes/no question: whether (有没有, 是否, 能否 …) or ending in 吗 / 么; English opens with an
# auxiliary (does ACME run …, is there …)
_YES_NO = re.compile(
    r"有没有|是否|能否|可否|能不能|有无|[吗么]\s*[??]?\s*$"
    r"|^\s*(?:do|does|did|is|are|was|were|has|have|can|could|will)\s",
)
# how many: 有几条, 多少条, how many
_HOW_MANY = re.compile(r"几|多少|how\s+many|how\s+much")


def yes_no_then_count(folded: str) -> str | None:
    """The yes/no sentence of a folded question made of one and a how-many sentence after it,
    or None."""
    sentences = [s.strip() for s in _SENTENCE.findall(folded) if s.strip()]
    if len(sentences) < 2:
        return None
    first, rest = sentences[0], sentences[1:]
    if _YES_NO.search(first) is None or _HOW_MANY.search(first) is not None:
        return None
    return first if all(_HOW_MANY.search(s) for s in rest) else None
