"""The glossary: free text to controlled codes, or None. It never guesses.

``find_*`` scan a question for every alias it names (longest alias first, Latin aliases only
on word boundaries so 'SEA' is not found in 'research'); ``normalize_*`` accept a value only
when the whole of it is one alias or code, which is what a tool argument must be.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from ragspine.profile.compass import abbreviated
from ragspine.profile.model import DomainProfile, compact
from ragspine.profile.periods import Period, find_periods, parse_period
from ragspine.profile.vocabulary import anchored_terms
from ragspine.text import fold


@dataclass(frozen=True)
class AliasMatch:
    code: str
    start: int
    end: int


def _alias_pattern(alias: str, *, inflect: bool = False) -> str:
    tokens = [t for t in re.split(r"[\W_]+", fold(alias)) if t]
    body = r"[\W_]*".join(re.escape(t) for t in tokens)
    head = r"(?<![a-z0-9_])" if tokens[0][0].isascii() else ""
    ending = r"(?:'?s|es|ed|d|ing)?" if inflect else r"(?:'?s)?"
    tail = ending + r"(?![a-z0-9_])" if tokens[-1][-1].isascii() else ""
    if tokens[-1].endswith("比") and len(tokens[-1]) >= 3:
        tail = _NOT_A_COMPARISON  # 流动比 is 流动比率; 流动负债比上年 compares
    return head + body + tail


# After a ratio's name written without 率 (流动比): not what a comparison puts after 比, a period
# (上年, 同期, 年初, 期初, 2020年) or a direction (比…增加, 高, 低).
_NOT_A_COMPARISON = r"(?![上去前同本较往历年期季月初末增减高低升降\d一二两三四五六七八九十])"


class AliasMatcher:
    """Every alias of one kind (metrics, entities, channels, synonyms), matched leftmost-longest.

    One pattern per alias, tried only when the alias's longest word occurs in the text: a
    single alternation over hundreds of aliases costs milliseconds a query, this microseconds.
    """

    def __init__(
        self, items: dict[str, list[str]], *, include_codes: bool = True, inflect: bool = False
    ) -> None:
        """``inflect`` also accepts English endings (returned, closing): for search words only,
        since for slots 'grouped' must not read as the entity 'group'."""
        pairs = [
            (code, alias)
            for code, aliases in items.items()
            for alias in dict.fromkeys([code, *aliases] if include_codes else aliases)
        ]
        pairs.sort(key=lambda p: len(compact(p[1])), reverse=True)
        self._codes = [code for code, _ in pairs]
        self._patterns = [re.compile(_alias_pattern(alias, inflect=inflect)) for _, alias in pairs]
        # Any match contains each of the alias's words verbatim; the longest is the best probe.
        probes = [
            max((t for t in re.split(r"[\W_]+", fold(alias)) if t), key=len) for _, alias in pairs
        ]
        # A probe can only be in a text that holds its first two characters (its one, for a
        # probe of one): a sentence has a few dozen distinct pairs, a profile hundreds of
        # aliases. Aliases sharing a probe (revenue: online revenue, revenue growth, ...) are
        # looked for once, as one probe.
        by_probe: dict[str, list[int]] = {}
        for i, probe in enumerate(probes):
            by_probe.setdefault(probe, []).append(i)
        self._by_head: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
        for probe, indexes in by_probe.items():
            self._by_head.setdefault(probe[:2], []).append((probe, tuple(indexes)))
        self._exact = {compact(alias): code for code, alias in pairs}

    def find_all(
        self, folded: str, keep: Callable[[str, list[AliasMatch]], set[int]] | None = None
    ) -> list[AliasMatch]:
        """Every alias occurrence in folded text, leftmost-longest, without overlaps. ``keep``
        names (by index) the candidates that may be read, before overlaps are settled, so that a
        shorter alias can take the place of one it drops (收入 in 主营收入 when 营收 is dropped)."""
        by_head = self._by_head
        patterns = self._patterns
        heads = {*folded, *(folded[i : i + 2] for i in range(len(folded) - 1))}
        found = [
            (m.start(), m.start() - m.end(), i, m.end())
            for head in heads
            if head in by_head
            for probe, indexes in by_head[head]
            if probe in folded
            for i in indexes
            for m in patterns[i].finditer(folded)
        ]
        found.sort()
        if keep is not None and found:
            kept = keep(folded, [AliasMatch(self._codes[i], s, e) for s, _, i, e in found])
            found = [f for n, f in enumerate(found) if n in kept]
        out: list[AliasMatch] = []
        taken_until = 0
        for start, _, i, end in found:
            if start >= taken_until:
                out.append(AliasMatch(self._codes[i], start, end))
                taken_until = end
        return out

    def exact(self, raw: str) -> str | None:
        """The code whose alias (or code) is the whole of ``raw``, ignoring case and separators."""
        return self._exact.get(compact(raw))


_SEP = "\x1f"  # between a term's kind and its code in the one matcher's keys


class KindView:
    """The matches of one kind (metrics, entities or channels) in the profile's one scan."""

    def __init__(self, glossary: Glossary, kind: str, exact: dict[str, str]) -> None:
        self._glossary, self._kind, self._exact = glossary, kind, exact

    def find_all(self, folded: str) -> list[AliasMatch]:
        return [m for kind, m in self._glossary.scan(folded) if kind == self._kind]

    def exact(self, raw: str) -> str | None:
        return self._exact.get(compact(raw))


class Glossary:
    """The profile's vocabulary, compiled once per profile.

    Every word the profile knows (metric, entity and channel aliases, partners' and competitors'
    names, terms declared unsupported) is matched in one leftmost-longest scan, so an alias never
    matches inside a longer known word: 所得税 is not found in 递延所得税资产.
    """

    def __init__(self, profile: DomainProfile) -> None:
        self.profile = profile
        terms: dict[str, list[str]] = {}
        for key, alias, _ in profile._vocabulary():
            kind, code = key.split(":", 1)
            terms.setdefault(f"{kind}{_SEP}{code}", []).append(alias)
            ending = next((e for e in _RATIO_ENDINGS if alias.endswith(e)), None)
            stem = alias[: -len(ending)] if ending else ""
            if kind == "metrics" and len(stem) > 1 and not stem.endswith("的"):
                # 销售费用的增长率 is 销售费用增长率, 流动负债的比率 流动负债比率
                terms[f"{kind}{_SEP}{code}"].append(f"{stem}的{ending}")
        # The shipped phrases, places and the profile's own ratios written without 率.
        for key, words in [*anchored_terms(profile).items(), *_without_ratio(profile).items()]:
            kind, code = key.split(":", 1)
            terms.setdefault(f"{kind}{_SEP}{code}", []).extend(words)
        for key, words in terms.items():  # SE Asia: Southeast Asia with its compass initials
            if key.split(_SEP, 1)[0] in ("entities", "place"):
                words.extend(w for a in list(words) for w in abbreviated(a) if w not in words)
        # Every word that names something of the profile's (places are the shipped list's).
        self.words = frozenset(
            compact(w) for key, words in terms.items() if not key.startswith("place") for w in words
        )
        self.kinds = tuple(  # (kind, word) for every word matched, places included
            (key.split(_SEP, 1)[0], w) for key, words in terms.items() for w in words
        )
        self._all = AliasMatcher(terms, include_codes=False)
        self._last: tuple[str, list[tuple[str, AliasMatch]]] = ("\x00", [])

        def exact(items: list[tuple[str, list[str]]]) -> dict[str, str]:
            table = {compact(code): code for code, _ in items}
            table.update({compact(a): code for code, aliases in items for a in aliases})
            return table

        metrics = [*profile.metrics, *profile.derived_metrics]
        self.metrics = KindView(self, "metrics", exact([(m.code, m.aliases) for m in metrics]))
        self.entities = KindView(
            self, "entities", exact([(e.code, e.aliases) for e in profile.entities])
        )
        self.channels = KindView(
            self, "channels", exact([(c.code, c.aliases) for c in profile.channels])
        )
        self.quantities = KindView(self, "quantity", {})
        self.places = KindView(self, "place", {})

    def scan(self, folded: str) -> list[tuple[str, AliasMatch]]:
        """(kind, match) for every known word in folded text; the last text's scan is kept, since
        a question is scanned for each kind in turn."""
        last = self._last  # one read: another thread may replace it meanwhile
        if last[0] == folded:
            return last[1]
        out = []
        for m in self._all.find_all(folded, keep=_not_glued):
            kind, code = m.code.split(_SEP, 1)
            if kind == "company":  # the home company's name names its home entity
                kind, code = "entities", self.profile.home_entity_code
            out.append((kind, AliasMatch(code, m.start, m.end)))
        self._last = (folded, out)
        return out

    def normalize_metric(self, raw: str | None) -> str | None:
        return self.metrics.exact(raw) if isinstance(raw, str) else None

    def normalize_entity(self, raw: str | None) -> str | None:
        return self.entities.exact(raw) if isinstance(raw, str) else None

    def normalize_channel(self, raw: str | None) -> str | None:
        return self.channels.exact(raw) if isinstance(raw, str) else None

    def normalize_period(
        self, raw: str | None, reference_date: date | None = None
    ) -> Period | None:
        if not isinstance(raw, str):
            return None
        return parse_period(fold(raw), reference_date or date.today())

    def find_periods(self, folded: str, reference_date: date) -> list[Period]:
        matches = find_periods(folded, reference_date)
        return list(dict.fromkeys(pm.period for pm in matches if pm.period is not None))


def _not_glued(folded: str, found: list[AliasMatch]) -> set[int]:
    """The indexes of the candidates that may be read: not a metric whose Chinese alias ends
    inside a dictionary word that begins within the alias and runs past it (净利 in 净利息支出,
    segmented 净 / 利息支出; 门店数 in 门店数字化): that alias is part of another word, not the
    metric. Nor is an alias inside a dictionary word that runs past it and ends in a people noun
    (人 族 民 者: 毛利人 the Māori, 高收入者 an earner): that word names people, not a figure.
    A longer alias is matched first (净利率, 毛利率), and any other word that begins at the
    alias's own start (毛利润) or after its end (净利同比, 人均) leaves it whole."""
    cut = [
        n
        for n, m in enumerate(found)
        if m.code.startswith(f"metrics{_SEP}")
        and m.end < len(folded)
        and _han(folded[m.end - 1])
        and _han(folded[m.end])
    ]
    if not cut:
        return set(range(len(found)))
    import rjieba

    # Dictionary words only (no HMM): a guessed word would glue 门店数 to 占 in 门店数占.
    words = [(s, e) for _, s, e in rjieba.tokenize(folded, "default", False)]
    glued = {
        n
        for n in cut
        for s, e in words
        if found[n].start < s < found[n].end < e
        or (s <= found[n].start and found[n].end < e and folded[e - 1] in _PEOPLE)
    }
    return set(range(len(found))) - glued


# The last character of a word that names people (毛利人, 毛利族, 高收入者).
_PEOPLE = frozenset("人族民者")


def _han(c: str) -> bool:
    return "\u4e00" <= c <= "\u9fff"


_RATIO_ENDINGS = ("增长率", "比率", "比值", "比例", "比重")


def _without_ratio(profile: DomainProfile) -> dict[str, list[str]]:
    """资产负债 for 资产负债率, 流动比 for 流动比率: a ratio the profile names with 率, written
    without it, where the rest names nothing else (毛利 is a metric of its own; 收入增长 is a
    growth, read apart). A stem ending in 比 is matched only where no comparison follows it."""
    known = {compact(a) for _, a, _ in profile._vocabulary()}
    out: dict[str, list[str]] = {}
    for spec in [*profile.metrics, *profile.derived_metrics]:
        unit = profile.unit(getattr(spec, "unit", ""))
        percent = getattr(spec, "percent", False) or unit.kind == "percent"
        for alias in [fold(a) for a in spec.aliases]:
            stem = alias[:-1]
            usable = percent or alias.endswith("比率")  # 流动比率 is a multiple, not a percent
            if (
                usable
                and alias.endswith("率")
                and len(stem) >= 3
                and not stem.endswith(("增长", "的"))
                and (not stem.endswith("比") or alias.endswith("比率"))
                and compact(stem) not in known
            ):
                out.setdefault(f"metrics:{spec.code}", []).append(stem)
    return out


def closest_metrics(question: str, prof: DomainProfile, n: int = 6) -> list[str]:
    """The metrics whose names share the longest run of characters with the question (利润 →
    净利润, 营业利润, 利润总额); the first declared when nothing is shared."""
    text = compact(question)
    latin = set(re.findall(r"[a-z]{3,}", fold(question)))

    def overlap(words: list[_Name]) -> int:
        best = 0
        for word, english in words:
            if english is not None:  # English: whole words in common, never shared letters
                best = max(best, sum(len(w) for w in english if w in latin))
                continue
            for size in range(min(len(word), len(text)), best, -1):
                if any(word[i : i + size] in text for i in range(len(word) - size + 1)):
                    best = size
                    break
        return best

    named = prof.memo("closest_metric_names", lambda: _metric_names(prof))
    scored = [(overlap(words), i, code) for i, (code, words) in enumerate(named)]
    hits = sorted((s for s in scored if s[0] >= 2), key=lambda s: (-s[0], s[1]))
    return [code for *_, code in (hits or scored)[:n]]


# A metric's name as closest_metrics compares it: compacted, and its English words (None for a
# name not in English).
_Name = tuple[str, tuple[str, ...] | None]


def _metric_names(prof: DomainProfile) -> list[tuple[str, list[_Name]]]:
    """Each metric's code and names (display name first, then aliases), in declaration order,
    read once per profile: the names are the profile's, only the question changes."""

    def name(raw: str) -> _Name:
        word = compact(raw)
        return word, tuple(re.findall(r"[a-z]{3,}", fold(raw))) if word.isascii() else None

    specs = [*prof.metrics, *prof.derived_metrics]
    return [(s.code, [name(raw) for raw in [s.display_name, *s.aliases]]) for s in specs]


def glossary_for(profile: DomainProfile | None = None) -> Glossary:
    """The compiled glossary of ``profile`` (the demo profile when None), built once."""
    from ragspine.profile import default_profile

    prof = profile or default_profile()
    return prof.memo("glossary", lambda: Glossary(prof))


def normalize_metric(raw: str | None, profile: DomainProfile | None = None) -> str | None:
    """A metric code for a whole alias or code, else None."""
    return glossary_for(profile).normalize_metric(raw)


def normalize_entity(raw: str | None, profile: DomainProfile | None = None) -> str | None:
    """An entity code for a whole alias or code, else None."""
    return glossary_for(profile).normalize_entity(raw)


def normalize_channel(raw: str | None, profile: DomainProfile | None = None) -> str | None:
    """A channel code for a whole alias or code, else None."""
    return glossary_for(profile).normalize_channel(raw)


def normalize_period(
    raw: str | None,
    reference_date: date | None = None,
    profile: DomainProfile | None = None,
) -> Period | None:
    """A single period for a whole period expression, else None."""
    return glossary_for(profile).normalize_period(raw, reference_date)
