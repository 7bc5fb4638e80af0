"""Issue 19 attacks on the LLM path, against the loopback fake server (client level).

A request's timeout is a deadline on all of it (headers, body, a trickling stream); a
cancelled request ends at once; Retry-After is honoured within the turn's deadline.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from buddy_personality.cognition.client import ClientConfig, LlmClient
from buddy_personality.governor.policy import CallPolicy
from buddy_personality.tools.fakes.fake_llm_server import FakeLlmServer

pytestmark = pytest.mark.attack

MESSAGES = [{"role": "system", "content": "be kind"}, {"role": "user", "content": "hi"}]
NO_RETRY = CallPolicy(True, 0.5, 300, 0, False)
ONE_RETRY = CallPolicy(True, 0.5, 300, 1, False)


def client(url: str, **kw: object) -> LlmClient:
    cfg: dict[str, object] = dict(retry_backoff_s=0.0, read_timeout_s=5.0,
                                  request_timeout_s=1.0)
    cfg.update(kw)
    return LlmClient(ClientConfig(url, **cfg))  # type: ignore[arg-type]


@pytest.fixture
def trickle() -> Iterator[FakeLlmServer]:
    # 3 bytes every 0.1 s: never silent for a read timeout; one SSE line takes seconds
    with FakeLlmServer("trickle", trickle_bytes=3, trickle_delay_s=0.1) as srv:
        yield srv


def test_trickling_stream_is_cut_at_the_request_deadline(trickle: FakeLlmServer) -> None:
    c = client(trickle.url)
    started = time.monotonic()
    r = c.complete(MESSAGES, NO_RETRY)
    elapsed = time.monotonic() - started
    assert not r.ok and r.timed_out and r.errors == ["timeout"]
    assert elapsed < 1.8  # deadline 1.0 s (+ the watchdog's poll, a loaded machine)
    c.close()


def test_hung_server_is_cut_at_the_request_deadline_not_the_read_timeout() -> None:
    with FakeLlmServer("hang", hang_s=30.0) as srv:
        c = client(srv.url, read_timeout_s=20.0)
        started = time.monotonic()
        r = c.complete(MESSAGES, NO_RETRY)
        assert not r.ok and r.timed_out
        assert time.monotonic() - started < 1.8
        c.close()


def test_turn_deadline_bounds_all_retries_together() -> None:
    with FakeLlmServer("hang", hang_s=30.0) as srv:
        c = client(srv.url, request_timeout_s=5.0)
        started = time.monotonic()
        r = c.complete(MESSAGES, CallPolicy(True, 0.5, 300, 3, False), deadline_s=1.0)
        assert not r.ok and time.monotonic() - started < 1.8
        c.close()


def test_cancel_cuts_a_trickling_request_at_once(trickle: FakeLlmServer) -> None:
    c = client(trickle.url, request_timeout_s=20.0)
    cancel = threading.Event()
    timer = threading.Timer(0.3, cancel.set)
    timer.start()
    started = time.monotonic()
    r = c.complete(MESSAGES, ONE_RETRY, cancel=cancel)
    assert r.cancelled and not r.ok
    assert time.monotonic() - started < 1.5
    assert len(trickle.chat_requests()) == 1  # no retry after a cancel
    c.close()


def test_retry_after_is_honoured_within_the_deadline() -> None:
    with FakeLlmServer("throttle", retry_after_s=0.6, throttle_count=1) as srv:
        c = client(srv.url, request_timeout_s=2.0)
        r = c.complete(MESSAGES, ONE_RETRY, deadline_s=3.0)
        assert r.ok and r.attempts == 2
        first, second = srv.wait_for_timings(2)
        assert second.received_at - first.received_at >= 0.6
        c.close()


def test_retry_after_past_the_turn_deadline_gives_up_at_once() -> None:
    """A Retry-After the turn cannot wait for: no early retry; layer 0 answers now."""
    with FakeLlmServer("throttle", retry_after_s=30.0, throttle_count=1) as srv:
        c = client(srv.url)
        started = time.monotonic()
        r = c.complete(MESSAGES, ONE_RETRY, deadline_s=2.0)
        assert not r.ok and len(srv.chat_requests()) == 1
        assert "past the turn deadline" in r.errors[-1]
        assert time.monotonic() - started < 1.0
        c.close()


def test_retry_after_holds_across_turns() -> None:
    """Issue 31: a server that asked for 30 s was called again by the next turn 6 s later.
    The client keeps the server's Retry-After across turns: until it has passed, a turn
    gets no request (the bridge answers from layer 0 at once), after it one goes out."""
    now = [100.0]
    with FakeLlmServer("throttle", retry_after_s=30.0, throttle_count=1) as srv:
        c = LlmClient(ClientConfig(srv.url, retry_backoff_s=0.0, request_timeout_s=2.0),
                      clock=lambda: now[0])
        first = c.complete(MESSAGES, ONE_RETRY, deadline_s=2.0)
        assert not first.ok and len(srv.chat_requests()) == 1
        now[0] += 6.0                                   # the next turn, 6 s later
        second = c.complete(MESSAGES, ONE_RETRY, deadline_s=2.0)
        assert not second.ok and second.throttled and second.attempts == 0
        assert len(srv.chat_requests()) == 1            # the server was not called
        now[0] += 24.5                                  # 30.5 s after it asked
        third = c.complete(MESSAGES, ONE_RETRY, deadline_s=2.0)
        assert third.ok and len(srv.chat_requests()) == 2
        c.close()
