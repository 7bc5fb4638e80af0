"""Voices (DESIGN §4.7): text + prosody in, audio chunks out as they are synthesised, so
playback starts before a long line is finished.

- `EspeakSynth`: espeak-ng from the system packages, the robot's default: offline and
  small, so Buddy still speaks with the server down. Text goes in on stdin (never as an
  argument a line could turn into an option); WAV comes back on stdout, streamed.
- `ServerSynth`: the home server's OpenAI-compatible `POST /v1/audio/speech`, the mood in
  words as the request's `instructions`, streamed WAV back.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from buddy_personality.speech.audio import WavStreamHeader
from buddy_personality.speech.prosody import DEFAULT_VOICE, Prosody

READ_BYTES = 4096


@dataclass(slots=True, frozen=True)
class AudioChunk:
    samples: np.ndarray      # float32 mono in [-1, 1]
    sample_rate: int


class SynthError(RuntimeError):
    """The voice could not say the line (missing binary, server error)."""


class Synthesizer(Protocol):
    name: str

    def stream(self, text: str, prosody: Prosody,
               cancel: threading.Event) -> Iterator[AudioChunk]: ...


def espeak_available(binary: str = "espeak-ng") -> bool:
    return shutil.which(binary) is not None


class QuietEdges:
    """Drops a voice's leading and trailing near-silence as the chunks stream by, so the
    first sample played is the first audible one and the last is the last (espeak-ng pads
    a line with ~0.4 s of silence): `tts/speaking` then brackets what a child hears."""

    def __init__(self, threshold: float = 0.003, keep_s: float = 0.02) -> None:
        self._threshold = threshold
        self._keep_s = keep_s
        self._started = False
        self._held: list[AudioChunk] = []   # quiet audio that only plays if more follows

    def push(self, chunk: AudioChunk) -> list[AudioChunk]:
        loud = np.flatnonzero(np.abs(chunk.samples) > self._threshold)
        if loud.size == 0:
            if self._started:
                self._held.append(chunk)
            return []
        samples = chunk.samples
        if not self._started:
            self._started = True
            samples = samples[max(0, loud[0] - round(self._keep_s * chunk.sample_rate)):]
            loud = np.flatnonzero(np.abs(samples) > self._threshold)
        out, self._held = self._held, []
        cut = loud[-1] + 1
        out.append(AudioChunk(samples[:cut], chunk.sample_rate))
        if cut < samples.size:
            self._held.append(AudioChunk(samples[cut:], chunk.sample_rate))
        return out

    def finish(self) -> list[AudioChunk]:
        """The end of the line: a short tail of the held silence, so it does not click."""
        if not self._held:
            return []
        rate = self._held[0].sample_rate
        tail = np.concatenate([c.samples for c in self._held])[: round(self._keep_s * rate)]
        self._held = []
        return [AudioChunk(tail, rate)]


def trimmed(chunks: Iterator[AudioChunk]) -> Iterator[AudioChunk]:
    edges = QuietEdges()
    for chunk in chunks:
        yield from edges.push(chunk)
    yield from edges.finish()


class EspeakSynth:
    name = "espeak"

    def __init__(self, binary: str = "espeak-ng", voice: str = DEFAULT_VOICE) -> None:
        path = shutil.which(binary)
        if path is None:
            raise SynthError(f"{binary} not found (apt-get install espeak-ng)")
        self._binary = path
        self._voice = voice

    def command(self, prosody: Prosody) -> list[str]:
        voice = f"{self._voice}+{prosody.variant}" if prosody.variant else self._voice
        return [self._binary, "-v", voice, "-s", str(prosody.rate_wpm), "-p",
                str(prosody.pitch), "-a", str(prosody.volume), "--stdout"]

    def stream(self, text: str, prosody: Prosody,
               cancel: threading.Event) -> Iterator[AudioChunk]:
        proc = subprocess.Popen(self.command(prosody), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(text.encode("utf-8"))
            proc.stdin.close()
            header = WavStreamHeader()
            while not cancel.is_set():
                data = proc.stdout.read(READ_BYTES)
                if not data:
                    break
                samples = header.feed(data)
                if samples.size:
                    yield AudioChunk(samples, header.sample_rate)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            err = proc.stderr.read().decode("utf-8", "replace").strip() if proc.stderr else ""
            for f in (proc.stdout, proc.stderr):
                if f is not None:
                    f.close()
        if proc.returncode not in (0, -9) and not cancel.is_set():
            raise SynthError(f"espeak-ng exited {proc.returncode}: {err[:200]}")


class ServerSynth:
    """OpenAI-compatible text-to-speech (`/v1/audio/speech`), streamed WAV."""

    name = "server"

    def __init__(self, base_url: str, model: str, voice: str, timeout_s: float = 10.0,
                 connect_timeout_s: float = 2.0) -> None:
        import httpx  # noqa: PLC0415 - only the server backend needs it

        if not base_url:
            raise SynthError("tts backend 'server' needs server_url")
        self._url = base_url.rstrip("/") + "/audio/speech"
        self._model, self._voice = model, voice
        # trust_env=False: Buddy's lines go to the configured server only, never a proxy
        # named by the environment (DESIGN §4.7).
        self._client = httpx.Client(timeout=httpx.Timeout(timeout_s, connect=connect_timeout_s),
                                    trust_env=False)

    def stream(self, text: str, prosody: Prosody,
               cancel: threading.Event) -> Iterator[AudioChunk]:
        import httpx  # noqa: PLC0415

        body = {"model": self._model, "input": text, "voice": self._voice,
                "instructions": prosody.instructions, "speed": prosody.speed,
                "response_format": "wav"}
        header = WavStreamHeader()
        try:
            with self._client.stream("POST", self._url, json=body) as resp:
                if resp.status_code != 200:
                    raise SynthError(f"{self._url} answered HTTP {resp.status_code}")
                for data in resp.iter_bytes():
                    if cancel.is_set():
                        return
                    samples = header.feed(data)
                    if samples.size:
                        yield AudioChunk(samples, header.sample_rate)
        except httpx.HTTPError as exc:
            raise SynthError(f"{self._url}: {exc!r}") from exc
        except ValueError as exc:
            raise SynthError(f"{self._url}: {exc}") from exc

    def close(self) -> None:
        self._client.close()
