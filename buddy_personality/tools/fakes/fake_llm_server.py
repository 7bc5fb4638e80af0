"""A scripted OpenAI-compatible chat-completions server, bound to 127.0.0.1 only.

For tests, benchmarks and `buddy run --demo`: it answers `POST /v1/chat/completions`
(and `GET /v1/models`) from a script of answers, in one of these modes:

- `normal`      answer as asked (SSE when the request says `stream`, else one JSON body)
- `stream`      always SSE, in small chunks (`chunk_chars`, `chunk_delay_s` apart)
- `malformed`   content that is not JSON
- `wrong_schema` JSON content without the fields of spec 002 §12.3
- `slow`        wait `slow_s` before answering (as `normal` otherwise)
- `error500`    HTTP 500
- `reject_guided` HTTP 400 when the request carries `response_format`, else normal
  (a server without guided decoding)
- `trickle`     SSE written `trickle_bytes` bytes at a time, `trickle_delay_s` apart: a
  stream that never goes silent long enough for a read timeout (issue 19)
- `hang`        accept the request and send nothing for `hang_s` (or until stop())
- `throttle`    HTTP `throttle_status` (429, or 503 as a busy server says it) with
  `Retry-After: retry_after_s` for the first `throttle_count` chat requests, then normal
- `cut`         SSE that stops in the middle of the JSON answer: half of it, then the
  connection is closed with no `[DONE]` (a server or proxy that died mid-stream)

Connection refused: `closed_port_url()` gives a URL on a port nobody listens on.

It is also a fake guard model (issue 27 item 4): a chat request whose `model` is
`guard_model`, and any `POST /v1/moderations`, is answered by the guard script instead
(`guard_verdict(request) -> "safe" | "unsafe\nS6" | any text`), in `guard_mode`:
`normal`, `garbage` (a verdict nobody can read), `error500`, `hang` (nothing for
`hang_s`); after `guard_latency_s`. Guard requests go to `guard_requests` and
`guard_timings`, never to `requests`, so a test counts the chat model's calls as before.
Every request body is recorded (`requests`) so tests can inspect what was sent, and every
chat-completions request gets a `RequestTiming` (`timings`): when the server had it and
when it finished answering, on `time.monotonic()` (system-wide on Linux, so another
process's stamps compare), so a benchmark can subtract the server's own time.

Run standalone: `python -m buddy_personality.tools.fakes.fake_llm_server --port 0` prints the
base URL and serves until interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODES = ("normal", "stream", "malformed", "wrong_schema", "slow", "error500", "reject_guided",
         "trickle", "hang", "throttle", "cut")
GUARD_MODES = ("normal", "garbage", "error500", "hang")
FAKE_GUARD_MODEL = "fake-guard"
# Llama Guard codes (cognition/guard_rules.py) -> an OpenAI moderation category, for the
# /v1/moderations answers of the same script.
MODERATION_NAMES = {"S6": "violence", "S8": "self-harm/intent", "S7": "illicit"}

DEFAULT_ANSWER: dict[str, Any] = {
    "inner_thought": "The child is sharing something; Buddy should be warm and curious.",
    "emotion": "curious",
    "intensity": 0.6,
    "mood_reason": "child is telling me something interesting",
    "emotional_arc": "rising",
    "child_affect": "positive",
    "text": "Ooh, how fun! Tell me more about that.",
    "gestures": ["nod"],
    "memory_tags": [],
}

Responder = Callable[[dict[str, Any]], dict[str, Any]]
GuardScript = Callable[[dict[str, Any]], str]


def guard_text_of(request: dict[str, Any]) -> tuple[str, str | None]:
    """(child's line, Buddy's reply or None) of a guard request, either backend."""
    if "input" in request:
        return str(request.get("input", "")), None
    msgs = [m for m in request.get("messages", []) if isinstance(m, dict)]
    child = next((str(m.get("content", "")) for m in msgs if m.get("role") == "user"), "")
    reply = next((str(m.get("content", "")) for m in msgs if m.get("role") == "assistant"),
                 None)
    return child, reply


def guard_flags(reply_words: dict[str, str] | None = None,
                child_words: dict[str, str] | None = None) -> GuardScript:
    """A guard that calls a reply unsafe when it contains one of `reply_words` (word ->
    code, e.g. {"outlet": "S6"}) and a child's line when it contains one of
    `child_words`; safe otherwise. Case-insensitive substrings."""
    def verdict(request: dict[str, Any]) -> str:
        child, reply = guard_text_of(request)
        text, words = (child, child_words or {}) if reply is None else (
            reply, reply_words or {})
        if "input" in request:   # /moderations cannot tell whose words they are
            words = {**(reply_words or {}), **(child_words or {})}
        codes = [code for word, code in words.items() if word.lower() in text.lower()]
        return "unsafe\n" + ",".join(dict.fromkeys(codes)) if codes else "safe"

    return verdict


@dataclass(slots=True, frozen=True)
class RequestTiming:
    """One POST to /chat/completions, as the server saw it."""

    received_at: float          # handler has the request line and headers (monotonic s)
    finished_at: float          # last byte of the answer written and flushed
    status: int                 # HTTP status answered
    chunks: int                 # SSE content events of this answer (0: not streamed)
    request_index: int | None   # index into `requests` (None: not a chat request)

    @property
    def duration_s(self) -> float:
        return self.finished_at - self.received_at


def scripted(answers: list[dict[str, Any]], *, cycle: bool = False) -> Responder:
    """A responder that returns `answers` in turn, then repeats the last one (or, with
    `cycle`, starts over: a long scripted conversation from a short script)."""
    if not answers:
        raise ValueError("scripted() needs at least one answer")
    state = {"i": 0}

    def respond(_request: dict[str, Any]) -> dict[str, Any]:
        i = state["i"] % len(answers) if cycle else min(state["i"], len(answers) - 1)
        state["i"] += 1
        return answers[i]

    return respond


def echo_responder(request: dict[str, Any]) -> dict[str, Any]:
    """A demo responder: a friendly curious answer that mentions the child's last words."""
    last = ""
    for m in reversed(request.get("messages", [])):
        if m.get("role") == "user":
            last = str(m.get("content", ""))
            break
    words = last.split()
    topic = " ".join(words[-3:]).strip(".!?,") if words else "that"
    answer = dict(DEFAULT_ANSWER)
    answer["text"] = f"Ooh, {topic}! I wonder what else you know about it."
    return answer


class _QuietServer(ThreadingHTTPServer):
    """Clients that hang up early (timeouts under test) are normal here, not errors."""

    def handle_error(self, request: object, client_address: object) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class FakeLlmServer:
    """Use as a context manager, or call start() / stop()."""

    def __init__(
        self,
        mode: str = "normal",
        responder: Responder | None = None,
        slow_s: float = 2.0,
        chunk_chars: int = 7,
        chunk_delay_s: float = 0.0,
        port: int = 0,
        keep_alive: bool = False,
        trickle_bytes: int = 3,
        trickle_delay_s: float = 0.2,
        hang_s: float = 60.0,
        retry_after_s: float = 1.0,
        throttle_count: int = 1,
        throttle_status: int = 429,
        guard_model: str = FAKE_GUARD_MODEL,
    ) -> None:
        self.set_mode(mode)
        self.guard_model = guard_model
        self.guard_mode = "normal"
        self.guard_verdict: GuardScript = lambda _req: "safe"
        self.guard_latency_s = 0.0
        self.guard_requests: list[dict[str, Any]] = []
        self.guard_timings: list[RequestTiming] = []
        self.responder: Responder = responder or (lambda _req: DEFAULT_ANSWER)
        self.slow_s = slow_s
        self.chunk_chars = max(1, chunk_chars)
        self.chunk_delay_s = chunk_delay_s
        # Streamed answers in HTTP/1.1 chunks on a connection that stays open, as vLLM
        # (uvicorn) serves them; off: `Connection: close` after each stream.
        self.keep_alive = keep_alive
        self.trickle_bytes = max(1, trickle_bytes)
        self.trickle_delay_s = trickle_delay_s
        self.hang_s = hang_s
        self.retry_after_s = retry_after_s
        self.throttle_count = throttle_count
        self.throttle_status = throttle_status
        self._stopping = threading.Event()
        self.requests: list[dict[str, Any]] = []
        self.chunks_sent = 0   # SSE content events written so far (all requests)
        self.raw_requests: list[bytes] = []
        self.timings: list[RequestTiming] = []
        # Test hooks. `connections`: the peer (host, port) of every accepted TCP
        # connection, so a test can see whether a client reused one. `hold_after_done`:
        # when set to an Event, a stream waits for it (at most `hold_timeout_s`) after
        # writing `[DONE]` and before ending the body, so a test can observe what a
        # client does between the two; `holds` says how each hold ended (True: the
        # event released it, False: it timed out).
        self.connections: list[tuple[str, int]] = []
        self.hold_after_done: threading.Event | None = None
        self.hold_timeout_s = 5.0
        self.holds: list[bool] = []
        self._sockets: list[socket.socket] = []   # accepted connections (closed by stop)
        self._lock = threading.Lock()
        self._timing_added = threading.Condition(self._lock)
        self._httpd = _QuietServer(("127.0.0.1", port), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    # --- control ------------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; one of {MODES}")
        self.mode = mode

    def reset(self, mode: str = "normal", responder: Responder | None = None) -> None:
        """Back to a clean state between tests that share one server."""
        self.set_mode(mode)
        self.responder = responder or (lambda _req: DEFAULT_ANSWER)
        self.guard_mode = "normal"
        self.guard_verdict = lambda _req: "safe"
        self.guard_latency_s = 0.0
        with self._lock:
            self.guard_requests.clear()
            self.guard_timings.clear()
            self.requests.clear()
            self.raw_requests.clear()
            self.timings.clear()
            self.connections.clear()
            self.holds.clear()
            self.chunks_sent = 0
        self.hold_after_done = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """Base URL, OpenAI style (ends in /v1)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeLlmServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True,
                                        name="fake-llm-server")
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # ends hanging and trickling answers
        self._httpd.shutdown()
        self._httpd.server_close()
        # A server that is gone keeps no connection open (a kept-alive one would go on
        # answering from its handler thread): close them, as a dying process does.
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeLlmServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def chat_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return [r for r in self.requests if "messages" in r]

    def request_timings(self) -> list[RequestTiming]:
        with self._lock:
            return list(self.timings)

    def wait_for_timings(self, count: int, timeout_s: float = 5.0) -> list[RequestTiming]:
        """The timings once at least `count` are recorded (or whatever there is after
        `timeout_s`): a client can have the last byte before the server stamps it."""
        with self._timing_added:
            self._timing_added.wait_for(lambda: len(self.timings) >= count, timeout_s)
            return list(self.timings)

    def connection_count(self) -> int:
        """TCP connections accepted so far (since start or the last reset)."""
        with self._lock:
            return len(self.connections)

    # --- serving ------------------------------------------------------------------------
    def _record(self, raw: bytes) -> tuple[dict[str, Any], int]:
        """The parsed body and its index in `requests`."""
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            body = {"_unparsed": raw.decode("utf-8", "replace")}
        with self._lock:
            self.raw_requests.append(raw)
            self.requests.append(body if isinstance(body, dict) else {"_body": body})
            index = len(self.requests) - 1
        return (body if isinstance(body, dict) else {}), index

    def _record_timing(self, received_at: float, status: int, chunks: int,
                       request_index: int | None) -> None:
        finished_at = time.monotonic()
        with self._lock:
            self.timings.append(RequestTiming(received_at, finished_at, status, chunks,
                                              request_index))
            self._timing_added.notify_all()

    def guard_request_list(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.guard_requests)

    def _record_guard(self, request: dict[str, Any], received_at: float, status: int) -> None:
        with self._lock:
            self.guard_requests.append(request)
            self.guard_timings.append(RequestTiming(received_at, time.monotonic(), status, 0,
                                                    None))

    def _content_for(self, request: dict[str, Any]) -> str:
        if self.mode == "malformed":
            return '{"inner_thought": "oops", "emotion": "happy", "text": "Hel'
        if self.mode == "wrong_schema":
            return json.dumps({"reply": "Hello!", "mood": 7})
        return json.dumps(self.responder(request))

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: object) -> None:  # quiet in tests
                return

            def setup(self) -> None:  # once per accepted connection
                super().setup()
                host, port = self.client_address[:2]
                with server._lock:
                    server.connections.append((str(host), int(port)))
                    server._sockets.append(self.request)

            def _send_json(self, code: int, doc: dict[str, Any]) -> None:
                data = json.dumps(doc).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()
                self._status = code

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    if server.mode == "error500":
                        self._send_json(500, {"error": "scripted failure"})
                    else:
                        self._send_json(200, {"object": "list",
                                              "data": [{"id": "fake", "object": "model"}]})
                else:
                    self._send_json(404, {"error": "not found"})

            def do_POST(self) -> None:
                received_at = time.monotonic()
                self._status, self._chunks, self._index = 0, 0, None
                self._guard_request = False
                try:
                    self._post()
                finally:
                    if self.path.rstrip("/").endswith("/chat/completions") and not (
                            self._guard_request):
                        server._record_timing(received_at, self._status, self._chunks,
                                              self._index)

            def _post(self) -> None:
                length = int(self.headers.get("Content-Length", "0") or 0)
                raw = self.rfile.read(length) if length else b""
                moderation = self.path.rstrip("/").endswith("/moderations")
                if moderation or self._is_guard(raw):
                    self._guard(raw, moderation)
                    return
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send_json(404, {"error": "not found"})
                    return
                request, self._index = server._record(raw)
                mode = server.mode
                if mode == "error500":
                    self._send_json(500, {"error": {"message": "scripted failure"}})
                    return
                if mode == "reject_guided" and "response_format" in request:
                    self._send_json(400, {"error": {"message": "response_format unsupported"}})
                    return
                if mode == "hang":
                    server._stopping.wait(server.hang_s)
                    self.close_connection = True
                    return
                if mode == "throttle" and self._index is not None and (
                        self._index < server.throttle_count):
                    self.send_response(server.throttle_status)
                    self.send_header("Retry-After", f"{server.retry_after_s:g}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    self._status = server.throttle_status
                    return
                # The answer is chosen before any delay, so a slow request that outlives
                # its test cannot consume the next test's scripted answers.
                content = server._content_for(request)
                if mode == "slow":
                    time.sleep(server.slow_s)
                if mode == "stream" or request.get("stream"):
                    self._stream(content)
                else:
                    self._send_json(200, {
                        "id": "chatcmpl-fake", "object": "chat.completion",
                        "model": request.get("model", "fake"),
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": content}}],
                    })

            def _is_guard(self, raw: bytes) -> bool:
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    return False
                try:
                    doc = json.loads(raw)
                except json.JSONDecodeError:
                    return False
                return isinstance(doc, dict) and doc.get("model") == server.guard_model

            def _guard(self, raw: bytes, moderation: bool) -> None:
                """The fake guard model (issue 27 item 4)."""
                received_at = time.monotonic()
                self._guard_request = True
                try:
                    request = json.loads(raw)
                except json.JSONDecodeError:
                    request = {}
                request = request if isinstance(request, dict) else {}
                mode, verdict = server.guard_mode, server.guard_verdict(request)
                if server.guard_latency_s > 0:
                    server._stopping.wait(server.guard_latency_s)
                status = 200
                try:
                    if mode == "hang":
                        server._stopping.wait(server.hang_s)
                        self.close_connection = True
                        status = 0
                    elif mode == "error500":
                        status = 500
                        self._send_json(500, {"error": {"message": "scripted guard failure"}})
                    elif moderation:
                        lines = verdict.splitlines() if mode == "normal" else ["?"]
                        codes = lines[1].split(",") if len(lines) > 1 else []
                        cats = {MODERATION_NAMES.get(c.strip(), "harassment"): True
                                for c in codes}
                        doc: dict[str, Any] = {"id": "modr-fake", "results": [
                            {"flagged": lines[0] == "unsafe", "categories": cats}]}
                        if mode == "garbage":
                            doc = {"results": "not a list"}
                        self._send_json(200, doc)
                    else:
                        content = verdict if mode == "normal" else (
                            "I think this conversation is lovely and nothing is wrong.")
                        self._send_json(200, {
                            "id": "chatcmpl-guard", "object": "chat.completion",
                            "model": server.guard_model,
                            "choices": [{"index": 0, "finish_reason": "stop",
                                         "message": {"role": "assistant",
                                                     "content": content}}]})
                finally:
                    server._record_guard(request, received_at, status)

            def _stream(self, content: str) -> None:
                keep_alive = server.keep_alive
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                if keep_alive:
                    self.send_header("Transfer-Encoding", "chunked")
                else:
                    self.send_header("Connection", "close")
                self.end_headers()
                self._status = 200
                n = server.chunk_chars

                def send(event: bytes) -> None:
                    if keep_alive:  # one HTTP/1.1 chunk per event, in one write
                        event = f"{len(event):X}\r\n".encode() + event + b"\r\n"
                    if server.mode == "trickle":
                        step = server.trickle_bytes
                        for k in range(0, len(event), step):
                            if server._stopping.wait(server.trickle_delay_s):
                                raise BrokenPipeError("server stopping")
                            self.wfile.write(event[k:k + step])
                            self.wfile.flush()
                        return
                    self.wfile.write(event)
                    self.wfile.flush()

                if server.mode == "cut":
                    content = content[:len(content) // 2]
                try:
                    for i in range(0, len(content), n):
                        ev = {"object": "chat.completion.chunk",
                              "choices": [{"index": 0, "delta": {"content": content[i:i + n]}}]}
                        send(f"data: {json.dumps(ev)}\n\n".encode())
                        server.chunks_sent += 1
                        self._chunks += 1
                        if server.chunk_delay_s > 0:
                            time.sleep(server.chunk_delay_s)
                    if server.mode == "cut":  # no [DONE], no end of the chunked body
                        self.close_connection = True
                        return
                    send(b"data: [DONE]\n\n")
                    hold = server.hold_after_done
                    if hold is not None:
                        released = hold.wait(server.hold_timeout_s)
                        with server._lock:
                            server.holds.append(released)
                    if keep_alive:
                        self.wfile.write(b"0\r\n\r\n")
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True
                    return
                self.close_connection = not keep_alive

        return Handler


def closed_port_url() -> str:
    """A loopback URL where the connection is refused (the port was just released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--mode", choices=MODES, default="normal")
    p.add_argument("--echo", action="store_true", help="answer with the demo echo responder")
    p.add_argument("--guard-model", default=FAKE_GUARD_MODEL,
                   help="model name the fake guard answers to (always 'safe')")
    p.add_argument("--guard-latency", type=float, default=0.0,
                   help="seconds the fake guard takes per verdict")
    args = p.parse_args(argv)
    server = FakeLlmServer(args.mode, echo_responder if args.echo else None, port=args.port,
                           guard_model=args.guard_model)
    server.guard_latency_s = args.guard_latency
    server.start()
    print(server.url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
