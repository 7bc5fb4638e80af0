"""The runtime governor: IDLE / RECOVERING / HALTED over four budgets (spec 001, DESIGN §4.2).

One `Governor` runs one episode at a time; an episode is one conversation session
(DESIGN §6.9) and HALTED is terminal within it. `new_episode` starts the next one.
Time is always an argument; this module never reads a clock.

Order of one step (spec 001 §4, then §5):

1. count non-progress steps (reward <= 0); stagnating = count >= stagnation_window;
2. appraise the signal and add the delta to the pressures (unbounded);
3. g = Wᵀs − Vᵀs; b_raw = ProfileScale(g) − Decay(dt);
4. b = alpha * b_prev + (1 - alpha) * b_raw, clipped to [0, 1];
5. while stagnating, effort x stagnation_effort_scale, persistence x
   stagnation_persistence_scale (applied to the clipped budget so it always shrinks it;
   scaling a negative raw g would instead raise the budget);
6. transitions 6-7 of §5 on that budget;
7. in RECOVERING: risk frozen at its previous value (§6 Recovery Safety), exploration
   may not rise (§1 "risk/exploration are locked"), and, after a rest of at least
   recovery_delay since the previous step, effort and persistence recover by
   recovery_rate * rest, never above recovery_cap nor above the last IDLE budget;
8. in IDLE the budget becomes the new "last stable budget";
9. halts 1-5 of §5 in priority order on the final budget; HALTED zeroes the budgets and
   freezes the pressures for the rest of the episode.

Decision on §5 row 7 ("RECOVERING -> IDLE when effort >= recovery_cap"): DESIGN's
recovery_cap is 1.0 and recovery never exceeds the last IDLE budget, which is below 1 after
any real step, so read literally RECOVERING would be absorbing. As in the EmoCore reference
implementation, the governor returns to IDLE once the dip condition of row 6 no longer
holds: effort and persistence are both >= stabilized_threshold (default 0.3), judged, like
row 6, on the budget before rest-based recovery is added.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from buddy_personality.governor.appraisal import appraise
from buddy_personality.governor.config import GovernorConfig
from buddy_personality.governor.kinetics import governance, raw_budgets, smooth
from buddy_personality.governor.records import (
    HALT_EXHAUSTION,
    HALT_EXTERNAL,
    HALT_OVERRISK,
    HALT_SAFETY,
    HALT_STAGNATION,
    HALTED,
    IDLE,
    RECOVERING,
    ZERO_BUDGETS,
    Budgets,
    GovernorSnapshot,
    Pressures,
)
from buddy_personality.governor.signals import InvalidSignal, Signal, classify_signal


@dataclass(slots=True, frozen=True)
class ResetOutcome:
    """Answer to a request for a new episode (buddy_msgs/srv/ResetGovernor)."""

    success: bool
    message: str
    episode_id: int


def halt_reason_for(budgets: Budgets, stagnating: bool, step: int,
                    cfg: GovernorConfig) -> str:
    """The first halt of spec 001 §5 rows 1-5 that applies, or '' when none does."""
    if budgets.exploration >= cfg.max_exploration:
        return HALT_SAFETY
    if budgets.risk >= cfg.max_risk:
        return HALT_OVERRISK
    if budgets.effort <= cfg.exhaustion_threshold:
        return HALT_EXHAUSTION
    if stagnating and budgets.effort <= cfg.stagnation_effort_floor:
        return HALT_STAGNATION
    if step >= cfg.max_steps:
        return HALT_EXTERNAL
    return ""


class Governor:
    """Spec 001's runtime state machine. Not thread-safe; the node serialises calls."""

    def __init__(self, config: GovernorConfig | None = None, now: float | None = 0.0,
                 episode_id: int = 0, session_id: str = "") -> None:
        """`now` is the episode's start time: the first step's rest and time decay count
        from it. None means "unknown" (e.g. a node whose sim clock has not started): the
        first step then has no rest and no time decay."""
        self._config = config if config is not None else GovernorConfig()
        self._episode_id = episode_id
        self._start(now, session_id)

    # -- episode lifecycle -------------------------------------------------------------

    def _start(self, now: float | None, session_id: str) -> None:
        if now is not None and not math.isfinite(now):
            raise ValueError(f"now must be finite, got {now!r}")
        cfg = self._config
        self._session_id = session_id
        self._state = IDLE
        self._halt_reason = ""
        self._pressures = Pressures()
        self._budgets = Budgets(cfg.initial_effort, cfg.initial_risk,
                                cfg.initial_exploration, cfg.initial_persistence)
        self._stable = self._budgets
        self._locked_exploration: float | None = None
        self._step = 0
        self._non_progress = 0
        self._last_time: float | None = now

    def new_episode(self, now: float | None, session_id: str = "",
                    session_ended: bool = False) -> ResetOutcome:
        """Start the next episode, with the next episode_id.

        Refused while the current episode is still live (not HALTED) unless the session
        it belongs to has ended: HALTED is terminal per episode (DESIGN §6.9), and a
        live episode must not be wiped to escape its own limits.
        """
        if self._state != HALTED and not session_ended:
            return ResetOutcome(
                False,
                f"episode {self._episode_id} is {self.snapshot().state_name}, not HALTED, "
                "and the session has not ended",
                self._episode_id,
            )
        if now is not None and not math.isfinite(now):
            return ResetOutcome(False, f"now must be finite, got {now!r}", self._episode_id)
        self._episode_id += 1
        self._start(now, session_id)
        return ResetOutcome(True, f"episode {self._episode_id} started", self._episode_id)

    # -- read access -------------------------------------------------------------------

    @property
    def config(self) -> GovernorConfig:
        return self._config

    @property
    def state(self) -> int:
        return self._state

    @property
    def halted(self) -> bool:
        return self._state == HALTED

    def snapshot(self) -> GovernorSnapshot:
        b, p = self._budgets, self._pressures
        return GovernorSnapshot(
            state=self._state,
            halt_reason=self._halt_reason,
            effort=b.effort,
            persistence=b.persistence,
            risk=b.risk,
            exploration=b.exploration,
            confidence=p.confidence,
            frustration=p.frustration,
            curiosity=p.curiosity,
            arousal=p.arousal,
            risk_pressure=p.risk,
            step=self._step,
            episode_id=self._episode_id,
            session_id=self._session_id,
            non_progress_steps=self._non_progress,
            stagnating=self._non_progress >= self._config.stagnation_window,
            locked_exploration=self._locked_exploration,
        )

    # -- the step ----------------------------------------------------------------------

    def step(self, signal: Signal, now: float, session_id: str = "") -> GovernorSnapshot:
        """Integrate one signal at time `now` (seconds) and return the new state.

        Raises InvalidSignal (nothing changes) for NaN, infinite or out-of-range input,
        and for a signal of another session than this episode's: one episode governs one
        session (DESIGN §4.2), so a new session must go through `new_episode`, never
        around a HALTED episode. An episode started without a session id adopts the first
        one it sees. In HALTED nothing changes at all (spec 001 §6 Terminality, Freezing).
        """
        problem = classify_signal(signal)
        if problem is not None:
            raise InvalidSignal(problem.reason, problem.cause)
        if not math.isfinite(now):
            raise InvalidSignal(f"now must be finite, got {now!r}", "bad_time")
        if session_id and self._session_id and session_id != self._session_id:
            raise InvalidSignal(
                f"signal of session {session_id!r} while episode {self._episode_id} governs "
                f"session {self._session_id!r}", "session_mismatch")
        if self._state == HALTED:
            return self.snapshot()
        if session_id and not self._session_id:
            self._session_id = session_id

        cfg = self._config
        # A clock that steps backwards gives no rest and no decay, rather than negative ones.
        last = self._last_time
        dt = 0.0 if last is None else max(0.0, now - last)
        self._last_time = now if last is None else max(last, now)
        self._step += 1

        # 1. Stagnation detection (spec 001 §5 row 4): consecutive steps without progress.
        self._non_progress = self._non_progress + 1 if signal.reward <= 0.0 else 0
        stagnating = self._non_progress >= cfg.stagnation_window

        # 2. Appraisal and unbounded accumulation (spec 001 §4.1).
        self._pressures = self._pressures.plus(appraise(signal, cfg.appraisal))

        # 3-4. Governance, profile scaling, decay, inertia, clipping (spec 001 §4.2-§4.3).
        g = governance(self._pressures, cfg.w, cfg.v)
        previous = self._budgets
        b = smooth(previous, raw_budgets(g, dt, cfg), cfg.inertia)

        # 5. Stagnation response (DESIGN §4.2).
        if stagnating:
            b = Budgets(b.effort * cfg.stagnation_effort_scale, b.risk, b.exploration,
                        b.persistence * cfg.stagnation_persistence_scale)

        # 6. Resource dip and stabilisation (spec 001 §5 rows 6-7).
        if self._state == IDLE and (b.effort < cfg.recovering_threshold
                                    or b.persistence < cfg.recovering_threshold):
            self._state = RECOVERING
            self._locked_exploration = previous.exploration
        elif self._state == RECOVERING and (b.effort >= cfg.stabilized_threshold
                                            and b.persistence >= cfg.stabilized_threshold):
            self._state = IDLE
            self._locked_exploration = None

        # 7. Recovery (spec 001 §1 and §6 Recovery Safety, DESIGN §4.2).
        if self._state == RECOVERING:
            effort, persistence = b.effort, b.persistence
            if dt >= cfg.recovery_delay:
                gain = cfg.recovery_rate * dt
                # Recovery only adds: it never lowers a budget that is already higher.
                effort = max(effort, min(self._stable.effort, cfg.recovery_cap, effort + gain))
                persistence = max(persistence, min(self._stable.persistence, cfg.recovery_cap,
                                                   persistence + gain))
            b = Budgets(effort, previous.risk, min(b.exploration, previous.exploration),
                        persistence)
        else:
            # 8. The last stable budget bounds any later recovery.
            self._stable = b
        self._budgets = b

        # 9. Halts, in priority order (spec 001 §5 rows 1-5).
        reason = halt_reason_for(b, stagnating, self._step, cfg)
        if reason:
            self._state = HALTED
            self._halt_reason = reason
            self._budgets = ZERO_BUDGETS
            self._locked_exploration = None
        return self.snapshot()
