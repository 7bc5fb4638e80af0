"""`buddy run`'s live view: messages into the state record, the record into text, and the
keyboard readers. Pure: no ROS graph needed."""

from __future__ import annotations

import io
import queue

from rich.console import Console

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
from buddy_personality.tools.cli import live_view as lv
from buddy_personality.tools.cli.console_node import read_keys, read_lines


def text_of(state: lv.ViewState, width: int = 140) -> str:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(lv.render(state))
    return console.export_text()


def filled_state() -> lv.ViewState:
    state = lv.ViewState()
    lv.apply_snapshot(state, PersonalitySnapshot(
        mood="happy", intensity=0.8, valence=0.6, arousal=0.3, layer=1,
        conversation_active=True, idle_state=0))
    lv.apply_face(state, FaceState(mood="happy", intensity=0.8, connected=True,
                                   protocol_version=2, backstop_active=False, talking=True,
                                   port="sim"))
    lv.apply_phase(state, PhaseMsg(phase=PhaseMsg.SPEAKING, session_id="s7"))
    lv.apply_governor(state, GovernorState(state=GovernorState.RECOVERING, effort=0.25,
                                           persistence=0.5, risk=0.0, exploration=0.1,
                                           step=12, episode_id=3))
    lv.apply_identity(state, IdentityState(state=IdentityState.CONFIRMED, user_id="u1",
                                           preferred_name="Leo", age_group=1,
                                           conversation_mode=0, child_safe=True))
    lv.apply_utterance(state, Utterance(text="do dragons like [cake]?", is_final=True))
    lv.apply_utterance(state, Utterance(text="partial hypoth", is_final=False))
    lv.apply_say(state, Say(text="Dragons love cake!", emotion="silly"))
    lv.apply_mood_changed(state, MoodChanged(prev="curious", next="happy", cause="ai_emotion"))
    lv.apply_guardrail(state, GuardrailEvent(rule_id="BUDGET", action="budget_reset"))
    return state


def test_the_view_shows_every_part_of_the_state() -> None:
    text = text_of(filled_state())
    assert "happy  ########.. 0.80" in text  # mood, intensity bar 8/10, value
    assert "valence +0.60  arousal +0.30" in text
    assert "layer 1 (LLM)" in text and "in conversation" in text
    assert "SPEAKING  session s7" in text
    assert "happy 0.80, v2 on sim talking" in text  # face
    assert "RECOVERING  step 12, episode 3" in text
    assert "effort      ###....... 0.25" in text  # 2.5 tenths round half up to 3
    assert "persistence #####..... 0.50" in text
    assert "CONFIRMED: Leo" in text and "child, private, child-safe" in text
    assert "do dragons like [cake]?" in text  # not eaten as rich markup
    assert "partial hypoth" not in text  # only final utterances
    assert "Dragons love cake!  [silly]" in text
    assert "mood curious -> happy (ai_emotion)" in text
    assert "guardrail BUDGET: budget_reset" in text


def test_before_any_message_the_view_says_what_it_waits_for() -> None:
    text = text_of(lv.ViewState())
    for topic in ("personality/snapshot", "face/state", "governor/state", "identity/state"):
        assert f"waiting for {topic}" in text
    (prompt,) = [line for line in text.splitlines() if "you>" in line]
    assert prompt.strip("│ ").endswith("you>  _")


def test_backstop_and_disconnection_are_visible() -> None:
    state = lv.ViewState()
    lv.apply_face(state, FaceState(mood="neutral", intensity=0.2, connected=False,
                                   backstop_active=True, port="/dev/ttyACM0"))
    assert "neutral 0.20, disconnected (/dev/ttyACM0) BACKSTOP" in text_of(state, width=220)


def test_the_face_row_shows_the_mood_the_board_shows_and_the_one_meant() -> None:
    # issue 20: the firmware cannot show CONFUSED; the driver shows THINKING instead
    state = lv.ViewState()
    lv.apply_face(state, FaceState(mood="thinking", mood_meant="confused", intensity=0.6,
                                   connected=True, protocol_version=2, port="sim"))
    assert "thinking (meant confused) 0.60, v2 on sim" in text_of(state, width=220)


def test_only_the_last_five_events_are_kept() -> None:
    state = lv.ViewState()
    for i in range(7):
        lv.apply_guardrail(state, GuardrailEvent(rule_id=f"R{i}", action="a"))
    assert [e.split()[1] for e in state.events] == ["R2:", "R3:", "R4:", "R5:", "R6:"]


def test_grid_cells_map_the_va_square_onto_the_grid() -> None:
    # 33 x 13: columns 0..32, rows 0..12; valence -1 -> col 0, +1 -> col 32; arousal +1 -> row 0
    assert lv.grid_cell(0.0, 0.0) == (6, 16)
    assert lv.grid_cell(-1.0, 1.0) == (0, 0)
    assert lv.grid_cell(1.0, -1.0) == (12, 32)
    assert lv.grid_cell(0.5, 0.5) == (3, 24)  # (1.5/2)*32 = 24, (0.5/2)*12 = 3
    assert lv.grid_cell(5.0, float("nan")) == (6, 32)  # clamped; NaN drawn at 0


def test_va_grid_draws_axes_anchors_and_the_affect_point() -> None:
    rows = lv.va_grid(0.5, 0.5)
    assert len(rows) == 13 and all(len(r) == 33 for r in rows)
    assert rows[3][24] == "@"
    # happy (0.70, 0.35): col round(1.7/2*32) = 27, row round(0.65/2*12) = 4
    assert rows[4][27] == "h"
    # sad (-0.60, -0.40), a negative mood in capitals: col round(0.4/2*32) = 6, row 8
    assert rows[8][6] == "S"
    assert rows[6][0] == "-" and rows[0][16] == "|"


def test_intensity_bars_round_to_tenths() -> None:
    assert lv._bar(0.0) == ".........."
    assert lv._bar(0.26) == "###......."
    assert lv._bar(0.25) == "###......."
    assert lv._bar(0.24) == "##........"
    assert lv._bar(1.7) == "##########"


def test_line_mode_sends_each_line_then_eof() -> None:
    out: queue.SimpleQueue = queue.SimpleQueue()
    read_lines(io.StringIO("hello buddy\nwhat is a dragon\n"), out)
    assert [out.get_nowait() for _ in range(3)] == [
        ("line", "hello buddy"), ("line", "what is a dragon"), ("eof", "")]


def test_key_mode_echoes_edits_and_sends_on_enter() -> None:
    keys = iter(["h", "i", "x", "\x7f", "\x1b", "!", "\r", "o", "\x15", ""])
    out: queue.SimpleQueue = queue.SimpleQueue()
    read_keys(lambda: next(keys), out)
    events = []
    while not out.empty():
        events.append(out.get_nowait())
    assert events == [
        ("typing", "h"), ("typing", "hi"), ("typing", "hix"), ("typing", "hi"),  # backspace
        ("typing", "hi!"),  # the escape key is ignored
        ("line", "hi!"), ("typing", ""),
        ("typing", "o"), ("typing", ""),  # Ctrl-U clears
        ("eof", ""),
    ]


def test_warnings_from_rosout_are_shown_and_info_is_not() -> None:
    from rcl_interfaces.msg import Log

    state = lv.ViewState()
    lv.apply_log(state, Log(level=Log.INFO, name="buddy.face_driver", msg="board on sim"))
    lv.apply_log(state, Log(level=Log.WARN, name="buddy.identity", msg="no household file"))
    lv.apply_log(state, Log(level=Log.ERROR, name="buddy.llm_bridge", msg="x" * 300))
    warning, error = state.events
    assert warning == "warning [buddy.identity]: no household file"
    assert error.startswith("error [buddy.llm_bridge]: xxx")
    assert len(error) == lv.EVENT_MAX
