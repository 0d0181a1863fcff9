"""A metric's name with a word changed is a variant of that metric, not a name of a part of the
business: same-branch sales growth, comparable-unit sales.

``subject_residue`` reads an unexplained word glued before the metric as the metric's owner
(app revenue: the ACME app). Where that word is itself a word of another quantity's name that
holds the metric's own words (same, of same-store sales growth, beside sales growth), the phrase
is that kind of quantity written another way: declined as a quantity the fact table does not
hold, by the whole phrase, never said to be an entity. English only: a Chinese qualifier shares
single characters with many names (会员 in 会员收入), too weak a sign.
"""

from __future__ import annotations

import re

from ragspine.agent.quantity import Reading
from ragspine.agent.subject_words import COMMON_EN
from ragspine.profile import DomainProfile
from ragspine.profile.glossary import glossary_for
from ragspine.text import fold

_WORD = re.compile(r"[a-z]+")
_KINDS = ("metrics", "quantity", "unsupported")


def metric_variant(
    text: str, span: tuple[int, int], metric: tuple[int, int], profile: DomainProfile
) -> bool:
    """Whether ``span`` of folded ``text`` (an unexplained qualifier glued before the metric at
    ``metric``, and the metric) is a variant of a quantity's name."""
    start, end = span
    if re.search(r"[\u4e00-\u9fff]", text) or not start < metric[0] <= end:
        return False
    between = text[start : metric[0]]
    if re.search(r"['’]s\s*$", between) or not between.endswith(" "):
        return False  # the app's revenue: owned, not compounded
    head = set(_WORD.findall(text[metric[0] : metric[1]]))
    own = set(_WORD.findall(between)) - head - COMMON_EN
    if not own or not head:
        return False
    names = _names(profile)
    return any(head <= words and own & words for words in names)


def _names(profile: DomainProfile) -> list[frozenset[str]]:
    """The words of every English name of a quantity the profile or the shipped list knows."""

    def build() -> list[frozenset[str]]:
        kinds = glossary_for(profile).kinds
        names = {fold(w) for k, w in kinds if k in _KINDS and w.isascii()}
        return [frozenset(_WORD.findall(n)) for n in names]

    return profile.memo("variant_names", build)


def read_as_variant(
    reading: Reading, span: tuple[int, int], text: str, prof: DomainProfile
) -> bool:
    """Where the qualifier ``span`` found before the metric makes a variant of a quantity's name,
    the reading declines that whole phrase as a quantity (and True): its metric is not asked."""
    if not reading.spans:
        return False
    metric = min((s, e) for _, s, e in reading.spans)
    if not metric_variant(text, span, metric, prof):
        return False
    reading.declined, reading.metrics, reading.spans = span, [], []
    return True
