"""Conversation session ids (spec 002 §9.3 RS-1/RS-2; issue 31 item 2).

The personality counts a session's talk under its id and refuses a STARTED for an id
that has already ended (a re-delivered or out-of-order event). An id must therefore never
come again: not from a second bridge process, not after a reboot. Ids drawn from the
bridge's seeded behaviour RNG did come again (every bridge process started with the same
first id, so a restarted bridge's first session ran uncounted).

- `unique_session_ids()`: the product's ids, 96 random bits from the operating system
  (`os.urandom`, via `secrets`), never from a seeded RNG: unique across processes and
  boots with a probability of collision that is negligible for a robot's lifetime.
- `seeded_session_ids(rng)`: the deterministic ids of a replay or a simulated run (one
  process, sim time), drawn from the given RNG exactly as before, so a golden bag
  replays its recorded ids.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable

SessionIds = Callable[[], str]
UNIQUE_ID_BYTES = 12  # 96 bits, printed as 24 hex digits


def unique_session_ids() -> SessionIds:
    """Ids unique across processes and boots (operating-system randomness)."""
    return lambda: secrets.token_hex(UNIQUE_ID_BYTES)


def session_id_rng(seed: int) -> random.Random:
    """The RNG of a seeded run's session ids: its own, not the behaviour RNG of `seed`, so
    drawing an id never moves the reply variants (issue 30 item 4: a live bridge takes
    its ids from the operating system, a replay from here; both must pick the same
    variants)."""
    return random.Random(f"buddy session ids {seed}")


def seeded_session_ids(rng: random.Random) -> SessionIds:
    """Deterministic ids from `rng` (tests, replay, the simulated day)."""
    return lambda: f"{rng.getrandbits(48):012x}"
