"""The keyboard and screen of `buddy run`: a node that fills the live view's state from
the graph's topics and publishes typed lines as a child's utterances.

Typed input is read on a thread of its own (a blocking read would stall the executor)
and handed over through a queue that a timer on the executor drains (docs/NODES.md).
"""

from __future__ import annotations

import contextlib
import os
import queue
import sys
import threading
from collections.abc import Callable
from typing import IO, Any

from diagnostic_msgs.msg import DiagnosticArray
from rcl_interfaces.msg import Log
from rclpy.node import Node

from buddy_msgs.msg import ConversationPhase as PhaseMsg
from buddy_msgs.msg import (
    FaceState,
    GovernorState,
    GuardrailEvent,
    IdentityState,
    MoodChanged,
    PersonalitySnapshot,
    Say,
    Utterance,
)
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.inbound import InboundChecks
from buddy_personality.tools.cli import live_view as lv

DRAIN_PERIOD_S = 0.05
MAX_LINE = 500  # an utterance longer than this is cut (DESIGN §5: oversize strings)
BACKSPACES = ("\x7f", "\b")

# ("line", text) submits an utterance; ("typing", buffer) updates the echo; ("eof", "")
InputEvent = tuple[str, str]


class ConsoleNode(InboundChecks, Node):
    """Subscribes to what the view shows (latched QoS where the publishers latch) and
    publishes speech/utterance for each typed line. Its messages pass the inbound checks
    first (issue 31: a NaN valence would end the drawing, and `buddy run` with it)."""

    def __init__(self, inputs: queue.SimpleQueue[InputEvent] | None = None,
                 **node_kwargs: Any) -> None:
        super().__init__("console", **node_kwargs)
        self.state = lv.ViewState()
        self.inputs: queue.SimpleQueue[InputEvent] = inputs or queue.SimpleQueue()
        self.changed = True  # the view needs a redraw
        self.eof = False
        self._utterance_pub = self.create_publisher(Utterance, "speech/utterance",
                                                    qos.of("speech/utterance"))
        subs: tuple[tuple[type, str, Callable[[lv.ViewState, Any], None], Any], ...] = (
            (PersonalitySnapshot, "personality/snapshot", lv.apply_snapshot,
             qos.of("personality/snapshot")),
            (FaceState, "face/state", lv.apply_face, qos.of("face/state")),
            (GovernorState, "governor/state", lv.apply_governor, qos.of("governor/state")),
            (IdentityState, "identity/state", lv.apply_identity, qos.of("identity/state")),
            (PhaseMsg, "conversation/phase", lv.apply_phase, qos.of("conversation/phase")),
            (Utterance, "speech/utterance", lv.apply_utterance, qos.of("speech/utterance")),
            (Say, "tts/say", lv.apply_say, qos.of("tts/say")),
            (MoodChanged, "personality/mood_changed", lv.apply_mood_changed,
             qos.of("personality/mood_changed")),
            (GuardrailEvent, "personality/guardrail", lv.apply_guardrail,
             qos.of("personality/guardrail")),
            # every node's warnings: the view replaces the console log output
            (Log, "/rosout", lv.apply_log, qos.of("/rosout")),
            # what is wrong right now (face port, LLM server, RS-2), until it is fixed
            (DiagnosticArray, "/diagnostics", lv.apply_diagnostics, qos.of("/diagnostics")),
        )
        for msg_type, topic, apply, profile in subs:
            self.create_subscription(msg_type, topic, self._updater(apply), profile)
        self.create_timer(DRAIN_PERIOD_S, self.drain_inputs)

    def _updater(self, apply: Callable[[lv.ViewState, Any], None]) -> Callable[[Any], None]:
        def on_message(msg: Any) -> None:
            apply(self.state, msg)
            self.changed = True

        return on_message

    def say(self, text: str) -> bool:
        """Publish one typed line as a final, certain utterance; blank lines are ignored."""
        text = text.strip()[:MAX_LINE]
        if not text:
            return False
        msg = Utterance(text=text, session_id="", is_final=True, confidence=1.0)
        msg.header.stamp = self.get_clock().now().to_msg()
        self._utterance_pub.publish(msg)
        return True

    def drain_inputs(self) -> None:
        while True:
            try:
                kind, text = self.inputs.get_nowait()
            except queue.Empty:
                return
            if kind == "line":
                self.state.typing = ""
                self.say(text)
            elif kind == "typing":
                self.state.typing = text
            elif kind == "eof":
                self.eof = True
            self.changed = True


def read_lines(stream: IO[str], out: queue.SimpleQueue[InputEvent]) -> None:
    """Line mode (stdin is a pipe or file): each line is an utterance; then EOF."""
    for line in stream:
        out.put(("line", line.rstrip("\n")))
    out.put(("eof", ""))


def read_keys(read_char: Callable[[], str], out: queue.SimpleQueue[InputEvent]) -> None:
    """Key mode (a terminal in cbreak mode): echo the buffer into the view, Enter sends."""
    buffer = ""
    while True:
        ch = read_char()
        if ch == "":
            out.put(("eof", ""))
            return
        if ch in ("\n", "\r"):
            out.put(("line", buffer))
            buffer = ""
        elif ch in BACKSPACES:
            buffer = buffer[:-1]
        elif ch == "\x15":  # Ctrl-U: clear the line
            buffer = ""
        elif ch.isprintable():
            buffer = (buffer + ch)[:MAX_LINE]
        else:
            continue
        out.put(("typing", buffer))


class KeyboardReader:
    """Starts the reader thread; in a terminal, switches it to cbreak mode (keys arrive
    one at a time, Ctrl-C still interrupts) and restores it on `close`."""

    def __init__(self, out: queue.SimpleQueue[InputEvent], stdin: IO[str] | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self._saved: Any = None
        target: Callable[[], None]
        if self.stdin.isatty():
            import termios  # noqa: PLC0415 - POSIX only, and only for a terminal
            import tty  # noqa: PLC0415

            fd = self.stdin.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)

            def target() -> None:
                read_keys(lambda: os.read(fd, 1).decode(errors="replace"), out)
        else:
            def target() -> None:
                read_lines(self.stdin, out)
        # daemon: a thread blocked in read() must not keep the process alive after Ctrl-C
        self.thread = threading.Thread(target=target, name="buddy-keyboard", daemon=True)
        self.thread.start()

    def close(self) -> None:
        if self._saved is not None:
            import termios  # noqa: PLC0415

            with contextlib.suppress(OSError, ValueError):
                termios.tcsetattr(self.stdin.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None
