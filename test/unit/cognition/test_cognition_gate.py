"""The cognition gate (spec 003 §3.3-§3.4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from buddy_personality.cognition.gate import (
    ARC_HOT,
    EVENT_SYSTEM,
    EVENT_UTTERANCE,
    CognitionGate,
    GateConfig,
    GateInputs,
    is_trivial_utterance,
)


def utter(text: str = "I like dinosaurs", **kw: float | str | bool) -> GateInputs:
    return GateInputs(kind=EVENT_UTTERANCE, in_session=True, text=text, **kw)  # type: ignore[arg-type]


def test_meaningfulness_is_the_weighted_sum_of_spec_003_3_3() -> None:
    cfg = GateConfig(w_salience=0.5, w_pressure=0.1, w_arc=0.1, w_stakes=0.2, w_energy=0.2)
    gate = CognitionGate(cfg)
    ev = utter(pressure_max=0.5, arc="peak", rel_stakes=0.6, energy=0.25)
    expected = 0.5 * 1.0 + 0.1 * 0.5 + 0.1 * ARC_HOT["peak"] + 0.2 * 0.6 - 0.2 * (1 - 0.25)
    assert gate.meaningfulness(ev) == pytest.approx(expected)


@pytest.mark.parametrize("text", ["", "   ", "...", "um", "Uh, hmm...", "mm mhm", "?!"])
def test_trivial_utterances(text: str) -> None:
    assert is_trivial_utterance(text)
    d = CognitionGate().decide(0.0, utter(text))
    assert (d.call, d.reason) == (False, "trivial")


@pytest.mark.parametrize("text", ["no", "ok", "um, dinosaurs", "why?", "5"])
def test_short_but_meaningful_utterances_are_not_trivial(text: str) -> None:
    assert not is_trivial_utterance(text)


@given(
    pressure=st.floats(0, 1), arc=st.sampled_from(sorted(ARC_HOT)),
    stakes=st.floats(0, 1), energy=st.floats(0, 1),
)
def test_by_default_a_childs_utterance_in_a_session_always_qualifies(
    pressure: float, arc: str, stakes: float, energy: float
) -> None:
    d = CognitionGate().decide(0.0, utter(pressure_max=pressure, arc=arc, rel_stakes=stakes,
                                           energy=energy))
    assert d.call and d.reason == "ok"


@given(weight=st.floats(0, 10), in_session=st.booleans())
def test_system_events_never_qualify_pe5(weight: float, in_session: bool) -> None:
    gate = CognitionGate(GateConfig(w_salience=weight, threshold=0.0))
    d = gate.decide(0.0, GateInputs(kind=EVENT_SYSTEM, in_session=in_session))
    assert not d.call and d.reason == "no_choice"


def test_utterance_outside_a_session_has_no_choice() -> None:
    d = CognitionGate().decide(0.0, GateInputs(kind=EVENT_UTTERANCE, in_session=False,
                                                text="hello"))
    assert d.reason == "no_choice"


def test_threshold_is_a_parameter() -> None:
    gate = CognitionGate(GateConfig(threshold=0.9))
    assert gate.decide(0.0, utter(energy=1.0)).reason == "below_threshold"


def test_cooldown_holds_then_releases() -> None:
    gate = CognitionGate(GateConfig(cooldown_s=2.0))
    assert gate.decide(10.0, utter()).call
    assert gate.decide(11.9, utter()).reason == "cooldown"
    # A refused event does not restart the cooldown.
    assert gate.decide(12.0, utter()).call
    # Trivial events don't consume the cooldown either.
    assert gate.decide(14.5, utter("um")).reason == "trivial"
    assert gate.decide(14.5, utter()).call
