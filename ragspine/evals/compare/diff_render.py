"""``diff.md``: a pull-request comment a reviewer understands in a minute.

First the count of what moved, then what broke grouped by the check that broke (the causes),
each case with its question, what was expected, and the before and after answers around the
part that changed (``455`` → ``456``); then pass rates per tag and the metrics; the fixed and the
changed; coverage. It stays under GitHub's comment limit: when the cases do not fit, fewer are
shown per group and the rest are counted, with ``diff.json`` holding them all.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tabulate import tabulate

from ragspine.evals.compare.diff import DIFF_JSON, RunDiff, RunSide
from ragspine.evals.compare.pairing import CaseChange, CheckChange
from ragspine.evals.report.markdown import num
from ragspine.evals.report.wording import changed_span, md, show
from ragspine.evals.run.folder import unfinished_note
from ragspine.evals.score.metrics import better

LIMIT = 60_000  # characters; GitHub comments stop at 65,536
PER_GROUP = 10  # cases shown per cause before the comment has to shrink


def render_diff(diff: RunDiff) -> str:
    """The comment, with as many cases per group as fit under ``LIMIT``."""
    shown = PER_GROUP
    while True:
        text = _render(diff, shown)
        if len(text) <= LIMIT or shown == 1:
            break
        shown = max(1, shown // 2)
    if len(text) > LIMIT:
        cut = text.rfind("\n", 0, LIMIT - 200)
        text = (
            text[:cut] + f"\n\n… cut to fit a pull-request comment: everything is in {DIFF_JSON}\n"
        )
    return text


def _render(diff: RunDiff, shown: int) -> str:
    lines = ["## Eval diff: A → B", "", _describe("A", diff.a), _describe("B", diff.b), ""]
    for label, side in (("A", diff.a), ("B", diff.b)):
        lines += unfinished_note(label, side.folder, side.unfinished)
    if diff.a.golden_hash != diff.b.golden_hash:
        lines += ["> The golden sets differ: expect coverage changes.", ""]
    lines += [
        f"**{len(diff.regressed)} regressed · {len(diff.fixed)} fixed · "
        f"{len(diff.changed)} changed behaviour · {len(diff.new_in_b)} new · "
        f"{len(diff.missing_in_b)} missing · {diff.unchanged} unchanged**",
        "",
    ]
    if diff.regressed or diff.fixed:
        lines += ["### What broke, what was fixed", "", _causes(diff), ""]
    lines += _grouped("Regressed", diff.regressed, shown)
    lines += _tags(diff)
    lines += _metrics(diff)
    lines += _grouped("Fixed", diff.fixed, shown)
    lines += _changed(diff.changed, shown * 2)
    lines += [
        "### Coverage: new in B / missing in B",
        "",
        f"- new in B ({len(diff.new_in_b)}): {_ids(diff.new_in_b, shown * 5)}",
        f"- missing in B ({len(diff.missing_in_b)}): {_ids(diff.missing_in_b, shown * 5)}",
        "",
    ]
    return "\n".join(lines)


def _describe(label: str, s: RunSide) -> str:
    model = f" ({md(s.model)})" if s.model else ""
    return (
        f"- **{label}** {md(s.folder)}: run {md(s.run_id or 'baseline')} · "
        f"{md(s.provider or '?')}{model} · golden {md((s.golden_hash or '?')[:19])} · "
        f"commit {md((s.git_commit or '—')[:10])} · {s.cases} cases"
    )


def _cause(case: CaseChange) -> str:
    broke = case.broke if case.passed_a else [c.name for c in case.checks if c.passed_a is False]
    return broke[0] if broke else "now fails" if case.passed_a else "now passes"


def _causes(diff: RunDiff) -> str:
    """A row per check: how many cases it broke or fixed, and in which tags."""
    broke = Counter(_cause(c) for c in diff.regressed)
    fixed = Counter(_cause(c) for c in diff.fixed)
    rows = []
    for name in [*broke, *(n for n in fixed if n not in broke)]:
        tags = Counter(t for c in diff.regressed if _cause(c) == name for t in c.tags)
        rows.append(
            [
                f"`{md(name)}`",
                str(broke[name]),
                str(fixed[name]),
                md(", ".join(f"{t} {n}" for t, n in tags.most_common(5))),
            ]
        )
    return _table(rows, ["check", "regressed", "fixed", "tags (regressed)"])


def _grouped(title: str, cases: list[CaseChange], shown: int) -> list[str]:
    if not cases:
        return []
    groups: dict[str, list[CaseChange]] = {}
    for case in cases:
        groups.setdefault(_cause(case), []).append(case)
    lines: list[str] = []
    for name, members in sorted(groups.items(), key=lambda g: -len(g[1])):
        lines += [f"### {title}: `{md(name)}` ({len(members)})", ""]
        for case in members[:shown]:
            lines += _case(case)
        if len(members) > shown:
            more = [md(c.case_id) for c in members[shown : shown + 20]]
            rest = len(members) - shown - len(more)
            tail = f", … and {rest} more" if rest > 0 else ""
            lines.append(
                f"- and {len(members) - shown} more ({', '.join(more)}{tail}): {DIFF_JSON}"
            )
        lines.append("")
    return lines


def _case(c: CaseChange) -> list[str]:
    repeat = f" (repeat {c.repeat})" if c.repeat else ""
    tags = f" · {md(', '.join(c.tags))}" if c.tags else ""
    lines = [f"- **{md(c.case_id)}**{repeat}{tags}: {md(c.question, 160)}"]
    for k in c.checks:
        if k.passed_b is not None and k.passed_a is not None:  # not a check the error stopped
            lines.append(
                f"  - `{md(k.name)}` {_passed(k.passed_a)} → {_passed(k.passed_b)}: {_why(k)}"
            )
    for f in c.behaviour:
        lines.append(f"  - {f.field}: {md(f.a, 120)} → {md(f.b, 120)}")
    if c.answer_a is not None or c.answer_b is not None:
        before, after = changed_span(c.answer_a or "", c.answer_b or "")
        lines.append(f"  - before: {_marked(before)}")
        lines.append(f"  - after: {_marked(after)}")
    return lines


def _why(k: CheckChange) -> str:
    """What the check wanted and what B did, worded for the check (``wording``)."""
    want = show(k.expected_b if k.expected_b is not None else k.expected_a)
    if k.name == "answer_contains" and k.passed_b is False:
        return md(f"should contain {want}; lacks {show(k.actual_b)}", 300)
    if k.name == "answer_excludes" and k.passed_b is False:
        return md(f"must not contain {want}; contains {show(k.actual_b)}", 300)
    return md(k.why or f"expected {want}, got {show(k.actual_b)}", 300)


def _marked(span: tuple[str, str, str]) -> str:
    head, middle, tail = span
    if not middle:
        return md(head + tail, 200) if (head + tail).strip() else "_(empty)_"
    return f"{_md_kept(head, 80)}**{md(middle, 100).strip()}**{_md_kept(tail, 80)}"


def _md_kept(text: str, limit: int) -> str:
    """``md`` that keeps one space at either end, where the text had one (45**5** 百万美元)."""
    if not text.strip():
        return " " if text else ""
    left = " " if text[0].isspace() else ""
    right = " " if text[-1].isspace() else ""
    return left + md(text, limit).strip() + right


def _passed(value: bool | None) -> str:
    return "absent" if value is None else ("pass" if value else "fail")


def _tags(diff: RunDiff) -> list[str]:
    moved = [t for t in diff.per_tag if t.delta]
    if not moved:
        return []
    rows = [
        [md(t.tag), num(t.a), num(t.b), _delta("pass_rate", t.delta), f"{t.cases_b}"]
        for t in sorted(moved, key=lambda t: t.delta or 0)
    ]
    return [
        "### Pass rate per tag (tags that moved)",
        "",
        _table(rows, ["tag", "A", "B", "Δ", "cases"]),
        "",
    ]


def _metrics(diff: RunDiff) -> list[str]:
    rows = [[md(m.name), num(m.a), num(m.b), _delta(m.name, m.delta)] for m in diff.metrics]
    return ["### Metrics", "", _table(rows, ["metric", "A", "B", "Δ"]), ""]


def _changed(cases: list[CaseChange], shown: int) -> list[str]:
    lines = [f"### Changed behaviour, same pass/fail ({len(cases)})", ""]
    if not cases:
        return [*lines, "_none_", ""]
    for c in cases[:shown]:
        what = [f"{f.field} {md(f.a, 60)} → {md(f.b, 60)}" for f in c.behaviour]
        what += [f"`{md(k.name)}` {_passed(k.passed_a)} → {_passed(k.passed_b)}" for k in c.checks]
        lines.append(f"- **{md(c.case_id)}**: {'; '.join(what)}")
    if len(cases) > shown:
        lines.append(f"- … and {len(cases) - shown} more in {DIFF_JSON}")
    return [*lines, ""]


def _delta(name: str, value: float | None) -> str:
    """The change, marked better or worse where the metric says which way is up."""
    if value is None:
        return "—"
    if value == 0:
        return "0"
    way = better(name)
    mark = "" if way is None else (" better" if (value > 0) == (way == "higher") else " worse")
    return f"{round(value, 4):+g}{mark}"


def _ids(ids: list[str], shown: int) -> str:
    listed = ", ".join(md(i) for i in ids[:shown])
    more = f", … and {len(ids) - shown} more" if len(ids) > shown else ""
    return (listed + more) or "_none_"


def _table(rows: list[list[Any]], headers: list[str]) -> str:
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)
