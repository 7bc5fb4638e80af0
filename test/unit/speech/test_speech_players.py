"""The PortAudio player's cut (DESIGN §4.7, erratum 24, issue 29: playback stops within
100 ms of the child's voice): with `flush_on_cut`, what the device already holds of a cut
line is dropped, so the child hears at most the fade, not the device buffer
(`output_latency_s`, 60 ms).

The sounddevice module is replaced by a device model: a stream keeps `latency` seconds of
blocks ahead of the speaker, pulled from the callback; abort() drops them (Pa_AbortStream),
stop() plays them out (Pa_StopStream)."""

from __future__ import annotations

import sys
import types
from collections import deque
from types import SimpleNamespace
from typing import Any, ClassVar

import numpy as np
import pytest

from buddy_personality.speech.players import SoundDevicePlayer
from buddy_personality.speech.playout import FINISHED, PlayoutEvent

RATE = 16000


class FakeDeviceStream:
    streams: ClassVar[list[FakeDeviceStream]] = []

    def __init__(self, *, samplerate: int, blocksize: int, latency: float,
                 callback: Any, **_: Any) -> None:
        self.blocksize = blocksize
        self.ahead = max(1, round(latency * samplerate / blocksize))
        self.callback = callback
        self.buffer: deque[np.ndarray] = deque()
        self.heard: list[np.ndarray] = []
        self.active = False
        self.closed = False
        FakeDeviceStream.streams.append(self)

    def start(self) -> None:
        self.active = True

    def abort(self) -> None:
        self.buffer.clear()
        self.active = False

    def stop(self) -> None:
        self.heard.extend(self.buffer)
        self.buffer.clear()
        self.active = False

    def close(self, ignore_errors: bool = True) -> None:
        del ignore_errors
        self.closed = True

    def tick(self) -> None:
        """One block's time: the callback fills the buffer, the speaker plays a block."""
        if not self.active:
            return
        while len(self.buffer) < self.ahead:
            out = np.zeros((self.blocksize, 1), dtype=np.float32)
            self.callback(out, self.blocksize,
                          SimpleNamespace(outputBufferDacTime=0.0, currentTime=0.0),
                          SimpleNamespace(output_underflow=False))
            self.buffer.append(out[:, 0].copy())
        self.heard.append(self.buffer.popleft())


@pytest.fixture
def device(monkeypatch: pytest.MonkeyPatch) -> type[FakeDeviceStream]:
    FakeDeviceStream.streams = []
    fake = types.ModuleType("sounddevice")
    fake.OutputStream = FakeDeviceStream  # type: ignore[attr-defined]
    fake.check_output_settings = lambda **_: None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sounddevice", fake)
    return FakeDeviceStream


def test_a_cut_drops_what_the_device_holds_so_only_the_fade_is_heard(device) -> None:
    events: list[PlayoutEvent] = []
    player = SoundDevicePlayer("", RATE, events.extend, block_s=0.01, latency_s=0.06,
                               flush_on_cut=True)
    player.begin(1, "story")
    player.feed(1, np.full(2 * RATE, 0.5, dtype=np.float32), RATE)
    stream = device.streams[-1]
    for _ in range(20):
        stream.tick()
    heard_before = len(stream.heard)
    assert player.cut(1)
    for _ in range(20):
        stream.tick()
    assert device.streams == [stream]       # the same stream plays on
    after = np.concatenate(stream.heard[heard_before:])
    loud = int(np.count_nonzero(np.abs(after) > 0.01))
    # the 5 ms fade (80 samples) may be heard; the 60 ms buffer (960 samples) must not be
    assert loud <= 0.005 * RATE, f"{loud} samples of the cut line heard after the cut"
    finished = [e for e in events if e.kind == FINISHED]
    assert [(e.line_id, e.cut) for e in finished] == [(1, True)]
    player.close()
