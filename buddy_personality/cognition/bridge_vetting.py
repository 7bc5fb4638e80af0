"""The guard model on the server, in the bridge core (issue 27, DESIGN erratum 23): an
LLM reply is spoken sentence by sentence as the guard's verdicts come in, and the child's
line is a second HC-9 check. The verdict logic per sentence is in reply_gate.py; this part
keeps the checks in flight, releases what may be said and backstops late verdicts.

A part of `BridgeCore` (bridge.py; the shared fields are in bridge_session.py). It calls
the answers' `_hc9`, `_answer_llm` and `_answer_rules` (bridge_answers.py).
"""

from __future__ import annotations

from dataclasses import replace

from buddy_personality.cognition.bridge_session import BridgeState, PendingTurn, Session
from buddy_personality.cognition.bridge_steps import SayOut, Step, merge
from buddy_personality.cognition.client import CallResult
from buddy_personality.cognition.guard import GuardVerdict, unavailable
from buddy_personality.cognition.guard_rules import GUARD_UNAVAILABLE, HC9, safe_line_for
from buddy_personality.cognition.reply_gate import (
    BACKSTOP_S,
    CHILD,
    GuardCheck,
    Vetting,
    split_sentences,
)
from buddy_personality.safety.distress import DistressMatch
from buddy_personality.safety.speech_safety import (
    ACTION_SUBSTITUTE,
    REFUSED_EMOTION,
    GuardrailOut,
)


class GuardVetting(BridgeState):
    def _vets(self, result: CallResult) -> bool:
        """A reply the guard model must pass sentence by sentence: the guard is on, and
        neither HC-9 (child_affect) nor the local rules (whole reply) already decide it."""
        resp = result.response
        if not self.config.guard_enabled or resp is None:
            return False
        if self.safety.distress_in_reply(resp.child_affect, resp.mood_reason,
                                         resp.inner_thought) is not None:
            return False
        return self.safety.guard.check(resp.text).ok

    def _vet(self, now: float, s: Session, p: PendingTurn, result: CallResult) -> Step:
        """Ask the guard about every sentence at once; nothing is spoken before sentence
        1's verdict (and the child line's) is in. The turn stays THINKING meanwhile, under
        its deadline."""
        resp = result.response
        assert resp is not None
        v = Vetting(p.ticket, p.turn_id, resp.text, split_sentences(resp.text), now)
        p.vetting, p.result = v, result
        step = Step()
        for k in range(len(v.sentences)):
            self._ask_guard(step, s, p.ticket, k, p.turn_id, p.text, v.prefix(k))
        merge(step, self._release(now, s))
        return step

    def _ask_guard(self, step: Step, s: Session, ticket: int, index: int, turn_id: int,
                   child: str, reply: str | None) -> int:
        self._check_seq += 1
        self._checks[self._check_seq] = (s.session_id, ticket, index, turn_id)
        step.guard_checks.append(GuardCheck(self._check_seq, child, reply,
                                            self.config.guard_deadline_s))
        return self._check_seq

    def on_guard_verdict(self, now: float, check_id: int, verdict: GuardVerdict) -> Step:
        """A verdict from the guard worker (the node) or the core's own backstop."""
        key = self._checks.pop(check_id, None)
        s = self.session
        if key is None or s is None or s.session_id != key[0]:
            self.guard_stats.stale += 1
            return Step()
        self.guard_stats.count(verdict)
        _sid, ticket, index, turn_id = key
        p = s.pending
        if index == CHILD:
            if not verdict.safe and HC9 in verdict.rules:
                # A second opinion to the phrase list: it can add a stop, at any point of
                # this session (even after layer 0 answered), never remove one.
                self.guard_stats.hc9_stops += 1
                match = DistressMatch("guard_model", f"guard {','.join(verdict.codes)}",
                                      "guard model: " + ",".join(verdict.codes), "guard")
                return self._hc9(now, match, turn_id)
            if p is not None and p.ticket == ticket and p.child_verdict is None:
                p.child_verdict = verdict
                return self._release(now, s)
            return Step()
        v = p.vetting if p is not None and p.vetting is not None else s.reply
        if v is None or v.ticket != ticket or index in v.verdicts:
            self.guard_stats.stale += 1
            return Step()
        v.verdicts[index] = verdict
        return self._release(now, s)

    def _release(self, now: float, s: Session) -> Step:
        """Hand out every sentence whose verdict allows it, in order (reply_gate.py)."""
        step = Step()
        p = s.pending
        if p is not None and p.vetting is not None:
            v = p.vetting
            first = v.next_verdict()
            if first is None or (p.child_check is not None and p.child_verdict is None):
                return step
            s.pending = None
            if not first.safe:
                # Not spoken: layer 0 answers the turn (issue 27 item 2).
                self.guard_stats.replies_refused += 1
                step.guardrails.append(self._guard_event(first, 0, "layer 0 answered"))
                step.notes.append(f"guard model: reply of turn {v.turn_id} not spoken "
                                  f"({first.reason or ','.join(first.rules)}); layer 0 "
                                  "answers")
                merge(step, self._answer_rules(now, s, p.turn_id, p.text, "failed"))
                return step
            assert p.result is not None
            answer = self._answer_llm(now, s, p, p.result)
            for i, say in enumerate(answer.says):
                if say.text == v.whole and say.turn_id == v.turn_id:
                    answer.says[i] = replace(say, text=v.sentences[0], part_of=v.whole)
            v.released = 1
            merge(step, answer)
            s.reply = v
        v2 = s.reply
        while v2 is not None and not v2.finished:
            verdict = v2.next_verdict()
            if verdict is None:
                return step
            k = v2.released
            if verdict.safe:
                step.says.append(SayOut(v2.sentences[k], self.mood, s.session_id, v2.turn_id,
                                        part_of=v2.whole))
                v2.released += 1
                continue
            # What has been said stays said; what follows is the safe line, or nothing.
            self.guard_stats.replies_cut += 1
            tail = "" if verdict.unavailable else safe_line_for(verdict.rules[0])
            step.guardrails.append(self._guard_event(
                verdict, k, "safe line" if tail else "rest not spoken"))
            if tail:
                step.says.append(SayOut(tail, REFUSED_EMOTION, s.session_id, v2.turn_id,
                                            rule_emotion=True))
            said = " ".join([*v2.sentences[:k], tail]).strip()
            if s.history and s.history[-1].buddy_text == v2.whole:
                s.history[-1] = replace(s.history[-1], buddy_text=said)
            v2.released = len(v2.sentences)
        if v2 is not None and v2.finished:
            s.reply = None
        return step

    @staticmethod
    def _guard_event(verdict: GuardVerdict, index: int, outcome: str) -> GuardrailOut:
        rule = GUARD_UNAVAILABLE if verdict.unavailable else verdict.rules[0]
        what = (f"reason={verdict.reason}" if verdict.unavailable
                else f"guard={','.join(verdict.codes) or 'unsafe'}; "
                     f"rules={','.join(verdict.rules)}")
        return GuardrailOut(rule, ACTION_SUBSTITUTE, (
            f"{what}; sentence={index + 1}; {outcome}; "
            f"latency_ms={verdict.latency_s * 1000:.0f}")[:240])

    def _guard_due(self, s: Session) -> list[float]:
        """When the core stops waiting for verdicts (the backstop behind the client's
        own deadline)."""
        limit = self.config.guard_deadline_s + BACKSTOP_S
        p = s.pending
        times: list[float] = []
        if p is not None and p.child_check is not None and p.child_verdict is None:
            times.append(p.child_asked_at + limit)
        for v in (p.vetting if p is not None else None, s.reply):
            if v is not None and not v.finished:
                times.append(v.asked_at + limit)
        return times

    def _guard_overdue(self, now: float, s: Session) -> Step:
        """Verdicts not in by the backstop count as GUARD UNAVAILABLE."""
        due = self._guard_due(s)
        if not due or now < min(due):
            return Step()
        limit = self.config.guard_deadline_s + BACKSTOP_S
        late = unavailable(f"no verdict within {self.config.guard_deadline_s:.1f} s", limit)
        ids = [cid for cid, key in self._checks.items() if key[0] == s.session_id]
        step = Step()
        p = s.pending
        for cid in ids:
            _sid, ticket, index, _turn = self._checks[cid]
            v = p.vetting if p is not None and p.vetting is not None else s.reply
            asked = p.child_asked_at if index == CHILD and p is not None else (
                v.asked_at if v is not None and v.ticket == ticket else None)
            if asked is not None and now >= asked + limit:
                merge(step, self.on_guard_verdict(now, cid, late))
            if self.session is not s:
                break
        return step
