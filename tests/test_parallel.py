"""Process pools: input order kept, and Ctrl-C left to the parent."""

from __future__ import annotations

import os
import signal

from ragspine.parallel import ordered_map


def _square(n: int) -> int:
    return n * n


def _interrupted_square(n: int) -> int:
    """A Ctrl-C at a terminal reaches the pool's processes too, as here."""
    os.kill(os.getpid(), signal.SIGINT)
    return n * n


def test_results_come_in_input_order_from_worker_processes() -> None:
    assert list(ordered_map(_square, range(50), 2)) == [n * n for n in range(50)]


def test_a_worker_process_leaves_ctrl_c_to_its_parent() -> None:
    # Without it, each worker raises KeyboardInterrupt and the pool breaks: the parent could
    # not finish the file under way, which is what a first Ctrl-C asks of the inbox worker.
    assert list(ordered_map(_interrupted_square, range(8), 2)) == [n * n for n in range(8)]
