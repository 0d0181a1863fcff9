"""One answer, one record: `POST /v1/ask` on a real server and `ragspine ask --json` give the same
AnswerRecord for the same question (a FAQ hit, a figure, a composite answer), and the service's
OpenAPI document is generated from it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from ragspine.agent.record import RECORD_VERSION, AnswerRecord
from tests.cli import invoke
from tests.pg_stores import Place
from tests.service.conftest import Service, faq_items

REF = "2025-06-30"


def _comparable(record: dict[str, Any]) -> dict[str, Any]:
    """Everything but what differs by nature between two askings: the id, the timings and,
    on PostgreSQL, how the service pinned the stores' generations (the code ``generations``,
    ``pinning``: the CLI reads its stores as they are and pins nothing)."""
    trace = {k: v for k, v in record["trace"].items() if k != "timings_ms"}
    codes = {k: v for k, v in trace["codes"].items() if k != "generations"}
    return {**record, "request_id": None, "trace": {**trace, "codes": codes}}


@pytest.mark.parametrize(
    ("question", "route"),
    [
        ("退货政策是什么?", "faq"),
        ("中国内地FY2024的REVENUE是多少", "structured"),
        ("为什么中国内地FY2024收入下降?", "composite"),
    ],
)
def test_the_service_and_the_cli_give_one_record(
    service: Service,
    demo_db: Path,
    demo_corpus: Path,
    place: Place,
    question: str,
    route: str,
) -> None:
    r = service.ask({"question": question, "reference_date": REF})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["schema_version"] == RECORD_VERSION and body["route"] == route
    assert body["request_id"] == r.headers["x-request-id"]
    assert AnswerRecord.model_validate(body).model_dump(mode="json") == body

    faq = place("faq.db")
    faq_items(faq)  # the same items as the server's, under the same ids
    out = invoke(
        "ask", "--json", "--db", str(demo_db), "--corpus", str(demo_corpus), "--faq", str(faq),
        "--reference-date", REF, question,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert _comparable(json.loads(out.stdout)) == _comparable(body)

    # The trace is codes, counts, flags, ids and timings: never the question or the answer.
    trace = json.dumps(body["trace"], ensure_ascii=False)
    assert trace.isascii() and body["answer"][:8] not in trace
    assert "model_text" not in r.text


def test_the_openapi_document_describes_the_record(service: Service) -> None:
    spec = httpx.get(f"{service.url}/openapi.json").json()
    ok = spec["paths"]["/v1/ask"]["post"]["responses"]["200"]["content"]["application/json"]
    assert ok["schema"] == {"$ref": "#/components/schemas/AnswerRecord"}
    schemas = spec["components"]["schemas"]
    record = schemas["AnswerRecord"]
    assert set(record["properties"]) == set(AnswerRecord.model_fields)
    assert set(record["required"]) == set(AnswerRecord.model_fields)  # always all present
    assert record["properties"]["route"]["enum"] == ["structured", "narrative", "composite", "faq"]
    # tool results are typed by their status, a derived metric's operands included
    assert set(schemas["Found"]["properties"]) >= {"value", "unit", "source", "operands"}
    assert "AskResponse" not in schemas


def test_the_record_refuses_text_in_its_trace() -> None:
    record = {
        "request_id": "r1",
        "question": "退货政策是什么?",
        "answer": "七天内可退货。",
        "route": "faq",
        "clarification": {"mode": "none"},
    }
    assert AnswerRecord.model_validate(record).schema_version == RECORD_VERSION
    for trace in ({"codes": {"route": "七天内可退货。"}}, {"ids": {"chunk_ids": ["七天 内"]}}):
        with pytest.raises(ValidationError):
            AnswerRecord.model_validate({**record, "trace": trace})


def test_a_version_1_record_still_reads() -> None:
    # declined_kind (version 2) and language (version 3) are add-only: a record written before
    # them validates, each unstated
    record = {
        "schema_version": 1,
        "request_id": "r1",
        "question": "香港2024年坪效是多少?",
        "answer": "「坪效」不在事实表中",
        "route": "structured",
        "clarification": {"mode": "ask_first", "declined": "坪效"},
    }
    read = AnswerRecord.model_validate(record)
    assert (read.clarification.declined, read.clarification.declined_kind) == ("坪效", None)
    assert read.language is None
    assert RECORD_VERSION == 3
