"""What decides a sim run's outputs besides its inputs (sim_graph.py): the `SimSetup`
stored in every bag the sim writes, and what it makes of it, the per-node parameters of
the graph (`graph_overrides`) and the RS-2 counter of earlier sessions today
(`seed_daily_usage`)."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# 2026-03-02 08:00:00 UTC, a Monday morning: the default start of a scenario.
DEFAULT_START_S = 1772438400.0


@dataclass(slots=True)
class SimSetup:
    """Everything besides the inputs that decides the outputs: stored in every bag the
    sim writes (custom_data `buddy.sim_setup`), so replay rebuilds the same graph."""

    start_s: float = DEFAULT_START_S
    seed: int = 0                 # personality.seed and llm_bridge.seed
    tz: str = "UTC"               # local time zone while the graph runs ("" = the host's)
    daily_conversation_s: float = 0.0  # RS-2 counter at start (earlier sessions today)
    llm: str = ""                 # "" = layer 0; "scripted:<name>" = a built-in responder
    overrides: dict[str, dict[str, Any]] = field(default_factory=dict)
    params_file: str = ""         # "" = config/robot.yaml

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> SimSetup:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("sim setup is not a JSON object")
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


def seed_daily_usage(path: Path, start_s: float, daily_s: float) -> None:
    """Write the RS-2 counter file as if `daily_s` seconds were talked earlier today,
    through the engine's own UsageCounter (so the format is the engine's)."""
    from buddy_personality.personality.guardrails import UsageCounter  # noqa: PLC0415

    usage = UsageCounter(path, float(time.localtime(start_s).tm_gmtoff), start_s)
    usage.daily_s = float(daily_s)
    usage.save()


def graph_overrides(setup: SimSetup, state_dir: Path, llm_url: str) -> dict[str, dict[str, Any]]:
    """Per-node parameters of a sim graph: sim time, seeds, files under `state_dir`, the
    LLM URL, the simulated face board; then the setup's own overrides on top."""
    from buddy_personality.nodes.bringup import NODE_CLASSES  # noqa: PLC0415

    out: dict[str, dict[str, Any]] = {
        name: {"use_sim_time": True, "start_type_description_service": False}
        for name in NODE_CLASSES}
    out["personality"].update(seed=setup.seed, memory_path=str(state_dir / "memory.json"),
                              usage_path=str(state_dir / "usage.json"))
    out["identity"].update(profiles_path=str(state_dir / "household.json"))
    out["llm_bridge"].update(seed=setup.seed, server_url=llm_url,
                             alert_log_path=str(state_dir / "safety_alerts.jsonl"),
                             household_path=str(state_dir / "household.json"))
    out["face_driver"].update(port="sim")
    # No audio in the sim: the scenario runner stands in for the voice (tts/speaking) and
    # for the ears (speech/utterance).
    out["tts"].update(backend="none")
    out["asr"].update(server_url="", input_wav="")
    for node, params in setup.overrides.items():
        if node not in out:
            raise ValueError(f"override for unknown node {node!r} "
                             f"(one of {', '.join(NODE_CLASSES)})")
        out[node].update(params)
    return out
