"""What a decline names when nothing but the residue names it (subject_residue.py): an
organisation with its kind word (物业公司, 研发中心), a figure of no metric without the
question's frame inside it (草原畜牧业振兴专项补助, not 从…获得了多少补助)."""

from __future__ import annotations

import pytest

from ragspine.agent.subject_residue import name_pieces
from ragspine.engine import Engine
from tests.agent.asking import ask, found


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "name"),
    [
        # the kind word is part of the organisation's name, the company's name is not; the
        # region glued before it is its attributive, said with it (noun_phrases.with_region)
        ("demo", "ACME香港物业公司2024年的收入是多少?", "香港物业公司"),
        # common words before a kind word still name a unit the fact table does not hold
        ("demo", "香港研发中心2024年的收入是多少?", "香港研发中心"),
        ("demo", "香港物流中心2024年的收入是多少?", "香港物流中心"),
        # a programme and the quantity asked of it, without 从 / 获得了 / 多少
        ("jinyu", "金宇生物2020年从草原畜牧业振兴专项获得了多少补助?", "草原畜牧业振兴专项补助"),
    ],
)  # fmt: skip
def test_a_decline_names_the_whole_organisation_or_quantity(
    request: pytest.FixtureRequest, which: str, question: str, name: str
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert result.tool_results == [] and result.sources == [], result.answer
    assert result.clarification.declined == name and f"「{name}」" in result.answer


@pytest.mark.parametrize(
    "question",
    [
        "ACME上市公司2024年的收入是多少?",  # the frame's own words: the listed company, itself
        "本公司2024年的收入是多少?",  # 本 + 公司: the company
    ],
)
def test_the_frames_organisation_words_name_the_company_itself(demo: Engine, question: str) -> None:
    assert found(ask(demo, question)) == ["REVENUE"]


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        # the frame's words inside the span are cut out, a function character at an end too
        ("从草原畜牧业振兴专项获得了多少补助", ["草原畜牧业振兴专项", "补助"]),
        # one character of the frame inside a word stays (约 in 履约)
        ("订单履约时效", ["订单履约时效"]),
        # a Latin span is one piece
        ("online customers", ["online customers"]),
    ],
)  # fmt: skip
def test_name_pieces(text: str, pieces: list[str]) -> None:
    assert [text[s:e] for s, e in name_pieces(text, (0, len(text)))] == pieces


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "name"),
    [
        # an industry, a market, a sector of a place is not the company's entity there: the
        # whole phrase is named, up to its possessive
        ("demo", "What was the Hong Kong retail industry's same-store sales growth in 2024?",
         "Hong Kong retail industry"),
        ("demo", "What was the Hong Kong retail market's revenue in 2024?",
         "Hong Kong retail market"),
        ("demo", "What was the ACME app revenue in 2024?", "ACME app"),  # one word: as before
        # a verb of the frame (作为) ends a name: 宏昌置业, never 宏昌置业作
        ("demo", "华强作为ACME在香港的供应商,2024年收了多少货款?", "华强"),
        # the clause's verb with its aspect mark (開了) ends a name: 紐西蘭毛利人聚居區, not …開
        ("demo", "ACME在紐西蘭毛利人聚居區開了幾家門店?", "紐西蘭毛利人聚居區"),
        # negative: a verbal noun inside a name stays (物业管理中心), no aspect mark after it
        ("demo", "物业管理中心2024年的收入是多少?", "物业管理中心"),
    ],
)  # fmt: skip
def test_a_decline_names_the_whole_phrase_and_no_verb(
    request: pytest.FixtureRequest, which: str, question: str, name: str
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert result.tool_results == [] and result.sources == [], result.answer
    assert f"“{name}”" in result.answer or f"「{name}」" in result.answer, result.answer


@pytest.mark.parametrize(
    "question",
    [
        "What revenue did the Hong Kong stores generate in 2024?",  # common and frame words
        "ACME香港作为集团的一部分,2024年收入是多少?",  # 作为 after an entity: the entity still
    ],
)  # fmt: skip
def test_the_entity_is_still_read_before_a_frame_word(demo: Engine, question: str) -> None:
    assert found(ask(demo, question)) == ["REVENUE"]


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # a source written after the metric with "from": the part of the business it came from
        ("What was ACME's 2024 revenue from its pharmacy counters?", "pharmacy counters"),
        # read through a typo fix, the other checks still hold
        ("What was ACME's 2024 revneue from its pharmacy counters?", "pharmacy counters"),
        ("What was Hong Kong's 2024 revenue from vending machines?", "vending machines"),
    ],
)  # fmt: skip
def test_a_source_after_the_metric_is_declined_by_name(
    demo: Engine, question: str, name: str
) -> None:
    result = ask(demo, question)
    assert result.tool_results == [] and result.sources == [], result.answer
    assert result.clarification.declined == name, result.answer


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        # what "from" introduces is an entity the parser read: the entity's figure
        ("How much revenue did ACME get from Hong Kong in 2024?", "REVENUE"),
        # a period after "from" is read as a period
        ("What was Hong Kong's revenue in 2024, up from 2023?", "REVENUE"),
        # what the metric's own name says it comes from: no part of the business
        ("What was Hong Kong's revenue from operations in 2024?", "REVENUE"),
    ],
)  # fmt: skip
def test_a_read_word_after_from_is_no_source(demo: Engine, question: str, metric: str) -> None:
    assert metric in found(ask(demo, question))


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        # a premise's opener (既然, 既然说) before the company's name names no subject
        ("既然金宇生物2020年末职工人数比2019年减少了,那2020年末到底有多少人?", "EMPLOYEES"),
        ("既然说金宇生物2020年末职工人数减少了,那2020年末有多少人?", "EMPLOYEES"),
    ],
)  # fmt: skip
def test_a_premise_opener_is_no_subject(jinyu: Engine, question: str, metric: str) -> None:
    assert metric in found(ask(jinyu, question))
