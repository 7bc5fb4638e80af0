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

