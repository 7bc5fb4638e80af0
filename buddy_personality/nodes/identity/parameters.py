"""The identity node's parameters (ParamSpecs; the defaults are the core's own, so the
node and the core agree). config/robot.yaml is checked against this table."""

from __future__ import annotations

from typing import Any

from buddy_personality.identity import IdentityConfig
from buddy_personality.identity.parent_pin import AuthConfig
from buddy_personality.nodes.common.parameters import ParamSpec

_D = IdentityConfig()  # core defaults, so the node and the core agree
_A = AuthConfig()

PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("profiles_path", "~/.local/share/buddy/household.json",
              "household profiles JSON store (spec 004)", read_only=True),
    ParamSpec("greetings_path", "", "birthday greetings already emitted today, kept across "
              "restarts (spec 004 §6 once a day); empty = next to profiles_path",
              read_only=True),
    ParamSpec("tick_hz", 1.0, "rate of the timeout tick", min=0.1, max=50.0, read_only=True),
    ParamSpec("signal_low", _D.signal_low, "paired-device confidence below which a signal "
              "is noise (spec 004 §1 signal_low)", min=0.0, max=1.0, read_only=True),
    ParamSpec("signal_medium", _D.signal_medium, "paired-device confidence that makes "
              "identity PROBABLE (spec 004 §1 signal_medium)", min=0.0, max=1.0,
              read_only=True),
    ParamSpec("addressing_inferred_high", _D.addressing_inferred_high,
              "confidence of inferred_signal(high) (spec 004 §1.1)", min=0.0, max=1.0,
              read_only=True),
    ParamSpec("probable_timeout_s", _D.probable_timeout_s, "PROBABLE -> UNKNOWN after",
              min=0.1, max=86400.0, read_only=True),
    ParamSpec("ambiguous_timeout_s", _D.ambiguous_timeout_s, "AMBIGUOUS -> UNKNOWN after",
              min=0.1, max=86400.0, read_only=True),
    ParamSpec("rejected_timeout_s", _D.rejected_timeout_s, "REJECTED -> UNKNOWN after",
              min=0.1, max=86400.0, read_only=True),
    ParamSpec("silence_timeout_s", _D.silence_timeout_s,
              "CONFIRMED_ACTIVE -> CONFIRMED after this long without a speaking turn",
              min=0.1, max=86400.0, read_only=True),
    ParamSpec("command_confirmation_timeout_s", _D.command_confirmation_timeout_s,
              "a command awaiting confirmation is cancelled after", min=0.1, max=3600.0,
              read_only=True),
    ParamSpec("profile_confirmation_timeout_s", _D.profile_confirmation_timeout_s,
              "a profile update awaiting confirmation is cancelled after", min=0.1,
              max=86400.0, read_only=True),
    ParamSpec("delegation_confirmation_timeout_s", _D.delegation_confirmation_timeout_s,
              "a delegation awaiting the owner's confirmation lapses after", min=0.1,
              max=86400.0, read_only=True),
    ParamSpec("max_delegation_s", _D.max_delegation_s, "longest delegation lifetime",
              min=1.0, max=86400.0, read_only=True),
    ParamSpec("consent_timeout_s", _D.consent_timeout_s,
              "a consent request without an answer lapses after", min=0.1, max=86400.0,
              read_only=True),
    ParamSpec("teen_from_years", _D.teen_from_years, "age group TEEN from this age",
              min=1, max=30, read_only=True),
    ParamSpec("adult_from_years", _D.adult_from_years, "age group ADULT from this age",
              min=2, max=30, read_only=True),
    ParamSpec("trust_system_date", True, "the local date from the node clock is trusted "
              "(birthdays, ages) when the clock reads at least MIN_TRUSTED_YEAR",
              read_only=True),
    ParamSpec("parent_token_ttl_s", _A.token_ttl_s, "a parent login token is valid this "
              "long (erratum 18)", min=10.0, max=86400.0, read_only=True),
    ParamSpec("parent_free_attempts", _A.free_attempts, "wrong PINs before the first "
              "lockout", min=1, max=10, read_only=True),
    ParamSpec("parent_base_lockout_s", _A.base_lockout_s, "first login lockout; doubles with "
              "each further wrong PIN", min=1.0, max=3600.0, read_only=True),
    ParamSpec("parent_max_lockout_s", _A.max_lockout_s, "longest login lockout",
              min=1.0, max=86400.0, read_only=True),
    ParamSpec("reset_memory_wait_s", 30.0, "how long an executed memory reset waits for "
              "personality/reset_memory to come up", min=0.1, max=3600.0, read_only=True),
    ParamSpec("effect_answer_timeout_s", 2.0, "how long the reply to an executed forget_child "
              "or lower_limits waits for the personality node's answer (below the parent "
              "page's service_timeout_s)", min=0.1, max=60.0, read_only=True),
)

# the IdentityConfig fields set by the parameter of the same name
CORE_PARAMETERS = (
    "signal_low", "signal_medium", "addressing_inferred_high", "probable_timeout_s",
    "ambiguous_timeout_s", "rejected_timeout_s", "silence_timeout_s",
    "command_confirmation_timeout_s", "profile_confirmation_timeout_s",
    "delegation_confirmation_timeout_s", "max_delegation_s", "consent_timeout_s",
    "teen_from_years", "adult_from_years",
)


def identity_config(p: dict[str, Any]) -> IdentityConfig:
    """The core's settings from the (read-only) parameters."""
    return IdentityConfig(**{name: p[name] for name in CORE_PARAMETERS})


def auth_config(p: dict[str, Any]) -> AuthConfig:
    """The parent login's settings (erratum 18); the longest lockout is never below the
    first one."""
    return AuthConfig(
        token_ttl_s=p["parent_token_ttl_s"],
        free_attempts=p["parent_free_attempts"],
        base_lockout_s=p["parent_base_lockout_s"],
        max_lockout_s=max(p["parent_max_lockout_s"], p["parent_base_lockout_s"]),
    )
