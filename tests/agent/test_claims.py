"""The context reader: what each number in a sentence is a number of."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from ragspine.agent.claims import Claim, Context, read_claims
from ragspine.agent.cues import vocabulary
from ragspine.agent.frames import NO_FRAME, Frame, frame_of, passage_frame
from ragspine.agent.support import Statement, verdict
from ragspine.numbers import fold_numbers
from ragspine.profile import default_profile
from ragspine.profile.periods import Period

REF = date(2025, 6, 30)
FY23, FY24, FY25 = Period("FY", "2023"), Period("FY", "2024"), Period("FY", "2025")
VOCAB = vocabulary(default_profile())


def read(text: str, frame: Frame = NO_FRAME) -> dict[str, Context]:
    return {c.quantity.text: c.context for c in read_claims(fold_numbers(text), VOCAB, REF, frame)}


def test_a_from_to_pair_gives_each_value_its_period_direction_and_role() -> None:
    got = read(
        "2024年香港收入由410百万美元增至455百万美元,增长约11%,同店销售增长为6.8%,高于上年的5.4%。"
    )
    assert got["410百万"] == Context(
        "ACME_HK", FY23, "REVENUE", "level", None, "USD", "actual", 1, "from", earlier=True
    )
    assert got["455百万"] == Context(
        "ACME_HK", FY24, "REVENUE", "level", None, "USD", "actual", 1, "to"
    )
    assert got["11%"] == Context("ACME_HK", FY24, "REVENUE", "growth", direction=1)
    assert got["6.8%"] == Context("ACME_HK", FY24, "SSSG", "growth")  # 增长 is in the name
    assert got["5.4%"] == Context("ACME_HK", FY23, "SSSG", "growth", earlier=True)


def test_a_comparison_base_is_the_period_of_one_value_and_of_no_change() -> None:
    got = read("2024财年(FY2024),集团收入为2398百万美元,较上年的2370百万美元增长约1.2%。")
    assert got["2398百万"].period == FY24
    assert got["2370百万"].period == FY23 and got["2370百万"].earlier
    assert got["1.2%"].period == FY24 and got["1.2%"].modifier == "growth"


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        ("Hong Kong revenue fell from 455 million to 410 million in 2024.", FY23, FY24),
        ("Revenue rose to US$455 million from US$410 million in 2024.", FY24, FY23),
        ("中国内地收入由2023年的1400百万美元降至2024年的1320百万美元。", FY23, FY24),
    ],
)
def test_from_and_to_in_both_languages(text: str, first: Period, second: Period) -> None:
    a, b = read(text).values()
    assert (a.period, b.period) == (first, second)
    assert {a.role, b.role} == {"from", "to"} and a.direction == b.direction != 0


def test_a_share_takes_the_whole_as_its_entity_and_the_part_as_its_channel() -> None:
    got = read("线上收入占中国内地收入的比重由上年的22%提升至27%。")
    assert got["27%"] == Context(
        "ACME_CN", None, "REVENUE", "share", "ONLINE", None, "actual", 1, "to"
    )
    english = read("Online sales reached 27% of group revenue.")["27%"]
    assert (english.entity, english.modifier) == ("ACME_GROUP", "share")


@pytest.mark.parametrize(
    ("text", "number", "modality", "period"),
    [
        ("中国内地:2025年的目标是新开约20家、关闭约35家门店。", "35", "target", FY25),
        ("We set a target to cut emissions by 30% by 2030.", "30%", "target", Period("FY", "2030")),
        ("Our target for 2025 is for members to make 60% of group sales.", "60%", "target", FY25),
        ("预计2025年新开约25家门店。", "25", "forecast", FY25),
        ("2024年中国内地关闭了35家门店。", "35", "actual", FY24),
    ],
)  # fmt: skip
def test_targets_and_forecasts_are_not_results(
    text: str, number: str, modality: str, period: Period
) -> None:
    got = read(text)[number]
    assert (got.modality, got.period) == (modality, period)


@pytest.mark.parametrize(
    ("text", "number", "currency"),
    [
        ("收入为455百万美元", "455百万", "USD"),
        ("收入为455百万港元", "455百万", "HKD"),
        ("收入为13.2亿元", "13.2亿", "CNY"),
        ("revenue of US$455 million", "455 million", "USD"),
        ("revenue of HK$455 million", "455 million", "HKD"),
        ("门店数为540家", "540", "COUNT"),
        ("1999 stores", "1999", "COUNT"),
        ("收入为455", "455", None),
    ],
)
def test_the_currency_or_unit_written_beside_a_number(
    text: str, number: str, currency: str | None
) -> None:
    assert read(text)[number].currency == currency


def test_entities_are_whole_names_and_a_competitor_is_another_entity() -> None:
    assert read("竞安中国收入为455百万美元")["455百万"].entity == "~竞安"
    assert read("中国内地收入为1320百万美元")["1320百万"].entity == "ACME_CN"


def test_a_passage_frame_is_its_headings_then_its_document() -> None:
    title = "ACME集团2024财年管理层讨论与分析 › ACME集团2024财年管理层讨论与分析"
    hk = passage_frame(f"{title} › 四、香港:增长的驱动因素", VOCAB, REF)
    assert (hk.entity, hk.period, hk.source) == ("ACME_HK", FY24, True)
    two = passage_frame(f"{title} › 五、东南亚与台湾", VOCAB, REF)
    assert (two.entity, two.period) == (None, FY24)  # two regions name none, not the group
    online = passage_frame(f"{title} › 三、线上业务:为何逆势增长", VOCAB, REF)
    assert online.channel == "ONLINE"
    assert frame_of(["## 香港"], VOCAB, REF).entity == "ACME_HK"


def test_a_passage_reads_its_silences_from_its_frame() -> None:
    frame = Frame(entity="ACME_HK", period=FY24, source=True)
    got = read("年末门店数为97家,较上年末净增5家。", frame)
    assert (got["97"].entity, got["97"].period, got["97"].channel) == ("ACME_HK", FY24, "TOTAL")
    assert got["5"].modifier == "growth" and got["5"].period == FY24


def test_unknown_never_contradicts_and_stated_and_different_always_does() -> None:
    def claim(text: str) -> Claim:
        (c,) = read_claims(fold_numbers(text), VOCAB, REF)
        return c

    passage = fold_numbers("2024年香港收入为455百万美元。")
    (source,) = [
        Statement(c.quantity, c.context)
        for c in read_claims(passage, VOCAB, REF, Frame(source=True))
    ]
    assert verdict(claim("收入为4.55亿美元"), [source]) is None  # entity, period unknown
    assert verdict(claim("2024年香港收入为4.55亿美元"), [source]) is None
    assert verdict(claim("2023年香港收入为455百万美元"), [source]) == "wrong_period"
    assert verdict(claim("2024年台湾收入为455百万美元"), [source]) == "wrong_entity"
    assert verdict(claim("2024年香港毛利为455百万美元"), [source]) == "wrong_metric"
    assert verdict(claim("2024年香港收入为455百万港元"), [source]) == "wrong_currency"
    # a passage's figure of a metric, no channel named, is the total
    assert verdict(claim("2024年香港线上收入为455百万美元"), [source]) == "wrong_channel"
    assert verdict(claim("2024年香港收入为456百万美元"), [source]) == "unsupported"
    assert source.quantity.value == Decimal(455_000_000)


def test_a_list_of_names_attaches_none_of_them_and_a_listed_value_shares_its_kind() -> None:
    """香港和东南亚…分别增长约11%和16%: which figure is whose, the reader cannot tell, so it
    says neither (unknown never contradicts); 16% is a growth like the 11% it is listed with."""
    got = read("香港和东南亚收入分别增长约11%和16%。")
    assert [(c.entity, c.modifier, c.direction) for c in got.values()] == [
        (None, "growth", 1),
        (None, "growth", 1),
    ]
    years = read("香港2023年和2024年的收入分别为410百万美元和455百万美元。")
    assert [c.period for c in years.values()] == [None, None]
    assert [c.entity for c in years.values()] == ["ACME_HK", "ACME_HK"]


def test_an_english_sentence_after_a_chinese_comma_is_a_sentence_of_its_own() -> None:
    text = "台湾:2025年维持现有门店网络,For 2025 our target is to cut ten days across the group."
    assert read(text)["ten"].entity == "ACME_GROUP"  # not 台湾, named in the Chinese sentence
