"""`--budget` as a user meets it: a total for the run folder, counting only the calls paid for.
A case of the fake (a tool call and a text reply, as its usage counts them) costs $0.056 at the
test's prices; a cassette's replay costs nothing."""

from __future__ import annotations

from pathlib import Path

from ragspine.evals.run.records import read_results, read_run, read_summary
from tests.cli import invoke
from tests.evals.run.live_cli import KEY, PRICES, REPLIES, run_live
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply, error_body
from tests.fakes.corpora import Stores


def _prices(tmp_path: Path) -> str:
    path = tmp_path / "prices.yaml"
    path.write_text(PRICES, "utf-8")
    return str(path)


def test_replays_from_a_cassette_cost_nothing_against_the_budget(
    fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    env = KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    tape, prices = str(tmp_path / "tape"), _prices(tmp_path)
    fake_anthropic.script(*REPLIES)
    recorded = run_live(tmp_path, facts_alone, "--out", str(tmp_path / "rec"), "--cassette", tape,
                        "--prices", prices, env=env)  # fmt: skip
    assert recorded.returncode == 0, recorded.stderr

    # $0.112 of replies, none paid now: a budget of one cent does not stop the run
    replay = run_live(tmp_path, facts_alone, "--out", str(tmp_path / "replay"), "--cassette", tape,
                      "--prices", prices, "--budget", "0.01", env=env)  # fmt: skip
    assert replay.returncode == 0, replay.stderr
    assert len(fake_anthropic.requests) == 4  # the recording's calls only
    assert (
        "cost                    $0.1120 (claude-test at the prices of 2026-11-01; this run "
        "folder paid $0.0000)" in replay.stdout
    )
    assert read_summary(tmp_path / "replay").cost == {
        "usd": 0.112, "price": "claude-test", "as_of": "2026-11-01", "paid_usd": 0.0,
    }  # fmt: skip
    assert all(r.replayed_usage == r.usage for r in read_results(tmp_path / "replay"))
    assert all(r.replayed_usage == {} for r in read_results(tmp_path / "rec"))


def test_the_budget_is_a_total_for_the_run_folder_across_resume(
    fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    env = KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    run = tmp_path / "run"
    fake_anthropic.script(*REPLIES)
    first = run_live(tmp_path, facts_alone, "--out", str(run), "--prices", _prices(tmp_path),
                     "--budget", "0.03", env=env)  # fmt: skip
    assert first.returncode == 1 and len(fake_anthropic.requests) == 2
    assert "(this run folder paid $0.0560); --budget is a total for the folder" in first.stderr
    assert f"--resume {run} --budget N, N above $0.0560" in first.stderr

    # $0.05 is less than the folder has paid already: not $0.05 more, so nothing is asked
    short = invoke("eval", "run", "--resume", str(run), "--budget", "0.05", env=env)
    assert short.returncode == 1 and len(fake_anthropic.requests) == 2
    assert short.stderr.startswith(
        "budget: $0.0560 of --budget $0.05 paid by this run folder so far, $0.0000 left\n"
    )
    assert read_run(run).status == "stopped"

    done = invoke("eval", "run", "--resume", str(run), "--budget", "0.2", env=env)
    assert done.returncode == 0, done.stderr
    assert "budget: $0.0560 of --budget $0.2 paid by this run folder so far, $0.1440 left" in (
        done.stderr
    )
    assert read_run(run).status == "complete" and len(fake_anthropic.requests) == 4


def test_what_an_errored_answer_paid_stays_spent_after_retry_errors(
    fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    """The first case's model looked the figure up ($0.036), then failed: its answer degraded
    and counts as an error. --retry-errors asks it again; the first attempt stays paid."""
    env = KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    run = tmp_path / "run"
    outage = Reply(500, error_body("api_error", "fake: down"))
    fake_anthropic.script(REPLIES[0], outage, *REPLIES[2:])
    first = run_live(tmp_path, facts_alone, "--out", str(run), "--prices", _prices(tmp_path),
                     "--max-error-rate", "1", env=env)  # fmt: skip
    assert first.returncode == 0, first.stderr
    errored = next(r for r in read_results(run) if r.error is not None)
    assert errored.usage == {"input_tokens": 20, "output_tokens": 8}

    fake_anthropic.script(*REPLIES[:2])
    again = invoke("eval", "run", "--retry-errors", str(run), "--budget", "1", env=env)
    assert again.returncode == 0, again.stderr
    # before: the degraded attempt's $0.036 and the other case's $0.056
    assert again.stderr.startswith("budget: $0.0920 of --budget $1 paid by this run folder")
    assert read_run(run).retried_usage == {"input_tokens": 20, "output_tokens": 8}
    assert read_summary(run).cost == {
        "usd": 0.112, "price": "claude-test", "as_of": "2026-11-01", "paid_usd": 0.148,
    }  # fmt: skip


def test_the_help_says_the_budget_is_a_total_for_the_run_folder() -> None:
    text = " ".join(invoke("eval", "run", "--help").stdout.split())
    assert "USD, a total for the run folder" in text
    assert "cassette replays cost nothing" in text
