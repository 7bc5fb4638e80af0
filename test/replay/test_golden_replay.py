"""The golden bags (test/data/, written by `make golden`) replay identically, and a
replay fails, naming the topic, when engine behaviour changes (DESIGN §1.6).

Each replay runs the five nodes in this process under sim time at full speed (about
10 s for the 40-minute morning on a Raspberry-Pi-class core; 2 s for the layer-0 visit).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.ros

from buddy_personality.personality.impulses import L0_CATALOG, L0Rule  # noqa: E402
from buddy_personality.tools.bags.bag_compare import format_report  # noqa: E402
from buddy_personality.tools.bags.replay import main as replay_main  # noqa: E402
from buddy_personality.tools.bags.replay import replay_bag  # noqa: E402
from buddy_personality.tools.sim.scenarios.golden import GOLDEN, bag_path  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data"
LAYER0 = bag_path(DATA, "layer0_visit")


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_bag_replays_identically(name: str) -> None:
    result = replay_bag(bag_path(DATA, name))
    assert result.ok, format_report(result.report)
    compared = {t.topic: t.recorded for t in result.report.topics}
    # the outputs that carry the behaviour were recorded and compared, not skipped
    for topic in ("personality/snapshot", "personality/mood_changed", "tts/say",
                  "conversation/events", "governor/state"):
        assert compared.get(topic, 0) > 0, (topic, compared)
    assert result.warnings == []  # the bag carries its sim setup


def test_replay_exits_1_and_names_the_topic_when_the_seed_changes(capsys) -> None:
    """personality.seed drives the engine's noise (spec 002 §7.2): another seed, other
    snapshots from the first tick on."""
    rc = replay_main([str(LAYER0), "--set", "personality.seed=4", "--max-diffs", "2"])
    out = capsys.readouterr().out
    assert rc == 1, out
    assert "MISMATCH" in out
    assert "DIFFERS  personality/snapshot" in out
    # each difference names index, sim time, field path, recorded and replayed values
    assert re.search(r"#\d+ t=\+\d+\.\d{3}s  [a-z_.]+: recorded [-0-9.]+, replayed [-0-9.]+",
                     out), out


def test_replay_fails_at_the_event_whose_engine_rule_changed(monkeypatch) -> None:
    """Halve the critical-battery impulse (spec 002 §5.1 L0-03, 0.40): the replay agrees
    until the CRITICAL_BATTERY input at +260 s and differs from there on."""
    rule = L0_CATALOG["L0-03"]
    monkeypatch.setitem(L0_CATALOG, "L0-03", L0Rule(rule.rule_id, rule.target_valence,
                                                    rule.target_arousal, 0.20,
                                                    rule.cooldown_s, rule.source))
    result = replay_bag(LAYER0)
    assert not result.ok
    failed = {t.topic: t for t in result.report.failed}
    assert "personality/snapshot" in failed, format_report(result.report)
    first = failed["personality/snapshot"].mismatches[0]
    assert first.t - result.setup.start_s == pytest.approx(260.0)
    assert first.path in ("arousal", "valence", "intensity", "tonic_arousal")
    # what happened before the battery event is untouched
    assert result.report.topics[0].topic == "consent/state" and result.report.topics[0].ok
    assert {t.topic: t.ok for t in result.report.topics}["tts/say"]
