"""The llm_bridge node's diagnostics (`/diagnostics` at 1 Hz, DESIGN §1.5): every counter of
the core and the node, and the one status line a parent or a developer reads first:
layer 0 while a server is configured, workers all busy, turns timing out, calls failing,
the guard model missing or not answering (issue 27).

A mixin of `LlmBridgeNode`: the fields it reads are listed below; the node sets them.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

from buddy_personality.cognition.bridge import BridgeCore
from buddy_personality.cognition.client import LlmClient
from buddy_personality.cognition.guard import GuardClient
from buddy_personality.cognition.say_mood import SayMoodSync
from buddy_personality.cognition.server_words import offline_line, server_reason
from buddy_personality.cognition.signal_order import SignalOrder
from buddy_personality.cognition.speaker import HouseholdFile
from buddy_personality.nodes.common.diagnostics import ERROR, OK, WARN, Health
from buddy_personality.nodes.common.rejections import RejectionLog
from buddy_personality.nodes.common.runtime import now_s
from buddy_personality.nodes.llm_bridge.workers import WORKERS, BridgeWorkers

NO_GUARD_LINE = ("no guard model configured (guard_model): LLM replies are checked by "
                 "the local rules only (issue 27; README: Using a real LLM server)")
GUARD_PROBLEM_AFTER = 2  # verdicts in a row unavailable: a problem line (diagnostics WARN)
TIMEOUT_WARN_S = 120.0  # diagnostics WARN this long after a turn ran out of time


class BridgeDiagnostics:
    params: dict[str, Any]
    _core: BridgeCore
    _client: LlmClient | None
    _guard: GuardClient | None
    _household: HouseholdFile
    _rejections: RejectionLog
    _signal_order: SignalOrder[Any]
    _say_sync: SayMoodSync
    _resets_unavailable: int
    _alerts_written: int
    _alert_failures: int
    # Time the output guard adds before a Step's lines are published (benchmarks/
    # safety_guard.py reads the percentiles from /diagnostics).
    _screen_us: deque[float]        # wall time
    _screen_cpu_us: deque[float]    # the executor thread's CPU time
    _screened_steps: int
    _rules_warm: threading.Event

    _workers: BridgeWorkers

    def _health(self) -> Health:
        st = self._core.stats
        values: dict[str, object] = {
            "layer": self._core.layer,
            "server_url": self.params["server_url"] or "(none: layer 0)",
            "phase": self._core.phase,
            "sessions": st.sessions,
            "calls": st.calls,
            "call_failures": st.call_failures,
            "failed_attempts": st.failed_attempts,
            "last_latency_s": f"{st.last_latency_s:.3f}",
            "max_latency_s": f"{st.max_latency_s:.3f}",
            "layer0_replies": st.layer0_replies,
            "dropped_parts": st.dropped_parts,
            "ignored_outside_session": st.ignored_outside_session,
            "ignored_partial": st.ignored_partial,
            "busy_dropped": st.busy_dropped,
            "lockout_refusals": st.lockout_refusals,
            "stale_results": st.stale_results,
            "governor_resets_unavailable": self._resets_unavailable,
            "turn_timeouts": st.turn_timeouts,
            "jobs_in_flight": self._workers.jobs_in_flight,
            "governor_signals_released_late": self._signal_order.released_late,
            "say_mood.released": self._say_sync.released,
            "say_mood.timeouts": self._say_sync.timeouts,
        }
        values.update({f"gate.{k}": v for k, v in sorted(st.gate.items())})
        values.update(self._core.safety.stats.values())
        values["safety.rules_warm"] = self._rules_warm.is_set()   # all compiled (issue 27)
        # The readers this node's writer has matched: a session's STARTED sent before the
        # personality's reader is matched is lost (a volatile event), and the personality
        # then never runs the session. Shown so an engineer (and a test) can tell.
        values["readers.conversation/events"] = self._pub_conv.get_subscription_count()
        values["safety.alerts_written"] = self._alerts_written
        values["safety.alert_write_failures"] = self._alert_failures
        values["safety.screened_steps"] = self._screened_steps
        for key, samples in (("screen_us", self._screen_us),
                             ("screen_cpu_us", self._screen_cpu_us)):
            if samples:
                us = sorted(samples)
                values[f"safety.{key}_p50"] = f"{us[len(us) // 2]:.1f}"
                values[f"safety.{key}_p99"] = f"{us[min(len(us) - 1, int(len(us) * 0.99))]:.1f}"
                values[f"safety.{key}_max"] = f"{us[-1]:.1f}"
        if self._client is not None:
            values["guided_decoding"] = self._client.guided_supported
        if st.last_error:
            values["last_llm_error"] = st.last_error
        values.update({f"speaker.{k}": v for k, v in sorted(self._core.speaker.counters.items())})
        values["guard_model"] = self.params["guard_model"] or "(none)"
        values.update(self._core.guard_stats.values())
        values["throttled_turns"] = st.throttled_turns
        values["speaker.household_names"] = len(self._household.names)
        values.update(self._rejections.as_values())
        configured = bool(self.params["server_url"])
        if configured and self._core.layer == 0:
            return Health(WARN, self._offline_line(), values)
        if self._workers.jobs_in_flight >= WORKERS:  # every worker busy: new turns would queue
            return Health(ERROR, f"all {WORKERS} LLM workers busy", values)
        last = st.last_timeout_at
        if last is not None and now_s(self) - last < TIMEOUT_WARN_S:
            return Health(WARN, f"LLM turns timing out ({st.turn_timeouts}; "
                                f"{st.last_error})", values)
        # issue 19: requests that hung until their deadline (or failed otherwise) while
        # the layer stays 1 are not OK either: two hung turns once left diagnostics OK
        last = st.last_failure_at
        if last is not None and now_s(self) - last < TIMEOUT_WARN_S:
            return Health(WARN, f"LLM calls failing ({st.call_failures}; "
                                f"{st.last_error})", values)
        problem = self._guard_problem()
        if problem:
            return Health(WARN, problem, values)
        return Health(OK, f"layer {self._core.layer}", values)

    def _guard_problem(self) -> str:
        """The guard's problem line (issue 27): a guard that keeps failing, or none while
        layer 1 is on. Neither is silence: layer 0 answers, or the local rules alone judge."""
        if self._core.layer != 1:
            return ""
        if self._guard is None:
            return NO_GUARD_LINE
        g = self._core.guard_stats
        if g.unavailable_in_row >= GUARD_PROBLEM_AFTER:
            return (f"guard model {self.params['guard_model']} at "
                    f"{self._guard.config.base_url} not answering ({g.last_reason}; "
                    f"{g.unavailable_in_row} checks in a row): LLM replies are not spoken, "
                    "Buddy answers from its rules (layer 0)")
        return ""

    def _offline_line(self) -> str:
        probe = self._client.probe_error if self._client is not None else ""
        reason = server_reason(probe, self._core.stats.last_error)
        return offline_line(self.params["server_url"], reason, self.params["probe_interval_s"])
