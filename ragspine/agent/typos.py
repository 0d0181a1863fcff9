"""A near-miss spelling of a metric's name reads as that name, and says so: one wrong character
in a Chinese name of three or more characters (净力润 for 净利润, 营业成夲 for 营业成本, 毛利律
for 毛利率), one slip of the keyboard in an English word (revnue, proift: ``typos_en``). Each
correction is returned with where it was written, for the answer's 【假设】 note.

Bounded so that another word is never read as a metric:
- only a run of Chinese characters as long as the name, standing as a word (the text's edge,
  a known word, or a function character such as 的 or 是 on each side: 营业时间 is not 营业额
  misspelt), that is not itself a word of the glossary or of the Chinese dictionary; where its
  differing character is part of a dictionary word reaching past it and the rest of the run is
  whole words, the run is read as written (门店属于 is 门店 and 属于, not 门店数 misspelt, while
  营业收如是 is 营业收入: 营业收 is no whole word);
- the one character that differs is either
  - a slip of the pen: a character no known term is written with, in a run no known word
    covers (税后利润 is not 税前利润, since 后 is written in other terms; 人 of 营业收人 is
    not this ground's, being a character of 人均), and a slip at either end of the run leaves no
    known word behind (门店赚 is 门店 and 赚, not 门店数); or
  - a slip of the pinyin keyboard, a tighter ground: the same syllable, tones aside (律 for 率,
    点 for 店), where the known words it holds lie inside the run (毛利律 is 毛利率, not 毛利
    and 律); or
  - a slip of the eye, as tight: a character drawn like the name's (人 for 入, 末 for 未, 己
    for 已; a shipped table of such pairs), read whatever other terms the character is written
    in (营业收人 is 营业收入: 人 is in 人均, but no known word is 营业收人 or one such
    character away from it but 营业收入); or
  - a slip of the fingers: two neighbouring characters swapped (净润利 for 净利润), in a run
    no known word covers (one swap only: 润利净 is read as written);
- exactly one known word (a metric, an entity, a shipped quantity, a term the profile declares
  unsupported) is one substitution away on that ground: two are ambiguous (总利润: 净利润 or
  毛利润?) and nothing is read (毛利律 on the pen's ground: 毛利率 or 毛利润; on the pinyin's,
  only 毛利率 sounds the same); the one found must name a quantity, not an entity.
The Chinese reading keeps the text's length; an English one may not, so the text's index into
the question is returned with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ragspine.agent.parties import person_spans
from ragspine.agent.typos_en import english_slips
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import AliasMatch, glossary_for
from ragspine.text import CHAR_CACHE_SIZE

_SHORTEST = 3
# Characters a question writes around a name (and never a slip for a term's character).
_FUNCTION = frozenset("的在和与及对从到于请问是了把将给向为有年月日季度就跟多少几么什哪呢吗共总")
_QUANTITY_KINDS = ("metrics", "quantity", "unsupported")
_NAME_KINDS = ("entities", "external", "company")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
# Characters drawn alike, each pair a slip of the eye (or of handwriting recognition) in either
# direction: one stroke's length, a hook or a dot apart. Simplified forms (text is folded first).
_DRAWN_ALIKE = ("人入", "入八", "未末", "已己", "已巳", "己巳", "士土", "戊戌", "日曰", "折拆",
                "侯候", "券卷", "贷货", "汩汨", "祗祇", "拨拔")  # fmt: skip
_LOOKALIKE: dict[str, frozenset[str]] = {
    c: frozenset(p[1 - p.index(c)] for p in _DRAWN_ALIKE if c in p)
    for c in {c for p in _DRAWN_ALIKE for c in p}
}


@dataclass(frozen=True)
class Slip:
    """A word read as a known one: its span in the text as written, and the word read."""

    start: int
    end: int
    read: str


@dataclass(frozen=True)
class _Table:
    keys: dict[str, frozenset[str]]  # a word with one character masked → the words it is
    chars: frozenset[str]  # every character a known word is written with
    lengths: tuple[int, ...]  # longest first
    quantities: frozenset[str]  # the words that name a quantity
    words: frozenset[str]  # every known word


def corrected(
    text: str, index: list[int], profile: DomainProfile
) -> tuple[str, list[int], list[Slip]]:
    """``text`` (folded) with each near-miss of a metric's name written as the name, its index
    into the question, and the slips read (spans into ``text`` as given)."""
    text, slips = _chinese(text, profile)
    found = english_slips(text, profile) if any("a" <= c <= "z" for c in text) else []
    if not found:
        return text, index, slips
    out: list[str] = []
    mapped: list[int] = []
    at = 0
    for start, end, word in found:  # each letter of the word read stands where the slip stood
        out.append(text[at:start] + word)
        mapped += index[at:start]
        mapped += [index[start + min(i, end - start - 1)] for i in range(len(word))]
        at = end
    out.append(text[at:])
    mapped += index[at:]
    return "".join(out), mapped, [*slips, *(Slip(s, e, w) for s, e, w in found)]


def _chinese(text: str, profile: DomainProfile) -> tuple[str, list[Slip]]:
    table: _Table = profile.memo("near_miss_table", lambda: _build(profile))
    runs = [m.span() for m in _CJK_RUN.finditer(text)]
    if not runs:
        return text, []
    scan = glossary_for(profile).scan(text)
    matches = [m for _, m in scan]
    covered = {i for m in matches for i in range(m.start, m.end)}
    names = {m.start for k, m in scan if k in _NAME_KINDS}  # where a name the profile knows starts
    people = person_spans(text, matches)  # 员工王金宇: a person, not 员工数 misspelt
    # Counted up to each position: characters no known word is written with, and characters
    # neither a known word's nor a question's own (的, 是, 多少). A window holding none of the
    # latter is read as it is written, and most questions hold none at all (香港2024年收入是多少).
    strange, loose = [0], [0]
    for i, c in enumerate(text):
        strange.append(strange[-1] + (c not in table.chars))
        loose.append(loose[-1] + (_cjk(c) and c not in _FUNCTION and i not in covered))
    if not loose[-1]:
        return text, []
    chars = list(text)
    slips: list[Slip] = []
    for length in table.lengths:
        starts = [  # a window of loose characters, reaching at most one of no known word's
            s
            for a, b in runs
            for s in range(a, b - length + 1)
            if loose[s + length] != loose[s] and strange[s + length] - strange[s] <= 1
        ]
        for start in starts:
            end = start + length
            window = "".join(chars[start:end])
            if window in table.words:
                continue
            if not (_bound(chars, start - 1, covered) and _bound(chars, end, covered)):
                continue  # 营业时间: a longer word, not 营业额 misspelt
            if any(s < end and start < e for _, s, e in people):
                continue  # a person's name after a role word is no slip
            inside = [m for m in matches if _overlaps(m, start, end)]
            if any(m.start < start or m.end > end for m in inside):
                continue  # a known word running past the window: not this window's word
            if sum(m.end - m.start for m in inside) == length:
                continue  # known words end to end (香港收入): read as they are
            word = _read(window, table, bare=not inside)
            if word is None or word not in table.quantities or _dictionary_word(window):
                continue
            at = start + next(i for i in range(length) if window[i] != word[i])
            if at == end - 1 and end in names:
                continue  # 员工王|金宇: a character glued to a name runs into it, no slip
            if _as_written(text, at, start, end, covered):
                continue  # 门店属于: 门店 and 属于 as written, not 门店数 misspelt
            chars[start:end] = list(word)
            covered.update(range(start, end))
            matches = [m for m in matches if not _overlaps(m, start, end)]
            matches.append(AliasMatch(word, start, end))  # read: a known word from now on
            slips.append(Slip(start, end, word))
    return "".join(chars), slips


def _read(window: str, table: _Table, *, bare: bool) -> str | None:
    """The one known word ``window`` is a slip of: by pinyin, else (in a run no known word
    covers) by a character no term is written with."""
    sounds: set[str] = set()
    looks: set[str] = set()
    pen: set[str] = set()
    length = len(window)
    for i, c in enumerate(window):
        if c in _FUNCTION:
            continue
        near = table.keys.get(_masked(window, i), frozenset())
        sounds |= {w for w in near if _readings(w[i]) & _readings(c)}
        looks |= {w for w in near if w[i] in _LOOKALIKE.get(c, ())}
        rest = window[1:] if i == 0 else window[:-1] if i == length - 1 else ""
        if bare and c not in table.chars and rest not in table.words:
            pen |= near
    swapped = {w for w in _swaps(window) if w in table.words} if bare else set()
    for hits in (sounds, looks, pen, swapped):
        if len(hits) == 1:
            return next(iter(hits))
    return None


def _swaps(window: str) -> set[str]:
    """Every word ``window`` becomes with two neighbouring characters swapped."""
    out = set()
    for i in range(len(window) - 1):
        if window[i] != window[i + 1]:
            out.add(window[:i] + window[i + 1] + window[i] + window[i + 2 :])
    return out


def _overlaps(m: AliasMatch, start: int, end: int) -> bool:
    return m.start < end and start < m.end


def _build(profile: DomainProfile) -> _Table:
    glossary = glossary_for(profile)
    words = [w for w in glossary.words if len(w) >= _SHORTEST and all(_cjk(c) for c in w)]
    keys: dict[str, set[str]] = {}
    for w in words:
        for i in range(len(w)):
            keys.setdefault(_masked(w, i), set()).add(w)
    quantities = set()
    for w in words:
        scan = glossary.scan(w)
        if len(scan) == 1 and scan[0][0] in _QUANTITY_KINDS and scan[0][1].end == len(w):
            quantities.add(w)
    return _Table(
        {k: frozenset(v) for k, v in keys.items()},
        frozenset(c for w in glossary.words for c in w),
        tuple(sorted({len(w) for w in words}, reverse=True)),
        frozenset(quantities),
        frozenset(glossary.words),
    )


def _bound(chars: list[str], at: int, covered: set[int]) -> bool:
    """Whether a word may end (or start) beside ``at``: the text's edge, a character that is not
    Chinese, a known word, or a character a question puts around a name (的, 是, 多少)."""
    if at < 0 or at >= len(chars) or at in covered:
        return True
    return not _cjk(chars[at]) or chars[at] in _FUNCTION


@lru_cache(maxsize=CHAR_CACHE_SIZE)  # per character, bounded like folding's
def _readings(c: str) -> frozenset[str]:
    """Every pinyin syllable of a character, tones aside (率: lv, shuai)."""
    from pypinyin import Style, pinyin

    return frozenset(pinyin(c, style=Style.NORMAL, heteronym=True)[0])


def _dictionary_word(window: str) -> bool:
    """A word of the Chinese dictionary (营业时间, 市盈率) is no slip, whatever it sounds like."""
    import rjieba

    return bool(rjieba.has_word(window))


def _as_written(text: str, at: int, start: int, end: int, covered: set[int]) -> bool:
    """Whether the run reads as whole words as written: its differing character in a dictionary
    word of the sentence reaching past the run (属于 after 门店), the rest of the run known words
    or dictionary words of two characters or more (门店; not 营业收 of 营业收如是)."""
    import rjieba

    words = [(s, e) for _, s, e in rjieba.tokenize(text, "default", False)]
    joined = next((range(s, e) for s, e in words if s <= at < e and e - s > 1), range(0))
    if not joined or (joined.start >= start and joined.stop <= end):
        return False
    rest = [i for i in range(start, end) if i not in joined]
    whole = {i for s, e in words if e - s > 1 and start <= s and e <= end for i in range(s, e)}
    return all(i in covered or i in whole for i in rest)


def _masked(word: str, at: int) -> str:
    return f"{word[:at]}\x00{word[at + 1 :]}"


def _cjk(c: str) -> bool:
    return "\u4e00" <= c <= "\u9fff"
