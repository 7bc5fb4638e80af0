"""Server health: which layer the bridge runs in (spec 002 §10 RS-9, DESIGN §4.5).

Consecutive failed calls (after their retries) switch to layer 0 and announce
SERVER_OFFLINE; while offline, a probe is due every `probe_interval_s`; the first success
(a call or a probe) switches back to layer 1 and announces SERVER_ONLINE. Without a
server URL the bridge is in layer 0 for good and never announces anything.
"""

from __future__ import annotations

from dataclasses import dataclass

SERVER_ONLINE = 5   # buddy_msgs/SystemEvent kinds
SERVER_OFFLINE = 6
LAYER_RULES, LAYER_LLM = 0, 1


@dataclass(slots=True, frozen=True)
class HealthConfig:
    offline_after_failures: int = 2
    probe_interval_s: float = 15.0


class ServerHealth:
    def __init__(self, configured: bool, config: HealthConfig | None = None) -> None:
        self.config = config or HealthConfig()
        self.configured = configured
        # None = not known yet (no answer so far): calls are tried, nothing announced.
        self.online: bool | None = None if configured else False
        self.consecutive_failures = 0
        self._next_probe: float | None = 0.0 if configured else None

    @property
    def layer(self) -> int:
        return LAYER_LLM if self.configured and self.online is not False else LAYER_RULES

    def may_call(self) -> bool:
        return self.layer == LAYER_LLM

    def probe_due(self, now: float) -> bool:
        """A probe is due at start-up (to learn the state) and periodically while offline."""
        return (
            self.configured
            and self.online is not True
            and self._next_probe is not None
            and now >= self._next_probe
        )

    def next_probe_at(self) -> float | None:
        """When `probe_due` turns true (None: no probe is scheduled)."""
        if not self.configured or self.online is True:
            return None
        return self._next_probe

    def probe_started(self, now: float) -> None:
        self._next_probe = now + self.config.probe_interval_s

    def record_success(self, now: float) -> int | None:
        """Returns SERVER_ONLINE when this success changed the state."""
        del now
        self.consecutive_failures = 0
        was = self.online
        self.online = True
        self._next_probe = None
        return SERVER_ONLINE if was is not True else None

    def record_failure(self, now: float, probe: bool = False) -> int | None:
        """Returns SERVER_OFFLINE when this failure switched to layer 0."""
        if not self.configured:
            return None
        if probe:
            # A failed probe while not known online: offline is already the state (or
            # becomes it at start-up).
            self._next_probe = now + self.config.probe_interval_s
            if self.online is None:
                self.online = False
                return SERVER_OFFLINE
            return None
        self.consecutive_failures += 1
        if self.online is not False and (
            self.consecutive_failures >= self.config.offline_after_failures
        ):
            self.online = False
            self._next_probe = now + self.config.probe_interval_s
            return SERVER_OFFLINE
        return None
