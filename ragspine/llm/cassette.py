"""Cassettes: a provider that records another provider's replies and plays them back.

A live model costs money and time on every run, and answers a little differently each time; a
cassette makes a live run repeatable and free to re-run, and lets CI replay it with no key and
no network. Each reply is one JSON file, ``DIR/<case>.<repeat>/<key>.json``: the request it
answers (model, system prompt, messages, tools, sampling parameters) and the reply, sorted and
indented so a pull request shows what changed. No credential is in a request (the key travels in
a header, which is never recorded, and a file that would hold the key is refused), but the
prompts hold the passages retrieved for them: a cassette of a run with RESTRICTED clearance is
RESTRICTED too. The endpoint is not in the key: the same model behind another base URL replays
the same recordings.

The key is a hash of everything that shapes the reply plus the episode (case id and repeat
index, set by the eval runner with ``episode()``), so three repeats of a case are three
recordings, not one replayed three times.

Modes: ``replay`` plays a recording and records what is missing; ``record`` calls the model for
everything and overwrites; ``strict`` plays recordings only, and a miss is a
``CassetteMissError`` naming the case (the model is never built: no key, no SDK import).

A replayed reply was paid for once, when it was recorded: its usage is counted apart
(``replays()``), so a budget charges only the calls made now.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal

from ragspine.errors import CassetteMissError as CassetteMissError
from ragspine.errors import ProviderConfigError
from ragspine.llm.base import LLMProvider, ProviderResponse, ToolCall, probe

Mode = Literal["replay", "record", "strict"]
MODES: tuple[Mode, ...] = ("replay", "record", "strict")
CASSETTE_VERSION = 1

_episode: ContextVar[tuple[str, int] | None] = ContextVar("ragspine_episode", default=None)
_replays: ContextVar[dict[str, int] | None] = ContextVar("ragspine_replays", default=None)


@contextmanager
def episode(case_id: str, repeat: int = 0) -> Iterator[None]:
    """Calls made inside belong to this case and repeat (a key of their recordings)."""
    token = _episode.set((case_id, repeat))
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
    return _episode.get()


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
        ep = _episode.get()
        key = _key(request, ep)
        path = self.directory / _folder(ep) / f"{key[:16]}.json"
        if self.mode != "record" and path.is_file():
            response = _response(_load(path, key))
            counted = _replays.get()
            with self._lock:
                self.replayed += 1
                if counted is not None:
                    for name, n in response.usage.items():
                        counted[name] = counted.get(name, 0) + n
            return response
        if self.mode == "strict":
            case = f"case {ep[0]} (repeat {ep[1]})" if ep else "this question"
            raise CassetteMissError(
                f"{self.directory}: no recording for {case}, key {key[:16]}: the request differs "
                "from the recorded one; record it again with --cassette-mode replay or record"
            )
        try:
            model = self._provider()
        except ProviderConfigError as exc:  # the same for every case: the run stops on it
            case = f"case {ep[0]} (repeat {ep[1]})" if ep else "this question"
            raise ProviderConfigError(
                f"{self.directory}: no recording for {case}, and the model cannot be called to "
                f"record one: {exc}"
            ) from exc
        response = model.create_message(system=system, messages=messages, tools=tools)
        _save(path, key, ep, request, response)
        with self._lock:
            self.recorded += 1
        return response

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


def _key(request: dict[str, Any], ep: tuple[str, int] | None) -> str:
    material = {"request": request, "episode": list(ep) if ep else None}
    canonical = json.dumps(material, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _folder(ep: tuple[str, int] | None) -> str:
    return f"{ep[0]}.{ep[1]}" if ep else "_ask"


def _load(path: Path, key: str) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise CassetteMissError(f"{path}: not a readable recording: {exc}") from exc
    if not isinstance(data, dict) or data.get("key") != key:
        raise CassetteMissError(f"{path}: a recording of another request (its key differs)")
    if data.get("cassette_version") != CASSETTE_VERSION:
        raise CassetteMissError(
            f"{path}: cassette version {data.get('cassette_version')!r}, this ragspine reads "
            f"{CASSETTE_VERSION}"
        )
    return data


def _response(data: dict[str, Any]) -> ProviderResponse:
    try:
        reply = data["response"]
        return ProviderResponse(
            text=str(reply["text"]),
            tool_calls=[
                ToolCall(c["id"], c["name"], dict(c["input"])) for c in reply["tool_calls"]
            ],
            stop_reason=reply.get("stop_reason"),
            raw_content=list(reply.get("raw_content") or []),
            usage={k: int(v) for k, v in (reply.get("usage") or {}).items()},
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise CassetteMissError(f"a recording has a malformed response: {exc}") from exc


def _save(
    path: Path,
    key: str,
    ep: tuple[str, int] | None,
    request: dict[str, Any],
    response: ProviderResponse,
) -> None:
    data = {
        "cassette_version": CASSETTE_VERSION,
        "key": key,
        "episode": {"case": ep[0], "repeat": ep[1]} if ep else None,
        "request": request,
        "response": {
            "text": response.text,
            "tool_calls": [
                {"id": c.id, "name": c.name, "input": c.input} for c in response.tool_calls
            ],
            "stop_reason": response.stop_reason,
            "raw_content": response.raw_content,
            "usage": response.usage,
        },
    }
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
    secret = os.environ.get("ANTHROPIC_API_KEY", "")
    if len(secret) >= 8 and secret in text:
        raise ProviderConfigError(f"{path}: the recording would hold the API key; not written")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text, "utf-8")
    tmp.replace(path)
