"""Link manager with explicit times: negotiation, v1 fallback, loss, backoff,
renegotiation after a board restart (face-protocol.md "Version negotiation")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from buddy_personality.face.codec import FrameDecoder, encode_frame, parse_packet
from buddy_personality.face.link import LinkConfig, LinkManager, LinkState
from buddy_personality.face.protocol import ButtonEvent, SetState, TimeSyncReq
from buddy_personality.face.sim_board import SimulatedBoard
from buddy_personality.face.testing import PortOpener


def make(board: SimulatedBoard | None = None, **config) -> tuple[LinkManager, PortOpener]:
    opener = PortOpener(board or SimulatedBoard(now=0.0))
    return LinkManager(opener, LinkConfig(**config)), opener


def test_negotiates_v2_with_a_v1_envelope_request() -> None:
    link, opener = make()
    result = opener.poll(link, 0.0)
    # The request on the wire is the hand-checked vector of test_codec: v1 envelope,
    # SET_PROTOCOL_VERSION, seq 0, data [2].
    assert bytes(opener.ports[0].written) == bytes([0x02, 0x07, 0x04, 0x02, 0x4E, 0x69, 0x00])
    # The fake board answers inside the write, so the ACK is read on the same poll.
    assert result.connected_now
    assert (link.state, link.version) == (LinkState.CONNECTED, 2)
    assert opener.board.version == 2


def test_v1_only_firmware_falls_back_to_v1_after_the_timeout() -> None:
    link, opener = make(SimulatedBoard(v1_only=True, now=0.0), negotiation_timeout_s=0.5)
    opener.poll(link, 0.0)
    assert not opener.poll(link, 0.49).connected_now
    result = opener.poll(link, 0.5)
    assert result.connected_now
    assert (link.state, link.version) == (LinkState.CONNECTED, 1)
    assert link.counters.negotiation_timeouts == 1
    assert link.send(SetState(mood_id=1, intensity=200), 0.6)
    # The board read it as a v1 packet and applied it.
    assert (opener.board.face.mood_id, opener.board.face.intensity) == (1, 200)


def test_port_missing_at_start_retries_with_exponential_backoff() -> None:
    link, opener = make(backoff_initial_s=0.5, backoff_max_s=4.0)
    opener.missing = True
    t = 0.0
    while t < 20.0:
        opener.poll(link, t)
        t = round(t + 0.02, 2)
    assert opener.attempts[:6] == [0.0, 0.5, 1.5, 3.5, 7.5, 11.5]  # +0.5, 1, 2, 4, 4
    assert link.state == LinkState.DISCONNECTED
    assert "does not exist" in link.last_error
    opener.missing = False
    assert opener.poll(link, 23.5).connected_now
    assert link.counters.reconnects == 0  # never connected before: a first connect


def test_write_error_is_a_loss_then_reconnect_and_renegotiate() -> None:
    link, opener = make(backoff_initial_s=0.5)
    opener.poll(link, 0.0)
    opener.poll(link, 0.01)
    opener.poll(link, 1.2)  # heartbeat heard: backoff reset
    opener.ports[0].fail_writes = True
    assert not link.send(SetState(0, 0), 1.3)
    assert link.state == LinkState.DISCONNECTED and opener.ports[0].closed
    assert link.counters.write_errors == 1
    opener.poll(link, 1.5)
    assert len(opener.ports) == 1  # backoff: not yet
    assert opener.poll(link, 1.8).connected_now
    assert len(opener.ports) == 2
    assert link.version == 2 and link.counters.reconnects == 1


def test_read_error_from_the_reader_thread_is_a_loss() -> None:
    link, opener = make()
    opener.poll(link, 0.0)
    opener.poll(link, 0.01)
    opener.ports[0].read_error = "read failed: [Errno 5] Input/output error"
    opener.poll(link, 0.1)
    assert link.state == LinkState.DISCONNECTED
    assert link.counters.read_errors == 1 and "Errno 5" in link.last_error


def test_a_board_that_never_answers_is_dropped_after_silence_and_retried() -> None:
    link, opener = make(SimulatedBoard(mute=True, now=0.0), silence_timeout_s=3.0)
    t = 0.0
    while t < 10.0:
        opener.poll(link, t)
        t = round(t + 0.02, 2)
    # v1 fallback at 0.5 s, silence at 3 s, reopen 0.5 s later, ... never raises.
    assert link.counters.negotiation_timeouts >= 2
    assert link.counters.silence_timeouts >= 2
    assert opener.attempts[:2] == [0.0, 3.52]


def test_board_restart_on_v1_under_a_v2_link_triggers_renegotiation() -> None:
    link, opener = make()
    opener.poll(link, 0.0)
    opener.poll(link, 0.01)
    assert link.version == 2
    opener.board.reset(1.0)  # reset button: the port stays, the board is back on v1
    for i in range(3):
        opener.ports[0].inbox += opener.board.button(0, 3, 1, 1.0 + i / 10)
    opener.poll(link, 1.5)
    assert link.counters.renegotiations == 1
    assert link.state == LinkState.NEGOTIATING
    assert opener.poll(link, 1.52).connected_now  # the ACK is read on the next poll
    assert link.version == 2 and opener.board.version == 2


def test_garbage_and_truncated_frames_are_counted_and_the_link_survives() -> None:
    link, opener = make()
    opener.poll(link, 0.0)
    opener.poll(link, 0.01)
    good = opener.board.button(1, 0, 1, 0.1)
    opener.ports[0].inbox += b"\x13\x37\xff\x00" + good[:5] + b"\x00" + good
    result = opener.poll(link, 0.1)
    assert [p.payload for p in result.packets
            if isinstance(p.payload, ButtonEvent)] == [ButtonEvent(1, 0, 1, 0)]
    assert link.counters.drops.total() == 2
    assert link.state == LinkState.CONNECTED


def test_v2_frames_carry_sequence_and_host_time() -> None:
    link, opener = make()
    opener.poll(link, 0.0)
    opener.poll(link, 0.01)
    start = len(opener.ports[0].written)
    link.send(TimeSyncReq(5), 2.5)      # the one host packet in the negotiated envelope
    (body,) = FrameDecoder().feed(bytes(opener.ports[0].written[start:]))
    packet = parse_packet(body, 2)
    assert packet.seq == 1 and packet.t_src_us == 2_500_000
    assert encode_frame(TimeSyncReq(5), 1, 2, 2_500_000) == bytes(opener.ports[0].written[start:])


def test_face_commands_go_in_a_v1_envelope_even_on_a_v2_link() -> None:
    # face-protocol.md "What Buddy's driver does": a board that reset to v1 under us
    # can never misread a face command.
    link, opener = make()
    opener.poll(link, 0.0)
    opener.poll(link, 0.01)
    assert link.version == 2
    start = len(opener.ports[0].written)
    link.send(SetState(3, 9), 2.5)
    (body,) = FrameDecoder().feed(bytes(opener.ports[0].written[start:]))
    assert body == bytes([0x20, 1, 3, 9, 0, 0, 255])   # type, seq u8 (second packet), data


def test_one_v1_frame_in_v2_mode_starts_a_new_negotiation_at_once() -> None:
    link, opener = make()
    opener.poll(link, 0.0)
    opener.poll(link, 0.01)
    opener.board.reset(1.0)     # the port stays; the board is back on v1
    opener.poll(link, 1.06)     # its first FACE_STATUS (v1, 4 bytes) arrives
    assert link.counters.renegotiations == 1
    assert link.last_reset_reason == "the board sent a v1 frame in v2 mode"
    assert opener.poll(link, 1.07).connected_now


def test_send_while_down_is_refused_and_counted() -> None:
    link, opener = make()
    opener.missing = True
    opener.poll(link, 0.0)
    assert not link.send(SetState(0, 0), 0.0)
    assert link.counters.dropped_while_down == 1


@settings(max_examples=150, deadline=None)
@given(version=st.sampled_from([1, 2]),
       chunks=st.lists(st.binary(max_size=200), min_size=1, max_size=12))
def test_fuzz_arbitrary_board_bytes_never_crash_the_link(version: int, chunks) -> None:
    board = SimulatedBoard(v1_only=version == 1, now=0.0)
    link, opener = make(board, negotiation_timeout_s=0.1)
    opener.poll(link, 0.0)
    opener.poll(link, 0.2)
    assert link.version == version
    t = 0.2
    for chunk in chunks:
        opener.ports[-1].inbox += chunk
        t += 0.02
        result = opener.poll(link, t)
        for packet in result.packets:
            assert packet.version in (1, 2)
    # Garbage may at most make the link renegotiate; it never drops or raises.
    assert link.state in (LinkState.CONNECTED, LinkState.NEGOTIATING)
