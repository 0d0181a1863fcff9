"""The text helpers of the intent parser: folding, the question's own words for a span, a name
without its periods and owners, entities written as a list, a growth's base period, codes the
glossary does not know."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch
from ragspine.profile.periods import Period, arabic_years, previous_period
from ragspine.profile.vocabulary import derived_shapes
from ragspine.text import fold, fold_with_index

# Spaces between two CJK characters are stray: 同店 销售 is 同店销售.
_CJK_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")

# Text that names a slot the glossary does not know: said so, never replaced by a default.
_CODE_TOKEN = re.compile(r"(?<![a-z0-9_])[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9](?![a-z0-9_])")

_LIST_WORDS = re.compile(
    r"\s*(?:的)?\s*(?:和|与|及|以及|、|,|,|&|对比|相比|比较|and|or|vs\.?|versus|compared\s+(?:with|to)|"
    r"with)\s*(?:the\s+)?"
)
_AGAINST = re.compile(
    r"相比|相较|比较|对比|较|(?<![a-z])(?:compared|versus|vs|over|from|against|than)(?![a-z])|比"
)


def listed(matches: list[AliasMatch], text: str) -> bool:
    """Two entities written as a list or a comparison (集团和香港, the group versus Taiwan)."""
    return any(_LIST_WORDS.fullmatch(text, a.end, b.start) for a, b in itertools.pairwise(matches))


def base_of_growth(
    periods: list[Period], metrics: list[str], text: str, prof: DomainProfile, moved: bool = False
) -> list[Period]:
    """2024年收入相比2023年的增长率: the year before is the growth's base, not a second growth.
    Where a change is asked (``moved``: 2021年增速比2020年放缓了多少个百分点) the other year is the
    other growth's: both growths and their difference, never one growth."""
    if len(periods) != 2 or not metrics or moved or not _AGAINST.search(text):
        return periods
    growths = {c for shape, c in derived_shapes(prof).items() if shape[0] == "growth"}
    first, second = periods
    later = second if previous_period(second) == first else first
    if previous_period(later) not in periods or not set(metrics) <= growths:
        return periods
    return [later]


_PERIOD_WORDS = re.compile(
    r"(?<![a-z0-9])(?:fy\s*)?(?:19|20)\d{2}(?:\s*年度?|\s*财年)?(?![0-9])|(?<![a-z])fy\d{2}(?![0-9])"
)


_OWNER_MARK = re.compile(r"(?:'s|’s)?\s*(?:的)?")


def without_periods(
    name: str,
    text: str,
    span: tuple[int, int],
    index: list[int],
    question: str,
    owners: list[tuple[int, int]] = [],  # noqa: B006 (read only)
) -> str:
    """share of FY2024 sales → share of sales, growth of Hong Kong's net margin → growth of net
    margin: a quantity is named without the period asked and without whose it is (an entity
    inside the span, with its 's or 的)."""
    start, end = span
    cuts = [m.span() for m in _PERIOD_WORDS.finditer(text, start, end)]
    for s, e in owners:
        if start <= s and e <= end and (start < s or e < end):
            mark = _OWNER_MARK.match(text, e)
            cuts.append((s, mark.end() if mark else e))
    cuts.sort()
    if not cuts:
        return name
    kept, at = [], start
    for s, e in cuts:
        kept.append((at, s))
        at = e
    kept.append((at, end))
    words = "".join(question[index[a] : index[b - 1] + 1] for a, b in kept if b > a)
    return re.sub(r"\s{2,}", " ", words).strip() or name


# Year on year written with a slash (y/y), as analysts do: the same as yoy.
_SLASHED_YOY = re.compile(r"(?<![a-z0-9/])y/y(?![a-z0-9/])")


def folded(text: str) -> tuple[str, list[int]]:
    """The folded text, stray spaces between CJK characters removed, y/y written yoy, years
    in Chinese numerals written in digits (二〇二四年: 2024年, one digit for each numeral), and
    where each of its characters was in ``text``."""
    folded, index = fold_with_index(text)
    folded = arabic_years(folded)
    folded = _SLASHED_YOY.sub("yoy", folded)  # y/y is yoy: three characters for three
    cuts = [m.span() for m in _CJK_SPACE.finditer(folded)]
    for start, end in reversed(cuts):
        folded = folded[:start] + folded[end:]
        index = index[:start] + index[end:]
    return folded, index


def original_words(question: str, index: list[int], span: tuple[int, int]) -> str:
    """The question's own words for a span of its folded text."""
    start, end = span
    if end <= start or end > len(index):
        return question
    return question[index[start] : index[end - 1] + 1].strip()


def unrecognized_codes(text: str, profile: DomainProfile) -> dict[str, str]:
    """An entity-shaped code or an impossible period the user wrote, kept verbatim."""
    found: dict[str, str] = {}
    for m in _CODE_TOKEN.finditer(text):
        known, prefixes = profile.memo("code_words", lambda: _code_words(profile))
        token = m.group()
        if token not in known and token.split("_")[0] in prefixes:
            found.setdefault("entity", token.upper())
    return found


def _code_words(profile: DomainProfile) -> tuple[frozenset[str], frozenset[str]]:
    """The profile's codes and its entity codes' prefixes (acme of acme_hk), lower case: the
    profile's alone, read once, and only for a question that writes a code-shaped token."""
    codes = (*profile.entity_codes, *profile.metric_codes, *profile.channel_codes)
    prefixes = (c.split("_")[0] for c in profile.entity_codes if "_" in c)
    return frozenset(c.lower() for c in codes), frozenset(p.lower() for p in prefixes)


def qualified(matches: list[AliasMatch], text: str, home: str) -> list[AliasMatch]:
    """'中国香港': a place written right before another names where it is, not a second entity;
    so does the home company before one of its parts ("ACME's Hong Kong", 集团的香港)."""
    return [
        m
        for i, m in enumerate(matches)
        if not (
            i + 1 < len(matches)
            and (
                m.end == matches[i + 1].start
                or (m.code == home and _OWNS.fullmatch(text, m.end, matches[i + 1].start))
            )
        )
    ]


_OWNS = re.compile(r"(?:'s|’s)?\s*(?:的)?\s*")


def codes(matches: Iterable[AliasMatch]) -> list[str]:
    return list(dict.fromkeys(m.code for m in matches))


def words_at(text: str, words: str) -> list[tuple[int, int]]:
    """Where ``words`` (as the question writes them) stand in the folded text."""
    flat = fold(words).strip()
    return [(m.start(), m.end()) for m in re.finditer(re.escape(flat), text)] if flat else []


def possessed(text: str, m: AliasMatch, home: str) -> bool:
    """The home company written with its possessive (Jinyu's): whose the quantity is, never the
    whole of a share (the company owns every figure of its fact table)."""
    around = text[m.end - 2 : m.end + 2]  # the alias read with its 's, or without it
    return m.code == home and re.search(r"['’]s(?![a-z])", around) is not None
