"""The `server` voice (DESIGN §4.7: the home server's OpenAI-compatible `/v1/audio/speech`,
the mood in words as the request's instructions) against a small recording server on
127.0.0.1: one request per line with the mood's row of speech/prosody.py, the WAV it
streams back handed over as samples, and a refusal as a SynthError (the node then falls
back to espeak)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from buddy_personality.speech.audio import wav_bytes
from buddy_personality.speech.prosody import prosody_for
from buddy_personality.speech.synth import ServerSynth, SynthError

RATE = 24000
TONE = (np.sin(np.arange(RATE // 2) / 7.0) * 0.4).astype(np.float32)   # half a second


class VoiceServer:
    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.bodies: list[dict] = []
        self.paths: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_a: object) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                server.paths.append(self.path)
                server.bodies.append(json.loads(self.rfile.read(length)))
                body = wav_bytes(TONE, RATE) if server.status == 200 else b"busy"
                self.send_response(server.status)
                self.send_header("Content-Type", "audio/wav")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                # in pieces, as a streaming server sends it
                for i in range(0, len(body), 1000):
                    self.wfile.write(body[i:i + 1000])

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def voice_server() -> Iterator[VoiceServer]:
    server = VoiceServer()
    try:
        yield server
    finally:
        server.close()


def test_one_request_per_line_with_the_moods_words_and_the_wav_streamed_back(
        voice_server: VoiceServer) -> None:
    synth = ServerSynth(voice_server.url, model="tts-1", voice="buddy")
    try:
        chunks = {}
        for mood in ("sad", "excited"):
            _key, row = prosody_for(mood)
            chunks[mood] = list(synth.stream(f"A {mood} line.", row, threading.Event()))
    finally:
        synth.close()
    assert voice_server.paths == ["/v1/audio/speech"] * 2
    sad, excited = voice_server.bodies
    for body, mood in ((sad, "sad"), (excited, "excited")):
        _key, row = prosody_for(mood)
        assert body == {"model": "tts-1", "input": f"A {mood} line.", "voice": "buddy",
                        "instructions": row.instructions, "speed": row.speed,
                        "response_format": "wav"}
    # §11.5 as the table says it: a sad Buddy slower than an excited one, in other words
    assert sad["speed"] < excited["speed"] and sad["instructions"] != excited["instructions"]
    for got in chunks.values():
        assert {c.sample_rate for c in got} == {RATE}
        samples = np.concatenate([c.samples for c in got])
        assert samples.size == TONE.size
        assert np.allclose(samples, TONE, atol=2 / 32768)


def test_a_refusing_server_is_a_synth_error(voice_server: VoiceServer) -> None:
    voice_server.status = 503
    synth = ServerSynth(voice_server.url, model="tts-1", voice="buddy")
    try:
        with pytest.raises(SynthError, match="HTTP 503"):
            list(synth.stream("Hello!", prosody_for("happy")[1], threading.Event()))
    finally:
        synth.close()


def test_no_server_url_is_refused_at_once() -> None:
    with pytest.raises(SynthError, match="needs server_url"):
        ServerSynth("", model="tts-1", voice="buddy")
