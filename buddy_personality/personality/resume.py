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
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from buddy_personality.state_files import StateFile, finite

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
