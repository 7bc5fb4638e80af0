"""Guardrails (spec 002 §9): duration caps incl. SURPRISED, intensity caps, context gate,
RS-1 / RS-2 time limits, GuardrailConfig toggles (§9.5)."""

from __future__ import annotations

import json

import pytest

from buddy_personality.personality.engine import PersonalityEngine
from buddy_personality.personality.guardrails import MOOD_CAPS, GuardrailConfig
from buddy_personality.personality.moods import nearest_mood
from buddy_personality.personality.records import EngineOutput

from .conftest import T0, make_engine

WIDE = 1.0  # reactivity 1.0: P14 = 0.93, so SCARED and ANGRY are reachable at all
POINTS = {  # where override_affect lands after the range cap (a point of each mood)
    "sad": ((-0.6, -0.4), 0.5),
    "scared": ((-0.7, 0.65), WIDE),
    "angry": ((-0.6, 0.7), WIDE),
    "surprised": ((0.15, 0.8), 0.5),
}


def _mood_engine(mood: str, conversation: bool = True) -> tuple[PersonalityEngine, EngineOutput]:
    (v, a), reactivity = POINTS[mood]
    engine = make_engine(reactivity=reactivity)
    if conversation:
        engine.on_conversation_started(T0, "s1")
    out = engine.override_affect(T0, v, a)
    return engine, out


def test_spec_9_1_cap_table() -> None:
    assert {m: (c.max_duration_s, c.max_intensity, c.recovery_lambda)
            for m, c in MOOD_CAPS.items() if m != "surprised"} == {
        "sad": (4.0, 0.70, 0.50), "scared": (2.0, 0.60, 0.70), "angry": (2.0, 0.50, 0.70)}
    assert (MOOD_CAPS["surprised"].max_duration_s, MOOD_CAPS["surprised"].max_intensity) == (
        3.0, 0.8)


@pytest.mark.parametrize("mood", ["sad", "scared", "angry", "surprised"])
def test_duration_cap_ends_the_mood_at_its_cap(mood: str) -> None:
    """§9.1: shown at most max_duration_s, then a CAP-* recovery toward baseline."""
    engine, out = _mood_engine(mood)
    cap = MOOD_CAPS[mood]
    assert out.snapshot.mood == mood
    shown = [mood]
    events = []
    for s in range(1, 8):
        o = engine.tick(T0 + s)
        shown.append(o.snapshot.mood)
        events.extend(o.guardrail_events)
    n = int(cap.max_duration_s)
    assert shown[:n] == [mood] * n
    assert mood not in shown[n:]
    cap_events = [e for e in events if e.rule_id == cap.rule_id]
    assert len(cap_events) == 1
    assert cap_events[0].action == "recovery_impulse" and cap_events[0].stamp == T0 + n


def test_recovery_pulls_faster_than_plain_decay() -> None:
    capped, _ = _mood_engine("sad")
    plain, _ = _mood_engine("sad")
    plain.set_guardrail("negative_duration_caps", "false")
    for s in range(1, 8):
        capped.tick(T0 + s)
        plain.tick(T0 + s)
    baseline = capped.traits.baseline_valence
    assert abs(capped.valence - baseline) < abs(plain.valence - baseline)
    assert capped.mood != "sad" and nearest_mood(capped.valence, capped.arousal) != "sad"
    assert plain.mood == "sad"  # toggled off (§9.5): the mood is allowed to last


@pytest.mark.parametrize("mood", ["sad", "scared", "angry", "surprised"])
def test_intensity_cap(mood: str) -> None:
    """§9.1 RS-8: SAD 0.70, SCARED 0.60, ANGRY 0.50, SURPRISED 0.8."""
    _, out = _mood_engine(mood)
    cap = MOOD_CAPS[mood]
    assert out.snapshot.intensity == cap.max_intensity
    assert [e.rule_id for e in out.guardrail_events] == ["INTENSITY-" + mood.upper()]


def test_intensity_cap_toggle() -> None:
    (v, a), _ = POINTS["sad"]
    engine = make_engine()
    engine.set_guardrail("negative_intensity_caps", "false")
    engine.on_conversation_started(T0, "s1")
    assert engine.override_affect(T0, v, a).snapshot.intensity > 0.70


def test_context_gate_blocks_negative_moods_outside_a_conversation() -> None:
    """§9.2 HC-10."""
    engine, out = _mood_engine("sad", conversation=False)
    assert out.snapshot.mood == "neutral"
    assert [e.rule_id for e in out.guardrail_events] == ["HC-10"]
    assert engine.tick(T0 + 1).guardrail_events == ()  # reported once per episode


def test_context_gate_lets_negative_moods_through_in_a_conversation() -> None:
    _, out = _mood_engine("sad", conversation=True)
    assert out.snapshot.mood == "sad"


def test_context_gate_ends_with_the_conversation() -> None:
    engine, _ = _mood_engine("sad", conversation=True)
    out = engine.on_conversation_ended(T0 + 1, "s1")
    assert out.snapshot.mood == "neutral"


def test_rs1_session_limit_900_s() -> None:
    engine = make_engine()
    engine.on_conversation_started(T0, "s1")
    events = []
    for s in range(1, 901):
        events.extend(e for e in engine.tick(T0 + s).guardrail_events if e.rule_id == "RS-1")
    assert len(events) == 1 and events[0].stamp == T0 + 900
    assert events[0].action == "end_session"
    assert not engine.tick(T0 + 901).guardrail_events


def test_rs1_limit_is_configurable() -> None:
    engine = make_engine()
    engine.set_guardrail("session_time_limit_s", "10")
    engine.on_conversation_started(T0, "s1")
    hits = [s for s in range(1, 20) if engine.tick(T0 + s).guardrail_events]
    assert hits == [10]


def _talk(engine: PersonalityEngine, start: float, seconds: int, sid: str) -> list[str]:
    rules = [e.rule_id for e in engine.on_conversation_started(start, sid).guardrail_events]
    for s in range(1, seconds + 1):
        rules.extend(e.rule_id for e in engine.tick(start + s).guardrail_events)
    engine.on_conversation_ended(start + seconds, sid)
    return rules


def test_rs2_daily_limit_2700_s_and_refusal_afterwards() -> None:
    engine = make_engine()
    engine.set_guardrail("session_time_limit_s", "100000")
    assert "RS-2" not in _talk(engine, T0, 1500, "s1")
    rules = _talk(engine, T0 + 2000, 1300, "s2")
    assert rules.count("RS-2") == 1  # at 1200 s into the second session
    out = engine.on_conversation_started(T0 + 4000, "s3")
    assert [(e.rule_id, e.action) for e in out.guardrail_events] == [("RS-2", "refuse_session")]


def test_rs2_daily_counter_survives_a_restart_and_resets_at_local_midnight(tmp_path) -> None:
    usage = tmp_path / "usage.json"
    engine = make_engine(usage_path=usage)
    _talk(engine, T0, 600, "s1")
    saved = json.loads(usage.read_text())
    assert saved["version"] == 1 and saved["daily_conversation_s"] == pytest.approx(600.0)
    restarted = make_engine(T0 + 700, usage_path=usage)
    assert restarted.usage.daily_s == pytest.approx(600.0)
    # local midnight at UTC+2 is 22:00 UTC: 12 h after T0 (10:00 UTC)
    east = make_engine(T0 + 700, usage_path=usage, utc_offset_s=7200.0)
    assert east.usage.daily_s == pytest.approx(600.0)
    east.tick(T0 + 12 * 3600 - 1)
    assert east.usage.daily_s == pytest.approx(600.0)
    east.tick(T0 + 12 * 3600)
    assert east.usage.daily_s == 0.0


def test_rs2_lockout_is_lifted_at_local_midnight() -> None:
    """The daily limit (RS-2) is per local day: the new day announces the reset, so the
    LLM bridge accepts sessions again; a day without a lockout announces nothing."""
    engine = make_engine()
    engine.set_guardrail("session_time_limit_s", "100000")
    assert _talk(engine, T0, 2700, "s1").count("RS-2") == 1
    midnight = T0 + 14 * 3600  # T0 is 10:00 UTC; UTC offset 0
    resets = [(e.rule_id, e.action) for s in range(int(T0) + 2701, int(midnight) + 2)
              for e in engine.tick(float(s)).guardrail_events]
    assert resets == [("RS-2", "daily_reset")]
    quiet = [e for s in range(1, 86401, 60)
             for e in engine.tick(midnight + s).guardrail_events if e.rule_id == "RS-2"]
    assert quiet == []


def test_rs2_counter_from_another_day_is_not_carried_over(tmp_path) -> None:
    usage = tmp_path / "usage.json"
    _talk(make_engine(usage_path=usage), T0, 600, "s1")
    assert make_engine(T0 + 86400, usage_path=usage).usage.daily_s == 0.0


def test_corrupt_usage_file_is_moved_aside(tmp_path) -> None:
    usage = tmp_path / "usage.json"
    usage.write_text("{not json")
    engine = make_engine(usage_path=usage)
    # issue 31 item 4: a counter that may be today's is never read as 0 (RS-2 fail-safe)
    assert engine.usage.daily_s >= engine.daily_limit_s
    assert any("corrupt" in w for w in engine.warnings)
    assert list(tmp_path.glob("usage.json.corrupt-*"))


def test_guardrail_config_defaults_and_toggles() -> None:
    """§9.5: everything on by default; keys parsed from text; unknown keys refused."""
    cfg = GuardrailConfig()
    assert (cfg.negative_duration_caps, cfg.negative_intensity_caps, cfg.context_gate,
            cfg.session_time_limit_s, cfg.daily_time_limit_s, cfg.memory_consent_required) == (
        True, True, True, 900.0, 2700.0, True)
    cfg.set_value("context_gate", "false")
    cfg.set_value("daily_time_limit_s", "60")
    assert not cfg.context_gate and cfg.daily_time_limit_s == 60.0
    for key, value in [("hc_10", "false"), ("context_gate", "maybe"),
                       ("session_time_limit_s", "-5"), ("session_time_limit_s", "nan")]:
        with pytest.raises(ValueError):
            cfg.set_value(key, value)
