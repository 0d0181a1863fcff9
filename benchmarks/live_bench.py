"""Concurrency against a live-like API: how close `ragspine eval run --concurrency W` comes to
W requests always in flight, beside the bare SDK doing nothing else, measured side by side.

The fake Messages API runs in its own process (a real server is elsewhere too) and answers every
request after 200 ms. Efficiency is the ideal time (requests / W × 200 ms) over the measured time
from the first request to the last reply; the CLI's start-up (process start to its first request:
imports, the SDK, the stores) is its own figure. Target (issue 11): at least 0.95 at W = 16.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks import Row, info_row

ROOT = Path(__file__).parents[1]
LATENCY = 0.2
TARGET = 0.95
_SERVER = """
import sys, time
sys.path.insert(0, {root!r})
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply, text_message
reply = Reply(200, text_message("ok"), delay={latency})
fake = FakeAnthropicServer(responder=lambda req: reply).start()
print(fake.url, flush=True)
sys.stdin.read()
"""


def run(quick: bool) -> list[Row]:
    db = ROOT / "data" / "demo" / "facts.db"
    if not db.is_file():
        return [info_row("live", "skipped", f"no {db}: run `make fixtures` first")]
    server = subprocess.Popen(
        [sys.executable, "-c", _SERVER.format(root=str(ROOT), latency=LATENCY)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = (server.stdout.readline() if server.stdout else "").strip()
        rows: list[Row] = []
        for workers in (16,) if quick else (16, 32):
            n = workers * (8 if quick else 32)  # 32 rounds: start-up effects amortised
            rows.append(_bare(url, n, workers))
            rows.extend(_cli(url, n, workers, db, judged=workers == 16 and not quick))
        return rows
    finally:
        if server.stdin:
            server.stdin.close()
        server.wait(timeout=10)


def _env(certs: str, url: str) -> dict[str, str]:
    env = {**os.environ, "NO_PROXY": "127.0.0.1,localhost", "SSL_CERT_DIR": certs}
    env.pop("SSL_CERT_FILE", None)
    return env | {"ANTHROPIC_API_KEY": "bench-key", "ANTHROPIC_BASE_URL": url}


def _arrivals(url: str) -> list[float]:
    with urllib.request.urlopen(f"{url}/_log", timeout=10) as reply:
        return sorted(json.loads(reply.read())["at"])


def _bare(url: str, n: int, workers: int) -> Row:
    """The SDK alone: ``workers`` threads sending ``n`` requests through one client."""
    import anthropic

    with tempfile.TemporaryDirectory() as certs:
        os.environ.update({k: v for k, v in _env(certs, url).items() if k != "ANTHROPIC_API_KEY"})
        client = anthropic.Anthropic(api_key="bench-key", base_url=url, max_retries=0)

        def one(_: int) -> None:
            client.messages.create(
                model="m", max_tokens=8, messages=[{"role": "user", "content": "hi"}]
            )

        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(one, range(workers)))  # connections opened before the clock starts
            start = time.perf_counter()
            list(pool.map(one, range(n)))
            span = time.perf_counter() - start
    eff = n / workers * LATENCY / span
    return info_row("live", f"bare SDK, {workers} threads", f"{n} requests: efficiency {eff:.3f}")


def _no_documents(path: Path) -> Path:
    """A corpus holding nothing: the run is on facts alone (a corpus it is given must exist)."""
    from ragspine.retrieval.chunking.chunk_store import ChunkStore

    with ChunkStore(path) as store:
        store.init_schema()
    return path


def _cli(url: str, n: int, workers: int, db: Path, *, judged: bool) -> list[Row]:
    """`ragspine eval run --concurrency W` as a user runs it, in its own process."""
    cases = "\n".join(
        f"  - id: c{i:04d}\n    question: 中国内地FY2024的REVENUE是多少\n"
        "    expect: {statuses: [found]}"
        for i in range(n)
    )
    with tempfile.TemporaryDirectory() as tmp:
        golden = Path(tmp) / "golden"
        golden.mkdir()
        (golden / "live.yaml").write_text(
            "defaults: {reference_date: 2025-06-30}\ncases:\n" + cases + "\n", "utf-8"
        )
        before = len(_arrivals(url))
        exe = Path(sys.executable).parent / "ragspine"
        started = time.monotonic()
        done = subprocess.run(
            [
                str(exe),
                "eval",
                "run",
                "--golden",
                str(golden),
                "--provider",
                "anthropic:claude-bench",
                "--db",
                str(db),
                "--corpus",
                str(_no_documents(Path(tmp) / "none.db")),
                "--out",
                str(Path(tmp) / "run"),
                "--concurrency",
                str(workers),
                "--max-retries",
                "0",
            ],
            env=_env(tmp, url),
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.monotonic() - started
        at = _arrivals(url)[before:]
    if done.returncode != 0 or len(at) != n:
        why = done.stderr.strip().splitlines()[-1:] or [f"{len(at)} of {n} requests"]
        return [info_row("live", f"CLI, {workers} workers", f"failed: {why[0]}")]
    span = at[-1] + LATENCY - at[0]
    eff = n / workers * LATENCY / span
    verdict = ("PASS" if eff >= TARGET else "FAIL") if judged else "not judged here"
    return [
        info_row(
            "live",
            f"CLI, {workers} workers",
            f"{n} cases: efficiency {eff:.3f} from first request to last reply "
            f"(target ≥ {TARGET} at 16: {verdict})",
        ),
        info_row(
            "live",
            "  start-up, finish",
            f"start-up {at[0] - started:.2f} s to the first request; summary and report "
            f"{max(0.0, wall - (at[-1] + LATENCY - started)):.2f} s; wall {wall:.2f} s",
        ),
    ]
