"""Fixtures for the agent tests: a fake Anthropic Messages API on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.anthropic_server import FakeAnthropicServer, local_client_env


@pytest.fixture(scope="session")
def _empty_ca_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("no_ca")


@pytest.fixture
def fake_anthropic(
    monkeypatch: pytest.MonkeyPatch, _empty_ca_dir: Path
) -> Iterator[FakeAnthropicServer]:
    """A started server; fails the test if the SDK asked for more replies than were scripted.

    The check matters because the agent turns the "script ran out" 500 into an honest degrade,
    which could otherwise let a test pass for the wrong reason.
    """
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    for name, value in local_client_env(_empty_ca_dir).items():
        monkeypatch.setenv(name, value)
    with FakeAnthropicServer() as server:
        yield server
        assert server.exhausted == 0, f"{server.exhausted} request(s) found the script empty"
