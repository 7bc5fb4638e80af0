"""asr node (DESIGN §4.7, erratum 24): Buddy's ears.

A thin shell around the speech cores: frames from a microphone or WAV input
(`speech.capture`), Buddy's own voice taken out (`speech.echo`), Silero VAD
(`speech.vad`), the child's turn (`speech.endpointing`), whether Buddy may be audible and
the server's health (`speech.ears`), the home server's `/v1/audio/transcriptions`
(`speech.transcription`).

- inputs: `tts/speaking` (while Buddy speaks, and `speaking_tail_s` after, the child needs
  more evidence: erratum 24), `tts/played` (what the speaker played: the software echo
  canceller's reference, only with `echo_canceller: software`).
- outputs: `speech/activity` (std_msgs/Bool: the child is speaking; the bridge shows
  LISTENING, the tts node stops Buddy's voice: barge-in), `speech/utterance` (one per
  turn, final: a turn sent in several segments is answered once, after its last),
  `system/events` (FAULT_RAISED / FAULT_CLEARED `asr_unavailable`, and `asr_slow` when the
  server takes a turn but answers slowly: the bridge says each once, the face shows the
  error state), `/diagnostics` at 1 Hz.

Threads: capture -> frame queue -> the listening thread (echo canceller, VAD,
endpointing) -> segment queue -> the transcription thread (one request at a time, in
order). Results come back to the executor through an `Inbox`. Audio stays in memory
(HC-3) and goes only to `server_url`.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from typing import Any

import numpy as np
from rclpy.node import Node
from std_msgs.msg import Bool, Float64MultiArray

from buddy_msgs.msg import SystemEvent, Utterance
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.diagnostics import ERROR, OK, WARN, DiagnosticsPublisher, Health
from buddy_personality.nodes.common.inbound import InboundChecks
from buddy_personality.nodes.common.inbox import Inbox
from buddy_personality.nodes.common.parameters import ParamSpec, declare_parameters
from buddy_personality.nodes.common.runtime import ClosesOwnResources, run_node
from buddy_personality.speech.capture import MicSource, WavSource
from buddy_personality.speech.ears import (
    CLEAR,
    FAULT_NAME,
    RAISE,
    SLOW_FAULT_NAME,
    EarsHealth,
    SlowServer,
    SpeakingGate,
    child_evidence,
)
from buddy_personality.speech.echo import MODES as ECHO_MODES
from buddy_personality.speech.echo import (
    EchoCanceller,
    EchoCancellerUnavailable,
    make_canceller,
)
from buddy_personality.speech.endpointing import (
    FRAME_S,
    SAMPLE_RATE,
    ActivityChanged,
    EndpointConfig,
    Endpointer,
    Segment,
)
from buddy_personality.speech.played import unpack_played
from buddy_personality.speech.players import AudioUnavailable
from buddy_personality.speech.transcription import Transcript, TranscriptionClient
from buddy_personality.speech.vad import Vad, VadUnavailable

TEXT_MAX = 2000
PROBE_TICK_S = 1.0   # how often the STT probe schedule and a slow request are looked at
SEGMENT_QUEUE = 32   # segments waiting for the server (a long turn on a slow server)

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("server_url", "", "transcription server base URL (…/v1); the only host audio "
              "is sent to", read_only=True),
    ParamSpec("model", "whisper-1", "model name for /v1/audio/transcriptions", read_only=True),
    ParamSpec("language", "en", "language hint for the transcription ('' = detect)",
              read_only=True),
    ParamSpec("request_timeout_s", 30.0, "timeout of one transcription request: a slow "
              "server still answers within it (the child is told after slow_notice_s)",
              min=0.5, max=120.0, read_only=True),
    ParamSpec("slow_notice_s", 4.0, "a request still running after this long: Buddy says "
              "once that it has trouble hearing", min=0.5, max=120.0, read_only=True),
    ParamSpec("connect_timeout_s", 2.0, "TCP connect timeout", min=0.05, max=60.0,
              read_only=True),
    ParamSpec("attempts", 2, "tries per segment while the server works (a timed-out "
              "request is not sent again)", min=1, max=5, read_only=True),
    ParamSpec("input_device", "", "PortAudio input device: '' = system default, an index, or "
              "part of a name", read_only=True),
    ParamSpec("input_wav", "", "read a WAV file, or a directory's WAV files as they appear, "
              "instead of a microphone (tests)", read_only=True),
    ParamSpec("input_gap_s", 1.5, "silence after each input WAV", min=0.0, max=60.0,
              read_only=True),
    ParamSpec("echo_canceller", "server", "Buddy's voice out of the microphone (erratum 24): "
              "server (the audio server's module-echo-cancel cleans input_device), software "
              "(speexdsp with tts/played as reference), off", choices=ECHO_MODES,
              read_only=True),
    ParamSpec("vad_floor_dbfs", -55.0, "frames quieter than this skip the VAD model",
              min=-120.0, max=0.0, read_only=True),
    ParamSpec("start_threshold", 0.5, "VAD probability that starts a turn", min=0.0, max=1.0,
              read_only=True),
    ParamSpec("end_threshold", 0.35, "VAD probability below which a frame is a pause",
              min=0.0, max=1.0, read_only=True),
    ParamSpec("min_speech_s", 0.16, "speech before speech/activity goes true", min=0.0,
              max=5.0, read_only=True),
    ParamSpec("speaking_start_threshold", 0.8, "while Buddy speaks (and speaking_tail_s "
              "after): VAD probability that counts as the child", min=0.0, max=1.0,
              read_only=True),
    ParamSpec("speaking_min_speech_s", 0.3, "while Buddy speaks: the child's speech before "
              "speech/activity goes true (a barge-in)", min=0.0, max=5.0, read_only=True),
    ParamSpec("end_silence_s", 0.9, "pause that ends a child's turn (children pause "
              "mid-sentence)", min=0.1, max=10.0, read_only=True),
    ParamSpec("min_turn_s", 0.3, "shorter speech is not transcribed", min=0.0, max=10.0,
              read_only=True),
    ParamSpec("max_turn_s", 15.0, "a longer turn is sent in segments of this length, and "
              "answered once after the child stops", min=1.0, max=120.0, read_only=True),
    ParamSpec("speaking_tail_s", 0.4, "Buddy's voice may still be heard this long after it "
              "stops speaking (stricter evidence)", min=0.0, max=10.0, read_only=True),
    ParamSpec("backoff_initial_s", 1.0, "first retry delay while the server is down",
              min=0.05, max=600.0, read_only=True),
    ParamSpec("backoff_max_s", 30.0, "longest retry delay", min=0.1, max=3600.0,
              read_only=True),
)


class AsrNode(InboundChecks, ClosesOwnResources, Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("asr", **node_kwargs)
        self.params = p = declare_parameters(self, PARAMETERS)
        self._endpointer = Endpointer(EndpointConfig(
            start_threshold=p["start_threshold"], end_threshold=p["end_threshold"],
            min_speech_s=p["min_speech_s"], end_silence_s=p["end_silence_s"],
            min_turn_s=p["min_turn_s"], max_turn_s=p["max_turn_s"],
            speaking_start_threshold=p["speaking_start_threshold"],
            speaking_min_speech_s=p["speaking_min_speech_s"]))
        self._gate = SpeakingGate(tail_s=p["speaking_tail_s"])
        self._gate_lock = threading.Lock()
        self._health_core = EarsHealth(p["backoff_initial_s"], p["backoff_max_s"])
        self._slow = SlowServer(p["slow_notice_s"])
        self._request_started: float | None = None     # the transcription thread's request
        self._client = TranscriptionClient(
            p["server_url"], p["model"], p["language"], p["request_timeout_s"],
            p["connect_timeout_s"]) if p["server_url"] else None
        self._closing = threading.Event()
        self._inbox: Inbox[tuple[str, Any]] = Inbox(self, self._on_item)
        self._frames: queue.Queue[tuple[float, np.ndarray] | None] = queue.Queue(maxsize=500)
        self._segments: queue.Queue[tuple[str, Segment | None]] = queue.Queue(
            maxsize=SEGMENT_QUEUE)
        self._counts: dict[str, int] = {}
        self._last_latency_s: float | None = None
        self._last_error = ""
        self._active = False
        self._lag_s = 0.0                       # largest capture-to-listening delay
        self._turn_texts: list[str] = []       # transcripts of the current turn's segments
        self._source: Any = None
        self._vad: Vad | None = None
        self._aec: EchoCanceller | None = None
        self._setup_error = ""

        self._pub_activity = self.create_publisher(Bool, "speech/activity",
                                                   qos.of("speech/activity"))
        self._pub_utterance = self.create_publisher(Utterance, "speech/utterance",
                                                    qos.of("speech/utterance"))
        self._pub_system = self.create_publisher(SystemEvent, "system/events",
                                                 qos.of("system/events"))
        self.create_subscription(Bool, "tts/speaking", self._on_speaking, qos.of("tts/speaking"))
        # The tick only schedules the recogniser-server probe and looks at a running
        # request (seconds apart): once a second is enough (issue 14 idle CPU).
        self.create_timer(PROBE_TICK_S, self._tick)
        self._diagnostics = DiagnosticsPublisher(self, self._health)

        if not p["server_url"]:
            # No home server, no ears: nothing is captured (typed input and the talk
            # button still work). Not a fault: nothing is said about it.
            self.get_logger().info("no server_url: not listening")
        else:
            self._open_input()
        if self._aec is not None and p["echo_canceller"] == "software":
            # Node's own create_subscription: a float sequence has no range for the inbound
            # checks to apply; unpack_played checks it (layout, size, finite values)
            Node.create_subscription(self, Float64MultiArray, "tts/played", self._on_played,
                                     qos.of("tts/played"))
        self._listener = threading.Thread(target=self._listen, name="asr-listen", daemon=True)
        self._transcriber = threading.Thread(target=self._transcribe_loop,
                                             name="asr-transcribe", daemon=True)
        if self._source is not None:
            self._listener.start()
            self._transcriber.start()
            self._source.start()

    def _open_input(self) -> None:
        p = self.params
        try:
            self._vad = Vad(p["vad_floor_dbfs"])
            self._aec = make_canceller(p["echo_canceller"])
            self._source = (WavSource(p["input_wav"], self._on_frame, p["input_gap_s"])
                            if p["input_wav"] else MicSource(p["input_device"], self._on_frame))
        except (VadUnavailable, EchoCancellerUnavailable, AudioUnavailable, FileNotFoundError,
                OSError) as exc:
            self._setup_error = str(exc)
            self.get_logger().error(f"cannot listen: {exc}")
            self._source = None
        except Exception as exc:  # PortAudio errors from sounddevice (no such device)
            self._setup_error = f"input device: {exc}"
            self.get_logger().error(f"cannot listen: {self._setup_error}")
            self._source = None

    # -- inputs --------------------------------------------------------------------------
    def _on_speaking(self, msg: Bool) -> None:
        with self._gate_lock:
            self._gate.on_speaking(time.monotonic(), bool(msg.data))

    def _on_played(self, msg: Float64MultiArray) -> None:
        played = unpack_played(msg)
        if played is None:
            self._count("bad_played_audio")
            return
        if self._aec is not None:
            self._aec.reference(*played)

    def _on_frame(self, at: float, frame: np.ndarray) -> None:
        """Capture thread: hand the frame on; never block the audio callback."""
        try:
            self._frames.put_nowait((at, frame))
        except queue.Full:
            self._count("frames_dropped")

    # -- the listening thread ------------------------------------------------------------
    def _listen(self) -> None:
        """Hears all the time (erratum 24): Buddy's voice is taken out by the echo
        canceller, and while it may be audible the child needs more evidence."""
        assert self._vad is not None and self._aec is not None
        while not self._closing.is_set():
            item = self._frames.get()
            if item is None:
                return
            at, frame = item
            # how late the ears are: a barge-in can be no earlier than this
            self._lag_s = max(self._lag_s, time.monotonic() - at - FRAME_S)
            with self._gate_lock:
                buddy = self._gate.buddy_audible(at)
            if buddy:
                self._count("frames_over_buddy")
            frame = self._aec.process(at, frame)
            prob, set_aside = child_evidence(
                self._vad.probability(frame), buddy_audible=buddy,
                echo_like=self._aec.echo_like, unreferenced=self._aec.unreferenced)
            if set_aside is not None:
                self._count(set_aside)
            events = self._endpointer.push(at, frame, prob, buddy)
            for ev in events:
                if isinstance(ev, ActivityChanged):
                    self._inbox.post(("activity", ev.active))
                else:
                    self._queue_segment(ev)

    def _queue_segment(self, seg: Segment) -> None:
        try:
            self._segments.put_nowait(("turn", seg))
        except queue.Full:
            self._count("segments_dropped_busy")
            self.get_logger().error("transcription queue full: a segment of the child's "
                                    "speech is lost")

    # -- the transcription thread --------------------------------------------------------
    def _transcribe_loop(self) -> None:
        while not self._closing.is_set():
            kind, seg = self._segments.get()
            if kind == "stop":
                return
            if kind == "probe":
                ok = self._client.probe() if self._client is not None else False
                self._inbox.post(("probe", ok))
                continue
            assert seg is not None
            if seg.audio.size == 0:         # closes a turn sent in segments: nothing to send
                self._inbox.post(("result", (seg, Transcript(True))))
                continue
            self._inbox.post(("result", (seg, self._transcribe(seg))))

    def _transcribe(self, seg: Segment) -> Transcript:
        if self._client is None:
            return Transcript(False, error="no server_url configured")
        attempts = self.params["attempts"] if self._health_core.up else 1
        result = Transcript(False, error="not tried")
        for i in range(attempts):
            if self._closing.is_set():
                break
            self._request_started = time.monotonic()
            try:
                result = self._client.transcribe(seg.audio, SAMPLE_RATE)
            finally:
                self._request_started = None
            # a timed-out request is not sent again: a slow server would get it twice
            if result.ok or result.timed_out:
                break
            if i + 1 < attempts:
                self._closing.wait(0.25)
        return result

    # -- worker threads -> executor ------------------------------------------------------
    def _on_item(self, item: tuple[str, Any]) -> None:
        kind, payload = item
        now = time.monotonic()
        if kind == "activity":
            self._active = payload
            self._pub_activity.publish(Bool(data=bool(payload)))
        elif kind == "result":
            seg, result = payload
            self._on_result(now, seg, result)
        elif kind == "probe":
            if payload:
                self._ears(self._health_core.on_success(now))
            else:
                self._ears(self._health_core.on_failure(now))

    def _on_result(self, now: float, seg: Segment, result: Transcript) -> None:
        if seg.audio.size:
            self._last_latency_s = result.latency_s
            self._ears(self._slow.on_answer(result.latency_s), SLOW_FAULT_NAME)
        if not result.ok:
            self._count("transcription_failures")
            self._last_error = result.error
            self.get_logger().warning(f"transcription failed: {result.error}")
            self._ears(self._health_core.on_failure(now))
        else:
            self._ears(self._health_core.on_success(now))
            if result.text:
                self._turn_texts.append(result.text)
        if not seg.final:
            return          # the child is still talking: answered once, after the turn
        text = " ".join(self._turn_texts)
        self._turn_texts = []
        if not text:
            if result.ok:
                self._count("empty_transcripts")
            return
        self._count("utterances")
        msg = Utterance(text=text[:TEXT_MAX], session_id="", is_final=True,
                        confidence=1.0)   # Whisper servers report no confidence
        msg.header.stamp = self.get_clock().now().to_msg()
        self._pub_utterance.publish(msg)

    def _ears(self, change: str | None, name: str = FAULT_NAME) -> None:
        if change is None:
            return
        kind = SystemEvent.FAULT_RAISED if change == RAISE else SystemEvent.FAULT_CLEARED
        ev = SystemEvent(kind=kind, battery_pct=-1.0, detail=name)
        ev.header.stamp = self.get_clock().now().to_msg()
        self._pub_system.publish(ev)
        what = "slow" if name == SLOW_FAULT_NAME else "unavailable"
        if change == RAISE:
            self.get_logger().error(f"transcription server {what}: the child is told once")
        elif change == CLEAR:
            self.get_logger().info(f"transcription server no longer {what}")

    def _tick(self) -> None:
        now = time.monotonic()
        self._ears(self._slow.check(self._request_started, now), SLOW_FAULT_NAME)
        if self._health_core.probe_due(now):
            self._health_core.probe_started(now)
            try:
                self._segments.put_nowait(("probe", None))
            except queue.Full:
                self._health_core.on_failure(now)

    def _count(self, key: str) -> None:
        self._counts[key] = self._counts.get(key, 0) + 1

    # -- diagnostics ---------------------------------------------------------------------
    def _health(self) -> Health:
        ep = self._endpointer.stats
        values: dict[str, object] = {
            "input": self.params["input_wav"] or self.params["input_device"] or "default",
            "server_url": self.params["server_url"] or "(none)",
            "server_up": self._health_core.up,
            "server_slow": self._slow.noticed,
            "child_speaking": self._active,
            "segments": ep.segments,
            "too_short": ep.too_short,
            "turns_over_buddy": ep.over_buddy,
            "split_long_turns": ep.split_long,
            "listen_lag_max_ms": f"{1000 * self._lag_s:.0f}",
        }
        if self._vad is not None:
            values["vad_frames"] = self._vad.frames
            values["vad_model_frames"] = self._vad.model_frames
        if self._aec is not None:
            values["echo_canceller"] = self._aec.name
            values["echo_canceller_frames"] = self._aec.frames
            values["echo_canceller_cpu_s"] = f"{self._aec.cpu_s:.3f}"
            values["echo_delay_ms"] = f"{1000 * self._aec.delay_s:.0f}"
            values["echo_path_moved_frames"] = self._aec.path_moved_frames
        values.update(sorted(self._counts.items()))
        values.update(self.inbound_rejections().as_values())   # DESIGN §5 bad input
        if self._last_latency_s is not None:
            values["last_transcription_ms"] = f"{1000 * self._last_latency_s:.0f}"
        if self._last_error:
            values["last_error"] = self._last_error
        if self._setup_error:
            return Health(ERROR, f"cannot listen: {self._setup_error}", values)
        if not self.params["server_url"]:
            return Health(OK, "not listening (no transcription server configured)", values)
        if not self._health_core.up:
            return Health(WARN, "transcription server unavailable: retrying", values)
        return Health(OK, "listening", values)

    def _close_own(self) -> None:
        """The microphone, its threads and the HTTP client (ClosesOwnResources)."""
        self._closing.set()
        self._inbox.close()
        if self._source is not None:
            self._source.close()
        for q, stop in ((self._frames, None), (self._segments, ("stop", None))):
            with contextlib.suppress(queue.Full):   # a full queue wakes its thread anyway
                q.put_nowait(stop)  # type: ignore[arg-type]
        for t in (self._listener, self._transcriber):
            if t.is_alive():
                t.join(timeout=2.0)
        if self._client is not None:
            self._client.close()
        if self._aec is not None:
            self._aec.close()


def main(args: list[str] | None = None) -> int:
    return run_node(AsrNode, args)
