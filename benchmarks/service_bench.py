"""The HTTP service under load: N concurrent clients on loopback against `ragspine serve`, in
its own process as in production, on the demo data with the mock provider. Requests per second,
p50 and p99, errors, and the FAQ hit's latency beside the full path's (a ratio measured in the
same run)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import numpy as np

from benchmarks import Row, info_row

ROOT = Path(__file__).parents[1]
CLIENTS = 8
QUESTIONS = {
    "faq hit": "退货政策是什么?",
    "structured": "中国内地FY2024的REVENUE是多少",
    "narrative": "为什么中国内地营收下降?",
}


def run(quick: bool) -> list[Row]:
    db, corpus = ROOT / "data" / "demo" / "facts.db", ROOT / "data" / "demo" / "chunks.db"
    if not db.is_file():
        return [info_row("service", "skipped", f"no {db}: run `make fixtures` first")]
    with tempfile.TemporaryDirectory() as tmp:
        keys, faq = Path(tmp) / "keys.yaml", Path(tmp) / "faq.db"
        exe = str(Path(sys.executable).parent / "ragspine")
        key = subprocess.run(
            [exe, "keys", "new", "bench", "--clearance", "INTERNAL", "--file", str(keys)],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        subprocess.run(
            [exe, "faq", "import", str(ROOT / "ragspine" / "demo" / "faq.yaml"), "--faq", str(faq)],
            capture_output=True, check=True,
        )  # fmt: skip
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen(
            [exe, "serve", "--port", str(port), "--db", str(db), "--corpus", str(corpus),
             "--keys", str(keys), "--faq", str(faq)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ),
        )  # fmt: skip
        try:
            url = f"http://127.0.0.1:{port}"
            _wait(url)
            n = 200 if quick else 1000
            return _load(url, key, n)
        finally:
            server.terminate()
            server.wait(timeout=30)


def _wait(url: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("ragspine serve did not become ready")


def _load(url: str, key: str, n: int) -> list[Row]:
    rows: list[Row] = []
    p50s: dict[str, float] = {}
    for name, question in QUESTIONS.items():
        with httpx.Client(headers={"X-API-Key": key}, timeout=30) as client:

            def one(
                _: int, question: str = question, client: httpx.Client = client
            ) -> tuple[float, int]:
                started = time.perf_counter()
                r = client.post(f"{url}/v1/ask", json={"question": question})
                return (time.perf_counter() - started) * 1000, r.status_code

            with ThreadPoolExecutor(CLIENTS) as pool:
                list(pool.map(one, range(CLIENTS * 2)))  # warm: connections and caches
                started = time.perf_counter()
                done = list(pool.map(one, range(n)))
                wall = time.perf_counter() - started
        ms = np.array([d[0] for d in done])
        errors = sum(1 for _, status in done if status != 200)
        p50s[name] = float(np.percentile(ms, 50))
        rows.append(
            info_row(
                "service",
                f"{name}, {CLIENTS} clients",
                f"{n / wall:.0f} req/s; p50 {p50s[name]:.1f} ms, p99 "
                f"{float(np.percentile(ms, 99)):.1f} ms; {errors} errors",
            )
        )
    ratio = p50s["faq hit"] / p50s["structured"]
    rows.append(
        info_row("service", "faq hit / full path", f"p50 ratio {ratio:.2f} (structured question)")
    )
    return rows
