"""A figure's role in its sentence and its period: the FROM and TO values of a pair, a change
(with its direction), a flow (新开门店数), a bare FROM value's scale, and the period each states
(see ``period_of``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ragspine.evals.audit import qualifiers as q
from ragspine.evals.audit import words as w
from ragspine.evals.audit.claims import Claim
from ragspine.evals.audit.names import Found
from ragspine.evals.audit.periods import Mention, shifted, with_part

Claims = Sequence[tuple[int, int, Claim]]


def period_of(
    text: str,
    spoken: Sequence[Mention],
    mine: Claims,
    i: int,
    clause: tuple[int, int],
    own: str | None,
    role: str | None,
    from_at: int | None,
    fallback: str | None = None,
) -> tuple[str, ...]:
    """A target year right after it (by 30% by 2030), else the nearest period before it in its
    clause, else the first after it in its clause, else the nearest before it in its sentence,
    else the sentence's own (or the backdrop's), unless the sentence names its period only in a
    later clause, as a target's deadline (…八周的谈判,目标在2025年上半年内签署). The start of a
    year (At the start of 2024, 2024年初) is the end of the year before: a level there is the
    earlier year's."""
    s, e, _ = mine[i]
    code, near, found = None, False, False
    before = [p for p in spoken if p.end <= s]
    in_clause = [p for p in before if p.start >= clause[0]]
    later = [p for p in spoken if p.start >= e and p.end <= clause[1] and p.code]
    by_year = [p for p in later if _BY.search(text[e : p.start])]
    for p in [] if by_year else reversed(in_clause if in_clause or later else before):
        if p.code is None and p.shift:
            # 上年的2370, 上年为下降2.8%: the first figure after it in its clause; 较上年增长5%
            # is a change measured from it, not that year's figure
            between = any(p.end <= x[0] < s for x in mine)
            measured = role == "change" and _MEASURED_FROM.search(
                text[max(0, p.start - 4) : p.start]
            )
            if p.start >= clause[0] and not measured and not between:
                code, near, found = shifted(own, p.shift), True, True
                break
            continue
        code, found = p.code or with_part(own, p.part), True
        near = from_at is not None and p.start >= from_at
        start_of = _START_OF.search(text[max(0, p.start - 16) : p.start])
        if code and len(code) == 4 and (start_of or text[p.end : p.end + 1] == "初"):
            code = shifted(code, -1)
        break
    if by_year:
        return (by_year[0].code,) if by_year[0].code else ()
    if not found:
        code = later[0].code if later else None
        # from USD 1,400 million in FY2023: a period right after the figure is its own
        near = bool(later) and not any(e <= x[0] < later[0].start for x in mine)
        if code is None:
            earlier = [p for p in before if p.code]
            first = next((p for p in spoken if p.code), None)
            deadline = (
                first is not None
                and first.start >= clause[1]
                and _MODAL.search(text[max(clause[1], first.start - 12) : first.start])
            )
            code = earlier[-1].code if earlier and in_clause else fallback if deadline else own
    if role == "from" and not near:
        code = shifted(code, -1) if code and len(code) == 4 else None
    return (code,) if code else ()


_MODAL = re.compile(f"(?:{w.TARGET.pattern}|{w.FORECAST.pattern})", re.I)
_BY = re.compile(r"^[^,;]{0,6}?(?:(?<![A-Za-z])by|(?<![增升降减涨跌达提长加少低])到)\s*$", re.I)
_MEASURED_FROM = re.compile(r"(?:较|比|相比|与|(?<![A-Za-z])(?:than|over|from|vs\.?))\s*$", re.I)
_START_OF = re.compile(r"(?:start|beginning|outset)\s+of\s+(?:fiscal\s+(?:year\s+)?)?$", re.I)


def ranges(
    text: str, mine: Claims, roles: Sequence[tuple[str | None, int, int | None]]
) -> dict[int, str]:
    """新开6至8家, six to eight, between 6 and 8: the low end of a range (``lo``) and its high end
    (``hi``). Two figures of one kind, ascending, joined by 至 / to with no verb: 由14降至9 and
    grew 11% to 455 are a change."""
    out: dict[int, str] = {}
    for i in range(len(mine) - 1):
        (s, e, a), (s2, _e2, b) = mine[i], mine[i + 1]
        if roles[i][0] is not None or roles[i + 1][0] not in (None, "to") or a.kind != b.kind:
            continue
        if a.value is None or b.value is None or not 0 <= a.value < b.value:
            continue
        joined = q.RANGE_JOIN.match(text[e:s2])
        if joined and (" and" not in joined.group() or q.BETWEEN.search(text[max(0, s - 12) : s])):
            out[i], out[i + 1] = "lo", "hi"
    return out


def roles_of(
    masked: str, mine: Claims, clauses: Sequence[tuple[int, int]]
) -> list[tuple[str | None, int, int | None]]:
    """(role, direction, where the from-word starts) for each claim of a sentence."""
    out: list[tuple[str | None, int, int | None]] = []
    for i, (s, e, _claim) in enumerate(mine):
        c0 = next((a for a, b in clauses if a <= s < b), 0)
        prev = [x for x in mine[:i] if x[0] >= c0]
        near = masked[prev[-1][1] if prev else c0 : s]
        before = masked[c0:s]
        role: str | None = None
        direction, from_at = 0, None
        if m := w.FROM.search(near):
            role, from_at = "from", s - len(near) + m.start()
        elif w.UP_TO.search(near):
            pass
        elif m := w.TO.search(before):
            role, direction = "to", _way(m.group())
        elif prev and out[i - 1][0] == "from" and w.TO_AFTER_FROM.search(near):
            role = "to"
        elif m := w.CHANGE.search(near):
            role, direction = "change", _way(m.group())
        elif a := w.CHANGE_AFTER.match(masked[e : e + 16]):
            role, direction = "change", -1 if a.group("fall") else 1
        out.append((role, direction, from_at))
    # a from-to pair shares its verb: 由410增至455, fell from 455 to 410, rose to 455 from 410
    for i, (role, _, from_at) in enumerate(out):
        if role != "from":
            continue
        c0, c1 = next(((a, b) for a, b in clauses if a <= mine[i][0] < b), (0, 0))
        pair = [out[j][1] for j in range(len(mine)) if c0 <= mine[j][0] < c1 and out[j][0] == "to"]
        way = next((d for d in pair if d), 0) or _way(masked[c0 : from_at or c0])
        out[i] = (role, way, from_at)
    for i, (role, direction, from_at) in enumerate(out):
        if role == "to" and not direction and i and out[i - 1][0] == "from":
            out[i] = (role, out[i - 1][1], from_at)
    return out


def flows(
    text: str,
    metrics: Sequence[Found],
    mine: Claims,
    roles: list[tuple[str | None, int, int | None]],
    s0: int,
) -> list[tuple[str | None, int, int | None]]:
    """新开门店数:540: an amount whose metric's name follows a change word is a change of it."""
    out = list(roles)
    for i, (s, _e, claim) in enumerate(mine):
        near = [f for f in metrics if s0 <= f.start and f.end <= s]
        if (
            out[i][0] is None
            and claim.kind == "number"
            and near
            and w.FLOW.search(text[max(s0, near[-1].start - 8) : near[-1].start])
        ):
            out[i] = ("change", 0, None)
    return out


def pair_scales(
    mine: Claims,
    roles: Sequence[tuple[str | None, int, int | None]],
    clauses: Sequence[tuple[int, int]],
) -> list[tuple[int, int, Claim]]:
    """from 455 to 410 million: the FROM value written bare takes its pair's scale word."""
    out = list(mine)
    for i, (s, e, claim) in enumerate(mine):
        if roles[i][0] != "from" or claim.scale != 1 or claim.value is None:
            continue
        c1 = next((b for a, b in clauses if a <= s < b), s)
        pair = [x for j, x in enumerate(mine) if j > i and x[0] < c1 and roles[j][0] == "to"]
        if pair and pair[0][2].scale != 1 and pair[0][2].kind == claim.kind:
            k = pair[0][2].scale
            out[i] = (s, e, replace(claim, value=claim.value * k, slack=claim.slack * k, scale=k))
    return out


def _way(text: str) -> int:
    """The direction of the last direction word in ``text``."""
    rise = [m.start() for m in w.RISE.finditer(text)]
    fall = [m.start() for m in w.FALL.finditer(text)]
    if not rise and not fall:
        return 0
    return 1 if max(rise, default=-1) > max(fall, default=-1) else -1
