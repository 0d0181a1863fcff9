"""`ragspine serve` driven over real HTTP: each route, the FAQ short-circuit and each of its
exclusions, keys and clearance, a provider outage, and bad input of every kind."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ragspine.engine import Engine
from tests.service.conftest import POLICY, Service, running

REF = "2025-06-30"
SEED_QUESTION = "中国内地FY2024的REVENUE是多少"


def test_health_readiness_and_the_openapi_document(service: Service) -> None:
    assert httpx.get(f"{service.url}/healthz").json() == {"status": "ok"}
    ready = httpx.get(f"{service.url}/readyz").json()
    assert ready["status"] == "ready" and ready["corpus"] is True
    assert set(ready) == {"status", "corpus", "ms"}  # no count of facts, items or keys
    spec = httpx.get(f"{service.url}/openapi.json").json()
    assert "/v1/ask" in spec["paths"]


def test_the_docs_page_loads_nothing_from_another_host(service: Service) -> None:
    """Offline, a page pointing at a CDN is blank: every script and style is served here."""
    page = httpx.get(f"{service.url}/docs")
    assert page.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert assets and all(a.startswith("/") and not a.startswith("//") for a in assets), assets
    for asset in assets:
        got = httpx.get(f"{service.url}{asset}")
        assert got.status_code == 200 and len(got.content) > 1000, asset
    assert "SwaggerUIBundle" in httpx.get(f"{service.url}/docs/assets/swagger-ui-bundle.js").text


def test_the_seeds_example_answers_with_its_source_unchanged(
    service: Service, demo_db: object, demo_corpus: object
) -> None:
    r = service.ask({"question": SEED_QUESTION, "reference_date": REF})
    assert r.status_code == 200 and r.headers["x-request-id"] == r.json()["request_id"]
    body = r.json()
    assert body["route"] == "structured" and "1,320 百万美元" in body["answer"]
    with Engine.open(demo_db, demo_corpus) as engine:  # type: ignore[arg-type]
        direct = engine.ask(SEED_QUESTION)
    assert body["sources"] == direct.sources  # carried through unchanged


def test_a_vetted_faq_item_answers_with_its_own_source(
    service: Service, faq_ids: dict[str, int]
) -> None:
    for question in (
        "退货政策是什么?",
        "退货政策是什么？",
        " 退貨政策是什麼 ",
    ):  # punctuation, 繁体
        body = service.ask({"question": question, "reference_date": REF}).json()
        assert body["route"] == "faq" and body["faq_id"] == faq_ids["hit"], question
        assert body["sources"] == [{"doc": POLICY, "locator": "section=1,para=1"}]
        assert body["answer"].startswith("hit: ")


@pytest.mark.parametrize(
    ("name", "question", "clearance"),
    [
        ("disabled", "换货政策是什么?", "INTERNAL"),  # switched off
        ("expired", "旧的会员政策是什么?", "INTERNAL"),  # valid until 2024-12-31
        ("future", "新的会员政策是什么?", "INTERNAL"),  # valid from 2099-01-01
        ("restricted", "青松项目的保密安排是什么?", "RESTRICTED"),  # never cached, any key
        ("internal", "员工手册在哪里下载?", "PUBLIC"),  # above the caller's clearance
        ("structured", "香港FY2024的收入是多少", "INTERNAL"),  # a figure: the fact table's
        ("competitor", "竞安的退货政策是什么?", "INTERNAL"),  # another company: refused
        ("realtime", "今天的退货政策是什么?", "INTERNAL"),  # about now
    ],
)
def test_each_exclusion_falls_through_to_the_engine(
    service: Service, name: str, question: str, clearance: str
) -> None:
    body = service.ask({"question": question, "reference_date": REF}, clearance=clearance).json()
    assert body["route"] != "faq" and body["faq_id"] is None
    assert not body["answer"].startswith(f"{name}:")
    assert "9999" not in body["answer"]
    if name == "competitor":
        assert body["clarification"]["mode"] == "out_of_scope_entity"
    if name == "structured":
        assert "455 百万美元" in body["answer"] and body["sources"]


@pytest.mark.parametrize(
    ("headers", "detail"),
    [
        ({}, "no API key"),  # nothing sent
        ({"Authorization": "Bearer rsk_not-a-key"}, "unknown API key"),  # a wrong key
        ({"X-API-Key": ""}, "no API key"),  # an empty one
        ({"Authorization": "Basic dXNlcjpwYXNz"}, "no API key"),  # another scheme
    ],
)
def test_no_or_a_wrong_key_is_401(service: Service, headers: dict[str, str], detail: str) -> None:
    r = httpx.post(f"{service.url}/v1/ask", json={"question": SEED_QUESTION}, headers=headers)
    assert r.status_code == 401 and r.headers["content-type"] == "application/problem+json"
    assert r.json()["detail"] == detail and r.headers["www-authenticate"] == "Bearer"


def test_clearance_comes_from_the_key_never_from_the_body(service: Service) -> None:
    question = {"question": "董事会对青松项目有什么决议?", "reference_date": REF}
    staff = service.ask(question, clearance="INTERNAL").json()
    board = service.ask(question, clearance="RESTRICTED").json()
    minutes = "ACME_Board_Minutes_2024Q4.md"
    assert minutes not in str(staff) and "青松项目" not in staff["answer"].replace(
        "青松项目有什么", ""
    )
    assert any(s["doc"] == minutes for s in board["sources"])
    claimed = service.ask({**question, "clearance": "RESTRICTED"}, clearance="INTERNAL")
    assert claimed.status_code == 422  # a clearance in the body is not a field at all
    assert minutes not in service.log.read_text("utf-8")  # nor in the access log


def test_a_provider_outage_degrades_with_no_number(outage: Service) -> None:
    body = outage.ask({"question": "为什么中国内地营收下降?", "reference_date": REF}).json()
    assert body["degraded"] == "provider_unavailable"
    assert not re.search(r"\d", body["answer"])


@pytest.mark.parametrize(
    ("content", "status", "detail"),
    [
        (b'{"question":', 422, "the body is not JSON"),  # malformed JSON
        (b'{"question": 42}', 422, "question: Input should be a valid string"),  # wrong type
        (b'{"question": ""}', 422, "question: String should have at least 1 character"),  # empty
        (b'{"question": "x", "reference_date": "yesterday"}', 422, "reference_date"),  # bad date
        (b'{"q": "x"}', 422, "question: Field required"),  # unknown field, none known
        (b"[]", 422, "Input should be a valid dictionary"),  # not an object
        (b'{"question": "' + b"x" * 20_000 + b'"}', 413, "over 16384 bytes"),  # too big
    ],
)
def test_bad_input_is_a_problem_not_a_crash(
    service: Service, content: bytes, status: int, detail: str
) -> None:
    r = httpx.post(
        f"{service.url}/v1/ask",
        content=content,
        headers={
            "Authorization": f"Bearer {service.keys['INTERNAL']}",
            "content-type": "application/json",
        },
    )
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert detail in r.json()["detail"] and "Traceback" not in r.text


@pytest.mark.parametrize(
    "question",
    [
        "中国内地FY2024的REVENUE是多少🙂",  # emoji
        "\u202e中国内地FY2024的REVENUE是多少\u202c",  # right-to-left override
        "e\u0301\u0301\u0301 revenue",  # stacked combining marks
        "\ufeff香港收入",  # a byte-order mark
        "   ",  # only spaces
        "\x00\x01",  # control characters
    ],
)
def test_unicode_edge_cases_never_crash(service: Service, question: str) -> None:
    r = service.ask({"question": question, "reference_date": REF})
    assert r.status_code in (200, 422), r.text


def test_a_caller_cannot_move_an_items_validity_window(service: Service) -> None:
    # "future" is valid from 2099-01-01 by the server's clock, whatever date the caller sends
    body = service.ask({"question": "新的会员政策是什么?", "reference_date": "2099-06-01"}).json()
    assert body["route"] != "faq"


def test_a_date_out_of_range_is_422_not_a_crash(service: Service) -> None:
    r = service.ask({"question": "去年收入是多少", "reference_date": "0001-01-01"})
    assert r.status_code == 422 and "reference_date" in r.json()["detail"]


def test_the_access_log_holds_no_question_and_no_forged_line(service: Service) -> None:
    marker = "一个只在这次提问里出现的问题"
    service.ask({"question": marker, "reference_date": REF})
    httpx.get(f"{service.url}/x%0AINFO:%20%20forged%20line%20status=200")
    big = httpx.post(
        f"{service.url}/v1/ask", content=b"x" * 20_000,
        headers={"X-API-Key": service.keys["INTERNAL"], "content-type": "application/json"},
    )  # fmt: skip
    assert big.status_code == 413 and big.headers["x-request-id"]
    last = f"{big.headers['x-request-id']} POST /v1/ask status=413"
    deadline = time.monotonic() + 30  # the access line is written after the response is sent
    while last not in service.log.read_text("utf-8") and time.monotonic() < deadline:
        time.sleep(0.05)
    log = service.log.read_text("utf-8")
    assert marker not in log
    assert not any(line.startswith("INFO:  forged") for line in log.splitlines())
    assert last in log


def test_a_question_the_engine_refuses_is_refused_before_the_cache(service: Service) -> None:
    r = service.ask({"question": "退货政策是什么?\u0000", "reference_date": REF})
    assert r.status_code == 422


def test_a_streamed_body_over_the_limit_is_413_too(service: Service) -> None:
    """Chunked, with no Content-Length to refuse up front: counted as it arrives, and refused
    with 413 once past the limit, not read to the end."""

    def chunks() -> Iterator[bytes]:
        yield b'{"question": "'
        for _ in range(40):
            yield b"x" * 1_000
        yield b'"}'

    r = httpx.post(
        f"{service.url}/v1/ask",
        content=chunks(),
        headers={
            "Authorization": f"Bearer {service.keys['INTERNAL']}",
            "content-type": "application/json",
        },
    )
    assert r.status_code == 413, r.text
    assert "over 16384 bytes" in r.json()["detail"]


@pytest.fixture(scope="module")
def impatient(
    tmp_path_factory: pytest.TempPathFactory, demo_db: Path, demo_corpus: Path
) -> Iterator[Service]:
    """The service with a 1 s request timeout."""
    with running(
        tmp_path_factory.mktemp("impatient"),
        demo_db,
        demo_corpus,
        extra=("--timeout", "1", "--body-timeout", "1"),
    ) as svc:
        yield svc


@pytest.mark.parametrize(
    "trickle",
    [
        False,  # declares 200 bytes, sends 20 and waits
        True,  # sends a byte every 0.2 s, never finishing inside the timeout
    ],
)
def test_a_body_that_stops_arriving_is_408_not_a_held_connection(
    impatient: Service, trickle: bool
) -> None:
    host, port = impatient.url.removeprefix("http://").split(":")
    head = (
        "POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {impatient.keys['INTERNAL']}\r\nContent-Length: 200\r\n\r\n"
    )
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(head.encode() + b'{"question": "')
        reply = b""
        conn.settimeout(0.2)
        deadline = time.monotonic() + 30  # the service answers after 1 s
        while time.monotonic() < deadline:
            if trickle and not reply:
                conn.sendall(b"x")
            try:
                piece = conn.recv(4096)
            except TimeoutError:
                continue
            except ConnectionResetError:
                break
            if not piece:
                break  # closed after the answer: the connection is not held
            reply += piece
    status, _, rest = reply.partition(b"\r\n")
    assert status == b"HTTP/1.1 408 Request Timeout", reply
    body = json.loads(rest.partition(b"\r\n\r\n")[2])
    assert body["detail"] == "the request body did not arrive within 1 s"
    assert httpx.get(f"{impatient.url}/healthz").status_code == 200  # and it still serves
