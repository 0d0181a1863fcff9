"""What kind of quantity each metric is, read from the profile: its base and its modifier."""

from __future__ import annotations

from pathlib import Path

from ragspine.profile import default_profile, load_profile
from ragspine.profile.quantities import metric_shapes

JINYU = Path(__file__).parents[2] / "examples" / "jinyu" / "profile.yaml"


def test_the_demo_metrics_are_levels_a_margin_and_a_growth() -> None:
    shapes = metric_shapes(default_profile())
    assert shapes["REVENUE"] == ("REVENUE", "level")
    assert shapes["STORE_COUNT"] == ("STORE_COUNT", "level")
    assert shapes["GROSS_MARGIN"] == ("GROSS_MARGIN", "margin")  # 毛利率: a percent
    assert shapes["SSSG"] == ("SSSG", "growth")  # 同店销售增长: a growth by its name


def test_a_derived_metric_is_the_growth_or_ratio_of_its_base() -> None:
    shapes = metric_shapes(load_profile(JINYU))
    assert shapes["REVENUE_GROWTH"] == ("REVENUE", "growth")  # (X - prev(X)) / prev(X)
    assert shapes["NET_MARGIN"] == ("NET_PROFIT", "margin")  # NET_PROFIT / REVENUE
    assert shapes["RD_TO_REVENUE"][1] == "share"  # 研发费用占营业收入比例
    assert shapes["TOTAL_ASSETS_GROWTH"] == ("TOTAL_ASSETS_GROWTH", "growth")  # two bases
