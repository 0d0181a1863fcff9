"""A sub-item of a line: a part the question names inside it (销售费用中的广告宣传费, advertising
expenses within selling expenses).

The line is the whole the part is taken from; the question asks the part. No fact holds a part
the profile does not name, so it is another quantity, declined by its whole phrase (the part
and the line it is of), never the line's level. Where the part is itself a metric of the profile
(营业收入中的主营业务收入 in a profile that holds it), the glossary reads it and
``modifiers.whole_before`` asks it, not the whole; where it is a part of the business the
profile holds (收入中线上的占比, 收入中香港的部分), it is an entity or a channel, no sub-item.

- Chinese: X + 中 / 当中 / 之中 / 里 / 里面 (的) + Y, Y a run of characters up to the question's
  frame (是多少, 为, 占, 的金额 …) that starts with no frame character (收入中有多少来自线上 asks
  no part by name) and holds no word the question read otherwise. 中位数, 中期, 中心 after a
  line are no sub-item.
- English: Y + within / included in / inside / as part of + X, or Y + in + X where Y ends in an
  amount noun (advertising expenses in selling expenses; never growth in revenue). "How much of
  X was Y" is left to the part's own reading: a decline would have no name of it apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.profile.glossary import AliasMatch

Span = tuple[int, int]

_AMONG_ZH = re.compile(r"\s*(?:的)?\s*(?:当中|之中|里面|中(?!位|期|心|国|旬)|里)\s*(?:的)?\s*")
_PART_ZH = re.compile(
    r"(?![的是为有了在和与及从向对把将给于按以到多少几占约共其各每哪])[\u4e00-\u9fff]{2,12}?"
    r"(?=\s*(?:的)?\s*(?:是|为|有|占|约|大约|共|总共|一共|合计|总计|金额|数额|规模|部分|分别|多少|几|"
    r"比重|比例|占比|[,,。??;;!！]|$))"
)
# A share of the part asked (销售额中会员占多少比例, 销售费用中的广告宣传费占比): the share's
# reading (``modifiers.whole_of_share``) names it whole.
_SHARE_AFTER = re.compile(r"\s*(?:的)?\s*(?:占|比重|比例|占比|百分比|份额)")
_FUNCTION_EN = frozenset(
    (  # noqa: SIM905
        "the a an its their our of in on for to by with from at as and or was were is are did "
        "do does what how much many which who whose"
    ).split()
)
_AMOUNT_EN = re.compile(
    r"(?:expenses?|expenditures?|costs?|fees?|charges?|spend(?:ing)?|outlays?|items?|"
    r"components?|elements?)$"
)
_BEFORE_EN = re.compile(
    r"(?<![a-z-])(?P<part>(?:[a-z][a-z&-]*\s+){0,3}?[a-z][a-z&-]*)\s+"
    r"(?P<rel>within|included\s+in|inside|as\s+(?:a\s+)?part\s+of|in)\s+"
    r"(?:the\s+|its\s+|their\s+)?$"
)


def sub_item_after(text: str, m: AliasMatch, taken: Sequence[Span]) -> Span | None:
    """X中的Y: the span from the line's start to the part's end, or None. ``taken``: the spans
    the question's other readings hold (entities, channels, metrics, periods)."""
    among = _AMONG_ZH.match(text, m.end)
    if among is None or among.end() == m.end or _inside(m.end, among.end(), taken):
        return None
    part = _PART_ZH.match(text, among.end())
    if part is None or _inside(*part.span(), taken) or _SHARE_AFTER.match(text, part.end()):
        return None
    return m.start, part.end()


def sub_item_before(
    text: str, m: AliasMatch, lead: int, taken: Sequence[Span], floor: int = 0
) -> Span | None:
    """Y within X (``lead``: where the line or its owner starts): the span from the part's start
    to the line's end, or None."""
    before = _BEFORE_EN.search(text, floor, lead)
    if before is not None:
        words = _content(before.group("part"))
        rel = before.group("rel")
        if words and (rel != "in" or _AMOUNT_EN.search(words[-1])):
            start = before.end("part") - len(" ".join(words))
            if not _inside(start, before.end("part"), taken):
                return start, m.end
    return None


def _content(phrase: str) -> list[str]:
    """The part's words: the last run of words that are no function words."""
    words = phrase.split()
    out: list[str] = []
    for w in reversed(words):
        if w in _FUNCTION_EN:
            break
        out.insert(0, w)
    return out


def _inside(start: int, end: int, taken: Sequence[Span]) -> bool:
    return any(s < end and start < e for s, e in taken)
