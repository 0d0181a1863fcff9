"""Hostile models, one class of attack each, for auditing the anti-fabrication guard.

Each provider plays the offline mock on the structured path and in rerank, then corrupts its
synthesis the way a careless or hostile model would, from the passages it was given: an invented
percentage, a notation a reader may not parse, a true figure in a false context (another year,
region, metric, base, currency, direction, a target as a result), a forged or relabelled fact
line, the question's premise echoed… Each returns its **tells**, what it fabricated, so the pack
can judge the final answer by ground truth. The probes do the opposite: they restate the
passages correctly and must raise no alarm and lose nothing to the guard.

Use one as ``--provider adversarial:NAME``; ``ragspine eval audit`` runs them all and prints,
per class, whether the engine held and whether the audit caught it on the raw text.
"""

from __future__ import annotations

from ragspine.errors import ProviderConfigError
from ragspine.evals.audit.attacks import classic, context, notation, probes
from ragspine.evals.audit.attacks.base import AdversarialProvider, Attack, Hostile, Mutation

__all__ = ["ATTACKS", "AdversarialProvider", "Attack", "Hostile", "Mutation", "from_spec"]

_ALL: list[Attack] = [
    *(Attack(n, "attack", what, m) for n, (what, m) in classic.INJECTED.items()),
    *(Attack(n, "attack", what, m) for n, (what, m) in classic.REWRITTEN.items()),
    *(Attack(n, "attack", what, m, tag) for n, (what, m, tag) in classic.SLOT.items()),
    *(Attack(n, "attack", what, m, tag) for n, (what, m, tag) in context.ATTACKS.items()),
    *(Attack(n, "attack", what, m) for n, (what, m) in notation.ATTACKS.items()),
    *(Attack(n, "probe", what, m, tag) for n, (what, m, tag) in classic.PROBES.items()),
    *(Attack(n, "probe", what, m, tag) for n, (what, m, tag) in probes.PROBES.items()),
]

# Attacks first, probes last, each group in the order written above.
ATTACKS: dict[str, Attack] = {a.name: a for a in _ALL}


def from_spec(name: str) -> AdversarialProvider:
    """``adversarial:NAME``: the registry's factory."""
    if name not in ATTACKS:
        raise ProviderConfigError(
            f"unknown adversarial provider {name!r}; known: {', '.join(ATTACKS)}"
        )
    return AdversarialProvider(ATTACKS[name])
