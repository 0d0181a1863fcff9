"""Issue 27's real-question measurement: how often is a real ratio or growth question answered
with another quantity than the one it asks?

``python -m benchmarks.meaning_realworld [--limit N]`` (``make meaning-realworld``). The labelled
real questions of type 2-1 (a derived metric by formula) in ``../shared/realworld`` are about
many listed companies and years; each is moved onto the real example company, 金宇生物, and
its year 2020 (the company's full name, or the short name the question writes, replaced by
金宇生物's, the year by 2020), and asked of the engine on the example's stores
(``make fixtures-jinyu``), offline.

The asked quantity is the formula name the question names (``formulas.tsv``; the longest
named, else the closest by characters in order, for a question that words it its own way),
mapped to the profile's derived metric by its name or aliases. The answer is read by the
harness's own reading (``ragspine/evals/score/reading.py``), never by the engine's parser:

* **right**: it found the asked metric and nothing else;
* **another quantity**: it found another metric (the failure issue 27 is about);
* **not found**: it found nothing and looked for something (查不到);
* **asked back**: it asked which metric was meant;
* **declined**: no found fact, no number, no source;
* **other**: none of these (an answer from documents, with numbers or sources).

It prints the counts and what the other quantities were. A measure, never a gate: it exits 0
whatever the figures.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ragspine.engine import Engine
from ragspine.evals.score.reading import found_metrics, read_decline
from ragspine.profile import DomainProfile, load_profile

ROOT = Path(__file__).parents[1]
REALWORLD = ROOT.parent / "shared" / "realworld"
JINYU = ROOT / "examples" / "jinyu"
HOME_FULL, HOME_SHORT, HOME_YEAR = "金宇生物技术股份有限公司", "金宇生物", "2020"
REFERENCE_DATE = date(2022, 6, 30)  # as the example's golden suite: FY2020 is a past year
KINDS = ("right", "another quantity", "not found", "asked back", "declined", "other")


# -- the question, moved onto 金宇生物 and 2020 --------------------------------------------------


def _in_order(span: str, name: str) -> bool:
    """Are the span's characters found in the name, in order (立昂微 in 杭州立昂微电子…)?"""
    rest = iter(name)
    return all(ch in rest for ch in span)


def company_span(question: str, company: str) -> str | None:
    """How the question names the company: its full name, or the longest run of the question
    (two characters or more) whose characters appear in the full name in order, which is how
    short names are made (海航控股 for 海南航空控股股份有限公司)."""
    if company in question:
        return company
    best: str | None = None
    for i, ch in enumerate(question):
        if ch not in company:
            continue
        for j in range(len(question), i + 1, -1):
            span = question[i:j]
            if len(span) > len(best or "") and _in_order(span, company):
                best = span
                break
    return best


def transplant(question: str, company: str, year: str) -> str | None:
    """The question about 金宇生物 in 2020; None when the company or year is not found in it."""
    span = company_span(question, company)
    if span is None or year not in question:
        return None
    home = HOME_FULL if span == company else HOME_SHORT
    return question.replace(span, home).replace(year, HOME_YEAR)


# -- the quantity asked --------------------------------------------------------------------------

_NOISE = re.compile(r"[的\s]|^企业")


def _bare(text: str) -> str:
    return _NOISE.sub("", text)


def _common(a: str, b: str) -> int:
    """The longest common subsequence of two short strings, in characters."""
    row = [0] * (len(b) + 1)
    for ch in a:
        prev = 0
        for j, other in enumerate(b, start=1):
            prev, row[j] = row[j], prev + 1 if ch == other else max(row[j], row[j - 1])
    return row[-1]


def asked_formula(question: str, names: Sequence[str], *, closest: float = 0.8) -> str | None:
    """The formula name the question asks for: the longest one it contains (ignoring 的, spaces
    and a leading 企业), else the one whose characters it holds most fully in order (at least
    ``closest`` of them: 投资收益占营业收入的比例 asks for 投资收益占营业收入比率)."""
    text = _bare(question)
    contained = [n for n in names if n in question or _bare(n) in text]
    if contained:
        return max(contained, key=len)
    scored = [(_common(_bare(n), text) / len(_bare(n)), len(n), n) for n in names]
    share, _, name = max(scored)
    return name if share >= closest else None


def load_formula_names(path: Path) -> list[str]:
    lines = path.read_text("utf-8").splitlines()[1:]
    return list(dict.fromkeys(line.split("\t")[0] for line in lines if line.strip()))


def derived_code(name: str, profile: DomainProfile) -> str | None:
    """The profile's derived metric that the formula name names (its name or an alias)."""
    for metric in profile.derived_metrics:
        if name == metric.name_zh or name in metric.aliases:
            return metric.code
    return None


# -- the answer, read by the harness -------------------------------------------------------------


def classify(
    asked: str,
    *,
    answer: str,
    tool_results: Sequence[Mapping[str, Any]],
    sources: Sequence[Mapping[str, Any]],
    clarification: str,
) -> str:
    """One of KINDS, from the answer alone (see the module's docstring)."""
    found = found_metrics(tool_results)
    if found:
        return "right" if found == [asked] else "another quantity"
    if any(r.get("status") == "not_found" for r in tool_results):
        return "not found"
    if clarification == "ask_first":
        return "asked back"
    reading = read_decline(
        answer, tool_results=tool_results, sources=sources, clarification=clarification
    )
    return "declined" if reading.declined else "other"


@dataclass
class Measured:
    counts: Counter[str] = field(default_factory=Counter)
    others: Counter[tuple[str, str]] = field(default_factory=Counter)  # (asked, answered)
    skipped: list[str] = field(default_factory=list)  # questions that could not be moved
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def asked(self) -> int:
        return sum(self.counts.values())


def load_questions(path: Path, kind: str = "2-1") -> list[dict[str, str]]:
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return [r for r in rows if r.get("type") == kind]


def measure(
    engine: Engine, questions: Iterable[Mapping[str, str]], formula_names: Sequence[str]
) -> Measured:
    out = Measured()
    for q in questions:
        moved = transplant(q["question"], q["company"], q["year"])
        formula = asked_formula(q["question"], formula_names)
        code = derived_code(formula, engine.profile) if formula else None
        if moved is None or code is None:
            out.skipped.append(q["question"])
            continue
        result = engine.ask(moved, reference_date=REFERENCE_DATE, clearance="PUBLIC")
        kind = classify(
            code,
            answer=result.answer,
            tool_results=result.tool_results,
            sources=result.sources,
            clarification=result.clarification.mode,
        )
        out.counts[kind] += 1
        answered = found_metrics(result.tool_results)
        if kind == "another quantity":
            out.others[(code, ", ".join(answered))] += 1
        out.rows.append(
            {"source": q.get("source"), "question": moved, "asked": code, "kind": kind,
             "answered": answered, "answer": result.answer}
        )  # fmt: skip
    return out


def report(measured: Measured) -> str:
    n = measured.asked
    lines = [
        f"issue 27, real questions of type 2-1 moved onto {HOME_SHORT} {HOME_YEAR}: "
        f"{n} asked ({len(measured.skipped)} could not be moved)",
    ]
    for kind in KINDS:
        count = measured.counts.get(kind, 0)
        lines.append(f"  {kind:<18}{count:>5}  ({count / n:.1%})" if n else f"  {kind:<18}0")
    if measured.others:
        lines.append("another quantity, asked → answered:")
        lines += [f"  {a} → {b}: {c}" for (a, b), c in measured.others.most_common()]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.meaning_realworld")
    parser.add_argument("--db", default="data/demo/jinyu/facts.db")
    parser.add_argument("--corpus", default="data/demo/jinyu/chunks.db")
    parser.add_argument("--profile", default=str(JINYU / "profile.yaml"))
    parser.add_argument("--questions", default=str(REALWORLD / "questions_labelled_1000.jsonl"))
    parser.add_argument("--formulas", default=str(REALWORLD / "formulas.tsv"))
    parser.add_argument("--limit", type=int, default=None, help="the first N questions only")
    parser.add_argument("--out", default=None, help="write each question's reading (JSONL)")
    args = parser.parse_args(argv)
    questions = load_questions(Path(args.questions))[: args.limit]
    names = load_formula_names(Path(args.formulas))
    with Engine.open(args.db, args.corpus, profile=load_profile(args.profile)) as engine:
        measured = measure(engine, questions, names)
    print(report(measured))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        with Path(args.out).open("w", encoding="utf-8") as fh:
            for row in measured.rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
