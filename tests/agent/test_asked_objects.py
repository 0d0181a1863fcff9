"""Issue 27 round 11, class 3: a what-is or yes/no question about a thing no passage of its
script holds (a slogan, free parking, a dog) is an honest not-found naming the user's phrase,
never passages sharing its other words; a thing the passages hold is answered as before."""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.agent.asked_objects import asked_object, unheld_object
from ragspine.engine import Engine
from ragspine.profile import default_profile
from tests.agent.fake_corpus import corpus


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("ACME集团的品牌口号是什么?", ("口号", "品牌口号")),  # the words before 是什么
        ("台灣的ACME門市有提供免費停車嗎?", ("停车", "免费停车")),  # after a verb of offering
        ("ACME是否提供免费停车?", ("停车", "免费停车")),  # 是否: the run to the end
        ("旗舰店的定位和考核要求是什么?", ("考核", "考核")),  # the last of two; 要求 a kind word
        ("What is the ACME Club points expiry policy?", ("expiry", "club points expiry")),  # policy
        ("Can I bring my dog into an ACME store?", ("dog", "dog")),  # a determiner opens it
        ("What is ACME's brand slogan?", ("slogan", "brand slogan")),  # the name masked, 's
        ("Is there free parking at ACME stores?", ("parking", "free parking")),  # up to "at"
        ("Does ACME offer gift wrapping?", ("wrapping", "gift wrapping")),  # after offer
        ("What was the main reason for the decline?", None),  # a reason: a why-question
        ("香港收入下降的主要原因是什么?", None),  # 原因: the same, in Chinese
        ("同店销售增长是什么?", None),  # a metric asked: a definition, never judged here
        ("Why did Hong Kong revenue fall?", None),  # no what-is or yes/no frame
        ("Can I pay with Bitcoin?", None),  # no noun phrase after the verb: distinct_terms'
        # how long a thing takes: the words before 要多长时间 / 要多久
        ("新开一家门店,办营业执照一般要多长时间?", ("营业执照", "营业执照")),
        ("会员退货退款需要多久?", ("退款", "退货退款")),  # 需要多久
        ("How long does it take to get a business licence?", ("licence", "business licence")),
        ("How long does a refund take?", ("refund", "refund")),  # the subject before take
        ("How long does it take ACME to issue a gift card?", ("card", "gift card")),  # a doer
        ("香港收入增长需要多长时间才能恢复?", None),  # the frame not at the end: no object
        ("How long has ACME operated in Taiwan?", None),  # no 'take': a duration of a state
    ],
)  # fmt: skip
def test_the_thing_a_question_asks_of_is_its_last_content_words(
    question: str, asked: tuple[str, str] | None
) -> None:
    assert asked_object(question, default_profile()) == asked


@pytest.mark.parametrize(
    ("question", "retrieved", "expected"),
    [
        # a Chinese thing in no Chinese passage: the English one was retrieved for "Taiwan"
        ("台灣的ACME門市有提供免費停車嗎?", ["台湾市场整体平稳。", "Taiwan stores."], "免费停车"),
        ("ACME集团的品牌口号是什么?", ["公司组建了品牌自播团队。"], "品牌口号"),  # 品牌 alone
        ("Can I bring my dog into an ACME store?", ["Stores use LED lighting."], "dog"),
        ("ACME集团的品牌口号是什么?", ["品牌口号为“更好的日常”。"], None),  # held: answered
        ("Can I bring my dog into an ACME store?", ["Dogs on a lead are welcome."], None),
        # English passages on points, retrieved for 会员积分, may say when they expire
        ("会员积分的有效期规则是什么?", ["会员卡停用。", "Points expire at year end."], None),
        # every word of an English phrase is judged: the discount is held, senior citizens not
        ("Do ACME stores give senior citizens a discount?", ["A member discount."],
         "senior citizens discount"),
        # an English thing, and only Chinese passages retrieved: the English ones are silent
        ("Can I bring my dog into an ACME store?", ["门店照明改造。"], None),
        # how long a licence takes, in no passage: new stores' rules are something else
        ("新开一家门店,办营业执照一般要多长时间?", ["新开门店需通过投资回报评审。"], "营业执照"),
        # how long a refund takes, held: answered
        ("会员退货退款需要多久?", ["退款将在7个工作日内退回。"], None),
    ],
)  # fmt: skip
def test_a_thing_no_passage_of_its_script_holds_is_named(
    question: str, retrieved: list[str], expected: str | None
) -> None:
    passages = corpus(*retrieved, "ACME stores sell groceries.", "门店销售日用品。")
    assert unheld_object(question, default_profile(), passages, retrieved) == expected


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("ACME集团的品牌口号是什么?", "品牌口号"),  # the demo's passages name its live streams
        ("台灣的ACME門市有提供免費停車嗎?", "免费停车"),  # and Taiwan's margin, in Chinese
        ("Can I bring my dog into an ACME store?", "dog"),  # and its stores' lighting
        # a condition no passage names: ACME's own price-gap rules are about something else
        ("如果競爭對手賣得更便宜,ACME會幫顧客補差價嗎?", "竞争对手卖得更便宜"),
    ],
)  # fmt: skip
def test_the_demo_declines_a_thing_no_document_holds(
    demo: Engine, question: str, named: str
) -> None:
    result = demo.ask(question, reference_date=date(2025, 6, 30), clearance="INTERNAL")
    assert named in result.answer and result.sources == [], result.answer
    assert result.trace.codes["narrative"] == "no_subject"


@pytest.mark.parametrize(
    ("question", "doc"),
    [
        ("旗舰店的定位和考核要求是什么?", "ACME_2025_Store_Strategy.md"),  # 要求 held
        ("2025年门店发展策略的总体思路是什么?", "ACME_2025_Store_Strategy.md"),  # 思路 held
        ("ACME Club有哪些会员等级?", "ACME_Membership_Program.md"),  # no such frame: answered
        ("如果线上价格更低,门店会补差价吗?", "ACME_Pricing_Memo_2025.md"),  # a held condition
    ],
)  # fmt: skip
def test_the_demo_answers_a_thing_its_documents_hold(demo: Engine, question: str, doc: str) -> None:
    result = demo.ask(question, reference_date=date(2025, 6, 30), clearance="INTERNAL")
    assert doc in result.answer and "declined" not in result.trace.codes, result.answer
