"""An OS error that reaches a command (a path through a file, a folder that cannot be created) is
one `error:` line naming the path, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli import invoke


@pytest.mark.parametrize(
    "args",
    [
        # the corpus's folder would be inside a regular file
        ["ingest", "{note}", "--corpus", "{blocker}/c.db", "--db", "{tmp}/f.db"],
        # the fact store's likewise, for the worker
        [
            "worker",
            "--once",
            "--inbox",
            "{tmp}",
            "--db",
            "{blocker}/f.db",
            "--corpus",
            "{tmp}/c.db",
        ],
    ],
)
def test_an_os_error_is_one_error_line(tmp_path: Path, args: list[str]) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a folder should be")
    note = tmp_path / "note.md"
    note.write_text("# 说明\n\n香港门店的营业时间调整。\n", "utf-8")
    filled = [a.format(tmp=tmp_path, blocker=blocker, note=note) for a in args]
    out = invoke(*filled)
    assert out.returncode == 1
    assert out.stderr.startswith("error: ") and len(out.stderr.splitlines()) == 1, out.stderr
    assert str(blocker) in out.stderr
