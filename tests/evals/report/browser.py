"""A real headless Chromium for the HTML pages' tests (report.html, compare.html, index.html);
a machine without one skips them and says why (`make browser` installs it where it can)."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest


def chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    exe = exe or shutil.which("google-chrome")
    if exe is None:
        pytest.skip("no headless Chromium: apt-get install chromium")
    return exe


def browse(url: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Chromium, headless, on ``url``: the page's console messages come out on stderr."""
    command = [
        chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
        "--v=0", "--virtual-time-budget=3000", "--no-first-run", f"--user-data-dir={profile}",
        *args, url,
    ]  # fmt: skip
    ran = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr[-2000:]
    return ran


def console(stderr: str) -> list[str]:
    """The page's console lines: the report logs nothing, so any of them is a problem."""
    return [line for line in stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]


_FRAME = """<!doctype html><html><body style="margin:0">
<iframe id="f" src="{url}" style="width:{width}px;height:900px;border:0"></iframe>
<pre id="overflow">not measured</pre>
<script>
document.getElementById("f").addEventListener("load", () => {{
  const cells = document.getElementById("f").contentDocument.querySelectorAll("td, th");
  const over = [...cells].filter((c) => c.scrollWidth > c.clientWidth + 1);
  document.getElementById("overflow").textContent = JSON.stringify(
    over.map((c) => (c.closest("tr").dataset.metric || "row") + "/" + c.cellIndex));
}});
</script></body></html>"""


def overflowing(page: Path, profile: Path, width: int = 1366) -> list[str]:
    """The table cells of ``page`` whose content spills out of them (into the next column) at
    a laptop's ``width``, measured in Chromium by a frame around the page (the page itself runs
    no script): ``metric/column``."""
    frame = profile.parent / f"{page.stem}-frame.html"
    frame.write_text(_FRAME.format(url=page.as_uri(), width=width), "utf-8")
    ran = browse(frame.as_uri(), profile, "--dump-dom", "--allow-file-access-from-files")
    found = re.search(r'<pre id="overflow">([^<]*)</pre>', ran.stdout)
    assert found is not None and found.group(1) != "not measured", ran.stdout[-500:]
    spilled: list[str] = json.loads(html.unescape(found.group(1)))
    return spilled
