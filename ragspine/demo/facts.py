"""ACME demo facts: FY2022-FY2024, 2024 halves and quarters, ONLINE/OFFLINE splits.

Values are internally consistent (quarters sum to halves and years, channels to totals, margins
to profits) and include the seeds' own example. Gaps are deliberate so not_found is exercised:
nothing for FY2025, no channel split, SSSG or quarters for ACME_TW, no FY2022 profits for ACME_TW.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ragspine.profile import DomainProfile, default_profile, demo_profile_text
from ragspine.sensitivity import INTERNAL, PUBLIC
from ragspine.storage.fact_store import Fact, FactStore
from ragspine.store_location import Location, PgLocation, parse_location

YEARS = (2022, 2023, 2024)
DETAIL_YEAR = 2024
SLIDES = {"ACME_GROUP": 1, "ACME_CN": 2, "ACME_HK": 3, "ACME_TW": 4, "ACME_SEA": 5}
SEGMENTS = ("ACME_CN", "ACME_HK", "ACME_TW", "ACME_SEA")

REVENUE = {
    "ACME_CN": (1450, 1400, 1320),
    "ACME_HK": (380, 410, 455),
    "ACME_TW": (210, 220, 228),
    "ACME_SEA": (300, 340, 395),
}
GROSS_MARGIN = {
    "ACME_CN": (34.0, 33.1, 32.4),
    "ACME_HK": (38.5, 39.2, 40.1),
    "ACME_TW": (31.0, 31.5, 31.8),
    "ACME_SEA": (29.0, 30.2, 31.0),
}
OPERATING_MARGIN = {
    "ACME_CN": (9.0, 7.5, 5.8),
    "ACME_HK": (12.0, 13.1, 14.2),
    "ACME_TW": (6.0, 6.2, 6.5),
    "ACME_SEA": (5.0, 6.0, 7.1),
}
ONLINE_SHARE = {
    "ACME_CN": (0.18, 0.22, 0.27),
    "ACME_HK": (0.10, 0.13, 0.17),
    "ACME_TW": (0.04, 0.04, 0.05),  # in the group total, never broken out for TW
    "ACME_SEA": (0.08, 0.10, 0.12),
}
STORES = {
    "ACME_CN": (620, 585, 540),
    "ACME_HK": (88, 92, 97),
    "ACME_TW": (60, 61, 63),
    "ACME_SEA": (140, 158, 176),
}
SSSG = {
    "ACME_GROUP": (0.4, -0.3, -1.2),
    "ACME_CN": (-1.5, -2.8, -4.1),
    "ACME_HK": (3.2, 5.4, 6.8),
    "ACME_SEA": (4.0, 5.1, 6.3),
}
QUARTER_WEIGHTS = (0.23, 0.24, 0.25)  # Q4 takes the remainder, so quarters sum to the year
NO_CHANNEL_SPLIT = {"ACME_TW"}
NO_QUARTERS = {"ACME_TW"}

FY_DOC = "ACME_FY{year}_Review.pptx"
DETAIL_DOC = "ACME_2024_Quarterly_KPI.xlsx"


def demo_level(doc: str) -> str:
    """A demo file's sensitivity, which its figures take. DOMAIN.md keeps RESTRICTED for board
    material; the annual review decks are published results (PUBLIC, like the FY2024 MD&A) and
    the quarterly KPI workbook is management's own (INTERNAL)."""
    return INTERNAL if doc == DETAIL_DOC else PUBLIC


def _r1(x: float) -> float:
    return round(x + 0.0, 1)


def _series(year_index: int) -> dict[str, dict[str, dict[str, float]]]:
    """Per entity and channel, every metric's FY value for one year."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for ent in SEGMENTS:
        rev = float(REVENUE[ent][year_index])
        online = float(round(rev * ONLINE_SHARE[ent][year_index]))
        gm = GROSS_MARGIN[ent][year_index]
        gp = _r1(rev * gm / 100)
        gp_online = _r1(online * (gm + 2.0) / 100)
        op = _r1(rev * OPERATING_MARGIN[ent][year_index] / 100)
        out[ent] = {
            "TOTAL": {
                "REVENUE": rev,
                "GROSS_PROFIT": gp,
                "GROSS_MARGIN": gm,
                "OPERATING_PROFIT": op,
                "NET_PROFIT": _r1(op * 0.75),
                "STORE_COUNT": float(STORES[ent][year_index]),
            },
            "ONLINE": {"REVENUE": online, "GROSS_PROFIT": gp_online},
            "OFFLINE": {"REVENUE": rev - online, "GROSS_PROFIT": _r1(gp - gp_online)},
        }
        if ent in SSSG:
            out[ent]["TOTAL"]["SSSG"] = SSSG[ent][year_index]
    group: dict[str, dict[str, float]] = {"TOTAL": {}, "ONLINE": {}, "OFFLINE": {}}
    for channel, metrics in group.items():
        for metric in ("REVENUE", "GROSS_PROFIT", "OPERATING_PROFIT", "NET_PROFIT", "STORE_COUNT"):
            vals = [out[e][channel].get(metric) for e in SEGMENTS]
            if all(v is not None for v in vals):
                metrics[metric] = _r1(sum(v for v in vals if v is not None))
    total = group["TOTAL"]
    total["GROSS_MARGIN"] = _r1(total["GROSS_PROFIT"] / total["REVENUE"] * 100)
    total["SSSG"] = SSSG["ACME_GROUP"][year_index]
    out["ACME_GROUP"] = group
    return out


def _row(metric: str, channel: str) -> str:
    return metric if channel == "TOTAL" else f"{metric}:{channel}"


def demo_facts(profile: DomainProfile | None = None) -> list[Fact]:
    """Every demo fact, in a stable order."""
    prof = profile or default_profile()
    units = {m.code: m.unit for m in prof.metrics}
    geo = {e.code: e.geography or "" for e in prof.entities}
    facts: list[Fact] = []

    def add(
        metric: str,
        ent: str,
        channel: str,
        ptype: str,
        period: str,
        value: float,
        doc: str,
        locator: str,
    ) -> None:
        facts.append(
            Fact(
                metric, ent, geo[ent], channel, ptype, period, value, units[metric], doc, locator,
                sensitivity=demo_level(doc),
            )
        )  # fmt: skip

    for yi, year in enumerate(YEARS):
        for ent, channels in _series(yi).items():
            for channel, metrics in channels.items():
                if channel != "TOTAL" and ent in NO_CHANNEL_SPLIT:
                    continue
                for metric, value in metrics.items():
                    if (
                        ent == "ACME_TW"
                        and year == 2022
                        and metric in ("OPERATING_PROFIT", "NET_PROFIT")
                    ):
                        continue
                    locator = (
                        f"slide={SLIDES[ent]},table=1,row={_row(metric, channel)},col=FY{year}"
                    )
                    add(
                        metric,
                        ent,
                        channel,
                        "FY",
                        str(year),
                        value,
                        FY_DOC.format(year=year),
                        locator,
                    )

    detail = _series(YEARS.index(DETAIL_YEAR))
    for ent, channels in detail.items():
        for channel, metrics in channels.items():
            if channel != "TOTAL" and ent in NO_CHANNEL_SPLIT:
                continue
            for metric in ("REVENUE", "GROSS_PROFIT"):
                year_value = metrics[metric]
                quarters = [_r1(year_value * w) for w in QUARTER_WEIGHTS]
                quarters.append(_r1(year_value - sum(quarters)))
                halves = [_r1(quarters[0] + quarters[1]), _r1(quarters[2] + quarters[3])]
                sheet = f"sheet={ent},row={_row(metric, channel)}"
                for h, value in enumerate(halves, start=1):
                    period = f"{DETAIL_YEAR}H{h}"
                    add(
                        metric,
                        ent,
                        channel,
                        "H",
                        period,
                        value,
                        DETAIL_DOC,
                        f"{sheet},col={period}",
                    )
                if ent in NO_QUARTERS:
                    continue
                for q, value in enumerate(quarters, start=1):
                    period = f"{DETAIL_YEAR}Q{q}"
                    add(
                        metric,
                        ent,
                        channel,
                        "Q",
                        period,
                        value,
                        DETAIL_DOC,
                        f"{sheet},col={period}",
                    )
    return facts


def build_demo_store(path: str | Location, files: str | Path | None = None) -> int:
    """Write the demo decks and workbook (into ``files``, or a scratch folder), ingest them into
    a fact store at ``path`` (replaced atomically; a database's copied in, ``demo.staged``); returns
    the number of facts.

    The facts come from the files, not from this module, so every locator is a real cell. The
    store remembers the demo profile, as one filled by `ingest --profile` remembers its own.
    """
    from ragspine.demo.files import write_demo_files
    from ragspine.demo.staged import copied_in
    from ragspine.ingestion.pipeline import ingest_file

    target = parse_location(path)
    if isinstance(target, PgLocation):
        return copied_in(target, FactStore, lambda file: build_demo_store(file, files))
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".fact_metric.", suffix=".db", dir=target.parent)
    os.close(fd)
    scratch = None if files is not None else tempfile.TemporaryDirectory(prefix="ragspine-demo-")
    try:
        folder = Path(files) if files is not None else Path(scratch.name)  # type: ignore[union-attr]
        profile = default_profile()
        n = 0
        with FactStore(tmp) as store:
            store.init_schema()
            for source in write_demo_files(folder, profile):
                report = ingest_file(
                    source,
                    chunks=None,
                    facts=store,
                    profile=profile,
                    sensitivity=demo_level(source.name),
                )
                if report.unmapped or report.conflicts:
                    raise RuntimeError(f"demo file {source} has values it cannot map")
                n += report.facts
            store.remember_profile(profile.name, demo_profile_text())  # what `ask` reads it with
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        if scratch is not None:
            scratch.cleanup()
    return n
