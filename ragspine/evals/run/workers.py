"""Asking many cases at once, and stopping without losing a paid answer.

The workers only ask; the calling thread keeps each answer (scores and writes it), so a
worker's next request does not wait for the last answer's audit. A stop (a spent budget, a
Ctrl-C request from ``ragspine.interrupts``) lets the answers under way finish and keeps them:
they are paid for, and are never asked again on ``--resume``.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TypeVar

Item = TypeVar("Item")
Answer = TypeVar("Answer")


# How long the calling thread blocks at most: a signal's Python handler runs only when the main
# thread runs, so a Ctrl-C is read within this even if the kernel handed it to another thread.
_POLL = 0.1


def _leave_signals_to_the_main_thread() -> None:
    """A worker blocks SIGINT and SIGTERM, so the kernel delivers them to the main thread, the
    one that can act on them (delivered to a worker, they would wait for the main thread to
    wake up: for a model's answer, a minute)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


def run_concurrent(
    todo: Iterable[Item],
    answer: Callable[[Item], Answer],
    keep: Callable[[Answer], None],
    *,
    workers: int,
    ahead: int,
    stop: Callable[[], bool],
) -> None:
    """Answer ``todo`` on ``workers`` threads, at most ``ahead`` queued, keeping each answer in
    this thread. Once ``stop()`` (a spent budget, a Ctrl-C request), nothing new starts and the
    answers under way finish and are kept."""
    pool = ThreadPoolExecutor(workers, initializer=_leave_signals_to_the_main_thread)

    def ask(item: Item) -> tuple[Answer] | None:
        if stop():  # picked up after the stop: left for --resume
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
            if stop():
                break
            pending.add(pool.submit(ask, item))
            if len(pending) >= ahead:
                done, pending = wait(pending, timeout=_POLL, return_when=FIRST_COMPLETED)
                keep_done(done)
        while pending:
            done, pending = wait(pending, timeout=_POLL, return_when=FIRST_COMPLETED)
            keep_done(done)
            if stop():  # queued cases never start
                for future in pending:
                    future.cancel()
    except BaseException:
        # A second Ctrl-C (or a bug): queued cases never start, and the answers under way are
        # not waited for; the caller decides whether the process waits for their threads.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
