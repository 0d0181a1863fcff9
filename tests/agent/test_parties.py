"""People and organisations named by what they are (agent/parties.py): a role word's personal
name is a person, whatever words it holds (店长陈香港 is no one in Hong Kong, 员工王金宇 is not
the company), declined by the name; an organisation with its kind word (致同会计师事务所,
宏昌置业) is declined by its whole name, never by a fragment (自身, 宏昌置业作)."""

from __future__ import annotations

import re
from datetime import date

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.agent.parties import organisation_spans, person_spans
from ragspine.agent.subjects import COMPANY, PERSON
from ragspine.engine import Engine
from ragspine.profile import DomainProfile, default_profile
from ragspine.profile.glossary import glossary_for
from tests.agent.asking import ask, found

REF = date(2025, 6, 30)


def _people(text: str, profile: DomainProfile | None = None) -> list[str]:
    prof = profile or default_profile()
    scan = [m for _, m in glossary_for(prof).scan(text)]
    return [text[s:e] for _, s, e in person_spans(text, scan)]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("店长陈香港2024年负责的门店卖了多少钱", ["陈香港"]),  # an entity's name inside his
        ("员工王金宇2021年获得了多少奖金", ["王金宇"]),  # the company's alias inside his
        ("员工王明获得了多少奖金", []),  # 王明 is a dictionary word: not read as a name
        ("员工李明获得了多少奖金", ["李明"]),  # a name of two characters
        ("ceo张华2020年的薪酬", ["张华"]),  # an English role, folded
        ("总经理刘台湾的年薪是多少", ["刘台湾"]),  # the longest role (总经理, not 经理)
        ("区域经理周强2024年管理了几家门店", ["周强"]),
    ],
)  # fmt: skip
def test_a_role_words_personal_name_is_a_person(text: str, names: list[str]) -> None:
    assert _people(text) == names


@pytest.mark.parametrize(
    "text",
    [
        "员工周转是多少",  # 周转 is a word, not 周 and a given name
        "员工方面的支出是多少",  # 方面: a word
        "员工毛利是多少",  # 毛 starts a metric's name
        "店长陈负责的门店收入是多少",  # 负责 is a verb, not a given name
        "员工于2021年获得了多少奖金",  # 于 is a preposition, no surname here
        "员工人数是多少",  # no surname after the role
        "董事会2024年的决议",  # 董事会 is no role before a name
    ],
)  # fmt: skip
def test_a_common_word_after_a_role_is_no_person(text: str) -> None:
    assert _people(text) == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("为金宇生物出具审计报告的致同会计师事务所2020年的营业收入", ["致同会计师事务所"]),
        ("宏昌置业作为acme在香港的业主", ["宏昌置业"]),  # a developer: 置业
        ("acme在国盛证券的存款", ["国盛证券"]),  # a broker, after a known word
        ("宁远银行2024年向acme发放了多少贷款", ["宁远银行"]),  # a bank, at the text's start
    ],
)  # fmt: skip
def test_an_organisation_is_named_with_its_kind_word(text: str, names: list[str]) -> None:
    scan = glossary_for(default_profile()).scan(text)
    leads = {m.end for _, m in scan}
    known = frozenset(glossary_for(default_profile()).words)
    assert [text[s:e] for s, e in organisation_spans(text, leads, known)] == names


@pytest.mark.parametrize(
    "text",
    [
        "香港银行卡支付的收入是多少",  # 香港: a known word, the bank no name of its own
        "商业银行的贷款利率",  # a dictionary word: a kind of bank, not one (华夏银行 too: the
        # dictionary holds well-known names whole, and they are left to the other readings)
        "有价证券的公允价值",  # a dictionary word
        "投资银行业务的收入",  # 投资: a common word
    ],
)  # fmt: skip
def test_a_kind_word_after_common_words_is_no_organisation(text: str) -> None:
    scan = glossary_for(default_profile()).scan(text)
    leads = {m.end for _, m in scan}
    known = frozenset(glossary_for(default_profile()).words)
    assert organisation_spans(text, leads, known) == []


def test_a_known_word_inside_a_persons_name_is_not_read() -> None:
    intent = parse_intent("店长陈香港2024年负责的门店卖了多少钱?", REF)
    assert [(s.name, s.kind) for s in intent.subjects] == [("店长陈香港", PERSON)]
    assert intent.entities == []  # not Hong Kong: his name
    assert intent.unknown_subject == "店长陈香港"


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "name", "excluded"),
    [
        ("demo", "店长陈香港2024年负责的门店卖了多少钱?", "陈香港", "455"),
        ("jinyu", "员工王金宇2021年获得了多少奖金?", "王金宇", "1,580"),
        ("jinyu", "为金宇生物出具审计报告的致同会计师事务所2020年自身的营业收入是多少?",
         "致同会计师事务所", "1,581,905,632.48"),
        ("demo", "宏昌置业作为ACME在香港的业主,2024年向ACME收了多少租金?", "宏昌置业", "455"),
    ],
)  # fmt: skip
def test_a_person_or_organisation_is_declined_by_its_name(
    request: pytest.FixtureRequest, which: str, question: str, name: str, excluded: str
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert result.tool_results == [] and result.sources == [], result.answer
    assert name in result.answer and excluded not in result.answer, result.answer
    assert "宏昌置业作" not in result.answer and "「自身」" not in result.answer


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("员工数2021年是多少?", "EMPLOYEES"),  # the role's own count: no name after it
        ("金宇生物2021年员工人数是多少?", "EMPLOYEES"),
    ],
)  # fmt: skip
def test_a_role_word_without_a_name_is_still_read(
    jinyu: Engine, question: str, metric: str
) -> None:
    assert found(ask(jinyu, question)) == [metric]


def test_an_organisation_subject_is_a_company() -> None:
    intent = parse_intent("为ACME出具审计报告的致同会计师事务所2024年的收入是多少?", REF)
    assert [(s.name, s.kind) for s in intent.subjects] == [("致同会计师事务所", COMPANY)]
    assert re.search(r"致同", intent.unknown_subject or "")
