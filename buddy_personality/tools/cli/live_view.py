"""The live terminal view of `buddy run`: a state record filled from the graph's topics
and a pure function that renders it (rich).

`ViewState` is plain data; `apply_*` copy the fields of one message into it (duck-typed,
so tests may pass any object with the same attributes); `render(state, width, height)`
builds the rich renderable and reads nothing else. The ROS side lives in
`tools/cli/console_node.py`.

The view explains itself (issue 15): a line Buddy will not hear (no wake phrase and no
conversation running) gets a hint and clears the previous reply; start-up problems (face
port, LLM server, the RS-2 daily limit) come from /diagnostics and stay on screen until
they are fixed; the layout fits 80 x 24 with the typing line always on the last row, and
panel widths do not change with the content.
"""

from __future__ import annotations

import math
import textwrap
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from buddy_personality.cognition.conversation import DEFAULT_WAKE_PHRASE, split_wake
from buddy_personality.msg_constants import (
    AgeGroup,
    ConversationMode,
    GovernorMode,
    IdentityStateId,
    IdleState,
    Layer,
    Phase,
)
from buddy_personality.personality.moods import MOOD_ANCHORS

# Names of PersonalitySnapshot / GovernorState / IdentityState / ConversationPhase values
# (the numbers are msg_constants', checked against buddy_msgs)
IDLE_STATE_NAMES = {IdleState.AWAKE: "awake", IdleState.DROWSY: "drowsy",
                    IdleState.ASLEEP: "asleep"}
LAYER_NAMES = {Layer.RULES: "0, rules (no server)", Layer.LLM: "1, LLM"}
GOVERNOR_STATE_NAMES = {m: m.name for m in GovernorMode}
IDENTITY_STATE_NAMES = {m: m.name for m in IdentityStateId}
AGE_NAMES = {m: m.name.lower() for m in AgeGroup}
MODE_NAMES = {ConversationMode.PRIVATE: "private",
              ConversationMode.SHARED_VERIFIED: "shared, verified",
              ConversationMode.SHARED_UNVERIFIED: "shared, unverified"}
PHASE_NAMES = {m: m.name for m in Phase}
PHASE_IDLE, PHASE_DONE = Phase.IDLE, Phase.DONE
RECENT_EVENTS = 5
LOG_WARN = 30  # rcl_interfaces/Log.WARN: warnings and errors of the nodes are shown
LOG_LEVEL_NAMES = {30: "warning", 40: "error", 50: "fatal"}
DIAG_WARN = 1  # diagnostic_msgs/DiagnosticStatus.WARN (ERROR 2, STALE 3)
EVENT_MAX = 120  # characters of one event line
GRID_W = 19  # VA plane width in characters (odd: a centre column)
GRID_H = 9  # and height
# One letter per mood on the VA plane, unique so the key can name each (negative moods
# in capitals; spec 002 §4.1 anchors). "@" is Buddy's affect now.
MOOD_MARKS: dict[str, str] = {
    "neutral": "n", "happy": "h", "excited": "e", "curious": "c", "love": "l",
    "silly": "y", "thinking": "t", "surprised": "u", "confused": "?", "sleepy": "z",
    "sad": "S", "scared": "F", "angry": "A",
}
# Layout (characters): fixed, so panels never jump as values change; 80 x 24 fits.
MIN_W, MIN_H = 80, 24
LEFT_W = 32  # the "buddy" panel
PLANE_W = 47  # the VA panel: grid, a space, the key in two columns
GOV_W = 40  # the governor / identity panel, shown when the terminal is wide enough
TOP_H = GRID_H + 2


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
    # why the last line got no answer ("" = none); the wake phrase it needs
    hint: str = ""
    wake_phrase: str = DEFAULT_WAKE_PHRASE
    # problems that stay on screen until fixed: source -> one line (diagnostics, RS-2)
    problems: dict[str, str] = field(default_factory=dict)
    # the parent page (DESIGN §4.6), "" when it is not served
    dashboard_url: str = ""


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
    """A new line clears the previous reply (it answered something else); a line Buddy
    will not hear (no conversation running and no wake phrase, PE-5) gets a hint."""
    if not msg.is_final:
        return
    state.last_utterance = msg.text
    state.last_reply = ""
    state.last_reply_emotion = ""
    state.hint = ""
    if state.phase in (PHASE_IDLE, PHASE_DONE) and not split_wake(msg.text,
                                                                 state.wake_phrase)[0]:
        state.hint = f'not heard: Buddy listens to lines starting with "{state.wake_phrase}"'


def apply_say(state: ViewState, msg: Any) -> None:
    state.last_reply = msg.text
    state.last_reply_emotion = msg.emotion
    state.hint = ""


def apply_mood_changed(state: ViewState, msg: Any) -> None:
    state.events.append(f"mood {msg.prev} -> {msg.next} ({msg.cause})")


def apply_guardrail(state: ViewState, msg: Any) -> None:
    state.events.append(f"guardrail {msg.rule_id}: {msg.action}")
    if msg.rule_id == "RS-2":
        if msg.action in ("daily_reset", "lifted", "reset", "budget_reset"):
            state.problems.pop("RS-2", None)
        elif not any("RS-2" in p for p in state.problems.values()):
            state.problems["RS-2"] = ("RS-2 daily limit reached: Buddy rests until the "
                                      f"next local day ({msg.details})")[:EVENT_MAX]


HINT_PREFIX = "hint: "  # an OK diagnostics message that tells the user what to do next


def _level(level: Any) -> int:
    """DiagnosticStatus.level is a one-byte `bytes` in rclpy, an int elsewhere."""
    return level[0] if isinstance(level, (bytes, bytearray)) and level else int(level or 0)


def apply_diagnostics(state: ViewState, msg: Any) -> None:
    """/diagnostics: a node's WARN/ERROR stays on screen until the node reports OK."""
    for status in msg.status:
        name = str(status.name).rsplit("/", 1)[-1]
        if _level(status.level) >= DIAG_WARN:
            state.problems[name] = str(status.message)[:EVENT_MAX]
            if "RS-2" in status.message:
                state.problems.pop("RS-2", None)  # the node's line says more, with the time
        else:
            state.problems.pop(name, None)
            message = str(status.message)
            # issue 30: an OK node may carry a step to take (the identity node on a first
            # run: how to add a child); it is the hint row, not a problem
            if message.startswith(HINT_PREFIX) and not state.hint:
                state.hint = message[len(HINT_PREFIX):][:EVENT_MAX]


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
    """The VA plane as text: axes, each anchor as its mood's mark, the affect as '@'."""
    rows = [[" "] * width for _ in range(height)]
    mid_r, mid_c = grid_cell(0.0, 0.0, width, height)
    for c in range(width):
        rows[mid_r][c] = "-"
    for r in range(height):
        rows[r][mid_c] = "|"
    rows[mid_r][mid_c] = "+"
    for name, (av, aa) in MOOD_ANCHORS.items():
        r, c = grid_cell(av, aa, width, height)
        rows[r][c] = MOOD_MARKS[name]
    r, c = grid_cell(valence, arousal, width, height)
    rows[r][c] = "@"
    return ["".join(row) for row in rows]


def va_key() -> list[str]:
    """The key to the plane's letters: "@ Buddy" and every mood, two to a line."""
    entries = ["@ Buddy"] + [f"{mark} {name}" for name, mark in MOOD_MARKS.items()]
    half = (len(entries) + 1) // 2
    return [f"{entries[i]:<12}{entries[i + half] if i + half < len(entries) else ''}"
            for i in range(half)]


def _bar(value: float, width: int = 6) -> str:
    v = min(1.0, max(0.0, value)) if math.isfinite(value) else 0.0
    full = int(v * width + 0.5)  # half up: 0.25 shows as 3 of 10, not banker's 2
    return "#" * full + "." * (width - full)


LABEL_W = 6


def _grid(value_width: int, label_width: int = LABEL_W) -> Table:
    """Two columns: a bold label and a value cut to a fixed width (stable panels)."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", width=label_width, no_wrap=True)
    table.add_column(width=value_width, no_wrap=True, overflow="ellipsis")
    return table


def _row(table: Table, label: str, value: str, style: str = "") -> None:
    """Values are plain text: a name or an utterance containing [brackets] is not markup."""
    table.add_row(label, Text(value, style=style, no_wrap=True, overflow="ellipsis"))


def _buddy_panel(state: ViewState) -> Panel:
    t = _grid(LEFT_W - 4 - LABEL_W - 1)
    if state.mood is None:
        _row(t, "mood", "waiting ...")
    else:
        _row(t, "mood", f"{state.mood} {_bar(state.intensity)} {state.intensity:.2f}")
        _row(t, "affect", f"v {state.valence:+.2f}  a {state.arousal:+.2f}")
        _row(t, "layer", _name(LAYER_NAMES, state.layer))
        _row(t, "state", ("in conversation" if state.conversation_active
                          else f"idle, {_name(IDLE_STATE_NAMES, state.idle_state)}"))
    _row(t, "phase", _name(PHASE_NAMES, state.phase)
         + (f" {state.session_id}" if state.session_id else ""))
    if state.face_mood is None:
        _row(t, "face", "waiting ...")
    else:
        extra = (" BACKSTOP" if state.face_backstop else "") + (
            " talking" if state.face_talking else "")
        if state.face_mood_meant and state.face_mood_meant != state.face_mood:
            # the board shows another mood than the one meant (issue 20): that first
            _row(t, "face", f"{state.face_mood} (meant {state.face_mood_meant}){extra}")
        else:
            _row(t, "face", f"{state.face_mood} {state.face_intensity:.2f}{extra}")
        if state.face_connected:
            _row(t, "board", f"v{state.face_protocol} on {state.face_port}")
        else:
            _row(t, "board", f"off ({state.face_port})", "yellow")
    if state.governor_state is None:
        _row(t, "gov", "waiting ...")
    else:
        _row(t, "gov", f"{_name(GOVERNOR_STATE_NAMES, state.governor_state)} effort "
                       f"{state.effort:.2f}")
    if state.identity_state is None:
        _row(t, "child", "waiting ...")
    else:
        who = state.preferred_name or state.user_id or "not known"
        _row(t, "child", f"{who} ({_name(IDENTITY_STATE_NAMES, state.identity_state)})")
    return Panel(t, title="buddy", width=LEFT_W, height=TOP_H)


def _plane_panel(state: ViewState) -> Panel:
    grid = va_grid(state.valence, state.arousal)
    key = va_key()
    lines = [f"{g} {key[i] if i < len(key) else ''}" for i, g in enumerate(grid)]
    return Panel(Text("\n".join(lines), no_wrap=True, overflow="crop"),
                 title="valence → / arousal ↑", width=PLANE_W, height=TOP_H)


def _governor_panel(state: ViewState) -> Panel:
    t = _grid(GOV_W - 4 - 9, 8)
    if state.governor_state is None:
        _row(t, "governor", "waiting ...")
    else:
        halted = f" ({state.halt_reason})" if state.halt_reason else ""
        _row(t, "governor", f"{_name(GOVERNOR_STATE_NAMES, state.governor_state)}{halted} "
                            f"step {state.governor_step}, ep {state.episode_id}")
        for label, value in (("effort", state.effort), ("persist.", state.persistence),
                             ("risk", state.risk), ("explore", state.exploration)):
            _row(t, label, f"{_bar(value, 10)} {value:.2f}")
    if state.identity_state is None:
        _row(t, "identity", "waiting ...")
    else:
        who = state.preferred_name or state.user_id or "nobody identified"
        _row(t, "identity", f"{_name(IDENTITY_STATE_NAMES, state.identity_state)}: {who}")
        _row(t, "age", f"{_name(AGE_NAMES, state.age_group)}, "
                       f"{_name(MODE_NAMES, state.conversation_mode)}"
                       + (", child-safe" if state.child_safe else ""))
    return Panel(t, title="governor, identity", width=GOV_W, height=TOP_H)


def render(state: ViewState, width: int = MIN_W, height: int = MIN_H) -> Group:
    """The whole view as a rich renderable (pure: reads only `state`), at most `height`
    rows and laid out for `width` columns (at least 80 x 24 is assumed). The typing line
    is always the last row: problems, the hint and events give way first."""
    top = Table.grid(padding=(0, 1))
    panels = [_buddy_panel(state), _plane_panel(state)]
    wide = width >= LEFT_W + PLANE_W + GOV_W + 2
    if wide:
        panels.append(_governor_panel(state))
    top.add_row(*panels)
    talk_w = LEFT_W + PLANE_W + 1 + (GOV_W + 1 if wide else 0)
    value_w = talk_w - 4 - 8
    # rows left for the talk panel: the top row, its border and Live's cursor line
    inner = max(4, height - TOP_H - 2 - 1)
    room = inner - 2  # the child's line and the typing line always show
    hint = [state.hint] if state.hint else []
    room -= len(hint)
    missing = [topic for topic, value in (
        ("personality/snapshot", state.mood), ("face/state", state.face_mood),
        ("governor/state", state.governor_state), ("identity/state", state.identity_state),
    ) if value is None]
    waiting = [" ".join(missing)] if missing and room > 1 else []
    room -= len(waiting)
    reply = state.last_reply or ("..." if state.last_utterance and not state.hint else "-")
    if state.last_reply and state.last_reply_emotion:
        reply += f"  [face: {state.last_reply_emotion}]"   # the mood the face shows (issue 30)
    reply_lines = textwrap.wrap(reply, value_w) or ["-"]
    problems = list(state.problems.values())
    keep = max(1, room - min(len(problems), 2))
    if len(reply_lines) > keep:  # a long story: as much as fits, then an ellipsis
        reply_lines = reply_lines[:keep]
        reply_lines[-1] = reply_lines[-1][: value_w - 1] + "…"
    room -= len(reply_lines)
    problems = problems[: max(0, room)]
    room -= len(problems)
    events = list(state.events)[-room:] if room > 0 else []
    t = _grid(value_w, 7)
    for line in hint:
        _row(t, "hint", line, "bold yellow")
    for line in waiting:
        _row(t, "waiting", line, "yellow")
    for line in problems:
        _row(t, "problem", line, "bold red")
    _row(t, "child", state.last_utterance or "-")
    for k, line in enumerate(reply_lines):
        _row(t, "buddy" if k == 0 else "", line)
    for line in events:
        _row(t, "", line, "dim")
    _row(t, "you>", state.typing + "_")
    title = f'talk: lines start with "{state.wake_phrase}"; Ctrl-C quits'
    subtitle = f"parent page: {state.dashboard_url}" if state.dashboard_url else None
    return Group(top, Panel(t, title=title, subtitle=subtitle, width=talk_w))
