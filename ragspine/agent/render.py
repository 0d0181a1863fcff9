"""How tool results become answer text: every value rendered from the stored fact, with its source.

Nothing here reads model output. A found fact becomes ``entity period metric:value unit(来源:…)``;
a miss names what was looked for; a difference is computed from two found facts and says so.
"""

from __future__ import annotations

from ragspine.agent.query_tools import (
    FoundResult,
    NotFoundResult,
    Source,
    ToolResult,
    UnrecognizedResult,
)
from ragspine.profile import DomainProfile
from ragspine.profile.periods import Period
from ragspine.text import fold

NOT_FOUND_TAIL = "为避免误导,不提供任何推测数字;可尝试调整期间或实体后重问。"


def distinct_found(tool_results: list[ToolResult]) -> list[FoundResult]:
    seen: dict[tuple[str, ...], FoundResult] = {}
    for r in tool_results:
        if r["status"] == "found":
            key = (r["metric_code"], r["entity"], r["channel"], r["period_type"], r["period"])
            seen.setdefault(key, r)
    return list(seen.values())


def fact_sources(found: list[FoundResult]) -> list[Source]:
    out: list[Source] = []
    for r in found:
        src: Source = {"doc": r["source"]["doc"], "locator": r["source"]["locator"]}
        if src not in out:
            out.append(src)
    return out


def format_value(value: float) -> str:
    """1320.0 → '1320', 12.345 → '12.345': no float noise, no scientific notation."""
    rounded = round(float(value), 6)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.6f}".rstrip("0").rstrip(".")


def period_label(period_type: str, period: str) -> str:
    return Period(period_type, period).label


def fact_line(r: FoundResult, prof: DomainProfile) -> str:
    channel = "" if r["channel"] == prof.default_channel else f"({r['channel']})"
    src = r["source"]
    return (
        f"{r['entity']} {period_label(r['period_type'], r['period'])} {r['metric_code']}{channel}:"
        f"{format_value(r['value'])} {r['unit']}(来源:{src['doc']} · {src['locator']})"
    )


def not_found_line(r: NotFoundResult) -> str:
    n = r["normalized"]
    return (
        f"查不到:{n['metric_code']} / {n['entity']} / {n['period']}(渠道 {n['channel']})"
        "未在事实表中找到。"
    )


def not_found_answer(r: NotFoundResult) -> str:
    return f"{not_found_line(r)}\n{NOT_FOUND_TAIL}"


def unrecognized_line(r: UnrecognizedResult, question: str, prof: DomainProfile) -> str:
    param, raw = r["param"], r["raw"]
    # Echo the raw value only if the user wrote it: a model's argument may carry a made-up number.
    shown = f"「{raw}」" if raw and fold(raw) in fold(question) else ""
    supported = {
        "metric": prof.metric_codes,
        "entity": prof.entity_codes,
        "channel": prof.channel_codes,
    }.get(param, [])
    if param == "period":
        # No example figures here: an answer holds only numbers with a source.
        hint = "期间请写作财年、半年或季度。"
    else:
        hint = f"支持的取值如:{'、'.join(supported)}。" if supported else ""
    return f"无法识别参数 {param}{shown},未进行查询。{hint}"


def unrecognized_answer(r: UnrecognizedResult, question: str, prof: DomainProfile) -> str:
    return f"{unrecognized_line(r, question, prof)}\n为避免误导,不提供任何推测数字。"


def differences(results: list[ToolResult], prof: DomainProfile) -> list[str]:
    """Later minus earlier, for each series found in exactly two periods of the same type."""
    series: dict[tuple[str, str, str], list[FoundResult]] = {}
    for r in distinct_found(results):
        series.setdefault((r["metric_code"], r["entity"], r["channel"]), []).append(r)
    lines = []
    for (metric, entity, channel), pair in series.items():
        if len(pair) != 2:
            continue
        a, b = sorted(pair, key=lambda r: Period(r["period_type"], r["period"]).sort_key)
        if a["period_type"] != b["period_type"] or a["unit"] != b["unit"]:
            continue
        delta = round(float(b["value"]) - float(a["value"]), 6)
        sign = "+" if delta > 0 else ""
        ch = "" if channel == prof.default_channel else f"({channel})"
        lines.append(
            f"{entity} {metric}{ch} {period_label(b['period_type'], b['period'])} 较 "
            f"{period_label(a['period_type'], a['period'])} 变化:{sign}{format_value(delta)} "
            f"{b['unit']}(由上述数值计算)"
        )
    return lines
