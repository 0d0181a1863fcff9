"""What RAGSpine knows about questions before any profile: metric phrases, places, listed companies.

Three shipped lists (``metric_phrases.yaml``, ``places.yaml``, ``listed_companies.yaml``), read
once. A profile anchors them: a phrase group that shares a phrase with one of the profile's
metrics (or unsupported terms) names that item, so SSS and LFL name the demo's same-store sales
growth; a group it does not share is a quantity the fact table cannot give (inventory turnover),
matched as a whole term so a shorter metric word inside it (turnover = revenue) never is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

from ragspine.profile.formula import formula_shape, sum_key
from ragspine.profile.model import DomainProfile, compact
from ragspine.profile.regions import entity_codes
from ragspine.text import fold

# Words every group of companies uses of itself: never a collision.
GENERIC_ALIASES = frozenset(
    compact(w)
    for w in (
        "集团", "本集团", "全集团", "整个集团", "公司", "本公司", "我公司", "我们", "group",
        "the group", "company", "the company",
    )
)  # fmt: skip


@dataclass(frozen=True)
class PhraseGroup:
    """One quantity and the ways of writing it."""

    id: str
    zh: str
    en: str
    phrases: tuple[str, ...]
    shape: tuple[str, ...] = ()  # the formula computing it, over other groups' ids
    readings: tuple[tuple[str, ...], ...] = ()  # the sums it may mean, where no one shape holds


def _read(name: str) -> dict[str, object]:
    text = resources.files("ragspine.profile").joinpath(name).read_text("utf-8")
    data = yaml.safe_load(text)
    assert isinstance(data, dict), name
    return data


@cache
def phrase_groups() -> tuple[PhraseGroup, ...]:
    """The shipped groups. A group id written again (``{id: REVENUE, phrases: [rev]}``) adds its
    phrases to the first group of that id, so more ways of writing a quantity are added as new
    lines, never by rewriting a group."""
    raw = _read("metric_phrases.yaml")["groups"]
    assert isinstance(raw, list)
    written = {compact(str(p)) for g in raw for p in g["phrases"]}
    groups: dict[str, PhraseGroup] = {}
    for g in raw:
        phrases = tuple(str(p) for p in g["phrases"])
        variants = (v for p in phrases for v in (*_shop_variants(p), *_word_variants(p)))
        phrases += tuple(dict.fromkeys(v for v in variants if compact(v) not in written))
        first = groups.get(g["id"])
        if first is not None:
            more = tuple(p for p in phrases if p not in first.phrases)
            groups[g["id"]] = PhraseGroup(
                first.id, first.zh, first.en, first.phrases + more, first.shape, first.readings
            )
            continue
        shape = tuple(g.get("shape") or ())
        readings = tuple(tuple(r) for r in g.get("readings") or ())
        groups[g["id"]] = PhraseGroup(g["id"], g["zh"], g["en"], phrases, shape, readings)
    return tuple(groups.values())


# A retail unit is a store, a shop or an outlet in English (same-store, same-shop and
# same-outlet sales are one quantity; so are revenue per store and per shop).
_RETAIL_UNIT = re.compile(r"(?<![a-z])(store|shop|outlet)(s?)(?![a-z])")


def _shop_variants(phrase: str) -> list[str]:
    """An English phrase naming a store written with shop and outlet instead (same-shop sales
    growth), where no group writes that variant already."""
    m = _RETAIL_UNIT.search(phrase)
    if m is None:
        return []
    words = [w for w in ("store", "shop", "outlet") if w != m.group(1)]
    return [_RETAIL_UNIT.sub(rf"{w}\2", phrase) for w in words]


# A word of a metric's name and the standard words written for it: 总值 (the HK / Taiwan usage)
# for 总额 (资产总值 is 资产总额), 营运 for 经营 (营运利润 is 经营利润), and an English expense
# line written as spend, spending or expenditure (R&D spend is R&D expenses).
_WORD_SYNONYMS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile("总额"), ("总值",)),
    (re.compile("经营"), ("营运",)),
    (re.compile(r"(?<![a-z])expenses?$"), ("spend", "spending", "expenditure")),
)


def _word_variants(phrase: str) -> list[str]:
    """A phrase with a word of it written in a standard synonym, where no group writes that
    variant already (a variant another group writes names that group: the written one wins)."""
    out: list[str] = []
    for word, synonyms in _WORD_SYNONYMS:
        if word.search(phrase):
            out.extend(word.sub(s, phrase) for s in synonyms)
    return out


@cache
def places() -> tuple[tuple[str, ...], ...]:
    """Each place's names, its Chinese name first."""
    raw = _read("places.yaml")["places"]
    assert isinstance(raw, list)
    return tuple(tuple(str(n) for n in names) for names in raw)


@cache
def listed_companies() -> tuple[str, ...]:
    """Listed companies' names: short names, then legal names, as the shipped list holds them."""
    data = _read("listed_companies.yaml")
    names: list[str] = []
    for key in ("added", "short", "legal"):
        names += [str(n) for n in data.get(key) or []]  # type: ignore[attr-defined]
    return tuple(dict.fromkeys(names))


def _owners(profile: DomainProfile) -> dict[str, str]:
    """compact word → its key (``metrics:REVENUE``, ``entities:ACME_HK``…), every profile word."""
    owners: dict[str, str] = {}
    for key, alias, _ in profile._vocabulary():
        if key.startswith("company:"):
            key = f"entities:{profile.home_entity_code}"
        owners.setdefault(compact(alias), key)
    return owners


def anchored_terms(profile: DomainProfile) -> dict[str, list[str]]:
    """The shipped words this profile gains, keyed as the glossary keys its own
    (``metrics:CODE``, ``unsupported:TERM``) or as ``quantity:ID`` and ``place:NAME``.

    A word that is already one of the profile's words is left to the profile."""
    owners = _owners(profile)
    out: dict[str, list[str]] = {}
    for group in phrase_groups():
        anchor = _anchor(group, owners) or _by_shape(group, owners, profile)
        key = anchor or f"quantity:{group.id}"
        extra = [p for p in group.phrases if compact(p) not in owners]
        if extra:
            out.setdefault(key, []).extend(extra)
    for names in places():
        extra = [n for n in names if compact(n) not in owners]
        if len(extra) == len(names):  # a place the profile names is the profile's entity
            out[f"place:{names[0]}"] = extra
    for code, abbreviations in entity_codes(profile).items():  # TW: Taiwan, by its code
        extra = [a for a in abbreviations if compact(a) not in owners]
        if extra:
            out.setdefault(f"entities:{code}", []).extend(extra)
    return out


_INITIALISM = re.compile(r"[A-Z]{2,4}")


def initialisms(profile: DomainProfile) -> frozenset[str]:
    """The initialisms this profile gains (compact): shipped phrases written in capitals, two to
    four letters (OP, NP, GPM, NPAT), and its entities' country and region codes (TW, HKG). Each
    names its item only where a question writes it in capitals: two to four letters spell words
    and codes in lower case (op, pat, roe, cogs, tw). The profile's own aliases are read as it
    declares them."""

    def build() -> frozenset[str]:
        terms = anchored_terms(profile)
        words = [w for key, ws in terms.items() if not key.startswith("place:") for w in ws]
        return frozenset(compact(w) for w in words if _INITIALISM.fullmatch(w))

    return profile.memo("initialisms", build)


def group_anchor(group_id: str, profile: DomainProfile) -> str:
    """The glossary key a shipped group names in this profile: the profile's item it anchors
    (``metrics:NET_PROFIT``), its derived metric of the group's shape, else ``quantity:ID``."""

    def build() -> dict[str, str]:
        owners = _owners(profile)
        return {
            g.id: _anchor(g, owners) or _by_shape(g, owners, profile) or f"quantity:{g.id}"
            for g in phrase_groups()
        }

    return profile.memo("group_anchors", build)[group_id]


def _anchor(group: PhraseGroup, owners: dict[str, str]) -> str | None:
    """The profile's item one of the group's phrases names (``metrics:CODE``), if any."""
    return next(
        (
            owners[compact(p)]
            for p in group.phrases
            if owners.get(compact(p), "").split(":")[0] in ("metrics", "unsupported")
        ),
        None,
    )


def _by_shape(group: PhraseGroup, owners: dict[str, str], profile: DomainProfile) -> str | None:
    """The profile's derived metric whose formula has the group's shape: 收入增速 names a growth
    of revenue whatever the profile calls it."""
    shape = _shape_of(group, owners, profile) if group.shape else ()
    code = derived_shapes(profile).get(shape) if shape else None
    return f"metrics:{code}" if code else None


def _shape_of(
    group: PhraseGroup, owners: dict[str, str], profile: DomainProfile
) -> tuple[str, ...]:
    """The group's shape over this profile's codes, or () where one of its parts is not held."""
    groups = {g.id: g for g in phrase_groups()}
    parts: list[str] = [group.shape[0]] if group.shape else []
    for ref in group.shape[1:]:
        if ref == "channel:default":
            parts.append(profile.default_channel)
            continue
        if ref.startswith("channel:"):
            word = ref.split(":", 1)[1]
            code = next(
                (c.code for c in profile.channels if word in {a.lower() for a in c.aliases}), None
            )
        else:
            base = _anchor(groups[ref], owners) if ref in groups else None
            code = base.split(":", 1)[1] if base and base.startswith("metrics:") else None
            if code is None and ref in groups and groups[ref].shape[:1] == ("sum",):
                inner = _shape_of(groups[ref], owners, profile)  # a ratio over 三项费用
                code = inner[1] if inner else None
        if code is None:
            return ()
        parts.append(code)
    if parts and parts[0] == "sum":  # 三项费用: a sum, named whatever order it is written in
        return ("sum", sum_key(parts[1:]))
    return tuple(parts)


def group_key(group_id: str, profile: DomainProfile) -> str | None:
    """The profile's name for a shipped quantity the profile computes from its own metrics
    without holding it (三项费用: the sum of three of them), or None."""

    def build() -> dict[str, str]:
        owners = _owners(profile)
        out: dict[str, str] = {}
        for group in phrase_groups():
            shape = _shape_of(group, owners, profile) if group.shape else ()
            if shape and shape[0] == "sum":
                out[group.id] = shape[1]
        return out

    return profile.memo("group_keys", build).get(group_id)


def sum_expansions(profile: DomainProfile) -> dict[str, str]:
    """A derived metric that is a sum of metrics (负债合计 = 流动负债 + 非流动负债) → that sum's
    name, so a ratio over it is found in either form."""
    return {c: shape[1] for shape, c in derived_shapes(profile).items() if shape[0] == "sum"}


def named_shapes(profile: DomainProfile) -> dict[tuple[str, ...], str]:
    """Shape → the metric that means it: the profile's derived metrics by their formulas, and
    its other metrics by the shipped group they anchor (a stored 毛利率 is gross profit over
    revenue: 毛利占收入的比重 asks for it)."""

    def build() -> dict[tuple[str, ...], str]:
        out = dict(derived_shapes(profile))
        owners = _owners(profile)
        for group in phrase_groups():
            anchor = _anchor(group, owners)
            shape = _shape_of(group, owners, profile) if group.shape else ()
            if shape and anchor and anchor.startswith("metrics:"):
                out.setdefault(shape, anchor.split(":", 1)[1])
        return out

    return profile.memo("named_shapes", build)


def derived_shapes(profile: DomainProfile) -> dict[tuple[str, ...], str]:
    """Each derived metric's formula shape → its code (the first one, where two share one)."""

    def build() -> dict[tuple[str, ...], str]:
        out: dict[tuple[str, ...], str] = {}
        for d in profile.derived_metrics:
            shape = formula_shape(d.parsed.tree)
            if shape is not None:
                out.setdefault(shape, d.code)
        return out

    return profile.memo("derived_shapes", build)


def sum_readings(code: str, profile: DomainProfile) -> list[tuple[str, ...]]:
    """The sums a quantity may mean, as this profile's metric codes: a sum written out (A+B), a
    derived metric whose formula is a sum, a shipped group's sum shape, or each of the group's
    ``readings`` (期间费用: three lines or four, by the standard a report follows). A part the
    profile does not hold stays the shipped group's id."""

    def build() -> dict[str, list[tuple[str, ...]]]:
        owners = _owners(profile)
        groups = {g.id: g for g in phrase_groups()}
        out: dict[str, list[tuple[str, ...]]] = {}
        for g in groups.values():
            refs = ([g.shape[1:]] if g.shape[:1] == ("sum",) else []) + list(g.readings)
            for parts in refs:
                anchors = [_anchor(groups[r], owners) if r in groups else None for r in parts]
                held = [a.split(":", 1)[1] if a and a.startswith("metrics:") else None
                        for a in anchors]  # fmt: skip
                out.setdefault(g.id, []).append(
                    tuple(h or r for h, r in zip(held, parts, strict=True))
                )
        for c, total in sum_expansions(profile).items():
            out[c] = [tuple(total.split("+"))]
        return out

    if "+" in code:
        return [tuple(code.split("+"))]
    return profile.memo("sum_readings", build).get(code, [])


def quantity_name(group_id: str, english: bool) -> str:
    group = next(g for g in phrase_groups() if g.id == group_id)
    return group.en if english else group.zh


class AliasCollisionWarning(UserWarning):
    """A profile alias is part of a listed company's name (金宇 in 金宇车城)."""


@dataclass(frozen=True)
class Collision:
    """A profile alias that is part of a listed company's name."""

    alias: str
    owner: str  # entities[ACME_CN] or home_company_name
    companies: tuple[str, ...]

    def message(self) -> str:
        shown = "、".join(self.companies[:5]) + ("…" if len(self.companies) > 5 else "")
        return (
            f"{self.owner}: alias {self.alias!r} is part of {len(self.companies)} listed "
            f"companies' names ({shown}): a question naming one of them is declined as that "
            "company, never read as this alias"
        )


_SUFFIX = re.compile(
    r"(?:集团股份有限公司|股份有限公司|有限责任公司|集团有限公司|有限公司|股份公司)$"
)


def _home_names(profile: DomainProfile) -> set[str]:
    home = profile.entity(profile.home_entity_code)
    words = [profile.home_company_name, *home.aliases]
    return {compact(_SUFFIX.sub("", fold(w))) for w in words} | {compact(w) for w in words}


def alias_collisions(profile: DomainProfile) -> list[Collision]:
    """Every entity alias (and the home company's name) that is a part, not the whole, of a
    listed company's name, with those names: shown as a warning when a profile file loads."""
    return profile.memo("alias_collisions", lambda: _collisions(profile))


def _collisions(profile: DomainProfile) -> list[Collision]:
    home = _home_names(profile)
    listed = [(n, compact(n)) for n in listed_companies()]
    words = [("home_company_name", profile.home_company_name)]
    words += [(f"entities[{e.code}]", a) for e in profile.entities for a in e.aliases]
    out: list[Collision] = []
    seen: set[str] = set()
    for owner, alias in words:
        key = compact(alias)
        if len(key) < 2 or key in GENERIC_ALIASES or key in seen:
            continue
        seen.add(key)
        hits = tuple(
            name
            for name, flat in listed
            if key in flat and flat != key and compact(_SUFFIX.sub("", fold(name))) not in home
        )
        if hits:
            out.append(Collision(alias, owner, hits))
    return out


def listed_names_holding(profile: DomainProfile) -> dict[str, list[str]]:
    """compact entity alias → the listed companies' names (folded, compact, suffix removed) that
    hold it, longest first: where one of them is written, the alias is not the profile's."""

    def build() -> dict[str, list[str]]:
        home = _home_names(profile)
        out: dict[str, list[str]] = {}
        for c in alias_collisions(profile):
            names = {compact(_SUFFIX.sub("", fold(n))) for n in c.companies}
            out[compact(c.alias)] = sorted((n for n in names if n not in home), key=len)[::-1]
        return out

    return profile.memo("listed_names_holding", build)
