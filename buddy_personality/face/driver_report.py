"""What the face driver core reports in the node's /diagnostics (`driver_diagnostics`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from buddy_personality.face.driver import FaceDriverCore


def driver_diagnostics(core: FaceDriverCore, now: float) -> dict[str, str]:
    """The face_driver's /diagnostics values (all strings): the link, what is meant and
    shown, and every counter of the core, the talking controller, the read-back, the
    time sync and the link."""
    age = core.policy.snapshot_age(now)
    c = core.counters
    values: dict[str, str] = {
        "port": core.link.port_name,
        "link_state": core.link.state.name,
        "protocol_version": str(core.link.version),
        "last_error": core.link.last_error,
        "last_board_reset": core.link.last_reset_reason,
        "snapshot_age_s": "none" if age is None else f"{age:.3f}",
        "backstop_active": str(core.policy.is_stale(now)),
        "mood_meant": core.shown.mood if core.shown else "",
        "board_mood": core.board_mood() or "unknown",
        "brightness": str(core.config.brightness),
        "set_state_sent": str(c.set_state_sent),
        "keepalives_sent": str(c.keepalives_sent),
        "talking_frames_sent": str(core.talking_ctl.counters.frames),
        "talking_energy_from_tts": str(core.talking_ctl.counters.from_tts_energy),
        "talking_energy_from_text": str(core.talking_ctl.counters.from_text),
        "gestures_sent": str(c.gestures_sent),
        "gestures_dropped": str(c.gestures_dropped),
        "stand_in_gestures": str(c.stand_in_gestures),
        "flags_sent": str(c.flags_sent),
        "board_resets": str(c.board_resets),
        "status_resends": str(c.status_resends),
        "battery_clamped": str(c.battery_clamped),
        "buttons_flood_dropped": str(c.buttons_flood_dropped),
    }
    values.update({f"status_mismatch_{k}": str(v)
                   for k, v in core.readback.mismatches.items()})
    if core.last_status is not None and core.last_status.cmd_seq_last_applied is not None:
        values["board_last_seq"] = str(core.last_status.cmd_seq_last_applied)
    values.update(core.time_sync.diagnostics())
    values.update({k: str(v) for k, v in core.link.counters.as_dict().items()})
    values.update({f"rejected_{k}": str(v) for k, v in c.rejected_inputs.items()})
    return values
