"""Cassettes: a provider that records another provider's replies and plays them back.

A live model costs money and time on every run, and answers a little differently each time; a
cassette makes a live run repeatable and free to re-run, and lets CI replay it with no key and
no network. Each reply is one JSON file, ``DIR/<case>.<repeat>/turn-<n>.json`` (the n-th model
call of that case and repeat, set by the eval runner with ``episode()``; calls outside a case go
to ``DIR/_ask/<key>.json``): the request it answers and the reply, sorted and indented so a pull
request shows what changed. The file format is versioned (``cassette_records``). No credential
is in a request (the key travels in a header, which is never recorded, and a file that would
hold the key is refused), but the prompts hold the passages retrieved for them: a cassette of a
run with RESTRICTED clearance is RESTRICTED too. The endpoint is not in the key: the same model
behind another base URL replays the same recordings.

What a recording matches (its key): the request as the model sees it (model, sampling
parameters, system prompt, messages, tools) with volatile text normalised (tool-use ids, content
hashes such as a source file's, run ids, timestamps, absolute paths: ``cassette_keys``), and the
episode (case id, repeat index, turn), so three repeats of a case are three recordings. A
rebuilt fact store or another checkout replays the same recordings; a changed question,
passage, figure or prompt does not.

Modes: ``replay`` plays a recording and records what is missing or no longer matches, in place
(the same file); ``record`` calls the model for everything and rewrites in place; ``strict``
plays recordings only, and a miss is a ``CassetteMissError`` naming the case, the turn and the
first field of the request that differs from the recording (the model is never built: no key,
no SDK import). ``prune`` deletes the files no case used, for a run over the whole suite.

A replayed reply was paid for once, when it was recorded: its usage is counted apart
(``replays()``), so a budget charges only the calls made now.
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ragspine.errors import CassetteMissError as CassetteMissError
from ragspine.errors import ProviderConfigError
from ragspine.llm import cassette_records as records
from ragspine.llm.base import LLMProvider, ProviderResponse, probe
from ragspine.llm.cassette_keys import count_tool_ids, first_difference, normalise, request_key
from ragspine.llm.cassette_records import Episode, Recording, RecordingV1, Reply

Mode = Literal["replay", "record", "strict"]
MODES: tuple[Mode, ...] = ("replay", "record", "strict")
ASK_FOLDER = "_ask"
_V1_NAME = re.compile(r"^[0-9a-f]{16}\.json$")


@dataclass
class _Episode:
    case: str
    repeat: int
    turns: Iterator[int] = field(default_factory=itertools.count)


_episode: ContextVar[_Episode | None] = ContextVar("ragspine_episode", default=None)
_replays: ContextVar[dict[str, int] | None] = ContextVar("ragspine_replays", default=None)


@contextmanager
def episode(case_id: str, repeat: int = 0) -> Iterator[None]:
    """Calls made inside belong to this case and repeat and are its turns 0, 1, 2, … in order
    (the name of their recordings)."""
    token = _episode.set(_Episode(case_id, repeat))
    try:
        yield
    finally:
        _episode.reset(token)


@contextmanager
def replays() -> Iterator[dict[str, int]]:
    """The usage of the replies replayed from a recording inside, summed by key: tokens that
    cost nothing this time."""
    counted: dict[str, int] = {}
    token = _replays.set(counted)
    try:
        yield counted
    finally:
        _replays.reset(token)


def current_episode() -> tuple[str, int] | None:
    """The case and repeat the calls made now belong to, if any."""
    ep = _episode.get()
    return (ep.case, ep.repeat) if ep else None


def episode_folder(case_id: str, repeat: int) -> str:
    """The folder of one case's and repeat's recordings, inside a cassette."""
    return f"{case_id}.{repeat}"


class CassetteProvider:
    """Wraps the provider ``build()`` makes, building it only when a reply must be recorded."""

    def __init__(
        self,
        directory: Path,
        mode: Mode,
        *,
        model_id: str,
        params: dict[str, Any],
        build: Callable[[], LLMProvider],
        endpoint: str | None = None,
    ) -> None:
        if mode not in MODES:
            raise ProviderConfigError(f"unknown cassette mode {mode!r}: use {', '.join(MODES)}")
        if mode == "strict" and not directory.is_dir():
            raise ProviderConfigError(f"{directory}: no such cassette folder (strict replays one)")
        self.directory = directory
        self.mode = mode
        self.model = model_id.partition(":")[2] or model_id
        self.endpoint = f"cassette {directory} ({mode})" + (f" · {endpoint}" if endpoint else "")
        self._model_id = model_id
        self._params = params
        self._build = build
        self._inner: LLMProvider | None = None
        self._lock = threading.Lock()
        self._used: set[Path] = set()
        self._v1: dict[Path, list[RecordingV1]] = {}
        self.replayed = self.recorded = 0

    def create_message(
        self,
        *,
        system: str,
        messages: list[dict[str, object]],
        tools: list[dict[str, object]],
    ) -> ProviderResponse:
        request = {
            "model": self._model_id,
            "params": self._params,
            "system": system,
            "messages": messages,
            "tools": tools,
        }
        seen = normalise(request)
        ep = _episode.get()
        if ep is None:
            key = request_key(seen)
            where, episode_ = f"{ASK_FOLDER}/{key[:16]}", None
        else:
            turn = next(ep.turns)
            where = f"{episode_folder(ep.case, ep.repeat)}/turn-{turn}"
            episode_ = Episode(case=ep.case, repeat=ep.repeat, turn=turn)
        path = self.directory / f"{where}.json"
        with self._lock:
            self._used.add(path)
        hit, recorded, old = (
            (None, None, False) if self.mode == "record" else self._find(path, seen)
        )
        if hit is not None:
            response = hit.response()
            counted = _replays.get()
            with self._lock:
                self.replayed += 1
                if counted is not None:
                    for name, n in response.usage.items():
                        counted[name] = counted.get(name, 0) + n
            if old and self.mode == "replay":  # a format-1 recording, written anew in place
                self._save(path, where, episode_, seen, hit.response())
            return response
        if self.mode == "strict":
            raise CassetteMissError(_miss(self.directory, where, ep, recorded, seen))
        try:
            model = self._provider()
        except ProviderConfigError as exc:  # the same for every case: the run stops on it
            case = f"case {ep.case} (repeat {ep.repeat})" if ep else "this question"
            raise ProviderConfigError(
                f"{self.directory}: no recording for {case}, and the model cannot be called to "
                f"record one: {exc}"
            ) from exc
        response = model.create_message(system=system, messages=messages, tools=tools)
        self._save(path, where, episode_, seen, response)
        with self._lock:
            self.recorded += 1
        return response

    def prune(
        self,
        keep: Collection[tuple[str, int]] = (),
        *,
        cases: Collection[str] = (),
        repeats: int | None = None,
    ) -> int:
        """Delete the recordings no call of this provider used (and empty folders left), except
        in the folders of the episodes in ``keep`` (cases that ended in an error: their later
        turns were not reached, not stale), and the repeats from ``repeats`` on of the
        ``cases`` run (recorded by a run with more repeats, and paid for: not asked for is not
        stale; a case no longer run goes with all its repeats). Call it only after a run over
        the whole suite; a strict cassette is never pruned. Returns how many files went."""
        if self.mode == "strict" or not self.directory.is_dir():
            return 0
        kept = {episode_folder(case, repeat) for case, repeat in keep}
        gone = 0
        for folder in sorted(p for p in self.directory.iterdir() if p.is_dir()):
            if folder.name in kept or folder.name == ASK_FOLDER:
                continue
            case, _, repeat = folder.name.rpartition(".")
            unasked = repeats is not None and repeat.isdigit() and int(repeat) >= repeats
            if unasked and case in cases:
                continue
            for path in sorted(folder.glob("*.json")):
                if path not in self._used:
                    path.unlink()
                    gone += 1
            if not any(folder.iterdir()):
                folder.rmdir()
        return gone

    def _find(
        self, path: Path, seen: dict[str, Any]
    ) -> tuple[Reply | None, dict[str, Any] | None, bool]:
        """The reply recorded for this request, the request recorded at this turn (to say where
        it differs), and whether the reply came from a format-1 recording."""
        recording = records.read(path) if path.is_file() else None
        if isinstance(recording, Recording) and request_key(recording.request) == request_key(seen):
            return recording.response, recording.request, False
        for old in self._format_1(path.parent):
            if request_key(normalise(old.request)) == request_key(seen):
                return old.response, None, True
        return None, recording.request if isinstance(recording, Recording) else None, False

    def _format_1(self, folder: Path) -> list[RecordingV1]:
        """The format-1 recordings in an episode's folder (named by a 16-digit hash), read once."""
        with self._lock:
            if folder not in self._v1:
                self._v1[folder] = [
                    r
                    for p in sorted(folder.glob("*.json"))
                    if _V1_NAME.match(p.name) and isinstance(r := records.read(p), RecordingV1)
                ]
            return self._v1[folder]

    def _save(
        self,
        path: Path,
        where: str,
        ep: Episode | None,
        seen: dict[str, Any],
        response: ProviderResponse,
    ) -> None:
        reply = Reply.of(response, count_tool_ids(seen) + 1)
        records.write(path, Recording(id=where, episode=ep, request=seen, response=reply))

    def probe(self) -> None:
        """Before a run: ``record`` calls the model for every reply, so it is built now (its
        key checked) and probed; ``replay`` and ``strict`` need nothing up front (``replay``
        builds it at its first miss)."""
        if self.mode == "record":
            probe(self._provider())

    def _provider(self) -> LLMProvider:
        with self._lock:
            if self._inner is None:
                self._inner = self._build()
            return self._inner


def _miss(
    directory: Path,
    where: str,
    ep: _Episode | None,
    recorded: dict[str, Any] | None,
    seen: dict[str, Any],
) -> str:
    """Which case missed, at which turn, and the first field where the request differs."""
    case = f"case {ep.case} (repeat {ep.repeat}), turn {where.rpartition('-')[2]}" if ep else ""
    diff = first_difference(recorded, seen) if recorded is not None else None
    what = (
        f"the request differs from the recording at {diff[0]}: recorded {diff[1]}, now {diff[2]}"
        if diff
        else "no recording of this request"
    )
    return f"strict replay missed {case or 'this question'}: {what} — {STALE_ADVICE} ({directory})"


STALE_ADVICE = (
    "the cassette is stale: record it again (--cassette-mode replay records what differs, "
    "record rewrites every reply) and review the diff"
)
