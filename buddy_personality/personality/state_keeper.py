"""The personality's state files, owned by the node (DESIGN §5 Persistence, issues 14, 19).

Three files: the RS-2 usage counter (`guardrails.UsageCounter`), the memory store
(`memory.MemoryStore`) and the resume state (`resume.py`). The engine touches no file and
decides no write: it computes state and tells its `WriteSchedule` (below) what changed
(the memory store, a tick); the schedule decides what is due and the keeper writes it
(the node does so after publishing, so the event fast path never waits for an fsync). At
start-up the keeper loads the files and hands the engine their contents (the resume
state is applied by `resume.restore`). A failed write is a warning and a counter, never
a crash: the state stays in memory and the next change writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from buddy_personality.personality.guardrails import UsageCounter
from buddy_personality.personality.memory import MemoryStore
from buddy_personality.personality.resume import (
    ResumeState,
    load_resume,
    resume_state,
    save_resume,
)

if TYPE_CHECKING:
    from buddy_personality.personality.engine_base import EngineBase

RESUME_SAVE_IDLE_S = 30.0  # outside a session, affect and idle state are saved this often


@dataclass(slots=True, frozen=True)
class Writes:
    """What the engine has due: each None / False is nothing to write."""

    usage_until: float | None     # the usage counter, counted until this time
    state: ResumeState | None     # the resume state
    memory: bool                  # the memory store


@dataclass(slots=True)
class WriteSchedule:
    """Which writes are due (issue 19, DESIGN §5 Persistence): the RS-2 counter when the
    usage counter says so, the resume state with it and, if the keeper has a resume file,
    every `RESUME_SAVE_IDLE_S` of ticks; the memory store after it changed."""

    keeps_state: bool             # the keeper has a resume file
    resume_saved_at: float        # when the resume state was last taken
    memory_due: bool = False
    resume_due: bool = False

    def memory_changed(self) -> None:
        self.memory_due = True

    def ticked(self, now: float) -> None:
        """A 1 Hz tick at `now`: the resume state falls due every so often."""
        if self.keeps_state and now - self.resume_saved_at >= RESUME_SAVE_IDLE_S:
            self.resume_due = True
            self.resume_saved_at = now

    def pending(self, engine: EngineBase) -> bool:
        return self.memory_due or engine.usage.save_due or self.resume_due

    def take(self, engine: EngineBase) -> Writes:
        """What the state keeper should write now (and no longer due): the usage counter,
        the resume state that goes with it, the memory store."""
        usage_until = None
        if engine.usage.save_due:
            self.resume_due = True  # the session state goes with the RS-2 counter
            usage_until = engine._last_t
        state = None
        if self.resume_due:
            self.resume_due = False
            self.resume_saved_at = engine._last_t
            state = resume_state(engine)
        memory = self.memory_due
        self.memory_due = False
        return Writes(usage_until, state, memory)

    def all_due(self, engine: EngineBase) -> None:
        """Everything is due (shutdown): the RS-2 counter, the state, the memory store."""
        engine.usage.save_due = True
        if engine.memory_writable:
            self.memory_due = True


class StateKeeper:
    """Loads the state files at start-up and writes what the engine has due."""

    __slots__ = ("memory", "resume", "state_path", "usage", "warnings")

    def __init__(self, now: float, utc_offset_s: float = 0.0,
                 usage_path: Path | str | None = None,
                 memory_path: Path | str | None = None,
                 state_path: Path | str | None = None) -> None:
        self.usage = UsageCounter(Path(usage_path) if usage_path else None, utc_offset_s, now)
        self.memory = MemoryStore(Path(memory_path) if memory_path else None, now)
        self.warnings: list[str] = [*self.usage.warnings, *self.memory.warnings]
        self.state_path = Path(state_path) if state_path else None
        self.resume: ResumeState | None = (
            load_resume(self.state_path, now, self.warnings) if self.state_path else None)

    def write(self, engine: EngineBase) -> None:
        """Write what the engine's schedule has due (atomic JSON, one file after the
        other)."""
        due = engine.writes.take(engine)
        if due.usage_until is not None:
            try:
                self.usage.save(counted_until=due.usage_until)
            except OSError as exc:
                engine.write_failed("usage", exc)
        if due.state is not None and self.state_path is not None:
            try:
                save_resume(self.state_path, due.state)
            except (OSError, ValueError) as exc:
                engine.write_failed("personality state", OSError(str(exc)))
        if due.memory:
            try:
                self.memory.save()
            except OSError as exc:
                engine.write_failed("memory", exc)

    def write_all(self, engine: EngineBase) -> None:
        """Write everything now (shutdown): the RS-2 counter, the personality state and
        the memory store."""
        engine.writes.all_due(engine)
        self.write(engine)
