"""`buddy eval`: the simulated day, the bag reader, the report, the plot and the CLI."""

from __future__ import annotations

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


def test_the_day_has_ten_served_sessions_and_three_on_layer_0(day: sim_day.SimDay) -> None:
    sessions = metrics.sessions(day.samples)
    assert len(sessions) == day.sessions_planned == 13
    layers = [metrics.session_layer(ses) for ses in sessions]
    assert layers.count(metrics.LAYER_LLM) == metrics.CV_SESSIONS
    assert layers.count(metrics.LAYER_RULES) == 3


def test_the_server_is_down_for_the_afternoon_stretch(day: sim_day.SimDay) -> None:
    start, stop = day.server_down
    assert abs(start - (sim_day.DAY_START + 5.5 * HOUR)) <= 300
    assert abs(stop - (sim_day.DAY_START + 10.0 * HOUR)) <= 300
    inside = [x for x in day.samples if start + 1 < x.t < stop]
    assert inside and all(x.layer == metrics.LAYER_RULES for x in inside)
    before = [x for x in day.samples if sim_day.DAY_START + 60 < x.t < start]
    assert all(x.layer == metrics.LAYER_LLM for x in before)


def test_the_day_exercises_the_guardrails_it_is_meant_to(day: sim_day.SimDay) -> None:
    # LLM intents, L0 impulses from system events, speech and buttons all reached the engine
    sources = day.engine_stats["impulses_by_source"]
    for source in ("ai_emotion", "system_event", "speech_signal", "button", "idle_rule"):
        assert sources.get(source, 0) > 0, source
    assert day.engine_stats["gate_rejections"].get("low_confidence", 0) > 0


def test_the_same_seed_gives_the_same_day() -> None:
    a = sim_day.simulate_day(7, duration_s=3 * 3600)
    b = sim_day.simulate_day(7, duration_s=3 * 3600)
    assert a.samples == b.samples
    c = sim_day.simulate_day(8, duration_s=3 * 3600)
    assert c.samples != a.samples


# ----------------------------------------------------------------- report
def test_report_has_the_issue_keys_and_pass_flags(day: sim_day.SimDay) -> None:
    report = evaluate.evaluate(day.samples)
    for key in ("mood_cv", "arc_smoothness", "idle_aliveness", "idle_switches_per_min"):
        assert isinstance(report[key], float) and not math.isnan(report[key])
        assert isinstance(report["pass"][key], bool)
    assert 0.0 <= report["idle_aliveness"] <= 1.0
    assert report["mood_cv_sessions"] == 10
    assert report["layer0"]["sessions"] == 3
    assert report["layer0"]["minutes"] > 4 * 60


def test_pass_flags_follow_the_a2_thresholds() -> None:
    # spec 002 A.2: CV < 0.30, arc < 5.0, idle aliveness > 15 %, switches < 0.5 / min
    assert evaluate.passes(0.29, "<", metrics.CV_MAX) is True
    assert evaluate.passes(0.30, "<", metrics.CV_MAX) is False
    assert evaluate.passes(0.16, ">", metrics.IDLE_ALIVENESS_MIN) is True
    assert evaluate.passes(0.15, ">", metrics.IDLE_ALIVENESS_MIN) is False
    assert evaluate.passes(math.nan, "<", 1.0) is None
    assert (metrics.CV_MAX, metrics.ARC_SMOOTHNESS_MAX, metrics.IDLE_ALIVENESS_MIN,
            metrics.IDLE_SWITCHES_PER_MIN_MAX) == (0.30, 5.0, 0.15, 0.5)


def test_json_has_no_nan() -> None:
    tl = [metrics.Sample(0, "neutral", 0, 0, False), metrics.Sample(1, "neutral", 0, 0, False)]
    report = evaluate._jsonable(evaluate.evaluate(tl))
    text = json.dumps(report, allow_nan=False)  # raises on NaN
    assert json.loads(text)["mood_cv"] is None  # no sessions: undefined, not 0


def test_cli_json_prints_one_object(capsys) -> None:
    assert buddy_main(["eval", "--simulate-day", "--seed", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["source"] == "simulated day, seed 1"
    assert report["pass"]["idle_switches_per_min"] is True


def test_cli_needs_a_bag_or_the_simulated_day(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        evaluate.main([])
    assert exc.value.code == 2
    assert evaluate.main(["/nonexistent/bag"]) == 2
    assert "no bag at" in capsys.readouterr().err


def test_table_shows_thresholds_and_results() -> None:
    from rich.console import Console

    tl = [metrics.Sample(0, "neutral", 0, 0, False), metrics.Sample(60, "happy", 0, 0, False),
          metrics.Sample(120, "happy", 0, 0, False)]
    console = Console(width=120, record=True)
    console.print(evaluate.render_table(evaluate.evaluate(tl), "t"))
    text = console.export_text()
    assert "50.0%" in text and "> 15%" in text and "pass" in text  # idle aliveness 60/120
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
                       0.0, 0.0, x.layer, x.conversation_active, 0)
            writer.write(conn, sec * 10**9 + ns, store.serialize_cdr(msg, snap.__msgtype__))


def test_a_bag_reads_back_as_the_same_timeline(tmp_path: Path, capsys) -> None:
    day = sim_day.simulate_day(3, duration_s=2 * 3600)
    write_snapshot_bag(tmp_path / "bag", day.samples)
    back = read_snapshots(tmp_path / "bag")
    assert len(back) == len(day.samples)
    for a, b in zip(back, day.samples, strict=True):
        assert (a.mood, a.conversation_active, a.layer) == (b.mood, b.conversation_active,
                                                            b.layer)
        assert a.t == pytest.approx(b.t, abs=1e-6)
        assert (a.valence, a.arousal) == (b.valence, b.arousal)
    assert buddy_main(["eval", str(tmp_path / "bag"), "--json"]) == 0
    from_bag = json.loads(capsys.readouterr().out)
    direct = evaluate._jsonable(evaluate.evaluate(day.samples))
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
    out = plot_timeline(tl, tmp_path / "sub" / "eval.png", title="t")
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
