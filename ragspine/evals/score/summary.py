"""From per-case results to the run's metrics, with counts and 95% intervals, overall and per tag.

A provider error is a failure of the pass rate (a provider that falls over must not look better)
but never a miss of a check: the check rates, and ``answered_pass_rate``, are over the cases the
provider answered, and errors are counted by kind apart. Repeats are trials of one case: the
intervals cluster them by case, and each case gets a verdict over its repeats.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable
from typing import Any

import pandas as pd

from ragspine.evals.run.records import CaseResult, Summary
from ragspine.evals.score.metrics import counted_fields, scored_rates
from ragspine.evals.score.repeats import repeat_verdicts

Z95 = 1.959963984540054


def wilson(count: int, total: int, *, effective: float | None = None) -> dict[str, Any]:
    """A proportion with its Wilson score interval: sane at 0/n and n/n, unlike the normal one.

    ``effective``: the independent draws the trials are worth (fewer when they are clustered).
    """
    if total == 0:
        return {"value": None, "count": 0, "total": 0, "ci_low": None, "ci_high": None}
    p = count / total
    n = float(total if effective is None else effective)
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n**2)) / denom
    return {
        "value": round(p, 6),
        "count": count,
        "total": total,
        "ci_low": round(max(0.0, centre - half), 6),
        "ci_high": round(min(1.0, centre + half), 6),
    }


def _frame(results: Iterable[CaseResult], counted: dict[str, str]) -> pd.DataFrame:
    """A few columns per result, built column by column, so a run of any size summarises in
    little memory: a list of row dicts was 1.5 KB a result before the frame was made."""
    columns: dict[str, list[Any]] = {}
    for done, r in enumerate(results):
        row: dict[str, Any] = {
            "case_id": r.case_id,
            "repeat": r.repeat,
            "tags": tuple(sys.intern(t) for t in r.tags),
            "passed": r.passed,
            "error": r.error is not None,
            "error_kind": r.error_kind or ("other" if r.error is not None else None),
            "guard": r.guard_triggered,
            "latency_ms": r.latency_ms,
            "input_tokens": r.usage.get("input_tokens", 0),
            "output_tokens": r.usage.get("output_tokens", 0),
            "cache_read": r.usage.get("cache_read_input_tokens", 0),
            "cache_write": r.usage.get("cache_creation_input_tokens", 0),
        }
        for metric, field in counted.items():
            value = getattr(r, field)
            row[f"count:{metric}"] = value if isinstance(value, int) else len(value)
        for check in r.checks:
            row[f"check:{check.name}"] = check.passed
            if check.name == "guard":
                row["guard_expected"] = check.expected
        for key, value in row.items():
            column = columns.get(key)
            if column is None:  # a check first seen now: absent (None) from the rows before
                column = columns[key] = [None] * done
            column.append(value)
        for column in columns.values():
            if len(column) <= done:
                column.append(None)
    return pd.DataFrame(columns)


def clustered(passed: pd.Series, case: pd.Series) -> dict[str, Any]:
    """A proportion over repeated trials: a Wilson interval over the trials a design effect says
    they are worth.

    Repeats of one case are not independent (the same question, the same passages): counted as
    independent draws they make the interval too narrow. The design effect is the ratio of the
    cluster-robust variance (cases as the unit) to the binomial one, kept between 1 (repeats as
    unlike as independent trials) and the repeats per case (every repeat alike: the evidence of
    one). Where it cannot be read (every trial passed, or none did) it is the repeats per case,
    so k identical repeats give the interval one repeat gives, and never a zero-width one.
    """
    by_case = pd.DataFrame({"x": passed.astype(float), "case": case.to_numpy()}).groupby("case")
    x, m = by_case["x"].sum(), by_case["x"].count()
    n, total, count = len(m), int(m.sum()), int(x.sum())
    if n < 2 or total == 0:
        return wilson(count, total)
    p = count / total
    most = total / n
    deff = most
    if 0 < p < 1:
        robust = n / (n - 1) * float(((x - p * m) ** 2).sum()) / total**2
        deff = min(most, max(1.0, robust / (p * (1 - p) / total)))
    out = wilson(count, total, effective=total / deff)
    out["clustered"] = n  # cases: the interval counts each case's repeats as worth fewer draws
    return out


def _rate(passed: pd.Series, case: pd.Series) -> dict[str, Any]:
    if case.duplicated().any():
        return clustered(passed, case)
    return wilson(int(passed.sum()), len(passed))


def _rates(df: pd.DataFrame) -> dict[str, Any]:
    out: dict[str, Any] = {}
    answered = df[~df["error"]]
    for metric, (check, over) in scored_rates().items():
        cases = df if over == "all" else answered
        if check is None:
            out[metric] = _rate(cases["passed"], cases["case_id"])
            continue
        column = f"check:{check}"
        if column not in cases:
            out[metric] = wilson(0, 0)
            continue
        judged = cases[cases[column].notna()]
        out[metric] = _rate(judged[column].eq(True), judged["case_id"])
    out["error_rate"] = _rate(df["error"], df["case_id"])
    out["guard_triggered_rate"] = _rate(df["guard"].eq(True) & ~df["error"], df["case_id"])
    return out


def repeats(df: pd.DataFrame) -> dict[str, Any] | None:
    """Each case's verdict over its answered repeats, and pass@k / pass^k (``score.repeats``)."""
    answered = df["passed"].where(~df["error"])
    per_case = pd.DataFrame({"c": answered.eq(True), "n": answered.notna(), "case": df["case_id"]})
    sums = per_case.groupby("case").agg(c=("c", "sum"), n=("n", "sum"), run=("c", "size"))
    return repeat_verdicts(
        {str(i): (int(c), int(n), int(r)) for i, c, n, r in sums.itertuples(name=None)}
    )


def summarize(run_id: str | None, provider: str, results: Iterable[CaseResult]) -> Summary:
    counted = counted_fields()
    df = _frame(results, counted)
    if df.empty:
        return Summary(run_id=run_id, provider=provider, cases=0, metrics={"errors": 0})
    metrics = _rates(df)
    metrics["errors"] = int(df["error"].sum())
    kinds = df.loc[df["error"], "error_kind"].value_counts()
    errors_by_kind = {str(k): int(n) for k, n in sorted(kinds.items())}
    for metric in counted:
        column = f"count:{metric}"
        metrics[metric] = {
            "cases": int((df[column] > 0).sum()),
            "numbers": int(df[column].sum()),
        }
    metrics["latency_ms"] = {
        "p50": round(float(df["latency_ms"].quantile(0.5)), 3),
        "p95": round(float(df["latency_ms"].quantile(0.95)), 3),
    }
    metrics["tokens"] = {
        "input": int(df["input_tokens"].sum()),
        "output": int(df["output_tokens"].sum()),
        "cache_read": int(df["cache_read"].sum()),
        "cache_write": int(df["cache_write"].sum()),
    }
    per_tag: dict[str, dict[str, Any]] = {}
    exploded = df.explode("tags")
    for tag, group in exploded.groupby("tags", sort=True):
        rates = _rates(group)
        if not rates["error_rate"]["count"]:  # without errors both say what pass_rate says
            del rates["error_rate"], rates["answered_pass_rate"]
        per_tag[str(tag)] = {k: v for k, v in rates.items() if v["total"] or k == "pass_rate"}
    confusion = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    if "guard_expected" in df:
        judged = df[df["guard_expected"].notna() & ~df["error"]]
        for expected, actual in zip(judged["guard_expected"], judged["guard"], strict=True):
            key = ("t" if expected == actual else "f") + ("p" if actual else "n")
            confusion[key] += 1
    return Summary(
        run_id=run_id,
        provider=provider,
        cases=len(df),
        metrics=metrics,
        per_tag=per_tag,
        guard_confusion=confusion,
        errors_by_kind=errors_by_kind,
        repeats=repeats(df),
    )
