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
from ragspine.agent.subjects import in_english
from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.glossary import closest_metrics
from ragspine.profile.periods import FY, Period

DECLINED_QUANTITY, DECLINED_SUBJECT = "quantity", "subject"


def _not_covered(beyond: OutOfScope, prof: DomainProfile) -> str:
    home = prof.home_company_name
    if beyond.kind == "ranking":
        return (
            f"跨公司的排名或比较不在本系统范围内:RAGSpine 只覆盖{home}的数据与文档。"
            "为避免误导,不提供任何数字。"
        )
    return (
        f"「{beyond.name}」不在本系统的覆盖范围内:RAGSpine 只覆盖{home}的数据与文档,"
        f"不会用{home}的数字代替。为避免误导,不提供任何数字。"
    )


def _names(codes: list[str], prof: DomainProfile, english: bool) -> str:
    specs = [prof.any_metric(c) for c in codes]
    names = [(s.name_en or s.display_name) if english else s.display_name for s in specs if s]
    more = len(prof.metric_codes) > len(codes)
    if english:
        return ", ".join(names) + (" and others" if more else "")
    return "、".join(names) + ("等" if more else "")


def declined_quantity(name: str, question: str, prof: DomainProfile, closest: list[str]) -> str:
    """「库存周转率」不在事实表中: the quantity by its name, no number, what may be asked."""
    if in_english(question):
        return (
            f"“{name}” is not in the fact table: {prof.home_company_name} holds no figure for "
            "it, and no other metric's figure is given in its place. No number is given, to "
            f"avoid misleading. Metrics that can be asked about: {_names(closest, prof, True)}."
        )
    return (
        f"「{name}」不在事实表中:没有这个指标的数据,也不会用其他指标的数字代替。"
        f"为避免误导,不提供任何数字。可查询的指标如:{_names(closest, prof, False)}。"
    )


def declined_line(name: str, question: str) -> str:
    """One line naming a quantity not held, beside the figures that are."""
    if in_english(question):
        return f"“{name}” is not in the fact table: no figure is given for it."
    return f"「{name}」不在事实表中,不提供其数字。"


def _unknown_subject(name: str, question: str, prof: DomainProfile) -> str:
    """「深圳」is not an entity of the fact table: declined by name, never its parent's figure."""
    home = prof.entity(prof.home_entity_code)
    if in_english(question):
        shown = ", ".join(e.name_en or e.display_name for e in prof.entities)
        return (
            f"“{name}” is not an entity in the fact table, which holds figures for {shown} "
            f"only; the figure of {home.name_en or home.display_name} or of another entity is "
            "not given in its place. No number is given, to avoid misleading."
        )
    shown = "、".join(e.display_name for e in prof.entities)
    return (
        f"「{name}」不是事实表中的实体:事实表只有{shown}的数据,不会用{home.display_name}或其他"
        "实体的数字代替。为避免误导,不提供任何数字。"
    )


def _unranked(words: str, question: str, prof: DomainProfile) -> str:
    """「哪个地区的收入最高」cannot be ranked: the fact table holds the company alone."""
    home = prof.entity(prof.home_entity_code)
    if in_english(question):
        return (
            f"“{words}” cannot be ranked: the fact table holds figures for "
            f"{home.name_en or home.display_name} as a whole only, no part of it to compare, and "
            "the company's own figure is not given in its place. No number is given, to avoid "
            "misleading."
        )
    return (
        f"「{words}」无法排名:事实表只有{home.display_name}整体的数据,没有可比较的各部分数字,"
        f"不会用{home.display_name}本身的数字代替。为避免误导,不提供任何数字。"
    )


def _read_as(written: str, read: str, question: str) -> str:
    """A misspelt word read as a known name, said in the question's language."""
    if in_english(question):
        return f"read “{written}” as “{read}”"
    return f"按「{read}」理解「{written}」"


def latest_complete_fiscal_year(reference_date: date) -> Period:
    return Period(FY, str(reference_date.year - 1))


def _assumed_year(
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
            question=_not_covered(beyond, prof),
            declined=beyond.name,
            decline_kind=beyond.kind,
        )
    # 1c. A rank of the company's parts where the profile holds none: nothing to rank.
    if intent.unranked is not None:
        return ClarificationResult(
            mode=CLARIFY_OUT_OF_SCOPE_ENTITY,
            narrowing_options=[prof.home_entity_code],
            question=_unranked(intent.unranked, intent.raw_question, prof),
            declined=intent.unranked,
            decline_kind="ranking",
        )
    # 2. A narrative question needs no slots.
    if intent.route == ROUTE_NARRATIVE:
        return ClarificationResult(mode=CLARIFY_NONE)
    # 2b. A name the profile does not know, where an entity stands: declined by that name.
    if subject is not None:
        return ClarificationResult(
            mode=CLARIFY_OUT_OF_SCOPE_ENTITY,
            narrowing_options=list(prof.entity_codes),
            question=_unknown_subject(subject, intent.raw_question, prof),
            declined=subject,
            decline_kind=DECLINED_SUBJECT,
        )
    # 3a. A quantity the fact table does not hold (库存周转率): said so by its name.
    if intent.declined is not None and intent.metric is None:
        closest = closest_metrics(intent.raw_question, prof)
        return ClarificationResult(
            mode=CLARIFY_ASK_FIRST,
            narrowing_options=closest,
            question=declined_quantity(intent.declined, intent.raw_question, prof, closest),
            declined=intent.declined,
            decline_kind=DECLINED_QUANTITY,
        )
    # 3. No metric: guessing which number would be a substantive error, so ask.
    if intent.metric is None:
        closest = closest_metrics(intent.raw_question, prof)
        names = "、".join(prof.any_metric(c).display_name for c in closest)  # type: ignore[union-attr]
        more = "等" if len(prof.metric_codes) > len(closest) else ""
        return ClarificationResult(
            mode=CLARIFY_ASK_FIRST,
            narrowing_options=closest,
            question=f"请问您想查询哪个指标?例如:{names}{more}。",
        )
    # 4. No entity or period: assume the home entity / latest complete FY, and say so; a word
    # read as the name it misspells is an assumption too (按「毛利率」理解「毛利律」).
    assumed: dict[str, str] = {}
    notes = [_read_as(written, read, intent.raw_question) for written, read in intent.corrections]
    options: list[str] = []  # codes and labels, for --json
    shown: list[str] = []  # the same, as the answer names them
    if intent.entity is None and "entity" not in intent.unrecognized:
        home = prof.entity(prof.home_entity_code)
        assumed["entity"] = home.code
        notes.append(f"未指明实体,按 {prof.home_company_name}口径")
        others = [e for e in prof.entities if e.code != home.code]
        options += [e.code for e in others]
        shown += [e.display_name for e in others]
    if intent.period is None and "period" not in intent.unrecognized:
        latest, years = _assumed_year(intent.metric, ref, prof)
        assumed["period"] = latest.label
        covered = "最近有数据的财年" if years is not None else "最近完整财年"
        notes.append(f"未指明期间,按{covered} {latest.label}")
        earlier = [Period(FY, str(latest.year - k)).label for k in (1, 2)]
        earlier = [p for p in earlier if years is None or p in years]
        options += earlier
        shown += earlier
    elif intent.assumed_period is not None:
        p = intent.assumed_period
        assumed["period"] = p.label
        notes.append(f"未指明年份,按最近已结束的 {p.label}")
        options.append(p.label.replace(str(p.year), str(p.year - 1)))
        shown.append(options[-1])
    if notes:
        narrow = f"(如需收窄:{' / '.join(shown)})" if shown else ""
        note = "【假设】" + ";".join(notes) + "。" + narrow
        return ClarificationResult(
            mode=CLARIFY_ANSWER_WITH_ASSUMPTIONS,
            assumed_slots=assumed,
            assumption_note=note,
            narrowing_options=options,
        )
    return ClarificationResult(mode=CLARIFY_NONE)
