"""Four-slot intent parsing and the clarification gateway. Zero LLM, config driven.

The rule parser masks competitor mentions first (so '竞安中国' can never read as ACME_CN), folds
the text (traditional, full-width, case), then reads metric / entity / period / channel from the
profile's glossary. ``clarify_scope`` then decides, in a fixed order: refuse, ask, assume, or go.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Protocol

from ragspine.agent.definitions import definition_term
from ragspine.agent.scope import OutOfScope, out_of_scope
from ragspine.agent.security_gate import SecurityGate
from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.glossary import AliasMatch, closest_metrics, glossary_for
from ragspine.profile.periods import FY, Period, find_periods, previous_period
from ragspine.text import fold

ROUTE_STRUCTURED = "structured"
ROUTE_NARRATIVE = "narrative"
ROUTE_COMPOSITE = "composite"
CLARIFY_OUT_OF_SCOPE_ENTITY = "out_of_scope_entity"
CLARIFY_ASK_FIRST = "ask_first"
CLARIFY_ANSWER_WITH_ASSUMPTIONS = "answer_with_assumptions"
CLARIFY_NONE = "none"

# A concept question (什么是在建工程, 收入是什么意思, 如何分析…): asked of no company and no
# period, it is answered from documents, never with the home company's figure.
_DEFINITION_CUES = re.compile(
    r"^什么是|什么叫|是什么意思|是指什么|指的是什么|的定义|的含义|如何分析|如何评估|如何计算|"
    r"怎么计算|怎样计算|如何理解|如何影响|怎样影响|有何影响|的关系|的区别|有何区别|不一致|"
    r"(?:可以|能够?|可能|会)\s*(?:是|为|出现)?\s*(?:负|零)(?:数|值|的)?|"
    r"^what (?:is|are) (?:a |an )?(?!the )|^what does .* mean|^define"
)
_NARRATIVE_CUES = re.compile(
    r"为什么|为何|原因|怎么回事|导致|归因|驱动|解释|分析|如何|怎样|怎么样|趋势|政策|规定|规范|合规|"
    r"战略|策略|计划|措施|风险|影响|背景|讨论|说明|指引|要求|评价|看法|规则|目标|流程|做法|决议|"
    r"决定|门槛|标准|制度|举措|机制|安排|进展|变化|邮箱|信箱|地址|网址|法定代表人|证券代码|股票代码|"
    r"介绍|情况(?!下)|概述|概况|简述|审计意见|"
    r"(?<![a-z])(?:opinion|audit\w*|overview|describe|introduc\w*)(?![a-z])|"
    r"(?<![a-z])(?:e-?mail|address|website|legal representative|stock code)(?![a-z])|"
    r"(?<![a-z])(?:why|reasons?|explain\w*|drivers?|drove|drive|caus\w*|trends?|strateg\w*|"
    r"polic\w*|guidelines?|outlook|risks?|impact\w*|background|how\s+did|how\s+does|how\s+do|"
    r"how\s+will|how\s+are|how\s+is|what\s+happened|what\s+drove|discuss\w*|summar\w*|"
    r"rules?|targets?|process\w*|approach\w*|plans?|requirements?|resol\w*|decid\w*|"
    r"decisions?|hurdles?|programm?e?s?|measures?|initiatives?|practices?|standards?)(?![a-z])"
)
# Text that names a slot the glossary does not know: said so, never replaced by a default.
_CODE_TOKEN = re.compile(r"(?<![a-z0-9_])[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9](?![a-z0-9_])")
# A metric name followed by 率 is a ratio the profile does not have (净利率 is not 净利).
_RATIO_SUFFIX = re.compile(r"\s*(?:的)?\s*(?:增长)?率|\s*(?:的)?\s*增速|\s*(?:的)?\s*增幅")
# "How much did it grow": one period named, the change from the one before is wanted.
_CHANGE_CUES = re.compile(
    r"(?:增长|增加|减少|下降|下滑|变化|变动|上升)了多少|同比(?:增长|变化|变动)?多少|"
    r"(?<![a-z])(?:by\s+how\s+much|how\s+much\s+did\b.*\b(?:grow|increase|fall|decline|drop|change|rise))"
)
_NUMERIC_CUES = re.compile(
    r"多少|几多|是几|有几|几家|几间|数值|金额|多大|"
    r"(?<![a-z])(?:what\s+is|what\s+was|what\s+were|what's|how\s+much|how\s+many|"
    r"how\s+big|value\s+of|figure)(?![a-z])"
)


@dataclass
class ParsedIntent:
    """Four slots (metric, entity, period, channel), their multi-value forms, and the route."""

    metric: str | None
    entity: str | None
    period: Period | None
    channel: str | None
    route: str
    raw_question: str
    metrics: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    periods: list[Period] = field(default_factory=list)
    channels: list[str] = field(default_factory=list)
    external_entity: str | None = None
    unrecognized: dict[str, str] = field(default_factory=dict)
    # A quarter or half the user wrote without a year, read as the latest complete one.
    assumed_period: Period | None = None
    # A line item the profile knows but holds no facts for (递延所得税负债): documents only.
    unsupported_term: str | None = None
    # A partner the user named: talked about from documents, never given facts.
    partner: str | None = None
    # A concept question's term (什么是在建工程 → 在建工程): answered only from a definition.
    definition: str | None = None

    @property
    def is_multi(self) -> bool:
        """The user explicitly listed several metrics, entities, periods or channels."""
        return any(len(v) > 1 for v in (self.metrics, self.entities, self.periods, self.channels))


class IntentParser(Protocol):
    """Any parser must fill ``raw_question``: the security gate re-screens it independently."""

    def parse(self, question: str, reference_date: date | None = None) -> ParsedIntent: ...


def parse_intent(
    question: str,
    reference_date: date | None = None,
    *,
    profile: DomainProfile | None = None,
) -> ParsedIntent:
    """Deterministic four-slot parse of a raw question."""
    prof = profile or default_profile()
    glossary = glossary_for(prof)
    ref = reference_date or date.today()
    screen = SecurityGate.for_profile(prof).detect(question)
    text = fold(screen.masked_text)
    metrics = _codes(
        m for m in glossary.metrics.find_all(text) if not _RATIO_SUFFIX.match(text, m.end)
    )
    entities = _codes(_qualified(glossary.entities.find_all(text)))
    channels = _codes(glossary.channels.find_all(text))
    others = {kind: code for kind, m in reversed(glossary.scan(text)) for code in [m.code]}
    unsupported = others.get("unsupported")
    partner = others.get("external")
    matches = find_periods(text, ref)
    periods = list(dict.fromkeys(pm.period for pm in matches if pm.period is not None))
    unrecognized = _unrecognized(text, prof)
    impossible = [pm.raw for pm in matches if pm.period is None]
    if impossible:
        unrecognized["period"] = impossible[0]
    assumed = next((pm.period for pm in matches if pm.year_assumed), None)
    if len(periods) == 1 and not impossible and _CHANGE_CUES.search(text):
        periods = [previous_period(periods[0]), periods[0]]
    metric = metrics[0] if metrics else None
    definition = None
    if _DEFINITION_CUES.search(text) and not (entities or periods):
        route = ROUTE_NARRATIVE  # 什么是营业收入: a concept, answered from documents
        definition = definition_term(question)
    elif partner or (unsupported and not metric):
        route = ROUTE_NARRATIVE  # no fact may answer: what the documents say, with sources
    elif metric and _NARRATIVE_CUES.search(text):
        route = ROUTE_COMPOSITE
    elif metric:
        route = ROUTE_STRUCTURED
    elif _NARRATIVE_CUES.search(text):
        route = ROUTE_NARRATIVE
    elif _NUMERIC_CUES.search(text):
        route = ROUTE_STRUCTURED
    else:
        route = ROUTE_NARRATIVE
    return ParsedIntent(
        metric=metric,
        entity=entities[0] if entities else None,
        period=periods[0] if periods else None,
        channel=channels[0] if channels else None,
        route=route,
        raw_question=question,
        metrics=metrics,
        entities=entities,
        periods=periods,
        channels=channels,
        external_entity=screen.external_entity,
        unrecognized=unrecognized,
        assumed_period=assumed,
        unsupported_term=unsupported,
        partner=partner,
        definition=definition,
    )


def _unrecognized(text: str, profile: DomainProfile) -> dict[str, str]:
    """An entity-shaped code or an impossible period the user wrote, kept verbatim."""
    found: dict[str, str] = {}
    known = {
        c.lower() for c in (*profile.entity_codes, *profile.metric_codes, *profile.channel_codes)
    }
    prefixes = {c.split("_")[0].lower() for c in profile.entity_codes if "_" in c}
    for m in _CODE_TOKEN.finditer(text):
        token = m.group()
        if token not in known and token.split("_")[0] in prefixes:
            found.setdefault("entity", token.upper())
    return found


def _qualified(matches: list[AliasMatch]) -> list[AliasMatch]:
    """'中国香港': a place written right before another names where it is, not a second entity."""
    return [
        m
        for i, m in enumerate(matches)
        if not (i + 1 < len(matches) and m.end == matches[i + 1].start)
    ]


def _codes(matches: Iterable[AliasMatch]) -> list[str]:
    return list(dict.fromkeys(m.code for m in matches))


class RuleIntentParser:
    """The default IntentParser: the rule parser bound to one profile."""

    def __init__(self, profile: DomainProfile | None = None) -> None:
        self.profile = profile or default_profile()

    def parse(self, question: str, reference_date: date | None = None) -> ParsedIntent:
        return parse_intent(question, reference_date, profile=self.profile)


@dataclass
class ClarificationResult:
    """What the gateway decided; ``question`` is the text shown when the flow stops here."""

    mode: str
    assumed_slots: dict[str, str] = field(default_factory=dict)
    assumption_note: str = ""
    narrowing_options: list[str] = field(default_factory=list)
    question: str = ""


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
    if beyond is not None:
        return ClarificationResult(
            mode=CLARIFY_OUT_OF_SCOPE_ENTITY,
            narrowing_options=[prof.home_company_name],
            question=_not_covered(beyond, prof),
        )
    # 2. A narrative question needs no slots.
    if intent.route == ROUTE_NARRATIVE:
        return ClarificationResult(mode=CLARIFY_NONE)
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
    # 4. No entity or period: assume the home entity / latest complete FY, and say so.
    assumed: dict[str, str] = {}
    notes: list[str] = []
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
    if assumed:
        narrow = f"(如需收窄:{' / '.join(shown)})" if shown else ""
        note = "【假设】" + ";".join(notes) + "。" + narrow
        return ClarificationResult(
            mode=CLARIFY_ANSWER_WITH_ASSUMPTIONS,
            assumed_slots=assumed,
            assumption_note=note,
            narrowing_options=options,
        )
    return ClarificationResult(mode=CLARIFY_NONE)
