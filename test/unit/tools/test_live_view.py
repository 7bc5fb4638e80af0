"""`buddy run`'s live view: messages into the state record, the record into text, and the
keyboard readers. Pure: no ROS graph needed."""

from __future__ import annotations

import io
import queue
import re

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


def text_of(state: lv.ViewState, width: int = 140, height: int = 40) -> str:
    console = Console(width=width, height=height, record=True, color_system=None,
                      file=io.StringIO())
    console.print(lv.render(state, width, height))
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
    assert "happy #####. 0.80" in text  # mood, intensity bar 4.8 of 6 rounds to 5, value
    assert "v +0.60  a +0.30" in text
    assert "1, LLM" in text and "in conversation" in text
    assert "SPEAKING s7" in text
    assert "face   happy 0.80 talking" in text and "board  v2 on sim" in text
    assert "RECOVERING step 12, ep 3" in text  # the wide layout's governor panel
    assert "effort   ###....... 0.25" in text  # 2.5 tenths round half up to 3
    assert "persist. #####..... 0.50" in text
    assert "CONFIRMED: Leo" in text and "child, private, child-safe" in text
    assert "do dragons like [cake]?" in text  # not eaten as rich markup
    assert "partial hypoth" not in text  # only final utterances
    assert "Dragons love cake!  [face: silly]" in text   # issue 30: the face's mood
    assert "mood curious -> happy (ai_emotion)" in text
    assert "guardrail BUDGET: budget_reset" in text


def test_before_any_message_the_view_says_what_it_waits_for() -> None:
    text = text_of(lv.ViewState())
    assert ("waiting personality/snapshot face/state governor/state identity/state"
            in text)
    (prompt,) = [line for line in text.splitlines() if "you>" in line]
    assert re.fullmatch(r"you>\s+_", prompt.strip("│ "))


def test_backstop_and_disconnection_are_visible() -> None:
    state = lv.ViewState()
    lv.apply_face(state, FaceState(mood="neutral", intensity=0.2, connected=False,
                                   backstop_active=True, port="/dev/ttyACM0"))
    text = text_of(state, width=220)
    assert "neutral 0.20 BACKSTOP" in text and "board  off (/dev/ttyACM0)" in text


def test_the_face_row_shows_the_mood_the_board_shows_and_the_one_meant() -> None:
    # issue 20: the firmware cannot show CONFUSED; the driver shows THINKING instead
    state = lv.ViewState()
    lv.apply_face(state, FaceState(mood="thinking", mood_meant="confused", intensity=0.6,
                                   connected=True, protocol_version=2, port="sim"))
    text = text_of(state, width=220)
    assert "thinking (meant conf" in text and "v2 on sim" in text  # fixed-width panel


def test_only_the_last_five_events_are_kept() -> None:
    state = lv.ViewState()
    for i in range(7):
        lv.apply_guardrail(state, GuardrailEvent(rule_id=f"R{i}", action="a"))
    assert [e.split()[1] for e in state.events] == ["R2:", "R3:", "R4:", "R5:", "R6:"]


def test_grid_cells_map_the_va_square_onto_the_grid() -> None:
    # 33 x 13: columns 0..32, rows 0..12; valence -1 -> col 0, +1 -> col 32; arousal +1 -> row 0
    assert lv.grid_cell(0.0, 0.0, 33, 13) == (6, 16)
    assert lv.grid_cell(-1.0, 1.0, 33, 13) == (0, 0)
    assert lv.grid_cell(1.0, -1.0, 33, 13) == (12, 32)
    assert lv.grid_cell(0.5, 0.5, 33, 13) == (3, 24)  # (1.5/2)*32 = 24, (0.5/2)*12 = 3
    assert lv.grid_cell(5.0, float("nan"), 33, 13) == (6, 32)  # clamped; NaN drawn at 0


def test_va_grid_draws_axes_anchors_and_the_affect_point() -> None:
    rows = lv.va_grid(0.5, 0.5, 33, 13)
    assert len(rows) == 13 and all(len(r) == 33 for r in rows)
    assert rows[3][24] == "@"
    # happy (0.70, 0.35): col round(1.7/2*32) = 27, row round(0.65/2*12) = 4
    assert rows[4][27] == "h"
    # sad (-0.60, -0.40), a negative mood in capitals: col round(0.4/2*32) = 6, row 8
    assert rows[8][6] == "S"
    assert rows[6][0] == "-" and rows[0][16] == "|"


def test_intensity_bars_round_to_tenths() -> None:
    assert lv._bar(0.0, 10) == ".........."
    assert lv._bar(0.26, 10) == "###......."
    assert lv._bar(0.25, 10) == "###......."
    assert lv._bar(0.24, 10) == "##........"
    assert lv._bar(1.7, 10) == "##########"


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


# --- issue 15: the view explains itself ---------------------------------------------------

def test_a_line_without_the_wake_phrase_gets_a_hint_and_clears_the_old_reply() -> None:
    """Issue 15: "hello?" was silently ignored while the previous reply stayed on screen."""
    state = filled_state()
    lv.apply_phase(state, PhaseMsg(phase=PhaseMsg.IDLE, session_id=""))
    lv.apply_utterance(state, Utterance(text="hello?", is_final=True))
    text = text_of(state, 80, 24)
    assert "Dragons love cake" not in text and state.last_reply == ""
    assert 'hint    not heard: Buddy listens to lines starting with "hey buddy"' in text
    # a reply (e.g. the next line had the wake phrase) takes the hint away
    lv.apply_say(state, Say(text="Hi!", emotion="happy"))
    assert state.hint == "" and "hint" not in text_of(state, 80, 24)


def test_no_hint_inside_a_conversation_or_with_the_wake_phrase() -> None:
    state = lv.ViewState()
    lv.apply_phase(state, PhaseMsg(phase=PhaseMsg.IDLE, session_id=""))
    lv.apply_utterance(state, Utterance(text="Hey, Buddy! hello", is_final=True))
    assert state.hint == ""
    lv.apply_phase(state, PhaseMsg(phase=PhaseMsg.LISTENING, session_id="s1"))
    lv.apply_utterance(state, Utterance(text="i like trains", is_final=True))
    assert state.hint == "" and "..." in text_of(state, 80, 24)  # reply pending


def _lines(state: lv.ViewState, width: int = 80, height: int = 24) -> list[str]:
    return text_of(state, width, height).rstrip("\n").split("\n")


def test_80x24_fits_with_the_typing_line_last_even_with_many_events() -> None:
    """Issue 15: at 80 x 24 the typing line was cut to "..." and vanished."""
    state = filled_state()
    state.typing = "tell me a joke"
    for i in range(5):
        lv.apply_guardrail(state, GuardrailEvent(rule_id=f"R{i}", action="a"))
    state.problems["face_driver"] = "face_driver: face board not connected: no such port"
    state.hint = "Buddy did not hear that"
    lines = _lines(state)
    assert len(lines) <= 23  # one row stays for the terminal's cursor
    assert all(len(line) <= 80 for line in lines)
    assert "you>" in lines[-2] and "tell me a joke_" in lines[-2]  # then the bottom border
    assert any("face board not connected" in line for line in lines)
    assert any("did not hear" in line for line in lines)


def test_the_va_plane_shows_both_halves_and_a_key_at_80_columns() -> None:
    """Issue 15: the plane lost its positive half at 80 columns; letters had no key."""
    text = text_of(filled_state(), 80, 24)
    for name, mark in lv.MOOD_MARKS.items():
        assert f"{mark} {name}" in text, name
    assert "@ Buddy" in text
    grid = lv.va_grid(0.6, 0.3)
    assert all(row in text for row in grid)  # every row whole, right half included
    assert len(set(lv.MOOD_MARKS.values())) == len(lv.MOOD_MARKS)  # one letter, one mood


def test_panel_widths_do_not_change_with_the_content() -> None:
    short, long = lv.ViewState(), filled_state()
    long.last_reply = "x" * 300
    long.preferred_name = "Maximiliane-Josephine"
    for width in (80, 140):
        a, b = _lines(short, width), _lines(long, width)
        assert [len(line) for line in a[:lv.TOP_H]] == [len(line) for line in b[:lv.TOP_H]]
        assert len(a[-1]) == len(b[-1])


def test_diagnostics_problems_stay_until_the_node_reports_ok() -> None:
    """Start-up problems (face port, LLM server, RS-2) come from /diagnostics."""
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus

    state = lv.ViewState()

    def diag(level: bytes, name: str, message: str) -> DiagnosticArray:
        return DiagnosticArray(status=[DiagnosticStatus(level=level, name=name,
                                                        message=message)])

    lv.apply_diagnostics(state, diag(DiagnosticStatus.WARN, "buddy/face_driver",
                                     "face board not connected: [Errno 2] no such file"))
    lv.apply_diagnostics(state, diag(DiagnosticStatus.OK, "buddy/identity", "ok"))
    assert state.problems == {"face_driver": "face board not connected: [Errno 2] no such file"}
    assert "face board not connected" in text_of(state, 80, 24)
    lv.apply_diagnostics(state, diag(DiagnosticStatus.OK, "buddy/face_driver", "v2 on sim"))
    assert state.problems == {}


def test_a_first_run_without_children_is_a_hint_not_a_problem() -> None:
    """Issue 30: a household without children was a problem line for the whole session;
    the identity node reports OK with a hint (how to add a child), shown as the hint row."""
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus

    from buddy_personality.nodes.identity_node import ADD_CHILD_HINT

    state = lv.ViewState()
    lv.apply_diagnostics(state, DiagnosticArray(status=[DiagnosticStatus(
        level=DiagnosticStatus.OK, name="buddy/identity", message=f"hint: {ADD_CHILD_HINT}")]))
    assert state.problems == {}
    assert "buddy parent add-child" in state.hint
    assert "buddy parent add-child" in text_of(state, 140, 24)


def test_an_rs2_lockout_stays_on_screen_until_the_daily_reset() -> None:
    state = lv.ViewState()
    lv.apply_guardrail(state, GuardrailEvent(
        rule_id="RS-2", action="refuse_session",
        details="daily conversation time 2710 s already at the limit (2700 s)"))
    assert "RS-2 daily limit reached" in text_of(state, 80, 24)
    lv.apply_guardrail(state, GuardrailEvent(rule_id="RS-2", action="daily_reset"))
    assert "RS-2" not in state.problems
