"""A scripted OpenAI-compatible speech-to-text server, bound to 127.0.0.1 only.

For tests and benchmarks of the `asr` node: `POST /v1/audio/transcriptions` (multipart:
`file` = a WAV, `model`, `language`, ...) answers `{"text": ...}` from a script, after a
fixed `delay_s` (the stand-in for Whisper's own time, which a benchmark subtracts), or
fails as asked (`mode`: `normal`, `error500`). `GET /v1/models` answers as vLLM does.

Every transcription request is recorded (`received`): when it arrived and finished
(`time.monotonic()`, system-wide on Linux, so another process's stamps compare), the
form fields, and the WAV's sample rate and samples, so a test asserts the segment
boundaries, one request per turn and that nothing was sent while Buddy spoke.

Run standalone: `python -m buddy_personality.tools.fakes.fake_stt_server --port 0 --text
"hey buddy"` prints the base URL and serves until interrupted.
"""

from __future__ import annotations

import argparse
import threading
import time
from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler

import numpy as np

from buddy_personality.speech.audio import read_wav
from buddy_personality.tools.fakes.fake_llm_server import _QuietServer
from buddy_personality.tools.fakes.json_reply import JsonReplyHandler

MODES = ("normal", "error500")


@dataclass(slots=True, frozen=True)
class ReceivedTurn:
    received_at: float        # request line and headers read (monotonic s)
    finished_at: float        # answer written
    fields: dict[str, str]    # the form fields but the file
    sample_rate: int
    samples: np.ndarray       # float32 mono
    status: int
    answered: str             # the text answered ("" on an error)

    @property
    def duration_s(self) -> float:
        return self.samples.size / self.sample_rate if self.sample_rate else 0.0


class FakeSttServer:
    """Use as a context manager, or call start() / stop()."""

    def __init__(self, texts: list[str] | None = None, delay_s: float = 0.0,
                 mode: str = "normal", port: int = 0) -> None:
        self.texts = list(texts or ["hello buddy"])
        self.delay_s = delay_s
        self.mode = mode
        self.received: list[ReceivedTurn] = []
        self.other_requests: list[str] = []     # anything else asked (paths)
        self._next = 0
        self._lock = threading.Lock()
        self._added = threading.Condition(self._lock)
        self._httpd = _QuietServer(("127.0.0.1", port), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> FakeSttServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True,
                                        name="fake-stt-server")
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeSttServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def turns(self) -> list[ReceivedTurn]:
        with self._lock:
            return list(self.received)

    def wait_for(self, count: int, timeout_s: float = 10.0) -> list[ReceivedTurn]:
        """The recorded turns once there are `count` (or what there is after timeout_s)."""
        with self._added:
            self._added.wait_for(lambda: len(self.received) >= count, timeout_s)
            return list(self.received)

    def _answer_text(self) -> str:
        with self._lock:
            text = self.texts[min(self._next, len(self.texts) - 1)]
            self._next += 1
            return text

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(JsonReplyHandler):
            def do_GET(self) -> None:
                with server._lock:
                    server.other_requests.append(self.path)
                if server.mode == "error500":
                    self._send_json(500, {"error": "scripted failure"})
                elif self.path.rstrip("/").endswith("/models"):
                    self._send_json(200, {"object": "list",
                                          "data": [{"id": "whisper-1", "object": "model"}]})
                else:
                    self._send_json(404, {"error": "not found"})

            def do_POST(self) -> None:
                received_at = time.monotonic()
                length = int(self.headers.get("Content-Length", "0") or 0)
                raw = self.rfile.read(length) if length else b""
                if not self.path.rstrip("/").endswith("/audio/transcriptions"):
                    with server._lock:
                        server.other_requests.append(self.path)
                    self._send_json(404, {"error": "not found"})
                    return
                fields, wav = _parse_multipart(self.headers.get("Content-Type", ""), raw)
                try:
                    samples, rate = read_wav(wav) if wav else (np.zeros(0, np.float32), 0)
                except (ValueError, EOFError):
                    samples, rate = np.zeros(0, np.float32), 0
                if server.mode == "error500":
                    status, text, doc = 500, "", {"error": {"message": "scripted failure"}}
                elif not wav:
                    status, text, doc = 400, "", {"error": {"message": "no file"}}
                else:
                    text = server._answer_text()
                    if server.delay_s > 0:
                        time.sleep(server.delay_s)
                    status, doc = 200, {"text": text}
                # Recorded before the answer goes out: a client that has its answer finds
                # the turn already in `turns()` (a test raced the recording once).
                turn = ReceivedTurn(received_at, time.monotonic(), fields, rate, samples,
                                    status, text)
                with server._added:
                    server.received.append(turn)
                    server._added.notify_all()
                self._send_json(status, doc)

        return Handler


def _parse_multipart(content_type: str, body: bytes) -> tuple[dict[str, str], bytes]:
    """(form fields, the `file` part's bytes) of a multipart/form-data body."""
    msg = BytesParser(policy=HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    fields: dict[str, str] = {}
    wav = b""
    if not msg.is_multipart():
        return fields, wav
    for part in msg.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True) or b""
        if name == "file":
            wav = payload
        elif isinstance(name, str):
            fields[name] = payload.decode("utf-8", "replace")
    return fields, wav


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--text", action="append", help="answer(s), in order; the last repeats")
    p.add_argument("--delay", type=float, default=0.0, help="seconds before each answer")
    args = p.parse_args(argv)
    server = FakeSttServer(args.text, args.delay, port=args.port).start()
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
