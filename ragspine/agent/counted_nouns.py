"""The counted noun is the WHOLE noun: 多少位店长 counts managers, not stores.

In a count question (多少/几 + classifier + noun, how many + noun) the thing counted is the whole
noun phrase written there, up to the clause's end, a particle, a verb or a word the profile reads
(a place, a period, an entity). A count's noun that is only the first part of it (店 in 店长,
店员; 门店 in 门店经理, 门店员工; store in store managers, store staff) names another kind of thing
(a person, a post), whose count is not the metric's: no match, and the decline names the whole
noun (「店长」, "store managers").

- Chinese: the segmenter's words read from the count's noun on. The noun is longer where the
  word holding it runs past it (店 → 店长), or where the words after it are nouns too (门店 经理).
  A count's own suffix (数, 数量, 总数, 人数) is its name, never another kind (门店总数).
- English: a noun modifying another stands in the singular before it (store managers, employee
  benefits; a count's head is plural: stores operate). A singular noun followed by a word that is
  not the count's own (a function word, a verb of the frame, a name the profile reads: does,
  in, ACME) is the first part of a longer noun.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

Span = tuple[int, int]

_CLAUSE_END = re.compile(r"[,，。?？!！;；:：]")
_COUNT_SUFFIX = re.compile(r"(?:总人数|人数|总数|数量|数目|家数|数)")
# jieba's noun tags (common, proper, organisation, idiom); not a place, a time or a person.
_NOUN_TAGS = frozenset({"n", "nz", "ng", "nt", "nl"})


def whole_noun_cjk(text: str, noun: Span, read: Sequence[Span]) -> int:
    """Where the whole noun that opens at ``noun`` ends (``noun``'s end when it is whole).
    ``read``: spans the profile reads (entities, periods, channels): they end the noun."""
    import rjieba

    start, end = noun
    stop = next((m.start() for m in _CLAUSE_END.finditer(text, end)), len(text))
    at, whole = start, end
    for word, tag in rjieba.tag(text[start:stop]):
        after = at + len(word)
        if any(s < after and at < e for s, e in read if s >= end):  # 香港, 2024年: read
            break
        if at < end:  # the word holding the count's noun: 店长 runs past 店
            extra = text[end:after]
            if after > end and tag in _NOUN_TAGS and not _COUNT_SUFFIX.fullmatch(extra):
                whole = after
        elif tag in _NOUN_TAGS and not _COUNT_SUFFIX.fullmatch(word):
            whole = after  # 门店 经理: a noun after the noun
        else:
            break
        at = after
    return whole


_WORD = re.compile(r"\s+([a-z][a-z'-]*)")


def whole_noun_en(text: str, noun: Span, plural: bool, own: Collection[str]) -> int:
    """Where the whole noun that opens at ``noun`` ends: past the words after a singular noun
    that are not the count's ``own`` (store managers), else ``noun``'s end."""
    whole = noun[1]
    if plural:
        return whole
    for _ in range(3):
        m = _WORD.match(text, whole)
        if m is None or m.group(1) in own:
            break
        whole = m.end()
    return whole
