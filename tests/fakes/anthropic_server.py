"""A fake Anthropic Messages API on 127.0.0.1, for driving the real ``anthropic`` SDK offline.

Replies are scripted (status, body, delay, headers) and served in order to POST /v1/messages;
every request is recorded so a test can assert what the SDK actually put on the wire. GET
/v1/models (the probe ``eval run`` sends before its first case) is answered with a list of models,
or ``models_reply``, and kept apart in ``probes``: counting ``requests`` counts model calls.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MESSAGES_PATH = "/v1/messages"
MODELS_PATH = "/v1/models"
LOG_PATH = "/_log"  # GET: when each POST arrived (time.monotonic, comparable across processes)


def local_client_env(empty_dir: str | os.PathLike[str]) -> dict[str, str]:
    """Env vars for an SDK client that only talks plain HTTP to the fake.

    NO_PROXY keeps a developer's HTTP(S)_PROXY from capturing the calls. SSL_CERT_DIR at an
    empty directory skips loading the system CA bundle, ~50 ms per client; it only takes
    effect when SSL_CERT_FILE is unset, so callers must drop that.
    """
    local = "127.0.0.1,localhost"
    return {"NO_PROXY": local, "no_proxy": local, "SSL_CERT_DIR": os.fspath(empty_dir)}


# --------------------------------------------------------------------------------------------
# Response bodies in the Messages API shape
# --------------------------------------------------------------------------------------------


def _message(
    content: list[dict[str, Any]],
    stop_reason: str,
    *,
    model: str,
    input_tokens: int,
    output_tokens: int,
    msg_id: str,
) -> dict[str, Any]:
    return {
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
    }


def text_message(
    text: str,
    *,
    model: str = "claude-test",
    input_tokens: int = 10,
    output_tokens: int = 5,
    msg_id: str = "msg_fake_text",
) -> dict[str, Any]:
    """A complete assistant reply with one text block."""
    return _message(
        [{"type": "text", "text": text}],
        "end_turn",
        model=model,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        msg_id=msg_id,
    )


def tool_use_message(
    name: str,
    tool_input: Any,
    *,
    tool_id: str = "toolu_fake_01",
    text: str | None = None,
    model: str = "claude-test",
    input_tokens: int = 20,
    output_tokens: int = 8,
    msg_id: str = "msg_fake_tool",
) -> dict[str, Any]:
    """An assistant turn that calls one tool (optionally after some text).

    ``tool_input`` is not checked, so a test can send a malformed one.
    """
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    content.append({"type": "tool_use", "id": tool_id, "name": name, "input": tool_input})
    return _message(
        content,
        "tool_use",
        model=model,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        msg_id=msg_id,
    )


_MODELS = {
    "data": [
        {
            "type": "model",
            "id": "claude-test",
            "display_name": "Claude (fake)",
            "created_at": "2026-01-01T00:00:00Z",
        }
    ],
    "has_more": False,
    "first_id": "claude-test",
    "last_id": "claude-test",
}


def error_body(error_type: str, message: str) -> dict[str, Any]:
    """The API's error envelope, e.g. ``error_body("rate_limit_error", "slow down")``."""
    return {"type": "error", "error": {"type": error_type, "message": message}}


# --------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    """One scripted reply. ``body`` as dict/list is sent as JSON; bytes/str go out verbatim."""

    status: int = 200
    body: Any = b""
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)

    def encoded(self) -> tuple[bytes, dict[str, str]]:
        headers = {k.lower(): v for k, v in self.headers.items()}
        if isinstance(self.body, bytes):
            data = self.body
        elif isinstance(self.body, str):
            data = self.body.encode("utf-8")
        else:
            data = json.dumps(self.body, ensure_ascii=False).encode("utf-8")
        headers.setdefault("content-type", "application/json")
        return data, headers


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    raw: bytes
    body: Any  # the parsed JSON, or None if the body was not JSON
    at: float = field(default_factory=time.monotonic)  # when it arrived


class FakeAnthropicServer:
    """A ThreadingHTTPServer in a background thread; use as a context manager or start/stop."""

    def __init__(self, responder: Callable[[RecordedRequest], Reply] | None = None) -> None:
        """``responder`` answers every request the script does not (a model played by code)."""
        self.responder = responder
        self._lock = threading.Lock()
        self._replies: deque[Reply] = deque()
        self._requests: list[RecordedRequest] = []
        self._probes: list[RecordedRequest] = []
        self.models_reply: Reply | None = None  # the answer to GET /v1/models, if not a list
        self._stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        self.exhausted = 0  # requests that arrived after the script ran out
        self._outage: tuple[float, Reply] | None = None  # (until, the reply meanwhile)
        self._httpd = _Server(("127.0.0.1", 0), _Handler, self)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def probes(self) -> list[RecordedRequest]:
        """The GET /v1/models requests, apart from the model calls."""
        with self._lock:
            return list(self._probes)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._replies)

    def push(
        self,
        status: int = 200,
        body: Any = b"",
        *,
        delay: float = 0.0,
        headers: dict[str, str] | None = None,
    ) -> FakeAnthropicServer:
        """Queue one reply; returns self so calls chain."""
        return self.script(Reply(status, body, delay, dict(headers or {})))

    def script(self, *replies: Reply | dict[str, Any]) -> FakeAnthropicServer:
        """Queue replies; a bare dict is a 200 JSON body."""
        with self._lock:
            for r in replies:
                self._replies.append(r if isinstance(r, Reply) else Reply(200, r))
        return self

    def outage(self, seconds: float, status: int = 500) -> FakeAnthropicServer:
        """For the next ``seconds``, every request gets ``status`` (the script waits)."""
        kind = {429: "rate_limit_error", 529: "overloaded_error"}.get(status, "api_error")
        reply = Reply(status, error_body(kind, "fake: outage"))
        with self._lock:
            self._outage = (time.monotonic() + seconds, reply)
        return self

    def start(self) -> FakeAnthropicServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes handlers sleeping in a scripted delay
        if self._thread.is_alive():  # shutdown() would wait forever for a loop never started
            self._httpd.shutdown()
        with self._lock:
            conns = list(self._connections)
        for conn in conns:  # keep-alive handlers would otherwise block on the next read
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeAnthropicServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # Called from handler threads.
    def _record(self, req: RecordedRequest) -> Reply | None:
        with self._lock:
            if req.method == "GET" and req.path == LOG_PATH:  # for a benchmark in another process
                at = [r.at for r in self._requests if r.method == "POST"]
                return Reply(200, {"at": at})
            if req.method == "GET" and req.path.split("?", 1)[0] == MODELS_PATH:
                self._probes.append(req)
                return self.models_reply or Reply(200, _MODELS)
            self._requests.append(req)
            if req.method != "POST" or req.path.split("?", 1)[0] != MESSAGES_PATH:
                return Reply(404, error_body("not_found_error", f"fake: no route {req.path}"))
            if self._outage is not None and time.monotonic() < self._outage[0]:
                return self._outage[1]
            if self._replies:
                return self._replies.popleft()
            if self.responder is not None:
                return self.responder(req)
            self.exhausted += 1
            return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, addr: tuple[str, int], handler: type, fake: FakeAnthropicServer) -> None:
        self.fake = fake
        super().__init__(addr, handler)

    def get_request(self) -> tuple[socket.socket, Any]:
        conn, addr = super().get_request()
        # Without this, Nagle + delayed ACK add ~40 ms to every response.
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.fake._lock:
            self.fake._connections.add(conn)
        return conn, addr

    def shutdown_request(self, request: Any) -> None:
        with self.fake._lock:
            self.fake._connections.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that timed out and hung up is expected, not a failure of the fake.
        pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's connection pool expects
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _serve(self) -> None:
        fake = self.server.fake
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        req = RecordedRequest(
            method=self.command,
            path=self.path,
            headers={k.lower(): v for k, v in self.headers.items()},
            raw=raw,
            body=body,
        )
        reply = fake._record(req)
        if reply is None:
            n = len(fake.requests)
            reply = Reply(
                500,
                error_body("api_error", f"fake_anthropic: script ran out at request #{n}"),
                # Do not let the SDK retry into the same empty script.
                headers={"x-should-retry": "false"},
            )
        if reply.delay and fake._stopping.wait(reply.delay):
            return
        data, headers = reply.encoded()
        self.send_response(reply.status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_POST = _serve
    do_GET = _serve
