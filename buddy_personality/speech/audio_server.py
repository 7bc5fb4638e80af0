"""The audio server's echo canceller for `buddy run --listen` (DESIGN erratum 24).

PulseAudio's `module-echo-cancel` (PipeWire's pulse server offers the same module, and
`libpipewire-module-echo-cancel` natively) with the WebRTC canceller: Buddy plays into
its sink and listens on its source, from which the server has taken out what the sink
played. When one is loaded already, Buddy uses it; otherwise it loads one over the
current default speaker and microphone, and unloads it when it stops. The WebRTC gain
controls are off: the analog one would turn the user's microphone volume down (it took
a test microphone to 33 %), and the ears have their own thresholds.

Buddy's streams are pointed at the canceller with PULSE_SINK / PULSE_SOURCE, which
libpulse (and so PortAudio's ALSA `pulse` plug-in) reads for the default device: the
user's own defaults are not changed. `deploy/` does the same for the robot with a
system-wide configuration (deploy/pulse-buddy-echo-cancel.pa).

Check it by hand: `pactl list modules short | grep echo-cancel`.
"""

from __future__ import annotations

import contextlib
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass

MODULE_NAMES = ("module-echo-cancel", "libpipewire-module-echo-cancel")
SOURCE_NAME = "buddy_echo_cancel_source"
SINK_NAME = "buddy_echo_cancel_sink"
LOAD_ARGS = ("aec_method=webrtc", f"source_name={SOURCE_NAME}", f"sink_name={SINK_NAME}",
             'aec_args="analog_gain_control=0 digital_gain_control=0"')
PACTL_TIMEOUT_S = 5.0


@dataclass(slots=True, frozen=True)
class EchoCancelRoute:
    """Where Buddy plays and listens so that the server cancels its voice.
    Empty names: the canceller is the user's default device already."""

    source: str
    sink: str
    module: int | None      # the module Buddy loaded (unloaded at exit); None: the user's

    def environment(self) -> dict[str, str]:
        env: dict[str, str] = {}
        if self.source:
            env["PULSE_SOURCE"] = self.source
        if self.sink:
            env["PULSE_SINK"] = self.sink
        return env


def _pactl(args: list[str], env: Mapping[str, str] | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["pactl", *args], env=dict(env) if env is not None else None,
                          capture_output=True, text=True, timeout=PACTL_TIMEOUT_S,
                          check=False)


def parse_loaded(modules_short: str) -> EchoCancelRoute | None:
    """The echo canceller in `pactl list modules short`, if one is loaded: its source and
    sink names when its arguments give them ('' = the module's default names, which the
    user then has as default devices)."""
    for line in modules_short.splitlines():
        parts = line.split("\t")
        if len(parts) < 2 or parts[1] not in MODULE_NAMES:
            continue
        args: dict[str, str] = {}
        try:
            words = shlex.split(parts[2]) if len(parts) > 2 else []
        except ValueError:
            words = parts[2].split()
        for word in words:
            key, _, value = word.partition("=")
            args[key] = value
        return EchoCancelRoute(args.get("source_name", ""), args.get("sink_name", ""), None)
    return None


def ensure_echo_cancel(env: Mapping[str, str] | None = None) -> EchoCancelRoute | str:
    """The route through the audio server's canceller (loading one if needed), or why
    there is none (no pactl, no server, the module would not load): then the asr node
    cancels in software."""
    if shutil.which("pactl") is None:
        return "no pactl (no PulseAudio or PipeWire pulse server)"
    try:
        listed = _pactl(["list", "modules", "short"], env)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"pactl: {exc}"
    if listed.returncode != 0:
        return f"no audio server answers: {listed.stderr.strip()[:200]}"
    loaded = parse_loaded(listed.stdout)
    if loaded is not None:
        return loaded
    try:
        done = _pactl(["load-module", "module-echo-cancel", *LOAD_ARGS], env)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"pactl load-module: {exc}"
    if done.returncode != 0 or not done.stdout.strip().isdigit():
        return f"module-echo-cancel did not load: {done.stderr.strip()[:200]}"
    return EchoCancelRoute(SOURCE_NAME, SINK_NAME, int(done.stdout.strip()))


def release(route: EchoCancelRoute, env: Mapping[str, str] | None = None) -> None:
    """Unload the module Buddy loaded (the user's own stays)."""
    if route.module is None:
        return
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        _pactl(["unload-module", str(route.module)], env)
