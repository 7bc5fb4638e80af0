"""The serial link to the face board: connect, negotiate, detect loss, reconnect
(face-protocol.md "Version negotiation"; DESIGN §4.4 "Port lost").

`LinkManager` is a ROS-free state machine driven by `poll(now)`:

    DISCONNECTED --open ok--> NEGOTIATING --ACK--> CONNECTED (v2)
         ^                        |--timeout--> CONNECTED (v1: older firmware)
         |                                          |
         +---- write/read error, heartbeat silence -+   (reopen after a backoff)

- Negotiation: SET_PROTOCOL_VERSION(want) always in a v1 envelope; the MCU answers
  PROTOCOL_VERSION_ACK in the new envelope. While negotiating, an ACK whose body is
  long enough for a v2 header (>= 14 bytes) is read as v2, anything else as v1.
- Envelopes (face-protocol.md "What Buddy's driver does"): every face command goes in
  a v1 envelope in either mode, so a board that reset to v1 under us can never misread
  one; only TIME_SYNC_REQ uses the negotiated envelope (`board_rules`).
- Replug: a real USB replug shows up as a port error, so the link reopens and
  negotiates again. A board that restarted without the port going away (reset
  button, brown-out) talks v1 again while we expect v2: the first packet that is
  malformed as v2 but a well-formed v1 MCU packet (its FACE_STATUS comes every 50 ms)
  starts a new negotiation at once; the driver core calls `renegotiate` on the other
  signs of a reset (uptime going back, the board's sequence restarting).
- Backoff: reopen attempts wait initial * 2**failures (capped); the failure count
  resets once the board has been heard from on a connection.
- Never raises out of `poll`/`send` for device trouble: errors become state, counters
  and `last_error`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Protocol

from buddy_personality.face.board_rules import NEGOTIATED_ENVELOPE_TYPES
from buddy_personality.face.codec import (
    V2_HEADER,
    DropCounters,
    DropReason,
    FrameDecoder,
    Packet,
    encode_frame,
    parse_packet,
)
from buddy_personality.face.protocol import (
    PAYLOAD_TYPES,
    MalformedPayload,
    PacketType,
    Payload,
    ProtocolVersionAck,
    SetProtocolVersion,
    UnknownPayload,
)

MCU_TYPES = frozenset(t for t in PAYLOAD_TYPES if t >= 0x80)


class Port(Protocol):
    """What the link needs from an open port (ThreadedPort, or a fake in tests)."""

    name: str

    def take(self) -> bytes: ...

    @property
    def error(self) -> str | None: ...

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...


class LinkState(IntEnum):
    DISCONNECTED = 0
    NEGOTIATING = 1
    CONNECTED = 2


@dataclass(slots=True)
class LinkConfig:
    want_version: int = 2
    negotiation_timeout_s: float = 0.5
    silence_timeout_s: float = 3.0      # no frame from the board this long = lost; 0 = off
    backoff_initial_s: float = 0.5
    backoff_max_s: float = 8.0
    v1_frames_to_renegotiate: int = 1


@dataclass(slots=True)
class LinkCounters:
    frames_tx: int = 0
    frames_rx: int = 0
    bytes_tx: int = 0
    bytes_rx: int = 0
    unknown_types: int = 0
    connects: int = 0           # successful opens
    reconnects: int = 0         # successful opens after a loss
    open_failures: int = 0
    losses: int = 0
    write_errors: int = 0
    read_errors: int = 0
    silence_timeouts: int = 0
    negotiation_timeouts: int = 0   # fell back to v1
    renegotiations: int = 0         # after a sign of a board reset
    ignored_while_negotiating: int = 0
    dropped_while_down: int = 0     # packets the driver asked to send with no link
    drops: DropCounters = field(default_factory=DropCounters)

    def as_dict(self) -> dict[str, int]:
        out = {name: getattr(self, name) for name in self.__dataclass_fields__
               if name != "drops"}
        out.update({f"drop_{k}": v for k, v in self.drops.as_dict().items()})
        return out


@dataclass(slots=True, frozen=True)
class PollResult:
    packets: list[Packet]
    connected_now: bool   # the link reached CONNECTED during this poll: resend all state


class LinkManager:
    def __init__(self, open_port: Callable[[], Port], config: LinkConfig | None = None) -> None:
        self._open_port = open_port
        self.config = config or LinkConfig()
        self.counters = LinkCounters()
        self.state = LinkState.DISCONNECTED
        self.version = 0
        self.last_error = ""
        self.last_reset_reason = ""   # why the last renegotiation started
        self.port_name = ""
        self._port: Port | None = None
        self._decoder = FrameDecoder(self.counters.drops)
        self._seq = 0
        self._failures = 0
        self._next_attempt: float | None = None  # None: try at the first poll
        self._negotiation_deadline = 0.0
        self._last_rx = 0.0
        self._heard = False
        self._ever_lost = False
        self._v1_in_v2 = 0

    @property
    def connected(self) -> bool:
        return self.state == LinkState.CONNECTED

    # --- driving -------------------------------------------------------------------------

    def poll(self, now: float) -> PollResult:
        packets: list[Packet] = []
        connected_now = False
        if self.state == LinkState.DISCONNECTED:
            if self._next_attempt is None or now >= self._next_attempt:
                self._try_open(now)
            if self.state == LinkState.DISCONNECTED:
                return PollResult(packets, False)
        assert self._port is not None
        data = self._port.take()
        if data:
            self.counters.bytes_rx += len(data)
            for body in self._decoder.feed(data):
                if self.state == LinkState.DISCONNECTED:
                    break
                negotiating = self.state == LinkState.NEGOTIATING
                packet = self._parse(body, now)
                if packet is None:
                    continue
                if packet.type_id == PacketType.PROTOCOL_VERSION_ACK:
                    connected_now |= self._on_ack(packet)
                elif negotiating:
                    # Envelope not settled yet: the packet proves the board is alive
                    # but its fields cannot be trusted; not delivered.
                    self.counters.ignored_while_negotiating += 1
                else:
                    packets.append(packet)
            if self.state == LinkState.DISCONNECTED:  # lost while parsing (renegotiation write)
                return PollResult(packets, False)
        error = self._port.error
        if error is not None:
            self.counters.read_errors += 1
            self._lose(now, error)
            return PollResult(packets, False)
        if self.state == LinkState.NEGOTIATING and now >= self._negotiation_deadline:
            # No ACK: older firmware, stay on v1 (face-protocol.md step 3).
            self.counters.negotiation_timeouts += 1
            self._set_connected(1)
            connected_now = True
        timeout = self.config.silence_timeout_s
        if self.state != LinkState.DISCONNECTED and timeout > 0 and now - self._last_rx > timeout:
            self.counters.silence_timeouts += 1
            self._lose(now, f"no frame from the board for {timeout:g} s")
            return PollResult(packets, False)
        return PollResult(packets, connected_now and self.connected)

    def next_deadline(self, now: float) -> float | None:
        """The next time `poll` has work even if the board sends nothing: the reopen
        attempt (backoff), the negotiation timeout (v1 fallback), the heartbeat-silence
        timeout. Bytes from the board and port errors are not here: the port's reader
        thread reports those as they happen (ThreadedPort `on_data`)."""
        if self.state == LinkState.DISCONNECTED:
            return now if self._next_attempt is None else self._next_attempt
        deadline: float | None = None
        if self.state == LinkState.NEGOTIATING:
            deadline = self._negotiation_deadline
        timeout = self.config.silence_timeout_s
        if timeout > 0:
            silence_at = self._last_rx + timeout   # poll: lost once now - last_rx > timeout
            deadline = silence_at if deadline is None else min(deadline, silence_at)
        return deadline

    def send(self, payload: Payload, now: float) -> bool:
        """Send one packet; False if the link is not up. Face commands go in a v1
        envelope whatever was negotiated (see the module docstring)."""
        if self.state != LinkState.CONNECTED:
            self.counters.dropped_while_down += 1
            return False
        version = self.version if payload.TYPE in NEGOTIATED_ENVELOPE_TYPES else 1
        return self._write(payload, version, now)

    def renegotiate(self, now: float, reason: str) -> None:
        """The board reset under us (it is back on v1 and has forgotten everything):
        negotiate again; the next CONNECTED is reported as `connected_now`."""
        if self.state == LinkState.DISCONNECTED or self._port is None:
            return
        self.counters.renegotiations += 1
        self.last_reset_reason = reason
        self._begin_negotiation(now)

    def close(self) -> None:
        """Close the port (lifecycle cleanup); the next poll reopens it."""
        if self._port is not None:
            self._port.close()
            self._port = None
        self.state = LinkState.DISCONNECTED
        self.version = 0
        self._next_attempt = None

    # --- internals -----------------------------------------------------------------------

    def _try_open(self, now: float) -> None:
        try:
            port = self._open_port()
        except Exception as exc:  # missing device, permission, serial errors
            self.counters.open_failures += 1
            self._fail(now, f"open failed: {exc}")
            return
        self._port = port
        self.port_name = port.name
        self.counters.connects += 1
        if self._ever_lost:
            self.counters.reconnects += 1
        self._decoder.reset()
        self._heard = False
        self._last_rx = now
        self._begin_negotiation(now)

    def _begin_negotiation(self, now: float) -> None:
        self.state = LinkState.NEGOTIATING
        self._v1_in_v2 = 0
        self._negotiation_deadline = now + self.config.negotiation_timeout_s
        # Always a v1 envelope (face-protocol.md "Version negotiation" step 1).
        self._write(SetProtocolVersion(self.config.want_version), 1, now)

    def _on_ack(self, packet: Packet) -> bool:
        if self.state != LinkState.NEGOTIATING:
            return False
        assert isinstance(packet.payload, ProtocolVersionAck)
        if packet.payload.version != self.config.want_version:
            return False
        self._set_connected(packet.payload.version)
        return True

    def _set_connected(self, version: int) -> None:
        self.state = LinkState.CONNECTED
        self.version = version
        self.last_error = ""

    def _parse(self, body: bytes, now: float) -> Packet | None:
        if self.state == LinkState.NEGOTIATING:
            is_ack = body[0] == PacketType.PROTOCOL_VERSION_ACK
            version = 2 if is_ack and len(body) > V2_HEADER.size else 1
        else:
            version = self.version
        try:
            packet = parse_packet(body, version)
        except MalformedPayload:
            self.counters.drops.add(DropReason.MALFORMED)
            if version == 2 and self._looks_like_v1(body):
                self._v1_in_v2 += 1
                if self._v1_in_v2 >= self.config.v1_frames_to_renegotiate:
                    # The board restarted on v1 under us: negotiate again.
                    self.renegotiate(now, "the board sent a v1 frame in v2 mode")
            return None
        self.counters.frames_rx += 1
        self._last_rx = now
        if self.state == LinkState.CONNECTED and not self._heard:
            self._heard = True
            self._failures = 0  # the board answers: the next loss starts a fresh backoff
        if isinstance(packet.payload, UnknownPayload):
            self.counters.unknown_types += 1
        return packet

    @staticmethod
    def _looks_like_v1(body: bytes) -> bool:
        if body[0] not in MCU_TYPES:
            return False
        try:
            parse_packet(body, 1)
        except MalformedPayload:
            return False
        return True

    def _write(self, payload: Payload, version: int, now: float) -> bool:
        assert self._port is not None
        frame = encode_frame(payload, self._seq, version, int(now * 1e6))
        self._seq = (self._seq + 1) & 0xFFFFFFFF
        try:
            self._port.write(frame)
        except Exception as exc:  # pyserial raises SerialException (an OSError) and others
            self.counters.write_errors += 1
            self._lose(now, f"write failed: {exc}")
            return False
        self.counters.frames_tx += 1
        self.counters.bytes_tx += len(frame)
        return True

    def _lose(self, now: float, reason: str) -> None:
        self.counters.losses += 1
        self._ever_lost = True
        if self._port is not None:
            self._port.close()
            self._port = None
        self._fail(now, reason)

    def _fail(self, now: float, reason: str) -> None:
        self.state = LinkState.DISCONNECTED
        self.version = 0
        self.last_error = reason
        delay = min(self.config.backoff_max_s,
                    self.config.backoff_initial_s * (2 ** min(self._failures, 30)))
        self._failures += 1
        self._next_attempt = now + delay
