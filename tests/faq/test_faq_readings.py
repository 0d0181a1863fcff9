"""A FAQ lookup reads a question as the agent would (its parse is most of a hit's cost); the
reading is a function of the question, the day and the profile alone, so the same question on
the same day is parsed once, and what it decides (served, or refused and why) never changes."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ragspine.faq.faq_cache import READINGS, FaqCache, readings
from ragspine.profile import load_profile
from tests.pg_stores import Place
from tests.service.conftest import TODAY, faq_items


def test_a_question_asked_again_on_the_same_day_is_read_once(tmp_path: Path, place: Place) -> None:
    faq_items(place("faq.db"))
    profile = load_profile()  # a fresh profile: its readings start empty
    with FaqCache(place("faq.db")) as cache:
        first = cache.lookup("退货政策是什么?", profile=profile, clearance="INTERNAL", today=TODAY)
        again = cache.lookup("退货政策是什么?", profile=profile, clearance="INTERNAL", today=TODAY)
        info = readings(profile).cache_info()
        assert (first.reason, again.reason) == ("hit", "hit")
        assert (info.misses, info.hits) == (1, 1)
        # another day is read again: it can change what the question means ('last year')
        cache.lookup(
            "退货政策是什么?", profile=profile, clearance="INTERNAL", today=TODAY,
            reference_date=date(2024, 1, 2),
        )  # fmt: skip
        assert readings(profile).cache_info().misses == 2


def test_a_refusal_read_before_is_still_a_refusal(tmp_path: Path, place: Place) -> None:
    faq_items(place("faq.db"))
    profile = load_profile()
    with FaqCache(place("faq.db")) as cache:
        for _ in range(2):  # read, then remembered: the same verdict both times
            structured = cache.lookup(
                "香港FY2024的收入是多少", profile=profile, clearance="INTERNAL", today=TODAY
            )
            realtime = cache.lookup(
                "今天的退货政策是什么?", profile=profile, clearance="INTERNAL", today=TODAY
            )
            assert (structured.reason, realtime.reason) == ("structured", "realtime")
    assert readings(profile).cache_info().hits == 2


def test_the_readings_kept_are_bounded() -> None:
    # questions that vary (or a caller that varies the day) cannot grow a worker's memory
    assert readings(load_profile()).cache_info().maxsize == READINGS
