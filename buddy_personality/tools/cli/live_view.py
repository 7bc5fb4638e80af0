"""The live terminal view of `buddy run`: a state record filled from the graph's topics
and a pure function that renders it (rich).

`ViewState` is plain data; `apply_*` copy the fields of one message into it (duck-typed,
so tests may pass any object with the same attributes); `render(state)` builds the rich
renderable and reads nothing else. The ROS side lives in `tools/cli/console_node.py`.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from buddy_personality.personality.moods import MOOD_ANCHORS, NEGATIVE_MOODS

# PersonalitySnapshot / GovernorState / IdentityState / ConversationPhase constants
IDLE_STATE_NAMES = {0: "awake", 1: "drowsy", 2: "asleep"}
LAYER_NAMES = {0: "layer 0 (rules, no server)", 1: "layer 1 (LLM)"}
GOVERNOR_STATE_NAMES = {0: "IDLE", 1: "RECOVERING", 2: "HALTED"}
IDENTITY_STATE_NAMES = {0: "UNKNOWN", 1: "PROBABLE", 2: "CONFIRMED", 3: "CONFIRMED_ACTIVE",
                        4: "AMBIGUOUS", 5: "REJECTED"}
AGE_NAMES = {0: "unknown", 1: "child", 2: "teen", 3: "adult"}
MODE_NAMES = {0: "private", 1: "shared, verified", 2: "shared, unverified"}
PHASE_NAMES = {0: "IDLE", 1: "ATTENTION", 2: "LISTENING", 3: "PTT", 4: "THINKING",
               5: "SPEAKING", 6: "ERROR", 7: "DONE"}
RECENT_EVENTS = 5
LOG_WARN = 30  # rcl_interfaces/Log.WARN: warnings and errors of the nodes are shown
LOG_LEVEL_NAMES = {30: "warning", 40: "error", 50: "fatal"}
EVENT_MAX = 120  # characters of one event line
GRID_W = 33  # VA plane width in characters (odd: a centre column)
GRID_H = 13  # and height


def _name(table: dict[int, str], value: int) -> str:
    return table.get(int(value), f"? ({value})")


@dataclass(slots=True)
class ViewState:
    """Everything the view shows; None / empty until the first message arrives."""

    # personality/snapshot
    mood: str | None = None
    intensity: float = 0.0
    valence: float = 0.0
    arousal: float = 0.0
    layer: int = 0
    conversation_active: bool = False
    idle_state: int = 0
    # face/state
    face_mood: str | None = None       # the mood the board shows
    face_mood_meant: str = ""          # the mood Buddy means (e.g. confused -> thinking)
    face_intensity: float = 0.0
    face_connected: bool = False
    face_protocol: int = 0
    face_backstop: bool = False
    face_talking: bool = False
    face_port: str = ""
    # conversation/phase
    phase: int = 0
    session_id: str = ""
    # governor/state
    governor_state: int | None = None
    halt_reason: str = ""
    effort: float = 0.0
    persistence: float = 0.0
    risk: float = 0.0
    exploration: float = 0.0
    governor_step: int = 0
    episode_id: int = 0
    # identity/state
    identity_state: int | None = None
    user_id: str = ""
    preferred_name: str = ""
    age_group: int = 0
    conversation_mode: int = 0
    child_safe: bool = True
    # speech in, speech out
    last_utterance: str = ""
    last_reply: str = ""
    last_reply_emotion: str = ""
    # mood changes and guardrails, newest last
    events: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_EVENTS))
    # the line being typed (tty mode)
    typing: str = ""


def apply_snapshot(state: ViewState, msg: Any) -> None:
    state.mood = msg.mood
    state.intensity = msg.intensity
    state.valence = msg.valence
    state.arousal = msg.arousal
    state.layer = msg.layer
    state.conversation_active = msg.conversation_active
    state.idle_state = msg.idle_state


def apply_face(state: ViewState, msg: Any) -> None:
    state.face_mood = msg.mood
    state.face_mood_meant = msg.mood_meant
    state.face_intensity = msg.intensity
    state.face_connected = msg.connected
    state.face_protocol = msg.protocol_version
    state.face_backstop = msg.backstop_active
    state.face_talking = msg.talking
    state.face_port = msg.port


def apply_phase(state: ViewState, msg: Any) -> None:
    state.phase = msg.phase
    state.session_id = msg.session_id


def apply_governor(state: ViewState, msg: Any) -> None:
    state.governor_state = msg.state
    state.halt_reason = msg.halt_reason
    state.effort = msg.effort
    state.persistence = msg.persistence
    state.risk = msg.risk
    state.exploration = msg.exploration
    state.governor_step = msg.step
    state.episode_id = msg.episode_id


def apply_identity(state: ViewState, msg: Any) -> None:
    state.identity_state = msg.state
    state.user_id = msg.user_id
    state.preferred_name = msg.preferred_name
    state.age_group = msg.age_group
    state.conversation_mode = msg.conversation_mode
    state.child_safe = msg.child_safe


def apply_utterance(state: ViewState, msg: Any) -> None:
    if msg.is_final:
        state.last_utterance = msg.text


def apply_say(state: ViewState, msg: Any) -> None:
    state.last_reply = msg.text
    state.last_reply_emotion = msg.emotion


def apply_mood_changed(state: ViewState, msg: Any) -> None:
    state.events.append(f"mood {msg.prev} -> {msg.next} ({msg.cause})")


def apply_guardrail(state: ViewState, msg: Any) -> None:
    state.events.append(f"guardrail {msg.rule_id}: {msg.action}")


def apply_log(state: ViewState, msg: Any) -> None:
    """A /rosout line of warning level or worse (the view hides the console logs)."""
    if msg.level >= LOG_WARN:
        level = LOG_LEVEL_NAMES.get(int(msg.level), str(msg.level))
        state.events.append(f"{level} [{msg.name}]: {msg.msg}"[:EVENT_MAX])


# ----------------------------------------------------------------------------- rendering
def grid_cell(valence: float, arousal: float, width: int = GRID_W,
              height: int = GRID_H) -> tuple[int, int]:
    """(row, column) of a VA point on a width x height grid spanning [-1, 1]²; row 0 is
    arousal +1 (top), column 0 valence -1 (left). Out-of-range values land on the edge."""
    v = min(1.0, max(-1.0, valence)) if math.isfinite(valence) else 0.0
    a = min(1.0, max(-1.0, arousal)) if math.isfinite(arousal) else 0.0
    col = round((v + 1.0) / 2.0 * (width - 1))
    row = round((1.0 - a) / 2.0 * (height - 1))
    return row, col


def va_grid(valence: float, arousal: float, width: int = GRID_W,
            height: int = GRID_H) -> list[str]:
    """The VA plane as text: axes, each anchor as its mood's initial, the affect as '@'."""
    rows = [[" "] * width for _ in range(height)]
    mid_r, mid_c = grid_cell(0.0, 0.0, width, height)
    for c in range(width):
        rows[mid_r][c] = "-"
    for r in range(height):
        rows[r][mid_c] = "|"
    rows[mid_r][mid_c] = "+"
    for name, (av, aa) in MOOD_ANCHORS.items():
        r, c = grid_cell(av, aa, width, height)
        rows[r][c] = name[0].upper() if name in NEGATIVE_MOODS else name[0]
    r, c = grid_cell(valence, arousal, width, height)
    rows[r][c] = "@"
    return ["".join(row) for row in rows]


def _bar(value: float, width: int = 10) -> str:
    v = min(1.0, max(0.0, value)) if math.isfinite(value) else 0.0
    full = int(v * width + 0.5)  # half up: 0.25 shows as 3 of 10, not banker's 2
    return "#" * full + "." * (width - full)


def _grid() -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column()
    return table


def _row(table: Table, label: str, value: str) -> None:
    """Values are plain text: a name or an utterance containing [brackets] is not markup."""
    table.add_row(label, Text(value))


def render(state: ViewState) -> Group:
    """The whole view as a rich renderable (pure: reads only `state`)."""
    mood = _grid()
    if state.mood is None:
        _row(mood, "mood", "waiting for personality/snapshot ...")
    else:
        _row(mood, "mood", f"{state.mood}  {_bar(state.intensity)} {state.intensity:.2f}")
        _row(mood, "affect", f"valence {state.valence:+.2f}  arousal {state.arousal:+.2f}")
        _row(mood, "layer", _name(LAYER_NAMES, state.layer))
        _row(mood, "state", ("in conversation" if state.conversation_active
                               else f"idle, {_name(IDLE_STATE_NAMES, state.idle_state)}"))
    _row(mood, "phase", _name(PHASE_NAMES, state.phase)
                 + (f"  session {state.session_id}" if state.session_id else ""))
    if state.face_mood is None:
        _row(mood, "face", "waiting for face/state ...")
    else:
        link = (f"v{state.face_protocol} on {state.face_port}" if state.face_connected
                else f"disconnected ({state.face_port})")
        extra = (" BACKSTOP" if state.face_backstop else "") + (
            " talking" if state.face_talking else "")
        meant = (f" (meant {state.face_mood_meant})"
                 if state.face_mood_meant and state.face_mood_meant != state.face_mood else "")
        _row(mood, "face", f"{state.face_mood}{meant} {state.face_intensity:.2f}, "
                           f"{link}{extra}")

    gov = _grid()
    if state.governor_state is None:
        _row(gov, "governor", "waiting for governor/state ...")
    else:
        halted = f" ({state.halt_reason})" if state.halt_reason else ""
        _row(gov, "governor", f"{_name(GOVERNOR_STATE_NAMES, state.governor_state)}{halted}"
                    f"  step {state.governor_step}, episode {state.episode_id}")
        for label, value in (("effort", state.effort), ("persistence", state.persistence),
                             ("risk", state.risk), ("exploration", state.exploration)):
            _row(gov, label, f"{_bar(value)} {value:.2f}")
    if state.identity_state is None:
        _row(gov, "identity", "waiting for identity/state ...")
    else:
        who = state.preferred_name or state.user_id or "nobody identified"
        _row(gov, "identity", f"{_name(IDENTITY_STATE_NAMES, state.identity_state)}: {who}")
        _row(gov, "age", f"{_name(AGE_NAMES, state.age_group)}, "
                    f"{_name(MODE_NAMES, state.conversation_mode)}"
                    + (", child-safe" if state.child_safe else ""))

    plane = Text("\n".join([*va_grid(state.valence, state.arousal),
                             "@ Buddy   CAPITALS negative"]), no_wrap=True)
    top = Table.grid(padding=(0, 2))
    top.add_row(Panel(mood, title="personality"), Panel(plane, title="valence / arousal"),
                Panel(gov, title="governor, identity"))

    talk = _grid()
    _row(talk, "child", state.last_utterance or "-")
    reply = state.last_reply or "-"
    if state.last_reply and state.last_reply_emotion:
        reply += f"  [{state.last_reply_emotion}]"
    _row(talk, "buddy", reply)
    for line in state.events:
        talk.add_row("", Text(line, style="dim"))
    _row(talk, "you>", state.typing + "_")
    return Group(top, Panel(talk, title="conversation (type a line and press Enter; "
                                        "Ctrl-C quits)"))
