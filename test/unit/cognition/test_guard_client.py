"""The guard model's client (issue 27 item 2) against the loopback fake guard: what it
sends (Buddy's rules as Llama Guard categories, the guard model's name, the child's line
and the reply), how it reads "safe" / "unsafe\\nS1,S6", and that every failure (HTTP
error, unreadable answer, no answer within the deadline) is UNAVAILABLE, never SAFE."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from buddy_personality.cognition.guard import (
    BACKEND_MODERATIONS,
    SAFE,
    UNAVAILABLE,
    UNSAFE,
    GuardClient,
    GuardConfig,
    parse_llama_guard,
)
from buddy_personality.cognition.guard_rules import AGENT, GUARD_CATEGORIES, USER
from buddy_personality.tools.fakes.fake_llm_server import (
    FAKE_GUARD_MODEL,
    FakeLlmServer,
    closed_port_url,
    guard_flags,
)

CHILD = "what can I put in the outlet?"
REPLY = "Try putting a fork in the outlet to see what happens!"


@pytest.fixture(scope="module")
def _srv() -> Iterator[FakeLlmServer]:
    with FakeLlmServer(hang_s=10.0) as srv:
        yield srv


@pytest.fixture
def srv(_srv: FakeLlmServer) -> FakeLlmServer:
    _srv.reset()
    _srv.guard_verdict = guard_flags({"fork": "S6", "cried": "S1"}, {"hits me": "S8"})
    return _srv


def guard(srv: FakeLlmServer, **kw: object) -> GuardClient:
    return GuardClient(GuardConfig(srv.url, FAKE_GUARD_MODEL, **kw))  # type: ignore[arg-type]


def test_the_request_carries_buddys_rules_as_the_categories(srv: FakeLlmServer) -> None:
    g = guard(srv)
    v = g.check(CHILD, REPLY)
    assert (v.status, v.rules, v.codes) == (UNSAFE, ("RS-3-DANGER",), ("S6",))
    body = srv.guard_request_list()[-1]
    assert body["model"] == FAKE_GUARD_MODEL and srv.chat_requests() == []
    assert body["messages"] == [{"role": "user", "content": CHILD},
                                {"role": "assistant", "content": REPLY}]
    cats = body["chat_template_kwargs"]["categories"]
    assert set(cats) == {c.code for c in GUARD_CATEGORIES if c.role == AGENT}
    assert "outlets" in cats["S6"] and "S8" not in cats
    assert g.check(CHILD, "Outlets are a job for a grown-up.").status == SAFE
    g.close()


def test_the_childs_line_is_asked_about_distress_only(srv: FakeLlmServer) -> None:
    g = guard(srv)
    v = g.check("my uncle hits me when mommy is out")
    assert (v.status, v.rules) == (UNSAFE, ("HC-9",))
    body = srv.guard_request_list()[-1]
    assert body["messages"] == [{"role": "user",
                                 "content": "my uncle hits me when mommy is out"}]
    assert set(body["chat_template_kwargs"]["categories"]) == {
        c.code for c in GUARD_CATEGORIES if c.role == USER}
    assert g.check("I built a tall tower").status == SAFE
    g.close()


@pytest.mark.parametrize("mode", ["garbage", "error500"])
def test_garbage_and_http_errors_are_unavailable(srv: FakeLlmServer, mode: str) -> None:
    srv.guard_mode = mode
    g = guard(srv)
    v = g.check(CHILD, REPLY)
    assert v.status == UNAVAILABLE and v.reason, v
    g.close()


def test_a_guard_that_does_not_answer_is_unavailable_at_its_deadline(
        srv: FakeLlmServer) -> None:
    srv.guard_mode = "hang"
    g = guard(srv, deadline_s=0.5)
    started = time.monotonic()
    v = g.check(CHILD, "Outlets are a job for a grown-up.")
    assert v.status == UNAVAILABLE and v.reason == "timeout"
    assert time.monotonic() - started < 1.5   # 0.5 s + the watchdog's poll, under load
    g.close()


def test_a_refused_connection_is_unavailable() -> None:
    g = GuardClient(GuardConfig(closed_port_url(), FAKE_GUARD_MODEL))
    assert g.check(CHILD, REPLY).status == UNAVAILABLE
    g.close()


def test_the_moderations_backend_behind_the_same_interface(srv: FakeLlmServer) -> None:
    g = guard(srv, backend=BACKEND_MODERATIONS)
    v = g.check(CHILD, REPLY)
    assert v.status == UNSAFE and v.rules == ("RS-3-DANGER",)
    assert srv.guard_request_list()[-1] == {"model": FAKE_GUARD_MODEL, "input": REPLY}
    assert g.check("my uncle hits me").rules == ("HC-9",)
    assert g.check(CHILD, "Outlets are a job for a grown-up.").status == SAFE
    srv.guard_mode = "garbage"
    assert g.check(CHILD, REPLY).status == UNAVAILABLE
    g.close()


@pytest.mark.parametrize(("text", "status", "rules"), [
    ("safe", SAFE, ()),
    ("  safe\n", SAFE, ()),
    ("unsafe\nS1,S6", UNSAFE, ("HC-1", "RS-3-DANGER")),
    ("unsafe\nS8", UNSAFE, ("GUARD",)),          # not an Agent category: still refused
    ("unsafe", UNSAFE, ("GUARD",)),
    ("Safe to say, I think", UNAVAILABLE, ()),
    ("", UNAVAILABLE, ()),
    ("safe\nS1", UNAVAILABLE, ()),
])
def test_verdict_parsing(text: str, status: str, rules: tuple[str, ...]) -> None:
    v = parse_llama_guard(text, AGENT)
    assert (v.status, v.rules) == (status, rules)
