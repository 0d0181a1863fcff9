"""What `eval compare` judges, and at which level: one primary rate and a family of secondary
rates, declared in the thresholds file's ``compare:`` section.

Every rate judged is one more chance of a false verdict. The primary rate is the release
question, tested alone at α. The family's rates are Holm-adjusted together, each distinct test
counted once: rates whose evidence is identical case by case (pass_rate and answered_pass_rate,
which compare reads over the same answered repeats; route_accuracy when routing is all that
failed) are one test, not several, and a family rate with the primary's evidence shares the
primary's test. A rate in neither is shown with its difference and never judged: its p is "—".
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

from ragspine.evals.compare.cases import Evidence
from ragspine.evals.compare.power import min_detectable_effect
from ragspine.evals.compare.record import ALPHA, NOT_JUDGED, SAME, MetricComparison
from ragspine.evals.compare.stats import holm, paired_permutation_p
from ragspine.evals.score.metrics import all_metrics


def rate_names() -> list[str]:
    return [m.name for m in all_metrics() if m.kind == "rate"]


class CompareConfig(BaseModel):
    """``compare:`` in a thresholds file. ``family`` unset: every rate but the primary."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    primary: str = "pass_rate"
    family: list[str] | None = None

    @field_validator("primary")
    @classmethod
    def _a_rate(cls, name: str) -> str:
        if name not in rate_names():
            raise ValueError(f"{name}: not a rate; rates: {', '.join(rate_names())}")
        return name

    @field_validator("family")
    @classmethod
    def _rates(cls, names: list[str] | None, info: ValidationInfo) -> list[str] | None:
        """A typo must not judge nothing, and a rate is in one role only."""
        for i, name in enumerate(names or []):
            if name not in rate_names():
                raise ValueError(f"{name}: not a rate; rates: {', '.join(rate_names())}")
            if name == info.data.get("primary"):
                raise ValueError(f"{name}: the primary rate is tested alone, not in the family")
            if name in (names or [])[:i]:
                raise ValueError(f"{name}: named twice")
        return names

    def members(self) -> list[str]:
        """The family, in report order."""
        if self.family is None:
            return [n for n in rate_names() if n != self.primary]
        return [n for n in rate_names() if n in self.family]


def judge(
    metrics: list[MetricComparison],
    evidence: dict[str, Evidence],
    config: CompareConfig,
    *,
    inconclusive: str | None = None,
    alpha: float = ALPHA,
) -> None:
    """Tests, adjusts and gives each rate its verdict, in place.

    A verdict needs the p it reads (the primary's own, a family rate's Holm-adjusted) under α
    and the interval clear of 0. When a run errored past its limit the verdict is
    "inconclusive: …" whatever the tests say: what was answered is too little to judge. Each
    judged rate's minimum detectable effect is at its level: α for the primary, α over the
    number of distinct family tests for the family (Holm's strictest step).
    """
    family = set(config.members())
    for m in metrics:
        m.role = "primary" if m.name == config.primary else "family" if m.name in family else None
    judged = sorted((m for m in metrics if m.role and m.cases), key=lambda m: m.role != "primary")
    first: dict[Evidence, MetricComparison] = {}
    for m in judged:
        same = first.setdefault(evidence[m.name], m)
        if same is not m:
            m.same_as = same.name
        else:
            m.p = paired_permutation_p(evidence[m.name].units)
    tests = [m for m in judged if m.role == "family" and m.same_as is None]
    adjusted = holm({m.name: m.p for m in tests if m.p is not None})
    for m in judged:
        test = first[evidence[m.name]]
        m.p = test.p
        primary = test.role == "primary"
        m.p_adjusted = test.p if primary else adjusted[test.name]
        level = alpha if primary else alpha / max(1, len(tests))
        m.mde = min_detectable_effect(m.cases, m.discordance or 0.0, level)
        m.verdict = _verdict(m, alpha)
    for m in metrics if inconclusive else []:
        if m.role:  # judged or not, nothing is said of quality: too few answers to say it
            m.verdict = f"inconclusive: {inconclusive}"


def _verdict(m: MetricComparison, alpha: float) -> str:
    """Better or worse only when the test and the interval agree there is a change."""
    if m.p_adjusted is None or m.ci_low is None or m.ci_high is None:
        return NOT_JUDGED
    if m.p_adjusted >= alpha or m.ci_low <= 0 <= m.ci_high:
        return SAME
    return "better" if (m.ci_low > 0) == (m.better != "lower") else "worse"
