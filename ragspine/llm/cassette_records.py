"""A cassette's files: one recording a file, a versioned model with a stable id.

Format 2 (this one): ``{"format": 2, "id": "<case>.<repeat>/turn-<n>", "episode": …,
"request": <the normalised request>, "response": …}`` at ``DIR/<case>.<repeat>/turn-<n>.json``,
``n`` counting the model calls of that case and repeat from 0. The name and the id depend on
the case and the turn alone, so recording a case again rewrites the same files. The request is
stored normalised (``cassette_keys``) and the reply's tool-use ids are stored numbered the way
the next request's will be (``toolu_<n>``): a reply recorded again unchanged writes the same
bytes. Calls outside an eval case (``ragspine ask``) go to ``_ask/<key>.json``.

Format 1 (ragspine before format 2: ``cassette_version: 1``, files named by a hash of the raw
request) is read compatibly: in an episode's folder, a format-1 recording whose request,
normalised, is the request now is played; a replay or record run writes it again in format 2,
and a whole-suite run then prunes the old file. A format newer than this one is refused with a
clear error (written by a newer ragspine).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from ragspine.errors import CassetteMissError, ProviderConfigError
from ragspine.llm.base import ProviderResponse, ToolCall
from ragspine.llm.cassette_keys import TOOL_ID_PREFIX

FORMAT = 2


class Episode(BaseModel):
    model_config = ConfigDict(extra="forbid")
    case: str
    repeat: int
    turn: int | None = None  # None in a format-1 recording


class Call(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str
    input: dict[str, Any]


class Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    tool_calls: list[Call] = []
    stop_reason: str | None = None
    raw_content: list[dict[str, Any]] = []
    usage: dict[str, int] = {}

    @classmethod
    def of(cls, response: ProviderResponse, first_id: int) -> Reply:
        """The reply with its tool-use ids numbered from ``first_id`` (the next request's)."""
        ids = {c.id: f"{TOOL_ID_PREFIX}{first_id + i}" for i, c in enumerate(response.tool_calls)}
        raw = [
            {**b, "id": ids.get(b["id"], b["id"])} if b.get("type") == "tool_use" else b
            for b in response.raw_content
        ]
        calls = [Call(id=ids[c.id], name=c.name, input=c.input) for c in response.tool_calls]
        return cls(
            text=response.text,
            tool_calls=calls,
            stop_reason=response.stop_reason,
            raw_content=raw,
            usage=response.usage,
        )

    def response(self) -> ProviderResponse:
        return ProviderResponse(
            text=self.text,
            tool_calls=[ToolCall(c.id, c.name, dict(c.input)) for c in self.tool_calls],
            stop_reason=self.stop_reason,
            raw_content=[dict(b) for b in self.raw_content],
            usage=dict(self.usage),
        )


class Recording(BaseModel):
    """Format 2: one model call of one case's turn, or of an `ask`."""

    model_config = ConfigDict(extra="forbid")
    format: Literal[2] = 2
    id: str
    episode: Episode | None
    request: dict[str, Any]
    response: Reply


class RecordingV1(BaseModel):
    """Format 1, read only: the raw request, keyed by a hash of it."""

    model_config = ConfigDict(extra="ignore")
    cassette_version: Literal[1]
    key: str
    episode: Episode | None
    request: dict[str, Any]
    response: Reply


def read(path: Path) -> Recording | RecordingV1:
    """The recording in ``path``, of either format; a clear error for anything else."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise CassetteMissError(f"{path}: not a readable recording: {exc}") from exc
    if not isinstance(data, dict):
        raise CassetteMissError(f"{path}: not a recording (a JSON object is expected)")
    version = data.get("format", data.get("cassette_version"))
    if isinstance(version, int) and version > FORMAT:
        raise CassetteMissError(
            f"{path}: cassette format {version} was written by a newer ragspine; this one reads "
            f"formats 1 and {FORMAT}: upgrade ragspine, or record the cassette again"
        )
    try:
        if version == FORMAT:
            return Recording.model_validate(data)
        if version == 1:
            return RecordingV1.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise CassetteMissError(f"{path}: a malformed recording: {where}: {first['msg']}") from exc
    raise CassetteMissError(f"{path}: not a recording (no cassette format)")


def write(path: Path, recording: Recording) -> None:
    """Write atomically, sorted and indented (a pull request shows what changed); refused when
    it would hold the API key."""
    text = json.dumps(
        recording.model_dump(mode="json"), sort_keys=True, ensure_ascii=False, indent=2
    )
    text += "\n"
    secret = os.environ.get("ANTHROPIC_API_KEY", "")
    if len(secret) >= 8 and secret in text:
        raise ProviderConfigError(f"{path}: the recording would hold the API key; not written")
    if path.is_file() and path.read_text("utf-8") == text:
        return  # the same recording: the file (and its time) stay as they are
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text, "utf-8")
    tmp.replace(path)
