"""Names that hold a name the profile knows: a bank, a union, a university, a government, an
event whose name holds a region or a place (香港上海汇丰银行, ACME香港员工工会, 呼和浩特市政府,
the SEA Games, the Hohhot municipal government).

The region inside such a name is the name's, not the company's entity there: the figure of Hong
Kong is never the answer to a question about a bank named after it, and a decline names the
whole name as the question writes it, never the region alone nor a fragment after it. A region
alias (an entity's other than the home company's, or a place) is one name with what follows it:

- Chinese: the characters written right after it and a head word only an outside body's name
  ends with (银行, 大学, 工会, 协会, 基金, 政府 …), the head ending a word of the sentence (not
  银行卡). At least one name character stands between the region and the head (香港上海汇丰
  银行, 香港员工工会, 东南亚成长基金): 香港银行 alone is banks in Hong Kong, no name of its
  own. A government is named by its place alone (香港政府). The company's name glued before the
  region is the name's too (ACME香港员工工会). Between region and head: no function
  character, no word of the question's frame (获得, 是多少), no word the profile reads other
  than a region or a place (收入, 线上).
- English: capitalised words written right after it, no common word among them, up to the first
  word of the profile's terms (SEA Games, Hong Kong Disneyland; Hong Kong Revenue is no name),
  or all of them where a body's head word ends them (Shanghai Pudong Development Bank); or up
  to two lower-case words that are no common word and an outside body's head word (the Hohhot
  municipal government, the Hong Kong stock exchange).
  Not in a title-case question, where a capital names nothing; not before a store word (our
  Beijing Anzhen store), where it names one of the company's stores, a place held weakly.

A place named after an entity's region is a place, not the entity (香港仔, 香港东区, 台湾大道): an
entity's region alias (not a shipped place: 上海静安区 is a finer place, read as places are)
followed by a place-name suffix (仔 a district's diminutive, 区 街 道 路 村 镇 a district, a street,
a village, a town), its name characters between (none needed before 仔, which never names the
region itself; at least one before the others: 香港区 is Hong Kong's region), the suffix ending a
word of the sentence or followed by a function character (香港仔有几家). Not where the words
after the region are a common word naming the region's own area or no place (地区, 市区, 社区,
渠道, 知道, 道路, 农村: ``_NO_PLACE``).

Not a name: a region with a common or known word after it (香港地区, 台湾市场的收入, 香港线上
收入, Hong Kong revenue, Hong Kong stores), a region before 的 or a possessive (香港的收入,
Hong Kong's revenue).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from ragspine.agent.home_parts import title_case
from ragspine.agent.subject_residue import frame_words
from ragspine.agent.subject_words import COMMON_EN, OUTSIDE_HEADS_CJK, STOPS, folded_span
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch, glossary_for

Add = Callable[..., None]  # subjects.find_subjects' add(start, end, stem, strong, kind)
Span = tuple[int, int]

_PLACE_NAMES = re.compile(r"(?:(?:市|省|区|县)?(?:人民)?)政府")  # 香港政府, 呼和浩特市人民政府
_HEADS_EN = (
    r"government|council|authority|bureau|ministry|municipality|university|college|school|"
    r"hospital|bank|union|association|federation|foundation|fund|society|club|games|olympics|"
    r"stock\s+exchange|commission|committee|court|customs"  # not an exchange rate
)
_LOWER_HEAD = re.compile(
    rf"(?P<words>(?:\s+[a-z][a-z-]*){{0,2}}?)\s+(?P<head>(?i:{_HEADS_EN}))s?(?![A-Za-z])"
)
_HEAD_EN = re.compile(rf"(?<![A-Za-z])(?i:{_HEADS_EN})s?$")
_CAPITAL = re.compile(r"\s+(?P<word>[A-Z][a-z][A-Za-z-]*)(?![A-Za-z-])")
_PLACE_SUFFIX = re.compile(r"仔|区|街|道|路|村|镇")  # 香港仔, 香港东区, 台湾大道
# Words a place suffix ends that name the region's own area or no place at all (module docstring).
_NO_PLACE = re.compile(
    r"(?:地区|市区|城区|全区|各区|辖区|大区|片区|社区|园区|区域|渠道|报道|知道|销路|线路|思路|道路|"
    r"街道|通道|轨道|赛道|频道|门路|出路|乡村|农村|城镇|乡镇)$"
)
_STORE_AFTER = re.compile(r"\s+(?:stores?|shops?|outlets?|branch(?:es)?)(?![A-Za-z])", re.I)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_LONGEST_MIDDLE = 8


def held_names(
    question: str,
    text: str,
    index: list[int],
    scan: list[tuple[str, AliasMatch]],
    profile: DomainProfile,
    add: Add,
    kind: str,
) -> None:
    """Each name in the folded ``text`` that starts with a region alias and goes on past it, as
    a strong subject of ``kind``."""
    home = profile.home_entity_code
    regions = [m for k, m in scan if k == "place" or (k == "entities" and m.code != home)]
    read = [(m.start, m.end) for k, m in scan if k != "place" and m not in regions]
    own = {m.end: m.start for k, m in scan if k == "entities" and m.code == home}
    entities = {(m.start, m.end) for k, m in scan if k == "entities" and m.code != home}
    for m in regions:
        if _CJK.match(text[m.end - 1]):
            end = _cjk_name(text, m, read)
            if end is None and (m.start, m.end) in entities:  # 香港仔, not 上海静安区
                end = _cjk_place(text, m, read)
            start = own.get(m.start, m.start)  # ACME香港员工工会: the company's own body
        else:
            end, start = _latin_name(question, index, m, _latin_words(profile)), m.start
        if end is not None:
            add(start, end, text[start:end], True, kind)


def _cjk_name(text: str, region: AliasMatch, read: list[Span]) -> int | None:
    """Where a Chinese name that starts with ``region`` ends, or None."""
    for head in OUTSIDE_HEADS_CJK.finditer(text, region.end, region.end + _LONGEST_MIDDLE + 6):
        middle = text[region.end : head.start()]
        if not all(_CJK.match(c) and c not in STOPS for c in middle):
            return None  # a function character, a period: the region's own clause
        if any(s < head.end() and region.end < e for s, e in read):
            return None  # 香港线上收入: a word the profile reads
        if any(len(f.group()) >= 2 for f in frame_words().finditer(middle)):
            return None  # 香港获得银行贷款: the frame's verb, no name
        government = _PLACE_NAMES.fullmatch(text, region.end, head.end())
        if (middle or government) and head.end() in _word_ends(text):
            return head.end()
        return None
    return None


def _cjk_place(text: str, region: AliasMatch, read: list[Span]) -> int | None:
    """Where a place named after ``region`` ends (香港仔, 香港东区), or None (module docstring)."""
    for head in _PLACE_SUFFIX.finditer(text, region.end, region.end + 3):
        middle = text[region.end : head.start()]
        if not all(_CJK.match(c) and c not in STOPS for c in middle):
            return None  # 香港的街: a function character, the region's own clause
        if any(s < head.end() and region.end < e for s, e in read):
            return None  # a word the profile reads
        if any(len(f.group()) >= 2 for f in frame_words().finditer(middle + head.group())):
            return None  # a verb of the question's frame
        ends = head.end() in _word_ends(text) or text[head.end() : head.end() + 1] in STOPS
        if ends and (middle or head.group() == "仔") and not _NO_PLACE.search(text[: head.end()]):
            return head.end()  # 香港仔有几家: jieba reads 仔有, 有 a stop all the same
    return None


def _latin_name(
    question: str, index: list[int], region: AliasMatch, known: frozenset[str]
) -> int | None:
    """Where an English name that starts with ``region`` ends (in the folded text), or None.
    ``known``: the profile's English words and the common ones."""
    at = index[region.end - 1] + 1  # the question's character after the region
    end, cut = at, None
    if not title_case(question):
        for word in _CAPITAL.finditer(question, end):
            low = word.group("word").lower()
            if word.start() != end or low in COMMON_EN:
                break  # Taiwan In 2024, Hong Kong Stores: a common word starts no name
            ours = any(part in known for part in re.findall(r"[a-z]+", low))  # Same-Store
            cut = end if cut is None and ours else cut  # Hong Kong Revenue: the metric's word
            end = word.end()
        # a body's head word ends a name whatever words of the profile's stand in it
        if cut is not None and _HEAD_EN.search(question, at, end) is None:
            end = cut  # Shanghai Pudong Development Bank: a name; Hong Kong Revenue: none
    if end == at:
        lower = _LOWER_HEAD.match(question, at)
        words = lower.group("words").split() if lower else []
        if lower is None or any(w.lower() in COMMON_EN for w in words):
            return None  # Hong Kong and the union, Hong Kong store union: no name
        end = lower.end()
    if _STORE_AFTER.match(question, end):
        return None  # our Beijing Anzhen store: a store's name, a place of the company's own
    return folded_span(index, at, end)[1]


def _latin_words(profile: DomainProfile) -> frozenset[str]:
    """Every English word of the profile's terms (profit in net profit), and the common ones."""

    def build() -> frozenset[str]:
        words = {
            w
            for kind, term in glossary_for(profile).kinds
            if kind != "place"
            for w in re.findall(r"[a-z]+", term.lower())
        }
        return frozenset(words | COMMON_EN)

    return profile.memo("held_latin_words", build)


@lru_cache(maxsize=256)
def _word_ends(text: str) -> frozenset[int]:
    """Where a word of the sentence ends (jieba's reading): 银行 in 银行卡 ends none."""
    import rjieba

    return frozenset(e for _, _, e in rjieba.tokenize(text, "default", True))
