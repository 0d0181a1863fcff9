"""How soon a replica finds a passage another process ingested into the shared PostgreSQL store.

    python -m benchmarks.replica_freshness --db postgresql://… --replica http://host:port \\
        --key rsk_… [--runs 10]

Each run writes a note naming a word no document holds, and ingests it with `ragspine ingest`
in a process of its own (neither the replica nor this one). One thread reads the corpus's
generation every 2 ms to time the commit; the main thread asks the replica about the word every
10 ms until the note is among the answer's sources. The lag is from the commit to that answer:
it holds the replica's one generation read, its index rebuild from the store (the corpus's size
decides it) and the question itself. Reported: each run's lag, then min, median and max.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import httpx
import psycopg

POLL_STORE = 0.002  # seconds between two reads of the generation
POLL_REPLICA = 0.01  # seconds between two questions


def _generation(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT generation FROM ragspine_chunks.corpus_state").fetchone()
    return int(row[0]) if row else 0


def _watch(url: str, before: int, seen: dict[str, float], stop: threading.Event) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        while not stop.is_set():
            row = conn.execute("SELECT generation FROM ragspine_chunks.corpus_state").fetchone()
            if row and int(row[0]) != before:
                seen["commit"] = time.monotonic()
                return
            time.sleep(POLL_STORE)


def _cited(replica: str, key: str, question: str, doc: str) -> bool:
    got = httpx.post(
        f"{replica}/v1/ask", json={"question": question}, headers={"X-API-Key": key}, timeout=60
    )
    got.raise_for_status()
    return any(s["doc"] == doc for s in got.json()["sources"])


def one_run(db: str, replica: str, key: str, folder: Path) -> float:
    """Seconds from the note's commit to the replica's first answer citing it."""
    word = "Zq" + uuid.uuid4().hex[:10]
    doc = f"note_{word}.md"
    (folder / doc).write_text(f"# {word} programme\n\nThe {word} programme trains staff.\n")
    seen: dict[str, float] = {}
    stop = threading.Event()
    watcher = threading.Thread(target=_watch, args=(db, _generation(db), seen, stop))
    watcher.start()
    env = {**os.environ, "RAGSPINE_INDEX_DIR": str(folder / "ingest-index")}
    ingest = subprocess.Popen(
        [sys.executable, "-m", "ragspine.cli", "ingest", str(folder / doc), "--db", db],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        while "commit" not in seen:
            if ingest.poll() not in (None, 0):
                raise SystemExit(f"ingest failed: {ingest.stderr.read() if ingest.stderr else ''}")
            time.sleep(POLL_STORE)
        question = f"What is the {word} programme?"
        while not _cited(replica, key, question, doc):
            time.sleep(POLL_REPLICA)
        return time.monotonic() - seen["commit"]
    finally:
        stop.set()
        watcher.join()
        ingest.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--replica", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    lags = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            lag = one_run(args.db, args.replica, args.key, Path(tmp))
            lags.append(lag)
            print(f"run {i + 1}: {lag * 1000:.0f} ms", flush=True)
    print(
        f"commit to found, {len(lags)} runs: min {min(lags) * 1000:.0f} ms, median "
        f"{statistics.median(lags) * 1000:.0f} ms, max {max(lags) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
