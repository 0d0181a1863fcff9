"""The request schema fuzzed over real HTTP: whatever JSON (or bytes) arrives, the service
answers with a result or a problem, never a server error."""

from __future__ import annotations

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.service.conftest import Service

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=50),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "question": st.text(max_size=300) | JSON,
        "reference_date": st.dates().map(str) | st.text(max_size=12) | JSON,
        "rerank": st.booleans() | JSON,
    },
)


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=FIELDS | JSON)
def test_no_json_body_makes_a_server_error(service: Service, body: object) -> None:
    r = service.ask(body)
    assert r.status_code < 500, (body, r.text)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=st.binary(max_size=400))
def test_no_bytes_make_a_server_error(service: Service, raw: bytes) -> None:
    r = httpx.post(
        f"{service.url}/v1/ask",
        content=raw,
        headers={"X-API-Key": service.keys["INTERNAL"], "content-type": "application/json"},
    )
    assert r.status_code < 500, (raw, r.text)
