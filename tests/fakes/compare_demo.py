"""`make compare-demo`: the upgrade decision, offline, through the real SDK.

A fake Messages API on 127.0.0.1 plays a careful model and a sloppy one (``two_models``). Each
runs the golden set with ``ragspine eval run --provider anthropic:MODEL --cassette …``, exactly as
a live model would be run (the first time records, later times replay: no call is made), then
``ragspine eval compare`` pairs the runs and gates. The sloppy model must come out worse with
confidence, and its fabrications must show up where the guard and the audit caught them.

    python -m tests.fakes.compare_demo [--out reports/compare-demo] [--filter EXPR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.fakes.anthropic_server import FakeAnthropicServer, local_client_env
from tests.fakes.two_models import reply

ROOT = Path(__file__).parents[2]
MODELS = ("careful-1", "sloppy-1")


def ragspine(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "ragspine"
    return subprocess.run(
        [str(exe), *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("reports/compare-demo"))
    parser.add_argument("--golden", type=Path, default=Path("golden"))
    parser.add_argument("--db", default="data/demo/facts.db")
    parser.add_argument("--corpus", default="data/demo/chunks.db")
    parser.add_argument("--filter", default=None, help="a tag expression, to run a subset")
    parser.add_argument("--concurrency", default="8")
    args = parser.parse_args(argv)
    out: Path = args.out
    with tempfile.TemporaryDirectory() as certs, FakeAnthropicServer(responder=reply) as fake:
        env = {**os.environ, **local_client_env(certs)}
        env.pop("SSL_CERT_FILE", None)
        env |= {"ANTHROPIC_API_KEY": "offline-demo-key", "ANTHROPIC_BASE_URL": fake.url}
        for model in MODELS:
            shutil.rmtree(out / model, ignore_errors=True)
            ran = ragspine(
                "eval", "run", "--golden", str(args.golden), "--provider", f"anthropic:{model}",
                "--db", args.db, "--corpus", args.corpus, "--out", str(out / model),
                "--cassette", str(out / "cassettes" / model), "--concurrency", args.concurrency,
                *(["--filter", args.filter] if args.filter else []),
                env=env,
            )  # fmt: skip
            print(f"== {model}: {len(fake.requests)} API calls so far (0 when replayed)")
            print(ran.stdout.strip())
            if ran.returncode != 0:
                print(ran.stderr.strip(), file=sys.stderr)
                return 1
        compared = ragspine(
            "eval", "compare", str(out / MODELS[0]), str(out / MODELS[1]), "--out", str(out),
            "--gate", env=env,
        )  # fmt: skip
    print(f"== {MODELS[0]} → {MODELS[1]}")
    print(compared.stdout.strip())
    print(compared.stderr.strip())
    sloppy = json.loads((out / MODELS[1] / "summary.json").read_text("utf-8"))["metrics"]
    removed, raw = sloppy["narrative_removed"], sloppy["raw_unsupported"]
    print(
        f"== caught: the audit found {raw['numbers']} unsupported number(s) in {raw['cases']} "
        f"of the sloppy model's raw answers; the guard removed {removed['numbers']} in "
        f"{removed['cases']}; {sloppy['unsupported_numbers']['numbers']} reached an answer"
    )
    # The demonstration holds when the gate refuses the sloppy model.
    return 0 if compared.returncode == 1 and "gate: FAILED" in compared.stderr else 1


if __name__ == "__main__":
    raise SystemExit(main())
