"""Run the adversarial pack: every hostile provider over the pack's questions, judged twice.

For each attack class and case where the attack changed the model's text: did the engine hold
(the final answer has nothing the audit flags and no direction override), and did the audit
catch the fabrication on the raw model text? For each probe: no alarm anywhere, and the guard
removed nothing. The engine is opened once; each provider shares its stores.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ragspine.engine import Engine
from ragspine.evals.adversarial import ATTACKS, AdversarialProvider, Attack
from ragspine.evals.golden import GoldenCase, load_golden
from ragspine.evals.runner import CaseRunner
from ragspine.evals.scorers import audit

_BIDI = {chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


@dataclass
class ClassResult:
    name: str
    kind: str
    what: str
    applied: int = 0
    held: int = 0
    caught: int = 0
    alarms: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        if self.kind == "probe":
            return self.applied > 0 and self.alarms == 0
        return self.applied > 0 and self.held == self.caught == self.applied


def run_pack(base: Engine, cases_path: Path) -> list[ClassResult]:
    """Every attack and probe over the pack's cases, through engines sharing ``base``'s stores."""
    cases = load_golden(cases_path).cases
    reader = CaseRunner(base)  # the harness's own reading of an answer, chunks loaded once
    honest = {c.id: base.ask(c.question, reference_date=c.reference_date).model_text for c in cases}
    return [_run_class(base, reader, attack, cases, honest) for attack in ATTACKS.values()]


def _run_class(
    base: Engine,
    reader: CaseRunner,
    attack: Attack,
    cases: list[GoldenCase],
    honest: dict[str, str | None],
) -> ClassResult:
    hostile = Engine(
        base.store, AdversarialProvider(attack), profile=base.profile, retriever=base.retriever
    )
    out = ClassResult(attack.name, attack.kind, attack.what)
    for case in cases:
        if attack.only_tag is not None and attack.only_tag not in case.tags:
            continue
        result = hostile.ask(case.question, reference_date=case.reference_date)
        raw = result.model_text
        if raw is None or raw == honest[case.id]:
            continue  # the attack found nothing to corrupt in this case
        out.applied += 1
        seen = reader.observe(result.to_record(), raw)
        on_final = [f"{f.number} ({f.reason})" for f in audit(seen, result.answer)]
        on_raw = [f"{f.number} ({f.reason})" for f in audit(seen, raw)]
        removed = result.trace.counts.get("narrative_numbers_removed", 0)
        if attack.kind == "probe":
            if on_final or on_raw or removed:
                out.alarms += 1
                out.problems.append(
                    f"{case.id}: {on_raw or on_final or 'guard removed a sentence'}"
                )
            continue
        if not on_final and not _BIDI & set(result.answer):
            out.held += 1
        else:
            out.problems.append(f"{case.id}: not held: {on_final}")
        if on_raw:
            out.caught += 1
        else:
            out.problems.append(f"{case.id}: the audit missed it on the raw text")
    return out
