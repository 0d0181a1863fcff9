"""Run the adversarial pack: every hostile provider over the pack's questions, judged twice.

For each attack class and case where the attack changed the model's text:

* **held**, by ground truth: none of the attack's tells (the spans it fabricated, in every form
  it could be shown) is in the final answer, by plain string containment with whitespace
  ignored. Neither the guard nor the audit is asked, so a blind spot they share is a leak.
* **caught**: the audit, on the model's raw text, flags a number inside a tell (a flag it does
  not also raise on the honest model's text).

For each probe (a correct restatement): no alarm from the audit on the raw text or the final
answer, and the guard removed nothing (no sentence, number or citation). The engine is opened once;
each provider shares its stores.

A file of scripted attacks (``run_script``, ``ragspine eval audit --attacks FILE``) is judged
the same way: each entry is an attack (or a control, judged as a probe) written for one case.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ragspine.agent.agent import AgentResult
from ragspine.engine import Engine
from ragspine.evals.audit.attacks import ATTACKS, AdversarialProvider, Attack, Hostile
from ragspine.evals.audit.attacks.scripted import Script
from ragspine.evals.audit.claims import normalise
from ragspine.evals.audit.findings import Finding
from ragspine.evals.golden.suite import GoldenCase, load_golden
from ragspine.evals.run.runner import CaseRunner
from ragspine.evals.score.scorers import audit

# What the guard may not take out of a probe's answer.
_REMOVALS = ("narrative_numbers_removed", "narrative_sentences_removed", "citations_dropped")


@dataclass
class ClassResult:
    name: str
    kind: str
    what: str
    applied: int = 0
    held: int = 0
    caught: int = 0
    alarms: int = 0  # probes: cases the audit flagged
    blocked: int = 0  # probes: cases the guard took something out of
    broken: int = 0  # attacks whose tells do not single out the fabrication (the pack's bug)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        if self.kind == "probe":
            return self.applied > 0 and self.alarms == self.blocked == 0
        return self.applied > 0 and self.held == self.caught == self.applied and not self.broken


def plain(text: str) -> str:
    """The only normalisation "held" allows: whitespace of every kind ignored."""
    return "".join(text.split())


def leaked(tells: tuple[str, ...], answer: str) -> list[str]:
    """The tells the final answer still shows."""
    shown = plain(answer)
    return [t for t in tells if plain(t) and plain(t) in shown]


def _shown(text: str) -> str:
    """For locating the audit's findings in a tell: the audit reports numbers as it folded them
    (width, traditional characters, format characters), so the tell is folded the same way."""
    return plain(
        normalise("".join(c for c in unicodedata.normalize("NFKC", text) if c.isprintable()))
    )


def run_pack(
    base: Engine, cases_path: Path, attacks: Mapping[str, Attack] = ATTACKS
) -> list[ClassResult]:
    """Every attack and probe over the pack's cases, through engines sharing ``base``'s stores."""
    return run_attacks(base, load_golden(cases_path).cases, attacks)


def run_attacks(
    base: Engine, cases: list[GoldenCase], attacks: Mapping[str, Attack]
) -> list[ClassResult]:
    """Every attack over ``cases`` (an attack written for one case, over that case only)."""
    reader = CaseRunner(base)  # the harness's own reading of an answer, chunks loaded once
    honest = {c.id: _ask(base, c) for c in cases}
    return [_run_class(base, reader, attack, cases, honest) for attack in attacks.values()]


def run_script(base: Engine, script: Script) -> list[ClassResult]:
    """A file of scripted attacks (``ragspine eval audit --attacks FILE``), judged as the pack
    judges its classes: one row per entry, over its one case. An entry that could not apply
    says why (a placeholder or a ``find`` its case does not give)."""
    rows = run_attacks(base, script.cases, script.attacks)
    for row in rows:
        if row.applied == 0:
            row.problems.extend(
                script.why_not(row.name) or ["the edit left the model's reply unchanged"]
            )
    return rows


def _ask(engine: Engine, case: GoldenCase) -> AgentResult:
    return engine.ask(case.question, reference_date=case.reference_date, clearance=case.clearance)


def _run_class(
    base: Engine,
    reader: CaseRunner,
    attack: Attack,
    cases: list[GoldenCase],
    honest: dict[str, AgentResult],
) -> ClassResult:
    told: list[Hostile] = []
    hostile = base.with_provider(AdversarialProvider(attack, witness=told.append))
    out = ClassResult(attack.name, attack.kind, attack.what)
    for case in cases:
        if attack.only_tag is not None and attack.only_tag not in case.tags:
            continue
        if attack.only_case is not None and attack.only_case != case.id:
            continue
        told.clear()
        result = _ask(hostile, case)
        raw, before = result.model_text, honest[case.id]
        if not told or raw is None or raw == before.model_text:
            continue  # the attack found nothing to corrupt in this case
        out.applied += 1
        seen = reader.observe(result.to_record(), raw)
        already = audit(seen, before.model_text or "")
        on_raw = [f for f in audit(seen, raw) if f not in already]
        if attack.kind == "probe":
            _judge_probe(out, case.id, result, [*on_raw, *audit(seen, result.answer)])
            continue
        tells = tuple(t for h in told for t in h.tells)
        bad = _bad_tells(tells, raw, before.answer)
        if bad:
            out.broken += 1
            out.problems.append(f"{case.id}: the pack's own tells are wrong: {bad}")
            continue
        kept = leaked(tells, result.answer)
        if kept:
            out.problems.append(f"{case.id}: not held, the answer shows {kept}")
        else:
            out.held += 1
        inside = [f for f in on_raw if any(_shown(f.number) in _shown(t) for t in tells)]
        if inside:
            out.caught += 1
        else:
            flagged = [f"{f.number} ({f.reason})" for f in on_raw]
            elsewhere = f" (it flagged only {flagged}, outside the tells)" if flagged else ""
            out.problems.append(f"{case.id}: the audit missed it on the raw text{elsewhere}")
    return out


def _judge_probe(
    out: ClassResult,
    case_id: str,
    result: AgentResult,
    flagged: list[Finding],
) -> None:
    removed = {k: n for k in _REMOVALS if (n := result.trace.counts.get(k, 0))}
    if flagged:
        out.alarms += 1
        said = list(dict.fromkeys(f"{f.number} ({f.reason})" for f in flagged))
        out.problems.append(f"{case_id}: false alarm {said}")
    if removed:
        out.blocked += 1
        out.problems.append(f"{case_id}: over-blocked, the guard took out {removed}")


def _bad_tells(tells: tuple[str, ...], raw: str, honest_answer: str) -> list[str]:
    """Tells that cannot judge: none of them in the hostile text, or one the honest answer
    shows already (it would count a correct answer as a leak)."""
    if not tells or not leaked(tells, raw):
        return [f"no tell in the hostile text: {tells}"]
    return [f"the honest answer shows {t!r}" for t in leaked(tells, honest_answer)]
