"""Concurrent asking: a stop (Ctrl-C, a spent budget) keeps every answer a worker received."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable

import pytest

from ragspine.evals.run.workers import run_concurrent
from ragspine.interrupts import StopRequest, stop_requested


class Log:
    """What the workers were asked and answered, and what the caller kept."""

    def __init__(self, *, interrupt_on_keep: bool = False, gate: threading.Event | None = None):
        self.started: list[int] = []
        self.answered: list[int] = []
        self.kept: list[int] = []
        self.interrupt_on_keep = interrupt_on_keep
        self.gate = gate
        self.lock = threading.Lock()

    def answer(self, item: int) -> int:
        with self.lock:
            self.started.append(item)
        if self.gate is not None:
            self.gate.wait(60)
        time.sleep(0.005)
        with self.lock:
            self.answered.append(item)
        return item

    def keep(self, item: int) -> None:
        self.kept.append(item)
        if self.interrupt_on_keep and len(self.kept) == 1:
            # Ctrl-C lands while an answer is being kept: where an exception lost answers
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # the handler runs here, in the middle of keeping


def test_every_answer_is_kept_once_without_an_interrupt() -> None:
    log = Log()
    run_concurrent(range(40), log.answer, log.keep, workers=4, ahead=8, stop=lambda: False)
    assert sorted(log.kept) == list(range(40))


def test_ctrl_c_while_keeping_loses_no_answer_and_starts_nothing_new() -> None:
    log = Log(interrupt_on_keep=True)
    with stop_requested() as stop:  # as the runner wraps it
        run_concurrent(range(200), log.answer, log.keep, workers=4, ahead=16, stop=stop.is_set)
    assert stop.is_set()
    assert sorted(log.kept) == sorted(log.answered)  # every paid answer written
    assert len(log.answered) < 200  # queued cases were left for --resume


@pytest.mark.parametrize(
    "deliver",
    [
        # to the process, as a terminal does: the kernel picks the thread
        lambda: os.kill(os.getpid(), signal.SIGINT),
        # handed to a thread other than the main one (the kernel may do so): the main thread,
        # blocked waiting for answers, must still read it at once, not when an answer arrives
        lambda: signal.pthread_kill(threading.get_ident(), signal.SIGINT),
    ],
)
def test_a_second_ctrl_c_stops_without_waiting_for_the_answers_under_way(
    deliver: Callable[[], None],
) -> None:
    gate = threading.Event()  # the workers' answers would take a minute
    log = Log(gate=gate)
    requests: list[StopRequest] = []

    def press_twice() -> None:
        while len(log.started) < 4 or not requests:
            time.sleep(0.01)
        deliver()
        while not requests[0].is_set():  # two signals pending at once would count as one
            time.sleep(0.01)
        deliver()

    presser = threading.Thread(target=press_twice)
    presser.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt), stop_requested() as stop:
            requests.append(stop)
            run_concurrent(range(50), log.answer, log.keep, workers=4, ahead=8, stop=stop.is_set)
        waited = time.monotonic() - started
    finally:
        presser.join()
        gate.set()  # the abandoned threads may end now
    assert waited < 30  # did not wait for the answers under way (they take 60 s)
    assert log.kept == []  # stopped while every answer was still under way
    assert len(log.started) == 4  # nothing queued was started after the first Ctrl-C


def test_a_spent_budget_stops_queueing() -> None:
    log = Log()
    run_concurrent(
        range(100), log.answer, log.keep, workers=2, ahead=2, stop=lambda: len(log.kept) >= 5
    )
    assert 5 <= len(log.kept) <= 5 + 2  # at most one more case per worker
    assert sorted(log.kept) == sorted(log.answered)
