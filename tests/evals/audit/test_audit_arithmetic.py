"""One arithmetic step over supported figures (the README's rule, implemented by the audit in its
own code): a sum, a difference, a ratio, an average, a complement to 100%, a per-unit figure, a
monthly average, points as basis points. Each control is right; each attack is the same sentence
with the arithmetic wrong, and stays caught."""

from __future__ import annotations

from typing import Any

import pytest

from tests.evals.audit.test_audit_fresh import _audit, _cite, _fact

HK = _fact("ACME_HK", "2024", 455.0)
SEA = _fact("ACME_SEA", "2024", 395.0)
CN = _fact("ACME_CN", "2024", 1320.0)
CN_PRIOR = _fact("ACME_CN", "2023", 1400.0)
CN_GM = [
    {**_fact("ACME_CN", y, v, "GROSS_MARGIN"), "unit": "PCT"}
    for y, v in (("2023", 33.1), ("2024", 32.4))
]
ONLINE = {**_fact("ACME_CN", "2024", 27.0, "ONLINE_SHARE"), "unit": "PCT"}
HK_SSS = {**_fact("ACME_HK", "2024", 6.8, "SSSG"), "unit": "PCT"}
SEA_SSS = {**_fact("ACME_SEA", "2024", 6.3, "SSSG"), "unit": "PCT"}


# (what, answer, facts)
RIGHT: list[tuple[str, str, list[dict[str, Any]]]] = [
    # 455 + 395
    ("sum", "香港和东南亚2024年收入合计为850百万美元。", [HK, SEA]),
    # 1320 / 455 = 2.90
    ("ratio of two entities", "2024年中国内地收入约为香港的2.9倍。", [CN, HK]),
    # 1320 / 1400 = 94.3%
    ("ratio as a percent of the prior year", "FY2024中国内地收入约为上年的94%。", [CN, CN_PRIOR]),
    # 395 − 455 = −60
    ("difference, its direction", "2024年东南亚收入比香港低60百万美元。", [HK, SEA]),
    # (6.8 + 6.3) / 2
    ("average", "两地2024年同店销售增长平均为6.55%。", [HK_SSS, SEA_SSS]),
    # 1320 / 12
    ("monthly average", "中国内地2024年月均收入约为110百万美元。", [CN]),
    # 1320 / 540 stores stated in the sentence
    ("per store", "按年末540家门店计算,中国内地2024年单店平均收入约为2.44百万美元。"
     + _cite("section=1.2,para=2"), [CN]),
    # 1320 stated (and cited) on an earlier line of the answer, 540 in the sentence
    (
        "per store over an earlier line's figure",
        "FY2024中国内地收入由上年的1400百万美元下降至1320百万美元,降幅约为5.7%。"
        + _cite("section=1.2,para=1")
        + "\n按年末540家门店计算,中国内地2024年单店平均收入约为2.44百万美元。",
        [_fact("ACME_CN", "2024", 540.0, "STORE_COUNT")],
    ),
    # 33.1 − 32.4 = 0.7 points = 70 basis points
    ("basis points", "中国内地毛利率由33.1%降至32.4%,下降了70个基点。", CN_GM),
    # 100% − 27% online = the offline share
    ("complement", "2024年线下收入约占中国内地收入的73%。", [ONLINE]),
]  # fmt: skip

WRONG: list[tuple[str, str, str, list[dict[str, Any]]]] = [
    ("sum miscomputed", "香港和东南亚2024年收入合计为870百万美元。", "870", [HK, SEA]),
    ("ratio inverted between entities", "2024年香港收入是中国内地收入的2.9倍。", "2.9", [CN, HK]),
    ("ratio inverted over time", "FY2024中国内地收入为上年的1.06倍。", "1.06", [CN, CN_PRIOR]),
    ("difference, direction flipped", "2024年东南亚收入比香港高60百万美元。", "60", [HK, SEA]),
    ("average miscomputed", "两地2024年同店销售增长平均为7.1%。", "7.1", [HK_SSS, SEA_SSS]),
    ("monthly average miscomputed", "中国内地2024年月均收入约为130百万美元。", "130", [CN]),
    ("a difference as a multiple", "香港2024年同店销售增长是东南亚的0.5倍。", "0.5",
     [HK_SSS, SEA_SSS]),
    ("per store as per square metre",
     "按年末540家门店计算,中国内地2024年每平方米销售额约为2.44百万美元。", "2.44", [CN]),
    ("basis points misconverted", "中国内地毛利率由33.1%降至32.4%,下降了7个基点。", "7", CN_GM),
    ("a percent applied to another base to make an amount",
     "中国内地收入降幅约为5.7%,相当于集团收入减少约137百万美元。", "137",
     [CN, CN_PRIOR, _fact("ACME_GROUP", "2024", 2398.0)]),
]  # fmt: skip


@pytest.mark.parametrize(("what", "answer", "facts"), RIGHT, ids=[r[0] for r in RIGHT])
def test_one_step_over_supported_figures_is_supported(
    what: str, answer: str, facts: list[dict[str, Any]]
) -> None:
    flagged = [(f.number, f.reason) for f in _audit(answer, facts)]
    assert flagged == []


@pytest.mark.parametrize(("what", "answer", "figure", "facts"), WRONG, ids=[w[0] for w in WRONG])
def test_wrong_arithmetic_is_still_flagged(
    what: str, answer: str, figure: str, facts: list[dict[str, Any]]
) -> None:
    assert any(f.number.startswith(figure) for f in _audit(answer, facts))
