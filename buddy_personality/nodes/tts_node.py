"""tts node (DESIGN §4.7, spec 002 §11.5, L0-09): Buddy's mouth.

A thin shell around `speech.tts_core.TtsCore` (which line, when to stop), a voice
(`speech.synth`: espeak-ng, the home server, or none) and a player (`speech.players`:
a PortAudio device, or WAV files in a directory).

- inputs: `tts/say` (every line Buddy says; the output guard sits before it), and what
  stops it: `conversation/events` (ENDED), `face/button` (talk button pressed: barge-in),
  `speech/activity` (the child speaks: barge-in).
- outputs: `tts/speaking` (std_msgs/Bool: true at a line's first sample played, false
  after its last, from the audio callback), `tts/energy` (std_msgs/Float32 in [0, 1],
  about 20 Hz while speaking: the face's mouth), `tts/played` (what the speaker played,
  16 kHz, only while someone subscribes: the asr node's software echo canceller,
  erratum 24; `speech.played`), `/diagnostics` at 1 Hz.

Synthesis runs in a thread per line; the audio callback hands its events to the executor
through an `Inbox`, so every core call happens on the executor thread.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
from rclpy.node import Node
from std_msgs.msg import Bool, Float32, Float64MultiArray

from buddy_msgs.msg import ButtonEvent, ConversationEvent, Say
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.diagnostics import ERROR, OK, WARN, DiagnosticsPublisher, Health
from buddy_personality.nodes.common.inbound import InboundChecks
from buddy_personality.nodes.common.inbox import Inbox
from buddy_personality.nodes.common.parameters import ParamSpec, declare_parameters
from buddy_personality.nodes.common.runtime import ClosesOwnResources, run_node
from buddy_personality.speech.endpointing import SAMPLE_RATE
from buddy_personality.speech.played import PlayedResampler, pack_played
from buddy_personality.speech.players import (
    AudioUnavailable,
    Player,
    SoundDevicePlayer,
    WavDirPlayer,
)
from buddy_personality.speech.playout import ENERGY, FINISHED, STARTED, PlayoutEvent
from buddy_personality.speech.prosody import DEFAULT_VOICE, prosody_for
from buddy_personality.speech.synth import (
    EspeakSynth,
    ServerSynth,
    SynthError,
    Synthesizer,
    trimmed,
)
from buddy_personality.speech.tts_core import Decision, Line, TtsConfig, TtsCore

BACKENDS = ("espeak", "server", "none")

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("backend", "espeak", "voice: espeak (offline, default), server "
              "(/v1/audio/speech), none (silent)", choices=BACKENDS, read_only=True),
    ParamSpec("output_device", "", "PortAudio output device: '' = system default, an index, "
              "or part of a name (python -m sounddevice lists them)", read_only=True),
    ParamSpec("wav_dir", "", "write each line as a WAV file here instead of playing it "
              "(tests, recordings); '' = play on output_device", read_only=True),
    ParamSpec("sample_rate", 22050, "playback sample rate (espeak-ng speaks at 22050 Hz)",
              min=8000, max=48000, read_only=True),
    ParamSpec("block_s", 0.01, "audio block length: a cut takes effect within one block",
              min=0.002, max=0.05, read_only=True),
    ParamSpec("output_latency_s", 0.06, "device buffer: a cut is heard within block_s plus "
              "this; smaller underruns on a busy machine", min=0.005, max=0.5, read_only=True),
    ParamSpec("flush_on_cut", False, "a cut also drops the device's buffer (silence "
              "output_latency_s sooner); not behind the audio server's echo canceller, "
              "which may then drop microphone audio (the interrupting words)",
              read_only=True),
    ParamSpec("idle_close_s", 5.0, "close the output stream after this long without a line",
              min=0.0, max=3600.0, read_only=True),
    ParamSpec("voice", DEFAULT_VOICE, "espeak-ng voice (the mood's variant is appended)",
              read_only=True),
    ParamSpec("server_url", "", "home server base URL (…/v1) for backend 'server'",
              read_only=True),
    ParamSpec("server_model", "tts-1", "model name for /v1/audio/speech", read_only=True),
    ParamSpec("server_voice", "alloy", "voice name for /v1/audio/speech", read_only=True),
    ParamSpec("request_timeout_s", 10.0, "timeout of one /v1/audio/speech request",
              min=0.5, max=120.0, read_only=True),
    ParamSpec("max_queue", 8, "lines waiting to be spoken; the oldest is dropped beyond",
              min=1, max=100, read_only=True),
    ParamSpec("closing_window_s", 0.2, "a line this close before a session's ENDED is its "
              "closing line and is still spoken", min=0.0, max=5.0, read_only=True),
    ParamSpec("barge_in_on_activity", True, "stop speaking when speech/activity says the "
              "child talks", read_only=True),
)


class TtsNode(InboundChecks, ClosesOwnResources, Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("tts", **node_kwargs)
        self.params = p = declare_parameters(self, PARAMETERS)
        self._core = TtsCore(TtsConfig(max_queue=p["max_queue"],
                                       closing_window_s=p["closing_window_s"]))
        self._closing = threading.Event()
        self._inbox: Inbox[tuple[str, Any]] = Inbox(self, self._on_item)
        self._cancels: dict[int, threading.Event] = {}
        self._lines: dict[int, Line] = {}
        self._speaking = False
        self._synth_errors = 0
        self._fallbacks = 0
        self._last_error = ""
        self._say_to_audio_s: float | None = None
        self._synth, self._fallback = self._make_synth()
        self._player: Player | None = None
        self._audio_error = ""
        if self._synth is not None:
            try:
                self._player = self._make_player()
            except AudioUnavailable as exc:
                self._audio_error = str(exc)
                self.get_logger().error(f"no audio output: {exc}; Buddy stays silent")

        self._pub_speaking = self.create_publisher(Bool, "tts/speaking", qos.of("tts/speaking"))
        self._pub_energy = self.create_publisher(Float32, "tts/energy", qos.of("tts/energy"))
        self._played_stream = PlayedResampler()
        self._pub_played = self.create_publisher(Float64MultiArray, "tts/played",
                                                 qos.of("tts/played"))
        self.create_subscription(Say, "tts/say", self._on_say, qos.of("tts/say"))
        self.create_subscription(ConversationEvent, "conversation/events", self._on_conv,
                                 qos.of("conversation/events"))
        self.create_subscription(ButtonEvent, "face/button", self._on_button, qos.of("face/button"))
        self.create_subscription(Bool, "speech/activity", self._on_activity,
                                 qos.of("speech/activity"))
        self.create_timer(1.0, self._maintain)
        self._diagnostics = DiagnosticsPublisher(self, self._health)

    # -- construction --------------------------------------------------------------------
    @property
    def player(self) -> Player | None:
        """The audio output (tests read a WavDirPlayer's recordings)."""
        return self._player

    def _make_synth(self) -> tuple[Synthesizer | None, Synthesizer | None]:
        p = self.params
        backend = p["backend"]
        if backend == "none":
            return None, None
        espeak: Synthesizer | None = None
        try:
            espeak = EspeakSynth(voice=p["voice"])
        except SynthError as exc:
            self._last_error = str(exc)
            self.get_logger().error(str(exc))
        if backend == "espeak":
            return espeak, None
        server = ServerSynth(p["server_url"], p["server_model"], p["server_voice"],
                             timeout_s=p["request_timeout_s"]) if p["server_url"] else None
        if server is None:
            self.get_logger().error("backend 'server' without server_url: using espeak-ng")
            return espeak, None
        return server, espeak   # espeak-ng speaks when the server cannot

    def _make_player(self) -> Player:
        p = self.params
        if p["wav_dir"]:
            return WavDirPlayer(p["wav_dir"], p["sample_rate"], self._post_events,
                                p["block_s"])
        return SoundDevicePlayer(p["output_device"], p["sample_rate"], self._post_events,
                                 p["block_s"], p["idle_close_s"], p["output_latency_s"],
                                 p["flush_on_cut"])

    # -- inputs --------------------------------------------------------------------------
    def _on_say(self, msg: Say) -> None:
        d = self._core.on_say(time.monotonic(), msg.text, msg.emotion, msg.session_id,
                              msg.turn_id)
        self._apply(d)

    def _on_conv(self, msg: ConversationEvent) -> None:
        if msg.kind == ConversationEvent.ENDED:
            self._apply(self._core.on_session_ended(time.monotonic(), msg.session_id))

    def _on_button(self, msg: ButtonEvent) -> None:
        if msg.button_id == ButtonEvent.BUTTON_PTT and msg.event_type in (
                ButtonEvent.PRESS, ButtonEvent.CLICK, ButtonEvent.TOGGLE):
            self._apply(self._core.on_barge_in(time.monotonic()))

    def _on_activity(self, msg: Bool) -> None:
        if msg.data and self.params["barge_in_on_activity"]:
            self._apply(self._core.on_barge_in(time.monotonic()))

    # -- decisions -----------------------------------------------------------------------
    def _apply(self, d: Decision) -> None:
        for reason, text in d.dropped:
            self.get_logger().info(f"line dropped ({reason}): {text[:60]!r}")
        if d.cut is not None:
            cancel = self._cancels.pop(d.cut, None)
            if cancel is not None:
                cancel.set()
            if self._player is not None:
                self._player.cut(d.cut)
            else:
                self._finished_now(d.cut)
        if d.start is not None:
            self._start(d.start)

    def _start(self, line: Line) -> None:
        if self._synth is None or self._player is None:
            self._finished_now(line.line_id)   # silent: the queue still moves on
            return
        self._update_played_sink()
        cancel = threading.Event()
        self._cancels[line.line_id] = cancel
        self._lines[line.line_id] = line
        self._player.begin(line.line_id, f"{line.mood}-{line.session_id or 'none'}-"
                                         f"{line.turn_id}")
        threading.Thread(target=self._synthesise, args=(line, cancel),
                         name=f"tts-synth-{line.line_id}", daemon=True).start()

    def _finished_now(self, line_id: int) -> None:
        self._apply(self._core.on_line_finished(time.monotonic(), line_id))

    def _synthesise(self, line: Line, cancel: threading.Event) -> None:
        """Worker thread: stream the voice's audio into the player."""
        player = self._player
        assert player is not None and self._synth is not None
        _, prosody = prosody_for(line.mood)
        voices = [v for v in (self._synth, self._fallback) if v is not None]
        for i, voice in enumerate(voices):
            fed = False
            try:
                for chunk in trimmed(voice.stream(line.text, prosody, cancel)):
                    player.feed(line.line_id, chunk.samples, chunk.sample_rate)
                    fed = True
                break
            except SynthError as exc:
                self._synth_errors += 1
                self._last_error = str(exc)
                if fed or i + 1 == len(voices):
                    break
                self._fallbacks += 1
        player.end(line.line_id)

    # -- audio thread -> executor ------------------------------------------------------
    def _post_events(self, events: list[PlayoutEvent]) -> None:
        self._inbox.post(("events", events))

    def _post_played(self, at: float, samples: np.ndarray) -> None:
        self._inbox.post(("played", (at, samples)))

    def _on_item(self, item: tuple[str, Any]) -> None:
        kind, payload = item
        if kind == "events":
            for e in payload:
                self._on_playout(e)
        elif kind == "played":
            # resampled as one stream: per batch, rounding made the reference drift
            at16, pcm = self._played_stream.feed(*payload, self.params["sample_rate"])
            self._pub_played.publish(pack_played(at16, pcm, SAMPLE_RATE))

    def _on_playout(self, e: PlayoutEvent) -> None:
        if e.kind == STARTED:
            line = self._lines.get(e.line_id)
            if line is not None:
                self._say_to_audio_s = e.at - line.received_at
            self._set_speaking(True)
        elif e.kind == ENERGY:
            if self._speaking:
                self._pub_energy.publish(Float32(data=float(e.value)))
        elif e.kind == FINISHED:
            self._lines.pop(e.line_id, None)
            self._cancels.pop(e.line_id, None)
            if e.samples:
                self._set_speaking(False)
            self._finished_now(e.line_id)

    def _set_speaking(self, speaking: bool) -> None:
        if speaking == self._speaking:
            return
        self._speaking = speaking
        self._pub_speaking.publish(Bool(data=speaking))
        if not speaking:
            self._pub_energy.publish(Float32(data=0.0))   # mouth closed

    def _maintain(self) -> None:
        if self._player is not None:
            self._player.maintain(time.monotonic())
            self._update_played_sink()

    def _update_played_sink(self) -> None:
        """Played audio is handed on only while an echo canceller subscribes. Looked at
        as each line starts too: from the 1 Hz timer alone, a line started in the second
        after the canceller subscribed played without a reference, and the canceller let
        that first second of Buddy's voice through as a child's (issue 29)."""
        if self._player is not None:
            wanted = self._pub_played.get_subscription_count() > 0
            self._player.block_sink = self._post_played if wanted else None

    # -- diagnostics ---------------------------------------------------------------------
    def _health(self) -> Health:
        st = self._core.stats
        values: dict[str, object] = {
            "backend": self.params["backend"],
            "output": self.params["wav_dir"] or self.params["output_device"] or "default",
            "speaking": self._speaking,
            "lines_said": st.said,
            "queued": len(self._core.queue),
            "synth_errors": self._synth_errors,
            "fallbacks_to_espeak": self._fallbacks,
            "unknown_mood": st.unknown_mood,
        }
        # the readers each writer has matched: asr hears Buddy's voice as Buddy's only
        # once its readers of these two are matched (erratum 24); an engineer sees here
        # whether the ears know when Buddy speaks
        values["readers.tts/speaking"] = self._pub_speaking.get_subscription_count()
        values["readers.tts/played"] = self._pub_played.get_subscription_count()
        values.update({f"cut.{k}": v for k, v in sorted(st.cut.items())})
        values.update({f"dropped.{k}": v for k, v in sorted(st.dropped.items())})
        values.update(self.inbound_rejections().as_values())   # DESIGN §5 bad input
        if self._say_to_audio_s is not None:
            values["last_say_to_audio_ms"] = f"{1000 * self._say_to_audio_s:.0f}"
        if isinstance(self._player, SoundDevicePlayer):
            values["underflows"] = self._player.underflows
            values["cut_flush_errors"] = self._player.flush_errors   # a cut's abort failed
        if self._last_error:
            values["last_error"] = self._last_error
        if self.params["backend"] == "none":
            return Health(OK, "silent (backend none)", values)
        if self._player is None or self._synth is None:
            values["audio_error"] = self._audio_error
            return Health(ERROR, "cannot speak: " + (self._audio_error or self._last_error),
                          values)
        if self._synth_errors:
            return Health(WARN, f"speaking; {self._synth_errors} synthesis errors", values)
        return Health(OK, "speaking" if self._speaking else "ready", values)

    def _close_own(self) -> None:
        """The audio output, the synthesis in progress and the server voice (ClosesOwnResources)."""
        self._closing.set()
        self._inbox.close()
        for ev in self._cancels.values():
            ev.set()
        if self._player is not None:
            self._player.close()
        if isinstance(self._synth, ServerSynth):
            self._synth.close()


def main(args: list[str] | None = None) -> int:
    return run_node(TtsNode, args)
