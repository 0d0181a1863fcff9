"""`ragspine fixtures` writes the demo decks and workbook byte for byte the same on every build,
so a source file's hash (in every fact's lineage, and so in what the model is shown) does not
change when nothing in the demo did."""

from __future__ import annotations

import zipfile
from pathlib import Path

from tests.cli import invoke


def _build(folder: Path) -> dict[str, bytes]:
    data = folder / "data"
    ran = invoke("fixtures", "--db", str(data / "fact_metric.db"), "--corpus", str(data / "c.db"))
    assert ran.returncode == 0, ran.stderr
    return {p.name: p.read_bytes() for p in sorted((data / "demo_files").iterdir())}


def test_two_builds_write_the_same_bytes_with_a_fixed_date(tmp_path: Path) -> None:
    first, second = _build(tmp_path / "a"), _build(tmp_path / "b")
    assert sorted(first) == sorted(second)
    assert {name.rsplit(".", 1)[1] for name in first} == {"pptx", "xlsx"}
    for name, data in first.items():
        assert data == second[name], f"{name} differs between two builds"
    # The clock is the one input two builds never share: the zip entries' times and the core
    # properties' created/modified dates are fixed, not the build's.
    for name in first:
        with zipfile.ZipFile(tmp_path / "a" / "data" / "demo_files" / name) as z:
            assert {i.date_time for i in z.infolist()} == {(2025, 1, 1, 0, 0, 0)}, name
            core = z.read("docProps/core.xml").decode("utf-8")
            assert core.count("2025-01-01T00:00:00Z") == 2, name  # created and modified
