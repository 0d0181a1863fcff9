"""The maximal noun phrase a decline names: the unexplained words are said with the name they
belong to, never as the fragment a reading found.

- **a proper name** (English): a declined phrase written in capitals inside a run of capitalised
  words is part of that name, said whole (the Inland Revenue Department, the Department of Inland
  Revenue: not "Inland Revenue"). Words in capitals join through "of", "and" and "&"; a question
  word, a function word, and a word the parser read (the company, an entity, a period) end it.
- **a qualifier in brackets after the metric** (毛利(扣除门店租金后), gross profit (after store
  rent)): a bracket qualifies the word before it as a modifier written before it would. Where any
  content word in it is read by nothing (no entity, period, metric, channel, change cue, unit or
  currency, frame word, nor the report's own basis: 不含税, consolidated), the quantity is another
  one: declined as the bracket's words with the
  metric's (扣除门店租金后的毛利; gross profit after store rent), never the metric's level, and the
  bracket's words are no subject (an entity) of their own. A gloss (即 …) is read in ``glosses``.
- **what is counted of an organisation** (門店網絡委員會由多少名成員組成, 研发中心由多少名工程师
  组成): an organisation named by its kind word (委员会, 中心, 协会 …) with two or more characters
  before it, unexplained, earlier in the clause than the counted words, owns them: the decline
  names both (門店網絡委員會成員), less a verb written after the counted noun (组成).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.agent.quantity import Reading
from ragspine.agent.subject_residue import frame_words
from ragspine.agent.subject_words import KIND_WORDS, OUTSIDE_HEADS_CJK
from ragspine.agent.subjects import Subject

Span = tuple[int, int]

# ---------------------------------------------------------------- proper names (English)
_CAPITAL = re.compile(r"[A-Z][A-Za-z&.-]*")
# Capitalised words that open a question or join a clause, never a name's.
_NOT_NAME = frozenset(
    (  # noqa: SIM905
        "what how which who whom whose when where why did does do is are was were will would "
        "could can should has have had the a an in on at for of to by from and or with as "
        "please tell give show"
    ).split()
)
_JOIN = re.compile(r" (?:of|and|&) ")


def proper_name(question: str, index: Sequence[int], span: Span, stops: Sequence[Span]) -> Span:
    """``span`` (in the folded text) widened to the capitalised proper name it stands in, in the
    question's own words; unchanged where its words are not all capitalised. ``stops``: folded
    spans of the words the parser read (the company, entities, periods)."""
    if re.search(r"[\u4e00-\u9fff]", question) or span[1] <= span[0] or span[1] > len(index):
        return span
    start, end = index[span[0]], index[span[1] - 1] + 1
    words = re.findall(r"[A-Za-z][A-Za-z&.'’-]*", question[start:end])
    if not words or not all(w[0].isupper() for w in words):
        return span
    read = {i for s, e in stops for i in range(index[s], index[e - 1] + 1) if e <= len(index)}

    def name_word(m: re.Match[str] | None) -> bool:
        if m is None or m.group().lower() in _NOT_NAME:
            return False
        return not any(i in read for i in range(*m.span()))

    while True:  # rightwards: " Department", " of Revenue"
        join = _JOIN.match(question, end)
        step = _CAPITAL.match(question, join.end() if join else end + 1)
        if question[end : end + 1] != " " or not name_word(step) or step is None:
            break
        end = step.end()
    while True:  # leftwards: "Department of " before "Inland"
        before = re.search(r"(?<![A-Za-z])([A-Z][A-Za-z&.-]*)( (?:of|and|&) | )$", question[:start])
        if before is None:
            break
        word = _CAPITAL.fullmatch(question, before.start(1), before.end(1))
        if not name_word(word):
            break
        start = before.start(1)
    first = next(i for i, at in enumerate(index) if at >= start)
    last = max(i for i, at in enumerate(index) if at < end)
    return first, last + 1


# ---------------------------------------------------------------- a bracketed qualifier
_OPEN, _CLOSE = "(（", ")）"
# Words a bracket may hold that say how the figure is written: a scale, a unit, a currency.
_UNIT = re.compile(
    r"单位|百万|千万|亿|万|千|元|美元|港元|港币|人民币|新台币|台币|币种|%|百分比|个百分点|"
    r"(?<![a-z])(?:usd|hkd|rmb|cny|twd|us\$|hk\$|\$|m|mn|bn|million|millions|billion|billions|"
    r"thousand|units?|percent|in)(?![a-z])"
)
# Words that state the report's own basis, which the held figure already is: revenue is stated
# net of VAT (不含税), the statements are consolidated and audited.
_BASIS = re.compile(
    r"不含(?:增值)?税|合并(?:口径|报表)?|报表口径|经审计|审计后|全年|"
    r"(?<![a-z])(?:excl(?:uding|\.)?\s+vat|ex-?vat|net\s+of\s+vat|reported|consolidated|audited|"
    r"total|overall|annual)(?![a-z])"
)
_CONTENT = re.compile(r"[\u4e00-\u9fff]{2,}|[a-z]{2,}")


def bracket_qualifier(
    text: str, metric_spans: Sequence[tuple[str, int, int]], read: Sequence[Span]
) -> tuple[Span, Span] | None:
    """(the metric's span, the bracket's inner span) of a bracket written right after a read
    metric whose content holds a word nothing in ``read`` explains, or None. ``read``: the spans
    the parser explained, the subjects it found apart (a bracket's words are no subject)."""
    for _, s, e in metric_spans:
        at = e
        while at < len(text) and text[at] == " ":
            at += 1
        if at >= len(text) or text[at] not in _OPEN:
            continue
        close = next((i for i in range(at + 1, len(text)) if text[i] in _CLOSE), None)
        if close is None or close == at + 1:
            continue
        inner = list(text[at + 1 : close])
        for a, b in read:
            for i in range(max(a, at + 1), min(b, close)):
                inner[i - at - 1] = " "
        rest = "".join(inner)
        rest = frame_words().sub(lambda m: " " * len(m.group()), rest)
        rest = _UNIT.sub(lambda m: " " * len(m.group()), rest)
        rest = _BASIS.sub(lambda m: " " * len(m.group()), rest)
        if _CONTENT.search(rest):
            return (s, e), (at + 1, close)
    return None


def bracket_name(question: str, index: Sequence[int], metric: Span, inner: Span) -> tuple[str, str]:
    """(zh, en) name of a metric qualified by its bracket: 扣除门店租金后的毛利, gross profit
    after store rent (the question's own words)."""

    def words(span: Span) -> str:
        return question[index[span[0]] : index[span[1] - 1] + 1].strip()

    qualifier, head = words(inner), words(metric)
    zh = f"{qualifier}{'' if qualifier.endswith('的') else '的'}{head}"
    return zh, f"{head} {qualifier}"


# ---------------------------------------------------------------- an organisation's members
_KIND = re.compile(f"(?:{OUTSIDE_HEADS_CJK.pattern}|{KIND_WORDS.pattern})")
_CLAUSE_END = re.compile(r"[?？。!！;；,，]")


def organisation_before(text: str, found: Span, explained: Sequence[Span]) -> Span | None:
    """The organisation (its words and its kind word, 門店網絡委員會) written earlier in the
    clause than the counted words ``found``, none of it explained, or None."""
    start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, found[0])), default=0)
    taken = {i for s, e in explained for i in range(s, e)}
    for kind in _KIND.finditer(text, start, found[0]):
        at = kind.start()
        while at > start and "\u4e00" <= text[at - 1] <= "\u9fff" and at - 1 not in taken:
            at -= 1
        if kind.start() - at >= 2 and not any(i in taken for i in range(at, kind.end())):
            return at, kind.end()
    return None


def without_verb_after(text: str, span: Span) -> Span:
    """``span`` less the verbs written at its end (成员组成 → 成员): the counted noun."""
    import rjieba

    tags = rjieba.tag(text[span[0] : span[1]])
    end = span[1]
    for word, tag in reversed(tags):
        if not tag.startswith("v") or end - len(word) <= span[0]:
            break
        end -= len(word)
    return span[0], end


def decline_bracketed(
    question: str,
    text: str,
    index: Sequence[int],
    reading: Reading,
    explained: Sequence[Span],
    subjects: list[Subject],
) -> list[Subject]:
    """A metric qualified by a bracket nothing explains is declined by the whole phrase (the
    reading's metrics dropped); the subjects found inside the bracket are its words, no name."""
    if reading.declined is not None or not reading.metrics:
        return subjects
    named = {(s.start, s.end) for s in subjects}
    found = bracket_qualifier(text, reading.spans, [e for e in explained if e not in named])
    if found is None:
        return subjects
    metric, inner = found
    reading.declined, reading.metrics, reading.spans = (metric[0], inner[1] + 1), [], []
    reading.declined_name = bracket_name(question, index, metric, inner)
    return [s for s in subjects if not (inner[0] <= s.start < inner[1])]
