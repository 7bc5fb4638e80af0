"""The personality's state files, owned by the node (DESIGN §5 Persistence, issues 14, 19).

Three files: the RS-2 usage counter (`guardrails.UsageCounter`), the memory store
(`memory.MemoryStore`) and the resume state (`resume.py`). The engine touches no file:
`PersonalityEngine.take_writes()` says what is due, the keeper writes it (the node does
so after publishing, so the event fast path never waits for an fsync). At start-up the
keeper loads the files and hands the engine their contents. A failed write is a warning
and a counter, never a crash: the state stays in memory and the next change writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from buddy_personality.personality.guardrails import UsageCounter
from buddy_personality.personality.memory import MemoryStore
from buddy_personality.personality.resume import ResumeState, load_resume, save_resume

if TYPE_CHECKING:
    from buddy_personality.personality.engine import PersonalityEngine


@dataclass(slots=True, frozen=True)
class Writes:
    """What the engine has due: each None / False is nothing to write."""

    usage_until: float | None     # the usage counter, counted until this time
    state: ResumeState | None     # the resume state
    memory: bool                  # the memory store


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

    def write(self, engine: PersonalityEngine) -> None:
        """Write what the engine has due (atomic JSON, one file after the other)."""
        due = engine.take_writes()
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

    def write_all(self, engine: PersonalityEngine) -> None:
        """Write everything now (shutdown): the RS-2 counter, the personality state and
        the memory store."""
        engine.all_due()
        self.write(engine)
