"""How tool results become answer text: every value rendered from the stored fact, with its source.

Nothing here reads model output. A found fact becomes ``实体 期间 指标(渠道):值 单位(来源:…)`` in
the profile's names and display units; a derived metric adds its formula and one line per operand
with that operand's source; a miss names what was looked for; a difference is computed from two
found facts and says so. Codes appear only in ``--json``. Every line is said in the answer's
language (``wording.py``: Hong Kong FY2024 revenue: 455 million USD (source: …)), with the
profile's names in it (``names.py``); the figures, rounding and sources are the same in both.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from ragspine.agent.asked_scale import AskedScale, in_asked_scale
from ragspine.agent.names import channel_word, entity_name, metric_name, unit_name
from ragspine.agent.query_tools import (
    FoundResult,
    NotFoundResult,
    Source,
    ToolResult,
    UnrecognizedResult,
)
from ragspine.agent.wording import ZH, Language, joined, opening, say
from ragspine.profile import DomainProfile
from ragspine.profile.formula import Operand, parse_formula
from ragspine.profile.glossary import closest_metrics
from ragspine.profile.periods import Period
from ragspine.text import fold

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


def _what(
    metric_code: str,
    entity: str,
    channel: str,
    period: str,
    prof: DomainProfile,
    lang: Language,
    *,
    balance: bool,
) -> str:
    """What a figure is of: 香港 FY2024 收入(线上) / Hong Kong FY2024 online revenue; a balance
    at its period's end (FY2024末 / at the end of FY2024). ``entity`` is a code or ""."""
    key = "what.balance" if balance else "what.flow"
    return say(
        key,
        lang,
        entity=f"{entity_name(entity, prof, lang)} " if entity else "",
        period=period,
        metric=metric_name(metric_code, prof, lang),
        channel=channel_name(channel, prof, lang),
    )


def _is_balance(metric_code: str, prof: DomainProfile) -> bool:
    """A balance is stated at its period's end (FY2024末); a flow over the period (FY2024)."""
    return getattr(prof.any_metric(metric_code), "kind", "flow") == "balance"


def _amount(
    value: str | float,
    unit_code: str,
    prof: DomainProfile,
    decimals: int | None,
    lang: Language = ZH,
) -> str:
    unit = prof.unit(unit_code)
    shown = format_value(value, decimals)
    if unit.kind == "percent":
        return f"{shown}%"
    name = unit_name(unit_code, prof, lang)
    return f"{shown} {name}" if name else shown


def fact_amount(
    r: FoundResult, prof: DomainProfile, decimals: int | None = None, lang: Language = ZH
) -> str:
    """A found result's figure with its unit, rounded as its fact line shows it."""
    rounding = decimals if decimals is not None or not r.get("operands") else r.get("decimals", 2)
    return _amount(r["value_text"], r["unit"], prof, rounding, lang)


def channel_name(code: str, prof: DomainProfile, lang: Language = ZH) -> str:
    """(线上) after a metric's name, "online " before it; nothing for the default channel."""
    if code == prof.default_channel:
        return ""
    return say("channel", lang, name=channel_word(code, prof, lang))


def _cite(src: Source, lang: Language) -> str:
    return say("cite", lang, doc=src["doc"], locator=src["locator"])


def fact_line(
    r: FoundResult,
    prof: DomainProfile,
    decimals: int | None = None,
    lang: Language = ZH,
    asked: AskedScale | None = None,
) -> str:
    """A found fact: 香港 FY2024 收入:455 百万美元(来源:…) / Hong Kong FY2024 revenue: 455 million
    USD (source: …); a derived one with its formula, then each operand with its source. A scale
    the question asks (``asked``: 多少千元) adds the figure converted into it beside the held
    one."""
    period = period_label(r["period_type"], r["period"])
    balance = _is_balance(r["metric_code"], prof)
    what = _what(r["metric_code"], r["entity"], r["channel"], period, prof, lang, balance=balance)
    operands = r.get("operands")
    if not operands:
        amount = _amount(r["value_text"], r["unit"], prof, decimals, lang)
        converted = asked and in_asked_scale(r["value_text"], r["unit"], asked, prof, lang != ZH)
        if converted:
            shown = format_value(converted[0], 2 if decimals is None else decimals)
            amount = say("in_scale", lang, amount=amount, converted=f"{shown} {converted[1]}")
        return opening(
            say("fact", lang, what=what, amount=amount, cite=_cite(r["source"], lang)), lang
        )
    rounding = decimals if decimals is not None else r.get("decimals", 2)
    formula = parse_formula(r.get("formula", ""))

    def name(o: Operand) -> str:
        whose = say("whose", lang, name=entity_name(o.entity, prof, lang)) if o.entity else ""
        # a channel the formula fixes is named even when it is the default (合计 / total)
        channel = (
            say("channel", lang, name=channel_word(o.channel, prof, lang)) if o.channel else ""
        )
        named = say(
            "formula.name",
            lang,
            whose=whose,
            metric=metric_name(o.code, prof, lang),
            channel=channel,
        )
        return say("lag", lang, name=named) if o.lag else named

    amount = _amount(r["value_text"], r["unit"], prof, rounding, lang)
    lines = [
        opening(say("derived", lang, what=what, amount=amount, formula=formula.render(name)), lang)
    ]
    for op in operands:
        other = op["entity"] != r["entity"]  # a share of the group names the group
        label = period_label(op["period_type"], op["period"])
        what = _what(
            op["metric_code"],
            op["entity"] if other else "",
            op["channel"],
            label,
            prof,
            lang,
            balance=_is_balance(op["metric_code"], prof),
        )
        amount = _amount(op["value_text"], op["unit"], prof, None, lang)
        lines.append(say("operand", lang, what=what, amount=amount, cite=_cite(op["source"], lang)))
    return "\n".join(lines)


def not_found_line(
    r: NotFoundResult, prof: DomainProfile, lang: Language = ZH, said: dict[str, str] | None = None
) -> str:
    """What was looked for and not found, in the answer's language (查不到:香港 FY2025 收入 …;
    Not found: mainland China FY2024 online gross margin …); a period by its label and, where
    ``said`` holds them (said_periods.py), the question's own words for it."""
    n = r["normalized"]
    label = period_label(n["period_type"], n["period"])
    words = (said or {}).get(label)
    what = say(
        "not_found.what",
        lang,
        entity=entity_name(n["entity"], prof, lang),
        period=label,
        metric=metric_name(n["metric_code"], prof, lang),
        channel=channel_name(n["channel"], prof, lang),
    ) + (say("period.said", lang, words=words) if words else "")
    missing = r.get("missing")
    if missing:
        parts = joined(
            [
                say(
                    "missing.part",
                    lang,
                    period=m["period"],
                    metric=metric_name(m["metric_code"], prof, lang),
                )
                for m in missing
            ],
            lang,
        )
        return say("not_found.missing", lang, what=what, parts=parts)
    return say("not_found", lang, what=what)


def not_found_answer(
    r: NotFoundResult, prof: DomainProfile, lang: Language = ZH, said: dict[str, str] | None = None
) -> str:
    return f"{not_found_line(r, prof, lang, said)}\n{say('not_found.tail', lang)}"


def metric_menu(codes: list[str], prof: DomainProfile, lang: Language = ZH) -> str:
    names = joined([metric_name(c, prof, lang) for c in codes], lang)
    total = len(prof.metric_codes)
    return names + (say("list.more", lang) if total > len(codes) else "")


def unrecognized_line(
    r: UnrecognizedResult, question: str, prof: DomainProfile, lang: Language = ZH
) -> str:
    param, raw = r["param"], r["raw"]
    # Echo the raw value only if the user wrote it: a model's argument may carry a made-up number.
    shown = say("user_words", lang, words=raw) if raw and fold(raw) in fold(question) else ""
    if param == "period":
        # No example figures here: an answer holds only numbers with a source.
        hint = say("hint.period", lang)
    elif param == "metric":
        hint = say(
            "hint.metric", lang, names=metric_menu(closest_metrics(question, prof), prof, lang)
        )
    elif param == "entity":
        names = joined([entity_name(e.code, prof, lang) for e in prof.entities], lang)
        hint = say("hint.entity", lang, names=names)
    elif param == "channel":
        names = joined([channel_word(c.code, prof, lang) for c in prof.channels], lang)
        hint = say("hint.channel", lang, names=names)
    else:
        hint = ""
    return say("unrecognized", lang, param=param, shown=shown, hint=hint)


def unrecognized_answer(
    r: UnrecognizedResult, question: str, prof: DomainProfile, lang: Language = ZH
) -> str:
    return f"{unrecognized_line(r, question, prof, lang)}\n{say('no_guess', lang)}"


def differences(
    results: list[ToolResult], prof: DomainProfile, lang: Language = ZH
) -> list[tuple[str, str]]:
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
        derived = b.get("operands") is not None
        shown = sign + format_value(
            delta if derived else delta.normalize(), b.get("decimals") if derived else None
        )
        if prof.unit(b["unit"]).kind == "percent":
            amount = say("points", lang, value=shown)
        else:
            amount = f"{shown} {unit_name(b['unit'], prof, lang)}"
        line = say(
            "difference",
            lang,
            entity=entity_name(entity, prof, lang),
            metric=metric_name(metric, prof, lang),
            channel=channel_name(channel, prof, lang),
            later=period_label(b["period_type"], b["period"]),
            earlier=period_label(a["period_type"], a["period"]),
            amount=amount,
        )
        lines.append((metric, opening(line, lang)))
    return lines
