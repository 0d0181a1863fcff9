"""Ctrl-C as a request: the flag is set wherever the signal lands, a second one raises."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from ragspine.interrupts import stop_requested


def _press(signum: signal.Signals = signal.SIGINT) -> None:
    os.kill(os.getpid(), signum)
    time.sleep(0.05)  # the handler runs at the next bytecode of the main thread


class SignalledWhileFinalised:
    """An object whose finaliser is running when Ctrl-C lands, as openpyxl's ZipFile was: a
    KeyboardInterrupt raised there is printed and swallowed, and the loop went on."""

    def __del__(self) -> None:
        _press()


def test_a_signal_landing_in_a_finaliser_still_stops() -> None:
    with stop_requested() as stop:
        SignalledWhileFinalised()  # dropped at once: __del__ runs here
        assert stop.is_set()


def test_the_second_signal_raises_and_the_handler_is_put_back() -> None:
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt), stop_requested() as stop:
        _press()
        assert stop.is_set()
        _press()
    assert signal.getsignal(signal.SIGINT) is before


@pytest.mark.parametrize(
    "signum",
    [
        signal.SIGINT,  # Ctrl-C
        signal.SIGTERM,  # kill, docker stop, systemd
    ],
)
def test_each_signal_asked_for_is_a_request(signum: signal.Signals) -> None:
    with stop_requested(signal.SIGINT, signal.SIGTERM) as stop:
        _press(signum)
        assert stop.is_set()


def test_the_request_message_goes_to_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    with stop_requested(on_request="stopping after this one") as stop:
        _press()
    assert stop.is_set()
    assert capfd.readouterr().err == "stopping after this one\n"


def test_a_request_wakes_a_sleep_at_once() -> None:
    """The worker sleeps between looks at its inbox; Ctrl-C must not wait out the interval. (A
    threading.Event here could deadlock: the handler's set() needs the lock wait() holds.)"""
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    with stop_requested() as stop:
        timer.start()
        started = time.monotonic()
        stop.sleep(60)
        assert stop.is_set() and time.monotonic() - started < 30


def test_a_forked_child_leaves_stopping_to_its_parent() -> None:
    with stop_requested() as stop:
        pid = os.fork()
        if pid == 0:  # the child: a Ctrl-C to the process group reaches it too
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            os._exit(0 if not stop.is_set() else 1)
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and not stop.is_set()


def test_outside_the_main_thread_nothing_is_installed() -> None:
    before = signal.getsignal(signal.SIGINT)
    seen: list[object] = []

    def run() -> None:
        with stop_requested() as stop:
            seen.append(signal.getsignal(signal.SIGINT))
            seen.append(stop.is_set())

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [before, False]
