"""FakeLlmServer.request_timings(): one RequestTiming per chat-completions POST, as the
server saw it (the end-to-end benchmark subtracts the server's own time with these).

Plain httpx requests on loopback; one server per module, reset before each test.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator

import httpx
import pytest

from buddy_personality.tools.fakes.fake_llm_server import DEFAULT_ANSWER, FakeLlmServer

MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.fixture(scope="module")
def _module_server() -> Iterator[FakeLlmServer]:
    with FakeLlmServer() as srv:
        yield srv


@pytest.fixture
def server(_module_server: FakeLlmServer) -> FakeLlmServer:
    _module_server.reset()
    _module_server.keep_alive = False
    _module_server.chunk_chars = 7
    _module_server.chunk_delay_s = 0.0
    _module_server.slow_s = 0.05
    return _module_server


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=5.0) as c:
        yield c


def chat(http: httpx.Client, server: FakeLlmServer, **body: object) -> httpx.Response:
    return http.post(server.url + "/chat/completions", json={"messages": MESSAGES, **body})


def sse_content_events(text: str) -> int:
    payloads = [ln[5:].strip() for ln in text.splitlines() if ln.startswith("data:")]
    assert payloads[-1] == "[DONE]"
    return len(payloads) - 1


@pytest.mark.parametrize("keep_alive", [False, True])
def test_a_streamed_answer_is_stamped_in_order_with_its_chunk_count(
    server: FakeLlmServer, http: httpx.Client, keep_alive: bool
) -> None:
    server.keep_alive = keep_alive
    server.chunk_chars = 10
    r = chat(http, server, stream=True)
    assert r.status_code == 200
    events = sse_content_events(r.text)
    # Content is the default answer as JSON, cut in chunk_chars pieces.
    assert events == math.ceil(len(json.dumps(DEFAULT_ANSWER)) / 10)
    (t,) = server.wait_for_timings(1)
    assert t.received_at <= t.finished_at and t.duration_s >= 0.0
    assert t.status == 200 and t.chunks == events == server.chunks_sent
    assert t.request_index == 0


def test_a_plain_json_answer_has_no_chunks(server: FakeLlmServer, http: httpx.Client) -> None:
    r = chat(http, server, stream=False)
    assert r.status_code == 200
    (t,) = server.wait_for_timings(1)
    assert (t.status, t.chunks, t.request_index) == (200, 0, 0)
    assert t.received_at <= t.finished_at


@pytest.mark.parametrize(("mode", "body", "status"), [
    ("error500", {}, 500),
    ("reject_guided", {"response_format": {"type": "json_schema"}}, 400),
])
def test_refused_requests_are_timed_with_their_status(
    server: FakeLlmServer, http: httpx.Client, mode: str, body: dict[str, object], status: int
) -> None:
    server.set_mode(mode)
    assert chat(http, server, stream=True, **body).status_code == status
    (t,) = server.wait_for_timings(1)
    assert (t.status, t.chunks, t.request_index) == (status, 0, 0)


def test_the_server_time_of_a_slow_answer_covers_its_delay(
    server: FakeLlmServer, http: httpx.Client
) -> None:
    server.set_mode("slow")
    server.slow_s = 0.05
    assert chat(http, server).status_code == 200
    (t,) = server.wait_for_timings(1)
    assert t.duration_s >= 0.05


def test_sequential_requests_are_timed_in_order_and_index_their_bodies(
    server: FakeLlmServer, http: httpx.Client
) -> None:
    for i in range(3):
        assert http.post(server.url + "/chat/completions",
                         json={"messages": [{"role": "user", "content": f"turn {i}"}],
                               "stream": i % 2 == 0}).status_code == 200
    timings = server.wait_for_timings(3)
    assert [t.request_index for t in timings] == [0, 1, 2]
    assert [t.chunks > 0 for t in timings] == [True, False, True]
    for earlier, later in itertools.pairwise(timings):
        assert earlier.finished_at <= later.received_at
    for i, t in enumerate(timings):
        assert t.request_index is not None
        assert server.requests[t.request_index]["messages"][0]["content"] == f"turn {i}"


def test_other_paths_get_no_timing(server: FakeLlmServer, http: httpx.Client) -> None:
    assert http.get(server.url + "/models").status_code == 200
    assert http.post(server.url + "/embeddings", json={}).status_code == 404
    assert chat(http, server).status_code == 200
    (t,) = server.wait_for_timings(1)
    assert t.status == 200


def test_request_timings_is_a_copy(server: FakeLlmServer, http: httpx.Client) -> None:
    chat(http, server)
    got = server.wait_for_timings(1)
    got.clear()
    assert len(server.request_timings()) == 1


def test_reset_clears_timings_and_indexes_start_again(
    server: FakeLlmServer, http: httpx.Client
) -> None:
    chat(http, server, stream=True)
    chat(http, server)
    assert len(server.wait_for_timings(2)) == 2
    server.reset()
    assert server.request_timings() == [] and server.requests == []
    assert server.chunks_sent == 0 and server.connection_count() == 0
    chat(http, server)
    (t,) = server.wait_for_timings(1)
    assert t.request_index == 0
