from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.profile import DomainProfile, load_profile
from ragspine.profile.glossary import (
    AliasMatch,
    AliasMatcher,
    glossary_for,
    normalize_channel,
    normalize_entity,
    normalize_metric,
)
from ragspine.text import fold


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("营收", "REVENUE"),  # simplified alias
        ("營收", "REVENUE"),  # traditional form reads as simplified
        ("營業收入", "REVENUE"),  # traditional, longer alias
        ("Revenue", "REVENUE"),  # any case
        ("REVENUE", "REVENUE"),  # the code itself
        ("gross-profit", "GROSS_PROFIT"),  # separators do not matter
        ("ＧＭ", "GROSS_MARGIN"),  # full-width letters
        ("門店數", "STORE_COUNT"),  # traditional 門店數
        ("same store sales growth", "SSSG"),  # hyphen dropped
        ("EBITDA", None),  # unknown metric: None, never the nearest guess
        ("revenue growth", "REVENUE_YOY"),  # a derived metric's alias
        ("revenue in hong kong", None),  # more than an alias: not a whole match
        ("", None),  # empty
    ],
)
def test_normalize_metric(raw: str, code: str | None) -> None:
    assert normalize_metric(raw) == code


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("台灣", "ACME_TW"),  # traditional
        ("中國內地", "ACME_CN"),  # traditional, longest alias
        ("Hong Kong", "ACME_HK"),
        ("hongkong", "ACME_HK"),  # spacing differs
        ("ACME_SEA", "ACME_SEA"),  # code
        ("the group", "ACME_GROUP"),
        ("ACME Japan", None),  # unknown entity
        ("竞安中国", None),  # a competitor is never a home entity
    ],
)
def test_normalize_entity(raw: str, code: str | None) -> None:
    assert normalize_entity(raw) == code


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("线上", "ONLINE"),
        ("E-Commerce", "ONLINE"),
        ("實體店", "OFFLINE"),  # traditional 實體店
        ("合计", "TOTAL"),
        ("wholesale", None),
    ],
)
def test_normalize_channel(raw: str, code: str | None) -> None:
    assert normalize_channel(raw) == code


def test_non_string_arguments_are_unrecognized() -> None:
    """Tool arguments come from a model: anything may arrive."""
    assert normalize_metric(None) is None
    assert normalize_metric(42) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        ("中国内地和香港的收入", ["ACME_CN", "ACME_HK"]),  # two entities, in order
        ("research spending in SEA", ["ACME_SEA"]),  # 'sea' inside 'research' is not SEA
        ("mainland china revenue", ["ACME_CN"]),  # longest alias wins, counted once
        ("Hong-Kong's sales", ["ACME_HK"]),  # possessive and hyphen
        ("ACME_CN and ACME_HK", ["ACME_CN", "ACME_HK"]),  # codes; 'ACME' alone not matched inside
    ],
)
def test_find_entities_in_text(text: str, entities: list[str]) -> None:
    g = glossary_for()
    found = list(dict.fromkeys(m.code for m in g.entities.find_all(fold(text))))
    assert found == entities


def test_glossary_is_compiled_once_per_profile() -> None:
    assert glossary_for() is glossary_for()


def _every_alias_tried(matcher: AliasMatcher, folded: str) -> list[AliasMatch]:
    """The matcher's answer with no prefilter: each alias's pattern over the whole text."""
    found = sorted(
        (m.start(), m.start() - m.end(), i, m.end())
        for i, pattern in enumerate(matcher._patterns)
        for m in pattern.finditer(folded)
    )
    out, taken_until = [], 0
    for start, _, i, end in found:
        if start >= taken_until:
            out.append(AliasMatch(matcher._codes[i], start, end))
            taken_until = end
    return out


REAL_PROFILE = Path(__file__).parents[2] / "examples" / "jinyu" / "profile.yaml"


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_probe_prefilter_finds_what_trying_every_alias_finds(
    data: st.DataObject,
) -> None:
    """Text made of the profiles' own aliases, cut and glued with noise: the prefiltered scan
    (a probe looked for once, where its first two characters stand) and the scan of every alias
    agree on every match."""
    profile = _profile(data.draw(st.sampled_from([None, REAL_PROFILE])))
    matcher = glossary_for(profile)._all
    words = [fold(w) for t in (*profile.metrics, *profile.entities, *profile.channels)
             for w in (t.code, *t.aliases)]  # fmt: skip
    pieces = data.draw(
        st.lists(
            st.one_of(
                st.sampled_from(words),
                st.sampled_from(words).map(lambda w: w[: max(1, len(w) // 2)]),
                st.text(alphabet="的 -_/2024年FY与及和", max_size=4),
            ),
            max_size=12,
        )
    )
    folded = fold("".join(pieces))
    assert matcher.find_all(folded) == _every_alias_tried(matcher, folded)


@functools.cache
def _profile(path: Path | None) -> DomainProfile:
    return load_profile(path)


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("2020年流动负债比是多少", ["CURRENT_LIABILITIES_SHARE"]),  # 流动负债比率 without 率
        ("流动负债比", ["CURRENT_LIABILITIES_SHARE"]),  # at the text's end
        # 比 the comparison verb: a period or a direction after it, never the ratio
        ("2021年末流动负债比年初增加了百分之几", ["CURRENT_LIABILITIES"]),
        ("流动负债比期初增长了多少", ["CURRENT_LIABILITIES"]),
        ("流动负债比上年末增加", ["CURRENT_LIABILITIES"]),
        ("流动负债比2020年高", ["CURRENT_LIABILITIES"]),
        ("流动负债比去年减少", ["CURRENT_LIABILITIES"]),
    ],
)  # fmt: skip
def test_a_ratio_written_without_its_ending_is_never_a_comparisons_bi(
    text: str, codes: list[str]
) -> None:
    with pytest.warns(UserWarning):  # 金宇 is part of 金宇车城
        profile = load_profile(REAL_PROFILE)
    found = [m.code for k, m in glossary_for(profile).scan(fold(text)) if k == "metrics"]
    assert found == codes


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("集团2024年的净利息支出是多少", []),  # 净利 ends inside 利息支出: not net profit
        ("门店数字化设备排第几", []),  # 门店数 ends inside 数字化: not the store count
        ("集团2024年的净利是多少", ["NET_PROFIT"]),  # 净利 alone is net profit
        ("集团2024年的净利润是多少", ["NET_PROFIT"]),  # the longer alias 净利润 whole
        ("集团2024年的净利率是多少", ["NET_MARGIN"]),  # 净利率 a longer alias, though 利率 a word
        ("集团2024年净利同比增长多少", ["NET_PROFIT"]),  # 同比 begins after the alias ends
        ("香港2024年的毛利率是多少", ["GROSS_MARGIN"]),  # 毛利率 longest alias
        ("2024年中国内地门店数占集团的比例", ["STORE_COUNT"]),  # 数占 is no dictionary word
    ],
)  # fmt: skip
def test_a_metric_alias_ending_inside_a_longer_word_is_not_the_metric(
    text: str, codes: list[str]
) -> None:
    found = [m.code for k, m in glossary_for(load_profile()).scan(fold(text)) if k == "metrics"]
    assert found == codes


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("ACME在纽西兰毛利人聚居区的门店数", ["STORE_COUNT"]),  # 毛利人 (the Māori): a people
        ("毛利族的传统节日", []),  # 毛利族: a people's name, not gross profit
        ("高收入者的收入是多少", ["REVENUE"]),  # 高收入者 a person; the later 收入 the metric
        ("集团2024年的收入人均是多少", ["REVENUE"]),  # 人均 is its own word: not glued to 收入
        ("集团2024年的毛利额是多少", ["GROSS_PROFIT"]),  # 额 no people noun: the metric whole
        ("集团2024年的毛利润是多少", ["GROSS_PROFIT"]),  # 毛利润 a longer word, no people noun
        ("香港门店人员的收入", ["REVENUE"]),  # 人员 begins after 门店 ends: nothing glued
    ],
)  # fmt: skip
def test_a_metric_alias_inside_the_name_of_a_people_is_not_the_metric(
    text: str, codes: list[str]
) -> None:
    found = [m.code for k, m in glossary_for(load_profile()).scan(fold(text)) if k == "metrics"]
    assert found == codes


def test_a_shorter_alias_takes_the_place_of_a_glued_one() -> None:
    # 营收 ends inside 收入 (主营 / 收入): the shorter alias 收入 is read instead
    with pytest.warns(UserWarning):  # 金宇 is part of 金宇车城
        profile = load_profile(REAL_PROFILE)
    found = [
        m.code
        for k, m in glossary_for(profile).scan(fold("2021年主营收入是多少"))
        if k == "metrics"
    ]
    assert found == ["REVENUE"]
