"""A real headless Chromium for the HTML pages' tests (report.html, compare.html, index.html);
a machine without one skips them and says why (`make browser` installs it where it can)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    exe = exe or shutil.which("google-chrome")
    if exe is None:
        pytest.skip("no headless Chromium: apt-get install chromium")
    return exe


def browse(url: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Chromium, headless, on ``url``: the page's console messages come out on stderr."""
    command = [
        chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
        "--v=0", "--virtual-time-budget=3000", "--no-first-run", f"--user-data-dir={profile}",
        *args, url,
    ]  # fmt: skip
    ran = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr[-2000:]
    return ran


def console(stderr: str) -> list[str]:
    """The page's console lines: the report logs nothing, so any of them is a problem."""
    return [line for line in stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
