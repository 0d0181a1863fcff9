"""The shipped price table and the cost of a run."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.evals.run.cost import PricesError, load_prices, run_cost
from ragspine.evals.run.records import CaseResult


@pytest.mark.parametrize(
    ("model", "entry"),
    [
        ("claude-opus-4-8", "claude-opus-4-8"),  # an id in the table
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4"),  # a dated id: the longest prefix
        ("claude-opus-4-1-20250805", "claude-opus-4-1"),  # not the older claude-opus-4
        ("gpt-5", None),  # another vendor's model: no price, never zero
    ],
)
def test_the_shipped_table_prices_a_model_by_its_longest_known_prefix(
    model: str, entry: str | None
) -> None:
    table = load_prices()
    found = table.price(model)
    assert (found[0] if found else None) == entry
    assert table.as_of.isoformat() == "2026-11-01" and table.source.startswith("https://")


def test_cost_counts_cache_reads_and_writes_at_their_own_prices() -> None:
    usage = {
        "input_tokens": 1_000_000,
        "output_tokens": 1_000_000,
        "cache_read_input_tokens": 1_000_000,
        "cache_creation_input_tokens": 1_000_000,
    }
    results = [CaseResult(case_id="a", passed=True, usage=usage)]
    cost = run_cost("anthropic:claude-opus-4-8", "claude-opus-4-8", results, load_prices())
    assert cost == {"usd": 36.75, "price": "claude-opus-4-8", "as_of": "2026-11-01"}  # 5+25+.5+6.25


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("as_of: 2026-11-01\ncurrency: EUR\nunit: per_million_tokens\nmodels: {}\n", "currency"),
        # a price that is not a number
        (
            "as_of: 2026-11-01\ncurrency: USD\nunit: per_million_tokens\n"
            "models: {m: {input: cheap, output: 1, cache_write: 1, cache_read: 1}}\n",
            "models.m.input",
        ),
        ("models: [\n", "not valid YAML"),  # broken YAML
    ],
)
def test_a_bad_price_table_names_the_file_and_the_field(
    tmp_path: Path, text: str, why: str
) -> None:
    path = tmp_path / "prices.yaml"
    path.write_text(text, "utf-8")
    with pytest.raises(PricesError, match=why) as err:
        load_prices(path)
    assert str(path) in str(err.value)
