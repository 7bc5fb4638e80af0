"""The HTTP side of `FakeLlmServer` (fake_llm_server.py): how a request is answered in
each of the server's modes (the list is in fake_llm_server's docstring), the fake guard's
requests (fake_guard.py) and the SSE stream writer (chunked, trickled or cut). The
handler only reads the server's settings and records through its `_record*` methods."""

from __future__ import annotations

import json
import time
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING

from buddy_personality.tools.fakes.fake_guard import guard_reply
from buddy_personality.tools.fakes.json_reply import JsonReplyHandler

if TYPE_CHECKING:
    from buddy_personality.tools.fakes.fake_llm_server import FakeLlmServer


def make_handler(server: FakeLlmServer) -> type[BaseHTTPRequestHandler]:
    """The request handler class bound to `server` (one class per server)."""


    class Handler(JsonReplyHandler):
        def setup(self) -> None:  # once per accepted connection
            super().setup()
            host, port = self.client_address[:2]
            with server._lock:
                server.connections.append((str(host), int(port)))
                server._sockets.append(self.request)

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
            # recorded before the answer: a client that has its verdict may look at once
            # (a fresh clone's run read an empty list: recorded after the reply was sent)
            server._record_guard_request(request)
            mode, verdict = server.guard_mode, server.guard_verdict(request)
            if server.guard_latency_s > 0:
                server._stopping.wait(server.guard_latency_s)
            status = 200
            try:
                if mode == "hang":
                    server._stopping.wait(server.hang_s)
                    self.close_connection = True
                    status = 0
                else:
                    status, doc = guard_reply(mode, verdict, moderation, server.guard_model)
                    self._send_json(status, doc)
            finally:
                server._record_guard_timing(received_at, status)

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
