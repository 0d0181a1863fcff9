"""Names a question gives that the profile does not know: a programme, a codename, a place, a
product line, a person, another company. Deterministic, read from the raw question.

A name is never replaced by something else: a metric question about it is declined by name
(the fact table has no row for it, and the group's figure is not its figure); a document
question about it is answered only from passages that name it, or said not to be found.

Strong signs, declined wherever they stand: "Project X" / "X programme", X项目 / X计划 / X系列 /
X品牌 with a name-like X, a quoted term, a name glued to a period (XyzFY2024), a capitalised
possessive ("Kweichow Moutai's"). Weak signs, declined only where no entity of the profile
stands (or glued to or listed with one: 中国内地深圳, 深圳和香港): a capitalised word, a place
(shipped list, or X市 / X区), a store's name (静安寺店).

A known word inside a name is the name's, not the entity: 香港上海汇丰银行, SEA Games
(``held_names``), 店长陈香港. A name in a clause qualifying another is said by the whole phrase
(与中国农业大学共建的联合实验室: ``noun_phrases``). A period the question writes (CY2024,
YE23, 民國113年) is the period, never a name: no subject is read inside one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from ragspine.agent.held_names import held_names
from ragspine.agent.home_parts import cjk_parts, format_parts, latin_parts
from ragspine.agent.initialisms import code_subjects
from ragspine.agent.noun_phrases import relative_phrases
from ragspine.agent.parties import organisation_spans, person_spans
from ragspine.agent.ranked_parts import breakdown_subjects
from ragspine.agent.subject_words import (
    COMMON_EN,
    GENERIC_CJK,
    OUTSIDE_HEADS_CJK,
    STOPS,
    SURNAMES,
    folded_span,
    name_like,
)
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch, glossary_for
from ragspine.profile.model import compact
from ragspine.profile.periods import find_periods
from ragspine.text import fold

NAME, PLACE, COMPANY, WORD = "name", "place", "company", "word"
PERSON = "person"  # a role word's name (店长陈香港): a known word inside it is the name's
EVENT = "event"  # an event a document question presumes (商标侵权诉讼, 产品召回事件): ``asked.py``
QUANTITY = "quantity"  # what a figure question asks of a name (``asked.py``): 首席执行官的薪酬
HELD = "held"  # a name holding a region (香港上海汇丰银行, SEA Games): the region is the name's


@dataclass(frozen=True)
class Subject:
    name: str  # as the question writes it
    stem: str  # folded and compact: what a passage must hold to be about it
    start: int  # in the folded text
    end: int
    strong: bool
    kind: str = NAME


_CJK = r"\u4e00-\u9fff"
_QUOTED = re.compile(r"[「『“\"《]([^」』”\"》]{2,30})[」』”\"》]")
_PROJECT_BEFORE = re.compile(
    r"\b(?:[Pp]roject|[Pp]rogramme|[Pp]rogram|[Ii]nitiative|[Oo]peration|[Cc]odename|[Cc]ode\s+name|"
    r"[Pp]artner|[Ss]ubsidiary|[Ss]upplier|[Cc]ustomer|[Cc]lient|[Bb]rand)"
    r"\s+(?P<name>[A-Z0-9][\w-]*(?:\s+[A-Z0-9][\w-]*)*)"
)
# A name (capitalised, or mixed case: mRNA) before what a company runs or sells, a few plain
# words between: the Skylark loyalty pilot, the ACME Kids stores, Jinyu's mRNA vaccine line,
# sales of H1N1 flu vaccines (a product line the table does not hold: never the total).
_PROJECT_AFTER = re.compile(
    r"(?P<name>(?<![\w'’-])(?:[A-Z][\w-]*|[a-z]+[A-Z][\w-]*)(?:\s+(?:[A-Z][\w-]*|[a-z]+[A-Z][\w-]*))*)"
    r"(?:\s+[a-z][a-z-]*){0,2}?\s+(?:[Pp]roject|[Pp]rogramme|[Pp]rogram|[Ii]nitiative|[Pp]ilot|"
    r"[Ss]cheme|[Cc]ampaign|[Tt]rial|[Pp]roduct\s+[Ll]ine|[Ll]ine|[Rr]ange|[Ss]eries|[Bb]rand|"
    r"[Ss]ubsidiary|[Ss]tores?|[Ss]hops?|[Oo]utlets?|[Aa]pp|[Cc]ard|[Cc]lub|[Vv]enture|"
    r"[Pp]artnership|[Dd]eal|[Cc]ontract|[Aa]greement|[Vv]accines?|[Pp]roducts?|[Dd]rugs?)\b"
)
# A company names its lines, products and partners: X项目, X疫苗, X公司 with a name-like X.
_STORE_EN = re.compile(r"\b(?:[Ss]tores?|[Ss]hops?|[Oo]utlets?)$")
_CJK_SUFFIX = re.compile(r"项目|计划|工程|系列|子品牌|品牌|产品线|疫苗|药品|制剂")
# A company the question says the company deals with: 金宇生物与硕腾公司, ACME和澳华公司.
# The counterparty of a deal needs no suffix: ACME与宏达制造的供货协议, 金宇生物和某股份的合作,
# nor one the company builds or runs something with: 与中国农业大学共建的实验室, 与X联合研发.
_PARTNER = re.compile(
    rf"\s*(?:与|和|跟|同)\s*(?P<name>[{_CJK}]{{2,6}}?)(?:公司|集团|(?=的?(?:(?!的)[{_CJK}]){{0,2}}?"
    rf"(?:合作|协议|合同|供货|采购|交易|合资|往来|关系|共建|合建|共同|联合|合办|携手)))"
)
# A market a company enters is named by a verb of entry: 进军日本市场, expand into a country.
_ENTERS = re.compile(r"(?:进军|进入|拓展|开拓|布局|登陆|打入|挺进|进驻|扩张到|扩张至|出海)$")
# A site is named by where something is built: 在鄂尔多斯新建的基地, 在X设立子公司.
_SITE = re.compile(
    rf"在(?P<name>[{_CJK}]{{2,5}}?)(?:新建|建设|设立|投建|兴建|筹建|开设|扩建|新设|投资建设)"
)
_SITE_GENERIC = frozenset(
    "国内 海外 境内 境外 当地 本地 全国 各地 异地 原址 厂区 园区 总部 现有 原有".split()  # noqa: SIM905
)
_LATIN_PROJECT = re.compile(
    r"(?<![a-z0-9_])(?P<name>[a-z][a-z0-9-]{1,20})\s*[\u4e00-\u9fff]{0,4}?"
    r"(?:项目|计划|工程|系列|品牌|产品线|疫苗|药品|产品)"
)
# A person: a common surname and one or two characters, where a person is asked about.
_PERSON = re.compile(
    rf"(?P<name>[{SURNAMES}][\u4e00-\u9fff]{{1,2}}?)(?=(?:先生|女士|(?:的)?(?:职务|职位|简历|背景|"
    rf"薪酬|年龄|持股|履历|任期))|(?:在[^,,。??]{{0,20}})?(?:担任|负责|任职|分管|主管|是谁))"
)
# 子公司扬州优邦, subsidiary Acme Foods, 合作伙伴…: what follows names one.
_RELATION = re.compile(
    rf"(?:子公司|分公司|孙公司|控股子公司|参股公司|合资公司|合作伙伴|合作方|供应商|客户)"
    rf"\s*(?P<name>[{_CJK}]{{2,8}}?)(?=的|在|和|与|及|、|,|,|。|\?|？|\d|$|公司|营业|收入|销售|利润)"
)
# A name glued to a period: XyzFY2024, Moutai2024 (the letters before FY or a year).
_GLUED = re.compile(
    r"(?<![a-z0-9_])(?P<name>[a-z][a-z&]*?)(?:fy\d{2}(?:\d{2})?|(?:19|20)\d{2})(?![0-9a-z])"
)
# A code (ACME_JP), a period (FY2024, Q3, H1) or a figure in a capitalised run: not a name;
# digits glued to letters by a hyphen or written before them (7-Eleven, 3M) are a name's own.
_CODE_LIKE = re.compile(r"_|^(?:fy|cy|q|h)?\d+(?:\.\d+)?(?:['’]s)?$|^(?:fy|cy|q|h)\d", re.I)
# Before what a company sells, only a code or a period is no name: a strain or a model with
# letters after its digits (H1N1 flu vaccines) names a product line.
_NOT_A_PRODUCT = re.compile(r"_|^(?:fy|cy|q|h)?\d+(?:\.\d+)?[a-z]?$", re.I)
_CAPITALISED = re.compile(
    r"(?<![A-Za-z0-9_'’-])(?P<name>(?:\d+-?)?[A-Z][A-Za-z0-9_&.-]*(?:\s+(?:of\s+|&\s+)?[A-Z][A-Za-z0-9_&.-]*)*)"
    r"(?P<poss>['’]s(?![A-Za-z]))?"
)
# A place's suffix, not the first character of a common word (区域, 市场, 市值, 省份, 县域):
# 四个区域 counts the company's regions, it names no district.
_CJK_PLACE = re.compile(r"市(?!场|值|盈|占)|区(?!域|间)|省(?!份)|县(?!域)")
_STORE = re.compile(rf"(?:分店|门店|店)(?![{_CJK}]?(?:数|数量|总数))")


def in_english(question: str) -> bool:
    """A question with no Chinese character is answered in English where the answer is words."""
    return re.search(r"[\u4e00-\u9fff]", question) is None


def find_subjects(
    question: str,
    text: str,
    index: list[int],
    scan: list[tuple[str, AliasMatch]],
    profile: DomainProfile,
) -> list[Subject]:
    """Every name the question gives that the profile does not know, in order.

    ``text`` is the folded question, ``index`` maps each of its characters to the question's,
    ``scan`` is the glossary's reading of ``text``."""
    known = _known(profile)
    words = glossary_for(profile).words  # without the synonyms: 越南 is a place, not an entity
    taken = [(m.start, m.end) for k, m in scan if k != "place"]
    taken += [(p.start, p.end) for p in find_periods(text, date.today())]  # CY2024: a year
    out: list[Subject] = []

    def add(start: int, end: int, stem: str, strong: bool, kind: str = NAME) -> None:
        stem = compact(stem)
        if len(stem) < 2 or stem in (words if kind == PLACE else known):
            return
        if any(s.start < end and start < s.end for s in out):
            return
        if any(s <= start and end <= e for s, e in taken):
            return  # inside a word the profile knows
        name = question[index[start] : index[end - 1] + 1] if end > start else stem
        out.append(Subject(name.strip(), stem, start, end, strong, kind))

    for m in _QUOTED.finditer(text):
        inner = m.group(1).strip()
        if compact(inner) not in known and not _all_known(inner, scan, m.start(1), m.end(1)):
            add(m.start(1), m.end(1), _strip_suffix(inner), True)
    for role, start, end in person_spans(text, [m for _, m in scan]):  # 店长陈香港: 香港 is his
        add(role, end, text[start:end], True, PERSON)
    held_names(question, text, index, scan, profile, add, HELD)  # 香港上海汇丰银行, SEA Games
    leads = {m.end for k, m in scan}
    for start, end in organisation_spans(text, leads, known):  # 致同会计师事务所, 宏昌置业
        add(start, end, text[start:end], True, COMPANY)
    latin_parts(question, index, profile, known, add)  # ACME Express: a part of the company
    for m in _PROJECT_BEFORE.finditer(question):
        start, end = folded_span(index, *m.span())
        add(start, end, m.group("name"), True)
    for m in _PROJECT_AFTER.finditer(question):
        parts = m.group("name").split()
        while parts and parts[0].lower() in COMMON_EN:
            parts = parts[1:]  # How many stores: the words that start no name
        if any(_NOT_A_PRODUCT.search(w) for w in parts):
            continue  # a code or a period (FY2024) is no part of a name
        if parts and not all(w.isupper() and w.isalpha() and len(w) <= 5 for w in parts):
            first = question.index(parts[0], m.start("name"))
            start, end = folded_span(index, first, m.end())
            if any(k == "place" and start <= w.start < end for k, w in scan):
                continue  # Beijing and Shanghai stores: places, read as places
            store = _STORE_EN.search(m.group())  # a store's name is a place, weak like 静安寺店
            add(start, end, " ".join(parts), not store, PLACE if store else NAME)
    for m in _CJK_SUFFIX.finditer(text):
        for start in _names_before(text, m.start(), 2, 5, leads):
            if name_like(text[start : m.start()], known):
                add(start, m.end(), text[start : m.start()], True)
                break
    for k, w in scan:
        p = _PARTNER.match(text, w.end) if k == "entities" else None
        if p and _partner_like(p.group("name"), known) and not set(p.group("name")) & STOPS:
            head = OUTSIDE_HEADS_CJK.match(text, p.end("name"))  # 中国农业大学: 大学 ends it
            end, stem = (head.end(), p.group("name") + head.group()) if head else (p.end(), None)
            add(p.start("name"), end, stem or p.group("name"), True, COMPANY)
    for m in _PERSON.finditer(text):
        if _at_lead(text, m.start(), leads) and name_like(m.group("name"), known):
            add(m.start("name"), m.end("name"), m.group("name"), True)
    for m in _RELATION.finditer(text):
        if name_like(m.group("name"), known):
            add(m.start("name"), m.end("name"), m.group("name"), True, COMPANY)
    for m in _LATIN_PROJECT.finditer(text):
        if compact(m.group("name")) not in known and m.group("name") not in COMMON_EN:
            add(m.start("name"), m.end(), m.group("name"), True)
    for m in _GLUED.finditer(text):
        name = m.group("name")
        if len(name) >= 2 and name not in COMMON_EN and name not in ("fiscal", "year"):
            add(m.start("name"), m.end("name"), name, True, COMPANY)
    for kind, w in scan:
        if kind == "place" and (_at_lead(text, w.start, leads) or _ENTERS.search(text, 0, w.start)):
            add(w.start, w.end, text[w.start : w.end], False, PLACE)
    for m in _SITE.finditer(text):
        site = m.group("name")
        if site not in _SITE_GENERIC and not set(site) & STOPS and name_like(site, words):
            add(m.start("name"), m.end("name"), site, False, PLACE)
    for pattern, shortest, longest in ((_CJK_PLACE, 1, 3), (_STORE, 2, 4)):
        for m in pattern.finditer(text):
            for start in _names_before(text, m.start(), shortest, longest, leads):
                core = text[start : m.start()]
                name = core + m.group()  # 静安寺店, 北区
                usable = name_like(core, words) or (len(core) == 1 and core not in STOPS)
                common = pattern is _CJK_PLACE and name[-2:] in GENERIC_CJK  # 家上市
                if usable and not common and name not in GENERIC_CJK and core not in GENERIC_CJK:
                    add(start, start + len(name), name, False, PLACE)
                break
    breakdown_subjects(text, add)  # which province had the most sales: provinces, not held
    for m in _CAPITALISED.finditer(question):
        _capitalised(question, m, index, known, add)
    cjk_parts(text, scan, profile, known, _CJK_SUFFIX, add)
    format_parts(text, scan, known, add)  # 便利店业态: a format the fact table has not
    code_subjects(question, text, index, scan, known, add)  # SG net profit: a code, not the group
    ordered = sorted(out, key=lambda s: s.start)  # 与中国农业大学共建的联合实验室: said whole
    return relative_phrases(ordered, text, question, index, {NAME, COMPANY, HELD, PERSON})


def _capitalised(
    question: str,
    m: re.Match[str],
    index: list[int],
    known: frozenset[str],
    add: Callable[[int, int, str, bool, str], None],
) -> None:
    words = m.group("name").split()
    cut = next((i for i, w in enumerate(words) if _CODE_LIKE.search(w)), len(words))
    possessive = m.group("poss") is not None and cut == len(words)
    words = words[:cut]  # a code (ACME_JP) or a period (FY2024) ends the name
    start = m.start("name")
    initial = _sentence_start(question, start)
    # Leading words that start the sentence or are known are not the name.
    while words and initial and words[0].lower() in COMMON_EN:
        start = question.index(words[0], start) + len(words[0])
        words = words[1:]
        initial = False
    if not words or compact(" ".join(words)) in known:
        return
    if any(compact(w) in known for w in words):
        return  # glued to a word the profile knows (ACME Club, Jinyu Bio): that word's name
    first = question.index(words[0], start)
    end = first + len(" ".join(words))
    if initial and len(words) == 1 and _FUNCTION_AFTER.match(question, end):
        return  # Given that …, Assuming the …: a word before a determiner is no name
    acronym = len(words) == 1 and words[0].isupper() and len(words[0]) <= 5
    if (acronym or words[0].lower() in COMMON_EN) and not possessive:
        return
    if words[0].isupper() and len(words) == 1 and not possessive:
        return
    span = folded_span(index, first, end)
    # One capitalised word (Falcon) is a name in a metric question with no entity; a document
    # question is not held to it (African swine fever), unless it is CamelCase (PayFast).
    single = len(words) == 1 and not any(c.isupper() for c in words[0][1:])
    if re.search(r"[\u4e00-\u9fff]", question):
        single = False  # a Latin word in a Chinese question is a name (ACME与Lazada的合作)
    kind = COMPANY if possessive else WORD if single else NAME
    add(span[0], span[1], " ".join(words), possessive, kind)


# A sentence-initial capitalised word followed by a determiner, a pronoun or a complementiser is
# a verb or a preposition (Given that, Assuming the, Excluding its), never a name: a name is
# followed by what it owns or does, not by "that" or "the".
_FUNCTION_AFTER = re.compile(
    r",?\s+(?:that|the|a|an|its|their|this|these|those|our|my|your|his|her|we|it|they|you|i|"
    r"there|what|how|if|when|whether|all|each|every|some|any|no)(?![a-z'’])",
    re.IGNORECASE,
)


def _sentence_start(question: str, at: int) -> bool:
    before = question[:at].rstrip()
    return not before or before[-1] in ".?!:;。？！：；\"'“(("


def _at_lead(text: str, start: int, leads: set[int]) -> bool:
    """A name starts the text, or follows a non-CJK character, a word the profile knows or a
    word a request puts before a name (的, 在, 对, 和…)."""
    if start == 0 or start in leads:
        return True
    before = text[start - 1]
    return not ("\u4e00" <= before <= "\u9fff") or before in STOPS


def _names_before(text: str, end: int, shortest: int, longest: int, leads: set[int]) -> list[int]:
    """Where a CJK name ending at ``end`` may start, longest first: every character of it CJK and
    none a function character, its start at a lead."""
    out = []
    for size in range(longest, shortest - 1, -1):
        start = end - size
        chunk = text[start:end]
        if start < 0 or not all("\u4e00" <= c <= "\u9fff" for c in chunk):
            continue
        if any(c in STOPS for c in chunk) or any(start < p < end for p in leads):
            continue
        if _at_lead(text, start, leads):
            out.append(start)
    return out


def _partner_like(name: str, known: frozenset[str]) -> bool:
    """A counterparty's name may hold a word the profile knows (华信物流, 某某超市): the slot
    says it is a name; only a known or generic word as a whole is not one."""
    if name_like(name, known):
        return True
    flat = compact(name)
    if flat in known or name in GENERIC_CJK:
        return False
    # 华信物流: a trade word ending a name is its line of business; the name is before it
    core = next((name[: -len(g)] for g in GENERIC_CJK if len(g) >= 2 and name.endswith(g)), name)
    if core != name:
        return len(core) >= 2 and name_like(core, known)
    if any(g in name for g in GENERIC_CJK if len(g) >= 2):
        return False
    return not any(flat.startswith(w) or flat == w for w in known if len(w) >= len(flat) - 1)


def _strip_suffix(term: str) -> str:
    stem = re.sub(r"(?:项目|计划|工程|系列|品牌|产品线)$", "", term)
    stem = re.sub(r"^(?:project|programme|program|initiative|operation)\s+", "", stem, flags=re.I)
    return stem if len(compact(stem)) >= 2 else term


def _all_known(inner: str, scan: list[tuple[str, AliasMatch]], start: int, end: int) -> bool:
    covered = sum(m.end - m.start for k, m in scan if start <= m.start and m.end <= end)
    return covered >= len(compact(inner))


def _known(profile: DomainProfile) -> frozenset[str]:
    """Every word the profile, its shipped phrases and its synonyms name, compact."""

    def build() -> frozenset[str]:
        words = set(glossary_for(profile).words)
        words |= {compact(w) for group in profile.synonyms for w in group}
        words |= {compact(profile.home_company_name)}
        words |= {compact(e.code) for e in profile.entities}
        return frozenset(w for w in words if w)

    return profile.memo("subjects_known", build)


def outside_persons(
    scan: list[tuple[str, AliasMatch]], subjects: list[Subject]
) -> list[tuple[str, AliasMatch]]:
    """The glossary's reading less the words inside a person's name (店长陈香港: 香港 is part of
    his name, not the entity; 员工王金宇: not the company) or inside a name that holds a region
    (香港上海汇丰银行, SEA Games: not Hong Kong, not Southeast Asia)."""
    people = [(s.start, s.end) for s in subjects if s.kind in (PERSON, HELD)]
    return [(k, m) for k, m in scan if not any(s <= m.start and m.end <= e for s, e in people)]


def declines(
    subject: Subject, scan: list[tuple[str, AliasMatch]], text: str, home: str = ""
) -> bool:
    """Whether a metric question is declined for this name: always for a strong sign; for a weak
    one, when no entity of the profile is named, or the name is glued to one or listed with it
    (中国内地深圳, 深圳和香港, Kowloon and Hong Kong)."""
    if subject.strong:
        return True
    # The home entity (集团, 金宇生物) is every place's parent: naming it names no other part.
    entities = [m for k, m in scan if k == "entities" and m.code != home]
    if not entities:
        return True
    joiner = re.compile(r"\s*(?:和|与|及|以及|、|,|,|&|and|or|或)?\s*")
    for e in entities:
        if e.end <= subject.start and joiner.fullmatch(text, e.end, subject.start):
            return True
        if subject.end <= e.start and joiner.fullmatch(text, subject.end, e.start):
            return True
    return False


def mentions(subject: Subject, passage: str, profile: DomainProfile) -> bool:
    """Whether a passage names the subject (or a synonym of it, or another name of the partner
    it is)."""
    flat = compact(fold(passage))

    def build() -> list[set[str]]:
        groups = [*profile.synonyms, *([e.name, *e.aliases] for e in profile.external_entities)]
        return [{compact(fold(w)) for w in g} for g in groups]

    groups = profile.memo("subject_synonym_stems", build)
    stems = {subject.stem}
    for group in groups:
        if subject.stem in group:
            stems |= group
    return any(s and s in flat for s in stems)
