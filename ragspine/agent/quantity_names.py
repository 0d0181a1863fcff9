"""Names for a quantity declined where the question's words do not name it whole (收入复合增长率,
门店数增长率, 线下收入占比, share of employees in production, 净利润中用于分红的比例), and the
share of the group asked of no part of it: a decline says which quantity it will not give, in
the question's language."""

from __future__ import annotations

import re

from ragspine.agent.modifier_base import GROWTH, Modifier
from ragspine.agent.modifiers import (
    CAGR,
    CONTRIBUTION,
    GEOMETRIC,
    LOG,
    share_word_after,
    whole_before,
)
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch
from ragspine.profile.vocabulary import derived_shapes


def unheld_name(kind: str, spec: object, code: str) -> tuple[str, str]:
    """收入复合增长率 / revenue CAGR: the quantity named from its metric's names."""
    zh = getattr(spec, "display_name", code)
    en = getattr(spec, "name_en", None) or zh
    if kind == CAGR:
        return f"{zh}复合增长率", f"{en} CAGR"
    if kind == LOG:
        return f"{zh}对数增长率", f"{en} log growth (continuously compounded)"
    if kind == GEOMETRIC:
        return f"{zh}几何平均增长率", f"{en} geometric mean growth"
    if kind == CONTRIBUTION:
        return f"{zh}增长贡献率", f"contribution to {en} growth"
    return f"{zh}环比增长率", f"{en} quarter-on-quarter growth"


def built_name(mod: Modifier, spec: object, words: str) -> tuple[str, str]:
    """门店数增长率 / store count growth rate: a quantity named from its metric's names (in
    English, the question's own words for it where the profile has no English name)."""
    zh = getattr(spec, "display_name", "")
    en = getattr(spec, "name_en", None) or (words if words.isascii() else zh)
    if mod.kind == GROWTH:
        return f"{zh}增长率", f"{en} growth rate"
    unit = {"store": ("单店", "per store"), "employee": ("人均", "per employee")}
    before, after = unit.get(mod.unit, ("每单位", "per unit"))
    return f"{before}{zh}", f"{en} {after}"


# The part of a share written after its whole: where its members are (who worked in production,
# are in R&D), what they hold (held a master's degree) or what they are (are women).
_PART_AFTER = re.compile(
    r"\s+(?:who\s+|that\s+)?(?:(?P<have>held|hold|holds|had|have|has)|(?P<verb>[a-z]+ed|works?)|"
    r"are|were|is|was)\s+(?:(?P<prep>in|at|on|within)\s+)?(?:the\s+|an?\s+)?"
    r"(?P<part>[a-z&'’-]+(?:\s+(?!(?:in|at|on|for|during|of)(?![a-z]))[a-z&'’-]+)?)"
)


def part_share_name(text: str, mod: Modifier, m: AliasMatch) -> tuple[str, str] | None:
    """What share of employees worked in production / held a master's degree / were women: a
    share of the whole's members named by the share word, the whole and the part (share of
    employees in production, with a master's degree, share of women among employees), without
    the verb and without whose employees they are."""
    p = _PART_AFTER.match(text, m.end)
    if p is None or re.search(r"\d", p["part"]) or (p["verb"] and not p["prep"]):
        return None
    share, whole, part = text[mod.start : mod.end].split()[0], text[m.start : m.end], p["part"]
    if p["have"]:
        name = f"{share} of {whole} with {part}"
    elif p["prep"]:
        name = f"{share} of {whole} {p['prep']} {part}"
    else:
        name = f"{share} of {part} among {whole}"
    return name, name


def unheld_share(text: str, m: AliasMatch, metrics: list[AliasMatch]) -> tuple[int, int]:
    """A quantity the profile lacks, asked as a share (分红的比例): the span naming it with the
    share and the share's whole (净利润中用于分红的比例), the quantity asked, never its part
    alone."""
    share = share_word_after(text, m.end)
    if share is None:
        return m.start, m.end
    whole = whole_before(text, m, metrics)
    return (whole.start if whole else m.start), share.end()


def ratio_name(
    text: str, m: AliasMatch, whole: AliasMatch | tuple[int, int], profile: DomainProfile
) -> tuple[str, str]:
    """财务费用占管理费用的比例 / finance expenses as a percentage of administrative expenses: a
    ratio asked postposed (X是Y的百分之几, X was what percentage of Y), named as a share of Y (a
    metric by its names, another part or period by the question's words for it)."""
    zh_x, en_x = _names(text, m, profile)
    if isinstance(whole, AliasMatch):
        zh_y, en_y = _names(text, whole, profile)
    else:
        zh_y = en_y = text[whole[0] : whole[1]].strip()
    return f"{zh_x}占{zh_y}的比例", f"{en_x} as a percentage of {en_y}"


def _names(text: str, m: AliasMatch, profile: DomainProfile) -> tuple[str, str]:
    """A metric's Chinese and English names (the question's words where it has no English)."""
    spec = profile.any_metric(m.code)
    zh = getattr(spec, "display_name", m.code)
    words = text[m.start : m.end]
    return zh, getattr(spec, "name_en", None) or (words if words.isascii() else zh)


def channel_share_name(channel: str, code: str, profile: DomainProfile) -> tuple[str, str]:
    """线下收入占比 / offline share of revenue: a channel's share named by the channel and the
    metric, so a decline says which share it will not give."""
    spec = profile.any_metric(code)
    aliases = next((c.aliases for c in profile.channels if c.code == channel), [channel])
    zh = next((a for a in aliases if not a.isascii()), channel)
    en = next((a for a in aliases if a.isascii()), channel)
    name_zh = getattr(spec, "display_name", code)
    return f"{zh}{name_zh}占比", f"{en} share of {getattr(spec, 'name_en', None) or name_zh}"


def share_of_nothing(
    metrics: list[str], entities: list[str], scan: list[tuple[str, AliasMatch]], prof: DomainProfile
) -> tuple[str, tuple[int, int]] | None:
    """A share of the group asked of no part of it (the group's own, or members'): the metric
    and the span naming it, to decline it."""
    home = prof.home_entity_code
    if any(e != home for e in entities):
        return None
    shares = {c for shape, c in derived_shapes(prof).items() if shape[0] == "entity_share"}
    code = next((c for c in metrics if c in shares), None)
    if code is None:
        return None
    match = next((m for k, m in scan if k == "metrics" and m.code == code), None)
    return code, (match.start, match.end) if match else (0, 0)
