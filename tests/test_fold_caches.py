"""Per-character folding caches stay bounded: a client sending every code point once (a sweep of
Unicode) must not grow a long-running worker or server without limit."""

from __future__ import annotations

from ragspine.numbers import fold as number_fold
from ragspine.numbers.fold import fold_numbers
from ragspine.text import fold, fold_char

# 40,960 code points none of which a real text repeats: more than any cache may keep
SWEEP = "".join(chr(c) for c in range(0x10000, 0x1A000))


def test_folding_a_sweep_of_unicode_keeps_the_text_cache_bounded() -> None:
    fold(SWEEP)
    info = fold_char.cache_info()
    assert info.maxsize is not None and info.currsize <= info.maxsize < len(SWEEP)
    assert fold("Ｒｅｖｅｎｕｅ") == "revenue"  # still folds after the sweep


def test_folding_numbers_over_a_sweep_keeps_the_translate_table_bounded() -> None:
    fold_numbers(SWEEP)
    assert len(number_fold._FOLD_TABLE) <= number_fold.FOLD_TABLE_SIZE < len(SWEEP)
    assert fold_numbers("１２３４５") == "12345"  # characters past the bound still fold
