"""A cassette through its seam: a model that gives new tool-use ids on every call is recorded
twice into the same files with the same bytes; a strict miss names the case, the turn and the
first field that differs; pruning keeps only what a run used; a format-1 cassette still plays."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from ragspine.errors import CassetteMissError
from ragspine.llm import CassetteProvider, MockProvider, ProviderResponse, episode
from ragspine.llm.cassette_keys import request_key
from ragspine.llm.prompts import STRUCTURED_SYSTEM

QUESTION = "中国内地FY2024的REVENUE是多少\n\n[slots] metric=REVENUE entity=ACME_CN period=FY2024"
_ids = itertools.count(1)


class FreshIds:
    """The mock, with the id a live API gives: new on every call."""

    def __init__(self) -> None:
        self._mock = MockProvider()
        self.calls = 0

    def create_message(self, **kwargs: object) -> ProviderResponse:
        self.calls += 1
        reply = self._mock.create_message(**kwargs)  # type: ignore[arg-type]
        if not reply.tool_calls:
            return reply
        fresh = f"toolu_01Live{next(_ids):08d}"
        call = reply.tool_calls[0]
        raw = [{**reply.raw_content[0], "id": fresh}]
        return ProviderResponse(
            "", [type(call)(fresh, call.name, call.input)], "tool_use", raw, reply.usage
        )


def _tape(folder: Path, mode: str, model: FreshIds | None = None) -> CassetteProvider:
    def build() -> FreshIds:
        assert model is not None, "strict replay built the model"
        return model

    return CassetteProvider(folder, mode, model_id="anthropic:m", params={}, build=build)  # type: ignore[arg-type]


def _converse(tape: CassetteProvider, case: str, repeat: int = 0, lineage: str = "a" * 64) -> str:
    """Two turns as the agent takes them: the tool call, then the answer from its result."""
    tools: list[dict[str, object]] = [{"name": "query_metric", "input_schema": {}}]
    messages: list[dict[str, object]] = [{"role": "user", "content": QUESTION}]
    with episode(case, repeat):
        first = tape.create_message(system=STRUCTURED_SYSTEM, messages=messages, tools=tools)
        call = first.tool_calls[0]
        result = {
            "status": "found",
            "value": 1320,
            "unit": "USD_M",
            "metric_code": "REVENUE",
            "entity": "ACME_CN",
            "period": "2024",
            "lineage": {"source_file_hash": lineage},
        }
        messages += [
            {"role": "assistant", "content": first.raw_content},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": call.id, "content": json.dumps(result)}
                ],
            },
        ]
        return tape.create_message(system=STRUCTURED_SYSTEM, messages=messages, tools=tools).text


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.json"))}


def test_recording_again_rewrites_the_same_files_whatever_ids_the_model_gave(
    tmp_path: Path,
) -> None:
    model = FreshIds()
    _converse(_tape(tmp_path, "record", model), "cn")
    first = _files(tmp_path)
    assert sorted(first) == ["cn.0/turn-0.json", "cn.0/turn-1.json"]
    _converse(_tape(tmp_path, "record", model), "cn")
    assert model.calls == 4  # record mode called the model again for both turns
    assert _files(tmp_path) == first  # same names, same bytes: the ids were numbered
    recording = json.loads(first["cn.0/turn-1.json"])
    assert recording["format"] == 2 and recording["id"] == "cn.0/turn-1"
    assert recording["request"]["messages"][2]["content"][0]["tool_use_id"] == "toolu_1"


def test_a_rebuilt_source_file_replays_the_same_recording(tmp_path: Path) -> None:
    model = FreshIds()
    answer = _converse(_tape(tmp_path, "record", model), "cn", lineage="a" * 64)
    strict = _tape(tmp_path, "strict")
    assert _converse(strict, "cn", lineage="b" * 64) == answer  # another hash, the same request
    assert strict.replayed == 2 and model.calls == 2


def test_a_strict_miss_names_the_case_the_turn_and_the_first_field_that_differs(
    tmp_path: Path,
) -> None:
    _converse(_tape(tmp_path, "record", FreshIds()), "cn")
    path = tmp_path / "cn.0" / "turn-1.json"
    recording = json.loads(path.read_text("utf-8"))
    result = recording["request"]["messages"][2]["content"][0]
    result["content"] = result["content"].replace("1320", "1321")  # a stale recording
    path.write_text(json.dumps(recording), "utf-8")
    with pytest.raises(CassetteMissError) as miss:
        _converse(_tape(tmp_path, "strict"), "cn")
    message = str(miss.value)
    assert message.startswith("strict replay missed case cn (repeat 0), turn 1: ")
    assert "at messages[2].content[0].content: recorded " in message
    assert "1321" in message and "1320" in message and "record it again" in message
    assert "--retry-errors" not in message


def test_a_replay_records_what_differs_in_place(tmp_path: Path) -> None:
    model = FreshIds()
    _converse(_tape(tmp_path, "record", model), "cn", lineage="a" * 64)
    before = _files(tmp_path)
    path = tmp_path / "cn.0" / "turn-1.json"
    path.write_text(path.read_text("utf-8").replace("1320", "1321"), "utf-8")
    replay = _tape(tmp_path, "replay", model)
    _converse(replay, "cn")
    assert (replay.replayed, replay.recorded) == (1, 1)
    after = _files(tmp_path)
    assert sorted(after) == sorted(before)  # the stale turn rewritten, under its own name
    assert after["cn.0/turn-0.json"] == before["cn.0/turn-0.json"]  # what matched is untouched
    request = json.loads(after["cn.0/turn-1.json"])["request"]
    assert request == json.loads(before["cn.0/turn-1.json"])["request"]


def test_prune_keeps_what_the_run_used_and_the_cases_that_errored(tmp_path: Path) -> None:
    model = FreshIds()
    setup = _tape(tmp_path, "record", model)
    for case in ("kept", "gone", "failed"):
        _converse(setup, case)
    (tmp_path / "kept.0" / "turn-7.json").write_text("{}", "utf-8")  # a turn no longer reached
    run = _tape(tmp_path, "replay", model)
    _converse(run, "kept")
    assert run.prune(keep={("failed", 0)}) == 3
    assert sorted(_files(tmp_path)) == [
        "failed.0/turn-0.json",
        "failed.0/turn-1.json",
        "kept.0/turn-0.json",
        "kept.0/turn-1.json",
    ]
    assert _tape(tmp_path, "strict").prune() == 0  # strict never deletes


def _format_1(folder: Path, request: dict[str, object], response: dict[str, object]) -> Path:
    """A recording as ragspine wrote them before format 2: named by a hash of the raw request."""
    key = request_key(request)
    path = folder / "cn.0" / f"{key[:16]}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "cassette_version": 1,
        "key": key,
        "episode": {"case": "cn", "repeat": 0},
        "request": request,
        "response": response,
    }
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    return path


def test_a_format_1_cassette_plays_and_a_replay_writes_it_anew(tmp_path: Path) -> None:
    old = tmp_path / "old"
    _converse(_tape(old, "record", FreshIds()), "cn", lineage="c" * 64)
    written: list[Path] = []
    for path in sorted(old.rglob("turn-*.json")):  # the same calls, as format 1 stored them
        data = json.loads(path.read_text("utf-8"))
        written.append(_format_1(tmp_path / "tape", data["request"], data["response"]))
    strict = _tape(tmp_path / "tape", "strict")
    answer = _converse(strict, "cn")
    assert strict.replayed == 2 and not list((tmp_path / "tape").rglob("turn-*.json"))
    replay = _tape(tmp_path / "tape", "replay")
    assert _converse(replay, "cn") == answer and replay.recorded == 0
    assert replay.prune() == 2 and not any(p.exists() for p in written)
    assert _files(tmp_path / "tape") == _files(old)  # migrated: format 2, byte for byte


def test_a_newer_format_is_refused_clearly(tmp_path: Path) -> None:
    (tmp_path / "cn.0").mkdir()
    (tmp_path / "cn.0" / "turn-0.json").write_text('{"format": 3}', "utf-8")
    with pytest.raises(CassetteMissError, match="format 3 was written by a newer ragspine"):
        _converse(_tape(tmp_path, "strict"), "cn")
