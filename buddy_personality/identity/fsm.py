"""A small table-driven state machine, shared by every FSM of spec 004.

Spec 004 ("No implicit transitions", Summary) wants every state change to be one that the
document lists. So each machine is a table of `Transition` rows that a reader can check
against the spec line by line; a guard is a named function of a context record; and an
event that no row (or no passing guard) allows is refused and reported in a
`TransitionResult`, never taken. Timeouts are deadlines checked by `tick(now)`: no threads,
no clock reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Generic, TypeVar

S = TypeVar("S", bound=IntEnum)

Guard = Callable[[Any], bool]


@dataclass(slots=True, frozen=True)
class Transition(Generic[S]):
    """One row of a spec 004 transition table: `source --event [guard]--> target`."""

    source: S
    event: str
    target: S
    guard: Guard | None = None
    note: str = ""  # where the row comes from when it is not a literal spec line

    def describe(self) -> str:
        g = f" [{self.guard.__name__}]" if self.guard is not None else ""
        return f"{self.source.name} --{self.event}{g}--> {self.target.name}"


@dataclass(slots=True, frozen=True)
class MachineSpec(Generic[S]):
    """The data of one FSM: its states, events, rows and declared timeouts.

    `timeouts` maps a state to the event that `tick` fires after the state's duration;
    the durations themselves are parameters given to each `Machine`.
    `refusal_notes` give the spec's reason for a (state, event) pair that is deliberately
    absent, e.g. the identity downgrade guard.
    """

    name: str
    states: type[S]
    initial: S
    events: frozenset[str]
    transitions: tuple[Transition[S], ...]
    timeouts: Mapping[S, str] = field(default_factory=dict)
    refusal_notes: Mapping[tuple[S, str], str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for t in self.transitions:
            if t.event not in self.events:
                raise ValueError(f"{self.name}: row {t.describe()} uses an undeclared event")
            if not isinstance(t.source, self.states) or not isinstance(t.target, self.states):
                raise ValueError(f"{self.name}: row {t.describe()} uses a foreign state")
        for state, event in self.timeouts.items():
            if not any(t.source == state and t.event == event for t in self.transitions):
                raise ValueError(f"{self.name}: timeout {event} in {state.name} has no row")

    def rows(self, state: S, event: str) -> list[Transition[S]]:
        return [t for t in self.transitions if t.source == state and t.event == event]

    def listed_pairs(self) -> set[tuple[S, str]]:
        return {(t.source, t.event) for t in self.transitions}


@dataclass(slots=True, frozen=True)
class TransitionResult:
    """What happened to one event: taken (accepted) or refused, with the reason."""

    machine: str
    key: str
    event: str
    source: str
    target: str | None
    accepted: bool
    reason: str = ""

    @property
    def changed(self) -> bool:
        return self.accepted and self.target != self.source


class Machine(Generic[S]):
    """One running instance of a `MachineSpec` (e.g. the consent FSM of one user+scope)."""

    __slots__ = ("_deadline", "_durations", "entered_at", "key", "spec", "state")

    def __init__(
        self,
        spec: MachineSpec[S],
        durations: Mapping[S, float] | None = None,
        key: str = "",
        now: float = 0.0,
    ) -> None:
        self.spec = spec
        self.key = key
        self.state: S = spec.initial
        self.entered_at = now
        self._durations: dict[S, float] = {}
        for state, seconds in (durations or {}).items():
            self.set_duration(state, seconds)
        self._deadline: float | None = None
        self._arm(now)

    # -- timeouts -----------------------------------------------------------------

    def set_duration(self, state: S, seconds: float) -> None:
        """Set how long `state` may last before its timeout event fires."""
        if state not in self.spec.timeouts:
            raise ValueError(f"{self.spec.name}: {state.name} declares no timeout")
        if not math.isfinite(seconds) or seconds <= 0.0:
            raise ValueError(f"{self.spec.name}: duration for {state.name} must be > 0")
        self._durations[state] = float(seconds)

    def _arm(self, now: float) -> None:
        seconds = self._durations.get(self.state)
        self._deadline = now + seconds if seconds is not None else None

    def restart_timer(self, now: float) -> None:
        """Restart the current state's timeout (e.g. a speaking turn restarts silence)."""
        self._arm(now)

    @property
    def deadline(self) -> float | None:
        return self._deadline

    def tick(self, now: float, ctx: Any = None) -> TransitionResult | None:
        """Fire the current state's timeout event if its deadline has passed."""
        if self._deadline is None or now < self._deadline:
            return None
        return self.fire(self.spec.timeouts[self.state], now, ctx)

    # -- events -------------------------------------------------------------------

    def _result(
        self, event: str, target: S | None, accepted: bool, reason: str
    ) -> TransitionResult:
        return TransitionResult(
            machine=self.spec.name,
            key=self.key,
            event=event,
            source=self.state.name,
            target=target.name if target is not None else None,
            accepted=accepted,
            reason=reason,
        )

    def select(self, event: str, ctx: Any = None) -> tuple[Transition[S] | None, str]:
        """The row `event` would take now, or None and the reason it is refused."""
        if event not in self.spec.events:
            return None, f"unknown event {event!r} for {self.spec.name}"
        rows = self.spec.rows(self.state, event)
        if not rows:
            note = self.spec.refusal_notes.get((self.state, event))
            reason = f"{self.spec.name}: no transition for {event} in {self.state.name}"
            return None, f"{reason} ({note})" if note else reason
        failed: list[str] = []
        for row in rows:
            if row.guard is None or row.guard(ctx):
                return row, ""
            failed.append(row.guard.__name__)
        return None, f"{self.spec.name}: {event} in {self.state.name}: guard failed: " + ", ".join(
            failed
        )

    def fire(self, event: str, now: float, ctx: Any = None) -> TransitionResult:
        """Take the listed transition for `event`, or refuse it with a reason."""
        row, reason = self.select(event, ctx)
        if row is None:
            return self._result(event, None, False, reason)
        result = self._result(event, row.target, True, row.note)
        if row.target != self.state:
            self.entered_at = now
        self.state = row.target
        self._arm(now)
        return result


def refused(machine: str, key: str, event: str, source: str, reason: str) -> TransitionResult:
    """A refusal decided before any machine was consulted (bad input, HC-2, ...)."""
    return TransitionResult(machine, key, event, source, None, False, reason)


def states_named(names: Iterable[S]) -> str:
    return ", ".join(s.name for s in names)
