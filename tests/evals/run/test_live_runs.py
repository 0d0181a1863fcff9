"""Live-model runs as a user drives them: `ragspine eval run` with the real SDK against a fake
Messages API on loopback. A run recorded to a cassette replays in strict mode with the server
stopped; an outage is counted by kind, apart from quality, exits non-zero, and --retry-errors
finishes the run in place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragspine.evals.run.records import read_results, read_run, read_summary
from tests.cli import Ran, invoke
from tests.fakes.anthropic_server import FakeAnthropicServer, text_message, tool_use_message
from tests.fakes.corpora import Stores

GOLDEN = """\
defaults: {reference_date: 2025-06-30}
cases:
  - id: live-cn
    question: 中国内地FY2024的REVENUE是多少
    expect: {route: structured, statuses: [found], guard_triggered: false,
             answer_contains: ["1,320 百万美元"]}
  - id: live-hk
    question: 香港FY2024的REVENUE是多少
    expect: {route: structured, statuses: [found], guard_triggered: false}
"""
CN = {"metric": "REVENUE", "entity": "ACME_CN", "period": "FY2024"}
HK = {"metric": "REVENUE", "entity": "ACME_HK", "period": "FY2024"}


def _model_replies(repeats: int = 1) -> list[dict[str, object]]:
    """What a careful model says, in the order the cases ask (concurrency 1)."""
    one = [
        tool_use_message("query_metric", CN),
        text_message("中国内地FY2024收入见上。"),
        tool_use_message("query_metric", HK),
        text_message("香港FY2024收入见上。"),
    ]
    return one * repeats


@pytest.fixture
def env(fake_anthropic: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-secret-key")
    return {"ANTHROPIC_BASE_URL": fake_anthropic.url}


def _run(tmp_path: Path, stores: Stores, *args: str, env: dict[str, str | None]) -> Ran:
    db, corpus = stores
    golden = tmp_path / "golden"
    golden.mkdir(exist_ok=True)
    (golden / "live.yaml").write_text(GOLDEN, "utf-8")
    return invoke(
        "eval", "run", "--golden", str(golden), "--provider", "anthropic:claude-test",
        "--db", str(db), "--corpus", str(corpus), "--max-retries", "0", *args, env=env,
    )  # fmt: skip


def _verdicts(run: Path) -> list[tuple[object, ...]]:
    return [
        (r.case_id, r.repeat, r.passed, r.answer, r.statuses, tuple(c.passed for c in r.checks))
        for r in sorted(read_results(run), key=lambda r: r.key)
    ]


def test_a_recorded_run_replays_in_strict_mode_with_the_server_stopped(
    fake_anthropic: FakeAnthropicServer, env: dict[str, str], tmp_path: Path, facts_alone: Stores
) -> None:
    tape = tmp_path / "cassette"
    fake_anthropic.script(*_model_replies(repeats=2))
    live = _run(
        tmp_path, facts_alone, "--out", str(tmp_path / "live"), "--repeat", "2",
        "--cassette", str(tape), "--cassette-mode", "record", env=env,
    )  # fmt: skip
    assert live.returncode == 0, live.stderr
    assert len(fake_anthropic.requests) == 8  # two calls a case, two cases, two repeats
    files = sorted(p.relative_to(tape).parts[0] for p in tape.rglob("*.json"))
    # a folder per case and repeat: the repeats are distinct episodes, not one replayed
    assert files == ["live-cn.0"] * 2 + ["live-cn.1"] * 2 + ["live-hk.0"] * 2 + ["live-hk.1"] * 2
    text = "".join(p.read_text("utf-8") for p in tape.rglob("*.json"))
    assert "sk-test-secret-key" not in text and "x-api-key" not in text.lower()
    fake_anthropic.stop()

    replay = _run(
        tmp_path, facts_alone, "--out", str(tmp_path / "replay"), "--repeat", "2",
        "--cassette", str(tape), "--cassette-mode", "strict",
        env={"ANTHROPIC_BASE_URL": fake_anthropic.url, "ANTHROPIC_API_KEY": None},
    )  # fmt: skip
    assert replay.returncode == 0, replay.stderr
    assert len(fake_anthropic.requests) == 8  # not one call more
    assert _verdicts(tmp_path / "replay") == _verdicts(tmp_path / "live")
    assert read_summary(tmp_path / "replay").metrics["pass_rate"]["value"] == 1.0
    record = read_run(tmp_path / "replay")
    assert record.model == "claude-test" and record.endpoint is not None
    assert record.endpoint.startswith(f"cassette {tape} (strict)")


def test_strict_mode_names_the_case_it_has_no_recording_for(
    env: dict[str, str], tmp_path: Path, facts_alone: Stores
) -> None:
    tape = tmp_path / "cassette"
    tape.mkdir()
    out = _run(
        tmp_path, facts_alone, "--out", str(tmp_path / "run"), "--cassette", str(tape),
        "--cassette-mode", "strict", env=env,
    )  # fmt: skip
    assert out.returncode == 1  # a stale cassette, not an outage: re-record, not --retry-errors
    first, _ = sorted(read_results(tmp_path / "run"), key=lambda r: r.key)
    assert first.error is not None and first.error_kind == "cassette_miss"
    assert "strict replay missed case live-cn (repeat 0), turn 0" in first.error
    assert "missed 2 of 2 cases" in out.stderr and "--retry-errors" not in out.stderr


def test_an_outage_is_counted_by_kind_apart_from_quality_and_retried_in_place(
    fake_anthropic: FakeAnthropicServer, env: dict[str, str], tmp_path: Path, facts_alone: Stores
) -> None:
    run = tmp_path / "run"
    fake_anthropic.outage(30, status=529)  # the API is overloaded for the whole first run
    out = _run(tmp_path, facts_alone, "--out", str(run), env=env)
    assert out.returncode == 1
    assert out.stdout.startswith("cases: 2  errors: 2 (overloaded 2)")
    assert "above --max-error-rate 0.1" in out.stderr and f"--retry-errors {run}" in out.stderr
    summary = read_summary(run)
    assert summary.errors_by_kind == {"overloaded": 2}
    # the outage is no route, status or guard miss: nothing was judged
    for rate in ("route_accuracy", "status_accuracy", "guard_accuracy"):
        assert summary.metrics[rate]["total"] == 0, rate
    pass_rate = summary.metrics["pass_rate"]
    assert (pass_rate["count"], pass_rate["total"]) == (0, 2)  # errors fail the whole case
    result = next(iter(read_results(run)))
    assert (result.error_kind, result.error_status) == ("overloaded", 529)
    report = (run / "report.md").read_text("utf-8")
    assert "## Errors by kind" in report and "| overloaded |" in report

    fake_anthropic.outage(0)  # the API is back
    fake_anthropic.script(*_model_replies())
    again = _run(tmp_path, facts_alone, "--retry-errors", str(run), env=env)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("cases: 2  errors: 0\npass_rate               1.000")
    assert sorted(r.case_id for r in read_results(run)) == ["live-cn", "live-hk"]


def test_resume_takes_the_runs_own_options_and_names_one_that_differs(
    env: dict[str, str], tmp_path: Path, facts_alone: Stores, fake_anthropic: FakeAnthropicServer
) -> None:
    run = tmp_path / "run"
    fake_anthropic.script(*_model_replies())
    assert _run(tmp_path, facts_alone, "--out", str(run), "--limit", "2", env=env).returncode == 0
    differs = invoke("eval", "run", "--resume", str(run), "--limit", "1", env=env)
    assert differs.returncode == 1
    assert differs.stderr == (
        f"error: {run}: --limit 1 differs from the run's 2; leave it out to continue the run "
        "with its own options\n"
    )
    same = invoke("eval", "run", "--resume", str(run), env=env)  # nothing left to run
    assert same.returncode == 0, same.stderr
    assert json.loads((run / "run.json").read_text("utf-8"))["options"]["max_retries"] == 0


PRICES = """\
as_of: 2026-11-01
currency: USD
unit: per_million_tokens
models:
  claude-test: {input: 1000.0, output: 2000.0, cache_write: 1250.0, cache_read: 100.0}
"""


def test_cost_is_tokens_times_a_dated_price_and_a_budget_stops_the_run_resumably(
    fake_anthropic: FakeAnthropicServer, env: dict[str, str], tmp_path: Path, facts_alone: Stores
) -> None:
    prices = tmp_path / "prices.yaml"
    prices.write_text(PRICES, "utf-8")
    run = tmp_path / "run"
    fake_anthropic.script(*_model_replies())
    # a case (a tool call and a text reply, as the fake counts their tokens) costs $0.056
    out = _run(
        tmp_path, facts_alone, "--out", str(run), "--prices", str(prices), "--budget", "0.03",
        env=env,
    )  # fmt: skip
    assert out.returncode == 1
    assert out.stderr.startswith("stopped: the estimated cost reached --budget $0.03 after 1 of 2")
    assert "cost                    $0.0560 (claude-test at the prices of 2026-11-01)" in out.stdout
    assert read_run(run).status == "stopped" and len(read_results(run)) == 1
    assert len(fake_anthropic.requests) == 2  # the second case was never asked
    stopped = "The run is stopped at its --budget (1 of 2 results)."
    assert stopped in (run / "report.md").read_text("utf-8")

    done = invoke("eval", "run", "--resume", str(run), "--budget", "1", env=env)
    assert done.returncode == 0, done.stderr
    assert "cost                    $0.1120" in done.stdout
    assert read_run(run).status == "complete"
    assert "The run is" not in (run / "report.md").read_text("utf-8")


def test_a_model_without_a_price_has_an_unknown_cost_never_zero(
    fake_anthropic: FakeAnthropicServer, env: dict[str, str], tmp_path: Path, facts_alone: Stores
) -> None:
    fake_anthropic.script(*_model_replies())
    out = _run(tmp_path, facts_alone, "--out", str(tmp_path / "run"), env=env)
    assert out.returncode == 0, out.stderr
    assert "cost                    unknown (no price for model 'claude-test'" in out.stdout
    with_budget = _run(
        tmp_path, facts_alone, "--out", str(tmp_path / "b"), "--budget", "1", env=env
    )
    assert with_budget.returncode == 1
    assert with_budget.stderr.startswith("error: --budget: no price for model 'claude-test'")


def test_a_budget_holds_with_many_workers(
    fake_anthropic: FakeAnthropicServer, env: dict[str, str], tmp_path: Path, facts_alone: Stores
) -> None:
    from tests.fakes.anthropic_server import Reply

    prices = tmp_path / "prices.yaml"
    prices.write_text(PRICES, "utf-8")
    golden = tmp_path / "golden"
    golden.mkdir()
    cases = "\n".join(
        f"  - id: c{i:02d}\n    question: 中国内地FY2024的REVENUE是多少\n"
        "    expect: {statuses: [found]}"
        for i in range(40)
    )
    (golden / "many.yaml").write_text(
        f"defaults: {{reference_date: 2025-06-30}}\ncases:\n{cases}\n", "utf-8"
    )
    fake_anthropic.responder = lambda req: Reply(200, text_message("见上。"), delay=0.05)
    out = invoke(
        "eval", "run", "--golden", str(golden), "--provider", "anthropic:claude-test",
        "--db", str(facts_alone[0]), "--corpus", str(facts_alone[1]),
        "--out", str(tmp_path / "r"),
        "--prices", str(prices), "--budget", "0.05", "--concurrency", "8", "--max-retries", "0",
        env=env,
    )  # fmt: skip
    assert out.returncode == 1 and out.stderr.startswith("stopped: the estimated cost reached")
    # a case costs $0.02 (one text reply): the budget is spent after 3, and at most one case per
    # worker is in flight when it is; never the 32 a queue four deep would have sent
    assert len(fake_anthropic.requests) <= 3 + 8


def test_a_recording_that_would_hold_the_key_is_refused(tmp_path: Path) -> None:
    from ragspine.errors import ProviderConfigError
    from ragspine.llm import CassetteProvider, MockProvider, episode

    leaky = CassetteProvider(
        tmp_path / "tape", "record", model_id="mock", params={}, build=MockProvider
    )
    import os

    os.environ["ANTHROPIC_API_KEY"] = "sk-leaky-secret-123"
    try:
        with episode("c", 0), pytest.raises(ProviderConfigError, match="would hold the API key"):
            leaky.create_message(
                system="",
                messages=[{"role": "user", "content": "[1] (来源:d l) sk-leaky-secret-123 问题:x"}],
                tools=[],
            )  # fmt: skip
    finally:
        del os.environ["ANTHROPIC_API_KEY"]
    assert not list((tmp_path / "tape").rglob("*.json"))
