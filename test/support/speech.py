"""Speech test helpers: child-like utterances made with espeak-ng at test time (no audio
is checked in), pitch measured from audio, and a private PulseAudio server with a null
sink for the real device path (DESIGN §4.7; issue 21)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from buddy_personality.speech.audio import WavStreamHeader, resample, wav_bytes

ESPEAK = shutil.which("espeak-ng")
needs_espeak = pytest.mark.skipif(ESPEAK is None,
                                  reason="espeak-ng is not installed (apt-get install espeak-ng)")

# A child's voice as espeak-ng can make one: a higher female variant, a little slow.
CHILD_VOICE = ("en-us+f4", 140, 80)


def espeak(text: str, voice: str = CHILD_VOICE[0], rate: int = CHILD_VOICE[1],
           pitch: int = CHILD_VOICE[2], sample_rate: int = 16000) -> np.ndarray:
    """float32 mono samples of `text` spoken by espeak-ng, resampled to `sample_rate`."""
    assert ESPEAK is not None
    out = subprocess.run([ESPEAK, "-v", voice, "-s", str(rate), "-p", str(pitch), "--stdout"],
                         input=text.encode(), capture_output=True, check=True).stdout
    header = WavStreamHeader()
    samples = header.feed(out)
    return resample(samples, header.sample_rate, sample_rate)


def silence(seconds: float, sample_rate: int = 16000) -> np.ndarray:
    return np.zeros(round(seconds * sample_rate), dtype=np.float32)


def trim(samples: np.ndarray, threshold: float = 0.01) -> np.ndarray:
    """Without leading and trailing near-silence (espeak-ng pads its output)."""
    loud = np.flatnonzero(np.abs(samples) > threshold)
    return samples[loud[0]:loud[-1] + 1] if loud.size else samples[:0]


def write_wav(path: Path, samples: np.ndarray, sample_rate: int = 16000) -> Path:
    """Write to a temporary name, then rename: a directory watcher never sees half a file."""
    tmp = path.with_suffix(".part")
    tmp.write_bytes(wav_bytes(samples, sample_rate))
    tmp.rename(path)
    return path


def speech_bounds(samples: np.ndarray, sample_rate: int, threshold: float = 0.02,
                  hold_s: float = 0.05) -> tuple[float, float]:
    """(first, last) second where the signal is louder than `threshold` (5 ms windows)."""
    win = max(1, round(0.005 * sample_rate))
    n = samples.size // win
    env = np.abs(samples[: n * win]).reshape(n, win).max(axis=1)
    loud = np.flatnonzero(env > threshold)
    if loud.size == 0:
        return (0.0, 0.0)
    del hold_s
    return loud[0] * win / sample_rate, (loud[-1] + 1) * win / sample_rate


def median_f0(samples: np.ndarray, sample_rate: int, fmin: float = 70.0,
              fmax: float = 500.0) -> float:
    """Median fundamental frequency (Hz) of the voiced 40 ms frames, by autocorrelation."""
    frame = round(0.04 * sample_rate)
    lo, hi = int(sample_rate / fmax), int(sample_rate / fmin)
    f0s: list[float] = []
    peak = float(np.max(np.abs(samples))) or 1.0
    for i in range(0, samples.size - frame, frame // 2):
        x = samples[i:i + frame].astype(np.float64)
        if np.sqrt(np.mean(x * x)) < 0.1 * peak:
            continue
        x = x - x.mean()
        ac = np.correlate(x, x, mode="full")[frame - 1:]
        if ac[0] <= 0:
            continue
        lag = lo + int(np.argmax(ac[lo:hi]))
        if ac[lag] / ac[0] > 0.5:        # clearly periodic: voiced
            f0s.append(sample_rate / lag)
    return float(np.median(f0s)) if f0s else 0.0


# -- PulseAudio null sink ---------------------------------------------------------------

PULSE_MISSING = [b for b in ("pulseaudio", "pactl") if shutil.which(b) is None]


@dataclass(slots=True)
class PulseServer:
    runtime_dir: Path
    sink: str
    env: dict[str, str]
    room: str = ""          # pulse_room: the sink whose monitor is the microphone

    @property
    def monitor(self) -> str:
        return f"{self.sink}.monitor"

    def pactl(self, *args: str) -> str:
        return subprocess.run(["pactl", *args], env=self.env, check=True, capture_output=True,
                              text=True).stdout


def portaudio_missing() -> str | None:
    try:
        import sounddevice  # noqa: F401
    except OSError as exc:
        return f"PortAudio is missing ({exc}); apt-get install libportaudio2"
    return None


def alsa_pulse_plugin_missing() -> str | None:
    for d in ("/usr/lib/x86_64-linux-gnu/alsa-lib", "/usr/lib/aarch64-linux-gnu/alsa-lib",
              "/usr/lib/alsa-lib"):
        if Path(d, "libasound_module_pcm_pulse.so").exists():
            return None
    return "the ALSA pulse plug-in is missing (apt-get install libasound2-plugins)"


@pytest.fixture
def pulse() -> Iterator[PulseServer]:
    """A private PulseAudio server (`pulseaudio -n`: no default config) with only the
    native protocol on a unix socket and one null sink, under its own XDG_RUNTIME_DIR.
    The default sink is the null sink and the default source its monitor, so whatever
    plays into it can be recorded back. Skips with the reason when a package is missing."""
    yield from _pulse_server(room=False)


@pytest.fixture
def pulse_room() -> Iterator[PulseServer]:
    """As `pulse`, with a room between Buddy's speaker and its microphone (DESIGN
    erratum 24): Buddy plays into the `speaker` null sink, a loopback carries it (20 ms
    later, as through the air) into the `room` null sink, where a child's voice is played
    too, and the default microphone is the room's monitor. PulseAudio cancels echo only
    between a sink and a source that is not its own monitor: this is the robot's shape."""
    yield from _pulse_server(room=True)


def _pulse_server(room: bool) -> Iterator[PulseServer]:
    reasons = [f"{b} is not installed (apt-get install pulseaudio pulseaudio-utils)"
               for b in PULSE_MISSING]
    for r in (portaudio_missing(), alsa_pulse_plugin_missing()):
        if r:
            reasons.append(r)
    if reasons:
        pytest.skip("; ".join(reasons))
    runtime = Path(tempfile.mkdtemp(prefix="buddy-pulse-"))
    sink = "speaker" if room else "buddy_sink"
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), HOME=str(runtime),
               PULSE_SERVER=f"unix:{runtime}/pulse/native")
    env.pop("DISPLAY", None)
    log = open(runtime / "pulse.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
         "--use-pid-file=no", "-L", "module-native-protocol-unix",
         "-L", f"module-null-sink sink_name={sink} rate=16000 channels=1",
         "--log-target=stderr"], env=env, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 10.0
        while subprocess.run(["pactl", "info"], env=env, capture_output=True,
                             check=False).returncode:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.skip("pulseaudio did not start: "
                            + (runtime / "pulse.log").read_text(errors="replace")[-400:])
            time.sleep(0.1)
        server = PulseServer(runtime, sink, env)
        mic = f"{sink}.monitor"
        if room:
            server.room = "room"
            server.pactl("load-module", "module-null-sink", "sink_name=room", "rate=16000",
                         "channels=1")
            server.pactl("load-module", "module-loopback", f"source={sink}.monitor",
                         "sink=room", "latency_msec=20")
            mic = "room.monitor"
        for cmd in (["set-default-sink", sink], ["set-default-source", mic]):
            server.pactl(*cmd)
        yield server
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        shutil.rmtree(runtime, ignore_errors=True)
