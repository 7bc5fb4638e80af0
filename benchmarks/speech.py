"""Speech latency and CPU (issue 21; DESIGN §4.7), measured on the installed `tts_node`
and `asr_node` executables (each its own process, run_node's lean executor), playing into
and recording from a private PulseAudio null sink as on a robot's sound card.

    .venv/bin/python benchmarks/speech.py [--json] [--turns 5] [--cpu-seconds 10]

- `end_of_speech_to_utterance_ms`: a child's line played into the sink (paplay); from its
  last audible sample (as a monitor recording hears it) to `speech/utterance`, minus the
  fake transcription server's fixed delay. It contains the end-of-turn pause
  (`end_silence_s`, 0.9 s: children pause mid-sentence, so the ears wait that long before
  the turn is over); `after_end_of_turn_ms` is the rest (detection, WAV, HTTP, publish).
- `say_to_first_sample_ms` (espeak): `tts/say` published -> the tts node's first sample
  handed to the device (its `tts/speaking` true), and -> audible in the monitor recording
  (adds PulseAudio's buffering).
- `asr_cpu_percent_of_one_core`: the asr process while listening to a quiet room (noise
  at -65 dBFS) and to continuous speech.

Targets (issue 21): end of speech to utterance under 300 ms plus the server's time (here:
`after_end_of_turn_ms`; see above), say to first sample under 150 ms, asr CPU under 5 %.
The machine is shared: figures are noisy; the load average is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from procstat import VENV_BIN, confined_env, cpu_seconds, start, stop, wait_for_nodes

from buddy_personality.speech.audio import WavStreamHeader, resample, wav_bytes

TARGETS = {"after_end_of_turn_ms": 300.0, "say_to_first_sample_ms": 150.0,
           "asr_cpu_percent": 5.0}
STT_DELAY_S = 0.2
CHILD_LINES = ["hey buddy, I like dinosaurs", "can we play a game", "my cat is called Tiger",
               "what do you like to eat", "I went to the park today"]
REPLIES = ["Ooh, how fun! Tell me more about that.", "I love games! Let's play.",
           "Tiger is a great name for a cat.", "I like stories best of all.",
           "The park sounds wonderful."]


def espeak(text: str, rate: int = 16000) -> np.ndarray:
    out = subprocess.run(["espeak-ng", "-v", "en-us+f4", "-s", "140", "-p", "80", "--stdout"],
                         input=text.encode(), capture_output=True, check=True).stdout
    h = WavStreamHeader()
    x = resample(h.feed(out), h.sample_rate, rate)
    loud = np.flatnonzero(np.abs(x) > 0.003)
    return x[loud[0]:loud[-1] + 1]


class Pulse:
    """A private PulseAudio server with one 16 kHz mono null sink (as the tests use)."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="buddy-bench-pulse-"))
        self.env = dict(os.environ, XDG_RUNTIME_DIR=str(self.dir), HOME=str(self.dir),
                        PULSE_SERVER=f"unix:{self.dir}/pulse/native")
        self.proc = subprocess.Popen(
            ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
             "--use-pid-file=no", "-L", "module-native-protocol-unix", "-L",
             "module-null-sink sink_name=bench rate=16000 channels=1"],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while subprocess.run(["pactl", "info"], env=self.env, capture_output=True,
                             check=False).returncode:
            if time.monotonic() > deadline:
                raise RuntimeError("pulseaudio did not start")
            time.sleep(0.1)
        for cmd in (["set-default-sink", "bench"], ["set-default-source", "bench.monitor"]):
            subprocess.run(["pactl", *cmd], env=self.env, check=True)

    def close(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=5)
        shutil.rmtree(self.dir, ignore_errors=True)


class Monitor:
    """parec on the sink's monitor: (arrival time, peak) per 10 ms."""

    def __init__(self, env: dict[str, str]) -> None:
        self.levels: list[tuple[float, float]] = []
        self.proc = subprocess.Popen(
            ["parec", "-d", "bench.monitor", "--raw", "--format=s16le", "--rate=16000",
             "--channels=1", "--latency-msec=10"], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        while data := self.proc.stdout.read(320):
            x = np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2")
            self.levels.append((time.monotonic(), float(np.abs(x).max()) / 32768))

    def first_loud_after(self, t0: float, threshold: float = 0.01) -> float | None:
        return next((t for t, v in self.levels if t >= t0 and v > threshold), None)

    def last_loud_before(self, t1: float, threshold: float = 0.01) -> float | None:
        loud = [t for t, v in self.levels if t <= t1 and v > threshold]
        return loud[-1] if loud else None

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=5)


def play(env: dict[str, str], samples: np.ndarray, tmp: Path) -> None:
    path = tmp / "line.wav"
    path.write_bytes(wav_bytes(samples, 16000))
    subprocess.run(["paplay", "--latency-msec=20", str(path)], env=env, check=True,
                   timeout=30 + samples.size / 16000)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--turns", type=int, default=5)
    ap.add_argument("--cpu-seconds", type=float, default=10.0)
    args = ap.parse_args(argv)
    missing = [b for b in ("pulseaudio", "pactl", "paplay", "parec", "espeak-ng")
               if shutil.which(b) is None]
    if missing:
        print(json.dumps({"error": f"missing {', '.join(missing)} (make setup installs them)"}))
        return 2

    import rclpy
    from std_msgs.msg import Bool

    from buddy_msgs.msg import Say, Utterance
    from buddy_personality.dds_confinement import confine_dds
    from buddy_personality.nodes.common import qos
    from buddy_personality.tools.fakes.fake_stt_server import FakeSttServer

    domain = 51 + os.getpid() % 50
    confine_dds(domain_id=domain)
    pulse = Pulse()
    env = confined_env(domain)
    env.update({k: pulse.env[k] for k in ("XDG_RUNTIME_DIR", "HOME", "PULSE_SERVER")})
    tmp = Path(tempfile.mkdtemp(prefix="buddy-bench-speech-"))
    stt = FakeSttServer(CHILD_LINES, delay_s=STT_DELAY_S).start()
    monitor = Monitor(pulse.env)
    ros_args = ["--ros-args", "-r", "__ns:=/bench", "-p", f"server_url:={stt.url}"]
    asr = start([str(VENV_BIN / "asr_node"), *ros_args], env, tmp / "asr.log")
    tts = start([str(VENV_BIN / "tts_node"), "--ros-args", "-r", "__ns:=/bench"], env,
                tmp / "tts.log")
    rclpy.init()
    node = rclpy.create_node("speech_bench", namespace="/bench")
    utterances: list[float] = []
    speaking: list[tuple[float, bool]] = []
    node.create_subscription(Utterance, "speech/utterance",
                             lambda m: utterances.append(time.monotonic()),
                             qos.of("speech/utterance"))
    node.create_subscription(Bool, "tts/speaking",
                             lambda m: speaking.append((time.monotonic(), m.data)),
                             qos.of("tts/speaking"))
    say = node.create_publisher(Say, "tts/say", qos.of("tts/say"))
    try:
        wait_for_nodes({"/bench/asr", "/bench/tts"}, env)

        def spin_until(pred: Callable[[], bool], timeout: float) -> bool:
            end = time.monotonic() + timeout
            while not pred() and time.monotonic() < end:
                rclpy.spin_once(node, timeout_sec=0.05)
            return pred()

        spin_until(lambda: say.get_subscription_count() > 0, 10)
        time.sleep(2.0)
        # 1. end of the child's speech -> speech/utterance
        hear_ms, after_ms = [], []
        for i in range(args.turns):
            before = len(utterances)
            line = espeak(CHILD_LINES[i % len(CHILD_LINES)])
            t0 = time.monotonic()
            play(pulse.env, np.concatenate([line, np.zeros(8000, np.float32)]), tmp)
            if not spin_until(lambda b=before: len(utterances) > b, 15):
                continue
            end = monitor.last_loud_before(utterances[-1])
            if end is None or end < t0:
                continue
            ms = 1000 * (utterances[-1] - end - STT_DELAY_S)
            hear_ms.append(ms)
            after_ms.append(ms - 900.0)
            time.sleep(1.0)
        # 2. tts/say -> first sample (espeak)
        say_ms, audible_ms = [], []
        for i in range(args.turns):
            n = len(speaking)
            t0 = time.monotonic()
            say.publish(Say(text=REPLIES[i % len(REPLIES)], emotion="happy",
                            session_id=f"bench{i}", turn_id=1))
            if spin_until(lambda n=n: len(speaking) > n and speaking[n][1], 10):
                say_ms.append(1000 * (speaking[n][0] - t0))
                # the monitor hears the line a PulseAudio buffer later: ask once it ended
                spin_until(lambda n=n: len(speaking) > n + 1, 15)
                loud = monitor.first_loud_after(t0)
                if loud is not None:
                    audible_ms.append(1000 * (loud - t0))
            time.sleep(1.0)
        # 3. asr CPU: a quiet room, then continuous speech
        time.sleep(1.0)
        rng = np.random.default_rng(1)
        quiet = (rng.standard_normal(int(16000 * (args.cpu_seconds + 2))) * 10 ** (-65 / 20)
                 ).astype(np.float32)
        cpu_quiet = cpu_while(asr.pid, lambda: play(pulse.env, quiet, tmp), args.cpu_seconds)
        speech = np.concatenate([np.concatenate([espeak(t), np.zeros(3000, np.float32)])
                                 for t in CHILD_LINES * 3])
        cpu_speech = cpu_while(asr.pid, lambda: play(pulse.env, speech, tmp),
                               args.cpu_seconds)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
        for p in (asr, tts):
            stop(p)
        monitor.close()
        stt.stop()
        pulse.close()

    def summary(xs: list[float]) -> dict[str, float | int | None]:
        if not xs:
            return {"n": 0, "median": None, "max": None}
        return {"n": len(xs), "median": round(statistics.median(xs), 1),
                "max": round(max(xs), 1)}

    result = {
        "benchmark": "speech",
        "measured": "asr_node and tts_node executables, one process each, run_node's lean "
                    "executor; audio through a private PulseAudio null sink (paplay in, "
                    "parec on the monitor); fake transcription server with a fixed delay",
        "stt_fixed_delay_ms": 1000 * STT_DELAY_S,
        "end_silence_ms": 900.0,
        "end_of_speech_to_utterance_ms": summary(hear_ms),
        "after_end_of_turn_ms": summary(after_ms),
        "say_to_first_sample_ms": summary(say_ms),
        "say_to_audible_in_sink_ms": summary(audible_ms),
        "asr_cpu_percent_of_one_core": {"quiet_room": cpu_quiet, "speech": cpu_speech},
        "targets": TARGETS,
        "meets_targets": {
            "after_end_of_turn_ms": bool(after_ms) and statistics.median(after_ms) < 300.0,
            "say_to_first_sample_ms": bool(say_ms) and statistics.median(say_ms) < 150.0,
            "asr_cpu_percent": max(cpu_quiet, cpu_speech) < 5.0,
        },
        "loadavg_1min": os.getloadavg()[0],
        "cpus": os.cpu_count(),
    }
    shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k}: {v}")
    return 0


def cpu_while(pid: int, action: Callable[[], None], seconds: float) -> float:
    """CPU % of one core of `pid` over `seconds` while `action` runs in a thread."""
    t = threading.Thread(target=action, daemon=True)
    t.start()
    time.sleep(1.0)
    c0, w0 = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    c1, w1 = cpu_seconds(pid), time.monotonic()
    t.join(timeout=seconds + 30)
    return round(100.0 * (c1 - c0) / (w1 - w0), 2)


if __name__ == "__main__":
    sys.exit(main())
