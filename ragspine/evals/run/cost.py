"""What a run costs: its tokens times a dated price table.

The table ships with the package (``prices.yaml``) and says when it was copied and from where;
``--prices FILE`` replaces it. A model the table does not know has an unknown cost, never a
cost of zero; the offline providers (the mock, a fake) cost nothing and say so.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragspine.errors import PricesError as PricesError
from ragspine.errors import first_problem
from ragspine.evals.run.records import CaseResult

# The usage keys of the Messages API, and what each is priced as.
USAGE_PRICES = {
    "input_tokens": "input",
    "output_tokens": "output",
    "cache_read_input_tokens": "cache_read",
    "cache_creation_input_tokens": "cache_write",
}


class Price(BaseModel):
    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cache_write: float = Field(ge=0)
    cache_read: float = Field(ge=0)


class PriceTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    as_of: date
    currency: Literal["USD"]
    unit: Literal["per_million_tokens"]
    source: str = ""
    models: dict[str, Price]

    def price(self, model: str | None) -> tuple[str, Price] | None:
        """The entry for a model id: the longest id it starts with."""
        if not model:
            return None
        known = [k for k in self.models if model.startswith(k)]
        return (key := max(known, key=len), self.models[key]) if known else None


def load_prices(path: Path | None = None) -> PriceTable:
    """The shipped table, or the one at ``path``."""
    where = str(path) if path else "ragspine/evals/run/prices.yaml"
    try:
        text = (
            path.read_text("utf-8")
            if path
            else files("ragspine.evals.run").joinpath("prices.yaml").read_text("utf-8")
        )
        data = yaml.safe_load(text)
    except OSError as exc:
        raise PricesError(f"{where}: cannot read: {exc.strerror or exc}") from exc
    except yaml.YAMLError as exc:  # one line: where, and what
        mark = getattr(exc, "problem_mark", None)
        at = f":{mark.line + 1}" if mark is not None else ""
        raise PricesError(f"{where}{at}: not valid YAML: {getattr(exc, 'problem', exc)}") from exc
    try:
        return PriceTable.model_validate(data)
    except ValidationError as exc:
        raise PricesError(f"{where}: {first_problem(exc)}") from exc


def usd(usage: dict[str, int], price: Price) -> float:
    return float(sum(usage.get(k, 0) * getattr(price, v) for k, v in USAGE_PRICES.items())) / 1e6


def paid(result: CaseResult) -> dict[str, int]:
    """The tokens of a result that were paid for: its usage less what a cassette replayed."""
    return {k: v - result.replayed_usage.get(k, 0) for k, v in result.usage.items()}


def paid_usd(results: Iterable[CaseResult], price: Price, retried: dict[str, int]) -> float:
    """What a run folder has paid: its results' paid tokens, and those of the errored results
    ``--retry-errors`` dropped to ask again (paid all the same)."""
    return sum((usd(paid(r), price) for r in results), usd(retried, price))


def run_cost(
    provider: str,
    model: str | None,
    results: Iterable[CaseResult],
    table: PriceTable,
    retried: dict[str, int] | None = None,
) -> dict[str, Any]:
    """The summary's ``cost``: USD of the tokens the answers used (None when the model has no
    price), which price, and ``paid_usd`` when what this run folder paid differs (a cassette's
    replays cost nothing; errored answers asked again were paid twice)."""
    if provider == "mock":
        return {"usd": 0.0, "note": "the mock is offline: no paid calls"}
    found = table.price(model)
    if found is None:
        return {
            "usd": None,
            "note": f"no price for model {model!r} in the table of {table.as_of}: pass --prices",
        }
    key, price = found
    results = list(results)
    total = sum(usd(r.usage, price) for r in results)
    spent = round(paid_usd(results, price, retried or {}), 6)
    cost = {"usd": round(total, 6), "price": key, "as_of": table.as_of.isoformat()}
    return cost if spent == cost["usd"] else cost | {"paid_usd": spent}


class Meter:
    """What a run folder has paid so far, against ``--budget`` (a total for the folder)."""

    def __init__(self, budget: float | None, price: Price | None, spent: float = 0.0) -> None:
        self.budget, self.price, self.spent = budget, price, spent
        self.results = 0  # added in this session

    def add(self, result: CaseResult) -> None:
        self.results += 1
        if self.price is not None:
            self.spent += usd(paid(result), self.price)

    def spent_out(self) -> bool:
        return self.budget is not None and self.spent >= self.budget


def budget_price(
    budget: float | None, table: PriceTable, model: str | None, provider: str
) -> Price | None:
    """The price a budget is counted in, checked before the run starts: with a budget, a model
    needs a price (the mock costs nothing)."""
    if budget is None:
        return None
    found = table.price(model)
    if found is None and provider != "mock":
        raise PricesError(
            f"--budget: no price for model {model!r} in the price table; pass --prices FILE"
        )
    return found[1] if found else None
