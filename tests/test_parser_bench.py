"""The parser bench times each question once per pass through the whole set, after one untimed
pass, so a cache of the last text read never answers a question's own repeat. No timings are
asserted: only what is called, in which order, and one median per question."""

from __future__ import annotations

import itertools
from datetime import date

from benchmarks.parser_bench import Asked, per_question

DAY = date(2025, 6, 30)


def test_each_question_is_timed_once_a_pass_never_twice_in_a_row() -> None:
    asked: list[Asked] = [(q, DAY, "INTERNAL") for q in ("收入", "毛利率", "门店数")]
    calls: list[str] = []
    medians = per_question(asked, lambda a: calls.append(a[0]), passes=3)
    assert len(medians) == len(asked)
    assert all(m >= 0 for m in medians)
    assert calls == [q for q, _, _ in asked] * 4  # one untimed pass, then three timed
    assert all(a != b for a, b in itertools.pairwise(calls))
