"""Four-slot intent parsing and the clarification gateway. Zero LLM, config driven.

The rule parser masks competitor mentions first (so '竞安中国' can never read as ACME_CN), folds
the text (traditional, full-width, case), then reads metric / entity / period / channel from the
profile's glossary. ``clarify_scope`` then decides, in a fixed order: refuse, ask, assume, or go.
"""

from __future__ import annotations

import re
from datetime import date
from functools import partial

from ragspine.agent.anaphors import with_anaphors
from ragspine.agent.answer_forms import as_amount, without_form
from ragspine.agent.breakdowns import breakdown_asked
from ragspine.agent.change_cues import change_cues, entity_comparisons, metric_comparisons
from ragspine.agent.circumstances import without_circumstances
from ragspine.agent.claimed import claimed_rate, without_hearsay
from ragspine.agent.clarify import assumed_year, clarify_scope, latest_complete_fiscal_year
from ragspine.agent.colloquial import colloquial_matches
from ragspine.agent.counts import count_blocked, count_matches, net_additions, other_kinds
from ragspine.agent.courtesy import asked_part
from ragspine.agent.described import read_description
from ragspine.agent.elided import with_elided
from ragspine.agent.exclusions import decline_excluded, without_excluded
from ragspine.agent.glosses import without_glossed
from ragspine.agent.growth_of_growth import growth_of_growth, restated_growths
from ragspine.agent.initialisms import as_written
from ragspine.agent.intent_route import narrative_subjects, route_of
from ragspine.agent.intent_text import (
    base_of_growth,
    codes,
    folded,
    listed,
    original_words,
    possessed,
    qualified,
    unrecognized_codes,
    without_periods,
    words_at,
)
from ragspine.agent.measure_words import without_measure_word
from ragspine.agent.modifiers import (
    how_fast,
    per_anywhere,
    points_asked,
    rate_asked,
    yoy_how_much,
)
from ragspine.agent.other_measures import decline_other_measure
from ragspine.agent.per_amount import per_amount_spans
from ragspine.agent.percent_asked import percent_of_levels
from ragspine.agent.period_extremes import extreme_words, period_rank
from ragspine.agent.period_spans import every_year, part_rank_words, parts_ranked, year_of_rank
from ragspine.agent.phrases import quantity_phrase
from ragspine.agent.quantity import read_quantities
from ragspine.agent.quantity_names import share_of_nothing
from ragspine.agent.question_cues import FIGURE_CUES, NARRATIVE_CUES
from ragspine.agent.ranks import parts, rank_asked, rank_words, unrankable
from ragspine.agent.report_text import share_subject
from ragspine.agent.residue_names import qualifier_subject
from ragspine.agent.rules import ruled_sentences, without_ruled
from ragspine.agent.scope import out_of_scope
from ragspine.agent.security_gate import SecurityGate
from ragspine.agent.self_corrections import without_retracted
from ragspine.agent.slots import (
    CLARIFY_ANSWER_WITH_ASSUMPTIONS,
    CLARIFY_ASK_FIRST,
    CLARIFY_NONE,
    CLARIFY_OUT_OF_SCOPE_ENTITY,
    ROUTE_COMPOSITE,
    ROUTE_NARRATIVE,
    ROUTE_STRUCTURED,
    ClarificationResult,
    IntentParser,
    ParsedIntent,
)
from ragspine.agent.span_masks import blanked
from ragspine.agent.stated_criteria import stated_criterion, without_stated
from ragspine.agent.stray_words import (
    glued_entity,
    glued_subject,
    spans_of,
    stray_metric_phrase,
)
from ragspine.agent.subjects import (
    COMPANY,
    Subject,
    declines,
    find_subjects,
    in_english,
    outside_persons,
)
from ragspine.agent.sums import with_sums
from ragspine.agent.thresholds import threshold_asked
from ragspine.agent.typos import corrected
from ragspine.agent.unexplained import entity_parts, premise_only, unexplained, unit_spans
from ragspine.agent.unnamed import unnamed_name
from ragspine.agent.unwanted import without_unwanted
from ragspine.agent.variants import read_as_variant
from ragspine.agent.whole_names import decline_bracketed, proper_name
from ragspine.agent.written_formulas import with_formulas
from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.glossary import glossary_for
from ragspine.profile.model import compact
from ragspine.profile.periods import find_periods, previous_period
from ragspine.profile.vocabulary import derived_shapes, quantity_name

# What stands before the whole of a share (占集团, of the group's): the whole is no owner.
_WHOLE_BEFORE = re.compile(r"(?:占|(?<![a-z])of\s+(?:the\s+)?)\s*$")


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
    # Hi …, Many thanks: no part asked; ,在内地访客回流的带动下,: why, never whose figure
    raw, question = question, without_circumstances(asked_part(question, prof))
    question = without_hearsay(question)  # 有人说…,这个说法对吗: the claim, not who made it
    screen = SecurityGate.for_profile(prof).detect(question)
    text, written = folded(screen.masked_text)
    text = without_glossed(text)  # 店效(即单店收入): read by the gloss
    text, index, slips = corrected(text, written, prof)  # 净力润, 毛利律, revnue: a slip
    text = without_retracted(text, ref, glossary)  # 去年,哦不对,是2023年: 2023 is asked
    text = without_unwanted(text, glossary)  # 不是同店那个, not the sales line: never asked
    text, amount = without_form(text)  # 只要金额,别给百分比: the change in money, not the rate
    read_as = [(original_words(question, written, (s.start, s.end)), s.read) for s in slips]
    scan = as_written(glossary.scan(text), text, question, index, prof)  # OP, never op / OPEN
    ranked_by = stated_criterion(text, scan, prof, spans_of(scan, "entities"))  # market by stores
    text, scan = without_stated(text, scan, ranked_by)  # how the market is ranked: not asked
    taken = [(m.start, m.end) for _, m in scan]
    counted: dict[tuple[int, int], str] = {}
    for kind, m in count_matches(text, prof):  # 有多少家门店, how many stores
        if not count_blocked(m, scan):
            scan.append((kind, m))
            counted[(m.start, m.end)] = m.code
    # 净增了多少家门店, net new stores: the held count's change, whatever a shipped phrase group
    # (净增门店数, only a name to decline by) says of the same words
    net = [(k, m) for k, m in net_additions(text, prof) if k == "metrics"]
    for _, m in net:
        scan = [
            (k, w) for k, w in scan if not (k == "quantity" and w.start < m.end and m.start < w.end)
        ]
    taken = [(m.start, m.end) for _, m in scan]
    for kind, m in net:
        if not any(s < m.end and m.start < e for s, e in [*taken, *counted]):
            scan.append((kind, m))
            counted[(m.start, m.end)] = m.code
    if not any(k in ("metrics", "quantity") for k, _ in scan):
        scan += colloquial_matches(text, prof)  # 卖了多少钱, 赚了多少: no metric word names it
    scan = with_sums(text, scan, prof)  # 销售、管理和财务费用合计: one quantity, the sum
    scan = with_elided(text, scan)  # 营业收入及其增长率: the level and its growth
    scan = with_formulas(text, scan, prof)  # (流动资产−存货)÷流动负债: the quick ratio
    scan = with_anaphors(text, scan)  # …的收入,再算一下这笔钱里线上占多少: the clause before's
    named = [(m.start, m.end) for k, m in scan if k in ("metrics", "quantity")]
    cues = change_cues(text, [(pm.start, pm.end) for pm in find_periods(text, ref)])
    cues += growth_of_growth(text)  # growth in revenue growth: how the growth moved, in points
    versus = entity_comparisons(text, [(m.start, m.end) for k, m in scan if k == "entities"])
    versus += metric_comparisons(text, scan)  # 毛利率比营业利润率高: two quantities, one period
    cues = [c for c in cues if not any(s <= c[0] < e for (s, e), _ in versus)]  # 比台湾多了多少
    points = points_asked(text)  # 比集团高几个百分点: two entities' levels, not a change
    points = None if points and any(s <= points.start() < e for (s, e), _ in versus) else points
    points = None if threshold_asked(text) else points  # 距离50%还有几个百分点: the level
    change = any(  # 同店销售增长是多少 names a metric; 收入增长是多少 asks how it moved
        not any(s <= c < e for s, e in named) for c, _ in cues
    )
    rate = rate_asked(text) or claimed_rate(text)  # 增长了百分之多少 / 增长了15%吗: a growth rate
    change = (change or bool(net) or points is not None) and rate is None
    subjects = find_subjects(question, text, index, scan, prof)
    per_amount = per_amount_spans(text)
    subjects = [s for s in subjects if not any(a <= s.start < b for a, b in per_amount)]
    scan = outside_persons(scan, subjects)  # 店长陈香港: 香港 is his name, not the entity
    home = prof.home_entity_code
    blocking = next((s for s in subjects if declines(s, scan, text, home)), None)
    scan, left_out = without_excluded(text, scan, prof, rank_asked(text) is not None)  # 不含线上
    # 猎鹰计划的收入: a word inside a name (计划) is not a cue about the question
    unnamed = blanked(text, [(s.start, s.end) for s in subjects])
    ruled = ruled_sentences(unnamed)  # 毛利率的底线怎么规定: a document's rule, not a figure
    narrative_cue = bool(NARRATIVE_CUES.search(unnamed) or ruled)
    yoy = yoy_how_much(text) if rate is None else None  # 同比增长多少: the rate where held
    asked = rate or yoy
    reading = read_quantities(
        text,
        scan,
        prof,
        change=change or yoy is not None,
        narrative=narrative_cue,
        rate=asked.span() if asked else None,
    )
    described_as, described, subjects, part_words = read_description(  # 最大的市场, the market
        text, question, index, reading, prof, subjects, spans_of(scan, "entities"), ranked_by
    )
    asked_cues = [  # how the question asks (增长了多少, 同比) and when: no part of a name
        *cues,
        *part_words,  # 最大的市场: a part described by its size, ranked
        *[c.span() for c in (rate, yoy, points_asked(text), how_fast(text)) if c],
        *[(pm.start, pm.end) for pm in find_periods(text, ref)],
        *[w for w in [part_rank_words(text)] if w],  # 哪个季度: the rank's axis, no name
        *extreme_words(text),  # in which year … peak: a rank of the periods asked
    ]
    explained = [
        *[(m.start, m.end) for _, m in scan],
        *[(s.start, s.end) for s in subjects],
        *reading.wholes,
        *asked_cues,
        *[(s, e) for _, s, e in per_anywhere(text)],
        *ruled,  # the rule's topic: its words ask no figure
        *left_out.spans,  # not including, 除…以外: what is left out, not a name
    ]
    subjects = decline_bracketed(question, text, index, reading, explained, subjects)  # 毛利(扣除…)
    blocking = blocking if blocking in subjects else None
    measured = False  # a held metric asked as another measure of itself (other_measures.py)
    if reading.declined is None and reading.metrics:  # 月均收入, deferred revenue: not the level
        ranked = rank_words(text, [e for _, _, e in reading.spans]) if rank_asked(text) else None
        explained += [ranked] if ranked else []  # which segment had the highest revenue: a rank
        read = [(s, e) for _, s, e in reading.spans]
        counts = unit_spans(
            [(m.code, m.start, m.end) for k, m in scan if k == "metrics"], prof, "count"
        )
        ratios = unit_spans(reading.spans, prof, "ratio")
        named_entities = {m.code for k, m in scan if k == "entities"}
        spans = {pm.period for pm in find_periods(text, ref) if pm.period is not None}
        operands = max(len(read), len(named_entities), len(spans))  # 是2022年的多少倍: two levels
        # 折合港元, 12月单月, 新开门店, 几年才能翻一番, what would … have been
        said = partial(original_words, question, index)  # 門店虧損: named as written
        measured = decline_other_measure(
            text, reading, counts, prof, in_english(question), explained, said, [*named_entities]
        )
        explained += entity_parts(text, spans_of(scan, "entities"), read)  # 香港分部: 香港
        loose = unexplained(text, read, explained, counts, ratios, operands)
        loose = loose or stray_metric_phrase(text, read, explained)  # turnover rent
        if loose is not None and reading.declined is None:
            reading.declined, reading.metrics, reading.spans = loose, [], []
    premise_only(text, reading)  # Given that revenue fell 5%, what was the net margin
    without_ruled(reading, ruled, text)
    decline_excluded(reading, left_out, prof)  # 不含香港的收入: no part holds the rest
    unknown = (
        blocking is None and reading.declined is None and reading.metrics and not narrative_cue
    )
    beyond = out_of_scope(question, prof)
    if unknown and beyond is None:  # another company: said as such
        blocking = qualifier_subject(text, index, question, scan, explained, reading.spans, home)
        if blocking and read_as_variant(reading, (blocking.start, blocking.end), text, prof):
            blocking = None  # same-branch sales growth: a quantity's name, not a part's
        blocking = blocking or glued_subject(text, index, question, scan, explained, reading.spans)
        subjects += [blocking] if blocking else []  # 金卡会员的收入: never the group's figure
    change = as_amount(amount, text, reading, prof, ref) or change  # 只要金额: in money
    metrics = reading.metrics
    if yoy is not None:  # levels only for a metric whose growth the profile lacks
        growths = {c for shape, c in derived_shapes(prof).items() if shape[0] == "growth"}
        change = not set(metrics) <= growths | restated_growths(text, yoy, reading.spans, prof)
    inside = reading.wholes  # 占集团收入的比重: 集团 is the whole; share of Hong Kong's revenue:
    entity_matches = [  # Hong Kong owns the whole and is the entity
        m
        for k, m in scan
        if k == "entities"
        and not (m.code == prof.home_entity_code and any(s <= m.start < e for s, e in inside))
    ]
    entities = codes(qualified(entity_matches, text, prof.home_entity_code))
    rank = rank_asked(text) or described  # which region had the highest margin: every part
    words = rank_words(text, [e for _, _, e in reading.spans]) if rank and metrics else None
    unranked = None
    if words is not None and unrankable(prof, codes(entity_matches)):
        unranked, metrics = original_words(question, index, words), []  # one entity: no rank
    broken = breakdown_asked(text) if metrics and not rank else None  # 各地区收入: each part's
    if broken and not parts(prof) and all(e == prof.home_entity_code for e in entities):
        unranked, metrics = original_words(question, index, broken.span()), []  # no parts held
    if (rank or broken) and metrics and not any(e != prof.home_entity_code for e in entities):
        entities = [e for e in parts(prof) if e not in left_out.entities] or entities
    home_named = prof.home_entity_code in entities
    compared = {at for _, at in versus}  # 比集团高: the group is the other side, not the company
    home_compared = any(
        m.code == prof.home_entity_code and m.start in compared for m in entity_matches
    )
    if len(entities) > 1 and home_named and not listed(entity_matches, text) and not home_compared:
        entities.remove(prof.home_entity_code)  # ACME … in Taiwan: the company, not a second one
    channels = [] if reading.fixed_channel else codes(m for k, m in scan if k == "channels")
    others = {kind: m.code for kind, m in reversed(scan)}
    unsupported = others.get("unsupported")
    partner = others.get("external")
    matches = find_periods(text, ref)
    periods = list(dict.fromkeys(pm.period for pm in matches if pm.period is not None))
    unrecognized = unrecognized_codes(text, prof)
    impossible = [pm.raw for pm in matches if pm.period is None]
    if impossible:
        unrecognized["period"] = impossible[0]
    assumed = next((pm.period for pm in matches if pm.period is not None and pm.year_assumed), None)
    moved = change or reading.change
    if len(periods) == 1 and not impossible and moved:
        periods = [previous_period(periods[0]), periods[0]]
    periods = base_of_growth(periods, reading.metrics, text, prof, moved)
    if not moved:  # 2019年到2021年的趋势, 哪个季度最高 (of the latest year held): every period
        latest = None if matches else assumed_year(metrics[0] if metrics else None, ref, prof)[0]
        periods, assumed = year_of_rank(text, periods, assumed, latest)
        periods = parts_ranked(text, every_year(text, matches, periods))
    shares = {c for shape, c in derived_shapes(prof).items() if shape[0] == "entity_share"}
    if shares & set(metrics) and len(set(entities) - {prof.home_entity_code}) >= 1:
        entities = [e for e in entities if e != prof.home_entity_code]  # 香港占集团: the whole
    share = share_of_nothing(metrics, entities, scan, prof)
    if share is not None and reading.declined is None:  # 集团收入占比: the group's share of itself
        metrics = [c for c in metrics if c != share[0]]
        reading.declined = share[1]
    if reading.declined is None and (
        part := percent_of_levels(text, metrics, [*reading.wholes, *asked_cues,
            *[(s, e) for _, s, e in reading.spans], *spans_of(scan, "entities")], prof, bool(rate))
    ):  # fmt: skip  # 有百分之几不是在实体店卖出的: a percentage, never the level
        metrics, reading.declined = [], part
        reading.declined_name = (original_words(question, index, part),) * 2
    declined, unnamed_at = None, None  # the quantity declined, and where its phrase stands
    if reading.declined is not None and reading.declined_name is not None:
        declined = reading.declined_name[1 if in_english(question) else 0]
    elif reading.declined is not None:
        cues = [(s.start, s.end) for s in subjects] + [c for c in asked_cues if c not in named]
        cues += words_at(text, beyond.name if beyond else "")  # 特变电工利息收入: a company
        whole = quantity_phrase(text, reading.declined, scan, cues)  # 线上收入与线下收入之比
        whole = proper_name(question, index, whole, [*cues, *spans_of(scan, "entities")])
        declined, unnamed_at = original_words(question, index, whole), whole
        owners = [  # 占集团门店总数的比例: the whole after 占 / of names the quantity, owns nothing
            (m.start, m.end)  # but share of Jinyu's employees: the company's possessive owns them
            for k, m in scan
            if k == "entities"
            and (not _WHOLE_BEFORE.search(text, 0, m.start) or possessed(text, m, home))
            and not any(s <= m.start < e for s, e in reading.owners)  # 归属于上市公司股东的
        ]
        declined = without_periods(declined, text, whole, index, question, owners)
    if declined is None and not metrics and blocking is None and not narrative_cue:
        when = bool(find_periods(text, ref))  # What was Hong Kong's GMROI in 2024: a figure
        other = unsupported or partner
        declined, unnamed_at = unnamed_name(
            text, index, question, scan, explained, other, when, home
        )
        glued = glued_entity(text, question, index, spans_of(scan, "entities"), explained)
        if declined and glued:  # how much did ACME spend on sea freight: the name, whole
            declined, unnamed_at = original_words(question, index, glued), glued
        first = unnamed_at[0] if unnamed_at else -1
        for sort in other_kinds(text, prof):  # how many cold stores, 多少位店长: the whole noun
            if declined is None or sort[0] <= first < sort[1]:
                declined, unnamed_at = original_words(question, index, sort), sort
    if reading.declined in counted:  # 有多少家门店 of a company without stores: 门店数
        declined = quantity_name(counted[reading.declined], in_english(question))
    declined = without_measure_word(declined, question)  # 多少名区域经理: 区域经理
    metric = metrics[0] if metrics else None
    for k, m in scan:  # a partner is talked about where a passage names it, never elsewhere
        if k == "external" and not any(s.start < m.end and m.start < s.end for s in subjects):
            name = original_words(question, index, (m.start, m.end))
            stem = compact(text[m.start : m.end])
            subjects.append(Subject(name, stem, m.start, m.end, True, COMPANY))
    if unsupported and not metric:  # a line item held by no fact: by passages that name it
        at = next(m for k, m in scan if k == "unsupported")
        subjects.append(Subject(unsupported, compact(unsupported), at.start, at.end, True))
    elif reading.declined and declined and not metric:  # how did ACME improve inventory turnover
        start, end = reading.declined
        subjects.append(Subject(declined, compact(text[start:end]), start, end, True))
    phrase = unnamed_at if not metric and not blocking else None  # the declined words' span
    stated = share_subject(text, phrase, declined, explained) if phrase and declined else None
    route, definition = route_of(
        text,
        question,
        metric=metric,
        has_scope=bool(entities or periods),
        partner=partner,
        unsupported=unsupported,
        blocking=blocking,
        declined=declined,
        narrative_cue=narrative_cue,
        rate=bool(rate),
        how_fast=bool(how_fast(text)),
        measured=measured,
    )
    if route == ROUTE_NARRATIVE:  # 首席执行官的薪酬是多少 / 怎么确定的: the pay, not the role
        subjects = narrative_subjects(text, index, question, scan, explained, subjects)
    return ParsedIntent(
        metric=metric,
        entity=entities[0] if entities else None,
        period=periods[0] if periods else None,
        channel=channels[0] if channels else None,
        route=route,
        raw_question=raw,
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
        declined=declined,
        subjects=subjects,
        unknown_subject=blocking.name if blocking and route != ROUTE_NARRATIVE else None,
        # a quantity declined by name (what revenue share …) asks a figure, cue or none
        asks_figure=FIGURE_CUES.search(text) is not None or bool(declined and not narrative_cue),
        change=moved and bool(metrics) and len(periods) == 2,
        rank=rank if len(entities) > 1 else None,
        unranked=unranked,
        period_rank=period_rank(text, periods),
        corrections=read_as,
        stated=stated,  # 前五名客户销售额占…的比例: a share a report states beside its part
        described=described_as,  # the fastest-growing market: ranked on growth, else declined
    )


class RuleIntentParser:
    """The default IntentParser: the rule parser bound to one profile."""

    def __init__(self, profile: DomainProfile | None = None) -> None:
        self.profile = profile or default_profile()

    def parse(self, question: str, reference_date: date | None = None) -> ParsedIntent:
        return parse_intent(question, reference_date, profile=self.profile)


__all__ = [
    "CLARIFY_ANSWER_WITH_ASSUMPTIONS",
    "CLARIFY_ASK_FIRST",
    "CLARIFY_NONE",
    "CLARIFY_OUT_OF_SCOPE_ENTITY",
    "ROUTE_COMPOSITE",
    "ROUTE_NARRATIVE",
    "ROUTE_STRUCTURED",
    "ClarificationResult",
    "IntentParser",
    "ParsedIntent",
    "RuleIntentParser",
    "clarify_scope",
    "latest_complete_fiscal_year",
    "parse_intent",
]
