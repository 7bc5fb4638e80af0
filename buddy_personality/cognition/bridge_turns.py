"""A child's turn in the bridge core (DESIGN §4.5, spec 003 §3): who is speaking, the
cognition gate, the LLM call and its result, and the turn deadline (filler, then layer 0)
so that Buddy is never silent for more than a few seconds.

A part of `BridgeCore` (bridge.py; the shared fields are in bridge_session.py). It calls
the core's `policy`, `_governor_now`, `_count_gate`, `_set_phase` and `_end`, the answers
(bridge_answers.py) and the guard model's checks (bridge_vetting.py).
"""

from __future__ import annotations

from dataclasses import replace

from buddy_personality.cognition.bridge_session import BridgeState, PendingTurn, Session
from buddy_personality.cognition.bridge_steps import (
    END_GOVERNOR_HALTED,
    PHASE_THINKING,
    CallRequest,
    IntentOut,
    SayOut,
    Step,
    merge,
)
from buddy_personality.cognition.client import CallResult
from buddy_personality.cognition.context import build_messages
from buddy_personality.cognition.gate import EVENT_UTTERANCE, GateInputs
from buddy_personality.cognition.mapping import inline_intent
from buddy_personality.cognition.reply_gate import CHILD
from buddy_personality.cognition.speaker import PARENT_ACTION, PARENT_RULE
from buddy_personality.cognition.turn_deadline import FILLER, GIVE_UP, filler_line, layer_note
from buddy_personality.cognition.views import GOV_HALTED, IdentityView
from buddy_personality.cognition.vocabulary import MOOD_SET
from buddy_personality.safety.speech_safety import GuardrailOut


class Turns(BridgeState):
    def _turn(self, now: float, text: str) -> Step:
        """A child's line: first who is speaking (erratum 17) and whether it asks for a
        parent's power (erratum 18), then the usual reply unless that answered it."""
        s = self.session
        assert s is not None
        s.reply = None   # the child spoke again: the last reply's unspoken rest is dropped
        heard = self.speaker.hear(text)
        if heard.line is None:
            step = self._reply(now, text, heard.rules_line)
        else:
            s.last_activity = now
            step = self._answer(now, s, s.turns + 1, text, heard.line, "rules")
        step.identity_events[:0] = heard.events
        if heard.parent_request is not None:
            step.guardrails.append(GuardrailOut(PARENT_RULE, PARENT_ACTION,
                                                heard.parent_request.kind))
        return step

    def _identity_for_prompt(self) -> IdentityView:
        """identity/state, plus the name the child gave this session (erratum 17)."""
        return replace(self.identity, session_name=self.speaker.session_name)

    def _reply(self, now: float, text: str, rules_line: str | None = None) -> Step:
        s = self.session
        assert s is not None
        s.last_activity = now
        gov = self._governor_now()
        d = self.gate.decide(now, GateInputs(
            kind=EVENT_UTTERANCE, in_session=True, text=text,
            pressure_max=gov.pressure_max(), arc=self.profile.conversation_arc,
            rel_stakes=self.identity.relationship_stakes(), energy=gov.effort,
        ))
        self._count_gate(d)
        if not d.call:
            return Step(notes=[f"gate: no call ({d.reason})"])
        if gov.state == GOV_HALTED:
            return self._end(now, END_GOVERNOR_HALTED)
        turn_id = s.turns + 1
        s.intentions.expire(turn_id)
        policy = self.policy()
        if not (self.health.may_call() and policy.may_call):
            if rules_line:  # the speaker's own line (an introduction, erratum 17)
                return self._answer(now, s, turn_id, text, rules_line, "rules")
            return self._answer_rules(now, s, turn_id, text, "rules")
        self._ticket += 1
        messages = build_messages(
            text, turn_id, s.history, self.profile, self._identity_for_prompt(), gov,
            s.intentions.top(), self.config.energy_axis,
        )
        s.pending = PendingTurn(self._ticket, turn_id, text, started_at=now)
        self.stats.calls += 1
        step = Step(call=CallRequest(self._ticket, s.session_id, turn_id, messages, policy,
                                     self.config.turn.request_budget_s))
        if self.config.guard_enabled:
            # HC-9's second opinion (erratum 23), beside the LLM call: no time added.
            p = s.pending
            p.child_check = self._ask_guard(step, s, p.ticket, CHILD, p.turn_id, text, None)
            p.child_asked_at = now
            self.guard_stats.child_checks += 1
        return self._set_phase(step, PHASE_THINKING)

    # --- LLM results --------------------------------------------------------------------
    def on_inline_emotion(self, now: float, ticket: int, emotion: str) -> Step:
        del now
        s = self.session
        if s is None or s.pending is None or s.pending.ticket != ticket:
            return Step()
        if emotion not in MOOD_SET or s.pending.inline_sent:
            return Step()
        s.pending.inline_sent = True
        return Step(intents=[IntentOut(inline_intent(emotion), s.session_id,
                                       s.pending.turn_id)])

    def on_call_result(self, now: float, ticket: int, result: CallResult) -> Step:
        step = Step()
        st = self.stats
        st.failed_attempts += result.failed_attempts
        st.last_latency_s = result.latency_s
        st.max_latency_s = max(st.max_latency_s, result.latency_s)
        abandoned = ticket in self._abandoned   # already counted at its turn deadline
        self._abandoned.discard(ticket)
        if result.throttled:
            # The server's Retry-After of an earlier turn has not passed (issue 31): no
            # request went out, layer 0 answers, and the server is not counted as failing.
            st.throttled_turns += 1
        elif not result.cancelled and not abandoned:
            if result.ok:
                ev = self.health.record_success(now)
            else:
                st.call_failures += 1
                st.last_failure_at = now
                st.last_error = "; ".join(result.errors[-2:])
                ev = self.health.record_failure(now)
            if ev is not None:
                step.system_events.append(ev)
                step.notes.append(layer_note(ev, "a call succeeded" if result.ok else (
                    f"{self.health.consecutive_failures} failed calls; {st.last_error}")))
        if not result.cancelled and not abandoned:
            # DESIGN §1.5: what went wrong with the server is said in one log line per
            # turn (the counters are failed_attempts and call_failures).
            errors = "; ".join(result.errors[-2:])
            if not result.ok:
                step.notes.append(f"LLM call failed ({errors}); layer 0 answers this turn")
            elif result.failed_attempts:
                step.notes.append(f"LLM answered after {result.failed_attempts} failed "
                                  f"attempt(s) ({errors})")
        s = self.session
        if s is None or s.pending is None or s.pending.ticket != ticket:
            st.stale_results += 1
            return step
        pending = s.pending
        if result.ok and result.response is not None and self._vets(result):
            merge(step, self._vet(now, s, pending, result))
            return step
        s.pending = None
        if result.ok and result.response is not None:
            merge(step, self._answer_llm(now, s, pending, result))
        else:
            merge(step, self._answer_rules(now, s, pending.turn_id, pending.text,
                                                 "failed", result.failed_attempts))
        return step

    # --- the turn deadline ---------------------------------------------------------------
    def _turn_deadline(self, now: float, s: Session, p: PendingTurn) -> Step:
        """Never silence for more than a few seconds (cognition/turn_deadline.py)."""
        due = self.config.turn.due(now - p.started_at, p.filler_said)
        if due == FILLER:
            p.filler_said = True
            return Step(says=[SayOut(filler_line(p.turn_id), self.mood, s.session_id,
                                     p.turn_id)])
        if due != GIVE_UP:
            return Step()
        st = self.stats
        st.turn_timeouts += 1
        st.last_timeout_at = now
        st.last_error = f"no answer within {self.config.turn.answer_by_s:.1f} s"
        s.pending = None
        if p.vetting is None:   # else its call already answered; the verdicts go stale
            self._abandoned.add(p.ticket)
        step = Step(cancel_ticket=p.ticket,
                    notes=[f"turn {p.turn_id}: {st.last_error}; layer 0 answers"])
        ev = self.health.record_failure(now)
        if ev is not None:
            step.system_events.append(ev)
            step.notes.append(layer_note(ev, f"turn deadline passed ({st.last_error})"))
        merge(step, self._answer_rules(now, s, p.turn_id, p.text, "failed", 1))
        return step

