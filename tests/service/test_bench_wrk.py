"""The service bench's wrk generator: its Lua carries the body and headers byte for byte, its
result is read from the script's last line, it loads a server with kept-alive connections, and
the bench falls back to the Python generator, saying so in one line, where wrk is absent."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from benchmarks import service_wrk
from benchmarks.service_bench import generator


@pytest.mark.parametrize(
    ("text", "lua"),
    [
        ("abc", '"abc"'),  # printable ASCII as it is
        ('{"q": "a\\b"}', '"{\\034q\\034: \\034a\\092b\\034}"'),  # quote and backslash escaped
        ("退", '"\\233\\128\\128"'),  # a CJK character: its UTF-8 bytes, each escaped
        ("a\nb", '"a\\010b"'),  # a control character escaped
    ],
)
def test_lua_strings_escape_every_byte_that_could_end_or_bend_them(text: str, lua: str) -> None:
    assert service_wrk.lua_string(text) == lua


def test_the_script_posts_the_body_with_its_headers() -> None:
    lua = service_wrk.script(b"{}", ["X-API-Key: k1"])
    assert 'wrk.method = "POST"' in lua
    assert 'wrk.body = "{}"' in lua
    assert 'wrk.headers["X-API-Key"] = "k1"' in lua
    assert "done = function" in lua


def test_the_result_is_the_last_json_line_and_none_is_an_error() -> None:
    out = 'Running 1s test\n  1 threads\n{"requests": 5, "seconds": 1.0, "errors": 0}\n'
    assert service_wrk.parse(out)["requests"] == 5
    with pytest.raises(RuntimeError, match="no result"):
        service_wrk.parse("Running 1s test\n")


@pytest.mark.parametrize(
    ("choice", "found", "expected"),
    [
        ("auto", "/usr/bin/wrk", ("wrk", "")),  # wrk where installed
        ("auto", None, ("python", "wrk not installed")),  # else Python, with one line
        ("python", "/usr/bin/wrk", ("python", "")),  # asked for: no line needed
    ],
)
def test_the_generator_is_wrk_where_installed(
    choice: str, found: str | None, expected: tuple[str, str]
) -> None:
    gen, why = generator(choice, installed=lambda: found)
    assert gen == expected[0]
    assert why.startswith(expected[1])


def test_asking_for_wrk_where_it_is_absent_is_one_error_line() -> None:
    with pytest.raises(SystemExit, match="wrk is not installed"):
        generator("wrk", installed=lambda: None)


@pytest.fixture
def tiny_server() -> Iterator[tuple[str, list[bytes], list[int]]]:
    """An HTTP/1.1 server answering 200 to every request, on a thread: its URL, the bodies it
    read and how many connections it accepted."""
    bodies: list[bytes] = []
    accepted = [0]
    ready = threading.Event()
    where: list[str] = []
    stop: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted[0] += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                bodies.append(await reader.readexactly(length))
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    async def serve() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        where.append(f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1/ask")
        done = asyncio.Event()
        stop.append((asyncio.get_running_loop(), done))
        ready.set()
        async with server:
            await done.wait()

    thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    thread.start()
    ready.wait(10)
    yield where[0], bodies, accepted
    loop, done = stop[0]
    loop.call_soon_threadsafe(done.set)
    thread.join(10)


def test_wrk_loads_with_kept_alive_connections_and_sends_the_body(
    tiny_server: tuple[str, list[bytes], list[int]],
) -> None:
    program = service_wrk.wrk()
    if program is None:
        pytest.skip("wrk is not installed (apt-get install wrk)")
    url, bodies, accepted = tiny_server
    body = '{"question": "退货政策是什么?"}'.encode()
    result = service_wrk.load(
        url, body, ["X-API-Key: k"], connections=3, seconds=1, program=program
    )
    assert result["requests"] > 3 and result["errors"] == 0
    # one connection per client kept for the whole run (wrk opens one more first, to check
    # the address, and closes it)
    assert accepted[0] in (3, 4)
    assert set(bodies) == {body}  # the Chinese body arrived byte for byte
    assert 0 < result["p50"] <= result["p99"]
