"""OpenAI-compatible chat-completions client (spec 002 §12.1-§12.3, DESIGN §4.5).

Why httpx and not the `openai` SDK: httpx is already a dependency, gives streaming
server-sent events, per-phase timeouts and connection pooling in a few lines, and keeps
the wire format visible (the guided-decoding `response_format` and the fallback for
servers that reject it are explicit here). The SDK would add a heavy dependency, its own
retry loop that fights the governor's retry budget, and hide the raw stream that the
INLINE emotion extractor reads.

The client is synchronous and blocking: the node runs it in a worker thread, never on
the ROS executor thread. Temperature, max_tokens and retries come from the governor's
call policy (DESIGN §4.2). Every failure is caught and reported in the result; nothing
raises to the caller.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from buddy_personality.cognition.request_deadline import AttemptWatchdog, retry_after_s
from buddy_personality.cognition.schema import (
    CognitionResponse,
    parse_answer_text,
    response_json_schema,
    validate_response,
)
from buddy_personality.cognition.stream_fields import JsonFieldStream
from buddy_personality.cognition.vocabulary import MOOD_SET
from buddy_personality.governor.policy import CallPolicy

DEFAULT_MODEL = "Qwen/Qwen3-8B-Instruct-AWQ"  # spec 002 §12.1
SCHEMA_NAME = "buddy_response_v2"


@dataclass(slots=True, frozen=True)
class ClientConfig:
    base_url: str                       # e.g. http://192.168.1.10:8000/v1
    model: str = DEFAULT_MODEL
    connect_timeout_s: float = 2.0
    read_timeout_s: float = 10.0        # longest silence between bytes
    request_timeout_s: float = 15.0     # whole attempt, including a slow stream
    stream: bool = True
    guided: bool = True                 # send response_format (vLLM guided decoding)
    retry_backoff_s: float = 0.25       # pause before a retry (worker thread only)
    # Qwen3 (spec 002 §12.1) thinks aloud by default, which would spend the token budget
    # before the JSON; vLLM passes chat_template_kwargs to the chat template to turn it off.
    disable_thinking: bool = True


@dataclass(slots=True)
class CallResult:
    ok: bool
    response: CognitionResponse | None = None
    dropped: list[str] = field(default_factory=list)
    attempts: int = 0
    failed_attempts: int = 0
    errors: list[str] = field(default_factory=list)
    latency_s: float = 0.0
    guided: bool = True
    inline_emotion: str | None = None
    cancelled: bool = False
    timed_out: bool = False             # an attempt hit its deadline (issue 19)
    # No request went out: the server's Retry-After of an earlier turn has not passed yet
    # (issue 31). Not a server failure: layer 0 answers the turn.
    throttled: bool = False


RETRY_AFTER_STATUSES = (429, 503)


class _AttemptError(Exception):
    """One failed attempt, with a short reason for logs and diagnostics."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


class _GuidedRejected(Exception):
    """The server refused response_format: retry unguided at once."""


@dataclass(slots=True)
class _OpenStream:
    """A stream whose `[DONE]` has been read but whose HTTP body has not ended yet."""

    rest: Iterator[str]           # the same line iterator, after [DONE]
    closer: contextlib.ExitStack  # closes the response


class LlmClient:
    def __init__(
        self,
        config: ClientConfig,
        http: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self._http = http or httpx.Client(
            timeout=httpx.Timeout(
                config.read_timeout_s, connect=config.connect_timeout_s
            ),
            # The child's words go to the configured home server only: no proxy or .netrc
            # taken from the environment (HC-3, DESIGN §6.19).
            trust_env=False,
        )
        self._sleep = sleep
        self._clock = clock
        # Learned once: a server that rejects response_format gets unguided requests.
        self.guided_supported = config.guided
        self.probe_error = ""   # why the last probe failed, in words ("" = it answered)
        self._url = config.base_url.rstrip("/") + "/chat/completions"
        # The server's Retry-After, kept across turns (issue 31: the next turn called the
        # server again 6 s later although it had asked for 30 s). Clock time, or None.
        self._not_before: float | None = None

    def retry_wait_s(self) -> float:
        """Seconds until the server's last Retry-After has passed (0: call freely)."""
        if self._not_before is None:
            return 0.0
        left = self._not_before - self._clock()
        if left <= 0.0:
            self._not_before = None
            return 0.0
        return left

    def close(self) -> None:
        self._http.close()

    def probe(self) -> bool:
        """Cheap health check: GET /models answers 200 (`probe_error` says why not)."""
        try:
            r = self._http.get(self.config.base_url.rstrip("/") + "/models")
        except httpx.HTTPError as exc:
            self.probe_error = f"unreachable ({type(exc).__name__}: {exc})"
            return False
        ok = r.status_code == 200
        self.probe_error = "" if ok else f"refusing (GET /models answered HTTP {r.status_code})"
        return ok

    def request_body(self, messages: list[dict[str, str]], policy: CallPolicy) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "temperature": policy.temperature,
            "max_tokens": policy.max_tokens,
            "stream": self.config.stream,
        }
        if self.config.disable_thinking:
            body["chat_template_kwargs"] = {"enable_thinking": False}
        if self.guided_supported:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": SCHEMA_NAME, "schema": response_json_schema(), "strict": True,
                },
            }
        return body

    def complete(
        self,
        messages: list[dict[str, str]],
        policy: CallPolicy,
        on_emotion: Callable[[str], None] | None = None,
        cancel: threading.Event | None = None,
        on_result: Callable[[CallResult], None] | None = None,
        deadline_s: float | None = None,
    ) -> CallResult:
        """One turn: up to 1 + policy.max_retries attempts, all within `deadline_s` (the
        turn's budget; None: each attempt has `request_timeout_s`, retries add up).

        `on_result` gets the result as soon as it is known, before the client reads what
        follows `[DONE]` in a streamed body (normally only the end of the chunked body):
        reading it lets the connection be reused for the next turn, which saves a TCP
        connect (a network round trip to the home server), and doing it after the answer
        went out keeps it off the answer's path.
        """
        unfinished: list[_OpenStream] = []
        try:
            result = self._complete(messages, policy, on_emotion, cancel, unfinished,
                                    deadline_s)
            if on_result is not None:
                on_result(result)
            return result
        finally:
            self._finish(unfinished, cancel)

    def _complete(
        self,
        messages: list[dict[str, str]],
        policy: CallPolicy,
        on_emotion: Callable[[str], None] | None,
        cancel: threading.Event | None,
        unfinished: list[_OpenStream],
        deadline_s: float | None = None,
    ) -> CallResult:
        result = CallResult(ok=False, guided=self.guided_supported)
        if not policy.may_call:
            result.errors.append("policy forbids calls")
            return result
        start = self._clock()
        held = self.retry_wait_s()
        if held > 0.0:
            # The server asked for a pause that has not passed: no request this turn.
            result.throttled = True
            result.errors.append(f"server asked to wait {held:.1f} s more (Retry-After)")
            return result
        turn_deadline = start + deadline_s if deadline_s is not None else None
        wait_s = 0.0
        emitted: list[str] = []

        def field_seen(key: str, value: str) -> None:
            v = value.strip().lower()
            if key == "emotion" and not emitted and v in MOOD_SET:
                emitted.append(v)
                result.inline_emotion = v
                if on_emotion is not None:
                    on_emotion(v)

        attempt = 0
        while attempt <= policy.max_retries:
            if cancel is not None and cancel.is_set():
                result.cancelled = True
                break
            self._finish(unfinished, cancel)
            if attempt > 0:
                wait_s = max(wait_s, self.config.retry_backoff_s)
                if turn_deadline is not None and self._clock() + wait_s >= turn_deadline:
                    # Retry-After (or the backoff) does not fit in the turn: the child
                    # gets layer 0's answer now rather than silence (issue 19).
                    result.errors.append(f"retry in {wait_s:.1f} s is past the turn deadline")
                    break
                if wait_s > 0:
                    self._pause(wait_s, cancel)
                if cancel is not None and cancel.is_set():
                    result.cancelled = True
                    break
            wait_s = 0.0
            attempt += 1
            result.attempts = attempt
            deadline = self._clock() + self.config.request_timeout_s
            if turn_deadline is not None:
                deadline = min(deadline, turn_deadline)
            try:
                body = self.request_body(messages, policy)
                result.guided = "response_format" in body
                try:
                    content = self._one_attempt(body, field_seen, cancel, unfinished, deadline)
                except _GuidedRejected:
                    self.guided_supported = False
                    body = self.request_body(messages, policy)
                    result.guided = False
                    content = self._one_attempt(body, field_seen, cancel, unfinished, deadline)
                data, reason = parse_answer_text(content)
                if data is None:
                    raise _AttemptError(reason)
                outcome = validate_response(data)
                if outcome.response is None:
                    raise _AttemptError("wrong schema: " + outcome.failure)
                result.ok = True
                result.response = outcome.response
                result.dropped = outcome.dropped
                break
            except _AttemptError as exc:
                if str(exc) == "cancelled":
                    result.cancelled = True
                    break
                result.failed_attempts += 1
                result.errors.append(str(exc))
                result.timed_out = result.timed_out or str(exc) == "timeout"
                if exc.retry_after is not None:
                    wait_s = exc.retry_after  # honoured, within the turn deadline
                    until = self._clock() + exc.retry_after   # ... and by later turns
                    self._not_before = max(self._not_before or until, until)
                if turn_deadline is not None and self._clock() >= turn_deadline:
                    break
        result.latency_s = max(0.0, self._clock() - start)
        return result

    def _pause(self, seconds: float, cancel: threading.Event | None) -> None:
        """Wait before a retry; a cancel (the session ended) cuts the wait short."""
        if cancel is not None and self._sleep is time.sleep:
            cancel.wait(seconds)
        else:
            self._sleep(seconds)

    def _one_attempt(
        self,
        body: dict[str, Any],
        field_seen: Callable[[str, str], None],
        cancel: threading.Event | None,
        unfinished: list[_OpenStream],
        deadline: float,
    ) -> str:
        """One request, all of it (headers, body, a trickling stream) within `deadline`.
        A stream that reached `[DONE]` is left open in `unfinished`."""
        remaining = deadline - self._clock()
        if remaining <= 0.0:
            raise _AttemptError("timeout")
        # Until the headers arrive no phase may outlast the deadline; after them, the
        # watchdog cuts the socket at the deadline however the bytes trickle.
        timeout = httpx.Timeout(min(self.config.read_timeout_s, remaining),
                                connect=min(self.config.connect_timeout_s, remaining))
        watchdog = AttemptWatchdog(deadline, cancel, self._clock)
        closer = contextlib.ExitStack()
        try:
            with closer:
                r = closer.enter_context(self._http.stream("POST", self._url, json=body,
                                                           timeout=timeout))
                watchdog.watch(r)
                if r.status_code in (400, 422) and "response_format" in body:
                    r.read()
                    raise _GuidedRejected()
                if r.status_code in RETRY_AFTER_STATUSES:
                    raise _AttemptError(f"HTTP {r.status_code}", retry_after_s(r.headers))
                if r.status_code != 200:
                    raise _AttemptError(f"HTTP {r.status_code}")
                ctype = r.headers.get("content-type", "")
                if "text/event-stream" not in ctype:
                    raw = r.read()
                    if watchdog.fired is not None or self._clock() > deadline:
                        raise _AttemptError("timeout")
                    return self._content_of(raw)
                lines = r.iter_lines()
                content = self._read_stream(lines, field_seen, cancel, deadline)
                if watchdog.fired is not None:  # the cut may look like a clean end
                    raise _AttemptError(watchdog.fired)
                unfinished.append(_OpenStream(lines, closer.pop_all()))
                return content
        except httpx.TimeoutException as exc:
            raise _AttemptError("timeout") from exc
        except httpx.HTTPError as exc:
            if watchdog.fired is not None:
                raise _AttemptError(watchdog.fired) from exc
            raise _AttemptError(f"connection: {type(exc).__name__}") from exc
        finally:
            watchdog.stop()

    @staticmethod
    def _finish(unfinished: list[_OpenStream], cancel: threading.Event | None) -> None:
        """Read the rest of finished streams so their connections go back to the pool
        (httpx closes a connection whose response was not read to the end). Bounded by
        the read timeout; on cancel or any error the connection is just closed."""
        while unfinished:
            stream = unfinished.pop()
            with stream.closer:
                if cancel is not None and cancel.is_set():
                    continue
                with contextlib.suppress(httpx.HTTPError):
                    for _line in stream.rest:
                        pass

    @staticmethod
    def _content_of(raw: bytes) -> str:
        try:
            doc = json.loads(raw)
            content = doc["choices"][0]["message"]["content"]
        except (json.JSONDecodeError, KeyError, IndexError, TypeError) as exc:
            raise _AttemptError("malformed completion envelope") from exc
        if not isinstance(content, str):
            raise _AttemptError("completion without text content")
        return content

    def _read_stream(
        self,
        lines: Iterator[str],
        field_seen: Callable[[str, str], None],
        cancel: threading.Event | None,
        deadline: float,
    ) -> str:
        """The streamed content, up to `[DONE]` or the end of the body."""
        fields = JsonFieldStream(field_seen)
        parts: list[str] = []
        for line in lines:
            if cancel is not None and cancel.is_set():
                raise _AttemptError("cancelled")
            if self._clock() > deadline:
                raise _AttemptError("timeout")
            if not line.startswith("data:"):
                continue
            payload = line[5:].strip()
            if payload == "[DONE]":
                break
            try:
                chunk = json.loads(payload)
                delta = chunk["choices"][0].get("delta", {}).get("content") or ""
            except (json.JSONDecodeError, KeyError, IndexError, TypeError, AttributeError):
                continue  # a broken event is skipped; the whole answer is validated later
            if isinstance(delta, str) and delta:
                parts.append(delta)
                fields.feed(delta)
        return "".join(parts)
