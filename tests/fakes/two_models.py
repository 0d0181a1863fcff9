"""Two models behind one fake Messages API: a careful one and a sloppy one.

The careful model is the offline ``MockProvider`` speaking the Messages API's JSON. The sloppy
one starts from the same reply and, deterministically by the question, does what careless
models do: it skips the tool and states a figure from memory, adds an invented growth rate to a
cited summary, or paraphrases the passage it cites until the facts are gone. The model a request
names (``careful-…`` or ``sloppy-…``) picks which one answers, so one server plays both.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from ragspine.errors import ProviderMisuseError
from ragspine.llm import MockProvider, ProviderResponse
from tests.fakes.anthropic_server import RecordedRequest, Reply, error_body

_MOCK = MockProvider()
_CITED = re.compile(r"^(.*?)(\(来源:[^)]*\))\s*$")


def reply(req: RecordedRequest, *, delay: float = 0.0) -> Reply:
    """The Messages API reply of the model the request names."""
    body = req.body if isinstance(req.body, dict) else {}
    model = str(body.get("model", ""))
    try:
        response = _MOCK.create_message(
            system=str(body.get("system", "")),
            messages=list(body.get("messages") or []),
            tools=list(body.get("tools") or []),
        )
    except ProviderMisuseError as exc:
        return Reply(400, error_body("invalid_request_error", str(exc)), delay=delay)
    if model.startswith("sloppy"):
        response = _sloppy(response, body)
    return Reply(200, _message(response, model), delay=delay)


def _bucket(body: dict[str, Any]) -> int:
    """0, 1 or 2: which mistake the sloppy model makes for this conversation's question."""
    first = (body.get("messages") or [{}])[0].get("content", "")
    digest = hashlib.sha256(str(first).encode("utf-8")).digest()
    return digest[0] % 3


def _sloppy(response: ProviderResponse, body: dict[str, Any]) -> ProviderResponse:
    bucket = _bucket(body)
    if response.tool_calls:
        if bucket == 0:  # answers from memory instead of calling the tool
            return _text("据我所知，这个数字大约是 8,888 百万美元，同比增长约 12.5%。")
        return response
    lines = [ln for ln in response.text.splitlines() if ln.strip()]
    if not lines or not all(_CITED.match(ln) for ln in lines):
        return response  # a rendered tool result or a rerank: left as the careful model says
    if bucket == 0:  # an invented figure, cited to a real passage
        cite = _CITED.match(lines[0]).group(2)  # type: ignore[union-attr]
        lines.append(f"相比上年，这一项增长了约 23.7%，预计明年再增 15%{cite}")
    elif bucket == 1:  # a paraphrase that keeps the citation and loses the facts
        lines = [f"{_gist(m.group(1))}{m.group(2)}" for ln in lines if (m := _CITED.match(ln))]
    return _text("\n".join(lines))


def _gist(sentence: str) -> str:
    """A loose paraphrase: the first few characters, then 'and so on'."""
    return sentence[:6].rstrip("，,、 ") + "等情况有所变化。"


def _text(text: str) -> ProviderResponse:
    return ProviderResponse(
        text=text,
        stop_reason="end_turn",
        raw_content=[{"type": "text", "text": text}],
        usage={"input_tokens": 50, "output_tokens": len(text) // 2},
    )


def _message(response: ProviderResponse, model: str) -> dict[str, Any]:
    content = response.raw_content or [{"type": "text", "text": response.text}]
    return {
        "id": "msg_two_models",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": response.stop_reason or "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": response.usage.get("input_tokens", 0),
            "output_tokens": response.usage.get("output_tokens", 0),
        },
    }
