"""A change asked whose levels make none: declined as the change, never answered with one level.

A question asking how much a quantity moved between two periods (``change_cues``) is answered
by both sourced levels and their difference. Where that difference cannot be computed (one of
the two levels is not held, or the two periods are not comparable: a half against a full year),
the level that was found is not the answer: shown alone it reads as the figure asked
("How much did revenue grow in H2 2024 compared with H2 2023?" → 2024H2 revenue). So its result
is dropped and the change is declined by name:

- where the profile holds the metric's growth (a derived metric of the shape growth of X) and
  the earlier period is the later one's prior (``previous_period``), that growth is queried for
  the later period: its own not-found names the growth and the operand it lacks (收入同比增长率
  无法计算,缺少2023H2 收入的数据), and it is the answer where it is held after all;
- else a line names the change and what it lacks, with the missing level's not-found result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ragspine.agent.names import entity_name, metric_name
from ragspine.agent.query_tools import ToolResult
from ragspine.agent.render import channel_name
from ragspine.agent.wording import ZH, Language, joined, say
from ragspine.profile import DomainProfile
from ragspine.profile.periods import Period, previous_period
from ragspine.profile.vocabulary import derived_shapes

Query = Callable[[dict[str, str]], ToolResult]


@dataclass
class Unmade:
    """The results kept (the levels of every change made, every other result) and, for each
    change that could not be made, its decline: the growth queried in its place (rendered as
    any result is), or a line naming the change with the not-found results it rests on."""

    results: list[ToolResult]
    growths: list[ToolResult] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    missing: list[ToolResult] = field(default_factory=list)


def decline_unmade(
    args: Sequence[dict[str, str]],
    results: Sequence[ToolResult],
    profile: DomainProfile,
    query: Query,
    lang: Language = ZH,
) -> Unmade:
    """``args[i]`` is the query that gave ``results[i]``; a series (metric, entity, channel)
    asked in two periods whose levels give no difference is declined (see the module)."""
    series: dict[tuple[str, str, str], list[int]] = {}
    for i, a in enumerate(args):
        series.setdefault((a["metric"], a["entity"], a["channel"]), []).append(i)
    dropped: set[int] = set()
    out = Unmade(results=[])
    for (metric, entity, channel), at in series.items():
        pair = [results[i] for i in at]
        if len(at) != 2 or any(r["status"] == "unrecognized_param" for r in pair):
            continue
        periods = [_period(r) for r in pair]
        found = [r for r in pair if r["status"] == "found"]
        if not found or _comparable(pair, periods):
            continue
        dropped.update(at)
        earlier, later = sorted(periods, key=lambda p: p.sort_key)
        growth = _growth_of(metric, profile)
        if growth is not None and previous_period(later) == earlier:
            result = query({"metric": growth, "entity": entity, "period": later.label,
                            "channel": channel})  # fmt: skip
            out.growths.append(result)
            continue
        missing = [p for p, r in zip(periods, pair, strict=True) if r["status"] != "found"]
        out.missing += [r for r in pair if r["status"] != "found"]
        out.lines.append(_line(metric, entity, channel, earlier, later, missing, profile, lang))
    out.results = [r for i, r in enumerate(results) if i not in dropped]
    return out


def _period(r: ToolResult) -> Period:
    where = r if r["status"] == "found" else r["normalized"]  # type: ignore[typeddict-item]
    return Period(where["period_type"], where["period"])


def _comparable(pair: Sequence[ToolResult], periods: Sequence[Period]) -> bool:
    """Both levels found, of one period type and one unit: their difference is the change."""
    if any(r["status"] != "found" for r in pair):
        return False
    a, b = pair
    kinds = {p.period_type for p in periods}
    return len(kinds) == 1 and a.get("unit") == b.get("unit")


def _growth_of(metric: str, profile: DomainProfile) -> str | None:
    """The profile's derived metric of the shape growth of ``metric``, if it has one."""
    return derived_shapes(profile).get(("growth", metric))


def _line(
    metric: str,
    entity: str,
    channel: str,
    earlier: Period,
    later: Period,
    missing: Sequence[Period],
    profile: DomainProfile,
    lang: Language,
) -> str:
    name = metric_name(metric, profile, lang)
    what = say(
        "change.what",
        lang,
        entity=entity_name(entity, profile, lang),
        metric=name,
        channel=channel_name(channel, profile, lang),
        later=later.label,
        earlier=earlier.label,
    )
    if missing:
        parts = joined(
            [say("missing.part", lang, period=p.label, metric=name) for p in missing], lang
        )
        return say("not_found.missing", lang, what=what, parts=parts)
    return say("change.incomparable", lang, what=what)
