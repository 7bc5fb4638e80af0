"""The personality node's parameters (ParamSpecs; config/robot.yaml is checked against
this table) and what they configure: the §9.5 guardrail config and the state files' paths.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from buddy_personality.nodes.common.parameters import ParamSpec
from buddy_personality.personality.guardrails import GuardrailConfig

AXIS_DEFAULTS = {  # spec 002 §1.1 canonical axis positions (PE-4: fixed)
    "energy": 0.40,
    "reactivity": 0.50,
    "initiative": 0.30,
    "vulnerability": 0.35,
    "predictability": 0.75,
}

PARAMETERS: tuple[ParamSpec, ...] = (
    *(
        ParamSpec(f"axes.{axis}", value, f"{axis} axis position (spec 002 §1.1); fixed at "
                  "runtime (PE-4)", min=0.0, max=1.0, read_only=True)
        for axis, value in AXIS_DEFAULTS.items()
    ),
    ParamSpec("guardrails.negative_duration_caps", True, "spec 002 §9.1 duration caps",
              read_only=True),
    ParamSpec("guardrails.negative_intensity_caps", True, "spec 002 §9.1 intensity caps",
              read_only=True),
    ParamSpec("guardrails.context_gate", True, "spec 002 §9.2 context gate (HC-10)",
              read_only=True),
    ParamSpec("guardrails.session_time_limit_s", 900.0, "RS-1 session limit, seconds",
              min=1.0, max=86400.0, read_only=True),
    ParamSpec("guardrails.daily_time_limit_s", 2700.0, "RS-2 daily limit, seconds",
              min=1.0, max=86400.0, read_only=True),
    ParamSpec("memory_path", "~/.local/share/buddy/personality_memory.json",
              "JSON memory store (spec 002 §8.4)", read_only=True),
    ParamSpec("usage_path", "", "JSON daily conversation counter (RS-2); empty = "
              "personality_usage.json next to memory_path", read_only=True),
    ParamSpec("state_path", "", "JSON personality state (affect, idle state, session) that a "
              "restart resumes; empty = personality_state.json next to memory_path",
              read_only=True),
    ParamSpec("seed", 0, "seed of the engine's RNG (noise, jitter)", min=0, max=2**31 - 1,
              read_only=True),
    ParamSpec("tick_hz", 1.0, "engine tick rate (spec 002 §10, PE-10)", min=0.1, max=50.0,
              read_only=True),
    ParamSpec("dev_mode", False, "enables set_guardrail and override_affect", read_only=True),
)


def guardrail_config(p: dict[str, Any]) -> GuardrailConfig:
    """spec 002 §9.5 guardrail config from the (read-only) parameters."""
    return GuardrailConfig(
        negative_duration_caps=p["guardrails.negative_duration_caps"],
        negative_intensity_caps=p["guardrails.negative_intensity_caps"],
        context_gate=p["guardrails.context_gate"],
        session_time_limit_s=p["guardrails.session_time_limit_s"],
        daily_time_limit_s=p["guardrails.daily_time_limit_s"],
    )


def state_paths(p: dict[str, Any]) -> tuple[Path | None, Path | None, Path | None]:
    """The memory, usage (RS-2) and resume state files; an empty usage or state path is
    the file of that name next to the memory file (none without a memory file)."""
    memory_path = Path(p["memory_path"]).expanduser() if p["memory_path"] else None
    usage_path: Path | None
    if p["usage_path"]:
        usage_path = Path(p["usage_path"]).expanduser()
    elif memory_path is not None:
        usage_path = memory_path.with_name("personality_usage.json")
    else:
        usage_path = None
    state_path = (Path(p["state_path"]).expanduser() if p["state_path"] else
                  memory_path.with_name("personality_state.json") if memory_path else None)
    return memory_path, usage_path, state_path
