"""Sessions and their time limits: RS-1 and RS-2 (spec 002 §9.3, DESIGN §4.1).

Which conversation session runs, when it started and ended, and the session (RS-1) and
daily (RS-2) conversation time counted against the limits in force. Crossing a limit, a
session refused on a used-up day and the daily reset are guardrail events, handed to the
engine's `emit`. No clock, no file: the counter's file belongs to the state keeper.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable

from buddy_personality.personality.guardrails import (
    GuardrailConfig,
    UsageCounter,
    local_day,
    lower_limits_check,
)
from buddy_personality.personality.inputs import InputRejected, finite

# A session whose LLM bridge is gone from the graph ends after this long (issue 19): the
# time is not talk, and the face must not stay in conversation for a session nobody runs.
BRIDGE_LOST_GRACE_S = 3.0
END_BRIDGE_LOST = "bridge_lost"  # buddy_msgs/ConversationEvent END_BRIDGE_LOST
ENDED_REMEMBERED = 32  # ended session ids kept to refuse a late STARTED (issue 14)

Emit = Callable[[float, str, str, str], None]  # (now, rule_id, action, details)


class SessionLimits:
    """The running session and the RS-1 / RS-2 counters and limits."""

    __slots__ = ("_emit", "_ended", "active", "bridge_absent_since", "ended_at",
                 "guardrails", "last_end_reason", "next_midnight", "rs1_sent", "rs2_sent",
                 "session_id", "turn_id", "usage")

    def __init__(self, usage: UsageCounter, guardrails: GuardrailConfig, now: float,
                 emit: Emit) -> None:
        self.usage = usage
        self.guardrails = guardrails
        self._emit = emit
        self.active = False
        self.session_id = ""
        self.turn_id = 0
        # Sessions that ended (issue 14): a STARTED that arrives after its own ENDED
        # (out of order) would otherwise open a session nobody runs.
        self._ended: deque[str] = deque(maxlen=ENDED_REMEMBERED)
        self.ended_at = -math.inf
        self.last_end_reason = ""
        self.rs1_sent = False
        self.rs2_sent = False
        self.bridge_absent_since: float | None = None
        self.next_midnight = self.midnight_after(now)

    # --- limits in force ----------------------------------------------------------------
    @property
    def session_limit_s(self) -> float:
        """RS-1 limit in force: the configured one, or lower if a parent lowered it today."""
        lowered = self.usage.lowered_session_s
        configured = self.guardrails.session_time_limit_s
        return configured if lowered is None else min(configured, lowered)

    @property
    def daily_limit_s(self) -> float:
        """RS-2 limit in force: the configured one, or lower if a parent lowered it today."""
        lowered = self.usage.lowered_daily_s
        configured = self.guardrails.daily_time_limit_s
        return configured if lowered is None else min(configured, lowered)

    def midnight_after(self, now: float) -> float:
        off = self.usage.utc_offset_s
        return (local_day(now, off) + 1) * 86400.0 - off

    def set_utc_offset(self, utc_offset_s: float, now: float) -> None:
        self.usage.utc_offset_s = finite("utc_offset_s", utc_offset_s, -14 * 3600, 14 * 3600)
        self.next_midnight = self.midnight_after(now)

    # --- time -----------------------------------------------------------------------------
    def advance(self, now: float, dt: float) -> None:
        """`dt` seconds up to `now`: the local day may roll (RS-2 reset), talk is counted."""
        if now >= self.next_midnight:
            if self.usage.roll_day(now):
                if self.rs2_sent:
                    # RS-2: a new local day lifts the daily lockout; the LLM bridge waits
                    # for this event to accept sessions again.
                    self._emit(now, "RS-2", "daily_reset",
                               "new local day: daily conversation time reset")
                self.rs2_sent = False
            self.next_midnight = self.midnight_after(now)
        if self.active:
            self.usage.add_conversation_time(dt)
            self.check(now)

    def check(self, now: float) -> None:
        """RS-1 / RS-2 (spec 002 §9.3): a session past a limit in force ends."""
        usage = self.usage
        session_limit = self.session_limit_s
        daily_limit = self.daily_limit_s
        if not self.rs1_sent and usage.session_s >= session_limit:
            self.rs1_sent = True
            self._emit(now, "RS-1", "end_session",
                       f"session {self.session_id} reached {usage.session_s:.0f} s "
                       f"(limit {session_limit:.0f} s)")
        if not self.rs2_sent and usage.daily_s >= daily_limit:
            self.rs2_sent = True
            self._emit(now, "RS-2", "end_session",
                       f"daily conversation time {usage.daily_s:.0f} s "
                       f"(limit {daily_limit:.0f} s)")

    # --- session start and end ------------------------------------------------------------
    def start_refusal(self, session_id: str) -> InputRejected | None:
        """Why a STARTED for `session_id` starts nothing, or None. An id that has ended is
        out of order (ids never repeat, issue 31 item 2); a duplicate of the running
        session is counted already."""
        if session_id in self._ended:
            return InputRejected(
                "stale_start", f"conversation STARTED for {session_id[:40]!r}, which already "
                "ended (out of order)")
        if self.active and session_id == self.session_id:
            return InputRejected(
                "duplicate_start", f"conversation STARTED (a duplicate: "
                f"{session_id[:40]!r}) while it runs")
        return None

    def start(self, now: float, session_id: str) -> None:
        """A new session: RS-1's clock starts; refused at once if the day is used up."""
        self.active = True
        self.session_id = session_id
        self.turn_id = 0
        self.usage.session_s = 0.0
        self.rs1_sent = False
        self.usage.save_due = True  # issue 19: the session is in the state file at once
        self.refuse_if_day_used(now)

    def take_over(self, now: float, session_id: str) -> str:
        """A STARTED for another session while one runs: the bridge restarted (or its
        ENDED was lost) and Buddy talks in the new session. Spec 002 §9.3 counts talk, so
        the new session is counted, never refused into uncounted talk (issue 31 item 2):
        it takes over the running session's clock. RS-1's clock is not restarted (a second
        STARTED must not let a sitting run past its limit) and RS-1 is sent again if the
        sitting is already past it, since the new session has not had it; RS-2's daily
        counter runs on and refuses the session if the day is used up. Returns a warning."""
        old = self.session_id
        if old not in self._ended:
            self._ended.append(old)
        self.session_id = session_id
        self.turn_id = 0
        self.rs1_sent = False
        self.bridge_absent_since = None
        self.usage.save_due = True
        self.refuse_if_day_used(now)
        return (f"session {session_id[:40]!r} took over running session {old[:40]!r} "
                "(its end never came)")

    def refuse_if_day_used(self, now: float) -> None:
        if self.usage.daily_s >= self.daily_limit_s:
            self.rs2_sent = True
            self._emit(now, "RS-2", "refuse_session",
                       f"daily conversation time {self.usage.daily_s:.0f} s already "
                       f"at the limit ({self.daily_limit_s:.0f} s)")

    def stale_end_reason(self, session_id: str) -> str | None:
        """Why a conversation ENDED for `session_id` ends nothing (a duplicate, or the end
        of a session that is not the running one), or None."""
        if session_id and (not self.active or session_id != self.session_id):
            what = "a duplicate" if session_id in self._ended else "not running"
            return f"conversation ENDED for {session_id[:40]!r} ({what})"
        return None

    def end(self, now: float, session_id: str, reason: str) -> bool:
        """An ENDED event; True when it ended the running session."""
        if session_id and session_id not in self._ended:
            self._ended.append(session_id)
        if not self.active or (session_id and session_id != self.session_id):
            return False
        self.active = False
        self.ended_at = now
        self.bridge_absent_since = None
        self.last_end_reason = reason[:64] or "ended"
        self.usage.save_due = True
        return True

    def bridge_lost(self, now: float, present: bool) -> bool:
        """The node says whether an LLM bridge is on the graph; True once a session has
        had none for BRIDGE_LOST_GRACE_S (it then ends with reason bridge_lost)."""
        if present or not self.active:
            self.bridge_absent_since = None
            return False
        if self.bridge_absent_since is None:
            self.bridge_absent_since = now
            return False
        return now - self.bridge_absent_since >= BRIDGE_LOST_GRACE_S

    def awaits(self, session_id: str) -> bool:
        """`session_id` has neither run here nor ended: its STARTED is still to come (an
        intent of it came first, early_intents.py)."""
        running = self.active and session_id == self.session_id
        return bool(session_id) and not running and session_id not in self._ended

    def note_turn(self, session_id: str, turn_id: int) -> None:
        if self.active and session_id == self.session_id:
            self.turn_id = max(self.turn_id, turn_id)

    # --- a parent's lower limits ----------------------------------------------------------
    def lower(self, now: float, session_limit_s: float | None,
              daily_limit_s: float | None) -> str | None:
        """Lower today's limits (issue 16); the refusal, or None when lowered."""
        refusal = lower_limits_check(self.session_limit_s, self.daily_limit_s,
                                     session_limit_s, daily_limit_s)
        if refusal is None:
            usage = self.usage
            if session_limit_s is not None:
                usage.lowered_session_s = float(session_limit_s)
            if daily_limit_s is not None:
                usage.lowered_daily_s = float(daily_limit_s)
            usage.save_due = True
            if self.active:
                self.check(now)
        return refusal
