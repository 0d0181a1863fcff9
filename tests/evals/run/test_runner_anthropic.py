"""The eval runner with a live-model provider: the real SDK against a fake API on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.evals.run.records import read_results
from ragspine.evals.run.runner import RunOptions, run_eval
from ragspine.evals.score.summary import summarize
from ragspine.store_location import parse_location
from tests.fakes.anthropic_server import (
    FakeAnthropicServer,
    Reply,
    error_body,
    text_message,
    tool_use_message,
)
from tests.fakes.corpora import Stores

GOLDEN = """\
defaults: {reference_date: 2025-06-30}
cases:
  - id: live-found
    question: 中国内地FY2024的REVENUE是多少
    expect: {statuses: [found], answer_contains: ["1,320 百万美元"], answer_excludes: ["9999"]}
"""


@pytest.fixture
def opts(
    fake_anthropic: FakeAnthropicServer,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    facts_alone: Stores,
) -> RunOptions:
    """One live-model case against the fake API, as `--provider anthropic:claude-test` runs it."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.url)
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "live.yaml").write_text(GOLDEN, "utf-8")
    return RunOptions(
        golden=tmp_path / "g",
        out=tmp_path / "run",
        provider="anthropic:claude-test",
        db=parse_location(facts_alone[0]),
        corpus=parse_location(facts_alone[1]),
    )


def test_a_model_is_one_flag_away(fake_anthropic: FakeAnthropicServer, opts: RunOptions) -> None:
    fake_anthropic.script(
        tool_use_message(
            "query_metric", {"metric": "REVENUE", "entity": "ACME_CN", "period": "FY2024"}
        ),
        text_message("1320, and 9999 besides"),
    )
    record = run_eval(opts)
    (result,) = read_results(opts.out)
    assert record.model == "claude-test" and record.provider == "anthropic:claude-test"
    assert result.passed, result.checks
    assert result.usage["input_tokens"] > 0  # the API's own counts reach the record
    assert fake_anthropic.requests[0].body["model"] == "claude-test"


def test_an_api_outage_is_an_error_in_the_denominator(
    fake_anthropic: FakeAnthropicServer, opts: RunOptions
) -> None:
    fake_anthropic.script(
        Reply(status=500, body=error_body("api_error", "down"), headers={"x-should-retry": "false"})
    )
    record = run_eval(opts)
    (result,) = read_results(opts.out)
    assert not result.passed and result.error and "ProviderError" in result.error
    summary = summarize(record.run_id, record.provider, read_results(opts.out))
    assert summary.metrics["errors"] == 1 and summary.metrics["pass_rate"]["total"] == 1
