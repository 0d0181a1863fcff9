"""The `ragspine ask --provider anthropic` command, run as a user runs it, against a fake API.

Both real runs start together from one module fixture: each process spends ~2 s importing the
SDK, and running them side by side keeps the file fast. The same two runs in-process (click's
CliRunner, the environment laid over for the run) let coverage see the CLI's Anthropic path.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli import invoke
from tests.fakes.anthropic_server import (
    FakeAnthropicServer,
    RecordedRequest,
    local_client_env,
    text_message,
    tool_use_message,
)

QUESTION = "中国内地FY2024的REVENUE是多少"
ARGS = {"metric": "REVENUE", "entity": "ACME_CN", "period": "FY2024"}


def _argv(db: Path | str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "ragspine.cli",
        "ask",
        "--provider",
        "anthropic",
        "--db",
        str(db),
        "--reference-date",
        "2025-06-30",
        QUESTION,
    ]


def _clean_env(tmp: Path) -> dict[str, str]:
    # No real key, profile or base URL from the developer's shell may leak into the run.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("ANTHROPIC_") and k != "SSL_CERT_FILE"
    }
    extra = {"PYTHONIOENCODING": "utf-8", "ANTHROPIC_CONFIG_DIR": str(tmp)}
    return env | local_client_env(tmp / "no_ca") | extra


@pytest.fixture(scope="module")
def runs(
    tmp_path_factory: pytest.TempPathFactory, demo_db: Path | str
) -> Iterator[tuple[dict[str, subprocess.CompletedProcess[str]], list[RecordedRequest]]]:
    tmp = tmp_path_factory.mktemp("cli_anthropic")
    (tmp / "no_ca").mkdir()
    with FakeAnthropicServer() as server:
        server.script(
            tool_use_message("query_metric", ARGS, tool_id="toolu_cli_1"),
            text_message("1320, and also 9999"),
        )
        base = _clean_env(tmp) | {"ANTHROPIC_BASE_URL": server.url}
        envs = {"ok": base | {"ANTHROPIC_API_KEY": "test-key"}, "no_key": base}
        procs = {
            name: subprocess.Popen(
                _argv(demo_db),  # the session's demo facts, read only
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                cwd=tmp,  # never the developer's ./data
            )
            for name, env in envs.items()
        }
        done = {}
        for name, proc in procs.items():
            out, err = proc.communicate(timeout=60)
            done[name] = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
        requests = server.requests
    yield done, requests


def test_ask_with_anthropic_provider(
    runs: tuple[dict[str, subprocess.CompletedProcess[str]], list[RecordedRequest]],
) -> None:
    done, requests = runs
    run = done["ok"]
    assert run.returncode == 0, run.stderr
    assert "1,320 百万美元" in run.stdout
    assert "ACME_FY2024_Review.pptx" in run.stdout
    assert "9999" not in run.stdout
    assert "Traceback" not in run.stderr
    # ANTHROPIC_BASE_URL was honoured (the CLI passes base_url=None): the fake got both turns.
    assert len(requests) == 2
    assert requests[0].headers.get("authorization") == "Bearer test-key"
    assert requests[1].body["messages"][-1]["content"][0]["tool_use_id"] == "toolu_cli_1"


def test_ask_without_api_key_is_one_line_error(
    runs: tuple[dict[str, subprocess.CompletedProcess[str]], list[RecordedRequest]],
) -> None:
    run = runs[0]["no_key"]
    assert run.returncode == 1
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("error:")
    assert "ANTHROPIC_API_KEY" in lines[0]
    assert "Traceback" not in run.stderr


# -- the same, in-process ---------------------------------------------------------------------


def _in_process_env(tmp: Path, **values: str) -> dict[str, str | None]:
    unset: dict[str, str | None] = {k: None for k in os.environ if k.startswith("ANTHROPIC_")}
    return unset | {"ANTHROPIC_CONFIG_DIR": str(tmp)} | values


def test_ask_with_anthropic_provider_in_process(
    fake_anthropic: FakeAnthropicServer, demo_db: Path, tmp_path: Path
) -> None:
    fake_anthropic.script(
        tool_use_message("query_metric", ARGS, tool_id="toolu_cli_1"),
        text_message("1320, and also 9999"),
    )
    env = _in_process_env(
        tmp_path, ANTHROPIC_API_KEY="test-key", ANTHROPIC_BASE_URL=fake_anthropic.url
    )
    out = invoke(*_argv(demo_db)[3:], env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("中国内地 FY2024 收入:1,320 百万美元(来源:ACME_FY2024_Review.pptx")
    assert "9999" not in out.stdout
    auth = [r.headers.get("authorization") for r in fake_anthropic.requests]
    assert auth == ["Bearer test-key"] * 2  # the key and ANTHROPIC_BASE_URL came from the env


def test_ask_without_api_key_in_process_is_one_line(demo_db: Path, tmp_path: Path) -> None:
    out = invoke(*_argv(demo_db)[3:], env=_in_process_env(tmp_path), cwd=tmp_path)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("error: no Anthropic API key: set ANTHROPIC_API_KEY")
    assert out.stderr.count("\n") == 1


def test_ask_records_to_a_cassette_and_replays_it_with_no_server_and_no_key(
    fake_anthropic: FakeAnthropicServer, demo_db: Path, tmp_path: Path
) -> None:
    tape = tmp_path / "tape"
    fake_anthropic.script(tool_use_message("query_metric", ARGS), text_message("见上。"))
    live = {"ANTHROPIC_API_KEY": "sk-test-key", "ANTHROPIC_BASE_URL": fake_anthropic.url}
    common = ["ask", QUESTION, "--provider", "anthropic:claude-test", "--db", str(demo_db)]
    first = invoke(*common, "--cassette", str(tape), "--max-retries", "0", env=live)
    assert first.returncode == 0, first.stderr
    assert len(list(tape.rglob("*.json"))) == 2  # the tool turn and the answer turn
    fake_anthropic.stop()
    replayed = invoke(
        *common, "--cassette", str(tape), "--cassette-mode", "strict",
        env={"ANTHROPIC_API_KEY": None, "ANTHROPIC_BASE_URL": fake_anthropic.url},
    )  # fmt: skip
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout == first.stdout and "1,320" in replayed.stdout
    assert len(fake_anthropic.requests) == 2
    other = invoke(
        "ask", "香港FY2024的REVENUE是多少", *common[2:], "--cassette", str(tape),
        "--cassette-mode", "strict", env={"ANTHROPIC_API_KEY": None},
    )  # fmt: skip
    assert other.returncode == 1
    assert other.stderr.startswith("error: strict replay missed this question: no recording")
    assert str(tape) in other.stderr


def test_ask_takes_the_base_url_and_timeout_on_the_command_line(
    fake_anthropic: FakeAnthropicServer, demo_db: Path
) -> None:
    fake_anthropic.push(200, text_message("1320"), delay=2.0)  # slower than the timeout
    out = invoke(
        "ask", QUESTION, "--provider", "anthropic:claude-test", "--db", str(demo_db),
        "--base-url", fake_anthropic.url, "--timeout", "0.3", "--max-retries", "0",
        env={"ANTHROPIC_API_KEY": "sk-test-key", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert len(fake_anthropic.requests) == 1  # --base-url, not the environment's
    assert not any(ch.isdigit() for ch in out.stdout.splitlines()[0])  # degraded, no number
