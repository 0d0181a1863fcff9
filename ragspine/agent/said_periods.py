"""How the question wrote each period, by the label the fact table gives it.

A not-found says the period it looked for by its label (2021Q4), which the user may not
recognise as what they asked (2021年第四季度, Q4 2021, 去年第四季度): the miss names both, the
label first. Only a period the question writes is said so, and only where its words differ from
the label (2021Q4 written 2021Q4 is said once) by more than the year's own marks: FY2024
written 2024, 2024年 or fiscal 2024 is recognisable, said once. A found answer is left as it was.
"""

from __future__ import annotations

import re
from datetime import date

from ragspine.agent.intent_text import folded, original_words
from ragspine.profile.periods import find_periods
from ragspine.text import fold

# A year written with at most its own marks: the label FY2024 says it already.
_PLAIN_YEAR = re.compile(r"(?:fy|fiscal(?:\s*year)?|year)?\s*(?P<year>\d{4})\s*(?:年度?|财年)?")


def said_periods(question: str, reference_date: date) -> dict[str, str]:
    """Each period label the question names, with the question's own words for it where they
    differ from the label."""
    text, index = folded(question)
    said: dict[str, str] = {}
    for pm in find_periods(text, reference_date):
        if pm.period is None or pm.period.label in said:
            continue
        words = original_words(question, index, (pm.start, pm.end))
        if "".join(fold(words).split()) == fold(pm.period.label) or _plain_year(
            words, pm.period.label
        ):
            continue
        said[pm.period.label] = words
    return said


def _plain_year(words: str, label: str) -> bool:
    found = _PLAIN_YEAR.fullmatch(fold(words).strip())
    return found is not None and label == f"FY{found['year']}"
