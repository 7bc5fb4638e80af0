"""The request handler base the fake servers share (fake_llm_handler.py, fake_stt_server.py):
HTTP/1.1 keep-alive, no request log on stderr (quiet in tests), and one way to answer with
a JSON document."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from typing import Any


class JsonReplyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    _status = 0  # the status of the last answer (the fake LLM server records it per request)

    def log_message(self, *_args: object) -> None:  # quiet in tests
        return

    def _send_json(self, code: int, doc: dict[str, Any]) -> None:
        """Answer `code` with `doc` as JSON (Content-Length set, flushed at once)."""
        data = json.dumps(doc).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()
        self._status = code
