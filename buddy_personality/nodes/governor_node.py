"""governor node (DESIGN §4.2): spec 001's runtime governor over ROS.

A thin translation layer around `buddy_personality.governor.Governor`:

- `governor/signal` (GovernorSignal): one governor step per message, at the node clock;
  bad signals (NaN, infinities, out of range, no or another session's id) are refused, logged
  once per cause and counted in diagnostics, never integrated.
- `governor/state` (GovernorState, latched): after every step, after every reset, and
  at `publish_hz` (1 Hz) so late joiners and watchdogs always see the current state.
- `governor/reset` (ResetGovernor): a new episode with a new episode_id; the core refuses
  it while the episode is live unless the request says the session ended.
- `/diagnostics` at 1 Hz: state, step, episode, budgets, accepted and refused signals.

Parameters: `profile` (named coefficient set, read-only), `max_steps` (the EXTERNAL fuse;
overrides the profile's value; a change applies from the next episode), `publish_hz`.
"""

from __future__ import annotations

from typing import Any

from rclpy.node import Node
from rclpy.parameter import Parameter

from buddy_msgs.msg import GovernorSignal, GovernorState
from buddy_msgs.srv import ResetGovernor
from buddy_personality.governor import (
    Governor,
    GovernorConfig,
    GovernorSnapshot,
    InvalidSignal,
    Signal,
    profile_config,
)
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.common.diagnostics import OK, WARN, DiagnosticsPublisher, Health
from buddy_personality.nodes.common.inbound import InboundChecks
from buddy_personality.nodes.common.parameters import ParamSpec, declare_parameters
from buddy_personality.nodes.common.rejections import RejectionLog
from buddy_personality.nodes.common.runtime import now_s, run_node

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("profile", "balanced", "named coefficient profile",
              choices=("balanced", "conservative", "aggressive"), read_only=True),
    ParamSpec("max_steps", 100, "EXTERNAL halt after this many steps (spec 001 §5); "
              "overrides the profile's value; a change applies from the next episode",
              min=1, max=100000),
    ParamSpec("publish_hz", 1.0, "rate of the latched state republish", min=0.1, max=50.0,
              read_only=True),
)

SESSION_ID_MAX = 128  # DESIGN §5: oversize strings are truncated


def signal_from_msg(msg: GovernorSignal) -> Signal:
    return Signal(reward=msg.reward, novelty=msg.novelty, urgency=msg.urgency,
                  difficulty=msg.difficulty)


def state_to_msg(snap: GovernorSnapshot, msg: GovernorState) -> GovernorState:
    """Copy a core snapshot into a GovernorState (field names are the same)."""
    msg.state = snap.state
    msg.halt_reason = snap.halt_reason
    msg.effort = snap.effort
    msg.persistence = snap.persistence
    msg.risk = snap.risk
    msg.exploration = snap.exploration
    msg.confidence = snap.confidence
    msg.frustration = snap.frustration
    msg.curiosity = snap.curiosity
    msg.arousal = snap.arousal
    msg.risk_pressure = snap.risk_pressure
    msg.step = snap.step
    msg.episode_id = snap.episode_id
    msg.session_id = snap.session_id
    return msg


class GovernorNode(InboundChecks, Node):
    def __init__(self, **node_kwargs: Any) -> None:
        super().__init__("governor", **node_kwargs)
        self.params = declare_parameters(self, PARAMETERS)
        # The start time is unknown until the first signal (the sim clock may not have
        # started yet); every reset then sets it to the session's start.
        self._governor = Governor(self._config(), now=None)
        self._rejections = RejectionLog(self.get_logger().warning)
        self._accepted = 0
        self._ignored_halted = 0
        self._resets_refused = 0
        self._rejected_at_last_report = 0

        self._state_pub = self.create_publisher(GovernorState, "governor/state",
                                                qos.of("governor/state"))
        self.create_subscription(GovernorSignal, "governor/signal", self._on_signal,
                                 qos.of("governor/signal"))
        self.create_service(ResetGovernor, "governor/reset", self._on_reset)
        self.create_timer(1.0 / self.params["publish_hz"], self._publish_state)
        self.add_post_set_parameters_callback(self._on_parameters_set)
        self._diagnostics = DiagnosticsPublisher(self, self._health)
        self._publish_state()

    # -- configuration -----------------------------------------------------------------

    def _config(self) -> GovernorConfig:
        return profile_config(self.params["profile"], max_steps=self.params["max_steps"])

    def _on_parameters_set(self, params: list[Parameter]) -> None:
        # Values were already validated by declare_parameters' on-set callback.
        for p in params:
            if p.name in self.params:
                self.params[p.name] = p.value

    # -- inputs ------------------------------------------------------------------------

    def _on_signal(self, msg: GovernorSignal) -> None:
        session_id = msg.session_id[:SESSION_ID_MAX]
        if not session_id.strip():
            # DESIGN §4.2: one episode governs one session; an anonymous signal could
            # steer (or halt) whichever episode runs, so it names none and is refused.
            self._rejections.reject("missing_session", "signal without session_id")
            return
        was_halted = self._governor.halted
        try:
            self._governor.step(signal_from_msg(msg), now_s(self), session_id)
        except InvalidSignal as err:
            self._rejections.reject(err.cause, err.reason)
            return
        if was_halted:
            self._ignored_halted += 1  # HALTED is absorbing: nothing changed
        else:
            self._accepted += 1
        self._publish_state()

    def _on_reset(self, request: ResetGovernor.Request,
                  response: ResetGovernor.Response) -> ResetGovernor.Response:
        governor = self._governor
        # max_steps may have changed since the episode began; the core keeps one config
        # per episode, so a new config means a new Governor carrying the episode count.
        config = self._config()
        outcome = governor.new_episode(now_s(self), request.session_id[:SESSION_ID_MAX],
                                       request.session_ended)
        if outcome.success and config != governor.config:
            self._governor = Governor(config, now=now_s(self), episode_id=outcome.episode_id,
                                      session_id=governor.snapshot().session_id)
        response.success = outcome.success
        response.message = outcome.message
        response.episode_id = outcome.episode_id
        if outcome.success:
            self.get_logger().info(outcome.message)
            self._publish_state()
        else:
            self._resets_refused += 1
            self.get_logger().info(f"reset refused: {outcome.message}")
        return response

    # -- outputs -----------------------------------------------------------------------

    def _publish_state(self) -> None:
        msg = state_to_msg(self._governor.snapshot(), GovernorState())
        msg.header.stamp = self.get_clock().now().to_msg()
        self._state_pub.publish(msg)

    def _health(self) -> Health:
        snap = self._governor.snapshot()
        rejected = self._rejections.total
        fresh_rejections = rejected > self._rejected_at_last_report
        self._rejected_at_last_report = rejected
        message = snap.state_name + (f" ({snap.halt_reason})" if snap.halt_reason else "")
        values: dict[str, object] = {
            "profile": self._governor.config.profile,
            "state": snap.state_name,
            "halt_reason": snap.halt_reason,
            "episode_id": snap.episode_id,
            "session_id": snap.session_id,
            "step": snap.step,
            "max_steps": self._governor.config.max_steps,
            "effort": f"{snap.effort:.3f}",
            "persistence": f"{snap.persistence:.3f}",
            "risk": f"{snap.risk:.3f}",
            "exploration": f"{snap.exploration:.3f}",
            "stagnating": snap.stagnating,
            "signals.accepted": self._accepted,
            "signals.ignored_halted": self._ignored_halted,
            "resets.refused": self._resets_refused,
        }
        values.update(self._rejections.as_values("signals.rejected"))
        # RECOVERING and HALTED are the governor doing its job, not faults: OK. Refused
        # input since the last report is worth a WARN.
        level = OK
        if fresh_rejections:
            level, message = WARN, f"{message}; refused signals: {self._rejections.last_error}"
        return Health(level=level, message=message, values=values)


def main(args: list[str] | None = None) -> int:
    return run_node(GovernorNode, args)
