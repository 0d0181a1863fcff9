"""Ctrl-C (and SIGTERM) as a request to stop, not an exception.

Python raises KeyboardInterrupt wherever the main thread happens to be, including inside an
object's ``__del__``, where it is printed and swallowed: a worker loop that relied on the
exception could go on running after Ctrl-C (seen: openpyxl's ZipFile finaliser took it). And an
exception that lands between an answer arriving and its being written loses a paid answer. So
long loops take a flag, set by the signal, and look at it where stopping is safe.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType


class StopRequest:
    """A flag a signal sets and the loops read. Plain, not a ``threading.Event``: a handler runs
    in the main thread, which may be inside ``Event.wait`` holding the very lock ``set`` needs."""

    __slots__ = ("_set",)

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        self._set = True

    def is_set(self) -> bool:
        return self._set

    def sleep(self, seconds: float) -> None:
        """Sleep ``seconds``, or less: it returns within a tenth of a second of a request."""
        deadline = time.monotonic() + seconds
        while not self._set and (left := deadline - time.monotonic()) > 0:
            time.sleep(min(left, 0.1))


@contextmanager
def stop_requested(
    *signums: signal.Signals, on_request: str | None = None
) -> Iterator[StopRequest]:
    """While open, the first of ``signums`` (default SIGINT) sets the returned flag; a second
    raises KeyboardInterrupt, for a user who does not want to wait. ``on_request`` is written to
    stderr when the first arrives. Outside the main thread, where no signal is delivered, the
    flag is only ever set by the caller."""
    stop = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    owner = os.getpid()

    def request(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:  # a forked child: stopping is its parent's decision
            return
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        if on_request:
            # a raw write: the handler may run in the middle of a buffered write to stderr, and
            # a second buffered write from here would raise "reentrant call"
            with suppress(AttributeError, OSError, ValueError):  # no file behind stderr
                os.write(sys.stderr.fileno(), f"{on_request}\n".encode())

    wanted = signums or (signal.SIGINT,)
    previous = {s: signal.signal(s, request) for s in wanted}
    try:
        yield stop
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)


def ignore_interrupts() -> None:
    """For a pool's worker processes: Ctrl-C at a terminal reaches the whole process group, and
    whether to stop is the parent's decision (it may finish the work under way)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
