"""The personality node's services: thin ROS wrappers around engine calls.

- `personality/list_memories` for the parent page (RS-4);
- `personality/reset_memory`, `forget_user` and `lower_limits`: the identity node's
  internal calls after an executed, PIN-authorised command (DESIGN erratum 18, issue 16;
  under SROS2 only the identity enclave may call them);
- `personality/set_guardrail` and `override_affect` exist only when the read-only
  parameter `dev_mode` is true (erratum 19: less surface).

The engine holds every rule (a raise of a limit is refused there); this answers.
"""

from __future__ import annotations

from collections.abc import Callable

from rclpy.node import Node
from std_srvs.srv import Trigger

from buddy_msgs.msg import MemoryEntry
from buddy_msgs.srv import ForgetUser, ListMemories, LowerLimits, OverrideAffect, SetGuardrail
from buddy_personality.nodes.common.rejections import RejectionLog
from buddy_personality.nodes.common.runtime import now_s
from buddy_personality.personality.engine import InputRejected, PersonalityEngine
from buddy_personality.personality.records import EngineOutput


class PersonalityServices:
    """Creates the services on `node`; `publish` sends an engine output, `apply` runs one
    engine call at the node clock (None: refused and counted), `flush` writes what the
    engine has due."""

    def __init__(self, node: Node, engine: PersonalityEngine, rejections: RejectionLog,
                 publish: Callable[[EngineOutput], None],
                 apply: Callable[..., EngineOutput | None], flush: Callable[[], None],
                 dev_mode: bool) -> None:
        self._node = node
        self._engine = engine
        self._rejections = rejections
        self._publish = publish
        self._apply = apply
        self._flush = flush
        self._dev_mode = dev_mode
        self._log = node.get_logger()
        node.create_service(ListMemories, "personality/list_memories", self._on_list_memories)
        node.create_service(Trigger, "personality/reset_memory", self._on_reset_memory)
        node.create_service(ForgetUser, "personality/forget_user", self._on_forget_user)
        node.create_service(LowerLimits, "personality/lower_limits", self._on_lower_limits)
        if dev_mode:  # erratum 19: dev-only services are not advertised otherwise
            node.create_service(SetGuardrail, "personality/set_guardrail",
                                self._on_set_guardrail)
            node.create_service(OverrideAffect, "personality/override_affect",
                                self._on_override)

    def _now(self) -> float:
        return now_s(self._node)

    # -- the parent's page and the identity node's calls -------------------------------

    def _on_list_memories(self, request: ListMemories.Request,
                          response: ListMemories.Response) -> ListMemories.Response:
        response.entries = [
            MemoryEntry(tag=m.tag, category=m.category, strength=float(m.strength),
                        valence_bias=float(m.valence_bias), arousal_bias=float(m.arousal_bias),
                        created=float(m.created), last_reinforced=float(m.last_reinforced),
                        reinforcement_count=m.reinforcement_count, source=m.source,
                        users=list(m.users))
            for m in self._engine.list_memories(self._now())
        ]
        response.consent_active = self._engine.memory_writable
        return response

    def _on_reset_memory(self, request: Trigger.Request,
                         response: Trigger.Response) -> Trigger.Response:
        count = len(self._engine.memory)
        try:
            out = self._engine.reset_memory(self._now())
        except OSError as exc:
            response.success = False
            response.message = f"could not write the memory file: {exc}"
            self._log.error(response.message)
            return response
        self._publish(out)
        response.success = True
        response.message = f"forgot {count} memories"
        self._log.info(f"reset_memory: {response.message}")
        return response

    def _on_forget_user(self, request: ForgetUser.Request,
                        response: ForgetUser.Response) -> ForgetUser.Response:
        """Forget one household user (issue 16): written to disk before the answer."""
        user = request.user_id[:64]
        try:
            out, result = self._engine.forget_user(self._now(), user)
        except InputRejected as exc:
            self._rejections.reject(exc.cause, str(exc))
            response.success, response.message = False, str(exc)
            return response
        except OSError as exc:
            response.success = False
            response.message = f"could not write the memory file: {exc}"
            self._log.error(response.message)
            return response
        self._publish(out)
        response.success = True
        response.removed = len(result.removed)
        response.kept_shared = len(result.kept_shared)
        n, shared = len(result.removed), len(result.kept_shared)
        response.message = (f"forgot {n} {'memory' if n == 1 else 'memories'} of {user}"
                            + (f"; kept {shared} shared with another child" if shared else ""))
        self._log.info(f"forget_user: {response.message}")
        return response

    def _on_lower_limits(self, request: LowerLimits.Request,
                         response: LowerLimits.Response) -> LowerLimits.Response:
        """Lower today's RS-1 / RS-2 limits (issue 16); the engine refuses any raise."""
        out, outcome = self._engine.lower_limits(
            self._now(),
            request.session_limit_s if request.session_limit_s != 0.0 else None,
            request.daily_limit_s if request.daily_limit_s != 0.0 else None)
        self._publish(out)
        self._flush()  # the lowered limits are in the usage file before the answer
        response.success = outcome.success
        response.message = outcome.message
        response.session_limit_s = float(outcome.session_limit_s)
        response.daily_limit_s = float(outcome.daily_limit_s)
        self._log.info(f"lower_limits: {outcome.message}")
        return response

    # -- dev only ------------------------------------------------------------------------

    def _dev_refusal(self, service: str) -> str | None:
        if self._dev_mode:
            return None
        self._rejections.reject("dev_only", service)
        return f"{service} is available only with dev_mode:=true"

    def _on_set_guardrail(self, request: SetGuardrail.Request,
                          response: SetGuardrail.Response) -> SetGuardrail.Response:
        refusal = self._dev_refusal("set_guardrail")
        if not refusal and request.key == "memory_consent_required":
            refusal = "memory consent comes only from the Consent FSM (erratum 18)"
        if refusal:
            response.success, response.message = False, refusal
            return response
        try:
            self._engine.set_guardrail(request.key, request.value)
        except ValueError as exc:
            response.success, response.message = False, str(exc)
            return response
        response.success = True
        response.message = f"{request.key} = {request.value}"
        self._log.warning(f"dev: guardrail {response.message}")
        return response

    def _on_override(self, request: OverrideAffect.Request,
                     response: OverrideAffect.Response) -> OverrideAffect.Response:
        refusal = self._dev_refusal("override_affect")
        if refusal:
            response.success, response.message = False, refusal
            return response
        out = self._apply(self._engine.override_affect, request.valence, request.arousal,
                          request.duration_s)
        if out is None:
            response.success = False
            response.message = self._rejections.last_error
            return response
        response.success = True
        response.message = (f"affect at ({out.snapshot.valence:.2f}, "
                            f"{out.snapshot.arousal:.2f}), mood {out.snapshot.mood}")
        return response
