"""Issue 24's count: how many of the 1,000 labelled real questions a DRAFTED profile for 金宇生物
answers, beside the hand-written examples/jinyu/profile.yaml.

``python -m benchmarks.drafted_realworld`` (``make drafted-realworld``, which builds both set-ups
first: the hand-written example as `make fixtures-jinyu` builds it, and `ragspine profile draft`
of the 2020 report and the statements workbook, with no edit, then `ragspine ingest` of both
files with it). The questions are about many listed companies and years; each is moved onto
金宇生物 and 2020 by the protocol of ``benchmarks.meaning_realworld`` (the company's full name,
or the short name the question writes, replaced by 金宇生物's, the year by 2020). A question that
names no company (a concept, 什么是…) is asked as it is; so is one whose company is not named in
it (a ranking across listed companies: 哪家上市公司…).

Each answer is read by the harness (``ragspine/evals/score/reading.py``), never by the engine:

* **figure**: a figure from the fact table (a found tool result);
* **passages**: an answer from the documents, with sources, no figure;
* **not found**: it looked for a figure and the store has none (查不到);
* **asked back**: it asked which quantity was meant;
* **declined**: no figure, no number, no source (another company, a ranking, out of scope);
* **other**: none of these.

Answered = figure or passages. Printed: the counts per profile and type, how many questions get
the same reading from both, and, of those both answer with a figure, how many with the same
metrics and numbers. A measure, never a gate: exit 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks.meaning_realworld import (
    HOME_FULL,
    HOME_SHORT,
    HOME_YEAR,
    REALWORLD,
    REFERENCE_DATE,
    company_span,
)
from ragspine.engine import Engine
from ragspine.evals.score.reading import found_metrics, numbers_in, read_decline
from ragspine.profile import load_profile

ROOT = Path(__file__).parents[1]
KINDS = ("figure", "passages", "not found", "asked back", "declined", "other")
ANSWERED = {"figure", "passages"}
SHORTEST_NAME = 3  # a run shorter than this (公司 in 上市公司) is no company's name


def move(question: str, company: str | None, year: str | None) -> str:
    """The question about 金宇生物 in 2020, or as it is when it names no company."""
    span = company_span(question, company) if company else None
    if span is None or len(span) < SHORTEST_NAME:
        return question
    moved = question.replace(span, HOME_FULL if span == company else HOME_SHORT)
    return moved.replace(year, HOME_YEAR) if year else moved


def read(
    answer: str,
    tool_results: Sequence[Mapping[str, Any]],
    sources: Sequence[Mapping[str, Any]],
    clarification: str,
) -> str:
    """One of KINDS (see the module's docstring)."""
    if found_metrics(tool_results):
        return "figure"
    if any(r.get("status") == "not_found" for r in tool_results):
        return "not found"
    if clarification == "ask_first":
        return "asked back"
    reading = read_decline(
        answer, tool_results=tool_results, sources=sources, clarification=clarification
    )
    if reading.declined:
        return "declined"
    return "passages" if sources else "other"


def ask_all(engine: Engine, questions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for q in questions:
        moved = move(q["question"], q.get("company"), q.get("year"))
        result = engine.ask(moved, reference_date=REFERENCE_DATE, clearance="PUBLIC")
        kind = read(result.answer, result.tool_results, result.sources, result.clarification.mode)
        figures = (found_metrics(result.tool_results), sorted(numbers_in(result.answer)))
        out.append(
            {"source": q.get("source"), "type": q["type"], "question": moved, "kind": kind,
             "figures": figures if kind == "figure" else None, "answer": result.answer}
        )  # fmt: skip
    return out


def report(hand: list[dict[str, Any]], drafted: list[dict[str, Any]]) -> str:
    n = len(hand)
    lines = [f"issue 24, {n} labelled real questions moved onto {HOME_SHORT} {HOME_YEAR}:"]
    for name, rows in (("hand-written", hand), ("drafted", drafted)):
        kinds = Counter(r["kind"] for r in rows)
        answered = sum(kinds[k] for k in ANSWERED)
        lines.append(
            f"  {name:<13} answers {answered:>4} ({answered / n:.1%}): "
            + ", ".join(f"{k} {kinds.get(k, 0)}" for k in KINDS)
        )
    types = sorted({r["type"] for r in hand})
    lines.append("  answered by type (hand-written / drafted):")
    for t in types:
        both = [(h, d) for h, d in zip(hand, drafted, strict=True) if h["type"] == t]
        a = sum(h["kind"] in ANSWERED for h, _ in both)
        b = sum(d["kind"] in ANSWERED for _, d in both)
        lines.append(f"    {t:<4} {len(both):>4} asked: {a:>4} / {b:>4}")
    same = sum(h["kind"] == d["kind"] for h, d in zip(hand, drafted, strict=True))
    figures = [
        (h, d) for h, d in zip(hand, drafted, strict=True) if h["kind"] == d["kind"] == "figure"
    ]
    agree = sum(h["figures"] == d["figures"] for h, d in figures)
    lines.append(f"  same reading from both: {same} of {n}")
    lines.append(f"  a figure from both: {len(figures)}, the same metrics and numbers: {agree}")
    moves = Counter((h["kind"], d["kind"]) for h, d in zip(hand, drafted, strict=True))
    lines.append("  where they differ (hand-written → drafted):")
    lines += [f"    {a} → {b}: {c}" for (a, b), c in moves.most_common() if a != b]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.drafted_realworld")
    parser.add_argument("--hand", nargs=3, metavar=("PROFILE", "DB", "CORPUS"), default=[
        str(ROOT / "examples" / "jinyu" / "profile.yaml"), "data/jinyu/fact_metric.db",
        "data/jinyu/chunks.db"])  # fmt: skip
    parser.add_argument("--drafted", nargs=3, metavar=("PROFILE", "DB", "CORPUS"), default=[
        "data/jinyu-drafted/profile.yaml", "data/jinyu-drafted/facts.db",
        "data/jinyu-drafted/chunks.db"])  # fmt: skip
    parser.add_argument("--questions", default=str(REALWORLD / "questions_labelled_1000.jsonl"))
    parser.add_argument("--limit", type=int, default=None, help="the first N questions only")
    parser.add_argument("--out", default=None, help="write each question's two readings (JSONL)")
    args = parser.parse_args(argv)
    lines = Path(args.questions).read_text("utf-8").splitlines()
    questions = [json.loads(line) for line in lines if line.strip()][: args.limit]
    readings = []
    for profile, db, corpus in (args.hand, args.drafted):
        with Engine.open(db, corpus, profile=load_profile(profile)) as engine:
            readings.append(ask_all(engine, questions))
    print(report(*readings))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        with Path(args.out).open("w", encoding="utf-8") as fh:
            for h, d in zip(*readings, strict=True):
                fh.write(json.dumps({"hand": h, "drafted": d}, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
