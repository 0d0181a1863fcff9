"""Section 3 and 4 of the contract: a claim is supported by a source number of the same kind,
the same value within the claim's precision (never more than 5% of the source), and the same
context wherever both sides state it. Unknown never contradicts; stated and different always
does, and the finding names the dimension."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction

from ragspine.evals.audit.claims import Claim
from ragspine.evals.audit.context import Context
from ragspine.evals.audit.names import Lexicon
from ragspine.evals.audit.qualifiers import within_bound
from ragspine.evals.audit.sources import Source
from ragspine.evals.audit.words import TIME_UNITS, time_ratio

# The order a finding names them in, where one source differs in more than one.
REASONS = (
    "wrong_currency",
    "wrong_unit",
    "wrong_bound",
    "target_as_result",
    "reversed",
    "wrong_entity",
    "wrong_period",
    "wrong_metric",
    "wrong_channel",
)
_CAP = Fraction(5, 100)


def tolerance(claim: Claim, source: Claim) -> Fraction:
    """|claim − source| ≤ min(the claim's precision, 5% of the source)."""
    assert source.value is not None
    return min(claim.slack, abs(source.value) * _CAP) + source.slack / 1000


def same_value(claim: Claim, source: Claim) -> bool:
    """Magnitudes equal within tolerance, and the same kind (number, percent, points…); a count
    in words of a range (双位数) holds any magnitude in it, a number or a percentage."""
    if claim.span is not None and source.value is not None:
        lo, hi = claim.span
        return source.kind in ("number", "percent") and lo <= abs(source.value) <= hi
    if claim.value is None or source.value is None or claim.kind != source.kind:
        return False
    return abs(abs(claim.value) - abs(source.value)) <= tolerance(claim, source)


def verdict(claim: Claim, ctx: Context, sources: Iterable[Source], lex: Lexicon) -> str | None:
    """None when some source states the claim; else why not: the dimension the closest source
    differs in, or ``unsupported`` when none has its value."""
    best: list[str] | None = None
    for src in sources:
        mine, here = _in_units_of(claim, ctx, src.ctx)
        if not same_value(mine, src.claim):
            continue
        why = mismatches(mine, here, src, lex)
        if not why:
            return None
        if best is None or len(why) < len(best):
            best = why
    if best is None:
        return "unsupported"
    return min(best, key=REASONS.index)


def _in_units_of(claim: Claim, ctx: Context, theirs: Context) -> tuple[Claim, Context]:
    """3年 against a source in months: 36个月, where the conversion is exact."""
    if claim.value is None or not ctx.unit or not theirs.unit or ctx.unit == theirs.unit:
        return claim, ctx
    k = time_ratio(ctx.unit, theirs.unit)
    if k is None:
        return claim, ctx
    scaled = replace(claim, value=claim.value * k, slack=claim.slack * k)
    return scaled, replace(ctx, unit=theirs.unit)


def mismatches(claim: Claim, ctx: Context, src: Source, lex: Lexicon) -> list[str]:
    theirs = src.ctx
    out = []
    if _differ(ctx.unit, theirs.unit):
        time = {ctx.unit, theirs.unit} & TIME_UNITS
        out.append("wrong_unit" if time else "wrong_currency")
    elif _differ(ctx.per, theirs.per) or _differ(ctx.noun, theirs.noun):
        out.append("wrong_unit")  # a month's rate for a year's, people for stores
    assert claim.value is not None or claim.span is not None
    assert src.claim.value is not None
    if claim.span is None and not within_bound(
        ctx.bound, claim.value or Fraction(0), src.claim.value, theirs.bound
    ):
        out.append("wrong_bound")
    if ctx.modality != theirs.modality:
        out.append("target_as_result")
    if _reversed(claim, ctx, src):
        out.append("reversed")
    if _differ(ctx.entity, theirs.entity):
        out.append("wrong_entity")
    if (ctx.period and theirs.period and ctx.period[0] not in theirs.period) or _differ(
        ctx.base, theirs.base
    ):
        out.append("wrong_period")
    if (
        _other_metric(ctx, theirs, lex)
        or _other_quantity(claim, ctx, theirs)
        or _differ(ctx.quantity, theirs.quantity)
        or _differ(ctx.span, theirs.span)
    ):
        out.append("wrong_metric")
    if _differ(ctx.channel, theirs.channel):
        out.append("wrong_channel")
    return out


def _differ(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and a != b


def _sign(value: Fraction, ctx: Context, computed: bool) -> tuple[int, bool]:
    """(the sign it states, whether the figure itself is written or computed with it)."""
    if value < 0:
        return -1, True
    if computed:
        return (1 if value > 0 else 0), True
    if ctx.role == "change" and ctx.direction:
        return ctx.direction, False
    return 0, False


def _reversed(claim: Claim, ctx: Context, src: Source) -> bool:
    """A fall for a rise, a from value for a to value, a dropped minus sign."""
    assert claim.value is not None and src.claim.value is not None
    mine, mine_written = _sign(claim.value, ctx, False)
    theirs, theirs_written = _sign(src.claim.value, src.ctx, src.computed)
    if mine and theirs and mine != theirs:
        return True
    if mine_written and not theirs and src.claim.value > 0 and src.ctx.role != "change":
        return True  # -80 for a figure the source states as 80
    if theirs_written and theirs < 0 and not mine and claim.value > 0 and ctx.role != "change":
        return True  # 4.1% for a source's -4.1%
    if ctx.direction and src.ctx.direction and ctx.direction != src.ctx.direction:
        return True
    return {ctx.role, src.ctx.role} == {"from", "to"}


def _other_metric(mine: Context, theirs: Context, lex: Lexicon) -> bool:
    if not _differ(mine.metric, theirs.metric):
        return False
    assert mine.metric is not None and theirs.metric is not None
    return not lex.related(mine.metric, theirs.metric)


def _other_quantity(claim: Claim, mine: Context, theirs: Context) -> bool:
    """Growth for a level, a share for a growth, a change for the level it changed from."""
    if _differ(mine.modifier, theirs.modifier):
        return True
    level = ("level", "from", "to")
    return claim.kind == "number" and (
        (mine.role == "change" and theirs.role in level)
        or (theirs.role == "change" and mine.role in level)
    )
