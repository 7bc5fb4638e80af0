"""`tts/played`: what Buddy's speaker played, from the tts node to the asr node's software
echo canceller (DESIGN erratum 24). It stays on this machine (DDS confinement) and is
never recorded (HC-3).

A `std_msgs/Float64MultiArray` whose layout names its parts, so no message package has to
change for it: dim 0 `played_at` (size 1: `time.monotonic()` when the first sample reached
the speaker; CLOCK_MONOTONIC is one clock for every process of the machine), dim 1
`samples` (16 kHz mono, in [-1, 1]). data = [played_at, samples...]."""

from __future__ import annotations

import array
import math

import numpy as np
from std_msgs.msg import Float64MultiArray, MultiArrayDimension

from buddy_personality.speech.audio import resample, to_int16
from buddy_personality.speech.endpointing import SAMPLE_RATE

MAX_SAMPLES = SAMPLE_RATE   # one message carries at most a second


def pack_played(at: float, samples: np.ndarray, sample_rate: int) -> Float64MultiArray:
    pcm = resample(np.asarray(samples, dtype=np.float32), sample_rate, SAMPLE_RATE)
    msg = Float64MultiArray()
    msg.layout.dim = [MultiArrayDimension(label="played_at", size=1, stride=1),
                      MultiArrayDimension(label="samples", size=pcm.size, stride=pcm.size)]
    data = array.array("d")
    data.frombytes(np.concatenate([[at], pcm.astype(np.float64)]).tobytes())
    msg.data = data
    return msg


def unpack_played(msg: Float64MultiArray) -> tuple[float, np.ndarray] | None:
    """(played_at, int16 samples at 16 kHz), or None for a message that is not one."""
    dims = [d.label for d in msg.layout.dim]
    data = np.frombuffer(msg.data, dtype=np.float64) if isinstance(msg.data, array.array) \
        else np.asarray(msg.data, dtype=np.float64)
    if dims != ["played_at", "samples"] or data.size < 2 or data.size > MAX_SAMPLES + 1:
        return None
    at = float(data[0])
    samples = data[1:]
    if not math.isfinite(at) or not np.all(np.isfinite(samples)):
        return None
    return at, to_int16(np.clip(samples, -1.0, 1.0).astype(np.float32))



class PlayedResampler:
    """The played stream brought to 16 kHz *as a stream* (issue 29). Resampling each
    batch on its own rounds its length: a 40 ms batch of 880 samples at 22050 Hz became
    639 samples instead of 638.55, the reference grew 0.7 ms a second longer than what
    was played, and the echo canceller saw Buddy's echo walk 30 ms over a story (the
    "drift" the room test measured) and jump back when the track re-anchored it. Here
    output sample j of a stream is the input at j * rate / 16000 exactly, interpolated
    across batch boundaries, and each batch's stamp is its first output sample's time.
    A batch that does not follow the previous one (a gap of silence, another rate)
    starts a new stream."""

    def __init__(self, contiguous_s: float = 0.004) -> None:
        self._contiguous_s = contiguous_s
        self._rate = 0
        self._next_at = -1e18      # where a batch continuing the stream starts (s)
        self._in0 = 0              # the stream's input index of the next batch
        self._out = 0              # the next output index
        self._last = 0.0           # the previous batch's last input sample

    def feed(self, at: float, samples: np.ndarray, rate: int) -> tuple[float, np.ndarray]:
        """(time of the first 16 kHz sample, float32 samples) for one played batch."""
        x = np.asarray(samples, dtype=np.float32)
        if rate == SAMPLE_RATE or x.size == 0:
            return at, x
        if rate != self._rate or abs(at - self._next_at) > self._contiguous_s:
            self._rate, self._in0, self._out, self._last = rate, 0, 0, float(x[0])
            stream_at = at
        else:
            stream_at = self._next_at      # the stream's own time line, not the stamp
        step = rate / SAMPLE_RATE
        end = self._in0 + x.size - 1                   # the last input index held
        n = max(0, int(np.floor(end / step)) - self._out + 1)
        pos = (self._out + np.arange(n)) * step - self._in0 + 1.0   # into [last, x...]
        out = np.interp(pos, np.arange(x.size + 1), np.concatenate([[self._last], x]))
        first_at = stream_at + (self._out * step - self._in0) / rate
        self._out += n
        self._in0 += x.size
        self._last = float(x[-1])
        self._next_at = stream_at + x.size / rate
        return first_at, out.astype(np.float32)
