"""What a restarted personality node picks up from its own state (issue 19; DESIGN §5
Persistence): affect, the idle period, and the running session or how it ended.

Without it a restart started from scratch: neutral mood, AWAKE, no session, so a crash
loop reset moods, woke a sleeping Buddy, and dropped the RS-1 clock of a running session.
The engine writes this file with its RS-2 counter (every few seconds of talk, at session
start and end, on shutdown) and reads it at start-up. Affect then decays over the
downtime as it would have (the file keeps the time it was written); a session comes
back only if the file is fresh (`SESSION_RESUME_MAX_S`): older, it counts as ended by
the restart. The downtime of a resumed session counts as talk (the bridge ran it on);
otherwise downtime is never talk.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from buddy_personality.personality.inputs import bump
from buddy_personality.state_files import StateFile, finite

if TYPE_CHECKING:
    from buddy_personality.personality.engine_base import EngineBase

SESSION_RESUME_MAX_S = 60.0   # a session saved longer ago than this is not resumed
AFFECT_RESUME_MAX_S = 6 * 3600.0  # after this, affect is back at baseline anyway
END_RESTARTED = "personality_restarted"

_Finite = Annotated[float, AfterValidator(finite)]
_Unit = Annotated[_Finite, Field(ge=-1.0, le=1.0)]


class ResumeState(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")
    version: Literal[1] = 1
    saved_at: _Finite
    valence: _Unit
    arousal: _Unit
    tonic_valence: _Unit
    tonic_arousal: _Unit
    idle_since: _Finite
    conversation_active: bool
    session_id: str = Field(max_length=128)
    session_s: Annotated[_Finite, Field(ge=0.0)]
    rs1_sent: bool = False
    last_end_reason: str = Field(default="", max_length=64)


def _state_file(path: Path) -> StateFile[ResumeState]:
    return StateFile(path, "personality state file", ResumeState.model_validate)


def load_resume(path: Path, now: float, warnings: list[str]) -> ResumeState | None:
    """The saved state if present, valid and not from the future; None otherwise. A bad
    file is quarantined and the previous generation used, like every state file."""
    state_file = _state_file(path)
    state = state_file.load().value
    warnings.extend(state_file.warnings)
    if state is None:
        return None
    if state.saved_at > now + 1.0 or now - state.saved_at > AFFECT_RESUME_MAX_S:
        return None  # a clock jump, or too old to matter
    return state


def save_resume(path: Path, state: ResumeState) -> None:
    _state_file(path).save(state.model_dump())


def resume_state(engine: EngineBase) -> ResumeState:
    """What a restart picks up of this engine now (written by the state keeper)."""
    a = engine.affect
    s = engine.session
    return ResumeState(
        saved_at=engine._last_t, valence=a.valence, arousal=a.arousal,
        tonic_valence=a.tonic_valence, tonic_arousal=a.tonic_arousal,
        idle_since=engine.sleep.rules.state.idle_since,
        conversation_active=s.active, session_id=s.session_id[:128],
        session_s=engine.usage.session_s, rs1_sent=s.rs1_sent,
        last_end_reason=s.last_end_reason[:64])


def restore(engine: EngineBase, state: ResumeState, now: float) -> str:
    """Build the freshly made engine's start state from the saved one: affect decays over
    the downtime, a fresh session comes back with its talk, an old one ends by the
    restart. Returns what was resumed, for the node's log."""
    a = engine.affect
    s = engine.session
    usage = engine.usage
    a.place(state.valence, state.arousal)
    a.tonic_valence, a.tonic_arousal = state.tonic_valence, state.tonic_arousal
    engine._last_t = engine._last_tick_t = min(state.saved_at, now)
    engine.sleep.rules.state.idle_since = min(state.idle_since, now)
    s.last_end_reason = state.last_end_reason
    engine._advance(now)  # decay over the downtime, which is never talk
    if state.conversation_active and now - state.saved_at <= SESSION_RESUME_MAX_S:
        s.active = True
        s.session_id = state.session_id
        usage.session_s = state.session_s
        s.rs1_sent = state.rs1_sent
        # The session went on while this process was down (the bridge runs it): the
        # gap counts as talk, so RS-1 / RS-2 err on the child's side, never lose time.
        # Counted from where the RS-2 counter on disk stops (its own time), so a kill
        # between the usage and state writes neither loses nor doubles talk.
        counted_until = usage.counted_until
        since = state.saved_at if counted_until is None else counted_until
        gap = max(0.0, now - min(since, now))
        usage.add_conversation_time(gap)
        usage.save_due = True
        resumed = (f"session {state.session_id} resumed at "
                   f"{usage.session_s:.0f} s of talk ({gap:.0f} s down)")
    else:
        if state.conversation_active:
            s.last_end_reason = END_RESTARTED
            s.ended_at = state.saved_at
        resumed = "affect and idle state resumed"
    engine.sleep.state_until = now
    engine._update_idle_state(now)
    bump(engine.stats.resumed, "session" if s.active else "affect")
    return resumed
