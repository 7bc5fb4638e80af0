"""The llm_bridge node's parameters (ParamSpecs) and what they build: the bridge core,
the LLM client and the guard model's client. config/robot.yaml is checked against this
table."""

from __future__ import annotations

import random
from typing import Any

from buddy_personality.cognition.bridge import BridgeConfig, BridgeCore
from buddy_personality.cognition.client import ClientConfig, LlmClient
from buddy_personality.cognition.gate import GateConfig
from buddy_personality.cognition.guard import (
    BACKEND_LLAMA_GUARD,
    BACKENDS,
    GuardClient,
    GuardConfig,
)
from buddy_personality.cognition.health import HealthConfig
from buddy_personality.cognition.session_ids import (
    seeded_session_ids,
    session_id_rng,
    unique_session_ids,
)
from buddy_personality.cognition.turn_deadline import TurnDeadline
from buddy_personality.nodes.common.parameters import ParamSpec
from buddy_personality.safety.alerts import DEFAULT_ALERT_LOG

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("server_url", "", "OpenAI-compatible server base URL (…/v1); empty = layer 0",
              read_only=True),
    ParamSpec("model", "Qwen/Qwen3-8B-Instruct-AWQ", "model name (spec 002 §12.1)",
              read_only=True),
    ParamSpec("request_timeout_s", 8.0, "timeout of one LLM request attempt", min=0.1,
              max=120.0, read_only=True),
    ParamSpec("connect_timeout_s", 2.0, "TCP connect timeout", min=0.05, max=60.0,
              read_only=True),
    ParamSpec("stream", True, "stream answers (INLINE emotion as soon as it is complete)",
              read_only=True),
    ParamSpec("guided", True, "send the JSON schema as response_format (guided decoding)",
              read_only=True),
    ParamSpec("disable_thinking", True, "ask a Qwen3 server not to think aloud "
              "(vLLM chat_template_kwargs)", read_only=True),
    ParamSpec("retry_backoff_s", 0.25, "pause before a retry", min=0.0, max=10.0,
              read_only=True),
    ParamSpec("offline_after_failures", 2, "failed calls in a row that switch to layer 0",
              min=1, max=100, read_only=True),
    ParamSpec("probe_interval_s", 15.0, "server probe period while offline", min=0.5,
              max=3600.0, read_only=True),
    ParamSpec("wake_phrase", "hey buddy", "utterance prefix that starts a session",
              read_only=True),
    ParamSpec("silence_timeout_s", 30.0, "end the session after this much silence",
              min=1.0, max=3600.0, read_only=True),
    ParamSpec("session_limit_s", 900.0, "RS-1 limit, for the governor's urgency signal",
              min=1.0, max=86400.0, read_only=True),
    ParamSpec("speech_rate_wps", 2.5, "words per second, to estimate when speech ends",
              min=0.5, max=10.0, read_only=True),
    ParamSpec("lockout_s", 21600.0, "RS-2 lockout length, renewed by every RS-2 event",
              min=1.0, max=172800.0, read_only=True),
    ParamSpec("energy_axis", 0.40, "personality energy axis, rendered in words",
              min=0.0, max=1.0, read_only=True),
    ParamSpec("gate.w_salience", 0.5, "spec 003 §3.3 w1", min=0.0, max=10.0, read_only=True),
    ParamSpec("gate.w_pressure", 0.1, "spec 003 §3.3 w2", min=0.0, max=10.0, read_only=True),
    ParamSpec("gate.w_arc", 0.1, "spec 003 §3.3 w3", min=0.0, max=10.0, read_only=True),
    ParamSpec("gate.w_stakes", 0.2, "spec 003 §3.3 w4", min=0.0, max=10.0, read_only=True),
    ParamSpec("gate.w_energy", 0.2, "spec 003 §3.3 w5", min=0.0, max=10.0, read_only=True),
    ParamSpec("gate.threshold", 0.25, "spec 003 §3.4 cognition threshold", min=-10.0,
              max=10.0, read_only=True),
    ParamSpec("gate.cooldown_s", 1.0, "spec 003 §3.4 cognition cooldown", min=0.0,
              max=600.0, read_only=True),
    ParamSpec("filler_after_s", 2.5, "say a short filler when the server has not answered "
              "after this long (issue 19)", min=0.1, max=60.0, read_only=True),
    ParamSpec("turn_deadline_s", 7.0, "give up on the server and answer from layer 0 after "
              "this long; also the whole request's deadline", min=0.2, max=120.0,
              read_only=True),
    ParamSpec("tick_hz", 1.0, "slowest tick: the bridge wakes at its next deadline "
              "(filler, turn deadline, end of speech, silence, probe, held signals) and at "
              "least this often", min=0.1, max=100.0, read_only=True),
    ParamSpec("seed", 0, "seed of the session-id RNG", min=0, max=2**31 - 1, read_only=True),
    ParamSpec("alert_log_path", DEFAULT_ALERT_LOG, "HC-9 alert log for the parent dashboard "
              "(JSON lines, docs/SAFETY.md); empty = no log", read_only=True),
    ParamSpec("household_path", "~/.local/share/buddy/household.json", "household file, "
              "read only for the names a child may introduce themself with (erratum 17); "
              "the identity node owns it; empty = no known names", read_only=True),
    ParamSpec("guard_model", "", "guard model that checks every LLM reply sentence by "
              "sentence and the child's line for HC-9 (issue 27; e.g. "
              "meta-llama/Llama-Guard-3-1B); empty = none (a problem line while layer 1 "
              "is on)", read_only=True),
    ParamSpec("guard_url", "", "OpenAI-compatible base URL (…/v1) of the guard model; "
              "empty = server_url", read_only=True),
    ParamSpec("guard_backend", BACKEND_LLAMA_GUARD, "how the guard is asked: llama_guard "
              "(chat completions, Buddy's rules as its categories) or moderations "
              "(/v1/moderations)", choices=BACKENDS, read_only=True),
    ParamSpec("warm_safety_rules_after_s", 30.0, "compile the local safety rules still "
              "pending this long after start, in a background thread, so the first replies "
              "are checked as fast as the rest (issue 27: p99 under 1 ms; ~6 s of CPU, "
              "after the start-up's own load)", min=0.0, max=3600.0, read_only=True),
    ParamSpec("learned_lexicon", True, "the output guard's learned lexicon (docs/SAFETY.md): "
              "a second local check after the concept rules that can add a refusal, never "
              "lift one; false = the rules alone", read_only=True),
    ParamSpec("guard_deadline_s", 1.5, "a verdict later than this counts as GUARD "
              "UNAVAILABLE: the line is not spoken, layer 0 answers", min=0.05, max=30.0,
              read_only=True),
)


def build_core(p: dict[str, Any], sim_time: bool) -> BridgeCore:
    """The bridge core from the node's parameters."""
    url = p["server_url"].strip()
    rng = random.Random(p["seed"])
    # Issue 31 item 2: session ids unique across processes and boots, never from the
    # seeded RNG; under sim time (a replay or a simulated run) seeded ones from an RNG
    # of their own, so a golden bag replays the ids it recorded and the reply variants
    # (drawn from `rng`) depend only on the seed and the inputs, live or replayed
    # (issue 30 item 4: a live recording replays with the same variants).
    return BridgeCore(
        rng,
        server_configured=bool(url),
        config=BridgeConfig(
            wake_phrase=p["wake_phrase"], silence_timeout_s=p["silence_timeout_s"],
            session_limit_s=p["session_limit_s"], speech_rate_wps=p["speech_rate_wps"],
            lockout_s=p["lockout_s"], energy_axis=p["energy_axis"],
            turn=TurnDeadline(filler_after_s=p["filler_after_s"],
                              answer_by_s=p["turn_deadline_s"]),
            guard_enabled=bool(url and p["guard_model"].strip()),
            guard_deadline_s=p["guard_deadline_s"],
            learned_lexicon=p["learned_lexicon"],
        ),
        gate=GateConfig(
            w_salience=p["gate.w_salience"], w_pressure=p["gate.w_pressure"],
            w_arc=p["gate.w_arc"], w_stakes=p["gate.w_stakes"],
            w_energy=p["gate.w_energy"], threshold=p["gate.threshold"],
            cooldown_s=p["gate.cooldown_s"],
        ),
        health=HealthConfig(offline_after_failures=p["offline_after_failures"],
                            probe_interval_s=p["probe_interval_s"]),
        session_ids=(seeded_session_ids(session_id_rng(p["seed"])) if sim_time
                     else unique_session_ids()),
    )


def build_client(p: dict[str, Any]) -> LlmClient | None:
    """The LLM client, or None without a server (layer 0 only)."""
    url = p["server_url"].strip()
    if not url:
        return None
    return LlmClient(ClientConfig(
        base_url=url, model=p["model"], connect_timeout_s=p["connect_timeout_s"],
        read_timeout_s=p["request_timeout_s"],
        request_timeout_s=p["request_timeout_s"], stream=p["stream"],
        guided=p["guided"], retry_backoff_s=p["retry_backoff_s"],
        disable_thinking=p["disable_thinking"],
    ))


def build_guard(p: dict[str, Any]) -> GuardClient | None:
    """The guard model (issue 27): on the chat server unless guard_url names another;
    None without a server or without a guard model."""
    url = p["server_url"].strip()
    guard_model = p["guard_model"].strip()
    if not (url and guard_model):
        return None
    return GuardClient(GuardConfig(
        base_url=p["guard_url"].strip() or url, model=guard_model,
        backend=p["guard_backend"], deadline_s=p["guard_deadline_s"],
        connect_timeout_s=min(p["connect_timeout_s"], p["guard_deadline_s"])))
