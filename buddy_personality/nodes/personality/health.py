"""The personality node's diagnostics (`/diagnostics`, 1 Hz): the engine's state and
counters, the node's own counters, the rejected inputs; WARN with the newest warning
(a state file not written, a bad file set aside) or the RS-2 lockout line."""

from __future__ import annotations

from buddy_personality.nodes.common.diagnostics import OK, WARN, Health
from buddy_personality.nodes.common.rejections import RejectionLog
from buddy_personality.personality.engine import PersonalityEngine
from buddy_personality.personality.records import IDLE_STATE_NAMES


def personality_health(e: PersonalityEngine, node_values: dict[str, object],
                       rejections: RejectionLog, lockout: str | None) -> Health:
    """`node_values`: the node's own counters (ticks, events, fast path); `lockout`: the
    RS-2 line while today's talk is used up (daily_limit_words.py), else None."""
    stats = e.stats
    values: dict[str, object] = {
        "mood": e.mood,
        "intensity": f"{e.intensity:.2f}",
        "valence": f"{e.valence:.3f}",
        "arousal": f"{e.arousal:.3f}",
        "tonic_valence": f"{e.tonic_valence:.3f}",
        "tonic_arousal": f"{e.tonic_arousal:.3f}",
        "layer": e.layer,
        "conversation_active": e.conversation_active,
        "idle_state": IDLE_STATE_NAMES.get(e.idle_state, "?"),
        "session_s": f"{e.usage.session_s:.0f}",
        "last_end_reason": e.last_end_reason,
        # issue 31 item 2: a new session over a running one (a restarted bridge)
        "sessions_taken_over": stats.sessions_taken_over,
        # a session whose STARTED was lost, started by its first intent (RS-1/RS-2 count it)
        "sessions_started_by_intent": stats.sessions_started_by_intent,
        "daily_conversation_s": f"{e.usage.daily_s:.0f}",
        # RS-1 / RS-2 in force: the configured limits, or today's lowered ones
        "session_limit_s": f"{e.session_limit_s:.0f}",
        "daily_limit_s": f"{e.daily_limit_s:.0f}",
        "limits_lowered_today": (e.usage.lowered_session_s is not None
                                 or e.usage.lowered_daily_s is not None),
        "memory.size": len(e.memory),
        # DESIGN §5: a corrupt state file is moved aside; counted here (issue 14)
        "state_files.set_aside.memory": e.memory.set_aside,
        "state_files.set_aside.usage": e.usage.set_aside,
        "memory.consent_active": e.memory_writable,
        **node_values,
    }
    for prefix, counter in (("impulses", stats.impulses_by_source),
                            ("gate", stats.gate_rejections),
                            ("guardrails", stats.guardrail_triggers),
                            ("memory.refused", stats.memory_refusals),
                            ("resumed", stats.resumed),
                            # intents before their session's STARTED (issue 30 item 2)
                            ("early_intents", stats.early_intents)):
        values.update({f"{prefix}.{k}": n for k, n in sorted(counter.items())})
    values.update({f"write_errors.{k}": n for k, n in sorted(stats.write_errors.items())})
    values.update(rejections.as_values())
    level, message = OK, f"{e.mood} ({'talking' if e.conversation_active else 'idle'})"
    if e.warnings:
        level, message = WARN, f"{message}; {e.warnings[-1]}"
    if lockout:
        level, message = WARN, lockout
    return Health(level=level, message=message, values=values)
