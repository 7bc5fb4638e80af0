"""identity/execute_command: the Command Execution FSM (spec 004 §3; DESIGN §4.3).

One machine for the household: a command is detected (REQUEST), authorized by role, age
and delegation (commands.authorize), confirmed when its policy asks for it, and EXECUTED
exactly once, which emits its effect for the node to carry out. Every action needs the
parent's proof (erratum 18), passed to each step that decides on authority.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum

from .command_execution import COMMAND_FSM, CommandContext
from .commands import CommandPolicy, authorize, parse_args
from .config import IdentityConfig
from .enums import CommandAction, CommandState
from .fsm import Machine
from .ledger import Ledger
from .parent_pin import ParentProof
from .profiles import ProfileStore
from .records import ForgetUser, LowerLimits, Reply, ResetMemory
from .speaker import Speaker


@dataclass(slots=True)
class _PendingCommand:
    policy: CommandPolicy
    requester: str
    args: str
    by_pin: bool = False  # asked with a parent token (erratum 18), not by the speaker
    value: object = None  # the checked argument (commands.parse_args)


class CommandHandler:
    def __init__(self, ledger: Ledger, store: ProfileStore, config: IdentityConfig,
                 commands: Mapping[str, CommandPolicy], speaker: Speaker, now: float) -> None:
        self._ledger = ledger
        self._store = store
        self._speaker = speaker
        self.commands: dict[str, CommandPolicy] = dict(commands)
        self.machine = Machine(
            COMMAND_FSM,
            {CommandState.PENDING_CONFIRMATION: config.command_confirmation_timeout_s},
            now=now,
        )
        self.pending: _PendingCommand | None = None
        self.last_execution: tuple[str, bool, str] | None = None  # (command, success, detail)

    @property
    def state(self) -> CommandState:
        return self.machine.state

    def execute(self, action: int, command: str, user_id: str, args: str, now: float,
                parent: ParentProof) -> None:
        led = self._ledger
        state = self.machine.state
        if led.needs_parent(parent, f"command {command!r}", state):
            return
        act = led.checked_action(CommandAction, action, "command", state)
        if act is None or not led.known_users(self._store, (user_id,), state, parent):
            return
        self._action(act, command, user_id, args, now, parent)

    def _action(self, act: IntEnum, command: str, user_id: str, args: str, now: float,
                parent: ParentProof) -> None:
        led, out, m = self._ledger, self._ledger.out, self.machine
        if act == CommandAction.REQUEST:
            self._request(command, user_id, args, now, parent)
            return
        if act == CommandAction.CONFIRM:
            pending = self.pending
            if pending is not None and command and command != pending.policy.name:
                out.reply = Reply(False, int(m.state), f"no pending {command!r} to confirm")
                return
            actor_is_requester = pending is not None and pending.requester == user_id
            if pending is not None and actor_is_requester:
                # Authority is re-checked at the moment of execution: a delegation revoked
                # or expired since the request is a changed context (spec 004 §3, §4).
                ok, why = authorize(pending.policy, self._speaker.requester(user_id, parent))
                if not ok:
                    led.fire(m, "context_changed", now)
                    out.reply = Reply(True, int(CommandState.CANCELLED), why)
                    self.finish(now)
                    return
            ctx = CommandContext(actor_is_requester=actor_is_requester)
            r = led.fire(m, "confirmation_received", now, ctx)
            if not r.accepted:
                out.reply = Reply(False, int(m.state), r.reason)
                return
            self._executed()
            out.reply = Reply(True, int(CommandState.EXECUTED), "executed")
            self.finish(now)
            return
        r = led.fire(m, "context_changed", now)
        if not r.accepted:
            out.reply = Reply(False, int(m.state), r.reason)
            return
        out.reply = Reply(True, int(CommandState.CANCELLED), "cancelled")
        self.finish(now)

    def _request(self, command: str, user_id: str, args: str, now: float,
                 parent: ParentProof) -> None:
        led, out, m = self._ledger, self._ledger.out, self.machine
        policy = self.commands.get(command)
        if policy is None:
            led.reject("unknown_command", f"unknown command {command!r}")
            out.reply = Reply(False, int(m.state), f"unknown command {command!r}")
            return
        value, bad_args = parse_args(policy, args, self._store)
        if bad_args:
            led.reject("bad_args", bad_args)
            out.reply = Reply(False, int(m.state), bad_args)
            return
        r = led.fire(m, "command_detected", now)
        if not r.accepted:
            out.reply = Reply(False, int(m.state), r.reason)
            return
        self.pending = _PendingCommand(policy, user_id, args, parent.valid, value)
        ok, why = authorize(policy, self._speaker.requester(user_id, parent))
        if not ok:
            led.fire(m, "authorization_denied", now)
            led.counters["commands_denied"] += 1
            out.reply = Reply(True, int(CommandState.DENIED), why)
            self.finish(now)
            return
        ctx = CommandContext(requires_confirmation=policy.requires_confirmation)
        led.fire(m, "authorization_granted", now, ctx)
        if m.state == CommandState.EXECUTED:
            self._executed()
            out.reply = Reply(True, int(CommandState.EXECUTED), why)
            self.finish(now)
        else:
            question = (policy.question.format(user=self._name_of(value)) if policy.question
                        else why)
            out.reply = Reply(True, int(CommandState.PENDING_CONFIRMATION), question)

    def _name_of(self, value: object) -> str:
        """A household user's name for a question, else the value as text."""
        profile = self._store.get(value) if isinstance(value, str) else None
        return profile.name if profile is not None else str(value)

    def _executed(self) -> None:
        """Entered EXECUTED: emit the command's effect, exactly once."""
        pending = self.pending
        assert pending is not None and self.machine.state == CommandState.EXECUTED
        led = self._ledger
        led.counters["commands_executed"] += 1
        policy = pending.policy
        if policy.effect == "reset_memory":
            led.out.effects.append(ResetMemory(policy.name, pending.requester))
        elif policy.effect == "forget_user" and isinstance(pending.value, str):
            led.out.effects.append(ForgetUser(policy.name, pending.requester, pending.value))
        elif policy.effect == "lower_limits" and isinstance(pending.value, tuple):
            session_s, daily_s = pending.value
            led.out.effects.append(LowerLimits(policy.name, pending.requester, session_s,
                                               daily_s))

    def finish(self, now: float) -> None:
        if self.machine.state in (CommandState.EXECUTED, CommandState.DENIED,
                                  CommandState.CANCELLED):
            self._ledger.fire(self.machine, "done", now)
            self.pending = None

    def cancel(self, now: float, keep_pin_requests: bool) -> None:
        """context_changed for a command awaiting confirmation (spec 004 Cross-FSM Rules).
        A request made with the parent PIN was not made by the speaker, so who talks with
        Buddy is not its context (`keep_pin_requests`); it still lapses by its timeout."""
        if self.machine.state != CommandState.PENDING_CONFIRMATION:
            return
        if keep_pin_requests and self.pending is not None and self.pending.by_pin:
            return
        self._ledger.fire(self.machine, "context_changed", now)
        self.finish(now)

    def tick(self, now: float) -> None:
        if self._ledger.tick(self.machine, now) is not None:
            self.finish(now)

    def execution_result(self, command: str, success: bool, detail: str = "") -> None:
        """execution_success / execution_failure of an EXECUTED command's side effect.

        Spec 004 §3 lists these events without a transition: they move no state and are
        kept for diagnostics (the FSM is already back in IDLE)."""
        self.last_execution = (command, success, detail)
        self._ledger.counters["execution_success" if success else "execution_failure"] += 1
