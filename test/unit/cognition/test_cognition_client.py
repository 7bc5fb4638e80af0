"""The chat-completions client against the loopback fake server, in every mode."""

from __future__ import annotations

import threading

import pytest

from buddy_personality.cognition.client import ClientConfig, LlmClient
from buddy_personality.governor.policy import CallPolicy, call_policy
from buddy_personality.tools.fakes.fake_llm_server import (
    DEFAULT_ANSWER,
    FakeLlmServer,
    closed_port_url,
    scripted,
)

MESSAGES = [{"role": "system", "content": "be kind"}, {"role": "user", "content": "hi"}]
POLICY = CallPolicy(True, 0.5, 300, 2, False)


def client(url: str, **kw: object) -> LlmClient:
    cfg = dict(retry_backoff_s=0.0, read_timeout_s=2.0, request_timeout_s=3.0)
    cfg.update(kw)
    return LlmClient(ClientConfig(url, **cfg))  # type: ignore[arg-type]


def test_normal_non_streamed(server: FakeLlmServer) -> None:
    c = client(server.url, stream=False)
    r = c.complete(MESSAGES, POLICY)
    assert r.ok and r.response is not None and r.response.text == DEFAULT_ANSWER["text"]
    assert r.attempts == 1 and r.failed_attempts == 0 and r.inline_emotion is None
    body = server.chat_requests()[0]
    assert body["stream"] is False and body["messages"] == MESSAGES
    # spec 002 §12.2 guided decoding through the OpenAI response_format.
    assert body["response_format"]["type"] == "json_schema"
    assert "emotion" in body["response_format"]["json_schema"]["schema"]["properties"]
    assert body["chat_template_kwargs"] == {"enable_thinking": False}
    c2 = client(server.url, stream=False, disable_thinking=False)
    c2.complete(MESSAGES, POLICY)
    assert "chat_template_kwargs" not in server.chat_requests()[1]


def test_streamed_answer_reports_the_emotion_before_the_stream_ends(
    server: FakeLlmServer,
) -> None:
    server.set_mode("stream")
    server.chunk_chars = 8
    server.chunk_delay_s = 0.002
    at_emotion: list[int] = []
    emotions: list[str] = []

    def on_emotion(e: str) -> None:
        emotions.append(e)
        at_emotion.append(server.chunks_sent)

    r = client(server.url).complete(MESSAGES, POLICY, on_emotion=on_emotion)
    assert r.ok and emotions == ["curious"] and r.inline_emotion == "curious"
    total = server.chunks_sent
    # The emotion field precedes `text` (spec 002 §12.3 order), so it is reported while
    # most of the answer is still to come.
    assert at_emotion[0] < total / 2
    assert server.chat_requests()[0]["stream"] is True


def test_inline_emotion_only_for_canonical_moods(server: FakeLlmServer) -> None:
    server.reset("stream", scripted([dict(DEFAULT_ANSWER, emotion="furious")]))
    emotions: list[str] = []
    r = client(server.url).complete(MESSAGES, POLICY, on_emotion=emotions.append)
    assert r.ok and emotions == [] and r.response is not None and r.response.emotion is None


@pytest.mark.parametrize("mode", ["malformed", "wrong_schema", "error500"])
def test_bad_answers_fail_after_the_policy_retries_without_raising(
    server: FakeLlmServer, mode: str
) -> None:
    server.set_mode(mode)
    r = client(server.url).complete(MESSAGES, POLICY)
    assert not r.ok and r.response is None
    assert r.attempts == 1 + POLICY.max_retries == len(server.chat_requests())
    assert r.failed_attempts == r.attempts and len(r.errors) == r.attempts


def test_error_reasons(server: FakeLlmServer) -> None:
    for mode, reason in (("malformed", "malformed JSON"), ("wrong_schema", "wrong schema"),
                         ("error500", "HTTP 500")):
        server.reset(mode)
        r = client(server.url).complete(MESSAGES, CallPolicy(True, 0.5, 300, 0, False))
        assert reason in r.errors[0]


def test_slow_server_times_out(server: FakeLlmServer) -> None:
    server.set_mode("slow")
    server.slow_s = 1.0
    c = client(server.url, stream=False, read_timeout_s=0.2, request_timeout_s=0.3)
    r = c.complete(MESSAGES, CallPolicy(True, 0.5, 300, 0, False))
    assert not r.ok and r.errors == ["timeout"]


def test_slow_but_within_timeout_succeeds(server: FakeLlmServer) -> None:
    server.set_mode("slow")
    server.slow_s = 0.2
    r = client(server.url, stream=False).complete(MESSAGES, POLICY)
    assert r.ok and r.latency_s >= 0.2


def test_connection_refused() -> None:
    r = client(closed_port_url()).complete(MESSAGES, POLICY)
    assert not r.ok and r.attempts == 3 and all("connection" in e for e in r.errors)


def test_server_without_guided_decoding_gets_a_validated_unguided_fallback(
    server: FakeLlmServer,
) -> None:
    server.set_mode("reject_guided")
    c = client(server.url)
    r = c.complete(MESSAGES, POLICY)
    assert r.ok and not r.guided and r.failed_attempts == 0
    reqs = server.chat_requests()
    assert "response_format" in reqs[0] and "response_format" not in reqs[1]
    # Learned: the next call goes unguided at once.
    c.complete(MESSAGES, POLICY)
    assert len(server.chat_requests()) == 3 and "response_format" not in reqs[-1]


def test_unguided_answers_are_still_validated(server: FakeLlmServer) -> None:
    server.reset("reject_guided", scripted([{"text": "hi", "emotion": "ecstatic"}]))
    r = client(server.url, guided=False).complete(MESSAGES, POLICY)
    assert r.ok and r.response is not None and r.response.emotion is None
    assert any(d.startswith("emotion") for d in r.dropped)


def test_a_failed_attempt_is_retried_and_can_recover(server: FakeLlmServer) -> None:
    server.reset("normal", scripted([{"nope": 1}, DEFAULT_ANSWER]))
    r = client(server.url).complete(MESSAGES, POLICY)
    assert r.ok and r.attempts == 2 and r.failed_attempts == 1


@pytest.mark.parametrize(
    ("effort", "persistence", "exploration"),
    [(1.0, 1.0, 0.0), (0.5, 0.34, 1.0), (0.1, 0.0, 0.5)],
)
def test_budgets_set_temperature_length_and_retries_as_the_policy_says(
    server: FakeLlmServer, effort: float, persistence: float, exploration: float
) -> None:
    """DESIGN §4.2: exploration -> temperature, effort -> max_tokens, persistence -> retries."""
    policy = call_policy(0, effort, persistence, 0.0, exploration)
    server.set_mode("error500")
    client(server.url).complete(MESSAGES, policy)
    reqs = server.chat_requests()
    assert len(reqs) == 1 + policy.max_retries
    assert {r["temperature"] for r in reqs} == {policy.temperature}
    assert {r["max_tokens"] for r in reqs} == {policy.max_tokens}


def test_halted_policy_makes_no_request(server: FakeLlmServer) -> None:
    r = client(server.url).complete(MESSAGES, call_policy(2, 1.0, 1.0, 0.0, 0.0))
    assert not r.ok and server.chat_requests() == []


def test_cancel_stops_before_the_next_attempt(server: FakeLlmServer) -> None:
    server.set_mode("error500")
    cancel = threading.Event()
    cancel.set()
    r = client(server.url).complete(MESSAGES, POLICY, cancel=cancel)
    assert r.cancelled and server.chat_requests() == []


def test_probe(server: FakeLlmServer) -> None:
    assert client(server.url).probe()
    server.set_mode("error500")
    assert not client(server.url).probe()
    assert not client(closed_port_url()).probe()


def test_fake_server_binds_loopback_only(server: FakeLlmServer) -> None:
    assert server._httpd.server_address[0] == "127.0.0.1"
    with pytest.raises(ValueError):
        FakeLlmServer("weird")
