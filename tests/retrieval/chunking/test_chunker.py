from __future__ import annotations

from ragspine.retrieval.chunking.chunker import MAX_CHUNK_CHARS, chunk_text

MD = """Preface before any heading.

# Overview
First paragraph
wrapped over two lines.

Second paragraph.

## Details
中文段落第一行
第二行。

```
# not a heading inside a fence
```

# Outlook
Last.
"""


def test_headings_number_sections_and_paragraphs() -> None:
    chunks = chunk_text(MD, markdown=True)
    assert [(c.locator, c.heading) for c in chunks] == [
        ("para=1", ""),
        ("section=1,para=1", "Overview"),
        ("section=1,para=2", "Overview"),
        ("section=1.1,para=1", "Overview › Details"),
        ("section=1.1,para=2", "Overview › Details"),
        ("section=2,para=1", "Outlook"),
    ]
    assert chunks[1].text == "First paragraph wrapped over two lines."
    assert chunks[3].text == "中文段落第一行第二行。"  # CJK lines join without a space
    assert "not a heading" in chunks[4].text


def test_locators_are_stable() -> None:
    assert chunk_text(MD, markdown=True) == chunk_text(MD, markdown=True)


def test_sections_count_from_the_shallowest_heading_level() -> None:
    chunks = chunk_text("## A\nx\n\n### B\ny\n\n## C\nz\n", markdown=True)
    assert [c.locator for c in chunks] == [
        "section=1,para=1",
        "section=1.1,para=1",
        "section=2,para=1",
    ]


def test_plain_text_is_numbered_by_paragraph() -> None:
    chunks = chunk_text("# not a heading here\n\nsecond\n", markdown=False)
    assert [(c.locator, c.text) for c in chunks] == [
        ("para=1", "# not a heading here"),
        ("para=2", "second"),
    ]


def test_a_long_paragraph_is_split_into_parts_at_sentences() -> None:
    sentence = "门店网络优化持续推进。"
    text = "# S\n" + sentence * (MAX_CHUNK_CHARS // len(sentence) + 5) + "\n"
    chunks = chunk_text(text, markdown=True)
    assert [c.locator for c in chunks] == ["section=1,para=1,part=1", "section=1,para=1,part=2"]
    assert all(len(c.text) <= MAX_CHUNK_CHARS for c in chunks)
    assert all(c.text.endswith("。") for c in chunks)


def test_a_sentence_longer_than_a_chunk_is_cut_hard_and_nothing_is_lost() -> None:
    run_on = "营" * (2 * MAX_CHUNK_CHARS + 10)  # no sentence end anywhere
    chunks = chunk_text(f"开头。{run_on}", markdown=False)
    # The short sentence before it stays whole; the run-on is cut at the chunk size.
    assert [c.locator for c in chunks] == [f"para=1,part={i}" for i in range(1, 5)]
    assert [len(c.text) for c in chunks] == [3, MAX_CHUNK_CHARS, MAX_CHUNK_CHARS, 10]
    assert "".join(c.text for c in chunks) == f"开头。{run_on}"


def test_a_chinese_table_row_keeps_its_line_break_and_prose_still_joins() -> None:
    body = (
        "# 公司信息\n\n公司的中文简称 生物股份\n公司的法定代表人 张翀宇\n\n"
        "报告期内公司营业收入\n增长较快。\n"
    )
    rows, prose = (c.text for c in chunk_text(body, markdown=True))
    # joined, 生物股份 would run into the next row's label
    assert rows == "公司的中文简称 生物股份\n公司的法定代表人 张翀宇"
    assert prose == "报告期内公司营业收入增长较快。"  # a hard-wrapped sentence is one line
