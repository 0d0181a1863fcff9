"""A ratio of two quantities asked in words, read after the first one's metric word: X与Y的比值,
ratio of X to Y, X除以Y, X divided by Y (X / Y); X是Y的几倍, how many times Y was X (a multiple:
X / Y); and a share written after its part — 占比, 占Y的比重, X as a percentage of Y — or asked
of it postposed: X是Y的百分之几 / 几成 (X吃掉了Y的百分之几: a verb of using Y up), X was what
percentage (share, proportion) of Y, X relative to Y (X / Y, whose whole is Y with what owns
it); and asked with its percentage word
first: how much percent is X in Y, what percent(age) is X of Y (``asked_share``: X / Y).

``quantity.py`` maps each to the profile's derived metric of that formula shape, or declines it.
"""

from __future__ import annotations

import re

from ragspine.agent.modifier_base import GROWTH_VERB, RATIO, SHARE, Modifier
from ragspine.profile.glossary import AliasMatch

_GAP = r"\s*(?:的)?\s*"
_SHARE_AFTER = re.compile(
    _GAP + r"(?:占比|比重|份额|占有率|渗透率|贡献占比|贡献率)|"
    r"\s*(?:的)?\s*(?:合计|总计|总额|之和)?\s*占\s*(?P<whole>[^,,。??;;]{0,16}?)\s*(?:的)?\s*"
    r"(?:比重|比例|百分比|份额|占比|比率|几成|几分之几|百分之\s*(?:几|多少)|多少|%)|"
    # postposed: X是Y的百分之几 / 几成, X was what percentage of Y, X relative to Y; a verb of
    # using up (X吃掉了Y的百分之几, 花掉, 用掉, 耗掉: how much of Y X takes) says X / Y as well
    r"\s*(?:是|为|相当于|等于|约为|约是|约等于|(?:吃|花|用|耗|吞|占)(?:掉|去)|消耗|侵蚀)\s*(?:了)?\s*(?P<whole_is>[^,,。??;;]{0,16}?)\s*"
    r"(?:的)?\s*(?:百分之\s*(?:几|多少)|几成|多少成|几分之几|多少\s*%)|"
    r"\s+(?:was|were|is|are)\s+(?:about\s+|roughly\s+|approximately\s+)?(?:what|which)\s+"
    r"(?:percentage|percent|share|proportion|fraction|portion|part)\s+of\s+"
    r"(?P<whole_was>(?:[a-z'’&-]+\s*){1,4})|"
    r"\s+relative\s+to\s+(?P<whole_rel>(?:[a-z'’&-]+\s*){1,4})|"
    r"(?:'s)?\s+(?:share|mix|penetration)(?![a-z])(?:\s+of\s+(?P<whole_en>(?:[a-z'&-]+\s+){0,3}?"
    r"(?:revenue|sales|total|group)))?|"
    r"\s+as\s+a\s+(?:percentage|share|proportion|%)\s+of\s+(?P<whole_as>(?:[a-z'&-]+\s*){1,4})|"
    # the whole fronted: of (the regions') combined revenue (in 2024), what percentage did X
    # account for: the metric is the whole, the part named after
    r"(?:\s+(?:in|for)\s+(?:fy)?\d{2,4})?\s*,\s*(?:what|which|how\s+(?:big|large)\s+a)\s+"
    r"(?:percentage|percent|share|proportion|fraction|portion|part|slice)\s+(?:of\s+it\s+)?"
    r"(?:did|does|do|was|is)\b(?P<part_for>[^?;]*?)\baccount(?:s|ed)?\s+for(?![a-z])"
)
# A ratio of two metrics: 研发经费与营业收入的比值, ratio of R&D expenses to revenue; 除以 and
# divided by say the division themselves (净利润除以收入), the other joins need a ratio word.
_RATIO_JOIN = re.compile(
    r"\s*(?:与|和|跟|同|对|(?P<divided>除以))\s*|"
    r"[\s-]+(?:to|over|(?P<divided_en>divided\s+by))[\s-]+(?:the\s+|its\s+|their\s+)?"
)
_RATIO_END = re.compile(r"\s*(?:的)?\s*(?:比值|之比|比率|的比|比例)|[\s-]+ratio(?![a-z])")
_RATIO_BEFORE = re.compile(r"(?<![a-z])ratio\s+(?:of|between)\s+(?:the\s+)?$")
_WHOLES = ("whole", "whole_en", "whole_as", "whole_is", "whole_was", "whole_rel")
_POSTPOSED = ("whole_is", "whole_was", "whole_rel")  # the whole after the part and a verb


def _share_after(s: re.Match[str], metrics: list[AliasMatch]) -> Modifier | None:
    """A share written after its part (占比, 占Y的比重, as a percentage of Y) or asked of it
    postposed (X是Y的百分之几, X was what percentage of Y, X relative to Y: X / Y). An English
    whole ends with its metric (of its revenue in 2024: its revenue); relative to asks a ratio
    only of a metric (relative to 2023 is no share); a verb of change where the whole would be
    (收入是同比增长了百分之几) asks a change, not a share."""
    name = next((n for n in _WHOLES if s.group(n)), None)
    whole, end = (s.span(name) if name else None), s.end()
    if name in _POSTPOSED and GROWTH_VERB.search(s.string, *s.span(name)):
        return None
    if whole is not None and name in ("whole_as", "whole_was", "whole_rel"):
        at = next((w for w in metrics if whole[0] <= w.start < whole[1]), None)
        if at is None and name == "whole_rel":
            return None
        whole, end = ((whole[0], at.end), at.end) if at else (whole, end)
    part = s.span("part_for") if s.group("part_for") else None  # … did Southeast Asia account for
    return Modifier(SHARE, s.start(), end, whole=whole, postposed=name in _POSTPOSED, part=part)


# What percent is X of Y, how much percent is X in Y: the percentage word asked first, then the
# part after a copula, then its whole after of / in / relative to.
_ASKED_FIRST = re.compile(
    r"(?<![a-z])(?:what|how\s+(?:much|many)|which)\s+(?:percent(?:age)?|%|share|proportion|"
    r"fraction|portion)\s+(?:is|are|was|were)\s+(?:[a-z0-9'’&.-]+\s+){0,5}?$"
)
_ASKED_WHOLE = re.compile(
    r"(?:'s|’s)?\s+(?:of|in|within|among|relative\s+to|out\s+of)\s+"
    r"(?P<whole>(?:[a-z0-9'’&-]+\s*){1,4})"
)


def asked_share(text: str, m: AliasMatch, metrics: list[AliasMatch]) -> Modifier | None:
    """A ratio asked with its percentage word first (how much percent is X in Y, what percent
    is X of Y): X / Y, postposed as X was what percentage of Y is. X's words (its owner, a
    year) stand between the copula and the metric word, no other metric among them; the whole
    must end with a metric word: what percent is X in 2024 names no whole and is no ratio. The
    modifier spans the metric word to the whole: X's owner before it stays X's."""
    first = _ASKED_FIRST.search(text, 0, m.start)
    if first is not None and any(first.start() <= w.start < m.start for w in metrics):
        return None
    after = _ASKED_WHOLE.match(text, m.end) if first else None
    if first is None or after is None:
        return None
    at = next((w for w in metrics if after.start("whole") <= w.start < after.end("whole")), None)
    if at is None:
        return None
    whole = (after.start("whole"), at.end)
    return Modifier(SHARE, m.end, at.end, whole=whole, postposed=True)


# X as a multiple of Y: 流动资产是流动负债的几倍, 相当于…的多少倍; X was how many times Y; how many
# times Y was X (the whole first). Each is the ratio X / Y.
_MULTIPLE_JOIN = re.compile(
    r"\s*(?:是|为|相当于|等于|约为|达到|达)\s*(?:了)?\s*|"
    r"\s+(?:was|were|is|are)\s+(?:how\s+many\s+times|what\s+multiple\s+of)\s+(?:the\s+|its\s+)?|"
    r"\s+as\s+a\s+multiple\s+of\s+(?:the\s+|its\s+)?"
)
_MULTIPLE_END = re.compile(r"\s*(?:的)?\s*(?:多少|几)\s*倍")
_TIMES_BEFORE = re.compile(r"(?<![a-z])how\s+many\s+times\s+(?:the\s+|its\s+|their\s+)?$")
_TIMES_VERB = re.compile(r"\s+(?:was|were|is|are)\s+(?:[a-z'’&.-]+\s+){0,3}?")


def _multiple(text: str, m: AliasMatch, metrics: list[AliasMatch]) -> Modifier | None:
    """A ratio asked as a multiple (X是Y的几倍, how many times Y was X): X / Y."""
    before = _TIMES_BEFORE.search(text, 0, m.start)
    if before is not None:
        after = [
            w for w in metrics if w.start > m.end and _TIMES_VERB.fullmatch(text, m.end, w.start)
        ]
        if after:
            return Modifier(
                RATIO, before.start(), after[0].end, bare=True, other=after[0], inverted=True
            )
    join = _MULTIPLE_JOIN.match(text, m.end)
    other = next((w for w in metrics if join and w.start == join.end()), None)
    if join is None or other is None:
        return None
    end = _MULTIPLE_END.match(text, other.end)
    if end is None and not join.group().strip().isascii():
        return None  # 收入是净利润的…: a multiple only where 几倍 / 多少倍 says so
    return Modifier(RATIO, m.start, end.end() if end else other.end, bare=True, other=other)


def ratio_after(text: str, m: AliasMatch, metrics: list[AliasMatch]) -> Modifier | None:
    """研发经费与营业收入的比值, R&D expenses to revenue ratio, ratio of X to Y, X除以Y, X divided
    by Y, X是Y的几倍."""
    multiple = _multiple(text, m, metrics)
    if multiple is not None:
        return multiple
    join = _RATIO_JOIN.match(text, m.end)
    if join is None:
        return None
    other = next((w for w in metrics if w.start == join.end()), None)
    if other is None:
        return None
    end = _RATIO_END.match(text, other.end)
    before = _RATIO_BEFORE.search(text, 0, m.start)
    divided = join.group("divided") or join.group("divided_en")
    if end is None and before is None and not divided:
        return None
    start = before.start() if before else m.start
    return Modifier(RATIO, start, end.end() if end else other.end, other=other)


def share_after(text: str, m: AliasMatch, metrics: list[AliasMatch]) -> Modifier | None:
    """The share written right after the metric word ``m`` (``_share_after``), or None."""
    s = _SHARE_AFTER.match(text, m.end)
    return _share_after(s, metrics) if s else None


# 净利润是多少,是收入的百分之几: a clause whose subject is elided asks a share of the metric the
# clause before asked, its whole the metric after 是 / 占 (with what owns it).
_ELIDED = re.compile(
    r"[,,;;]\s*(?:它|其|这|该数|这个数字?)?\s*(?:又|则)?\s*(?:是|为|占|相当于|约为|约是|约占)"
    r"\s*(?:了)?\s*$"
)
_ELIDED_END = re.compile(
    r"\s*(?:的)?\s*(?:百分之\s*(?:几|多少)|几成|多少成|几分之几|多少\s*%|比重|比例|百分比|占比)"
)
_OWNER = re.compile(r"\s*(?:的)?\s*")


def elided_share(
    text: str, m: AliasMatch, metrics: list[AliasMatch], entities: list[AliasMatch]
) -> Modifier | None:
    """The share a clause with no subject asks (…净利润是多少,是收入的百分之几): of the last metric
    before the clause (``other``, the part), whose whole is ``m`` with its owner; else None."""
    end = _ELIDED_END.match(text, m.end)
    owners = [e for e in entities if e.end <= m.start and _OWNER.fullmatch(text, e.end, m.start)]
    owner = owners[-1] if owners else None
    join = _ELIDED.search(text, 0, owner.start if owner else m.start)
    if end is None or join is None:
        return None
    part = max((w for w in metrics if w.end <= join.start()), key=lambda w: w.end, default=None)
    if part is None:
        return None
    whole = (owner.start if owner else m.start, m.end)
    return Modifier(SHARE, join.start() + 1, end.end(), whole=whole, other=part, postposed=True)
