"""Cassettes as a release manager's CI uses them: `ragspine eval run --cassette` against a model
behind a fake Messages API. A stale cassette (a recorded request edited, a golden question
changed) fails a strict replay whatever --max-error-rate says, naming the case and where the
request differs; a run over the whole suite leaves only the recordings it used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import Ran, invoke
from tests.fakes.anthropic_server import FakeAnthropicServer
from tests.fakes.corpora import Stores
from tests.fakes.two_models import reply

GOLDEN = """\
defaults: {reference_date: 2025-06-30}
cases:
  - id: tape-cn
    question: 中国内地FY2024的REVENUE是多少
    tags: [cn]
    expect: {route: structured, statuses: [found]}
  - id: tape-hk
    question: 香港FY2024的REVENUE是多少
    tags: [hk]
    expect: {route: structured, statuses: [found]}
"""


@pytest.fixture
def model(fake_anthropic: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The careful model of `make compare-demo`, answering whatever it is asked."""
    fake_anthropic.responder = reply
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-secret-key")
    return {"ANTHROPIC_BASE_URL": fake_anthropic.url}


def _run(
    tmp_path: Path, stores: Stores, out: str, *args: str, golden: str = GOLDEN, **env: str
) -> Ran:
    folder = tmp_path / "golden"
    folder.mkdir(exist_ok=True)
    (folder / "tape.yaml").write_text(golden, "utf-8")
    return invoke(
        "eval", "run", "--golden", str(folder), "--provider", "anthropic:careful-1",
        "--db", str(stores[0]), "--corpus", str(stores[1]),
        "--out", str(tmp_path / out),
        "--cassette", str(tmp_path / "tape"), "--max-retries", "0", *args, env=env,
    )  # fmt: skip


def _strict(tmp_path: Path, stores: Stores, out: str, golden: str = GOLDEN) -> Ran:
    """A CI replay: no key, and an error-rate limit that would let every error through."""
    return _run(
        tmp_path, stores, out, "--cassette-mode", "strict", "--max-error-rate", "1",
        golden=golden, ANTHROPIC_API_KEY="",
    )  # fmt: skip


def test_an_edited_recording_fails_strict_replay_naming_the_case_and_the_field(
    model: dict[str, str], fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    assert _run(tmp_path, facts_alone, "rec", **model).returncode == 0
    assert len(fake_anthropic.requests) == 4  # two turns a case
    turn = tmp_path / "tape" / "tape-hk.0" / "turn-1.json"
    recording = json.loads(turn.read_text("utf-8"))
    result = recording["request"]["messages"][2]["content"][0]
    assert '"value": 455.0' in result["content"]
    result["content"] = result["content"].replace('"value": 455.0', '"value": 545.0')
    turn.write_text(json.dumps(recording, ensure_ascii=False), "utf-8")

    out = _strict(tmp_path, facts_alone, "ci")
    assert out.returncode == 1
    assert "strict replay missed 1 of 2 cases, whatever --max-error-rate says" in out.stderr
    assert (
        "case tape-hk (repeat 0), turn 1: the request differs from the recording at "
        "messages[2].content[0].content: recorded " in out.stderr
    )
    assert "545.0" in out.stderr and "455.0" in out.stderr
    assert "record it again" in out.stderr and "--retry-errors" not in out.stderr
    assert len(fake_anthropic.requests) == 4  # strict called nothing


def test_a_changed_golden_question_fails_strict_replay_naming_the_case(
    model: dict[str, str], tmp_path: Path, facts_alone: Stores
) -> None:
    assert _run(tmp_path, facts_alone, "rec", **model).returncode == 0
    changed = GOLDEN.replace("中国内地FY2024的REVENUE", "中国内地FY2023的REVENUE")
    out = _strict(tmp_path, facts_alone, "ci", golden=changed)
    assert out.returncode == 1
    assert "case tape-cn (repeat 0), turn 0: the request differs from the recording at " in (
        out.stderr
    )
    assert "messages[0].content: recorded " in out.stderr and "tape-hk" not in out.stderr


def test_a_whole_suite_run_prunes_what_no_case_used_and_a_filtered_run_does_not(
    model: dict[str, str], fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    assert _run(tmp_path, facts_alone, "rec", **model).returncode == 0
    tape = tmp_path / "tape"
    assert sorted(p.name for p in tape.iterdir()) == ["tape-cn.0", "tape-hk.0"]
    only_cn = GOLDEN.split("  - id: tape-hk")[0]
    filtered = _run(tmp_path, facts_alone, "f", "--filter", "cn", **model)
    assert filtered.returncode == 0 and (tape / "tape-hk.0").is_dir()  # a subset prunes nothing
    whole = _run(tmp_path, facts_alone, "w", "--cassette-mode", "record", golden=only_cn, **model)
    assert whole.returncode == 0
    assert sorted(p.name for p in tape.iterdir()) == ["tape-cn.0"]  # the removed case is gone
    assert len(fake_anthropic.requests) == 6  # the filtered run replayed; record called again


def test_a_run_with_fewer_repeats_keeps_the_recordings_of_the_repeats_it_did_not_ask_for(
    model: dict[str, str], fake_anthropic: FakeAnthropicServer, tmp_path: Path, facts_alone: Stores
) -> None:
    """Recorded at --repeat 2 (paid for), replayed at --repeat 1 (replay is the default mode):
    repeat 1 was not asked for, which does not make it stale; a removed case's repeats are."""
    assert _run(tmp_path, facts_alone, "rec", "--repeat", "2", **model).returncode == 0
    tape = tmp_path / "tape"
    assert len(fake_anthropic.requests) == 8
    only_cn = GOLDEN.split("  - id: tape-hk")[0]
    once = _run(tmp_path, facts_alone, "once", golden=only_cn, **model)
    assert once.returncode == 0 and len(fake_anthropic.requests) == 8  # all replayed
    assert sorted(p.name for p in tape.iterdir()) == ["tape-cn.0", "tape-cn.1"]
    twice = _run(tmp_path, facts_alone, "twice", "--repeat", "2", "--cassette-mode", "strict",
                 golden=only_cn, ANTHROPIC_API_KEY="")  # fmt: skip
    assert twice.returncode == 0, twice.stderr  # both repeats still play
