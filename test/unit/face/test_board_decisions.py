"""The driver's decisions (face-protocol.md "What Buddy's driver does (decisions)"),
core level on explicit time against the firmware-like simulated board (issue 20). The
executable-level versions are in test/node/test_face_driver_executable.py."""

from __future__ import annotations

import itertools
import math

import pytest

from buddy_personality.face import board_rules
from buddy_personality.face.board_news import BoardNews
from buddy_personality.face.codec import encode_frame
from buddy_personality.face.driver import (
    SYS_LOW_BATTERY,
    DriverConfig,
    FaceDriverCore,
)
from buddy_personality.face.link import LinkConfig, LinkManager
from buddy_personality.face.protocol import (
    ConvState,
    FaceStatus,
    GestureId,
    Heartbeat,
    Mood,
    PacketType,
    SetTalking,
)
from buddy_personality.face.readback import ResetDetector
from buddy_personality.face.sim_board import BOOT_ANIMATION_S, SimulatedBoard
from buddy_personality.face.talking import TalkingController, TextEnvelope
from buddy_personality.face.testing import PortOpener

STEP = 0.005   # the rig ticks every 5 ms: finer than any rule checked here


def set_time(opener: PortOpener, now: float) -> None:
    """The opener's and its ports' clock (the core's tick polls the link itself)."""
    opener.now = now
    for port in opener.ports:
        port.now = now


class Rig:
    """Driver core + link on a firmware-like board, ticked on explicit time; the board
    is past its boot animation before the driver starts (unless asked otherwise)."""

    def __init__(self, start: float = BOOT_ANIMATION_S + 0.1, **config) -> None:
        self.board = SimulatedBoard(now=0.0)
        self.opener = PortOpener(self.board)
        self.link = LinkManager(self.opener, LinkConfig())
        self.core = FaceDriverCore(self.link, config=DriverConfig(**config))
        self.now = start
        self.talking_samples: list[tuple[float, bool]] = []
        self.tick()
        self.core.activate(self.now)
        self.run(0.05)

    def tick(self) -> None:
        set_time(self.opener, self.now)
        self.core.tick(self.now)
        self.talking_samples.append((self.now, self.board.shows_talking(self.now)))

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end - 1e-9:
            self.now = round(self.now + STEP, 6)
            self.tick()

    def sent(self, type_id: int) -> list[tuple[float, object]]:
        return [(at, p.payload) for p, at in zip(self.board.received, self.board.received_at,
                                                 strict=True) if p.type_id == type_id]


# --- talking ------------------------------------------------------------------------------


def test_the_mouth_moves_through_a_3_s_utterance_and_stops_within_500_ms() -> None:
    # face-protocol.md: the firmware stops talking 450 ms after the last SET_TALKING;
    # the driver refreshes at least every 100 ms, holds 300 ms after, then talking=0.
    rig = Rig()
    start = rig.now
    rig.core.on_speech_text("Hello! Shall we build a tower out of blocks today?", start)
    rig.core.on_talking(True, start)
    rig.run(3.0)
    end = rig.now
    rig.core.on_talking(False, end)
    rig.run(1.0)
    during = [shown for t, shown in rig.talking_samples if start <= t < end]
    assert sum(during) / len(during) >= 0.98
    stopped_at = next(t for t, shown in rig.talking_samples if t > end and not shown)
    assert stopped_at - end <= 0.5
    assert stopped_at - end >= board_rules.TALKING_HOLD_S   # held, not cut
    frames = [(t, f) for t, f in rig.sent(PacketType.SET_TALKING) if start <= t <= end]
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(frames)]
    assert max(gaps) <= 0.1 + 1e-9
    energies = {f.energy for _, f in frames}
    assert len(energies) > 5 and max(energies) > 100    # a moving envelope, not a constant
    last = rig.sent(PacketType.SET_TALKING)[-1][1]
    assert last == SetTalking(0, 0)


def test_tts_energy_drives_the_energy_while_fresh_then_the_text_envelope() -> None:
    ctl = TalkingController()
    ctl.on_text("one two three", 0.0)
    ctl.on_speaking(True, 0.0)
    ctl.on_energy(0.5, 0.0)
    frame = ctl.due(0.0)
    assert frame == SetTalking(1, 128)
    ctl.sent(frame, 0.0)
    assert ctl.due(0.04) is None and ctl.due(0.05) is not None
    # stale tts level (> 250 ms): the text envelope takes over
    frame = ctl.due(0.5)
    assert frame is not None and frame.talking == 1
    ctl.sent(frame, 0.5)
    assert ctl.counters.from_text == 1 and ctl.counters.from_tts_energy == 1


def test_text_envelope_is_speech_like() -> None:
    env = TextEnvelope("Hello, friend. Do you like dinosaurs?")
    levels = [env.level(t / 100) for t in range(int(env.duration * 100))]
    assert all(0.0 <= v <= 1.0 for v in levels)
    assert 1.5 < env.duration < 5.0
    assert min(levels) < 0.1 and max(levels) > 0.6    # pauses and syllable peaks


def test_nan_tts_energy_is_refused_and_counted() -> None:
    rig = Rig()
    assert not rig.core.on_speech_energy(math.nan, rig.now)
    assert rig.core.on_speech_energy(3.0, rig.now)   # clamped to 1
    assert rig.core.counters.rejected_inputs == {"tts_energy": 1}


# --- CONFUSED -----------------------------------------------------------------------------


def test_confused_shows_as_thinking_with_gesture_3_on_entry_and_every_4_s() -> None:
    rig = Rig()
    rig.core.on_phase(int(ConvState.SPEAKING), rig.now)
    entered = rig.now
    rig.core.on_snapshot("confused", 0.6, entered)
    rig.run(0.1)
    assert rig.board.face.mood_id == Mood.THINKING     # not 12, which the board ignores
    assert rig.board.counters.ignored_moods == 0
    for _ in range(9):   # fresh snapshots keep the backstop away for 9 s
        rig.core.on_snapshot("confused", 0.6, rig.now)
        rig.run(1.0)
    gestures = [t for g, t in rig.board.gestures_played if g == GestureId.CONFUSED]
    assert len(gestures) == 3 and gestures[0] - entered < 0.01
    assert [round(b - a, 2) for a, b in itertools.pairwise(gestures)] == [4.0, 4.0]
    assert rig.core.shown.mood == "confused"
    assert rig.core.board_mood() == "thinking"


# --- flags, gaze, brightness ---------------------------------------------------------------


@pytest.mark.parametrize(("state", "flags"), [
    (ConvState.IDLE, 0x3F), (ConvState.ATTENTION, 0x3E), (ConvState.LISTENING, 0x3E),
    (ConvState.PTT, 0x3E), (ConvState.SPEAKING, 0x3E), (ConvState.THINKING, 0x1E),
    (ConvState.DONE, 0x3F),
])
def test_flags_per_conversation_state_as_upstream(state: ConvState, flags: int) -> None:
    rig = Rig()
    rig.core.on_phase(int(ConvState.LISTENING) if state == ConvState.IDLE
                      else int(ConvState.IDLE), rig.now)
    rig.core.on_phase(int(state), rig.now)
    assert rig.board.face.flags == flags


def test_error_keeps_the_flags_and_gaze_follows_the_state() -> None:
    rig = Rig()
    rig.core.on_phase(int(ConvState.THINKING), rig.now)
    assert (rig.board.face.gaze_x, rig.board.face.gaze_y) == board_rules.GAZE_BY_CONV_STATE[
        int(ConvState.THINKING)]
    rig.core.on_phase(int(ConvState.ERROR), rig.now)
    assert rig.board.face.flags == 0x1E
    rig.core.on_phase(int(ConvState.SPEAKING), rig.now)
    assert (rig.board.face.gaze_x, rig.board.face.gaze_y) == (0, 0)


def test_brightness_is_never_0_unless_asked() -> None:
    rig = Rig()
    for phase in ConvState:
        rig.core.on_phase(int(phase), rig.now)
        rig.core.on_snapshot("happy", 0.4, rig.now)
        rig.run(0.2)
    states = [s for _, s in rig.sent(PacketType.SET_STATE)]
    assert states and all(s.brightness == 255 for s in states)
    rig.core.set_brightness(0, rig.now)      # asked for: a dark screen
    assert rig.board.face.brightness == 0


# --- reading back ------------------------------------------------------------------------


def test_a_board_reporting_another_mood_gets_it_resent_after_200_ms() -> None:
    rig = Rig()
    rig.core.on_snapshot("happy", 0.5, rig.now)
    rig.run(0.3)
    assert rig.board.face.mood_id == Mood.HAPPY
    rig.board.face.mood_id = int(Mood.SAD)     # the board shows something else
    wrong_at = rig.now
    rig.run(0.5)
    assert rig.board.face.mood_id == Mood.HAPPY
    resent = [t for t, s in rig.sent(PacketType.SET_STATE) if t > wrong_at]
    assert 0.2 < resent[0] - wrong_at <= 0.3       # > 200 ms, one status cycle later
    assert rig.core.readback.mismatches["mood"] == 1
    assert rig.core.diagnostics(rig.now)["status_mismatch_mood"] == "1"


def test_a_disagreement_shorter_than_200_ms_is_not_resent() -> None:
    rig = Rig()
    rig.core.on_snapshot("happy", 0.5, rig.now)
    rig.run(0.3)
    rig.board.face.mood_id = int(Mood.SAD)
    rig.run(0.12)
    rig.board.face.mood_id = int(Mood.HAPPY)    # back by itself
    rig.run(0.5)
    assert rig.core.readback.mismatches["mood"] == 0


# --- board resets -----------------------------------------------------------------------


def test_a_reset_mid_speech_applies_no_garbage_and_resends_everything() -> None:
    rig = Rig()
    rig.core.on_phase(int(ConvState.SPEAKING), rig.now)
    rig.core.on_snapshot("happy", 0.8, rig.now)
    rig.core.on_talking(True, rig.now)
    rig.run(1.0)
    rig.board.reset(rig.now)            # MCU reset, port kept open: v1 again
    reset_at = rig.now
    for mood in ("excited", "love", "silly"):
        rig.core.on_snapshot(mood, 0.7, rig.now)
        rig.run(0.3)
    assert rig.link.version == 2 and rig.core.counters.board_resets >= 1
    after = [(t, s) for t, s in rig.sent(PacketType.SET_STATE) if t >= reset_at]
    assert after and all(s.brightness == 255 and s.intensity > 100 for _, s in after)
    assert {p.version for p in rig.board.received if p.type_id != PacketType.TIME_SYNC_REQ} == {1}
    face = rig.board.face
    assert (face.mood_id, face.conv_state, face.flags) == (Mood.SILLY, 5, 0x3E)
    assert rig.board.talking_at(rig.now)


def test_reset_signs_uptime_backwards_and_sequence_restart() -> None:
    detector = ResetDetector()
    assert detector.on_heartbeat(5000) is None
    assert detector.on_heartbeat(6000) is None
    assert "uptime went back" in detector.on_heartbeat(40)
    assert detector.on_sequence(200, 2) is None
    assert "sequence restarted" in detector.on_sequence(0, 2)
    detector.reset()
    assert detector.on_sequence(255, 1) is None
    assert detector.on_sequence(0, 1) is None          # a v1 wrap is not a reset
    assert detector.on_sequence(100, 1) is None
    assert detector.on_sequence(1, 1) is not None


def test_heartbeat_uptime_going_back_on_a_v1_only_board_resends_the_face() -> None:
    board = SimulatedBoard(v1_only=True, now=0.0)
    opener = PortOpener(board)
    link = LinkManager(opener, LinkConfig(negotiation_timeout_s=0.2))
    core = FaceDriverCore(link)
    now = 4.0
    while now < 5.0:
        set_time(opener, now)
        core.tick(now)
        if not core.active:
            core.activate(now)
        now = round(now + 0.01, 3)
    core.on_snapshot("love", 0.5, now)
    assert board.face.mood_id == Mood.LOVE
    board.face.mood_id = 0
    hb = Heartbeat(tuple([10] + [0] * 15))          # uptime 10 ms: the board restarted
    opener.ports[-1].inbox += encode_frame(hb, 3, 1)
    for _ in range(60):
        now = round(now + 0.01, 3)
        set_time(opener, now)
        core.tick(now)
    assert core.counters.board_resets == 1 and board.face.mood_id == Mood.LOVE


# --- time sync, news filter, battery -------------------------------------------------------


def test_time_sync_reports_offset_and_round_trip() -> None:
    rig = Rig()
    rig.run(1.0)
    diag = rig.core.diagnostics(rig.now)
    assert int(diag["time_sync_samples"]) >= 4
    # the board's clock started at 0 and the host's rig clock too: offset ~ 0 ms
    assert abs(float(diag["time_sync_offset_ms"])) < 5.0
    assert float(diag["time_sync_rtt_ms"]) <= STEP * 1000 + 1e-6


def test_board_news_ignores_chatter_and_wakes_for_buttons_and_changes() -> None:
    news = BoardNews()
    board = SimulatedBoard(now=0.0)
    assert news.is_news(board.poll(0.05))             # the first status
    assert not news.is_news(board.poll(0.10))         # unchanged
    assert not news.is_news(board.poll(1.0))          # heartbeat + unchanged status
    assert news.is_news(encode_frame(FaceStatus(3), 9, 1))
    assert news.is_news(board.button(0, 2, 1, 1.06))


@pytest.mark.parametrize(("pct", "param", "clamped"), [
    (20.0, 51, False), (150.0, 255, True), (-1.0, 0, True), (100.0, 255, False)])
def test_battery_level_is_clamped_to_0_100(pct: float, param: int, clamped: bool) -> None:
    assert board_rules.battery_param(pct) == (param, clamped)


def test_nan_battery_refuses_the_event_and_counts_it() -> None:
    rig = Rig()
    assert not rig.core.on_system_event(SYS_LOW_BATTERY, math.nan, rig.now)
    assert rig.core.on_system_event(SYS_LOW_BATTERY, 250.0, rig.now)
    assert (rig.board.face.system_mode, rig.board.face.system_param) == (3, 255)
    diag = rig.core.diagnostics(rig.now)
    assert diag["rejected_battery_level"] == "1" and diag["battery_clamped"] == "1"
