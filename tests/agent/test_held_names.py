"""Names that hold a name the profile knows (agent/held_names.py, noun_phrases.py): a bank, a
union, a fund, a government, an event or a product named after a region is one name, declined by
the whole of it, never answered with the region's figure, never said by the region alone nor by a
fragment; the same words where the region is the region are still read as the entity."""

from __future__ import annotations

import pytest

from ragspine.agent.counts import count_matches
from ragspine.agent.subjects import HELD
from ragspine.engine import Engine
from ragspine.profile import DomainProfile, default_profile
from tests.agent.asking import ask, found
from tests.agent.parsing import parse_for


@pytest.mark.parametrize(
    ("which", "question", "name"),
    [
        # a bank named after two places: both are the bank's, neither is an entity
        ("acme", "ACME集团2024年从香港上海汇丰银行获得了多少贷款?", "香港上海汇丰银行"),
        # a union of the company's Hong Kong staff: the company's name glued before it too
        ("acme", "ACME香港员工工会2024年有多少名会员?", "ACME香港员工工会"),
        # a fund whose name holds Southeast Asia
        ("acme", "ACME东南亚成长基金2024年一共投出了多少钱?", "ACME东南亚成长基金"),
        # a government is named by its place alone
        ("acme", "香港政府2024年给了ACME多少补贴?", "香港政府"),
        # a place of the shipped list, a name word and a university
        ("jy", "金宇生物2020年向内蒙古农业大学捐赠了多少钱?", "内蒙古农业大学"),
        # a city (X市) and its government
        ("jy", "呼和浩特市政府2020年给了金宇生物多少补贴?", "呼和浩特市政府"),
        # an event whose name holds an entity's English alias (SEA)
        ("acme", "How much did ACME spend sponsoring the SEA Games in 2024?", "SEA Games"),
        # lower-case words and a body's head word after a place
        ("jy", "How much tax did Jinyu pay to the Hohhot municipal government in 2020?",
         "Hohhot municipal government"),
        # capitalised words after a region, in a metric question
        ("acme", "What was the revenue of the Hong Kong Jockey Club in 2024?",
         "Hong Kong Jockey Club"),
        # a word of the profile's (development) inside a name its head word ends
        ("acme", "How much did ACME borrow from the Shanghai Pudong Development Bank in 2024?",
         "Shanghai Pudong Development Bank"),
        # a word of the profile's (stock) before a body's head word
        ("acme", "What was the Hong Kong stock exchange's fee income from ACME in 2024?",
         "Hong Kong stock exchange"),
        # a district named by the region and 仔 (Aberdeen), jieba reading 仔有 as one word
        ("acme", "ACME在香港仔有幾家門店?", "香港仔"),
        # a district within the region: name characters and 区
        ("acme", "ACME在香港东区有几家门店?", "香港东区"),
        # a street named after the region
        ("acme", "ACME在台湾大道有几家门店?", "台湾大道"),
    ],
)  # fmt: skip
def test_a_name_holding_a_region_is_one_name(
    jy: DomainProfile, which: str, question: str, name: str
) -> None:
    intent = parse_for(which, question, jy)
    held = [s.name for s in intent.subjects if s.kind == HELD]
    assert held == [name]
    home = (jy if which == "jy" else default_profile()).home_entity_code
    assert all(e == home for e in intent.entities)  # not the region's entity


@pytest.mark.parametrize(
    ("which", "question", "metric", "entity"),
    [
        ("acme", "香港2024年的收入是多少?", "REVENUE", "ACME_HK"),  # the region owns the figure
        ("acme", "What was Hong Kong revenue in 2024?", "REVENUE", "ACME_HK"),  # lower case
        ("acme", "What was Hong Kong Revenue in 2024?", "REVENUE", "ACME_HK"),  # a metric's word
        ("acme", "What Was Hong Kong Revenue In 2024?", "REVENUE", "ACME_HK"),  # title case
        # a word of the metric's name, hyphenated, after the region
        ("acme", "What was Southeast Asia Same-Store Sales Growth in 2024?", "SSSG", "ACME_SEA"),
        ("acme", "香港线上收入2024年是多少?", "REVENUE", "ACME_HK"),  # a channel after it
        ("acme", "台湾地区2024年的收入是多少?", "REVENUE", "ACME_TW"),  # a common word after it
        ("acme", "香港市场2024年的收入是多少?", "REVENUE", "ACME_HK"),  # a common word after it
        ("acme", "Taiwan net profit in 2024?", "NET_PROFIT", "ACME_TW"),
        ("acme", "香港区2024年的收入是多少?", "REVENUE", "ACME_HK"),  # 区 alone: the region's own
        ("acme", "香港市区2024年有几家门店?", "STORE_COUNT", "ACME_HK"),  # a common word: 市区
        ("acme", "香港社区2024年的收入是多少?", "REVENUE", "ACME_HK"),  # a common word: 社区
        # a district of a shipped place (not an entity's region): read as places are, the
        # entity named after it still asked
        ("acme", "上海静安区的门店属于中国内地,中国内地2024年门店数是多少?", "STORE_COUNT",
         "ACME_CN"),
    ],
)  # fmt: skip
def test_a_region_before_its_own_figure_is_the_entity(
    jy: DomainProfile, which: str, question: str, metric: str, entity: str
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [metric] and intent.entities == [entity]
    assert not [s for s in intent.subjects if s.kind == HELD]


@pytest.mark.parametrize(
    "question",
    [
        "香港银行卡支付的收入是多少?",  # 银行 ends no word (银行卡), and no name before it
        "香港的银行贷款是多少?",  # 的: the region's own clause
        "上海的门店2024年收入是多少?",  # a place in a question about its stores: the place
        "How many stores did ACME have in Hong Kong and Taiwan in 2024?",  # a list of regions
        "What did Hong Kong and the union agree in 2024?",  # a common word between
        "What was the Hong Kong exchange rate effect in 2024?",  # an exchange rate: no body
        # a store's name after a place: one of the company's stores, a place held weakly
        "What was mainland China revenue in FY2024? Our Beijing Anzhen store is included.",
    ],
)  # fmt: skip
def test_no_name_is_read_where_the_region_is_a_region(jy: DomainProfile, question: str) -> None:
    intent = parse_for("acme", question, jy)
    assert not [s for s in intent.subjects if s.kind == HELD], intent.subjects


@pytest.mark.parametrize(
    ("text", "counted"),
    [
        ("员工工会2024年有多少名会员", []),  # 员工 is the union's attributive: no staff count
        ("香港员工有多少名", ["EMPLOYEES"]),  # the staff themselves
        ("有多少名员工", ["EMPLOYEES"]),
    ],
)  # fmt: skip
def test_a_count_noun_before_a_bodys_head_word_is_no_count(text: str, counted: list[str]) -> None:
    assert [m.code for _, m in count_matches(text, default_profile())] == counted


@pytest.mark.stores  # the engine it asks is named by a parameter
@pytest.mark.parametrize(
    ("which", "question", "name", "excluded"),
    [
        ("demo", "ACME集团2024年从香港上海汇丰银行获得了多少贷款?", "香港上海汇丰银行", "455"),
        ("demo", "ACME 2024年一共賣出了多少台灣啤酒?", "台灣啤酒", "228"),
        ("demo", "How much did ACME spend sponsoring the SEA Games in 2024?", "SEA Games", "395"),
        ("demo", "ACME香港员工工会2024年有多少名会员?", "ACME香港员工工会", "97"),
        ("jinyu", "金宇生物与中国农业大学共建的联合实验室2020年投入了多少经费?",
         "与中国农业大学共建的联合实验室", "130,828,817.71"),
        ("jinyu", "How much tax did Jinyu pay to the Hohhot municipal government in 2020?",
         "Hohhot municipal government", "109,430,625.27"),
        ("demo", "台湾啤酒的收入是多少?", "台湾啤酒", "228"),  # the qualifier with its region
    ],
)  # fmt: skip
def test_the_decline_names_the_whole_name(
    request: pytest.FixtureRequest, which: str, question: str, name: str, excluded: str
) -> None:
    result = ask(request.getfixturevalue(which), question)
    assert result.tool_results == [] or not found(result), result.answer
    assert result.sources == [], result.answer
    assert f"{name}」" in result.answer or f"{name}”" in result.answer, result.answer
    assert excluded not in result.answer


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # the verb of a count (卖出, 接待) is how the figure comes about: the object names it
        ("acme", "ACME 2024年一共賣出了多少台灣啤酒?", "台灣啤酒"),
        ("acme", "ACME 2024年一共接待了多少游客?", "游客"),
        # a region glued before the quantity is its attributive
        ("acme", "香港门店租金是多少?", "香港门店租金"),
        # a region written with 的 owns the figure: said apart, as the entity
        ("acme", "香港的门店租金是多少?", "门店租金"),
        # a noun before a frame verb is no verb of the count: the whole, less the frame
        ("jy", "金宇生物2020年从草原畜牧业振兴专项获得了多少补助?", "草原畜牧业振兴专项补助"),
    ],
)  # fmt: skip
def test_a_figure_of_no_metric_is_named_by_its_object(
    jy: DomainProfile, which: str, question: str, declined: str
) -> None:
    assert parse_for(which, question, jy).declined == declined


@pytest.mark.parametrize(
    ("question", "names"),
    [
        # a partner in a relative clause before the name it qualifies: both said by the phrase
        ("金宇生物与中国农业大学共建的联合实验室2020年投入了多少经费?",
         ["与中国农业大学共建的联合实验室"] * 2),
        # 的 alone between them is no clause: each said by its own name
        ("金宇生物与中国农业大学的合作项目2020年投入了多少经费?", ["中国农业大学"]),
    ],
)  # fmt: skip
def test_a_name_in_a_relative_clause_is_said_with_its_head(
    jy: DomainProfile, question: str, names: list[str]
) -> None:
    intent = parse_for("jy", question, jy)
    assert [s.name for s in intent.subjects if s.kind != "quantity"] == names
    assert [s.stem for s in intent.subjects][:1] == ["中国农业大学"]  # held to its own words


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("ACME 2024年在台湾卖出了多少咖啡?", "咖啡"),  # a product the profile does not know
        ("ACME 2024年在台湾卖出了多少杯咖啡?", "咖啡"),  # its classifier is no part of it
        ("ACME 2024年一共卖出了多少香港啤酒?", "香港啤酒"),  # a product named after a region
    ],
)  # fmt: skip
def test_a_sell_verb_with_an_object_asks_for_the_object_never_revenue(
    demo: Engine, question: str, name: str
) -> None:
    result = ask(demo, question)
    assert found(result) == [], result.answer  # never Taiwan's or Hong Kong's revenue
    assert f"「{name}」" in result.answer, result.answer


@pytest.mark.parametrize(
    "question",
    [
        "台湾2024年卖了多少万美元?",  # a unit of money after 多少: revenue
        "香港2024年一共卖了多少呢?",  # a particle: revenue
        "台湾2023年卖了多少钱?",  # money itself
    ],
)  # fmt: skip
def test_a_sell_verb_asking_money_is_still_revenue(demo: Engine, question: str) -> None:
    assert found(ask(demo, question)) == ["REVENUE"]
