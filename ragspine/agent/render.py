"""How tool results become answer text: every value rendered from the stored fact, with its source.

Nothing here reads model output. A found fact becomes ``实体 期间 指标(渠道):值 单位(来源:…)`` in
the profile's names and display units; a derived metric adds its formula and one line per operand
with that operand's source; a miss names what was looked for; a difference is computed from two
found facts and says so. Codes appear only in ``--json``. A miss is words, so it is said in the
question's language (``english.py``); a figure's line keeps the profile's names.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from ragspine.agent.english import NOT_FOUND_TAIL_EN, english_not_found_line
from ragspine.agent.query_tools import (
    FoundResult,
    NotFoundResult,
    Source,
    ToolResult,
    UnrecognizedResult,
)
from ragspine.agent.subjects import in_english
from ragspine.profile import DomainProfile
from ragspine.profile.formula import Operand, parse_formula
from ragspine.profile.glossary import closest_metrics
from ragspine.profile.periods import Period
from ragspine.text import fold

NOT_FOUND_TAIL = "为避免误导,不提供任何推测数字;可尝试调整期间或实体后重问。"

_DECIMALS = re.compile(r"(?:保留|精确到)\s*(\d+|[一二两三四五六])\s*位\s*小数|(\d+)\s*decimal")
_CN_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}


def asked_decimals(question: str) -> int | None:
    """保留两位小数 / 保留2位小数 / to 2 decimal places: the rounding the user asked for."""
    m = _DECIMALS.search(fold(question))
    if not m:
        return None
    raw = m.group(1) or m.group(2)
    return min(int(raw) if raw.isdigit() else _CN_DIGITS[raw], 8)


def distinct_found(tool_results: list[ToolResult]) -> list[FoundResult]:
    seen: dict[tuple[str, ...], FoundResult] = {}
    for r in tool_results:
        if r["status"] == "found":
            key = (r["metric_code"], r["entity"], r["channel"], r["period_type"], r["period"])
            seen.setdefault(key, r)
    return list(seen.values())


def fact_sources(found: list[FoundResult]) -> list[Source]:
    """Every source the answer rests on: a derived metric's are its operands'."""
    out: list[Source] = []
    for r in found:
        for fact in r.get("operands") or [r]:
            src: Source = {"doc": fact["source"]["doc"], "locator": fact["source"]["locator"]}
            if src not in out:
                out.append(src)
    return out


def format_value(value: float | str | Decimal, decimals: int | None = None) -> str:
    """Thousands separators, no float noise, no scientific notation; a value written as text
    ('318024319.30') keeps the precision it was stored with; ``decimals`` rounds half up."""
    try:
        exact = Decimal(value) if isinstance(value, str | Decimal) else Decimal(repr(float(value)))
    except InvalidOperation:
        return str(value)
    if decimals is not None:
        exact = exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    elif not isinstance(value, str | Decimal):
        exact = exact.quantize(Decimal("1e-6"), rounding=ROUND_HALF_UP).normalize()
    if exact == 0:
        exact = abs(exact)  # no "-0"
    text = f"{exact:,f}"
    return text


def period_label(period_type: str, period: str) -> str:
    return Period(period_type, period).label


def _metric_name(code: str, prof: DomainProfile) -> str:
    spec = prof.any_metric(code)
    return spec.display_name if spec else code


def _entity_name(code: str, prof: DomainProfile) -> str:
    return next((e.display_name for e in prof.entities if e.code == code), code)


def _channel_name(code: str, prof: DomainProfile) -> str:
    if code == prof.default_channel:
        return ""
    name = next((c.aliases[0] for c in prof.channels if c.code == code), code)
    return f"({name})"


def _when(metric_code: str, period_type: str, period: str, prof: DomainProfile) -> str:
    """FY2024 for a flow over the year; FY2024末 for a balance at its end."""
    spec = prof.any_metric(metric_code)
    label = period_label(period_type, period)
    return f"{label}末" if getattr(spec, "kind", "flow") == "balance" else label


def _amount(value: str | float, unit_code: str, prof: DomainProfile, decimals: int | None) -> str:
    unit = prof.unit(unit_code)
    shown = format_value(value, decimals)
    if unit.kind == "percent":
        return f"{shown}%"
    return f"{shown} {unit.display}" if unit.display else shown


def fact_amount(r: FoundResult, prof: DomainProfile, decimals: int | None = None) -> str:
    """A found result's figure with its unit, rounded as its fact line shows it."""
    rounding = decimals if decimals is not None or not r.get("operands") else r.get("decimals", 2)
    return _amount(r["value_text"], r["unit"], prof, rounding)


def metric_name(code: str, prof: DomainProfile) -> str:
    return _metric_name(code, prof)


def entity_name(code: str, prof: DomainProfile) -> str:
    return _entity_name(code, prof)


def channel_name(code: str, prof: DomainProfile) -> str:
    """(线上) after a metric's name; nothing for the default channel."""
    return _channel_name(code, prof)


def _cite(src: Source) -> str:
    return f"(来源:{src['doc']} · {src['locator']})"


def fact_line(r: FoundResult, prof: DomainProfile, decimals: int | None = None) -> str:
    when = _when(r["metric_code"], r["period_type"], r["period"], prof)
    head = (
        f"{_entity_name(r['entity'], prof)} {when} "
        f"{_metric_name(r['metric_code'], prof)}{_channel_name(r['channel'], prof)}:"
    )
    operands = r.get("operands")
    if not operands:
        return f"{head}{_amount(r['value_text'], r['unit'], prof, decimals)}{_cite(r['source'])}"
    rounding = decimals if decimals is not None else r.get("decimals", 2)
    formula = parse_formula(r.get("formula", ""))

    def name(o: Operand) -> str:
        whose = _entity_name(o.entity, prof) if o.entity else ""
        channel = (  # fixed by the formula: named even when it is the default (合计)
            f"({next((c.aliases[0] for c in prof.channels if c.code == o.channel), o.channel)})"
            if o.channel
            else ""
        )
        return ("上年" if o.lag else "") + whose + _metric_name(o.code, prof) + channel

    lines = [
        f"{head}{_amount(r['value_text'], r['unit'], prof, rounding)}"
        f"(由公式计算:{formula.render(name)})"
    ]
    for op in operands:
        when = _when(op["metric_code"], op["period_type"], op["period"], prof)
        other = op["entity"] != r["entity"]  # a share of the group names the group
        whose = f"{_entity_name(op['entity'], prof)} " if other else ""
        lines.append(
            f"  其中 {whose}{when} "
            f"{_metric_name(op['metric_code'], prof)}{_channel_name(op['channel'], prof)}:"
            f"{_amount(op['value_text'], op['unit'], prof, None)}{_cite(op['source'])}"
        )
    return "\n".join(lines)


def not_found_line(r: NotFoundResult, prof: DomainProfile, question: str = "") -> str:
    """What was looked for and not found, in the question's language (an English question gets
    the profile's English names: mainland China FY2024 online gross margin)."""
    if in_english(question):
        return english_not_found_line(r, prof)
    n = r["normalized"]
    what = (
        f"{_entity_name(n['entity'], prof)} {period_label(n['period_type'], n['period'])} "
        f"{_metric_name(n['metric_code'], prof)}{_channel_name(n['channel'], prof)}"
    )
    missing = r.get("missing")
    if missing:
        parts = "、".join(f"{m['period']} {_metric_name(m['metric_code'], prof)}" for m in missing)
        return f"查不到:{what} 无法计算,缺少{parts}的数据。"
    return f"查不到:{what} 未在事实表中找到。"


def not_found_answer(r: NotFoundResult, prof: DomainProfile, question: str = "") -> str:
    tail = NOT_FOUND_TAIL_EN if in_english(question) else NOT_FOUND_TAIL
    return f"{not_found_line(r, prof, question)}\n{tail}"


def metric_menu(codes: list[str], prof: DomainProfile) -> str:
    names = "、".join(_metric_name(c, prof) for c in codes)
    total = len(prof.metric_codes)
    return names + ("等" if total > len(codes) else "")


def unrecognized_line(r: UnrecognizedResult, question: str, prof: DomainProfile) -> str:
    param, raw = r["param"], r["raw"]
    # Echo the raw value only if the user wrote it: a model's argument may carry a made-up number.
    shown = f"「{raw}」" if raw and fold(raw) in fold(question) else ""
    if param == "period":
        # No example figures here: an answer holds only numbers with a source.
        hint = "期间请写作财年、半年或季度。"
    elif param == "metric":
        hint = f"支持的指标如:{metric_menu(closest_metrics(question, prof), prof)}。"
    elif param == "entity":
        hint = f"支持的实体:{'、'.join(e.display_name for e in prof.entities)}。"
    elif param == "channel":
        hint = f"支持的渠道:{'、'.join(c.aliases[0] for c in prof.channels)}。"
    else:
        hint = ""
    return f"无法识别参数 {param}{shown},未进行查询。{hint}"


def unrecognized_answer(r: UnrecognizedResult, question: str, prof: DomainProfile) -> str:
    return f"{unrecognized_line(r, question, prof)}\n为避免误导,不提供任何推测数字。"


def differences(results: list[ToolResult], prof: DomainProfile) -> list[tuple[str, str]]:
    """Later minus earlier, for each series found in exactly two periods of the same type: the
    metric code and the line stating it."""
    series: dict[tuple[str, str, str], list[FoundResult]] = {}
    for r in distinct_found(results):
        series.setdefault((r["metric_code"], r["entity"], r["channel"]), []).append(r)
    lines: list[tuple[str, str]] = []
    for (metric, entity, channel), pair in series.items():
        if len(pair) != 2:
            continue
        a, b = sorted(pair, key=lambda r: Period(r["period_type"], r["period"]).sort_key)
        if a["period_type"] != b["period_type"] or a["unit"] != b["unit"]:
            continue
        delta = Decimal(b["value_text"]) - Decimal(a["value_text"])
        sign = "+" if delta > 0 else ""
        unit = prof.unit(b["unit"])
        derived = b.get("operands") is not None
        shown = format_value(
            delta if derived else delta.normalize(), b.get("decimals") if derived else None
        )
        amount = f"{shown} 个百分点" if unit.kind == "percent" else f"{shown} {unit.display}"
        line = (
            f"{_entity_name(entity, prof)} {_metric_name(metric, prof)}"
            f"{_channel_name(channel, prof)} {period_label(b['period_type'], b['period'])} 较 "
            f"{period_label(a['period_type'], a['period'])} 变化:{sign}{amount}(由上述数值计算)"
        )
        lines.append((metric, line))
    return lines
