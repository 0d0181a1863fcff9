"""The service bench's load through wrk, where it is installed: one thread, kept-alive
connections, closed loop, the same POST as ``benchmarks.service_load``.

Why: on two cores the Python generator (an asyncio loop) takes most of one core itself, so two
workers share the other and even a bare endpoint cannot scale; wrk (C, one thread) costs a
fraction of that. The result has the Python generator's keys (requests, seconds, errors) and its
percentiles (p50, p99, in ms) from wrk's own histogram, printed by the script's ``done``.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

DONE = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\n{"requests": %d, "seconds": %.6f, "errors": %d, "p50": %.3f, "p99": %.3f}\\n',
    summary.requests, summary.duration / 1e6,
    e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
"""


def wrk() -> str | None:
    """wrk's path, or None where it is not installed."""
    return shutil.which("wrk")


def lua_string(text: str) -> str:
    """``text`` as a Lua string literal: every byte outside printable ASCII (and the quote and
    the backslash) as a decimal escape, which every Lua reads the same way."""
    out = []
    for byte in text.encode():
        char = chr(byte)
        out.append(char if 32 <= byte < 127 and char not in '"\\' else f"\\{byte:03d}")
    return '"' + "".join(out) + '"'


def script(body: bytes, headers: Sequence[str]) -> str:
    """The Lua that makes every request a POST of ``body`` with ``headers`` (``NAME: VALUE``)."""
    lines = [
        'wrk.method = "POST"',
        f"wrk.body = {lua_string(body.decode())}",
        'wrk.headers["Content-Type"] = "application/json"',
    ]
    for header in headers:
        name, _, value = header.partition(":")
        lines.append(f"wrk.headers[{lua_string(name.strip())}] = {lua_string(value.strip())}")
    return "\n".join(lines) + "\n" + DONE


def parse(stdout: str) -> dict[str, Any]:
    """The ``done`` line of wrk's output (its last line that is a JSON object)."""
    for line in reversed(stdout.splitlines()):
        if line.startswith("{"):
            result: dict[str, Any] = json.loads(line)
            return result
    raise RuntimeError(f"wrk printed no result: {stdout[-500:]}")


def load(
    url: str, body: bytes, headers: Sequence[str], connections: int, seconds: float,
    program: str = "wrk",
) -> dict[str, Any]:  # fmt: skip
    """wrk on ``url`` for ``seconds`` (whole seconds: wrk's unit), ``connections`` kept
    alive by one thread."""
    with tempfile.TemporaryDirectory() as tmp:
        lua = Path(tmp) / "post.lua"
        lua.write_text(script(body, headers))
        command = [program, "-t1", f"-c{connections}", f"-d{max(1, math.ceil(seconds))}s",
                   "--timeout", "10s", "-s", str(lua), url]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, check=True)
    return parse(done.stdout)
