"""`ragspine faq add|import` against the stores: an item cites passages or figures that exist, is
labelled at least as high as every source it cites (else refused, naming the source), and its
numbers are held to those sources by the engine's own guard. An item stored before (or past)
these checks is still never served above its sources' level."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from ragspine.engine import Engine
from ragspine.faq.faq_cache import FaqCache, normalise, slots_of
from ragspine.profile import default_profile
from tests.cli import Ran, invoke
from tests.pg_stores import Place

MINUTES = "ACME_Board_Minutes_2024Q4.md"
OPS_FAQ = "ACME_Store_Operations_FAQ.txt"  # INTERNAL: a .txt without front matter
SECRECY = "项目知情人名单由公司秘书统一登记管理,知情人须签署保密承诺。"
RETURNS = "非质量问题的商品,自购买之日起七天内可以无理由退货。"
REF_DAY = date(2025, 6, 30)
DEMO_FAQ = Path(__file__).parents[2] / "ragspine" / "demo" / "faq.yaml"


def _add(faq: Path | str, db: Path, corpus: Path, *args: str) -> Ran:
    return invoke(
        "faq", "add", "--faq", str(faq), "--db", str(db), "--corpus", str(corpus), *args,
    )  # fmt: skip


def _items(faq: Path | str) -> list[object]:
    """What the cache holds (a file never created holds nothing)."""
    if isinstance(faq, Path) and not faq.exists():
        return []
    with FaqCache(faq) as cache:
        return list(cache.items())


def _error(ran: Ran) -> str:
    assert ran.returncode != 0, ran.stdout
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), ran.stderr
    return lines[0]


@pytest.mark.parametrize(
    "source, answer, level, refused",
    [
        # a RESTRICTED source under a lower label: refused, the source named
        (f"{MINUTES}#section=1.2,para=5", SECRECY, "PUBLIC", MINUTES),
        (f"{MINUTES}#section=1.2,para=5", SECRECY, "INTERNAL", MINUTES),
        (f"{OPS_FAQ}#para=5", RETURNS, "PUBLIC", OPS_FAQ),  # INTERNAL source, PUBLIC label
        # a document no store holds
        ("ACME_Secret_Plan.md#para=1", SECRECY, "RESTRICTED", "ACME_Secret_Plan.md"),
        # a document that exists, a passage it does not have
        (f"{OPS_FAQ}#para=99", RETURNS, "INTERNAL", "para=99"),
        # a number its source does not state (七天 → 十五天)
        (f"{OPS_FAQ}#para=5", RETURNS.replace("七天", "十五天"), "INTERNAL", "十五天"),
    ],
)
def test_an_item_its_sources_do_not_back_is_refused_with_one_line(
    place: Place,
    demo_db: Path,
    demo_corpus: Path,
    source: str,
    answer: str,
    level: str,
    refused: str,
) -> None:
    ran = _add(
        place("faq.db"), demo_db, demo_corpus, "--question", "退货政策是什么?", "--answer",
        answer, "--source", source, "--sensitivity", level,
    )  # fmt: skip
    assert refused in _error(ran)
    assert _items(place("faq.db")) == []


@pytest.mark.parametrize(
    "source, answer, level",
    [
        (f"{MINUTES}#section=1.2,para=5", SECRECY, "RESTRICTED"),  # labelled as its source
        (f"{OPS_FAQ}#para=5", RETURNS, "INTERNAL"),  # its number stated by the passage
        (f"{OPS_FAQ}#para=5", RETURNS, "RESTRICTED"),  # above its source: allowed
    ],
)
def test_an_item_its_sources_back_is_added(
    place: Place, demo_db: Path, demo_corpus: Path, source: str, answer: str, level: str
) -> None:
    ran = _add(
        place("faq.db"), demo_db, demo_corpus, "--question", "退货政策是什么?", "--answer",
        answer, "--source", source, "--sensitivity", level,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr


def test_the_demo_items_pass_their_own_checks(
    place: Place, demo_db: Path, demo_corpus: Path
) -> None:
    ran = invoke(
        "faq", "import", str(DEMO_FAQ), "--faq", str(place("faq.db")), "--db", str(demo_db),
        "--corpus", str(demo_corpus),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr


def test_an_item_labelled_below_its_source_before_the_checks_is_never_served_below_it(
    place: Place, demo_db: Path, demo_corpus: Path
) -> None:
    """A cache written by an older version (or by hand): the engine reads its sources' levels
    when it opens and serves an item only to a caller cleared for all of them."""
    faq = place("faq.db")
    question, profile = "青松项目的保密安排是什么?", default_profile()
    with FaqCache(faq) as cache, cache.connection as conn:  # written by hand, under no check
        cache.init_schema()
        (item,) = conn.execute(
            "INSERT INTO faq_item (answer, sources, sensitivity) VALUES (?, ?, 'PUBLIC')"
            " RETURNING id",
            (SECRECY, json.dumps([{"doc": MINUTES, "locator": "section=1.2,para=5"}])),
        ).fetchone()
        conn.execute(
            "INSERT INTO faq_variant (item_id, question, normalised, slots) VALUES (?, ?, ?, ?)",
            (item, question, normalise(question), slots_of(question, profile, REF_DAY)),
        )
    with Engine.open(demo_db, demo_corpus, faq=faq) as engine:
        for clearance in ("PUBLIC", "INTERNAL"):
            assert engine.faq_answer(question, clearance=clearance) is None
