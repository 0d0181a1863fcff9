"""The clarification gateway: refuse, decline, ask, assume or go, in a fixed order.

Nothing here reads model output. A decline names what cannot be given, in the question's
language, and gives no number: another company (scope.py), a name the profile does not know
(subjects.py: 深圳, Project Falcon), a quantity the fact table does not hold (quantity.py:
库存周转率, 同店销售额). ``ClarificationResult.declined`` carries that name and
``decline_kind`` says which (``company``, ``ranking``, ``subject``, ``quantity``): the trace
records the kind as ``declined=<kind>``, never the name.
"""

from __future__ import annotations

from datetime import date

from ragspine.agent.breakdowns import breakdown_asked
from ragspine.agent.names import entity_name, home_name, metric_name
from ragspine.agent.scope import OutOfScope, out_of_scope
from ragspine.agent.security_gate import SecurityGate
from ragspine.agent.slots import (
    CLARIFY_ANSWER_WITH_ASSUMPTIONS,
    CLARIFY_ASK_FIRST,
    CLARIFY_NONE,
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ROUTE_NARRATIVE,
    ClarificationResult,
    ParsedIntent,
)
from ragspine.agent.wording import Language, joined, language_of, say
from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.glossary import closest_metrics
from ragspine.profile.periods import FY, Period
from ragspine.text import fold

DECLINED_QUANTITY, DECLINED_SUBJECT = "quantity", "subject"


def _not_covered(beyond: OutOfScope, prof: DomainProfile, lang: Language) -> str:
    home = home_name(prof, lang)
    if beyond.kind == "ranking":
        return say("not_covered.ranking", lang, home=home)
    return say("not_covered", lang, name=beyond.name, home=home)


def _names(codes: list[str], prof: DomainProfile, lang: Language) -> str:
    names = [metric_name(c, prof, lang) for c in codes if prof.any_metric(c)]
    more = len(prof.metric_codes) > len(codes)
    return joined(names, lang) + (say("list.more", lang) if more else "")


def declined_quantity(name: str, lang: Language, prof: DomainProfile, closest: list[str]) -> str:
    """「库存周转率」不在事实表中: the quantity by its name, no number, what may be asked."""
    home = home_name(prof, lang)
    return say("declined.quantity", lang, name=name, home=home, names=_names(closest, prof, lang))


def declined_line(name: str, lang: Language) -> str:
    """One line naming a quantity not held, beside the figures that are."""
    return say("declined.line", lang, name=name)


def _unknown_subject(name: str, lang: Language, prof: DomainProfile) -> str:
    """「深圳」is not an entity of the fact table: declined by name, never its parent's figure."""
    shown = joined([entity_name(e.code, prof, lang) for e in prof.entities], lang)
    home = entity_name(prof.home_entity_code, prof, lang)
    return say("unknown_subject", lang, name=name, shown=shown, home=home)


def _unranked(words: str, lang: Language, prof: DomainProfile) -> str:
    """「哪个地区的收入最高」cannot be ranked, 「各地区」not broken down: the fact table holds
    the company alone."""
    key = "unbroken" if breakdown_asked(fold(words)) else "unranked"
    return say(key, lang, words=words, home=entity_name(prof.home_entity_code, prof, lang))


def described_declined(words: str, prof: DomainProfile, lang: Language) -> str:
    """「最大客户」cannot be told: no held figure picks it; no figure, never the company's."""
    names = joined([entity_name(e.code, prof, lang) for e in prof.entities], lang)
    return say("described.declined", lang, words=words, shown=names, home=home_name(prof, lang))


def latest_complete_fiscal_year(reference_date: date) -> Period:
    return Period(FY, str(reference_date.year - 1))


def assumed_year(
    metric: str | None, ref: date, prof: DomainProfile
) -> tuple[Period, list[str] | None]:
    """The latest complete fiscal year, or, when the profile says which years hold data, the
    latest of those up to it: never a year the fact table cannot have."""
    latest = latest_complete_fiscal_year(ref)
    covered = prof.coverage_of(metric) if metric else prof.coverage
    if covered is None:
        return latest, None
    years = sorted(
        (Period(FY, label[2:]) for label in covered if label.startswith("FY")),
        key=lambda p: p.year,
    )
    usable = [p for p in years if p.year <= latest.year]
    return (usable[-1] if usable else latest), [p.label for p in years]


def clarify_scope(
    intent: ParsedIntent,
    reference_date: date | None = None,
    *,
    profile: DomainProfile | None = None,
) -> ClarificationResult:
    """Refuse, ask, assume or go, checked in exactly this order."""
    prof = profile or default_profile()
    ref = reference_date or date.today()
    lang = language_of(intent.raw_question)
    # 1. Refuse: re-screen the raw question itself, never the parser's external_entity.
    verdict = SecurityGate.for_profile(prof).screen(
        raw_question=intent.raw_question, metric=intent.metric
    )
    if verdict.refused:
        return ClarificationResult(
            mode=CLARIFY_OUT_OF_SCOPE_ENTITY,
            narrowing_options=list(verdict.narrowing_options),
            question=verdict.message,
        )
    # 1b. Another company, or a ranking across companies: never the home company's number.
    beyond = out_of_scope(intent.raw_question, prof)
    subject = intent.unknown_subject
    named = next((s.name for s in intent.subjects if beyond and beyond.name in s.name), None)
    if beyond is not None and named and intent.route != ROUTE_NARRATIVE:
        subject = (
            named  # 猎鹰计划2024年的收入, 内蒙古的收入: a programme, a place, declined as such
        )
        beyond = None
    if beyond is not None:
        return ClarificationResult(
            mode=CLARIFY_OUT_OF_SCOPE_ENTITY,
            narrowing_options=[prof.home_company_name],
            question=_not_covered(beyond, prof, lang),
            declined=beyond.name,
            decline_kind=beyond.kind,
        )
    # 1c. A rank of the company's parts where the profile holds none: nothing to rank.
    if intent.unranked is not None:
        return ClarificationResult(
            mode=CLARIFY_OUT_OF_SCOPE_ENTITY,
            narrowing_options=[prof.home_entity_code],
            question=_unranked(intent.unranked, lang, prof),
            declined=intent.unranked,
            decline_kind="ranking",
        )
    # 1d. An entity described by no held criterion (表现最好的市场, its biggest customer).
    described = intent.described
    if described is not None and described.criterion is None:
        return ClarificationResult(
            mode=CLARIFY_OUT_OF_SCOPE_ENTITY,
            narrowing_options=[prof.home_entity_code],
            question=described_declined(described.words, prof, lang),
            declined=described.words,
            decline_kind=DECLINED_SUBJECT,
        )
    # 2. A narrative question needs no slots.
    if intent.route == ROUTE_NARRATIVE:
        return ClarificationResult(mode=CLARIFY_NONE)
    # 2b. A name the profile does not know, where an entity stands: declined by that name.
    if subject is not None:
        return ClarificationResult(
            mode=CLARIFY_OUT_OF_SCOPE_ENTITY,
            narrowing_options=list(prof.entity_codes),
            question=_unknown_subject(subject, lang, prof),
            declined=subject,
            decline_kind=DECLINED_SUBJECT,
        )
    # 3a. A quantity the fact table does not hold (库存周转率): said so by its name.
    if intent.declined is not None and intent.metric is None:
        closest = closest_metrics(intent.raw_question, prof)
        return ClarificationResult(
            mode=CLARIFY_ASK_FIRST,
            narrowing_options=closest,
            question=declined_quantity(intent.declined, lang, prof, closest),
            declined=intent.declined,
            decline_kind=DECLINED_QUANTITY,
        )
    # 3. No metric: guessing which number would be a substantive error, so ask.
    if intent.metric is None:
        closest = closest_metrics(intent.raw_question, prof)
        return ClarificationResult(
            mode=CLARIFY_ASK_FIRST,
            narrowing_options=closest,
            question=say("ask_metric", lang, names=_names(closest, prof, lang)),
        )
    # 4. No entity or period: assume the home entity / latest complete FY, and say so; a word
    # read as the name it misspells is an assumption too (按「毛利率」理解「毛利律」).
    assumed: dict[str, str] = {}
    notes = [say("read_as", lang, written=w, read=r) for w, r in intent.corrections]
    options: list[str] = []  # codes and labels, for --json
    shown: list[str] = []  # the same, as the answer names them
    picked = intent.described is not None  # the fastest-growing market: no entity assumed
    if intent.entity is None and "entity" not in intent.unrecognized and not picked:
        home = prof.entity(prof.home_entity_code)
        assumed["entity"] = home.code
        notes.append(say("assumed.entity", lang, home=home_name(prof, lang)))
        others = [e for e in prof.entities if e.code != home.code]
        options += [e.code for e in others]
        shown += [entity_name(e.code, prof, lang) for e in others]
    if intent.period is None and "period" not in intent.unrecognized:
        latest, years = assumed_year(intent.metric, ref, prof)
        assumed["period"] = latest.label
        covered = "assumed.period.covered" if years is not None else "assumed.period.latest"
        notes.append(say(covered, lang, period=latest.label))
        earlier = [Period(FY, str(latest.year - k)).label for k in (1, 2)]
        earlier = [p for p in earlier if years is None or p in years]
        options += earlier
        shown += earlier
    elif intent.assumed_period is not None:
        p = intent.assumed_period
        assumed["period"] = p.label
        notes.append(say("assumed.year", lang, period=p.label))
        options.append(p.label.replace(str(p.year), str(p.year - 1)))
        shown.append(options[-1])
    if notes:
        narrow = say("assumed.narrow", lang, options=" / ".join(shown)) if shown else ""
        said = say("assumed.sep", lang).join(notes)
        note = say("assumed", lang, notes=said[:1].upper() + said[1:], narrow=narrow)
        return ClarificationResult(
            mode=CLARIFY_ANSWER_WITH_ASSUMPTIONS,
            assumed_slots=assumed,
            assumption_note=note,
            narrowing_options=options,
        )
    return ClarificationResult(mode=CLARIFY_NONE)
