"""The board's own reports, read back (face-protocol.md "What Buddy's driver does").

- `StatusReadback`: FACE_STATUS says what the board actually applied (mood, talking
  flag, system mode). When one of those disagrees with what the driver last sent for
  longer than 200 ms, that channel is resent and the mismatch counted. A value just
  sent is given the 200 ms to show up in a status before it counts as disagreeing.
- `ResetDetector`: the firmware sends no hello after a reset; its signs are HEARTBEAT
  `uptime_ms` going backwards and the board's sequence restarting (a v1 FACE_STATUS
  in v2 mode is seen by the link, which cannot parse it as v2).
- `TimeSync`: TIME_SYNC_REQ / RESP (v2 only): the board clock's offset from the host's
  and the round trip, from the sample with the shortest round trip of the recent ones.
  Pings at 5 Hz for the first 5 samples, then once a second (upstream: 20 at 5 Hz, then
  2 Hz; fewer wake-ups here, as the idle driver pauses its tick).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum

from buddy_personality.face.board_rules import STATUS_DISAGREEMENT_S
from buddy_personality.face.protocol import FaceStatus, StatusFlag, SystemMode


class Channel(StrEnum):
    MOOD = "mood"
    TALKING = "talking"
    SYSTEM = "system_mode"


@dataclass(slots=True, frozen=True)
class Expected:
    """What the driver last sent, per channel (None: not sent yet, nothing to compare)."""

    mood_id: int | None
    talking: bool | None
    system_mode: int | None


@dataclass(slots=True)
class StatusReadback:
    hold_s: float = STATUS_DISAGREEMENT_S
    mismatches: dict[str, int] = field(default_factory=lambda: dict.fromkeys(Channel, 0))
    last: FaceStatus | None = None
    _since: dict[Channel, float] = field(default_factory=dict)   # timing the next resend
    _first: dict[Channel, float] = field(default_factory=dict)   # disagreeing since
    _expected: Expected | None = None
    _changed_at: dict[Channel, float] = field(default_factory=dict)

    def expect(self, expected: Expected, now: float) -> None:
        """What was sent now; a changed channel gets the hold time to show up."""
        old = self._expected
        for channel, value in _values(expected).items():
            if old is None or _values(old)[channel] != value:
                self._changed_at[channel] = now
                self._since.pop(channel, None)
                self._first.pop(channel, None)
        self._expected = expected

    def on_status(self, status: FaceStatus, now: float) -> None:
        """A FACE_STATUS arrived (`check` then says what to resend)."""
        self.last = status

    def check(self, now: float) -> list[Channel]:
        """Channels to resend now (each counted once per resend)."""
        status, expected = self.last, self._expected
        if status is None or expected is None:
            return []
        reported = {
            Channel.MOOD: status.mood_id,
            Channel.TALKING: bool(status.flags & StatusFlag.TALKING),
            Channel.SYSTEM: status.system_mode,
        }
        wanted = _values(expected)
        resend: list[Channel] = []
        for channel in Channel:
            value = wanted[channel]
            if value is None or reported[channel] == value:
                self._since.pop(channel, None)
                self._first.pop(channel, None)
                continue
            if channel is Channel.TALKING and expected.system_mode not in (None, SystemMode.NONE):
                continue   # a system mode pauses talking on the firmware
            since = self._since.setdefault(
                channel, max(now, self._changed_at.get(channel, now)))
            self._first.setdefault(channel, since)
            if now - since > self.hold_s:
                resend.append(channel)
                self.mismatches[channel] += 1
                self._since[channel] = now   # give the resend its own hold time
        return resend

    def disagrees(self, channel: Channel, now: float) -> bool:
        """The board has reported something else than was sent on `channel` for longer
        than the hold time (resends notwithstanding)."""
        first = self._first.get(channel)
        return first is not None and now - first > self.hold_s

    def next_check_at(self) -> float | None:
        """When a disagreement being timed becomes due (for a paused tick)."""
        if not self._since:
            return None
        return min(self._since.values()) + self.hold_s

    def reset(self) -> None:
        self.last = None
        self._since.clear()
        self._first.clear()
        self._expected = None
        self._changed_at.clear()


def _values(expected: Expected) -> dict[Channel, object]:
    return {Channel.MOOD: expected.mood_id, Channel.TALKING: expected.talking,
            Channel.SYSTEM: expected.system_mode}


class ResetDetector:
    """Signs of an MCU reset in what the board sends (face-protocol.md)."""

    UPTIME_WRAP_MS = 0xFFFFFFFF

    def __init__(self) -> None:
        self._uptime_ms: int | None = None
        self._seq: int | None = None
        self._seq_version = 0

    def on_heartbeat(self, uptime_ms: int) -> str | None:
        last, self._uptime_ms = self._uptime_ms, uptime_ms
        if last is not None and uptime_ms < last and last - uptime_ms < self.UPTIME_WRAP_MS // 2:
            return f"uptime went back from {last} ms to {uptime_ms} ms"
        return None

    def on_sequence(self, seq: int, version: int) -> str | None:
        """The board's sequence number of a frame; a restart is a reset (a wrap is not:
        the v1 sequence is one byte and wraps every 256 frames)."""
        last = self._seq if version == self._seq_version else None
        self._seq, self._seq_version = seq, version
        if last is None or seq >= last:
            return None
        span = 0x100 if version == 1 else 0x1_0000_0000
        if last - seq < span * 3 // 4:   # backwards by less than a wrap: restarted
            return f"sequence restarted ({last} -> {seq})"
        return None

    def reset(self) -> None:
        self._uptime_ms = None
        self._seq = None


@dataclass(slots=True, frozen=True)
class TimeSample:
    rtt_us: int
    offset_us: int     # board clock minus host clock (µs) at the middle of the round trip


class TimeSync:
    WARMUP_SAMPLES = 5
    WARMUP_PERIOD_S = 0.2
    # Once warm, a ping every 5 s: an ESP32's crystal drifts ~40 ppm (0.2 ms in 5 s),
    # and a ping a second woke the idle driver twice a second (issue 14).
    PERIOD_S = 5.0
    WINDOW = 20
    TIMEOUT_S = 1.0

    def __init__(self) -> None:
        self.samples: deque[TimeSample] = deque(maxlen=self.WINDOW)
        self.total = 0
        self.lost = 0
        self._ping_seq = 0
        self._outstanding: tuple[int, float] | None = None
        self._next_at: float | None = None

    def start(self, now: float) -> None:
        self._next_at = now
        self._outstanding = None

    def stop(self) -> None:
        self._next_at = None
        self._outstanding = None

    def due(self, now: float, early_s: float = 0.0) -> int | None:
        """A ping sequence number to send now, or None. `early_s`: a tick that runs
        anyway (the keepalive's) may send a ping due that much later, so pings ride on
        it instead of waking the driver on their own (issue 14's idle CPU)."""
        if self._next_at is None or now < self._next_at - early_s:
            return None
        if self._outstanding is not None and now - self._outstanding[1] < self.TIMEOUT_S:
            return None
        if self._outstanding is not None:
            self.lost += 1
        self._ping_seq = (self._ping_seq + 1) & 0xFFFFFFFF
        self._outstanding = (self._ping_seq, now)
        period = self.WARMUP_PERIOD_S if self.total < self.WARMUP_SAMPLES else self.PERIOD_S
        self._next_at = now + period
        return self._ping_seq

    def next_due_at(self) -> float | None:
        return self._next_at

    def on_response(self, ping_seq: int, board_us: int, now: float) -> bool:
        if self._outstanding is None or self._outstanding[0] != ping_seq:
            return False
        sent = self._outstanding[1]
        self._outstanding = None
        rtt_us = round((now - sent) * 1e6)
        midpoint_us = round((sent + now) / 2 * 1e6)
        self.samples.append(TimeSample(rtt_us, board_us - midpoint_us))
        self.total += 1
        return True

    def best(self) -> TimeSample | None:
        return min(self.samples, key=lambda s: s.rtt_us, default=None)

    def diagnostics(self) -> dict[str, str]:
        best = self.best()
        return {
            "time_sync_samples": str(self.total),
            "time_sync_lost": str(self.lost),
            "time_sync_offset_ms": "none" if best is None else f"{best.offset_us / 1000:.3f}",
            "time_sync_rtt_ms": "none" if best is None else f"{best.rtt_us / 1000:.3f}",
        }
