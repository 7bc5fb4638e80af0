"""What a replay was built from, and why it diverged (issue 30 item 4, docs/REPLAY.md).

- `recorded_overrides`: the parameters `buddy record` asked the live graph's nodes for
  (custom_data `buddy.live_params`), as the sim graph's overrides: everything but what
  the sim owns (its clock, its files, its devices, the server it cannot reach).
- `parameter_changes`: the parameters a replay runs with that differ from the recording
  (`--set`, `--seed`).
- `explain`: the first diverging output in time (the rest usually follow from it), the
  input just before it, and the cause: a parameter when one differs; an input when the
  first divergence is an answer the replay never gave with no input in the bag before
  it; else the code (the same inputs and parameters gave another output).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from buddy_personality.tools.bags.bag_compare import CompareReport

LIVE_PARAMS_KEY = "buddy.live_params"   # written by record.Recorder
ANSWERS = ("conversation/events", "tts/say", "personality/ai_emotion")  # to a line
INPUT_WINDOW_S = 3.0   # live_timing.REACTION_WINDOW_S
# Parameters the sim graph sets itself (sim_graph.graph_overrides): the clock, the state
# files (a temporary directory), the face board, audio, the LLM server.
SIM_OWNED = frozenset({"use_sim_time", "start_type_description_service", "port",
                       "server_url", "backend", "input_wav", "guard_url", "tts_url"})
SIM_OWNED_SUFFIXES = ("_path", "_dir", "_file")


def sim_owned(name: str) -> bool:
    return (name in SIM_OWNED or name.endswith(SIM_OWNED_SUFFIXES)
            or name.startswith("qos_overrides."))


def recorded_overrides(custom_data: Mapping[str, str], nodes: Sequence[str]
                       ) -> dict[str, dict[str, Any]]:
    """The recorded parameters of the sim's nodes, without those the sim owns.
    Raises ValueError when the entry is not a JSON object of objects."""
    text = custom_data.get(LIVE_PARAMS_KEY)
    if not text:
        return {}
    data = json.loads(text)
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise ValueError(f"custom_data {LIVE_PARAMS_KEY} is not an object of objects")
    return {node: {k: v for k, v in params.items() if not sim_owned(k)}
            for node, params in data.items() if node in nodes}


def parameter_changes(recorded: Mapping[str, Mapping[str, Any]],
                      replayed: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """'node.param: recorded X, replayed Y' for every parameter set differently."""
    out = []
    for node in sorted(set(recorded) | set(replayed)):
        before, after = recorded.get(node, {}), replayed.get(node, {})
        for name in sorted(set(before) | set(after)):
            if name in after and before.get(name, "(default)") != after[name]:
                out.append(f"{node}.{name}: recorded {before.get(name, '(default)')!r}, "
                           f"replayed {after[name]!r}")
    return out


@dataclass(slots=True)
class Divergence:
    kind: str                     # "none", "parameter", "input" or "code"
    what: list[str] = field(default_factory=list)
    first_output: dict[str, Any] = field(default_factory=dict)
    after_input: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        if self.kind == "none":
            return "no divergence"
        f = self.first_output
        where = (f"first diverging output: {f['topic']} #{f['index']} at +{f['t']:.3f} s "
                 f"({f['path'] or f['kind']})")
        if self.after_input:
            where += f", after the input {self.after_input['topic']} " \
                     f"{self.after_input['what']!r} at +{self.after_input['t']:.3f} s"
        why = {"parameter": "because of a parameter: " + "; ".join(self.what),
               "input": "because of an input: " + "; ".join(self.what)}.get(
            self.kind, "with the same inputs and parameters: the code (or, for a recording "
                       "from another build or machine, its timing; docs/REPLAY.md)")
        return f"{where}\n{why}"


def explain(report: CompareReport, changes: list[str],
            inputs: Sequence[tuple[float, str, str]]) -> Divergence:
    """The first diverging output in time and why. `inputs`: (t, topic, what) relative
    to the report's t0, in time order."""
    firsts = [(m.t, t.topic, m) for t in report.topics for m in t.mismatches]
    if not firsts:
        return Divergence("none")
    t, topic, m = min(firsts, key=lambda x: x[0])
    first = {"topic": topic, "t": round(t - report.t0, 6), "index": m.index,
             "kind": m.kind, "path": m.path}
    before = [i for i in inputs if i[0] <= first["t"] + 1e-9]
    after_input = ({"t": round(before[-1][0], 6), "topic": before[-1][1],
                    "what": before[-1][2]} if before else {})
    if not changes and m.kind == "missing" and topic in ANSWERS and (
            not before or first["t"] - before[-1][0] > INPUT_WINDOW_S):
        # an answer the replay never gave, and no input in the bag just before it
        return Divergence("input", [f"no input in the bag within {INPUT_WINDOW_S:g} s "
                                    f"before the recorded {topic}: a line the recorder "
                                    "missed?"], first, after_input)
    return Divergence("parameter" if changes else "code", list(changes), first, after_input)
