"""One way the parser tests read a question on either company: the ACME demo profile, or
金宇生物's (loaded once per module by the ``jy`` fixture), each at its suites' reference date."""

from __future__ import annotations

from datetime import date

from ragspine.agent.intent import ParsedIntent, parse_intent
from ragspine.profile import DomainProfile, default_profile

ACME_REF, JY_REF = date(2025, 6, 30), date(2022, 6, 30)


def parse_for(which: str, question: str, jy: DomainProfile) -> ParsedIntent:
    if which == "jy":
        return parse_intent(question, JY_REF, profile=jy)
    return parse_intent(question, ACME_REF, profile=default_profile())
