"""A cassette's key is the request as the model sees it: what changes between two runs of the
same question (ids, hashes, clocks, paths) is normalised away; anything the model reads that
changed is a different request, and the first place it differs is named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ragspine.llm.cassette_keys import first_difference, normalise, request_key

HEX = "975cdb82fa531f736f499a6d718fda709b2234eeaee58f629ecdb8507cbc767b"


def _conversation(call_id: str, result: str) -> dict[str, Any]:
    return {
        "model": "anthropic:m",
        "system": "s",
        "messages": [
            {"role": "user", "content": "问题"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": call_id, "name": "q"}]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": call_id, "content": result}],
            },
        ],
    }


def test_the_models_tool_use_ids_are_numbered_by_position() -> None:
    first = normalise(_conversation("toolu_01A09q90qw90lq917835lq9", "1320"))
    again = normalise(_conversation("toolu_01Zz8Yy7Xx6Ww5Vv4Uu3Tt2Ss", "1320"))
    assert first == again
    assert first["messages"][1]["content"][0]["id"] == "toolu_1"
    assert first["messages"][2]["content"][0]["tool_use_id"] == "toolu_1"
    assert request_key(first, ["c", 0]) == request_key(again, ["c", 0])
    assert request_key(first, ["c", 0]) != request_key(first, ["c", 1])  # another episode


@pytest.mark.parametrize(
    ("volatile", "placeholder"),
    [
        # a source file's hash in a fact's lineage, inside the tool result's JSON text
        (json.dumps({"lineage": {"source_file_hash": HEX}}), "<hash>"),
        # a chunk's content hash with its algorithm prefix
        (f"sha256:{HEX}/chunker-1", "<hash>/chunker-1"),
        # a run id as `eval run` makes them
        ("run 20260101T120000Z-1a2b3c4d", "<run-id>"),
        # a UUID
        ("id 123e4567-e89b-12d3-a456-426614174000", "<uuid>"),
        # an ISO timestamp with a time of day and a zone
        ("at 2026-11-26T08:48:01.123+08:00", "<timestamp>"),
        # a compact timestamp
        ("reports/run-20260101T120000Z", "<timestamp>"),
        # an absolute POSIX path: the folders go, the file name stays
        ("/tmp/pytest-7/data/demo_files/ACME_FY2024_Review.pptx", "<path>/ACME_FY2024_Review.pptx"),
        # a Windows path
        (r"C:\Users\me\data\a.pptx", "<path>\\a.pptx"),
    ],
)
def test_volatile_text_is_normalised(volatile: str, placeholder: str) -> None:
    got = normalise({"messages": [{"role": "user", "content": volatile}]})
    assert placeholder in got["messages"][0]["content"]


@pytest.mark.parametrize(
    "kept",
    [
        "2024-12-31",  # a date alone is data: a reference date or a period end
        "收入/利润 FY2024",  # a slash in prose is no path
        "/v1/ask",  # a route of one folder is no machine's path
        "https://api.example.com/v1/messages/x",  # a URL keeps its path
        "acme-demo@ed7bcf26dbed",  # a short digest (a profile version) is content
        "1320.0 百万美元 2024Q3",  # figures and periods
    ],
)
def test_content_is_kept_as_it_is(kept: str) -> None:
    assert normalise({"system": kept})["system"] == kept


@pytest.mark.parametrize(
    ("recorded", "now", "where"),
    [
        # a changed tool result, inside its text
        (
            _conversation("a", '{"value": 33.6, "unit": "PCT"}'),
            _conversation("b", '{"value": 35.1, "unit": "PCT"}'),
            "messages[2].content[0].content",
        ),
        # a changed question
        ({"messages": [{"content": "香港收入"}]}, {"messages": [{"content": "台湾收入"}]},
         "messages[0].content"),
        # another model
        ({"model": "anthropic:a", "messages": []}, {"model": "anthropic:b", "messages": []},
         "model"),
        # a turn more than the recording had
        ({"messages": [1]}, {"messages": [1, 2]}, "messages[1]"),
    ],
)  # fmt: skip
def test_the_first_difference_is_named_by_its_path(
    recorded: dict[str, Any], now: dict[str, Any], where: str
) -> None:
    found = first_difference(normalise(recorded), normalise(now))
    assert found is not None and found[0] == where


def test_the_two_values_are_cut_around_where_they_differ() -> None:
    before = "前言" * 40 + "收入 1320 百万美元" + "后记" * 40
    after = "前言" * 40 + "收入 1321 百万美元" + "后记" * 40
    found = first_difference({"system": before}, {"system": after})
    assert found is not None
    where, was, now = found
    assert where == "system" and len(was) < 60 and len(now) < 60
    assert "1320" in was and "1321" in now and was.startswith('"…')


def test_equal_requests_have_no_difference() -> None:
    request = normalise(_conversation("toolu_x", HEX))
    assert first_difference(request, json.loads(json.dumps(request))) is None
