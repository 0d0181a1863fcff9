"""A two-case golden set run by `ragspine eval run` against the fake Messages API, the way a
user runs a live model: the real SDK, the demo fact store, an empty corpus, no retries."""

from __future__ import annotations

from pathlib import Path

from tests.cli import Ran, invoke
from tests.fakes.anthropic_server import text_message, tool_use_message
from tests.fakes.corpora import Stores

GOLDEN = """\
defaults: {reference_date: 2025-06-30}
cases:
  - id: pre-cn
    question: 中国内地FY2024的REVENUE是多少
    expect: {route: structured, statuses: [found]}
  - id: pre-hk
    question: 香港FY2024的REVENUE是多少
    expect: {route: structured, statuses: [found]}
"""
REPLIES = [
    tool_use_message(
        "query_metric", {"metric": "REVENUE", "entity": "ACME_CN", "period": "FY2024"}
    ),
    text_message("见上。"),
    tool_use_message(
        "query_metric", {"metric": "REVENUE", "entity": "ACME_HK", "period": "FY2024"}
    ),
    text_message("见上。"),
]
PRICES = """\
as_of: 2026-11-01
currency: USD
unit: per_million_tokens
models:
  claude-test: {input: 1000.0, output: 2000.0, cache_write: 1250.0, cache_read: 100.0}
"""
KEY = {"ANTHROPIC_API_KEY": "sk-test-preflight"}
NO_KEY = {"ANTHROPIC_API_KEY": None}


def run_live(tmp_path: Path, stores: Stores, *args: str, env: dict[str, str | None]) -> Ran:
    """The run on ``stores`` (``facts_alone``: the demo's facts, an empty corpus)."""
    golden = tmp_path / "golden"
    golden.mkdir(exist_ok=True)
    (golden / "pre.yaml").write_text(GOLDEN, "utf-8")
    return invoke(
        "eval", "run", "--golden", str(golden), "--provider", "anthropic:claude-test",
        "--db", str(stores[0]), "--corpus", str(stores[1]),
        "--max-retries", "0", *args, env=env,
    )  # fmt: skip
