"""`ragspine serve --workers 2` under a master killed with SIGKILL: its workers end with it and a
restart binds the same port; and the store files a user creates are private."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.cli import invoke
from tests.service.conftest import RAGSPINE, ROOT, Deployment, deployment, free_port
from tests.service.sockets import children


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie serves nothing and holds no socket


def _serve(tmp: Path, dep: Deployment, port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [RAGSPINE, "serve", "--workers", "2", "--port", str(port), "--db", dep.db,
         "--corpus", dep.corpus, "--keys", str(tmp / "keys.yaml")],
        cwd=ROOT, stdout=(tmp / "serve.log").open("a"), stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


def _ready(url: str, proc: subprocess.Popen[str], within: float = 90) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        assert proc.poll() is None, "ragspine serve exited"
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("ragspine serve did not start")


@pytest.mark.slow
def test_a_killed_master_takes_its_workers_and_a_restart_binds_the_port(
    tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    dep = deployment(tmp_path, demo_db, demo_corpus)
    dep.new_key("ops", "INTERNAL")
    master = _serve(tmp_path, dep, port)
    try:
        _ready(url, master)
        workers = children(master.pid)
        assert workers, "no worker processes"
        os.kill(master.pid, signal.SIGKILL)
        master.wait()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.2)
        assert not any(_alive(w) for w in workers), "workers outlived their master"
    finally:
        for w in children(master.pid) + workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)
    again = _serve(tmp_path, dep, port)
    try:
        _ready(url, again)
    finally:
        again.terminate()
        again.wait(timeout=30)
    assert "Address already in use" not in (tmp_path / "serve.log").read_text()


def test_stores_and_keys_are_created_private(
    tmp_path: Path, demo_db: Path, demo_corpus: Path
) -> None:
    """A FAQ store, a fact store and a keys file made in new folders: 0600 files, 0700 folders;
    a folder that existed keeps its mode."""
    new = tmp_path / "new" / "deeper"
    faq = new / "faq.db"
    made = invoke(
        "faq", "add", "--question", "退货政策是什么?", "--answer", "七天内可退货。",
        "--source", "ACME_Store_Operations_FAQ.txt#para=5", "--faq", str(faq),
        "--db", str(demo_db), "--corpus", str(demo_corpus),  # the source must be there
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    keys = tmp_path / "k" / "keys.yaml"
    assert invoke("keys", "new", "a", "--clearance", "PUBLIC", "--file", str(keys)).returncode == 0
    facts = tmp_path / "f" / "facts.db"
    loaded = invoke("facts", "load", str(ROOT / "examples/jinyu/facts.csv"), "--db", str(facts),
                    "--profile", str(ROOT / "examples/jinyu/profile.yaml"))  # fmt: skip
    assert loaded.returncode == 0, loaded.stderr
    for path in (faq, keys, facts):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    for folder in (new, new.parent, keys.parent, facts.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    assert invoke("keys", "new", "b", "--clearance", "PUBLIC", "--file", str(shared / "k.yaml"))
    assert stat.S_IMODE(shared.stat().st_mode) == 0o755  # it existed: its mode is the user's
