"""The simulated board behaves like the real `esp32-face` firmware, fixed against
face-protocol.md "How the firmware behaves" (issue 20): every test quotes the rule it
checks; the misread v2 frames are the document's own examples."""

from __future__ import annotations

import struct

import pytest

from buddy_personality.face.cobs import cobs_encode
from buddy_personality.face.codec import FrameDecoder, encode_frame, parse_packet
from buddy_personality.face.crc import crc16_ccitt_false
from buddy_personality.face.protocol import (
    NO_GESTURE,
    FaceStatus,
    GestureCmd,
    GestureId,
    Heartbeat,
    PacketType,
    ProtocolVersionAck,
    SetFlags,
    SetProtocolVersion,
    SetState,
    SetSystem,
    SetTalking,
    SystemMode,
    TimeSyncReq,
    TimeSyncResp,
)
from buddy_personality.face.sim_board import SimulatedBoard

AFTER_BOOT = 4.0   # the boot animation (3.7 s) is over


def packets(data: bytes) -> list:
    """Board output read the way the board sent it (v2 if long enough for a v2 header
    and the board is on v2; the tests say which)."""
    return FrameDecoder().feed(data)


def decoded(data: bytes, version: int) -> list:
    return [parse_packet(b, version).payload for b in FrameDecoder().feed(data)]


def v2_board(now: float = 0.0) -> SimulatedBoard:
    board = SimulatedBoard(now=now)
    board.receive(encode_frame(SetProtocolVersion(2), 0, 1), now)
    assert board.version == 2
    return board


def test_boots_on_v1_and_acks_version_2_in_a_v2_envelope() -> None:
    # "The ACK for version 2 comes in a v2 envelope (version byte at offset 13)."
    board = SimulatedBoard(now=0.0)
    (ack,) = packets(board.receive(encode_frame(SetProtocolVersion(2), 0, 1), 0.1))
    assert len(ack) == 13 + 1 and ack[13] == 2
    assert parse_packet(ack, 2).payload == ProtocolVersionAck(2)
    # "SET_PROTOCOL_VERSION accepts only 1 or 2 (others get no ACK)"
    assert board.receive(encode_frame(SetProtocolVersion(3), 1, 1), 0.2) == b""
    assert board.version == 2


def test_talking_times_out_450_ms_after_the_last_set_talking() -> None:
    # "If no SET_TALKING arrives for more than 450 ms, the firmware stops the talking
    # animation ... Any SET_TALKING refreshes it, talking=1, energy=0 included."
    board = SimulatedBoard(now=0.0)
    board.receive(encode_frame(SetTalking(1, 200), 1, 1), AFTER_BOOT)
    assert board.shows_talking(AFTER_BOOT + 0.449)
    assert not board.shows_talking(AFTER_BOOT + 0.451)
    board.receive(encode_frame(SetTalking(1, 0), 2, 1), AFTER_BOOT + 0.4)
    assert board.shows_talking(AFTER_BOOT + 0.849)
    assert not board.shows_talking(AFTER_BOOT + 0.851)
    # FACE_STATUS flag bit1 follows it
    status = decoded(board.poll(AFTER_BOOT + 0.9), 1)
    assert FaceStatus(0, NO_GESTURE, 0, 0) in status


def test_mood_12_and_above_leave_the_previous_mood_but_apply_the_rest() -> None:
    # "SET_STATE with mood id 12 (CONFUSED) or above leaves the previous mood on the
    # face, and FACE_STATUS keeps reporting it; intensity, gaze and brightness of the
    # same packet are still applied."
    board = SimulatedBoard(now=0.0)
    board.receive(encode_frame(SetState(1, 100, 0, 0, 255), 1, 1), AFTER_BOOT)
    board.receive(encode_frame(SetState(12, 30, 5, -5, 90), 2, 1), AFTER_BOOT)
    face = board.face
    assert (face.mood_id, face.intensity, face.gaze_x, face.gaze_y, face.brightness) == (
        1, 30, 5, -5, 90)
    assert board.counters.ignored_moods == 1
    statuses = [p for p in decoded(board.poll(AFTER_BOOT + 0.1), 1) if isinstance(p, FaceStatus)]
    assert statuses[-1].mood_id == 1


def test_brightness_is_raw_and_boots_at_200() -> None:
    # "Brightness is the raw 8-bit backlight duty: 0 is a dark screen, the boot default
    # is 200."
    board = SimulatedBoard(now=0.0)
    assert board.face.brightness == 200
    board.receive(encode_frame(SetState(0, 0, 0, 0, 0), 1, 1), 1.0)
    assert board.face.brightness == 0


def reset_board_reading(frame_payload, seq: int, t_src_us: int) -> SimulatedBoard:
    """A board that was on v2, reset (v1 again), then reads a v2 frame of the host."""
    board = v2_board()
    board.reset(10.0)
    assert board.version == 1
    board.receive(encode_frame(frame_payload, seq, 2, t_src_us), 10.1)
    return board


def test_a_v2_set_state_after_a_reset_is_misread_as_v1_dark_screen() -> None:
    # "a v2 frame that reaches a v1 parser passes the CRC and is parsed as v1, its
    # payload taken from the v2 header bytes ... a v2 SET_STATE gave brightness 0 (dark
    # screen)". v1 reads type, seq = seq byte 0, then mood = seq byte 1, intensity = seq
    # byte 2, gaze_x = seq byte 3, gaze_y = t_src byte 0, brightness = t_src byte 1.
    t_src_us = 0x0001_0037   # t_src bytes 37 00 01 00 ...: brightness 0
    board = reset_board_reading(SetState(1, 204, 0, 0, 255), seq=5, t_src_us=t_src_us)
    face = board.face
    assert (face.mood_id, face.intensity, face.gaze_x, face.gaze_y, face.brightness) == (
        0, 0, 0, 0x37, 0)
    assert board.received[-1].version == 1


@pytest.mark.parametrize(("sent", "seq", "board_talking"), [
    (1, 0x0042, False),   # "SET_TALKING(1) gave talking 0": seq byte 1 is 0
    (0, 0x0142, True),    # "SET_TALKING(0) gave talking 1": seq byte 1 is 1
])
def test_a_v2_set_talking_after_a_reset_is_misread(sent: int, seq: int,
                                                   board_talking: bool) -> None:
    board = reset_board_reading(SetTalking(sent, 0), seq=seq, t_src_us=123_456)
    assert board.talking_at(10.1) is board_talking


def test_a_v2_set_system_none_after_a_reset_shows_low_battery() -> None:
    # "SET_SYSTEM(NONE) gave LOW_BATTERY": mode = seq byte 1 = 3.
    board = reset_board_reading(SetSystem(int(SystemMode.NONE)), seq=0x0307, t_src_us=99)
    assert board.face.system_mode == SystemMode.LOW_BATTERY


def test_a_v2_gesture_nod_after_a_reset_plays_wink_r() -> None:
    # "GESTURE(NOD) gave WINK_R": gesture id = seq byte 1 = 2.
    board = reset_board_reading(GestureCmd(int(GestureId.NOD)), seq=0x0209, t_src_us=99)
    board.poll(10.0 + AFTER_BOOT)
    assert board.face.gesture == GestureId.WINK_R


def test_frames_under_15_decoded_bytes_are_v1_even_in_v2_mode() -> None:
    # "Frames shorter than 15 decoded bytes are parsed as v1 even in v2 mode. Every face
    # command is 5-9 bytes in a v1 envelope, so v1-envelope commands work in both modes."
    board = v2_board()
    board.receive(encode_frame(SetState(3, 128, 0, 0, 255), 9, 1), 1.0)
    board.receive(encode_frame(SetTalking(1, 50), 10, 1), 1.0)
    assert (board.face.mood_id, board.face.brightness, board.talking_at(1.0)) == (3, 255, True)
    assert {p.version for p in board.received[1:]} == {1}


def test_status_every_50_ms_heartbeat_every_second_from_boot() -> None:
    # "FACE_STATUS goes out every 50 ms and HEARTBEAT every 1 s, both from boot."
    board = SimulatedBoard(now=0.0)
    out = b"".join(board.poll(ms / 1000) for ms in range(1, 2001))
    bodies = packets(out)
    statuses = [b for b in bodies if b[0] == PacketType.FACE_STATUS]
    heartbeats = [parse_packet(b, 1).payload for b in bodies if b[0] == PacketType.HEARTBEAT]
    assert len(statuses) == 40
    assert [h.uptime_ms for h in heartbeats] == [1000, 2000]
    assert all(len(b) == 2 + 4 for b in statuses)   # v1 envelope, 4 bytes


def test_a_reset_restarts_uptime_and_sequence_and_goes_back_to_v1() -> None:
    # "Signs of a reset: HEARTBEAT uptime_ms goes backwards, FACE_STATUS arrives in a v1
    # envelope with 4 bytes, the MCU's sequence restarts at 0."
    board = v2_board()
    before = [parse_packet(b, 2) for b in packets(board.poll(5.0))]
    assert before and all(p.version == 2 for p in before)
    board.reset(5.01)
    after = packets(board.poll(5.07))
    status = parse_packet(after[0], 1)
    assert status.type_id == PacketType.FACE_STATUS and len(after[0]) == 6
    assert status.seq == 0
    (heartbeat,) = [p for p in decoded(board.poll(6.02), 1) if isinstance(p, Heartbeat)]
    assert heartbeat.uptime_ms == 1010
    assert board.face.brightness == 200 and board.face.flags == 0x3F   # nothing stored


def test_boot_animation_suppresses_mood_talking_and_gestures_for_3_7_s() -> None:
    # "A boot animation of about 3.7 s suppresses mood, talking and gesture rendering;
    # commands received meanwhile are latched."
    board = SimulatedBoard(now=0.0)
    board.receive(encode_frame(SetState(2, 100), 1, 1), 1.0)
    board.receive(encode_frame(GestureCmd(4, 0), 2, 1), 1.0)
    board.receive(encode_frame(SetTalking(1, 90), 3, 1), 3.6)
    assert board.shown_mood(3.6) is None and not board.shows_talking(3.6)
    board.poll(3.6)
    assert board.face.gesture == NO_GESTURE
    assert board.shown_mood(3.71) == 2 and board.shows_talking(3.71)
    board.poll(3.71)
    assert board.face.gesture == 4


def test_gestures_ids_duration_and_a_queue_of_15_that_drops_the_oldest() -> None:
    # "GESTURE ids 0-12 (larger are dropped); duration 0 = the gesture's default, else
    # max(80 ms, value); a queue of 15 that drops the oldest."
    board = SimulatedBoard(now=0.0)
    board.receive(encode_frame(GestureCmd(13, 100), 0, 1), 0.5)
    assert board.counters.dropped_gestures == 1
    for i in range(17):
        board.receive(encode_frame(GestureCmd(i % 13, 10), i + 1, 1), 1.0)
    assert board.counters.dropped_gestures == 1 + 2
    for ms in range(int(AFTER_BOOT * 1000), int(AFTER_BOOT * 1000) + 3000):
        board.poll(ms / 1000)
    played = board.gestures_played
    assert [g for g, _ in played] == [i % 13 for i in range(2, 17)]   # the oldest two gone
    # 10 ms asked, 80 ms played
    assert played[1][1] - played[0][1] == pytest.approx(0.08, abs=0.0015)


def test_system_modes_flags_and_conversation_state_ranges() -> None:
    # "SET_SYSTEM modes 0-5 (others ignored)"; "SET_FLAGS masked to bits 0-6; boot
    # default 0x3F"; while a mode other than NONE is active mood and talking pause.
    board = SimulatedBoard(now=0.0)
    board.receive(encode_frame(SetSystem(6, 0, 9), 1, 1), AFTER_BOOT)
    assert board.face.system_mode == 0
    board.receive(encode_frame(SetSystem(int(SystemMode.LOW_BATTERY), 0, 51), 2, 1), AFTER_BOOT)
    board.receive(encode_frame(SetTalking(1, 9), 3, 1), AFTER_BOOT)
    assert board.shown_mood(AFTER_BOOT) is None and not board.shows_talking(AFTER_BOOT)
    assert board.face.flags == 0x3F
    board.receive(encode_frame(SetFlags(0xFF), 4, 1), AFTER_BOOT)
    assert board.face.flags == 0x7F


def test_time_sync_reply_in_the_current_envelope_and_v2_status_fields() -> None:
    # "TIME_SYNC_REQ needs at least 8 payload bytes; the reply is {ping_seq, µs since
    # boot} in the current envelope."; v2 FACE_STATUS cmd_seq_last_applied is "the
    # sequence number of the last received non-handshake frame (only its low byte for
    # v1 frames)".
    board = v2_board()
    (resp,) = decoded(board.receive(encode_frame(TimeSyncReq(7), 300, 2, 0), 2.0), 2)
    assert resp == TimeSyncResp(7, 2_000_000)
    body = bytes([PacketType.TIME_SYNC_REQ, 5]) + struct.pack("<I", 8)   # 4 bytes only
    frame = cobs_encode(body + struct.pack("<H", crc16_ccitt_false(body))) + b"\x00"
    assert board.receive(frame, 2.1) == b""
    board.receive(encode_frame(SetState(1, 1), 0x1234, 1), 2.2)
    (status,) = [p for p in decoded(board.poll(2.3), 2) if isinstance(p, FaceStatus)]
    assert status.cmd_seq_last_applied == 0x34
