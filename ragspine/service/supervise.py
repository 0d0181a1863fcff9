"""``serve --workers N``: a worker ends when the process that started it does.

uvicorn's workers are ordinary child processes: if the master is killed (``kill -9``, the OOM
killer) they go on serving, orphaned, holding the listening socket, and a restart cannot bind the
port. Each worker therefore watches its parent's pid and stops itself (SIGTERM: uvicorn's own
graceful shutdown, bounded by ``timeout_graceful_shutdown``) once it is no longer the master's
child. Polling is used rather than Linux's ``PR_SET_PDEATHSIG``, which fires when the *thread*
that forked the child ends, not the process, and exists on Linux only.
"""

from __future__ import annotations

import os
import signal
import threading
import time

POLL = 0.5  # seconds between two looks at the parent


def die_with(master: int, poll: float = POLL) -> threading.Thread:
    """Stop this process (SIGTERM to itself) once its parent is no longer ``master``."""

    def watch() -> None:
        while os.getppid() == master:
            time.sleep(poll)
        os.kill(os.getpid(), signal.SIGTERM)

    thread = threading.Thread(target=watch, name="ragspine-die-with-master", daemon=True)
    thread.start()
    return thread
