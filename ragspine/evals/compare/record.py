"""What ``compare.json`` is made of: a field it does not know is an error."""

from __future__ import annotations

from typing import Any, Literal

from ragspine.evals.compare.pairing import StrictModel, TagDelta
from ragspine.evals.score.metrics import Better

# 2: the case is the unit (cases, not pairs, per rate), a primary rate and a family, p and the
# adjusted p None when not judged, errors apart (inconclusive), pass@k / pass^k per side
COMPARE_SCHEMA_VERSION = 2
ALPHA = 0.05
# better | worse | no detectable difference | not judged | "inconclusive: B errored on N cases"
NOT_JUDGED = "not judged"
SAME = "no detectable difference"
Role = Literal["primary", "family"]


class Side(StrictModel):
    folder: str
    run_id: str | None = None
    provider: str
    model: str | None = None
    golden_hash: str
    results: int  # in the run
    left_out: int  # results whose (case, repeat) the other run does not hold
    errors: int  # errored results among the pairs
    errored_cases: int = 0  # cases with an errored result among the pairs
    unsupported_numbers: int  # over every result of the run
    tokens: dict[str, int]  # summed over the pairs, so both sides count the same cases
    cost: dict[str, Any] | None = None  # summary.json's, over the whole run, when it has one
    unfinished: str | None = None  # what every command says of an unfinished run; None: finished
    repeats: dict[str, Any] | None = None  # pass@k, pass^k, flaky over the pairs (k ≥ 2)


class MetricComparison(StrictModel):
    """One rate, case by case: each case's share of passing repeats, over the repeats each side
    answered, for the cases both sides answered."""

    name: str
    better: Better
    role: Role | None = None  # None: shown, not judged
    cases: int  # cases both runs answered and this rate judged
    a: float | None = None  # mean over those cases of A's share
    b: float | None = None
    delta: float | None = None  # B − A
    ci_low: float | None = None  # 95%, Agresti–Min over cases
    ci_high: float | None = None
    a_only: int = 0  # cases whose share is higher in A
    b_only: int = 0  # … in B
    discordance: float | None = None  # mean of d² over the cases: how much A and B disagree
    p: float | None = None  # the exact paired permutation test; None: not judged
    p_adjusted: float | None = None  # what the verdict reads: the primary's own, else Holm's
    same_as: str | None = None  # a rate whose evidence this one repeats: it shares its test
    mde: float | None = None  # found 80% of the time at this rate's level; None: too few cases
    verdict: str = NOT_JUDGED


class Agreement(StrictModel):
    name: str
    agree: int
    total: int  # answered pairs


class CaseRef(StrictModel):
    case_id: str
    repeat: int
    question: str
    error_a: str | None = None
    error_b: str | None = None


class Gate(StrictModel):
    margin: float
    passed: bool
    reasons: list[str]


class Comparison(StrictModel):
    schema_version: int = COMPARE_SCHEMA_VERSION
    a: Side
    b: Side
    pairs: int
    cases: int  # distinct case ids among the pairs: the unit of every test
    primary: str  # the rate tested alone at ALPHA
    family: list[str]  # the rates Holm-adjusted together
    max_error_rate: float
    inconclusive: str | None = None  # "B errored on N cases": no quality verdict was given
    metrics: list[MetricComparison]
    agreement: list[Agreement]
    per_tag: list[TagDelta]  # pass_rate over the pairs, for the tags the pairs have
    regressed: list[CaseRef]  # pass → fail, answered pairs only
    fixed: list[CaseRef]  # fail → pass, answered pairs only
    errored: list[CaseRef]
    gate: Gate

    def metric(self, name: str) -> MetricComparison:
        return next(m for m in self.metrics if m.name == name)
