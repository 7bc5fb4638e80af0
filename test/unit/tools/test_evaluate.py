"""`buddy eval`: the simulated day, the bag reader, the report, the plot and the CLI."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from buddy_personality.tools.bags.bag_timeline import BagError, read_snapshots
from buddy_personality.tools.bags.typestore import buddy_typestore
from buddy_personality.tools.cli.cli import main as buddy_main
from buddy_personality.tools.evaluation import evaluate, metrics
from buddy_personality.tools.sim import sim_day

HOUR = 3600.0


@pytest.fixture(scope="module")
def day() -> sim_day.SimDay:
    return sim_day.simulate_day(1)


# ----------------------------------------------------------------- simulated day
def test_the_day_ticks_at_1_hz_for_24_hours(day: sim_day.SimDay) -> None:
    stamps = {x.t for x in day.samples}
    assert all(sim_day.DAY_START + k in stamps for k in range(1, sim_day.DAY_S + 1))
    assert min(stamps) == sim_day.DAY_START  # the boot event
    assert max(stamps) == sim_day.DAY_START + sim_day.DAY_S


def test_each_conversation_held_is_one_session(day: sim_day.SimDay) -> None:
    """DESIGN §6.14: one conversation of the corpus, one session; some on layer 0."""
    sessions = metrics.sessions(day.samples)
    assert len(sessions) == len(day.conversations) == day.sessions_planned >= 20
    layers = [metrics.session_layer(ses) for ses in sessions]
    assert layers.count(metrics.LAYER_LLM) >= metrics.CV_SESSIONS
    assert layers.count(metrics.LAYER_RULES) >= 1


def test_the_server_is_down_for_the_afternoon_stretch(day: sim_day.SimDay) -> None:
    """The bridge learns it the real way: calls fail, SERVER_OFFLINE, probes find it back."""
    start, stop = day.server_down
    assert abs(start - (sim_day.DAY_START + 5.5 * HOUR)) <= 300
    assert abs(stop - (sim_day.DAY_START + 10.0 * HOUR)) <= 300
    offline = [x.t for x in day.samples  # (at boot: layer 0 until the first probe answers)
               if x.layer == metrics.LAYER_RULES and x.t > sim_day.DAY_START + 60]
    assert offline and start < min(offline) and max(offline) < stop + 60
    before = [x for x in day.samples if sim_day.DAY_START + 60 < x.t < start]
    assert all(x.layer == metrics.LAYER_LLM for x in before)


def test_the_day_exercises_what_it_is_meant_to(day: sim_day.SimDay) -> None:
    # LLM intents, L0 impulses from system events, speech and buttons all reached the engine
    sources = day.engine_stats["impulses_by_source"]
    for source in ("ai_emotion", "system_event", "speech_signal", "button", "idle_rule"):
        assert sources.get(source, 0) > 0, source
    fired = day.engine_stats["idle_rules_fired"]
    assert fired.get("IDLE-03", 0) > 0 and fired.get("IDLE-04", 0) > 0
    assert day.replies > 100 and day.layer0_replies > 0
    assert len(day.speaking_starts) == day.replies


def test_every_reply_is_spoken_for_as_long_as_its_words_take(day: sim_day.SimDay) -> None:
    """TTS speaking on and off (L0-09) once per spoken line, never overlapping."""
    assert day.engine_stats["impulses_by_source"]["speech_signal"] <= day.replies + 30
    lines = sorted(day.voice)
    assert len(lines) >= day.replies
    assert all(e0 <= s1 for (_, e0, _), (s1, _, _) in itertools.pairwise(lines))
    words = {text: len(text.split()) for _, _, text in lines}
    assert all(end - start == pytest.approx(
        words[text] / sim_day.TTS_WORDS_PER_S + sim_day.TTS_PAD_S)
        for start, end, text in lines if end - start > 0.2)   # (cut lines are shorter)


def test_known_children_are_confirmed_and_greeted(day: sim_day.SimDay) -> None:
    """A `child` conversation: the name claim, Buddy's check, "yes" (DESIGN §6.17, the
    bridge's speaker rules); then the first reply greets by name, and in layer 1 the name
    reaches the model's prompt."""
    named = [c for c in sim_day.load_corpus() if c.child and c.id in day.conversations]
    assert len(day.greetings) == len(named) >= 3
    assert {g.name for g in day.greetings} == {c.child_name for c in named}
    assert all(g.addressed for g in day.greetings), day.greetings
    assert day.names_in_prompt and all(day.names_in_prompt)


KEYS = ("mood_cv", "arc_smoothness", "idle_aliveness", "idle_switches_per_min",
        "greeting_accuracy")


def test_the_default_day_meets_every_a2_indicator(day: sim_day.SimDay) -> None:
    """The issue's "Done when" for seed 1 (seeds 2-5 in the report; all run by the CLI)."""
    report = evaluate.evaluate(day.samples, day.speaking_starts, day.greetings,
                               safety_stops=day.safety_stops)
    assert not report["not_applicable"]
    # DESIGN §6.13 "Emotional consistency, CV < 0.30" with the others. The class CV sits
    # closest to its threshold (0.25-0.29 on seeds 1-5, docs/EVALUATION.md); on a slow
    # server (a filler before every answer) it is 0.31-0.34 and fails.
    expected = dict.fromkeys(KEYS, True)
    assert {k: report["pass"][k] for k in expected} == expected, {k: report[k] for k in KEYS}
    assert report["mood_cv_sessions"] >= metrics.CV_MIN_SESSIONS
    assert report["layer0"]["sessions"] >= 1
    assert report["idle_states"]["asleep"] > 0.5  # the night


def test_too_little_data_is_not_a_verdict() -> None:
    """DESIGN §6.13 via the issue: n/a (not a verdict) when a figure rests on too little
    data: a ten-minute timeline with one short session."""
    tl = [metrics.Sample(t, "neutral", 0.1, -0.05, 60 <= t < 120) for t in range(0, 600, 5)]
    report = evaluate.evaluate(tl, speaking_starts=[70.0, 90.0], greetings=[])
    assert set(report["not_applicable"]) == set(KEYS)
    assert all(report["pass"][k] is None for k in KEYS)
    assert evaluate.evaluate(tl)["not_applicable"]["arc_smoothness"] == (
        "no conversation phases in the source")


def test_pass_flags_follow_the_a2_thresholds() -> None:
    # spec 002 A.2: CV < 0.30, arc < 5.0, idle aliveness > 15 %, switches < 0.5 / min,
    # greeting accuracy > 80 %
    assert evaluate.passes(0.29, "<", metrics.CV_MAX) is True
    assert evaluate.passes(0.30, "<", metrics.CV_MAX) is False
    assert evaluate.passes(0.16, ">", metrics.IDLE_ALIVENESS_MIN) is True
    assert evaluate.passes(0.15, ">", metrics.IDLE_ALIVENESS_MIN) is False
    assert evaluate.passes(0.80, ">", metrics.GREETING_ACCURACY_MIN) is False
    assert evaluate.passes(math.nan, "<", 1.0) is None
    assert (metrics.CV_MAX, metrics.ARC_SMOOTHNESS_MAX, metrics.IDLE_ALIVENESS_MIN,
            metrics.IDLE_SWITCHES_PER_MIN_MAX, metrics.GREETING_ACCURACY_MIN) == (
        0.30, 5.0, 0.15, 0.5, 0.80)


def test_json_has_no_nan() -> None:
    tl = [metrics.Sample(0, "neutral", 0, 0, False), metrics.Sample(1, "neutral", 0, 0, False)]
    report = evaluate._jsonable(evaluate.evaluate(tl))
    text = json.dumps(report, allow_nan=False)  # raises on NaN
    assert json.loads(text)["mood_cv"] is None  # no sessions: undefined, not 0


def test_cli_json_prints_one_object_for_another_corpus(tmp_path: Path, capsys) -> None:
    """--conversations FILE: the same code runs any corpus (here the shipped one with the
    household children renamed: nothing may key on the shipped names)."""
    text = sim_day.DEFAULT_CORPUS.read_text()
    for old, new in (("leo", "ben"), ("Leo", "Ben"), ("mia", "zoe"), ("Mia", "Zoe")):
        text = text.replace(f'"{old}"', f'"{new}"').replace(f"{old},", f"{new},").replace(
            f"{old}!", f"{new}!").replace(f"{old}.", f"{new}.").replace(f"{old}?", f"{new}?")
    other = tmp_path / "renamed.jsonl"
    other.write_text(text)
    assert buddy_main(["eval", "--simulate-day", "--seed", "2", "--conversations",
                       str(other), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["source"] == "simulated day, seed 2" and report["corpus"] == str(other)
    assert report["greeting_sessions"] >= 3 and report["pass"]["greeting_accuracy"] is True
    assert all(report["pass"][k] for k in KEYS if k != "mood_cv")


def test_cli_needs_a_bag_or_the_simulated_day(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        evaluate.main([])
    assert exc.value.code == 2
    assert evaluate.main(["/nonexistent/bag"]) == 2
    assert "no bag at" in capsys.readouterr().err


def test_table_shows_thresholds_and_results() -> None:
    from rich.console import Console

    tl = [metrics.Sample(0, "neutral", 0, 0, False),
          metrics.Sample(1200, "happy", 0, 0, False), metrics.Sample(2400, "happy", 0, 0, False)]
    console = Console(width=120, record=True)
    console.print(evaluate.render_table(evaluate.evaluate(tl), "t"))
    text = console.export_text()
    assert "50.0%" in text and "> 15%" in text and "pass" in text  # idle aliveness 20/40 min
    assert "< 0.5" in text


# ----------------------------------------------------------------- bags
def write_snapshot_bag(path: Path, samples: list[metrics.Sample],
                       topic: str = "/buddy/personality/snapshot") -> None:
    from rosbags.rosbag2 import StoragePlugin, Writer

    store = buddy_typestore()
    snap = store.types["buddy_msgs/msg/PersonalitySnapshot"]
    header = store.types["std_msgs/msg/Header"]
    stamp = store.types["builtin_interfaces/msg/Time"]
    with Writer(path, version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        conn = writer.add_connection(topic, snap.__msgtype__, typestore=store)
        for x in samples:
            sec = int(x.t)
            ns = round((x.t - sec) * 1e9)
            msg = snap(header(stamp(sec, ns), ""), x.mood, x.intensity, x.valence, x.arousal,
                       0.0, 0.0, x.layer, x.conversation_active, x.idle_state)
            writer.write(conn, sec * 10**9 + ns, store.serialize_cdr(msg, snap.__msgtype__))


def test_a_bag_reads_back_as_the_same_timeline(tmp_path: Path, capsys) -> None:
    day = sim_day.simulate_day(3, duration_s=2 * 3600)
    write_snapshot_bag(tmp_path / "bag", day.samples)
    back = read_snapshots(tmp_path / "bag")
    assert len(back) == len(day.samples)
    for a, b in zip(back, day.samples, strict=True):
        assert (a.mood, a.conversation_active, a.layer, a.idle_state) == (
            b.mood, b.conversation_active, b.layer, b.idle_state)
        assert a.t == pytest.approx(b.t, abs=1e-6)
        assert (a.valence, a.arousal) == (b.valence, b.arousal)
    assert buddy_main(["eval", str(tmp_path / "bag"), "--json"]) == 0
    from_bag = json.loads(capsys.readouterr().out)
    direct = evaluate._jsonable(evaluate.evaluate(day.samples))  # no phases in this bag
    for key in ("mood_cv", "arc_smoothness", "idle_aliveness", "idle_switches_per_min"):
        assert from_bag[key] == pytest.approx(direct[key], abs=1e-5) if direct[key] is not None \
            else from_bag[key] is None


def test_a_bag_without_snapshots_is_refused(tmp_path: Path) -> None:
    write_snapshot_bag(tmp_path / "bag", [metrics.Sample(1, "neutral", 0, 0, False)],
                       topic="/buddy/other")
    with pytest.raises(BagError, match="no buddy_msgs/msg/PersonalitySnapshot"):
        read_snapshots(tmp_path / "bag")


# ----------------------------------------------------------------- plot
def test_plot_writes_a_png(tmp_path: Path) -> None:
    from buddy_personality.tools.evaluation.eval_plot import plot_timeline

    tl = [metrics.Sample(0, "neutral", 0.1, -0.05, False),
          metrics.Sample(10, "happy", 0.6, 0.3, True),
          metrics.Sample(20, "curious", 0.4, 0.4, True, layer=0),
          metrics.Sample(30, "neutral", 0.1, 0.0, False, layer=0)]
    out = plot_timeline(tl, tmp_path / "sub" / "eval.png", title="t", speaking_starts=[12.0])
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_a_session_stopped_by_hc9_is_left_out_of_the_cv() -> None:
    """An HC-9 stop shows the calm face by rule (DESIGN §6.15): a safety stop, not the
    personality's expression, so the CV compares the other sessions."""
    tl: list[metrics.Sample] = []
    for k in range(6):
        t0 = k * 600.0
        second = "neutral" if k == 5 else "happy"
        tl += [metrics.Sample(t0, "neutral", 0.1, 0.0, True),
               metrics.Sample(t0 + 30, second, 0.5, 0.3, True),
               metrics.Sample(t0 + 60, "neutral", 0.1, 0.0, False)]
    assert evaluate.evaluate(tl)["mood_cv"] > 0.3
    stopped = evaluate.evaluate(tl, safety_stops=[5 * 600.0 + 60])
    assert stopped["mood_cv"] == pytest.approx(0.0) and stopped["mood_cv_sessions"] == 5
    assert stopped["sessions_stopped_by_hc9"] == 1
