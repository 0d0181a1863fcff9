"""A decline names the whole noun phrase the question writes (phrases.py): modifiers and head,
both quantities of a relation, never a period, an entity, the company or another company, and
never the clause after the head."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.agent.phrases import whole_phrase
from ragspine.profile import default_profile, load_profile

ACME = default_profile()
REF = date(2025, 6, 30)
JINYU = Path(__file__).parents[2] / "examples" / "jinyu" / "profile.yaml"


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # a relation of two quantities names both, with their channels
        ("集团2024年线上收入与线下收入之比是多少?", "线上收入与线下收入之比"),
        # a modifier inside the metric's own phrase: the phrase, not a name built from 人均
        ("中国内地2024年居民人均可支配收入是多少?", "居民人均可支配收入"),
        # negative: two quantities listed with 和 are two, the one not held is named alone
        ("香港2024年的收入和坪效是多少?", "坪效"),
        # negative: the period and the entity before the phrase are no part of it
        ("香港2024年坪效是多少?", "坪效"),
        # negative: a modifier written apart (a period and 的 between) keeps its built name
        ("台灣門店數在2024年的增長率是多少?", "门店数增长率"),
        # negative: another company before the quantity is declined as a company, not named in it
        ("2024年特变电工利息收入是多少元?", None),
    ],
)  # fmt: skip
def test_a_declined_quantity_is_named_by_its_whole_phrase(
    question: str, declined: str | None
) -> None:
    intent = parse_intent(question, REF, profile=ACME)
    if declined is None:
        assert intent.declined is None or "特变电工" not in intent.declined
    else:
        assert intent.declined == declined


def test_a_phrase_ends_at_its_head_not_at_the_clause_after_it() -> None:
    # 每个研发人员平均花了多少研发费用: 平均 belongs to the clause, not to the phrase
    with pytest.warns(UserWarning):
        jinyu = load_profile(JINYU)
    intent = parse_intent("金宇生物2020年每个研发人员平均花了多少研发费用?", REF, profile=jinyu)
    assert intent.declined == "每个研发人员"


@pytest.mark.parametrize(
    ("text", "span", "stops", "whole"),
    [
        # modifiers before the head, up to a stop (here the period's characters)
        ("2024年居民人均可支配收入是多少", (12, 14), [(0, 5)], (5, 14)),
        # the frame's own words bound it (从 … 的)
        ("从专项的补助是多少", (4, 6), [], (4, 6)),
        # a relation's head joins the quantity before 与 …
        ("线上收入与线下收入之比", (7, 11), [], (0, 11)),
        # … but a plain 与 joins nothing
        ("线上收入与线下收入", (7, 9), [], (5, 9)),
    ],
)  # fmt: skip
def test_whole_phrase(
    text: str, span: tuple[int, int], stops: list[tuple[int, int]], whole: tuple[int, int]
) -> None:
    assert whole_phrase(text, span, [], stops) == whole
