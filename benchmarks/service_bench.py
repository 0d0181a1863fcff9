"""The HTTP service under load, beside its ceiling: `ragspine serve` with 1 and N workers, on
SQLite and on PostgreSQL, and a bare FastAPI endpoint on the same uvicorn, machine and client
(``benchmarks.service_load``, in its own process: 8 kept-alive connections, closed loop).
Requests per second, p50 and p99 per route (FAQ hit, structured, narrative), the ratio to the
ceiling with as many workers, and the ratio of N workers to 1.

``python -m benchmarks --only service`` runs it on the demo's SQLite stores and, where the
PostgreSQL programs are installed, on a copy of them in a throwaway server (``service_pg``);
``python -m benchmarks.service_bench --db URL [--corpus URL]`` measures another store: the store
column says which backend answered.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import Row, info_row, service_wrk
from benchmarks.service_pg import demo_on_postgres, ragspine

ROOT = Path(__file__).parents[1]
BIN = Path(sys.executable).parent
CONNECTIONS = 8
WORKERS = (1, 2)
ROUTES = {
    "faq hit": "退货政策是什么?",
    "structured": "中国内地FY2024的REVENUE是多少",
    "narrative": "为什么中国内地营收下降?",
}
CEILING = "bare FastAPI"
PRIME = 1.0  # seconds of load thrown away before a target's first measure
ROUNDS = 3  # turns each target gets; its best is kept


@dataclass(frozen=True)
class Stores:
    """What one `ragspine serve` answers from: a fact store and a corpus (paths or URLs)."""

    db: str
    corpus: str


@dataclass(frozen=True)
class Measure:
    """One server, one route, one load run."""

    server: str  # "ragspine" or CEILING
    store: str  # the backend that answered: sqlite, postgresql, or "-" for the ceiling
    route: str
    workers: int
    rps: float
    p50: float
    p99: float
    errors: int
    generator: str = "python"  # the load generator that measured it: "wrk" or "python"


def generator(
    choice: str = "auto", installed: Callable[[], str | None] = service_wrk.wrk
) -> tuple[str, str]:
    """The load generator to use (``auto``: wrk where ``installed`` finds it) and one line
    saying why when it is the Python one: on two cores it takes a core the workers would have."""
    if choice == "python":
        return "python", ""
    if installed() is not None:
        return "wrk", ""
    if choice == "wrk":
        raise SystemExit("error: wrk is not installed (apt-get install wrk); or --generator python")
    return "python", "wrk not installed: the Python load generator, which takes a core itself"


def store_kind(db: str) -> str:
    """The backend a ``--db`` value selects: a URL's scheme, or SQLite for a path."""
    scheme = re.match(r"^([a-z][a-z0-9+.-]*)://", db)
    if scheme is None:
        return "sqlite"
    return "postgresql" if scheme[1] in ("postgres", "postgresql") else scheme[1]


def run(quick: bool) -> list[Row]:
    """The demo's stores on SQLite and, where PostgreSQL is installed, on PostgreSQL: both
    served at once and measured in turns beside one ceiling (one line says why PostgreSQL is
    missing when it is)."""
    demo = ROOT / "data" / "demo"
    db, corpus = demo / "facts.db", demo / "chunks.db"
    if not db.is_file():
        return [info_row("service", "skipped", f"no {db}: run `make fixtures` first")]
    seconds, rounds = (1.0, 1) if quick else (2.0, ROUNDS)
    gen, why = generator()
    notes: list[Row] = [info_row("service", "load generator", why)] if why else []
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        stores = [Stores(str(db), str(corpus))]
        try:
            url = stack.enter_context(demo_on_postgres(demo, Path(tmp)))
            stores.append(Stores(url, url))
        except FileNotFoundError as absent:
            notes.append(info_row("service", "postgresql rows skipped", str(absent)))
        measures = bench(stores, WORKERS, seconds, rounds, gen)
    return rows(measures) + notes


def bench(
    stores: Sequence[Stores],
    workers: Sequence[int],
    seconds: float,
    rounds: int = ROUNDS,
    gen: str = "python",
) -> list[Measure]:
    """Every worker count's ceiling and `ragspine serve` per store up at once; each target (the
    ceiling, every route on every store) loaded in turn, its worker counts back to back,
    ``rounds`` times; each keeps its best window. On a shared machine the load of others comes
    and goes: taking turns gives every target, and both sides of an N-over-1 ratio, the same
    weather, and the best window is the one least disturbed."""
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as up:
        # a PostgreSQL corpus's search index: a folder of the bench's, never the user's cache
        env = {"RAGSPINE_INDEX_DIR": str(Path(tmp) / "pg.index")}
        served = [_keys_and_faq(Path(tmp) / str(i), s, env) for i, s in enumerate(stores)]
        targets: list[tuple[str, str, str, dict[int, str], str, str]] = []
        ceilings = {
            n: up.enter_context(_server(_ceiling_command(n), n, Path(tmp) / f"c-{n}.log", env))
            for n in workers
        }
        # the ceiling gets the FAQ hit's body: it reads it and answers
        targets.append((CEILING, "-", "ceiling", ceilings, ROUTES["faq hit"], ""))
        for i, (s, (key, command)) in enumerate(zip(stores, served, strict=True)):
            urls = {
                n: up.enter_context(
                    _server([*command, "--workers", str(n)], n, Path(tmp) / f"s-{i}-{n}.log", env)
                )
                for n in workers
            }
            targets += [
                ("ragspine", store_kind(s.db), route, urls, question, key)
                for route, question in ROUTES.items()
            ]
        best: dict[tuple[int, str, str], Measure] = {}
        for r in range(rounds):
            for server, store, route, urls, question, k in targets:
                for n, at in urls.items():
                    m = _measure(server, store, route, n, at, question, k, seconds, r == 0, gen)
                    if (n, store, route) not in best or m.rps > best[(n, store, route)].rps:
                        best[(n, store, route)] = m
    return [best[key] for key in sorted(best, key=lambda key: key[0])]


def rows(measures: Sequence[Measure]) -> list[Row]:
    """One line per measure (its ratio to the ceiling with as many workers), then N over 1."""
    ceiling = {m.workers: m.rps for m in measures if m.server == CEILING}
    out: list[Row] = []
    for m in measures:
        ratio = f"; {m.rps / ceiling[m.workers]:.2f} of the ceiling" if m.server != CEILING else ""
        out.append(
            info_row(
                "service",
                f"{m.server} [{m.store}] {m.route}, {m.workers} worker(s), {CONNECTIONS} conns",
                f"{m.rps:.0f} req/s; p50 {m.p50:.1f} ms, p99 {m.p99:.1f} ms; "
                f"{m.errors} errors (load: {m.generator}){ratio}",
            )
        )
    by = {(m.server, m.store, m.route, m.workers): m.rps for m in measures}
    low, high = min(m.workers for m in measures), max(m.workers for m in measures)
    if high > low:
        for server, store, route in sorted({(m.server, m.store, m.route) for m in measures}):
            if (server, store, route, low) in by and (server, store, route, high) in by:
                gain = by[(server, store, route, high)] / by[(server, store, route, low)]
                label = f"{server} [{store}] {route}: {high} workers / {low}"
                out.append(info_row("service", label, f"{gain:.2f}x"))
    return out


def markdown(measures: Sequence[Measure]) -> str:
    """The README's table."""
    ceiling = {m.workers: m.rps for m in measures if m.server == CEILING}
    lines = [
        "| server | store | route | workers | req/s | p50 ms | p99 ms | of the ceiling |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for m in measures:
        share = f"{m.rps / ceiling[m.workers]:.2f}" if m.server != CEILING else "1"
        lines.append(
            f"| {m.server} | {m.store} | {m.route} | {m.workers} | {m.rps:.0f} | {m.p50:.1f} "
            f"| {m.p99:.1f} | {share} |"
        )
    return "\n".join(lines)


def _keys_and_faq(tmp: Path, stores: Stores, env: dict[str, str]) -> tuple[str, list[str]]:
    """A key (INTERNAL) and the demo's FAQ beside ``stores``: in files under ``tmp`` for a
    SQLite store, in its database for a PostgreSQL one (as a replica reads them); the key and
    the `ragspine serve` command (without its workers) that answers from them."""
    tmp.mkdir(parents=True)
    keys = tmp / "keys.yaml"
    faq = stores.db if store_kind(stores.db) == "postgresql" else str(tmp / "faq.db")
    where = ["--db", stores.db, "--corpus", stores.corpus]
    key = ragspine(
        ["keys", "new", "bench", "--clearance", "INTERNAL", "--file", str(keys), "--db", stores.db],
        env,
    ).strip()
    faq_file = str(ROOT / "ragspine" / "demo" / "faq.yaml")
    ragspine(["faq", "import", faq_file, "--faq", faq, *where], env)
    command = [str(BIN / "ragspine"), "serve", *where, "--keys", str(keys), "--faq", faq]
    return key, command


def _ceiling_command(workers: int) -> list[str]:
    return [sys.executable, "-m", "benchmarks.service_ceiling", "--workers", str(workers)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _server(command: list[str], workers: int, log: Path, env: dict[str, str]) -> Iterator[str]:
    """The server on a free port until the block ends; ready once every worker says so."""
    port = _free_port()
    with log.open("w") as out:
        proc = subprocess.Popen(
            [*command, "--port", str(port)], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
            env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while log.read_text().count("Application startup complete") < workers:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{command[0]} did not start: {log.read_text()[-2000:]}")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _measure(
    server: str, store: str, route: str, workers: int, url: str, question: str, key: str,
    seconds: float, prime: bool, gen: str = "python",
) -> Measure:  # fmt: skip
    """Load on one route; the first time, after a pass that is thrown away: each worker's first
    answers load what it reads lazily (the tokenizer's dictionary, the index)."""
    if gen == "wrk":
        body = json.dumps({"question": question}, ensure_ascii=False).encode()
        headers = [f"X-API-Key: {key}"] if key else []
        if prime:
            service_wrk.load(url + "/v1/ask", body, headers, CONNECTIONS, PRIME)
        result = service_wrk.load(url + "/v1/ask", body, headers, CONNECTIONS, seconds)
        p50, p99 = float(result["p50"]), float(result["p99"])
    else:
        if prime:
            _load(url, question, key, warmup=0.0, seconds=PRIME)
        result = _load(url, question, key, warmup=0.5, seconds=seconds)
        ms = np.array(result["ms"] or [float("nan")])
        p50, p99 = float(np.percentile(ms, 50)), float(np.percentile(ms, 99))
    return Measure(
        server, store, route, workers,
        rps=result["requests"] / result["seconds"], p50=p50, p99=p99,
        errors=result["errors"], generator=gen,
    )  # fmt: skip


def _load(url: str, question: str, key: str, warmup: float, seconds: float) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.service_load", f"{url}/v1/ask",
               "--body", json.dumps({"question": question}, ensure_ascii=False),
               "--connections", str(CONNECTIONS), "--warmup", str(warmup),
               "--seconds", str(seconds)]  # fmt: skip
    if key:
        command += ["--header", f"X-API-Key: {key}"]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.service_bench", description=__doc__)
    parser.add_argument(
        "--db", default=str(ROOT / "data" / "demo" / "facts.db"), help="a SQLite path or a URL"
    )
    parser.add_argument("--corpus", help="the chunk store [default: the demo's; --db if a URL]")
    parser.add_argument("--workers", type=int, nargs="+", default=list(WORKERS))
    parser.add_argument("--seconds", type=float, default=2.0, help="measured per turn")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="turns per target")
    parser.add_argument(
        "--generator", choices=("auto", "wrk", "python"), default="auto",
        help="the load generator [auto: wrk where installed]",
    )  # fmt: skip
    args = parser.parse_args(argv)
    gen, why = generator(args.generator)
    if why:
        print(why)
    default_corpus = str(ROOT / "data" / "demo" / "chunks.db")
    corpus = args.corpus or (args.db if store_kind(args.db) != "sqlite" else default_corpus)
    measures = bench([Stores(args.db, corpus)], args.workers, args.seconds, args.rounds, gen)
    for row in rows(measures):
        print(f"{row['label']}: {row['value']}")
    print()
    print(markdown(measures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
