"""What `ragspine eval run` checks before the first case of a live run, as a user meets it: the
real SDK against the fake Messages API on loopback. A missing key, an unreadable price table
and an endpoint nobody answers at each stop the run with one line before anything is paid or
written; a run from a cassette needs no key."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from ragspine.evals.run.records import read_results
from tests.cli import Ran
from tests.evals.run.live_cli import KEY, NO_KEY, PRICES, REPLIES, run_live
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply, error_body
from tests.fakes.corpora import Stores


def _one_error_line(ran: Ran) -> str:
    assert ran.returncode == 1
    lines = ran.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), ran.stderr
    return lines[0]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- the key ----------------------------------------------------------------------------------


def test_recording_without_a_key_stops_before_the_first_case(
    fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    env = NO_KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    out = tmp_path / "run"
    ran = run_live(tmp_path, facts_alone, "--out", str(out), "--cassette", str(tmp_path / "tape"),
                   "--cassette-mode", "record", env=env)  # fmt: skip
    assert "ANTHROPIC_API_KEY" in _one_error_line(ran)
    assert fake_anthropic.requests == [] and not out.exists()  # nothing asked, nothing written


def test_a_replay_that_misses_without_a_key_stops_at_the_miss_not_case_by_case(
    fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    """What is recorded replays with no key; the first case that would need the model stops
    the run with one line naming it (every later case would fail the same way)."""
    tape, env = tmp_path / "tape", KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    fake_anthropic.script(*REPLIES[:2])
    first = run_live(tmp_path, facts_alone, "--out", str(tmp_path / "first"), "--limit", "1",
                     "--cassette", str(tape), env=env)  # fmt: skip
    assert first.returncode == 0, first.stderr

    env = NO_KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    out = tmp_path / "again"
    ran = run_live(tmp_path, facts_alone, "--out", str(out), "--cassette", str(tape), env=env)
    line = _one_error_line(ran)
    assert "pre-hk" in line and "ANTHROPIC_API_KEY" in line
    assert [r.case_id for r in read_results(out)] == ["pre-cn"]  # replayed, kept, resumable
    assert len(fake_anthropic.requests) == 2  # the recording run's two calls, no more


def test_a_strict_replay_needs_no_key_and_sends_no_probe(
    fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    tape = tmp_path / "tape"
    fake_anthropic.script(*REPLIES)
    env = KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    assert run_live(tmp_path, facts_alone, "--out", str(tmp_path / "rec"), "--cassette", str(tape),
                    "--cassette-mode", "record", env=env).returncode == 0  # fmt: skip
    probes = len(fake_anthropic.probes)
    fake_anthropic.stop()
    offline = NO_KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    ran = run_live(tmp_path, facts_alone, "--out", str(tmp_path / "ci"), "--cassette", str(tape),
                   "--cassette-mode", "strict", env=offline)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert len(fake_anthropic.probes) == probes  # nothing was reached for


# -- the price table --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (None, "cannot read"),  # no such file
        ("models: [", "not valid YAML"),  # not YAML
        (PRICES.replace("USD", "EUR"), "currency"),  # a field the table does not allow
    ],
)
def test_a_bad_price_table_fails_before_any_paid_call(
    fake_anthropic: FakeAnthropicServer,
    tmp_path: Path,
    facts_alone: Stores,
    text: str | None,
    says: str,
) -> None:
    prices = tmp_path / "prices.yaml"
    if text is not None:
        prices.write_text(text, "utf-8")
    out = tmp_path / "run"
    env = KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    line = _one_error_line(
        run_live(tmp_path, facts_alone, "--out", str(out), "--prices", str(prices), env=env)
    )
    assert str(prices) in line and says in line
    assert fake_anthropic.requests == [] and not out.exists()


def test_a_budget_for_a_model_the_table_does_not_price_fails_before_the_folder_is_made(
    fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    out = tmp_path / "run"
    env = KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    ran = run_live(tmp_path, facts_alone, "--out", str(out), "--budget", "1", env=env)
    assert "no price for model 'claude-test'" in _one_error_line(ran)
    assert fake_anthropic.requests == [] and not out.exists()


# -- the endpoint -----------------------------------------------------------------------------


def test_an_endpoint_nobody_answers_at_stops_the_run_with_one_line_naming_it(
    tmp_path: Path, facts_alone: Stores, fake_anthropic: FakeAnthropicServer
) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    out = tmp_path / "run"
    ran = run_live(tmp_path, facts_alone, "--out", str(out), "--base-url", url, env=KEY)
    line = _one_error_line(ran)
    assert url in line and "cannot reach" in line
    assert not out.exists()


def test_one_probe_before_the_first_case_and_a_refused_key_stops_the_run(
    fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    env = KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    fake_anthropic.script(*REPLIES)
    ok = run_live(tmp_path, facts_alone, "--out", str(tmp_path / "ok"), env=env)
    assert ok.returncode == 0, ok.stderr
    (probe,) = fake_anthropic.probes
    assert probe.method == "GET" and KEY["ANTHROPIC_API_KEY"] in " ".join(probe.headers.values())
    assert probe.at < fake_anthropic.requests[0].at  # before the first case

    fake_anthropic.models_reply = Reply(401, error_body("authentication_error", "bad key"))
    out = tmp_path / "refused"
    line = _one_error_line(run_live(tmp_path, facts_alone, "--out", str(out), env=env))
    assert fake_anthropic.url in line and "401" in line and "ANTHROPIC_API_KEY" in line
    assert not out.exists() and len(fake_anthropic.requests) == 4


def test_an_endpoint_without_a_models_route_still_runs(
    fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    """A gateway that answers the probe with 404 is there: only a connection failure or a
    refused key says the run cannot work."""
    fake_anthropic.models_reply = Reply(404, error_body("not_found_error", "no such route"))
    fake_anthropic.script(*REPLIES)
    env = KEY | {"ANTHROPIC_BASE_URL": fake_anthropic.url}
    ran = run_live(tmp_path, facts_alone, "--out", str(tmp_path / "run"), env=env)
    assert ran.returncode == 0, ran.stderr
