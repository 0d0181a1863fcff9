"""The catalogue of what answers say (wording.py): one template per language for every message,
with the same fields in both, and the question's language decided by one rule."""

from __future__ import annotations

import string

import pytest

from ragspine.agent.wording import EN, MESSAGES, ZH, language_of, opening, say


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# Messages whose callers give a field only one language uses: the Chinese decline names no
# home company; the English definition framing has no Chinese counterpart (a Chinese question is
# answered in the words its passages use).
_ONE_SIDED = {"declined.quantity", "definition.found"}


def test_every_message_is_written_in_both_languages_with_the_same_fields() -> None:
    for key, texts in MESSAGES.items():
        assert set(texts) == {ZH, EN}, key
        zh_fields, en_fields = _fields(texts[ZH]), _fields(texts[EN])
        assert zh_fields == en_fields or key in _ONE_SIDED, (key, zh_fields, en_fields)


def test_an_english_message_holds_no_chinese_character() -> None:
    for key, texts in MESSAGES.items():
        assert language_of(texts[EN]) == EN, key


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("What was Hong Kong's revenue in FY2024?", EN),  # English
        ("香港2024年的收入是多少?", ZH),  # simplified Chinese
        ("台灣2024年的門店數是多少?", ZH),  # traditional Chinese
        ("ACME_CN FY2024 REVENUE", EN),  # codes and a period only: no Chinese character
        ("Hong Kong 2024年 revenue", ZH),  # one Chinese word makes it a Chinese question
        ("What was 𝐇𝐨𝐧𝐠 𝐊𝐨𝐧𝐠 revenue in FY2024?", EN),  # styled letters are no Chinese
    ],
)
def test_the_questions_language_is_english_only_without_a_chinese_character(
    question: str, language: str
) -> None:
    assert language_of(question) == language


def test_a_line_opens_with_a_capital_in_english_only() -> None:
    assert opening("mainland China FY2024 revenue", EN) == "Mainland China FY2024 revenue"
    assert opening("中国内地 FY2024 收入", ZH) == "中国内地 FY2024 收入"


def test_say_fills_the_template_of_the_language_asked() -> None:
    assert say("declined.line", EN, name="EBITDA") == (
        "“EBITDA” is not in the fact table: no figure is given for it."
    )
    assert say("declined.line", ZH, name="坪效") == "「坪效」不在事实表中,不提供其数字。"
