"""LlmClient: the answer goes out at the streamed `[DONE]`, then the rest of the body is
read so the HTTP connection is reused for the next turn (no TCP connect per turn).

One loopback FakeLlmServer per module, reset before each test (its connection count
starts at zero; each test's client is closed at its end).
Ordering is observed with the server's hold hook (the body stays open after `[DONE]`
until the test releases it), not with sleeps.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from buddy_personality.cognition.client import CallResult, ClientConfig, LlmClient
from buddy_personality.governor.policy import CallPolicy
from buddy_personality.tools.fakes.fake_llm_server import (
    DEFAULT_ANSWER,
    FakeLlmServer,
    RequestTiming,
)

MESSAGES = [{"role": "system", "content": "be kind"}, {"role": "user", "content": "hi"}]
POLICY = CallPolicy(True, 0.5, 300, 2, False)
# The server's bound on a hold (generous: a correct client releases it at once; a client
# that read the body to its end before handing the answer over waits all of it).
HOLD_TIMEOUT_S = 5.0


@pytest.fixture(scope="module")
def _module_keep_alive_server() -> Iterator[FakeLlmServer]:
    with FakeLlmServer(keep_alive=True) as srv:
        yield srv


@pytest.fixture
def keep_alive_server(_module_keep_alive_server: FakeLlmServer) -> Iterator[FakeLlmServer]:
    srv = _module_keep_alive_server
    srv.reset()  # also clears `connections` and `holds`: the count starts at zero
    srv.hold_timeout_s = HOLD_TIMEOUT_S
    yield srv
    if srv.hold_after_done is not None:
        srv.hold_after_done.set()  # no handler left waiting


def client(url: str) -> LlmClient:
    # The default read timeout (10 s) outlasts a hold, so a client that waited for the
    # end of the body waits for the hold to end, not for its own timeout.
    return LlmClient(ClientConfig(url, retry_backoff_s=0.0))


def test_on_result_gets_the_answer_at_done_while_the_body_is_still_open(
    keep_alive_server: FakeLlmServer,
) -> None:
    srv = keep_alive_server
    hold = srv.hold_after_done = threading.Event()
    seen: list[tuple[CallResult, list[RequestTiming], bool]] = []

    def on_result(result: CallResult) -> None:
        # The server is blocked after [DONE] until `hold` is set: it has not finished.
        seen.append((result, srv.request_timings(), hold.is_set()))
        hold.set()

    c = client(srv.url)
    r = c.complete(MESSAGES, POLICY, on_result=on_result)
    assert r.ok and r.response is not None and r.response.text == DEFAULT_ANSWER["text"]
    assert len(seen) == 1
    handed, timings_then, released_then = seen[0]
    assert handed is r
    assert timings_then == [] and not released_then
    # The hold ended because on_result released it, not by timing out (a client that
    # read the body to its end first would only call on_result after the timeout).
    assert srv.holds == [True]
    # complete() read the body to its end before returning: the connection went back
    # to the pool and the next turn uses it.
    r2 = c.complete(MESSAGES, POLICY)
    assert r2.ok
    assert [t.status for t in srv.wait_for_timings(2)] == [200, 200]
    assert srv.connection_count() == 1
    c.close()


def test_consecutive_turns_on_a_keep_alive_server_share_one_connection(
    keep_alive_server: FakeLlmServer,
) -> None:
    srv = keep_alive_server
    c = client(srv.url)
    results = [c.complete(MESSAGES, POLICY, on_result=lambda _r: None) for _ in range(3)]
    assert all(r.ok for r in results)
    assert len(srv.wait_for_timings(3)) == 3 and len(srv.chat_requests()) == 3
    assert srv.connection_count() == 1
    c.close()


def test_failed_streamed_attempts_also_reuse_the_connection(
    keep_alive_server: FakeLlmServer,
) -> None:
    srv = keep_alive_server
    srv.set_mode("malformed")  # streamed content that is not JSON, each attempt
    c = client(srv.url)
    r = c.complete(MESSAGES, POLICY)
    assert not r.ok and r.attempts == 3 and r.failed_attempts == 3
    assert len(srv.wait_for_timings(3)) == 3
    assert srv.connection_count() == 1
    c.close()


def test_a_server_that_closes_after_each_stream_costs_a_connection_per_turn(
    server: FakeLlmServer,
) -> None:
    # The control for the tests above: the count does see new connections.
    assert not server.keep_alive and server.connection_count() == 0
    c = client(server.url)
    assert c.complete(MESSAGES, POLICY).ok and c.complete(MESSAGES, POLICY).ok
    assert server.connection_count() == 2
    first, second = server.connections
    assert first != second  # two client ports
    c.close()


def test_cancel_at_on_result_closes_the_connection_without_reading_the_rest(
    keep_alive_server: FakeLlmServer,
) -> None:
    srv = keep_alive_server
    hold = srv.hold_after_done = threading.Event()
    cancel = threading.Event()
    c = client(srv.url)
    r = c.complete(MESSAGES, POLICY, cancel=cancel, on_result=lambda _r: cancel.set())
    # Returned while the server still held the body open (it is released only now).
    assert r.ok and srv.holds == [] and not hold.is_set()
    hold.set()
    srv.wait_for_timings(1)
    assert c.complete(MESSAGES, POLICY).ok
    assert srv.connection_count() == 2  # the cancelled turn's connection was closed
    c.close()
