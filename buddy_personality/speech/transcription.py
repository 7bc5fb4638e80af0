"""The home server's OpenAI-compatible `POST /v1/audio/transcriptions` (Whisper via vLLM,
faster-whisper or whisper.cpp servers all speak it): one WAV per child turn, built in
memory and sent only to the configured server (HC-3, DESIGN §4.7)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import httpx
import numpy as np

from buddy_personality.speech.audio import wav_bytes


@dataclass(slots=True, frozen=True)
class Transcript:
    ok: bool
    text: str = ""
    error: str = ""
    latency_s: float = 0.0
    timed_out: bool = False   # no answer within the timeout (a slow server, not a dead one)


class TranscriptionClient:
    def __init__(self, base_url: str, model: str = "whisper-1", language: str = "en",
                 timeout_s: float = 10.0, connect_timeout_s: float = 2.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.url = self.base_url + "/audio/transcriptions"
        self.model, self.language = model, language
        # trust_env=False: no HTTP(S)_PROXY or .netrc from the environment; the child's
        # voice goes to the configured server and no other host (DESIGN §4.7, HC-3).
        self._client = httpx.Client(timeout=httpx.Timeout(timeout_s, connect=connect_timeout_s),
                                    trust_env=False)

    def transcribe(self, audio: np.ndarray, sample_rate: int) -> Transcript:
        start = time.monotonic()
        files = {"file": ("turn.wav", wav_bytes(audio, sample_rate), "audio/wav")}
        data = {"model": self.model, "response_format": "json"}
        if self.language:
            data["language"] = self.language
        try:
            resp = self._client.post(self.url, files=files, data=data)
        except httpx.HTTPError as exc:
            return Transcript(False, error=f"{type(exc).__name__}: {exc}",
                              latency_s=time.monotonic() - start,
                              timed_out=isinstance(exc, httpx.ReadTimeout))
        latency = time.monotonic() - start
        if resp.status_code != 200:
            return Transcript(False, error=f"HTTP {resp.status_code}", latency_s=latency)
        try:
            body = resp.json()
            text = body["text"] if isinstance(body, dict) else None
        except ValueError:
            text = None
        if not isinstance(text, str):
            return Transcript(False, error="answer without a 'text' string", latency_s=latency)
        return Transcript(True, " ".join(text.split()), latency_s=latency)

    def probe(self) -> bool:
        """Whether the server answers at all (whisper.cpp has no /models: any HTTP answer
        counts; only a connection failure or a 5xx means it is down)."""
        try:
            resp = self._client.get(self.base_url + "/models")
        except httpx.HTTPError:
            return False
        return resp.status_code < 500

    def close(self) -> None:
        self._client.close()
