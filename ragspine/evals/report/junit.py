"""``junit.xml``: one testcase per result, for CI test reporters; a failure says what the check
wanted, what it found and what the answer was, worded as in ``diff.md`` (``wording``)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from ragspine.evals.report.wording import check_text, clean, trim
from ragspine.evals.run.records import JUNIT_FILE, CaseResult, RunRecord

_ERROR_TYPE = re.compile(r"[A-Za-z_][\w.]{0,99}(?=[:\[])")  # "ProviderError[server]: …"


def _failure_message(r: CaseResult) -> str:
    failed = [
        f"{c.name}: {check_text(c)}" for c in r.checks if not c.passed and not c.informational
    ]
    text = "; ".join(failed) or "case failed"
    return f"{text} · answer: {trim(r.answer, 200)}" if r.answer else text


def _failure_detail(r: CaseResult) -> str:
    lines = [f"question: {r.question}"]
    lines += [f"{c.name}: {check_text(c)}" for c in r.checks if not c.passed]
    if r.answer is not None:
        lines.append(f"answer: {r.answer}")
    return clean("\n".join(lines))


def render_junit(record: RunRecord, results: list[CaseResult]) -> ET.Element:
    """One testsuite, one testcase per result; errors and failures counted apart, as CI expects."""
    ordered = sorted(results, key=lambda r: r.key)
    errors = sum(r.error is not None for r in ordered)
    failures = sum(not r.passed and r.error is None for r in ordered)
    root = ET.Element("testsuites")
    suite = ET.SubElement(
        root,
        "testsuite",
        name="ragspine-evals",
        tests=str(len(ordered)),
        failures=str(failures),
        errors=str(errors),
        skipped="0",
        time=f"{sum(r.latency_ms for r in ordered) / 1000:.3f}",
    )
    props = ET.SubElement(suite, "properties")
    for key in ("run_id", "provider", "model", "golden_hash", "git_commit"):
        value = getattr(record, key)
        if value is not None:
            ET.SubElement(props, "property", name=key, value=clean(str(value)))
    for r in ordered:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=clean(r.tags[0] if r.tags else "ragspine"),
            name=clean(r.case_id + (f"#{r.repeat}" if r.repeat else "")),
            time=f"{r.latency_ms / 1000:.3f}",
        )
        if r.error is not None:
            kind = m.group() if (m := _ERROR_TYPE.match(r.error)) else "error"
            node = ET.SubElement(case, "error", message=clean(r.error[:1000]), type=kind)
        elif not r.passed:
            node = ET.SubElement(case, "failure", message=clean(_failure_message(r)[:1000]))
        else:
            continue
        node.text = _failure_detail(r)
    ET.indent(root)
    return root


def write_junit(folder: Path, record: RunRecord, results: list[CaseResult]) -> None:
    root = render_junit(record, results)
    ET.ElementTree(root).write(folder / JUNIT_FILE, encoding="utf-8", xml_declaration=True)
