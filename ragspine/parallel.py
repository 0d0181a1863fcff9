"""CPU-bound work spread over forked processes, where forking is safe.

A forked child inherits what the parent loaded (the segmenter, the profile) for free, but
forking a process with other threads can copy a lock some thread holds, and spawning instead
would re-run an unguarded ``__main__`` script in every worker. So work goes to processes only
on Linux, from a process with one thread; elsewhere it runs here, with the same results.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context
from typing import TypeVar

from ragspine.interrupts import ignore_interrupts

T = TypeVar("T")
R = TypeVar("R")


def fork_is_safe() -> bool:
    return sys.platform == "linux" and threading.active_count() == 1


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def pool_size(limit: int | None = None) -> int:
    """Processes worth starting here: one per usable core (at most ``limit``), or 0 where
    forking is unsafe or there is one core to run on."""
    cores = usable_cores()
    if cores < 2 or not fork_is_safe():
        return 0
    return cores if limit is None else min(cores, limit)


def ordered_map(fn: Callable[[T], R], items: Iterable[T], workers: int) -> Iterator[R]:
    """``map(fn, items)`` in input order, over ``workers`` processes (0: in this one), with at
    most two items per worker in flight so memory stays flat however many items come.

    With workers asked for where forking is unsafe, they are spawned (``__main__`` must be
    guarded). A worker that dies raises ``BrokenProcessPool``.
    """
    if workers <= 0:
        yield from map(fn, items)
        return
    fork = fork_is_safe()
    if fork:
        gc.freeze()  # the children share the parent's pages; sweeps would copy them
    try:
        context = get_context("fork" if fork else "spawn")
        with ProcessPoolExecutor(
            workers, mp_context=context, initializer=ignore_interrupts
        ) as pool:
            pending: list[Future[R]] = []
            for item in items:
                pending.append(pool.submit(fn, item))
                if len(pending) >= 2 * workers:
                    yield pending.pop(0).result()
            for fut in pending:
                yield fut.result()
    finally:
        if fork:
            gc.unfreeze()
