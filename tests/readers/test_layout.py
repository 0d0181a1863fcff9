"""Reading a report's lines back into headings and paragraphs (`readers.layout`), on lines as
pdfplumber gives them for the template every annual report filed in China follows."""

from __future__ import annotations

from ragspine.readers.layout import Block, Line, blocks, cn_number, is_row


def _read(*pages: list[str]) -> list[Block]:
    lines = [Line(n, text) for n, page in enumerate(pages, start=1) for text in page]
    return list(blocks(lines))


def test_numbered_parts_sections_and_items_become_the_heading_path() -> None:
    out = _read(
        [
            "第一节 经营情况讨论与分析",
            "一、经营情况讨论与分析",
            "报告期内，公司实现营业收入15.82亿元。",
        ],
        [
            "二、报告期内主要经营情况",
            "(一) 主营业务分析",
            "1. 收入和成本分析",
            "收入增长主要系销量增加。",
        ],
    )
    assert out == [
        Block(
            1,
            "第一节 经营情况讨论与分析 › 一、经营情况讨论与分析",
            "报告期内，公司实现营业收入15.82亿元。",
        ),
        Block(
            2,
            "第一节 经营情况讨论与分析 › 二、报告期内主要经营情况 › (一) 主营业务分析"
            " › 1. 收入和成本分析",
            "收入增长主要系销量增加。",
        ),
    ]


def test_hard_wrapped_prose_is_one_paragraph_on_the_page_it_starts() -> None:
    long = "公司" * 40  # a full line: the page wrapped it
    out = _read(["第一节 释义", long], ["续完。"])
    assert out == [Block(1, "第一节 释义", long + "续完。")]


def test_table_rows_stay_one_per_line_and_a_row_label_is_not_a_heading() -> None:
    out = _read(
        [
            "第一节 财务报告",
            "一、 财务报表",
            "单位：元",
            "项目 2020年 2019年",
            "一、营业总收入 1,581,905,632.48 1,126,782,253.35",
            "二、营业总成本 1,100,000.00 900,000.00",
        ]
    )
    assert [b.heading for b in out] == ["第一节 财务报告 › 一、 财务报表"]
    assert out[0].text.splitlines()[-2:] == [
        "一、营业总收入 1,581,905,632.48 1,126,782,253.35",
        "二、营业总成本 1,100,000.00 900,000.00",
    ]


def test_a_number_out_of_sequence_is_text_not_a_heading() -> None:
    # 九、 cannot follow 一、 (up to three numbers may be skipped), so it is a list item in prose
    out = _read(["第一节 公司简介", "一、公司信息", "九、本条不是标题，而是正文的一句。"])
    assert out[-1] == Block(
        2 - 1, "第一节 公司简介 › 一、公司信息", "九、本条不是标题，而是正文的一句。"
    )


def test_a_document_without_numbered_parts_is_all_body_under_no_heading() -> None:
    out = _read(
        ["Revenue grew 11% in Hong Kong.", "Margins held."], ["第五节 不接着编号：不是标题"]
    )
    assert {b.heading for b in out} == {""}
    assert "Margins held." in out[0].text and out[-1].text.endswith("不是标题")


def test_figures_side_by_side_make_a_row_and_prose_dates_do_not() -> None:
    assert is_row("货币资金 1,516,034.28 1,204,118.50")  # two amounts: a statement row
    assert not is_row("2020 年 1 月 1 日")  # figures one at a time: prose
    assert not is_row("第 1 2 页")  # bare one- and two-digit integers alone
    assert [cn_number(t) for t in ("一", "十", "十二", "二十一")] == [1, 10, 12, 21]
