"""The bridge core's answers (DESIGN §4.5, §6.15, §6.16): a turn's reply from the LLM or
from layer 0 becomes the line, its intents, memory tags and the governor signal; the
HC-9 stop; and `screen`, the one chokepoint every line passes before `tts/say`.

A part of `BridgeCore` (bridge.py; the shared fields are in bridge_session.py). It calls
the core's `_set_phase` and `_end`.
"""

from __future__ import annotations

from buddy_personality.cognition.bridge_session import (
    VOICE_HOLD_S,
    BridgeState,
    PendingTurn,
    Session,
)
from buddy_personality.cognition.bridge_steps import (
    END_HC9,
    PHASE_SPEAKING,
    IntentOut,
    MemoryOut,
    SayOut,
    SignalOut,
    Step,
    merge,
)
from buddy_personality.cognition.client import CallResult
from buddy_personality.cognition.context import HistoryTurn
from buddy_personality.cognition.mapping import (
    CONFIDENCE,
    SOURCE_HYBRID,
    Intent,
    TurnOutcome,
    governor_signal,
    hybrid_intent,
    memory_record,
    post_intent,
    rules_intent,
)
from buddy_personality.cognition.vocabulary import GESTURES
from buddy_personality.safety.distress import DistressMatch
from buddy_personality.safety.speech_safety import (
    CALM_EMOTION,
    CALM_INTENSITY,
    CALM_REASON,
    HC9_LINE,
    REFUSED_EMOTION,
    REFUSED_INTENSITY,
    REFUSED_REASON,
)


class Answers(BridgeState):
    # --- safety (DESIGN §6.15, §6.16; logic in buddy_personality/safety/) ------------------
    # --- safety (DESIGN §6.15, §6.16; logic in buddy_personality/safety/) ------------------
    def screen(self, step: Step) -> Step:
        """The one chokepoint before `tts/say` (§6.16): the node passes every Step through
        here before publishing, so every line (LLM, layer 0, closing, lockout, identity
        checks, speech errors) is checked. A refused line is replaced by its rule's safe
        line, the reply's emotion falls back to THINKING, its gestures are dropped, the
        session history keeps the safe line, and a GuardrailEvent names the rule."""
        if not step.says:
            return step
        says: list[SayOut] = []
        for say in step.says:
            verdict, event = self.safety.screen(say.part_of or say.text)
            if event is None:
                says.append(say)
                continue
            if say.part_of and self.session is not None:
                self.session.reply = None   # nothing of this reply after its safe line
            says.append(SayOut(verdict.text, REFUSED_EMOTION, say.session_id, say.turn_id,
                               rule_emotion=True))
            step.guardrails.append(event)
            step.gestures = []
            turn = (say.session_id, say.turn_id)
            thinking = Intent(REFUSED_EMOTION, REFUSED_INTENSITY, CONFIDENCE[SOURCE_HYBRID],
                              SOURCE_HYBRID,
                              REFUSED_REASON)
            step.intents = [i for i in step.intents if (i.session_id, i.turn_id) != turn]
            step.intents.append(IntentOut(thinking, say.session_id, say.turn_id))
            s = self.session
            if s is not None and s.history and s.history[-1].buddy_text == say.text:
                h = s.history[-1]
                s.history[-1] = HistoryTurn(h.user_text, verdict.text, REFUSED_EMOTION,
                                            h.topics)
        step.says = says
        return step

    def _hc9(self, now: float, match: DistressMatch, turn_id: int | None = None) -> Step:
        """HC-9 stop: the fixed gentle line, a calm intent, the event and the alert, and
        the session ends with END_HC9. No LLM call for this turn (§6.15)."""
        s = self.session
        assert s is not None
        turn = s.turns + 1 if turn_id is None else turn_id
        event, alert = self.safety.hc9(match, self.layer, s.session_id, turn)
        calm = Intent(CALM_EMOTION, CALM_INTENSITY, CONFIDENCE[SOURCE_HYBRID], SOURCE_HYBRID,
                      CALM_REASON)
        step = Step(intents=[IntentOut(calm, s.session_id, turn)],
                    says=[SayOut(HC9_LINE, CALM_EMOTION, s.session_id, turn,
                                        rule_emotion=True)],
                    guardrails=[event], alerts=[alert])
        merge(step, self._end(now, END_HC9))
        if self._idle_at is not None:
            self._idle_at += self._speech_duration(HC9_LINE)
        return step

    # --- a turn's answer ------------------------------------------------------------------
    def _answer_llm(self, now: float, s: Session, p: PendingTurn, result: CallResult) -> Step:
        resp = result.response
        assert resp is not None
        # HC-9 in layer 1 (DESIGN §6.15): the model saw distress the phrase list missed.
        distress = self.safety.distress_in_reply(resp.child_affect, resp.mood_reason,
                                                 resp.inner_thought)
        if distress is not None:
            return self._hc9(now, distress, p.turn_id)
        self.stats.dropped_parts += len(result.dropped)
        step = Step(notes=[f"dropped {d}" for d in result.dropped])
        hybrid = hybrid_intent(resp)
        if hybrid is not None:
            step.intents.append(IntentOut(hybrid, s.session_id, p.turn_id))
        post = post_intent(resp)
        if post is not None:
            step.intents.append(IntentOut(post, s.session_id, p.turn_id))
        step.gestures += [GESTURES[g] for g in resp.gestures]
        tags = self.safety.memory_tags(resp.memory_tags)   # issue 13 input hardening
        if tags:
            step.memories.append(MemoryOut(s.session_id, p.turn_id,
                                           tuple(memory_record(t) for t in tags)))
        for u in resp.intention_updates:
            outcome = s.intentions.apply(p.turn_id, u)
            step.notes.append(f"intention {u.operation} {u.type}: {outcome}")
        merge(step, self._answer(
            now, s, p.turn_id, p.text, resp.text, "llm",
            emotion=resp.emotion or self.mood, child_affect=resp.child_affect,
            topics=tags, failed_attempts=result.failed_attempts,
            dropped=len(result.dropped),
        ))
        return step

    def _answer_rules(self, now: float, s: Session, turn_id: int, text: str, source: str,
                      failed_attempts: int = 0) -> Step:
        """Layer 0 answers (no server, or it failed this turn; spec 002 §10 RS-9): the line,
        its emotion through the LLM's intent path, and memory tags where allowed (RS-5)."""
        a = self.layer0.answer(text, self.rng, s.session_id, self.identity.name_for_prompt(),
                               self.identity.memories_allowed())
        step = Step(intents=[IntentOut(rules_intent(a.emotion, a.intensity, a.mood_reason,
                                                    a.generic), s.session_id, turn_id)],
                    notes=[f"rules answered: {a.intent}"])
        if a.memory_tags:
            step.memories.append(MemoryOut(s.session_id, turn_id,
                                           tuple(memory_record(t) for t in a.memory_tags)))
        merge(step, self._answer(now, s, turn_id, text, a.text, source,
                                       emotion=a.emotion, child_affect=a.child_affect,
                                       topics=a.topics, failed_attempts=failed_attempts,
                                       gist="" if a.generic else a.intent))
        return step

    def _answer(
        self,
        now: float,
        s: Session,
        turn_id: int,
        user_text: str,
        reply: str,
        source: str,
        emotion: str | None = None,
        child_affect: str = "unclear",
        topics: tuple[str, ...] = (),
        failed_attempts: int = 0,
        dropped: int = 0,
        gist: str | None = None,
    ) -> Step:
        if source != "llm":
            self.stats.layer0_replies += 1
        new_topics = [t for t in topics if t not in s.topics_seen]
        s.topics_seen.update(topics)
        s.turns = turn_id
        # The summary's label for a turn without topics (context.HistoryTurn.gist): layer 0
        # already understood its own turns; the table is read again only for the others.
        if gist is None:
            gist = "" if topics else self.layer0.gist(user_text)
        s.history.append(HistoryTurn(user_text, reply, emotion or self.mood, tuple(topics),
                                     gist=gist))
        # A line still playing (a filler) delays the answer, which queues behind it: the
        # answer's own voice then says when Buddy stops (on_tts_speaking).
        s.answer_voiced = False
        s.speaking_until = now + (VOICE_HOLD_S if self._voice else self._speech_duration(reply))
        signal = governor_signal(TurnOutcome(
            source=source, child_affect=child_affect, new_topics=len(new_topics),
            session_elapsed_s=now - s.started_at, session_limit_s=self.config.session_limit_s,
            failed_attempts=failed_attempts, dropped_parts=dropped,
        ))
        step = Step(says=[SayOut(reply, self.mood, s.session_id, turn_id)],
                    signals=[SignalOut(signal, s.session_id)])
        return self._set_phase(step, PHASE_SPEAKING)

    def _speech_duration(self, text: str) -> float:
        words = max(1, len(text.split()))
        return words / max(0.5, self.config.speech_rate_wps) + self.config.speech_pad_s
