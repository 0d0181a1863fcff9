"""A content word glued to a matched metric or entity that no reading explains.

The lists in ``unexplained.py`` name the modifiers known to change a metric (average, deferred,
target, ...). Phrasings are endless, so this module states the general promise instead: a word
written *inside* the noun phrase of a matched metric or entity — right before it, or right after
it — that nothing the parser read explains (not a period, an entity, a channel, a metric, a
change or growth cue, a known modifier) and that is not a function word or a known harmless word
makes the phrase another quantity or another subject:

- beside a metric (English): ``turnover rent`` is a rent, ``direct sales`` one channel's sales,
  never the company's revenue: decline naming the whole phrase, the question's words;
- beside an entity (English): ``Greater China`` (a capitalised word before a place) or
  ``sea freight`` (a noun after a place's alias) is another subject: an unknown subject named
  whole, never the entity's figure;
- a question that asks *who* (who, whom, 谁) asks a person, never a figure: the metric's words
  (GM, the general manager) are that person's title, declined as a subject.

Harmless beside a metric, measured on evals/meaning, evals/meaning_fresh* and the shipped golden
suites: function words and auxiliaries (was, did, in, of), words that say what of the figure is
shown (figure, number, amount, total, level, data, trend), the report's own basis (reported,
consolidated, total, overall, annual), and verbs that ask how it moved or stood (grow, fall, reach,
come, stand), a rank asked (highest, top), inflected verbs (-ed, -ing) and verbs a metric is the
subject or object of (exceed, sell): a clause, not a name. A word right after a name the parser read
(the ACME app revenue) is that name's word, read by ``subject_residue``; after a possessive (Jinyu's
direct sales) it is ours. Chinese is not read here: its words are not spaced, and the qualifier
rules (``subject_residue``) read the characters glued before a metric.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.agent.intent_text import original_words
from ragspine.agent.subjects import Subject
from ragspine.profile.glossary import AliasMatch
from ragspine.profile.model import compact

Span = tuple[int, int]


def _words(listed: str) -> frozenset[str]:
    return frozenset(listed.split())


_WORD = r"[a-z][a-z&]*(?:-[a-z]+)*"
# A whole word only: never the tail of a code (ACME_KR) or a number (FY2024).
_BEFORE = re.compile(rf"(?<![\w'’-])({_WORD})\s+$")
_AFTER = re.compile(rf"\s+({_WORD})(?![\w'’-])")

# Function words, auxiliaries, question words: they carry no quantity of their own.
_FUNCTION = _words(
    """
    a an the this that these those its it their his her our my your whose which what how who
    whom when where why much many and or but nor as at by for from in into of on onto over
    per than to under up upon via with within without about above across after against along
    among around before behind below beneath beside besides between beyond during except
    inside like near off out outside since through throughout till toward towards until is
    are was were be been being am do does did done have has had having will would shall
    should can could may might must not no yes so then there here if whether also only just
    still even ever all any both each either every few more most other some such same own
    very too quite rather please tell show give me us we i you they them he she one ones s t
    versus vs
    """
)
# What of a metric's figure the question asks to see, or the basis the report itself states.
_HARMLESS = _words(
    """
    figure figures number numbers amount amounts total totals level levels value values data balance
    balances
    result results trend trends performance line item items metric metrics reported
    consolidated overall annual yearly full-year full year fiscal financial company
    company's group group's business business's firm whole entire approximately roughly
    about exactly actual actually exact precise latest last recent current previous prior
    comparable respective respectively grow grew grown growing fall fell fallen falling rise
    rose risen rising drop dropped decline declined declining increase increased increasing
    decrease decreased change changed changing come came reach reached stand stood amount
    amounted total totalled totaled look looked end ended close closed compare compared
    compares go went move moved turn turned hit land landed sit sat book booked post posted
    record recorded report generate generated earn earned make made bring brought achieve
    achieved deliver delivered register registered see saw perform performed improve
    improved expand expanded shrink shrank contract contracted slip slipped climb climbed
    jump jumped surge surged evolve evolved develop developed trend trended compared yoy
    y-o-y year-on-year year-over-year growth margin margins ratio rate
    attributable
    """
)  # attributable (to Hong Kong): whose figure; to minority interests is a line (line_qualifiers)
# A rank asked of the metric (the highest revenue): read by ``ranks``, no other quantity.
_RANKS = _words("highest lowest largest smallest biggest best worst top greatest least")
# Verbs a metric is the subject or object of: a clause, not a word of the metric's name.
_VERBS = _words(
    """
    exceed exceeds outpace outpaces surpass surpasses beat beats lag lags trail trails top
    tops match matches equal equals cover covers represent represents account accounts
    contribute contributes sell sells sold earn earns make makes bring brings generate
    generates
    """
)
_WHO = re.compile(r"(?<![a-z])(?:who|whom)(?![a-z])|谁")
_CAPITALISED = re.compile(r"[A-Z][a-z]+")


def _covered(span: Span, taken: Sequence[Span]) -> bool:
    return any(s < span[1] and span[0] < e for s, e in taken)


def _after_name(text: str, at: int, explained: Sequence[Span]) -> bool:
    """The word follows a name the parser read, not its possessive (the ACME app revenue: the
    name's own word, read by ``subject_residue``; Jinyu's direct sales: the owner, then ours)."""
    prev = text[:at].rstrip()
    return any(e == len(prev) for _, e in explained) and not re.search(r"['’]s$", prev)


def _stray(word: str) -> bool:
    """A content word: no function word, no harmless or verb word, no inflected verb (-ed,
    -ing: revenue edged up, growing sales)."""
    known = word in _FUNCTION or word in _HARMLESS or word in _VERBS or word in _RANKS
    return not known and not re.search(r"(?:ed|ing)$", word)


def stray_metric_phrase(
    text: str, metric_spans: Sequence[Span], explained: Sequence[Span]
) -> Span | None:
    """The phrase to decline when a content word nothing explains is glued to a metric's words
    (English): the metric's words with that word, e.g. ``turnover rent``, ``direct sales``."""
    taken = [*metric_spans, *explained]
    for start, end in metric_spans:
        if not re.search(r"[a-z]", text[start:end]) or text[start:end] in _VERBS:
            continue  # a Chinese metric (its glued characters are read elsewhere), or a verb
        before = _BEFORE.search(text, 0, start)
        named = before and _after_name(text, before.start(1), explained)
        if before and not named and not _covered(before.span(1), taken) and _stray(before.group(1)):
            return before.start(1), end
        after = _AFTER.match(text, end)
        if after and not _covered(after.span(1), taken) and _stray(after.group(1)):
            return start, after.end(1)
    return None


def glued_entity(
    text: str,
    question: str,
    index: Sequence[int],
    entity_spans: Sequence[Span],
    explained: Sequence[Span],
) -> Span | None:
    """An English entity alias written inside another name: a capitalised word before it that
    nothing explains (Greater China), or a lower-case alias followed by a noun nothing explains
    (sea freight: the common noun, not the region). The span of the whole name, or None."""
    for start, end in entity_spans:
        if not re.fullmatch(r"[a-z][a-z .'’-]*", text[start:end]):
            continue
        before = _BEFORE.search(text, 0, start)
        if before and not _covered(before.span(1), explained) and _stray(before.group(1)):
            at = index[before.start(1)] if before.start(1) < len(index) else -1
            first = at == len(question) - len(question.lstrip())  # the sentence's first word
            if at >= 0 and _CAPITALISED.match(question, at) and not first:
                return before.start(1), end
        alias = question[index[start] : index[end - 1] + 1] if end <= len(index) else ""
        after = _AFTER.match(text, end)
        if (
            alias.islower()  # written as a common noun: sea, not SEA
            and after
            and not _covered(after.span(1), explained)
            and _stray(after.group(1))
        ):
            return start, after.end(1)
    return None


def glued_subject(
    text: str,
    index: Sequence[int],
    question: str,
    scan: Sequence[tuple[str, AliasMatch]],
    explained: Sequence[Span],
    spans: Sequence[tuple[str, int, int]],
) -> Subject | None:
    """The unknown subject a metric question names instead of a figure: a person asked (who is
    the GM: the metric's words are a title), or an entity's alias inside another name."""
    if _WHO.search(text) and spans:
        _, start, end = spans[0]
        return _subject(text, index, question, (start, end))
    found = glued_entity(text, question, index, spans_of(scan, "entities"), explained)
    return _subject(text, index, question, found) if found else None


def _subject(text: str, index: Sequence[int], question: str, span: Span) -> Subject:
    name = original_words(question, list(index), span)
    return Subject(name, compact(text[span[0] : span[1]]), span[0], span[1], True)


def spans_of(scan: Sequence[tuple[str, AliasMatch]], kind: str) -> list[Span]:
    """Where the scan read words of one kind (entities, metrics)."""
    return [(m.start, m.end) for k, m in scan if k == kind]
