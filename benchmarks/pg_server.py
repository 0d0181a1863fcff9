"""A throwaway PostgreSQL server on this machine, for the tests (``tests/pg.py``) and the service
bench: initdb and pg_ctl in a temporary folder, stopped and removed by ``stop()``.

PostgreSQL refuses to run as root, so as root the server runs as an unprivileged user (the
``postgres`` user where it exists, else ``nobody``) in a folder that user owns; it listens on
127.0.0.1 on a free port, trusts local connections, and skips durability (fsync off): a
throwaway server's data dies with it.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

SKIP_REASON = "PostgreSQL not installed (no initdb on PATH): apt-get install postgresql"
USER = "ragspine"
_SEARCH = ("/usr/local/bin", "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin")


def pg_bin(name: str) -> str | None:
    """A PostgreSQL program: on PATH, else in Debian's versioned folder."""
    found = shutil.which(name)
    if found:
        return found
    for folder in _SEARCH:
        candidate = Path(folder) / name
        if candidate.is_file():
            return str(candidate)
    return None


def _as_user() -> tuple[list[str], str | None]:
    """The prefix that runs a program as an unprivileged user (as root), and that user."""
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"], name
    raise RuntimeError("running as root with neither a postgres nor a nobody user")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    """A running server; ``database()`` gives a fresh database's URL."""

    folder: Path
    port: int
    prefix: list[str]
    template: str = "template1"  # what ``database()`` copies unless told otherwise
    _names: itertools.count[int] = field(default_factory=itertools.count)

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def database(self, template: str | None = None, name: str | None = None) -> str:
        """A new database copied from ``template`` (by default the server's ``template``); its
        URL. Nobody may be connected to the template while it is copied."""
        import psycopg

        name = name or f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {template or self.template}")
        return self.url(name)

    def stop(self) -> None:
        ctl = pg_bin("pg_ctl")
        subprocess.run(
            [*self.prefix, str(ctl), "-D", str(self.folder / "data"), "-m", "immediate", "stop"],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


def start_server(settings: Sequence[str] = ()) -> PgServer:
    """initdb and pg_ctl start; FileNotFoundError (saying so) where PostgreSQL is absent.
    ``settings``: more ``name=value`` server settings (``shared_preload_libraries=…``)."""
    initdb, ctl = pg_bin("initdb"), pg_bin("pg_ctl")
    if initdb is None or ctl is None:
        raise FileNotFoundError(SKIP_REASON)
    prefix, user = _as_user()
    folder = Path(tempfile.mkdtemp(prefix="ragspine-pg-"))
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    data = folder / "data"
    run = [*prefix, initdb, "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8"]
    try:
        subprocess.run([*run, "--locale=C", "--no-sync"], capture_output=True, check=True)
        for attempt in range(5):
            port = _free_port()
            options = f"-p {port} -h 127.0.0.1 -k {folder} -F -c full_page_writes=off"
            options += " -c synchronous_commit=off -c max_connections=200"
            options += "".join(f" -c {setting}" for setting in settings)
            command = [*prefix, ctl, "-D", str(data), "-o", options, "-l", str(folder / "log")]
            started = subprocess.run([*command, "-w", "start"], capture_output=True, check=False)
            if started.returncode == 0:
                return PgServer(folder, port, prefix)
            if attempt == 4:
                log = (folder / "log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"pg_ctl start failed: {started.stderr!r}\n{log}")
            time.sleep(0.2)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    raise AssertionError("unreachable")


@contextmanager
def running() -> Iterator[PgServer]:
    """A server for the block, stopped when it ends, also on an error, Ctrl-C or SIGTERM (which
    is turned into SystemExit for the block's length): no server is ever left behind."""

    def _terminate(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    main = threading.current_thread() is threading.main_thread()  # signals: main thread only
    previous = signal.signal(signal.SIGTERM, _terminate) if main else None
    try:
        server = start_server()
        try:
            yield server
        finally:
            server.stop()
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
