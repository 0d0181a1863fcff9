"""A near-miss spelling of a metric's name: one wrong character in a Chinese name of three or
more characters (净力润 for 净利润, 营业成夲 for 营业成本) reads as that name.

Bounded so that another word is never read as a metric:
- only a run of Chinese characters that no known word covers, as long as the name, standing
  as a word (the text's edge, a known word, or a function character such as 的 or 是 on each
  side: 营业时间 is not 营业额 misspelt); a slip at either end of the run must leave no known
  word behind (门店赚 is 门店 and 赚, not 门店数);
- the one character that differs is one no known term is written with (a slip of the pen, not
  a real term's morpheme: 税后利润 is not 税前利润, since 后 is written in other terms; by the
  same rule 营业收人 is not corrected, 人 being a character of 人均);
- exactly one known word (a metric, an entity, a shipped quantity, a term the profile declares
  unsupported) is one substitution away: two are ambiguous (总利润: 净利润 or 毛利润?) and
  nothing is read; the one found must name a quantity, not an entity.
The text keeps its length, so every span into the question stays valid.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragspine.profile import DomainProfile
from ragspine.profile.glossary import glossary_for

_SHORTEST = 3
# Characters a question writes around a name (and never a slip for a term's character).
_FUNCTION = frozenset("的在和与及对从到于请问是了把将给向为有年月日季度就跟多少几么什哪呢吗共总")
_QUANTITY_KINDS = ("metrics", "quantity", "unsupported")


@dataclass(frozen=True)
class _Table:
    keys: dict[str, frozenset[str]]  # a word with one character masked → the words it is
    chars: frozenset[str]  # every character a known word is written with
    lengths: tuple[int, ...]  # longest first
    quantities: frozenset[str]  # the words that name a quantity
    words: frozenset[str]  # every known word


def corrected(text: str, profile: DomainProfile) -> str:
    """``text`` (folded) with each near-miss of a metric's name written as the name."""
    table: _Table = profile.memo("near_miss_table", lambda: _build(profile))
    # A slip is a character no known word is written with: a window holding none has no
    # correction, and most questions hold none at all (their scan is then skipped).
    slips = [0]
    for c in text:
        slips.append(slips[-1] + (_cjk(c) and c not in table.chars and c not in _FUNCTION))
    if not slips[-1]:
        return text
    covered = {i for _, m in glossary_for(profile).scan(text) for i in range(m.start, m.end)}
    chars = list(text)
    for length in table.lengths:
        for start in range(len(chars) - length + 1):
            if slips[start + length] == slips[start]:
                continue
            span = range(start, start + length)
            window = "".join(chars[start : start + length])
            if any(i in covered for i in span) or not all(_cjk(c) for c in window):
                continue
            if not (_bound(chars, start - 1, covered) and _bound(chars, start + length, covered)):
                continue  # 营业时间: a longer word, not 营业额 misspelt
            hits: set[str] = set()
            for i, c in enumerate(window):
                rest = window[1:] if i == 0 else window[:-1] if i == length - 1 else ""
                if c not in table.chars and c not in _FUNCTION and rest not in table.words:
                    hits |= table.keys.get(_masked(window, i), frozenset())
            if len(hits) == 1 and (word := hits.pop()) in table.quantities:
                chars[start : start + length] = list(word)
                covered.update(span)
    return "".join(chars)


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


def _masked(word: str, at: int) -> str:
    return f"{word[:at]}\x00{word[at + 1 :]}"


def _cjk(c: str) -> bool:
    return "\u4e00" <= c <= "\u9fff"
