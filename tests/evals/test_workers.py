"""Concurrent asking: Ctrl-C keeps every answer a worker received, a second Ctrl-C stops."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from ragspine.evals.workers import run_concurrent


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
            self.gate.wait(30)
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
    run_concurrent(range(40), log.answer, log.keep, workers=4, ahead=8, spent=lambda: False)
    assert sorted(log.kept) == list(range(40))


def test_ctrl_c_while_keeping_loses_no_answer_and_starts_nothing_new() -> None:
    log = Log(interrupt_on_keep=True)
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        run_concurrent(range(200), log.answer, log.keep, workers=4, ahead=16, spent=lambda: False)
    assert sorted(log.kept) == sorted(log.answered)  # every paid answer written
    assert len(log.answered) < 200  # queued cases were left for --resume
    assert signal.getsignal(signal.SIGINT) is before  # the caller's handler is back


def test_a_second_ctrl_c_stops_without_waiting_for_the_answers_under_way() -> None:
    gate = threading.Event()  # the workers' answers never come until the test opens it
    log = Log(gate=gate)

    def press_twice() -> None:
        while len(log.started) < 4:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.1)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.1)
        gate.set()  # let the stuck workers end, so the pool can shut down

    presser = threading.Thread(target=press_twice)
    presser.start()
    with pytest.raises(KeyboardInterrupt):
        run_concurrent(range(50), log.answer, log.keep, workers=4, ahead=8, spent=lambda: False)
    presser.join()
    assert log.kept == []  # stopped while every answer was still under way
    assert len(log.started) == 4  # nothing queued was started after the first Ctrl-C


def test_outside_the_main_thread_signals_are_left_to_the_caller() -> None:
    log = Log()
    failures: list[BaseException] = []

    def run() -> None:
        try:
            run_concurrent(range(10), log.answer, log.keep, workers=2, ahead=4, spent=lambda: False)
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert failures == [] and sorted(log.kept) == list(range(10))


def test_a_spent_budget_stops_queueing() -> None:
    log = Log()
    run_concurrent(
        range(100), log.answer, log.keep, workers=2, ahead=2, spent=lambda: len(log.kept) >= 5
    )
    assert 5 <= len(log.kept) <= 5 + 2  # at most one more case per worker
    assert sorted(log.kept) == sorted(log.answered)
