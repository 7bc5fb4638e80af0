"""What the governor's budgets mean to the LLM bridge (DESIGN §4.2).

One pure function, so the governor and the bridge agree on a single meaning:

- HALTED: no more LLM calls this session (the bridge closes kindly).
- exploration -> sampling temperature (more licence to explore = warmer sampling).
- effort -> response length budget in tokens.
- persistence -> how many times a failed request is retried.
- RECOVERING -> risk and exploration are locked: the temperature may not rise above
  what it was when recovery began (spec 001 §1: no "desperation tactics").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# GovernorState.state values (buddy_msgs/GovernorState), repeated here so the core
# imports no ROS.
STATE_IDLE = 0
STATE_RECOVERING = 1
STATE_HALTED = 2

TEMPERATURE_MIN = 0.3   # calm, predictable speech at zero exploration
TEMPERATURE_MAX = 0.9   # livelier sampling at full exploration
MAX_TOKENS_MIN = 96     # enough for a short, whole JSON answer
MAX_TOKENS_MAX = 512    # spec 002 §12.2 max_tokens
MAX_RETRIES = 3         # at full persistence


@dataclass(slots=True, frozen=True)
class CallPolicy:
    """How the LLM bridge may call the server for the next turn."""

    may_call: bool
    temperature: float
    max_tokens: int
    max_retries: int
    risk_exploration_locked: bool


def _clamp01(x: float) -> float:
    if not math.isfinite(x):
        return 0.0
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def call_policy(
    state: int,
    effort: float,
    persistence: float,
    risk: float,
    exploration: float,
    locked_exploration: float | None = None,
) -> CallPolicy:
    """Turn a governor state into the bridge's call policy.

    `locked_exploration` is the exploration budget when RECOVERING began; while
    RECOVERING the temperature uses min(exploration, locked_exploration).
    `risk` is accepted for completeness; no call parameter depends on it today.
    An unknown state value is treated like HALTED: ambiguity resolves to the safe side
    (DESIGN §1.4).
    """
    del risk
    if state not in (STATE_IDLE, STATE_RECOVERING):
        return CallPolicy(False, TEMPERATURE_MIN, 0, 0, True)
    locked = state == STATE_RECOVERING
    e = _clamp01(exploration)
    if locked and locked_exploration is not None:
        e = min(e, _clamp01(locked_exploration))
    eff = _clamp01(effort)
    if eff <= 0.0:
        # Spec 001 §6 Agency: no action when effort is zero.
        return CallPolicy(False, TEMPERATURE_MIN, 0, 0, locked)
    temperature = round(TEMPERATURE_MIN + (TEMPERATURE_MAX - TEMPERATURE_MIN) * e, 3)
    max_tokens = MAX_TOKENS_MIN + round((MAX_TOKENS_MAX - MAX_TOKENS_MIN) * eff)
    max_retries = round(MAX_RETRIES * _clamp01(persistence))
    return CallPolicy(True, temperature, max_tokens, max_retries, locked)
