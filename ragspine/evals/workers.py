"""Asking many cases at once, and stopping without losing a paid answer.

The workers only ask; the calling thread keeps each answer (scores and writes it), so a
worker's next request does not wait for the last answer's audit. Ctrl-C is turned into a
request rather than an exception: an exception can land between an answer arriving and its
being written, and that answer, already paid for, would be asked again on ``--resume``.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from types import FrameType
from typing import TypeVar

Item = TypeVar("Item")
Answer = TypeVar("Answer")


def run_concurrent(
    todo: Iterable[Item],
    answer: Callable[[Item], Answer],
    keep: Callable[[Answer], None],
    *,
    workers: int,
    ahead: int,
    spent: Callable[[], bool],
) -> None:
    """Answer ``todo`` on ``workers`` threads, at most ``ahead`` queued, keeping each answer in
    this thread. Stops queueing once ``spent()``. On Ctrl-C, the answers under way finish and
    are kept, then KeyboardInterrupt is raised; a second Ctrl-C stops at once."""
    with _interrupt_as_request() as stop, ThreadPoolExecutor(workers) as pool:

        def ask(item: Item) -> tuple[Answer] | None:
            if stop.is_set():  # picked up after Ctrl-C: left for --resume
                return None
            return (answer(item),)

        def keep_done(futures: Iterable[Future[tuple[Answer] | None]]) -> None:
            for future in futures:
                answered = None if future.cancelled() else future.result()
                if answered is not None:
                    keep(answered[0])

        pending: set[Future[tuple[Answer] | None]] = set()
        try:
            for item in todo:
                if spent() or stop.is_set():
                    break
                pending.add(pool.submit(ask, item))
                if len(pending) >= ahead:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    keep_done(done)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                keep_done(done)
                if spent() or stop.is_set():  # queued cases never start
                    for future in pending:
                        future.cancel()
        except BaseException:  # a second Ctrl-C, or a bug: queued cases never start
            for future in pending:
                future.cancel()
            raise
    if stop.is_set():
        raise KeyboardInterrupt


@contextmanager
def _interrupt_as_request() -> Iterator[threading.Event]:
    """SIGINT sets the returned flag; a second SIGINT raises KeyboardInterrupt as usual."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop  # only the main thread gets signals; Ctrl-C there is its caller's
        return

    def request_stop(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    previous = signal.signal(signal.SIGINT, request_stop)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
