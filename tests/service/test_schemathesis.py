"""Schemathesis against the live OpenAPI document of a real `ragspine serve`: every check
(server errors, status codes, content types, response schemas, invalid data refused, valid data
accepted, auth not ignored, unsupported methods), bounded in examples (about 20 s) and killed
past a minute. A failure prints Schemathesis's own report with a curl line to replay it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.service.conftest import Service

SCHEMATHESIS = str(Path(sys.executable).parent / "schemathesis")
CONFIG = Path(__file__).with_name("schemathesis.toml")
MAX_SECONDS = 60


@pytest.mark.slow
def test_the_live_openapi_document_holds_under_schemathesis(
    service: Service, tmp_path: Path
) -> None:
    run = subprocess.run(
        [SCHEMATHESIS, "--no-color", "--config-file", str(CONFIG), "run",
         f"{service.url}/openapi.json", "--checks", "all",
         "--header", f"Authorization: Bearer {service.keys['INTERNAL']}",
         "--max-examples", "150", "--workers", "2",
         "--request-timeout", "30", "--suppress-health-check", "all",
         "--seed", "22"],  # a fixed seed: a failure here is the same failure on every run
        capture_output=True, text=True, timeout=MAX_SECONDS,
        cwd=tmp_path,  # its cache of crashes goes there, not into the work tree
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "No issues found" in run.stdout, run.stdout[-3000:]
