"""Passages held to the periods a question names, by their documents' periods."""

from __future__ import annotations

import pytest

from ragspine.agent.passage_periods import asked_periods, base_periods, by_period
from ragspine.agent.slots import ParsedIntent
from ragspine.agent.wording import EN, ZH, Language
from ragspine.profile.periods import FY, HALF, QUARTER, Period
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
        # no document of the asked year: nothing of another year is kept (the answer refuses)
        ([("r2019", "FY2019"), ("r2020", "FY2020")], [FY2021], [], "other_period"),
        # ... but a document with no period stays, as it does beside a covered one
        ([("r2020", "FY2020"), ("policy", "")], [FY2021], ["policy"], "undated_only"),
        # a quarter's minutes speak of their year, and a year's report of its quarters
        ([("minutes", "2024Q4"), ("r2023", "FY2023")], [Period(FY, "2024")], ["minutes"],
         "covered"),
        ([("r2024", "FY2024")], [Period(QUARTER, "2024Q3")], ["r2024"], "covered"),
        # a half no report covers: the other half's report is another period
        ([("h1", "2024H1")], [Period(HALF, "2024H2")], [], "other_period"),
        # two years asked, one covered: its passages, and the other named as not covered
        ([("r2020", "FY2020")], [FY2020, FY2021], ["r2020"], "part_covered"),
        # no period asked, or no document with one: nothing to judge
        ([("r2020", "FY2020")], [], ["r2020"], "unjudged"),
        ([("policy", "")], [FY2021], ["policy"], "unjudged"),
        # a front matter's free label that is no single period: no period
        ([("memo", "2024 and after"), ("r2020", "FY2020")], [FY2021], ["memo"], "undated_only"),
    ],
)  # fmt: skip
def test_passages_by_period(
    hits: list[tuple[str, str]], asked: list[Period], kept: list[str], code: str
) -> None:
    held = by_period([_hit(d, p) for d, p in hits], asked, ZH)
    assert [h.doc_id for h in held.hits] == kept and held.code == code
    assert bool(held.note) == (code in ("other_period", "undated_only", "part_covered"))


@pytest.mark.parametrize(
    ("lang", "hits", "asked", "note"),
    [
        # none covers the asked year: the periods covered, and nothing of them quoted
        (ZH, [("r2019", "FY2019"), ("r2020", "FY2020")], [FY2021],
         "检索到的文档涵盖 FY2019、FY2020,没有涵盖 FY2021 的文档;为避免误导,不引用其他期间的"
         "内容,可改问 FY2019、FY2020 的情况。"),
        (EN, [("r2019", "FY2019"), ("r2020", "FY2020")], [FY2021],
         "The documents retrieved cover FY2019, FY2020, and none covers FY2021; nothing from "
         "another period is quoted, to avoid misleading (you may ask about FY2019, FY2020)."),
        # none covers it, a document with no period does: what follows is only from it
        (ZH, [("r2020", "FY2020"), ("policy", "")], [FY2021],
         "检索到的文档涵盖 FY2020,没有涵盖 FY2021 的文档;其他期间的内容不予引用,以下内容出自"
         "未注明期间的文档:"),
        (EN, [("r2020", "FY2020"), ("policy", "")], [FY2021],
         "The documents retrieved cover FY2020, and none covers FY2021; nothing from another "
         "period is quoted, and what follows is from documents that state no period:"),
        # one of two asked years covered: the other named
        (EN, [("r2020", "FY2020")], [FY2020, FY2021],
         "The documents retrieved cover FY2020; none covers FY2021."),
        (ZH, [("r2020", "FY2020")], [FY2020, FY2021],
         "检索到的文档涵盖 FY2020,没有涵盖 FY2021 的文档。"),
    ],
)  # fmt: skip
def test_the_note_names_the_periods_in_the_questions_language(
    lang: Language, hits: list[tuple[str, str]], asked: list[Period], note: str
) -> None:
    assert by_period([_hit(d, p) for d, p in hits], asked, lang).note == note


def test_a_why_question_keeps_the_base_years_passages_and_says_nothing_of_it() -> None:
    """为什么FY2024收入下降: the change is measured against FY2023, whose review speaks of it."""
    intent = ParsedIntent(None, None, Period(FY, "2024"), None, "composite", "q",
                          periods=[Period(FY, "2024")])  # fmt: skip
    assert asked_periods(intent) == [Period(FY, "2024")]
    assert base_periods(intent) == [Period(FY, "2023")]
    hits = [_hit("r2022", "FY2022"), _hit("r2023", "FY2023"), _hit("r2024", "FY2024")]
    held = by_period(hits, asked_periods(intent), ZH, base=base_periods(intent))
    assert [h.doc_id for h in held.hits] == ["r2023", "r2024"] and held.note == ""
    only_base = by_period(hits[:2], [Period(FY, "2024")], ZH, base=[Period(FY, "2023")])
    assert only_base.note == "检索到的文档涵盖 FY2022、FY2023,没有涵盖 FY2024 的文档。"
    assumed = ParsedIntent(None, None, Period(QUARTER, "2025Q1"), None, "narrative", "q",
                           assumed_period=Period(QUARTER, "2025Q1"))  # fmt: skip
    assert asked_periods(assumed) == []  # a quarter the user wrote without a year: not held to
