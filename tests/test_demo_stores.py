"""Demo data apart from the user's: every store a make target builds is under data/demo/ (each
folder laid out as a RAGSPINE_HOME), so `make fixtures` and the targets built on it never
rebuild data/fact_metric.db or data/chunks.db, the CLI's defaults, where a user's own documents
are; and `ragspine fixtures` run by hand puts the demo where the README says."""

from __future__ import annotations

import hashlib
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.small_company import ANSWER, QUESTION, company, run

ROOT = Path(__file__).parents[1]
BIN = Path(sys.executable).parent
# Every target that builds or reads a store, or writes a run.
TARGETS = (
    "fixtures", "fixtures-jinyu", "evals", "evals-meaning", "evals-meaning-fresh",
    "meaning-realworld", "drafted-realworld", "audit", "audit-fresh", "bless", "compare-demo",
    "serve", "demo", "clean",
)  # fmt: skip


def dry_run(*targets: str) -> list[list[str]]:
    """The commands `make -n` prints for the targets, each split as the shell splits it."""
    out = subprocess.run(
        ["make", "-s", "-n", "-C", str(ROOT), *targets],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    text = out.stdout.replace("\\\n", " ")  # a recipe line continued with a backslash
    return [shlex.split(line) for line in text.splitlines() if line.strip()]


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` and the sha256 of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_a_users_stores_at_the_default_paths_survive_make_fixtures(tmp_path: Path) -> None:
    profile = company(tmp_path)
    (tmp_path / "notes.md").write_text("# 示例科技\n\n示例科技的主营业务是工业软件。\n", "utf-8")
    assert run("facts", "load", "facts.csv", "--profile", profile, cwd=tmp_path).returncode == 0
    assert run("ingest", "notes.md", cwd=tmp_path).returncode == 0
    mine = fingerprint(tmp_path / "data")
    assert {"fact_metric.db", "chunks.db"} <= set(mine)  # the user's, at the CLI's defaults
    (tmp_path / "stamp").touch()
    made = subprocess.run(
        ["make", "-s", "-f", str(ROOT / "Makefile"), "-o", "stamp", "fixtures",
         f"BIN={BIN}", "STAMP=stamp"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    after = fingerprint(tmp_path / "data")
    assert {name: after.get(name) for name in mine} == mine  # not a byte changed
    assert {"demo/facts.db", "demo/chunks.db"} <= set(after)
    # The user's store still answers; the demo is one RAGSPINE_HOME away, as the README says.
    assert run("ask", QUESTION, cwd=tmp_path).stdout.startswith(ANSWER)
    demo = run(
        "ask", "中国内地FY2024的REVENUE是多少", cwd=tmp_path, env={"RAGSPINE_HOME": "data/demo"}
    )
    assert demo.stdout.startswith("中国内地 FY2024 收入:1,320 百万美元"), demo.stdout


def test_ragspine_fixtures_by_hand_writes_the_demo_home_not_the_defaults(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "fact_metric.db").write_bytes(b"the user's store")
    (tmp_path / "data" / "chunks.db").write_bytes(b"the user's documents")
    built = run("fixtures", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert "to data/demo/facts.db" in built.stdout and "to data/demo/chunks.db" in built.stdout
    assert (tmp_path / "data" / "fact_metric.db").read_bytes() == b"the user's store"
    assert (tmp_path / "data" / "chunks.db").read_bytes() == b"the user's documents"


def test_no_make_target_names_a_store_outside_data_demo() -> None:
    """Class rule: whatever a target builds, serves or evaluates lives under data/demo/."""
    named = {w for line in dry_run(*TARGETS) for w in line if re.match(r"(\./)?data\b", w)}
    assert named and all(w.startswith("data/demo") for w in named), sorted(named)
    # The FAQ cache and the keys `make serve` makes are the demo's too.
    serve = " ".join(" ".join(line) for line in dry_run("serve"))
    assert "--keys data/demo/keys.yaml" in serve and "--faq data/demo/faq.db" in serve


def test_every_eval_run_a_target_makes_is_kept_and_only_clean_removes_runs() -> None:
    lines = dry_run(*(t for t in TARGETS if t != "clean"))
    runs = [line for line in lines if line[1:3] == ["eval", "run"]]
    assert runs and all("--latest" in r and "--out" not in r for r in runs)
    links = {r[r.index("--latest") + 1] for r in runs}
    removed = {w for line in lines if line[:1] == ["rm"] for w in line[1:]}
    assert not removed & (links | {"reports/runs"})  # no run deleted, no link cut mid-run
    cleaned = {w for line in dry_run("clean") for w in line}
    assert links | {"reports/runs", "data/demo"} <= cleaned


def _stores_of(target: str) -> tuple[str, str]:
    """The --db and --corpus the target's commands write."""
    words = [w for line in dry_run(target) for w in line]
    return words[words.index("--db") + 1], words[words.index("--corpus") + 1]


@pytest.mark.parametrize(
    ("suite", "target", "baseline"),
    [
        ("acme", "fixtures", ROOT / "evals" / "baseline"),  # the demo
        ("jinyu", "fixtures-jinyu", ROOT / "examples" / "jinyu" / "baseline"),  # 金宇生物
    ],
)
def test_ci_and_the_baselines_name_the_stores_the_make_target_builds(
    suite: str, target: str, baseline: Path
) -> None:
    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "evals.yml").read_text("utf-8"))
    steps = [s for job in flow["jobs"].values() for s in job["steps"]]
    (given,) = [s["with"] for s in steps if s.get("with", {}).get("name") == suite]
    assert given["prepare"] == f"make {target}"
    db, corpus = _stores_of(target)
    assert (given["db"], given["corpus"]) == (db, corpus)
    options = yaml.safe_load((baseline / "run.json").read_text("utf-8"))["options"]
    assert (options["db"], options["corpus"]) == (db, corpus)


def test_a_missing_store_says_where_the_demo_is(tmp_path: Path) -> None:
    """The default store is the user's: a newcomer who built the demo is told how to reach it."""
    out = run("ask", "香港2023年的营收是多少?", cwd=tmp_path)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("error: fact database not found: data/fact_metric.db (")
    assert "ragspine fixtures" in out.stderr and "RAGSPINE_HOME=data/demo" in out.stderr
