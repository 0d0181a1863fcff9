"""A word glossed in brackets (店效(即单店收入), store productivity (i.e. revenue per store)): the
gloss restates the word in terms the reader knows, so the question is read by the gloss.

The glossed word and the bracket's marks are blanked (spaces, the text's length kept), the gloss
is left to be read where it stands. A bracket is a gloss only when it opens with a word that says
so: 即 / 也就是 / 亦即 / 也即 / 就是; i.e. / ie / that is / namely. Any other bracket (a unit, an
abbreviation, a qualifier such as 扣除租金后) is left as written. The glossed word is the run of
letters written right before the bracket, back to the nearest 的 / 之, a period word (年 月 度),
a mark or another script, at most four CJK characters or two English words: a jargon term
(店效, 坪效, GMROI), not the clause before it.
"""

from __future__ import annotations

import re

_GLOSS = re.compile(
    r"(?P<word>(?:[\u4e00-\u9fff](?<![的之年月度])){1,4}|(?:[a-z][a-z-]*\s+)?[a-z][a-z-]*)"
    r"\s*(?P<open>[(（]\s*(?:即|也就是|亦即|也即|就是|i\.\s?e\.?,?|ie,?|that\s+is,?|namely)\s*:?\s*)"
    r"(?P<gloss>[^()（）]+?)\s*(?P<close>[)）])"
)


def without_glossed(text: str) -> str:
    """``text`` (folded) with each glossed word and its bracket's marks blanked. A text with no
    opening bracket holds no gloss: it is not searched (the search tries every position)."""
    if "(" not in text and "（" not in text:
        return text
    out = list(text)
    for m in _GLOSS.finditer(text):
        for name in ("word", "open", "close"):
            for i in range(*m.span(name)):
                out[i] = " "
    return "".join(out)
