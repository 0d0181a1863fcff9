"""A part the question leaves out (not including online, 不含线上, 除香港以外, excluding Hong Kong):
its figure is never the answer, nor the total that holds it.

A channel or an entity written right after an exclusion cue (不含 不包括 除(了) 除去 扣除 剔除 排除
非; not including, excluding, except (for), other than, without, non-), or right before 除外 /
excluded, is excluded, and so is each one listed with it (除香港和台湾外). The profile's
non-default channels are read as the parts of its default channel (the total), and its entities
other than the home company as the parts of the company. So, of each kind:

- where the question names another part (除线上外,线下收入), that part is asked and the excluded
  one is dropped;
- else, where exactly one other part is left (not including online: offline), it is asked in
  the excluded one's place;
- else the rest is no part the fact table holds: the quantity is declined by name (不含香港的收入,
  revenue excluding Hong Kong).

A channel included (including online, 含线上在内) is not asked either: the total holds it, so the
default channel is. A rank over the parts (除香港外哪个地区收入最高) ranks the parts left.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ragspine.agent.quantity import Reading
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch

_CUE_BEFORE = re.compile(
    r"(?:不含|不包含|不包括|不计入?|除去|除了|除|扣除|剔除|排除|去掉|去除|非)\s*(?:了)?\s*$|"
    r"(?<![a-z])(?:not\s+(?:including|counting)|excluding|exclusive\s+of|except(?:\s+for)?|"
    r"other\s+than|without|but\s+not)\s+(?:the\s+)?$|(?<![a-z])non-?\s*$"
)
_CUE_AFTER = re.compile(r"\s*(?:除外|(?<![a-z])excluded(?![a-z]))")
_INCLUDED = re.compile(
    r"(?<![a-z])(?:including|inclusive\s+of)\s+(?:the\s+)?$|(?<!不)(?:含|包括|包含)\s*$"
)
_IN_IT = re.compile(r"\s*在内")
_LISTED = re.compile(r"\s*(?:和|与|及|、|,|,|(?<![a-z])(?:and|or)(?![a-z]))\s*(?:the\s+)?")


@dataclass
class Exclusion:
    """What the question leaves out: the words saying so (explained words, no name of a
    quantity), the parts dropped, and the name of a rest no part holds (zh, en), if any."""

    spans: list[tuple[int, int]] = field(default_factory=list)
    entities: set[str] = field(default_factory=set)
    declined: tuple[str, str] | None = None
    at: tuple[int, int] = (0, 0)  # where the first part left out is named


def without_excluded(
    text: str, scan: list[tuple[str, AliasMatch]], profile: DomainProfile, ranked: bool = False
) -> tuple[list[tuple[str, AliasMatch]], Exclusion]:
    """The glossary's reading with every excluded part dropped or replaced by the one part left
    (see the module), and what was excluded; ``ranked``: the question ranks the parts, so an
    entity excluded is only dropped from them."""
    out = Exclusion()
    kept = list(scan)
    for kind, default, parts in (
        ("channels", profile.default_channel, profile.channel_codes),
        ("entities", profile.home_entity_code, profile.entity_codes),
    ):
        matches = [m for k, m in kept if k == kind]
        left = _excluded(text, matches, out)
        if kind == "channels":
            for m in _included(text, matches, out):
                kept = [(k, w) for k, w in kept if w is not m]
        if not left:
            continue
        dropped = {m.code for m in left}
        kept = [(k, w) for k, w in kept if not (k == kind and w in left)]
        if kind == "entities":
            out.entities |= dropped
        named = [w for k, w in kept if k == kind and w.code not in (default, *dropped)]
        rest = [c for c in parts if c not in (default, *dropped)]
        if named or (ranked and kind == "entities"):
            continue  # 除线上外,线下收入: the part named is asked; 除香港外哪个地区: the rest
        if len(rest) == 1:  # not including online: the one other part
            kept.append((kind, AliasMatch(rest[0], left[0].start, left[0].end)))
            kept.sort(key=lambda km: km[1].start)
        elif out.declined is None:
            out.declined, out.at = _names(kind, left, profile), (left[0].start, left[0].end)
    return kept, out


def _excluded(text: str, matches: list[AliasMatch], out: Exclusion) -> list[AliasMatch]:
    """The matches an exclusion cue stands before (or 除外 after), with those listed with them."""
    left: list[AliasMatch] = []
    for m in matches:
        cue = _CUE_BEFORE.search(text, max(0, m.start - 20), m.start)
        after = _CUE_AFTER.match(text, m.end)
        listed = bool(left) and _LISTED.fullmatch(text, left[-1].end, m.start) is not None
        if cue or after or listed:
            left.append(m)
            out.spans += [s for s in (cue and cue.span(), after and after.span()) if s]
    return left


def _included(text: str, matches: list[AliasMatch], out: Exclusion) -> list[AliasMatch]:
    """Channels written as included in the figure (including online, 含线上在内): not asked."""
    found = []
    for m in matches:
        cue = _INCLUDED.search(text, max(0, m.start - 20), m.start)
        in_it = _IN_IT.match(text, m.end)
        english = cue is not None and cue.group().strip()[:1].isascii()
        if cue and (english or in_it):
            found.append(m)
            out.spans += [cue.span()] + ([in_it.span()] if in_it else [])
    return found


def _names(kind: str, left: list[AliasMatch], profile: DomainProfile) -> tuple[str, str]:
    """不含香港 / excluding Hong Kong: the parts left out, by the profile's names."""
    zh, en = [], []
    for m in left:
        if kind == "entities":
            spec = next(e for e in profile.entities if e.code == m.code)
            zh.append(spec.display_name)
            en.append(spec.name_en or spec.display_name)
        else:
            aliases = next((c.aliases for c in profile.channels if c.code == m.code), [m.code])
            zh.append(next((a for a in aliases if not a.isascii()), m.code))
            en.append(next((a for a in aliases if a.isascii()), m.code))
    return "不含" + "、".join(zh), "excluding " + " and ".join(en)


def decline_excluded(reading: Reading, excluded: Exclusion, profile: DomainProfile) -> None:
    """A quantity asked of a rest no part holds (收入, 不含香港): declined by its name, its
    metric not asked (the total holds the part left out)."""
    if excluded.declined is None or not reading.metrics or reading.declined is not None:
        return
    spec = profile.any_metric(reading.metrics[0])
    zh = getattr(spec, "display_name", reading.metrics[0])
    en = getattr(spec, "name_en", None) or zh
    reading.declined = excluded.at
    reading.declined_name = (f"{excluded.declined[0]}的{zh}", f"{en} {excluded.declined[1]}")
    reading.metrics, reading.spans = [], []
