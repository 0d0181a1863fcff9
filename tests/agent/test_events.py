"""An event a document question presumes (agent/asked.py ``event_of``): a lawsuit, a recall, an
incident no passage names is said not to be found, in the question's language, never answered
with passages about something else; an event the documents do name is answered from them. And
a name no passage is retrieved for at all is declined by that name, in the question's language.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.agent.subjects import EVENT, in_english
from ragspine.engine import Engine
from tests.agent.asking import ask

REF = date(2025, 6, 30)


@pytest.mark.parametrize(
    ("question", "event"),
    [
        ("ACME在香港的商標侵權訴訟目前進展如何?", "商標侵權訴訟"),  # its head last, 目前 after it
        ("ACME去年的门店罢工事件是如何解决的?", "罢工事件"),  # 门店 names no event
        ("What is the status of ACME's trademark lawsuit in Hong Kong?", "trademark lawsuit"),
        ("门店发生个人信息安全事件后要多久上报?", "个人信息安全事件"),  # the head ends it
        ("为什么中国内地2024年收入下降?", None),  # no event word: a cause asked, not an event
        ("ACME的会员积分什么时候过期?", None),
        # a short-seller attack is an event (jieba splits 做空: read in the text)
        ("浑水发布的针对ACME的做空报告主要质疑了哪些问题?", "做空"),
        ("What did the short-seller report on ACME allege?", "short-seller"),
        # a report a named party published: the party, right before 发布
        ("浑水发布的针对ACME的报告主要质疑了哪些问题?", "浑水"),
        # the company's own report names no publisher, even with 发布: no event
        ("ACME在2024年发布的年度报告中如何描述香港市场?", None),
        ("What does ACME's annual report say about Hong Kong?", None),
    ],
)  # fmt: skip
def test_the_event_a_document_question_presumes(question: str, event: str | None) -> None:
    intent = parse_intent(question, REF)
    events = [s.name for s in intent.subjects if s.kind == EVENT]
    assert events == ([event] if event else []), intent.subjects


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "english"),
    [
        ("demo", "ACME在香港的商標侵權訴訟目前進展如何?", False),  # traditional: Chinese
        ("demo", "What is the status of ACME's trademark lawsuit in Hong Kong?", True),
        ("jinyu", "金宇生物2020年的產品召回事件是如何處理的?", False),
        ("demo", "ACME去年的门店罢工事件是如何解决的?", False),
        # a short-seller report no passage names, nor its publisher
        ("jinyu", "浑水发布的针对金宇生物的做空报告主要质疑了哪些问题?", False),
        ("jinyu", "浑水发布的针对金宇生物的报告主要质疑了哪些问题?", False),
    ],
)  # fmt: skip
def test_an_event_no_passage_names_is_not_found(
    request: pytest.FixtureRequest, which: str, question: str, english: bool
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert result.route == "narrative" and result.sources == [], result.answer
    assert result.trace.codes["narrative"] == "no_subject"
    assert in_english(result.answer) == english, result.answer  # in the question's language


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "doc"),
    [
        # the PIPL guideline names the incident and the drill for it
        ("demo", "门店发生个人信息安全事件后要多久上报?", "ACME_PIPL_Compliance_Guideline.md"),
        # the report names its (absent) major lawsuits and arbitrations
        ("jinyu", "金宇生物2020年是否涉及重大诉讼、仲裁事项？",
         "600201_金宇生物_2020_年度报告.pdf"),
    ],
)  # fmt: skip
def test_an_event_the_documents_name_is_answered_from_them(
    request: pytest.FixtureRequest, which: str, question: str, doc: str
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert doc in [s["doc"] for s in result.sources], result.answer


def test_a_name_no_passage_is_retrieved_for_is_declined_by_it(jinyu: Engine) -> None:
    result = ask(jinyu, "How much did Jinyu pay Harrow & Finch, its strategy consultant, in 2020?")
    assert result.sources == [] and result.tool_results == [], result.answer
    assert "Harrow & Finch" in result.answer and in_english(result.answer), result.answer


def test_an_english_question_no_passage_answers_is_told_so_in_english(jinyu: Engine) -> None:
    result = ask(jinyu, "What does Jinyu say about its quantum computing roadmap?")
    assert result.sources == [], result.answer
    assert in_english(result.answer), result.answer
