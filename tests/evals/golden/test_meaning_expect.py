"""Issue 27's expectations as a suite file writes them: `declined` (true, false, the quantity,
or any of a list) and `metric` (one code)."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ragspine.evals.golden.spec import Expect, GoldenCase
from ragspine.evals.golden.suite import GoldenError, load_golden
from ragspine.sensitivity import Clearance

SUITE = """\
suite: meaning
defaults: {{reference_date: 2025-06-30}}
cases:
  - id: m-1
    question: 中国内地2024年同店销售额是多少?
    expect: {{{expect}}}
"""


def _load(tmp_path: Path, expect: str) -> Any:
    (tmp_path / "g").mkdir(exist_ok=True)
    (tmp_path / "g" / "m.yaml").write_text(SUITE.format(expect=expect), "utf-8")
    return load_golden(tmp_path / "g").cases[0].expect


@pytest.mark.parametrize(
    ("expect", "declined", "metric"),
    [
        ("declined: true", True, None),  # any decline
        ("declined: false", False, None),  # must answer
        ("declined: 同店销售额", "同店销售额", None),  # the quantity it names
        ("declined: [sales per square metre, 坪效]", ["sales per square metre", "坪效"], None),
        ("metric: SSSG, statuses: [found]", None, "SSSG"),  # the one metric code
    ],
)
def test_the_new_expectations_load(
    tmp_path: Path, expect: str, declined: object, metric: str | None
) -> None:
    loaded = _load(tmp_path, expect)
    assert (loaded.declined, loaded.metric) == (declined, metric)


@pytest.mark.parametrize(
    "expect",
    [
        "declined: ''",  # a quantity with no words names nothing
        "declined: []",  # nor does an empty list
        "declined: [坪效, '']",  # nor an empty word in it
        "declined: {a: 1}",  # not a quantity
        "metric: ''",  # an empty code
        "metric: [SSSG, REVENUE]",  # one code: the multiset is `metrics`
    ],
)
def test_a_bad_one_names_the_case_and_field(tmp_path: Path, expect: str) -> None:
    field = expect.split(":")[0]
    with pytest.raises(GoldenError, match=f"case m-1: expect.{field}"):
        _load(tmp_path, expect)


def test_a_case_that_states_neither_keeps_the_digest_it_had() -> None:
    # the digest marks an edited expectation; adding these two must not mark every case edited
    def case(**expect: Any) -> GoldenCase:
        return GoldenCase(
            "st-1", "中国内地FY2024的REVENUE是多少", ("t",), date(2025, 6, 30), Clearance.INTERNAL,
            Expect(route="structured", statuses=["found"], **expect), "s", "f", 1,
        )  # fmt: skip

    assert case().spec == "64c22a6a5e5eca86"  # as digested before `declined` and `metric`
    assert case(metric="REVENUE").spec != case().spec != case(declined=True).spec
