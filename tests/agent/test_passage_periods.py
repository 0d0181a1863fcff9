"""Passages held to the periods a question names, by their documents' periods."""

from __future__ import annotations

import pytest

from ragspine.agent.passage_periods import by_period
from ragspine.profile.periods import FY, QUARTER, Period
from ragspine.retrieval.base import NarrativeHit


def _hit(doc: str, period: str) -> NarrativeHit:
    return NarrativeHit(f"c_{doc}", doc, "section=1,para=1", "text", period=period)


FY2020, FY2021 = Period(FY, "2020"), Period(FY, "2021")


@pytest.mark.parametrize(
    ("hits", "asked", "kept", "code"),
    [
        # the asked year's report is found: another year's is set aside
        ([("r2019", "FY2019"), ("r2020", "FY2020")], [FY2020], ["r2020"], "covered"),
        # a document without a period is never judged by one
        ([("policy", ""), ("r2019", "FY2019"), ("r2020", "FY2020")], [FY2020],
         ["policy", "r2020"], "covered"),
        # no document of the asked year: every passage stays, and the answer says so
        ([("r2020", "FY2020"), ("policy", "")], [FY2021], ["r2020", "policy"], "other_period"),
        # a quarter's minutes speak of their year, and a year's report of its quarters
        ([("minutes", "2024Q4"), ("r2023", "FY2023")], [Period(FY, "2024")], ["minutes"],
         "covered"),
        ([("r2024", "FY2024")], [Period(QUARTER, "2024Q3")], ["r2024"], "covered"),
        # two years asked, one covered: its passages, and the other named as not covered
        ([("r2020", "FY2020")], [FY2020, FY2021], ["r2020"], "part_covered"),
        # no period asked, or no document with one: nothing to judge
        ([("r2020", "FY2020")], [], ["r2020"], "unjudged"),
        ([("policy", "")], [FY2021], ["policy"], "unjudged"),
        # a front matter's free label that is no single period: no period
        ([("memo", "2024 and after"), ("r2020", "FY2020")], [FY2021], ["memo", "r2020"],
         "other_period"),
    ],
)  # fmt: skip
def test_passages_by_period(
    hits: list[tuple[str, str]], asked: list[Period], kept: list[str], code: str
) -> None:
    held = by_period([_hit(d, p) for d, p in hits], asked, english=False)
    assert [h.doc_id for h in held.hits] == kept and held.code == code
    assert bool(held.note) == (code in ("other_period", "part_covered"))


def test_the_note_names_the_periods_in_the_questions_language() -> None:
    hits = [_hit("r2019", "FY2019"), _hit("r2020", "FY2020")]
    zh = by_period(hits, [FY2021], english=False).note
    assert zh.startswith("检索到的文档涵盖 FY2019、FY2020,没有涵盖 FY2021 的文档;")
    en = by_period(hits, [FY2021], english=True).note
    assert en.startswith("The documents retrieved cover FY2019, FY2020, and none covers FY2021;")
    part = by_period([_hit("r2020", "FY2020")], [FY2020, FY2021], english=True).note
    assert part == "The documents retrieved cover FY2020; none covers FY2021."
