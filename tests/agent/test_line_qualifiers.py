"""Words that make a statement line another line (``line_qualifiers``): whose share of it
(attributable to, 归属于…的, 少数股东), what is owed or paid ahead of it (payable, 应交, 预付),
what is set aside against it (跌价准备, provision for). The line's level is never the answer:
the profile's line for the qualified quantity where it holds one (by an alias or a shipped
synonym), else a decline naming the whole phrase. The same words where they qualify nothing
(an entity's line, 应付 as "cope with", the line's own longer name) leave the metric alone."""

from __future__ import annotations

import pytest

from ragspine.agent.intent import parse_intent
from ragspine.profile import DomainProfile, default_profile
from tests.agent.parsing import ACME_REF, JY_REF, parse_for


@pytest.mark.parametrize(
    ("which", "question", "declined"),
    [
        # attribution after the line, English, to owners no shipped phrase lists
        ("jy", "What was Jinyu's net income attributable to holders of ordinary shares in 2021?",
         "net income attributable to holders of ordinary shares"),
        # owners named with the company: a class of owners, no entity; named whole
        ("acme", "What was ACME's 2024 net profit attributable to the company's shareholders?",
         "net profit attributable to the company's shareholders"),
        # attribution before it, Chinese: 公司 inside the owners stays in the name
        ("jy", "金宇生物2021年归属于母公司普通股股东的净利润是多少?",
         "归属于母公司普通股股东的净利润"),
        # … with a growth after it: the growth of the attributed line
        ("jy", "金宇生物2021年归属于上市公司普通股股东的净利润增长率是多少?",
         "归属于上市公司普通股股东的净利润增长率"),
        ("jy", "金宇生物2021年净利润中归属于少数股东的部分是多少?", "净利润中归属于少数股东的部分"),
        ("acme", "集团2024年少数股东的净利润是多少?", "少数股东的净利润"),
        # a balance owed or paid ahead: receivable after, 预付 / 应交 glued before
        ("jy", "What was Jinyu's income tax receivable at the end of 2020?",
         "income tax receivable"),
        ("jy", "金宇生物2020年末预付所得税是多少?", "预付所得税"),
        ("jy", "金宇生物2020年末应交所得税是多少?", "应交所得税"),
        # a provision against a balance: after it (Chinese, English), before it joined by for
        ("jy", "金宇生物2020年末固定资产减值准备是多少?", "固定资产减值准备"),
        ("jy", "What was Jinyu's intangible assets impairment in 2020?",
         "intangible assets impairment"),
        ("jy", "What was Jinyu's provision for fixed assets in 2020?",
         "provision for fixed assets"),
        # its wear, or its gross value before it
        ("jy", "What was Jinyu's accumulated depreciation of fixed assets at the end of 2020?",
         "accumulated depreciation of fixed assets"),
        ("jy", "金宇生物2020年末固定资产累计折旧是多少?", "固定资产累计折旧"),
        ("jy", "金宇生物2020年无形资产摊销是多少?", "无形资产摊销"),
        ("jy", "金宇生物2020年末固定资产原值是多少?", "固定资产原值"),
        # a part of the line by how it arose
        ("jy", "What was Jinyu's operating profit from continuing operations in 2021?",
         "operating profit from continuing operations"),
        ("jy", "金宇生物2020年资本化研发费用是多少?", "资本化研发费用"),
        # a balance financed: notes held to sell, a line beside the receivables (traditional)
        ("jy", "金宇生物2020年末的應收款項融資是多少?", "應收款項融資"),
        # a balance pledged, glued after the line
        ("jy", "金宇生物2020年末存货质押是多少?", "存货质押"),
        # the tax charge's current part, not the whole charge
        ("jy", "What was Jinyu's current income tax expense in 2020?",
         "current income tax expense"),
    ],
)  # fmt: skip
def test_a_qualified_line_the_profile_lacks_is_declined_by_its_whole_phrase(
    which: str, question: str, declined: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [], intent
    assert intent.declined == declined, intent


@pytest.mark.parametrize(
    ("which", "question", "metric"),
    [
        # the qualified line the profile holds, by a shipped synonym of its alias (少数股东损益)
        ("jy", "What was Jinyu's net profit attributable to minority interests in 2021?",
         "MINORITY_INTERESTS"),
        ("jy", "What was Jinyu's profit attributable to non-controlling interests in 2021?",
         "MINORITY_INTERESTS"),
        ("jy", "金宇生物2021年归属于少数股东的净利润是多少?", "MINORITY_INTERESTS"),
        ("jy", "金宇生物2021年少数股东损益是多少?", "MINORITY_INTERESTS"),  # its own alias
        # profit from continuing operations: the profile's 持续经营净利润, by a shipped synonym
        ("jy", "What was Jinyu's net profit from continuing operations in 2021?",
         "CONTINUING_NET_PROFIT"),
        ("jy", "金宇生物2021年持续经营净利润是多少?", "CONTINUING_NET_PROFIT"),
        # an attribution to one of the profile's entities: that entity's line
        ("acme", "What was the revenue attributable to Hong Kong in 2024?", "REVENUE"),
        ("acme", "集团2024年归属于香港的收入是多少?", "REVENUE"),
        # the unqualified line, and its longer aliases holding the same words
        ("jy", "What was Jinyu's income tax expense in 2020?", "INCOME_TAX"),
        ("jy", "金宇生物2020年末存货是多少?", "INVENTORY"),
        ("jy", "金宇生物2020年资产减值损失是多少?", "ASSET_IMPAIRMENT_LOSS"),
        ("jy", "2020年末金宇生物递延所得税资产是多少?", "DEFERRED_TAX_ASSETS"),
        ("jy", "金宇生物2020年末固定资产账面价值是多少?", "FIXED_ASSETS"),  # its carrying amount
        # 应付 as "cope with": its object is a fall, the question is about revenue
        ("jy", "金宇生物2021年如何应付收入下滑?", "REVENUE"),
        # the receivables themselves, with no financing word after them
        ("jy", "金宇生物2020年末的应收账款是多少?", "ACCOUNTS_RECEIVABLE"),
        # "current" before a line that is no tax: the latest period's revenue
        ("jy", "What is Jinyu's current operating revenue for 2021?", "REVENUE"),
    ],
)  # fmt: skip
def test_the_held_line_or_the_unqualified_one_is_read_as_it_is(
    which: str, question: str, metric: str, jy: DomainProfile
) -> None:
    intent = parse_for(which, question, jy)
    assert intent.metrics == [metric], intent
    assert intent.declined is None, intent


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # a share of a whole the unheld quantity is put to: the share, its part and its whole
        ("集团2024年净利润中用于分红的比例是多少?", "净利润中用于分红的比例"),
        ("集团2024年分红的比例是多少?", "分红的比例"),  # no whole written: the share of it
        ("集团2024年的分红比例是多少?", "分红比例"),  # a shipped name of the ratio
        # no share asked: the quantity alone, never net profit
        ("集团2024年净利润中用于分红的金额是多少?", "分红"),
        ("集团2024年的分红是多少?", "分红"),
    ],
)  # fmt: skip
def test_an_unheld_quantity_asked_as_a_share_is_named_with_the_share(
    question: str, declined: str
) -> None:
    intent = parse_intent(question, ACME_REF, profile=default_profile())
    assert intent.metrics == [], intent
    assert intent.declined == declined, intent


@pytest.mark.parametrize(
    ("question", "declined"),
    [
        # recognised financial terms the demo does not hold: declined by name, never asked back
        ("What was ACME Group's online gross merchandise value (GMV) in 2024?",
         "gross merchandise value"),
        ("What were ACME Group's operating lease liabilities at the end of 2024?",
         "operating lease liabilities"),
        ("What was ACME Group's dividend payout ratio in 2024?", "dividend payout ratio"),
        ("集团2024年末的使用权资产是多少?", "使用权资产"),
        ("What was ACME Group's goodwill at the end of 2024?", "goodwill"),
        # minority interests in the group's profit: neither net profit nor asked back
        ("What was ACME Group's net profit attributable to minority interests in 2024?",
         "net profit attributable to minority interests"),
    ],
)  # fmt: skip
def test_a_known_financial_quantity_the_profile_lacks_is_declined_by_its_name(
    question: str, declined: str
) -> None:
    intent = parse_intent(question, ACME_REF, profile=default_profile())
    assert intent.metrics == [], intent
    assert intent.declined == declined, intent


def test_income_tax_payable_is_not_the_broader_taxes_payable_line(jy: DomainProfile) -> None:
    """A profile holding 应交税费 (every tax owed) gives it for taxes payable, never for income
    tax payable, one tax of it: declined by its own name."""
    data = jy.model_dump(exclude_none=True)
    line = {"code": "TAXES_PAYABLE", "unit": "CNY", "kind": "balance", "aliases": ["应交税费"]}
    held = DomainProfile.model_validate(data | {"metrics": [*data["metrics"], line]})
    question = "What were Jinyu's taxes payable at the end of 2020?"
    asked = parse_intent(question, JY_REF, profile=held)
    assert asked.metrics == ["TAXES_PAYABLE"], asked
    for question, name in [
        ("What was Jinyu's income tax payable at the end of 2020?", "income tax payable"),
        ("金宇生物2020年末应交所得税是多少?", "应交所得税"),
    ]:
        intent = parse_intent(question, JY_REF, profile=held)
        assert (intent.metrics, intent.declined) == ([], name), intent
