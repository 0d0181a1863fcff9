"""Runs kept, the latest a link: `eval run --name NAME --latest LINK` writes each run to a folder
of its own under reports/runs/ and moves LINK to it, so the run before stays for a before/after
comparison with no copy, and diff, gate and bless read the newest run through the link."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.cli import invoke

ROOT = Path(__file__).parents[3]
ONE_CASE = ["--golden", str(ROOT / "golden"), "--filter", "id:st-cn-revenue-fy2024"]


def folder_of(name: str) -> str:
    """A kept run's folder: reports/runs/<UTC time>-NAME, -2… when one started that second."""
    return rf"reports/runs/\d{{8}}T\d{{6}}Z-{name}(-\d+)?"


@pytest.fixture
def stores(demo_db: Path, demo_corpus: Path) -> list[str]:
    return ["--db", str(demo_db), "--corpus", str(demo_corpus)]


def run_kept(tmp_path: Path, stores: list[str], *flags: str) -> str:
    """One run in tmp_path (as a user's current folder); its folder, from what it printed."""
    out = invoke("eval", "run", *ONE_CASE, *stores, *flags, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    (folder,) = re.findall(r"^run: (\S+) ", out.stdout, re.M)
    return folder


def test_each_run_is_kept_and_the_link_moves_to_the_newest(
    tmp_path: Path, stores: list[str]
) -> None:
    first = run_kept(tmp_path, stores, "--name", "acme", "--latest", "reports/latest")
    second = run_kept(tmp_path, stores, "--name", "acme", "--latest", "reports/latest")
    assert first != second  # the same second: -2, never the first run's folder
    for folder in (first, second):
        assert re.fullmatch(folder_of("acme"), folder), folder
        assert (tmp_path / folder / "results.jsonl").is_file()
    link = tmp_path / "reports" / "latest"
    assert link.is_symlink() and os.readlink(link) == second.removeprefix("reports/")
    assert not [p for p in (tmp_path / "reports").iterdir() if p.name.endswith(".tmp")]
    # diff, gate and bless follow the link; diff.md lands in the newest run's own folder.
    diff = invoke("eval", "diff", first, "reports/latest", cwd=tmp_path)
    assert diff.returncode == 0 and (tmp_path / second / "diff.md").is_file(), diff.stderr
    gate = invoke("eval", "gate", "--baseline", first, "--current", "reports/latest", cwd=tmp_path)
    assert gate.returncode == 0 and gate.stdout == "gate: passed\n", gate.stderr
    # --force: a one-case subset would drop the other cases from a baseline
    bless = invoke("eval", "bless", "reports/latest", "--baseline", "bl", "--force", cwd=tmp_path)
    assert bless.returncode == 0 and (tmp_path / "bl" / "results.jsonl").is_file()
    # The link is not another run: the index lists the two runs once each.
    view = invoke("eval", "view", "reports", cwd=tmp_path)
    assert "(2 run(s)" in view.stdout, view.stdout


def test_a_folder_where_the_link_goes_is_moved_aside_never_deleted(
    tmp_path: Path, stores: list[str]
) -> None:
    old = tmp_path / "reports" / "mine"
    old.mkdir(parents=True)
    (old / "report.md").write_text("the run before runs were kept\n", "utf-8")
    out = invoke("eval", "run", *ONE_CASE, *stores, "--latest", "reports/mine", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    moved = re.search(
        r"^warning: reports/mine was a folder, not a link: moved to (\S+) \(kept, not deleted\)$",
        out.stderr,
        re.M,
    )
    assert moved, out.stderr
    kept = tmp_path / moved[1]
    assert (kept / "report.md").read_text("utf-8") == "the run before runs were kept\n"
    # Without --name, the run is named for its link.
    (new,) = re.findall(r"^latest: reports/mine -> (\S+)$", out.stdout, re.M)
    assert re.fullmatch(folder_of("mine"), new), new
    assert (tmp_path / "reports" / "mine").resolve() == (tmp_path / new).resolve() != kept


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        # a file where the link goes: moving the link would destroy it
        (["--latest", "notes.txt"], "--latest notes.txt: a file is there, not a link"),
        # a name is a folder name
        (["--name", "a/b"], "--name 'a/b': use letters, digits, . _ -"),
        # --out already names the folder
        (["--name", "x", "--out", "y"], "--out and --name: give one"),
        # a resumed run keeps its folder
        (["--name", "x", "--resume", "y"], "--name names a new run's folder"),
    ],
)
def test_a_bad_name_or_link_is_one_error_line_and_runs_nothing(
    tmp_path: Path, stores: list[str], flags: list[str], says: str
) -> None:
    (tmp_path / "notes.txt").write_text("mine\n", "utf-8")
    out = invoke("eval", "run", *ONE_CASE, *stores, *flags, cwd=tmp_path)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith(f"error: {says}") and len(out.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    assert (tmp_path / "notes.txt").read_text("utf-8") == "mine\n"
