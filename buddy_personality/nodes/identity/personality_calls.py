"""The identity node's calls into the personality node: executed parent commands whose
effect the personality carries out (spec 004 §3 execution_success / execution_failure).

- "forget everything" calls `personality/reset_memory` (std_srvs/Trigger; the identity
  node is its only caller, and under SROS2 the only enclave allowed to call it) with
  `call_async` and a done-callback, never synchronously inside a callback. A call waits
  (re-tried from the node's tick) while the service is not up, for `reset_memory_wait_s`.
- "forget this child" and "lower today's limits" (issue 16) call
  `personality/forget_user` / `personality/lower_limits` from a coroutine service
  callback: the parent's page must show what the personality node answered (a raise is
  refused there, by the rule's owner), so the reply waits for it, at most
  `effect_answer_timeout_s`, without blocking the executor (the waiting services and
  these clients share one reentrant callback group, `group`).

Each outcome goes back to the core (`command_execution_result`); no rule lives here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.client import Client
from rclpy.node import Node
from rclpy.task import Future
from std_srvs.srv import Trigger

from buddy_msgs.srv import ForgetUser, LowerLimits
from buddy_personality.identity import ForgetUser as ForgetUserEffect
from buddy_personality.identity import IdentityCore, ResetMemory
from buddy_personality.identity import LowerLimits as LowerLimitsEffect


@dataclass(slots=True)
class _PendingReset:
    effect: ResetMemory
    since: float


class PersonalityCalls:
    """The clients, the memory resets waiting for their service, and their counters."""

    def __init__(self, node: Node, core: IdentityCore, now: Callable[[], float],
                 reset_wait_s: float, answer_timeout_s: float) -> None:
        self._node = node
        self._core = core
        self._now = now
        self._reset_wait_s = reset_wait_s
        self._answer_timeout_s = answer_timeout_s
        self._log = node.get_logger()
        self._reset_client = node.create_client(Trigger, "personality/reset_memory")
        # issue 16: the execute service awaits these answers; a reentrant group lets the
        # (single-threaded) executor take them while the reply waits. The core is only
        # ever called between awaits, never from two threads.
        self.group = ReentrantCallbackGroup()
        self._forget_client = node.create_client(
            ForgetUser, "personality/forget_user", callback_group=self.group)
        self._limits_client = node.create_client(
            LowerLimits, "personality/lower_limits", callback_group=self.group)
        self._pending_resets: list[_PendingReset] = []
        self.resets_called = 0
        self.resets_failed = 0
        self.effects_called = 0
        self.effects_failed = 0

    # -- reset_memory: asynchronous, retried from the tick -------------------------------

    def queue_reset(self, effect: ResetMemory) -> None:
        self._log.info(f"{effect.command} executed for {effect.requested_by}")
        self._pending_resets.append(_PendingReset(effect, self._now()))

    @property
    def resets_waiting(self) -> int:
        return len(self._pending_resets)

    def flush_resets(self) -> None:
        """Call personality/reset_memory once per executed command, asynchronously."""
        if not self._pending_resets:
            return
        now = self._now()
        ready = self._reset_client.service_is_ready()
        waiting: list[_PendingReset] = []
        for pending in self._pending_resets:
            if ready:
                future = self._reset_client.call_async(Trigger.Request())
                command = pending.effect.command
                future.add_done_callback(lambda f, c=command: self._on_reset_done(c, f))
                self.resets_called += 1
            elif now - pending.since > self._reset_wait_s:
                self._reset_failed(pending.effect.command, "personality/reset_memory unavailable")
            else:
                waiting.append(pending)
        self._pending_resets = waiting

    def _on_reset_done(self, command: str, future: Any) -> None:
        try:
            result = future.result()
        except Exception as exc:  # the future carries the service's exception
            self._reset_failed(command, f"personality/reset_memory raised {exc}")
            return
        if result is None or not result.success:
            self._reset_failed(command, result.message if result is not None else "no answer")
            return
        self._log.info(f"memory reset done: {result.message}")
        self._core.command_execution_result(command, True, result.message)

    def _reset_failed(self, command: str, detail: str) -> None:
        self.resets_failed += 1
        self._log.error(f"{command} could not reset memory: {detail}")
        self._core.command_execution_result(command, False, detail)

    # -- forget_user / lower_limits: awaited by the parent's request ---------------------

    async def run_effect(self, effect: ForgetUserEffect | LowerLimitsEffect) -> tuple[bool, str]:
        """Ask the personality node to carry out an executed command (issue 16) and report
        execution_success / execution_failure (spec 004 §3) with its answer."""
        client: Client
        if isinstance(effect, ForgetUserEffect):
            client, request = self._forget_client, ForgetUser.Request(user_id=effect.user_id)
        else:
            client = self._limits_client
            request = LowerLimits.Request(session_limit_s=effect.session_limit_s or 0.0,
                                          daily_limit_s=effect.daily_limit_s or 0.0)
        self._log.info(f"{effect.command} executed for {effect.requested_by or 'parent'}")
        if not client.service_is_ready():
            return self._effect_failed(effect.command, f"{client.srv_name} is not available",
                                       "Buddy's personality is not running: nothing changed.")
        self.effects_called += 1
        result = await self._answer_within(client, client.call_async(request),
                                           self._answer_timeout_s)
        if result is None:
            return self._effect_failed(effect.command, f"{client.srv_name} did not answer",
                                       "Buddy did not answer in time: nothing is known "
                                       "to have changed.")
        self._core.command_execution_result(effect.command, result.success, result.message)
        if not result.success:
            self.effects_failed += 1
            self._log.warning(f"{effect.command} refused: {result.message}")
        return result.success, result.message

    def _effect_failed(self, command: str, detail: str, message: str) -> tuple[bool, str]:
        self.effects_failed += 1
        self._log.error(f"{command} not carried out: {detail}")
        self._core.command_execution_result(command, False, detail)
        return False, message

    async def _answer_within(self, client: Client, future: Future, timeout_s: float) -> Any:
        """The service's answer, or None after `timeout_s` (the request is dropped)."""
        gate = Future()

        def open_gate(_: object = None) -> None:
            if not gate.done():
                gate.set_result(None)

        future.add_done_callback(open_gate)
        timer = self._node.create_timer(timeout_s, open_gate, callback_group=self.group)
        try:
            await gate
        finally:
            timer.cancel()
            self._node.destroy_timer(timer)
        if not future.done():
            client.remove_pending_request(future)
            return None
        try:
            return future.result()
        except Exception as exc:  # the future carries the service's exception
            self._log.error(f"{client.srv_name} raised {exc}")
            return None
