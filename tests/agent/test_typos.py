"""A near-miss spelling of a metric's name reads as the name and says so (agent/typos.py,
agent/typos_en.py): a Chinese character of the same pinyin (毛利律 for 毛利率), a slip of the
English keyboard (revnue for revenue); never a real word, never where two names are as near."""

from __future__ import annotations

import pytest

from ragspine.agent.intent_text import folded
from ragspine.agent.typos import Slip, corrected
from ragspine.engine import Engine
from ragspine.profile import default_profile, load_profile
from tests.agent.asking import ask, found
from tests.agent.conftest import JINYU


def _read(question: str) -> tuple[str, list[tuple[str, str]]]:
    text, index = folded(question)
    out, moved, slips = corrected(text, index, default_profile())
    assert len(moved) == len(out)  # every character still points into the question
    return out, [(question[index[s.start] : index[s.end - 1] + 1], s.read) for s in slips]


@pytest.mark.parametrize(
    ("question", "written", "read"),
    [
        # the same syllable, tones aside: a slip of the pinyin keyboard
        ("香港2024年毛利律是多少?", "毛利律", "毛利率"),  # lv for lv, not 毛利润 (run)
        ("东南亚2024年的门点数是多少?", "门点数", "门店数"),  # dian for dian
        ("東南亞2024年的門點數是多少?", "門點數", "门店数"),  # traditional, folded first
        # 如 joins 如是 past the run, but 营业收 is no whole word: the run is the slip
        ("香港2024年营业收如是多少?", "营业收如", "营业收入"),
        # a character drawn alike (人 for 入), though 人 is written in known terms (人均)
        ("中国内地2024年营业收人是多少?", "营业收人", "营业收入"),
        ("中國內地2024年營業收人是多少?", "營業收人", "营业收入"),  # traditional, folded first
        # two neighbouring characters swapped: the same characters, one held name's
        ("中国内地2024年的净润利是多少?", "净润利", "净利润"),
        ("香港2024年的毛率利是多少?", "毛率利", "毛利率"),  # the last two swapped
        # one Damerau edit in an English word of five letters or more
        ("What was Taiwan's revnue in 2024?", "revnue", "revenue"),  # a letter dropped
        ("Hong Kong net proift 2024", "proift", "profit"),  # two letters swapped
        ("What was Hong Kong's revenie in 2024?", "revenie", "revenue"),  # a letter changed
        ("What was Hong Kong's revenuue in 2024?", "revenuue", "revenue"),  # a letter added
        ("Hong Kong revenue grwoth FY2024", "grwoth", "growth"),  # a modifier's word too
    ],
)  # fmt: skip
def test_a_slip_reads_as_the_one_name_it_misspells(question: str, written: str, read: str) -> None:
    assert _read(question)[1] == [(written, read)]


@pytest.mark.parametrize(
    "question",
    [
        "香港2024年毛利额是多少?",  # 毛利额 is a word of its own (gross profit), not 毛利率
        "2025年门店营业时间是几点?",  # 营业时间: a dictionary word, and longer than 营业额
        # 属 (shu, as 数) is written in 属于, and 门店 is a whole word: 门店 属于, as written
        "上海静安区的门店属于中国内地,中国内地2024年门店数是多少?",
        "集团2024年总利润是多少?",  # one character from 净利润 and 毛利润 alike: ambiguous
        # drawn alike, but the run goes on into 员 (人员): a longer word, not 营业收入 misspelt
        "香港2024年营业收人员有多少?",
        "香港2024年收人是多少?",  # two characters: too short to read as a slip on any ground
        "香港2024年的润利是多少?",  # two characters swapped, too short to read as a slip
        "香港2024年的润利净是多少?",  # the same characters, but more than one swap away
        "What was Taiwan's revenge in 2024?",  # a dictionary word, one letter from revenue
        "What were the reserve figures for Taiwan in 2024?",  # a word, not reserves misspelt
        "What was Hong Kong's gross margine in 2024?",  # margin or margins: ambiguous
        "What was Taiwna's revenue in 2024?",  # one edit from an entity's name only
        "What was Hong Kong's EBTI in 2024?",  # four letters: one edit reaches too many words
        "What was ACME's EBITDAR in 2024?",  # a line of its own (shipped), not EBITDA misspelt
    ],
)  # fmt: skip
def test_a_real_word_or_an_ambiguous_slip_is_not_corrected(question: str) -> None:
    text, slips = _read(question)
    assert slips == [] and text == folded(question)[0]


@pytest.mark.parametrize(
    ("question", "metric", "note"),
    [
        ("香港2024年毛利律是多少?", "GROSS_MARGIN", "【假设】按「毛利率」理解「毛利律」"),
        ("东南亚2024年的门点数是多少?", "STORE_COUNT", "【假设】按「门店数」理解「门点数」"),
        # a slip of the pen (颔, written in no known term) says so the same way
        ("中国内地2023年的营业颔是多少?", "REVENUE", "【假设】按「营业额」理解「营业颔」"),
        # a slip of the eye (人 for 入) says so the same way
        ("中国内地2023年的营业收人是多少?", "REVENUE", "【假设】按「营业收入」理解「营业收人」"),
        ("What was Taiwan's revnue in 2024?", "REVENUE", "[Assumption] Read “revnue” as “revenue”"),
        ("Hong Kong net proift 2024", "NET_PROFIT", "[Assumption] Read “proift” as “profit”"),
    ],
)  # fmt: skip
def test_a_question_read_through_a_correction_says_so(
    demo: Engine, question: str, metric: str, note: str
) -> None:
    result = ask(demo, question)
    assert found(result) == [metric]
    assert result.answer.startswith(note), result.answer
    assert result.clarification.mode == "answer_with_assumptions"
    assert result.trace.counts["typos_read"] == 1  # counted, never the words


def test_a_question_read_as_written_has_no_note(demo: Engine) -> None:
    result = ask(demo, "What was Taiwan's revenue in 2024?")
    assert "【假设】" not in result.answer and "typos_read" not in result.trace.counts


def _read_jinyu(question: str) -> tuple[str, list[Slip]]:
    with pytest.warns(UserWarning):  # 金宇 is part of 金宇车城: said when the profile loads
        profile = load_profile(JINYU / "profile.yaml")
    text, index = folded(question)
    out, _, slips = corrected(text, index, profile)
    return out, slips


@pytest.mark.parametrize(
    "question",
    [
        # a role word's personal name: 王 is his surname, not 数 misspelt (员工数)
        "员工王金宇2021年获得了多少奖金?",
        "员工王丽2021年获得了多少奖金?",  # a given name the profile does not know
        # a given name holding a metric's word (毛利): still his name, though 毛利 would bound
        # the run 员工王 as a word
        "员工王毛利2021年获得了多少奖金?",
        # a surname the shipped list lacks (亓): the run goes on into 金宇, a name the profile
        # knows, so its last character is the name's start, not a slip
        "员工亓金宇2021年获得了多少奖金?",
    ],
)  # fmt: skip
def test_a_slip_never_reaches_into_a_name(question: str) -> None:
    text, slips = _read_jinyu(question)
    assert slips == [] and text == folded(question)[0]


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("金宇生物2021年员工树是多少?", "员工数"),  # the same syllable, before 是: a slip
        ("2021年员工树金宇生物是多少?", None),  # glued to the company's name: read as written
    ],
)  # fmt: skip
def test_a_slip_before_a_function_word_is_still_read(question: str, read: str | None) -> None:
    _, slips = _read_jinyu(question)
    assert [s.read for s in slips] == ([read] if read else [])
