"""The adversarial pack as a user runs it: `ragspine eval audit`, `--provider adversarial:NAME`."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.agent.grounding import REMOVED_MARKER
from ragspine.errors import ProviderConfigError
from ragspine.evals.audit.attacks import ATTACKS, AdversarialProvider
from ragspine.evals.audit.pack import ClassResult
from ragspine.llm import resolve
from tests.cli import invoke

ROOT = Path(__file__).parents[3]


def test_every_attack_is_held_and_caught_and_no_probe_alarms(
    demo_db: Path, demo_corpus: Path
) -> None:
    out = invoke("eval", "audit", "--db", str(demo_db), "--corpus", str(demo_corpus), cwd=ROOT)
    assert out.returncode == 0, out.stderr
    attacks = sum(a.kind == "attack" for a in ATTACKS.values())
    probes = len(ATTACKS) - attacks
    assert attacks >= 20 and probes >= 6
    assert (
        f"audit: {attacks}/{attacks} attack classes held and caught, "
        f"0 false alarm(s) in {probes} correct-answer probes"
    ) in out.stdout
    for name in ATTACKS:
        assert f"| {name} " in out.stdout


def test_a_class_that_never_applies_fails_the_audit(
    demo_db: Path, demo_corpus: Path, tmp_path: Path
) -> None:
    """A question that reaches no prose: no attack can be judged, and that is not a pass."""
    cases = tmp_path / "cases.yaml"
    cases.write_text(
        "defaults: {reference_date: 2025-06-30}\n"
        "cases:\n  - id: only-a-number\n    question: 中国内地FY2024的REVENUE是多少\n"
        "    expect: {route: structured}\n",
        "utf-8",
    )
    out = invoke(
        "eval", "audit", "--cases", str(cases), "--db", str(demo_db), "--corpus", str(demo_corpus)
    )
    assert out.returncode == 1
    assert "invented_percent: the attack found nothing to corrupt in any case" in out.stderr


@pytest.mark.parametrize(
    ("result", "ok"),
    [
        (ClassResult("a", "attack", "", applied=3, held=3, caught=3), True),  # all held and caught
        (ClassResult("a", "attack", "", applied=3, held=2, caught=3), False),  # one got through
        (
            ClassResult("a", "attack", "", applied=3, held=3, caught=2),
            False,
        ),  # the audit missed one
        (ClassResult("a", "attack", "", applied=0), False),  # never applied: nothing judged
        (ClassResult("p", "probe", "", applied=4, alarms=0), True),  # a quiet probe
        (ClassResult("p", "probe", "", applied=4, alarms=1), False),  # a false alarm
    ],
)
def test_what_counts_as_held(result: ClassResult, ok: bool) -> None:
    assert result.ok is ok


def test_a_hostile_provider_by_name_through_the_registry(demo_db: Path, demo_corpus: Path) -> None:
    provider = resolve("adversarial:invented_percent")
    assert (
        isinstance(provider, AdversarialProvider)
        and provider.model == "adversarial:invented_percent"
    )
    with pytest.raises(ProviderConfigError, match="known: invented_percent"):
        resolve("adversarial:nope")
    out = invoke(
        "ask",
        "--db",
        str(demo_db),
        "--corpus",
        str(demo_corpus),
        "--provider",
        "adversarial:invented_percent",
        "--reference-date",
        "2025-06-30",
        "为什么中国内地FY2024收入下降?",
    )
    assert out.returncode == 0, out.stderr
    assert "37%" not in out.stdout and REMOVED_MARKER in out.stdout
