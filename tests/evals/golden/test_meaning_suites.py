"""The held-out suites of issue 27 (evals/meaning): valid, apart from the suites the parser is
tuned on, and each case saying what is right for its class."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ragspine.evals.golden.suite import GoldenCase, load_golden

ROOT = Path(__file__).parents[3]
MEANING = ROOT / "evals" / "meaning"
CLASSES = {"class1", "class2", "class3", "class4"}
LANGUAGES = {"zh", "zh-hant", "en"}


def _cases() -> list[GoldenCase]:
    return [c for company in ("acme", "jinyu") for c in load_golden(MEANING / company).cases]


def test_there_are_enough_of_every_kind() -> None:
    cases = _cases()
    assert len(cases) >= 80
    tally = Counter(
        (company, cls) for c in cases for company in {"acme", "jinyu"} & set(c.tags)
        for cls in CLASSES & set(c.tags)
    )  # fmt: skip
    for company in ("acme", "jinyu"):
        for cls in CLASSES:
            assert tally[(company, cls)] >= 10, (company, cls)
    languages = Counter(lang for c in cases for lang in LANGUAGES & set(c.tags))
    assert all(languages[lang] >= 20 for lang in LANGUAGES), languages


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.id)
def test_each_case_is_tagged_and_says_what_is_right(case: GoldenCase) -> None:
    tags = set(case.tags)
    assert len(CLASSES & tags) == 1 and len(LANGUAGES & tags) == 1
    assert len({"acme", "jinyu"} & tags) == 1
    expect = case.expect
    cls = next(iter(CLASSES & tags))
    if cls == "class3":  # not found: a decline, never the group's figure
        assert expect.declined
    elif cls == "class4":  # recall: the metric, found, with its value
        assert expect.metric and expect.statuses == ["found"] and expect.answer_contains
    else:  # a derived metric where the profile has one, else a decline without the level
        assert expect.metric or expect.declined
        if expect.declined:
            assert expect.answer_excludes


def test_the_held_out_questions_are_not_in_the_tuned_suites() -> None:
    tuned = {
        c.question
        for folder in (ROOT / "golden", ROOT / "examples" / "jinyu" / "golden")
        for c in load_golden(folder).cases
    }
    assert not tuned & {c.question for c in _cases()}
