"""Parent authority from the PIN (DESIGN erratum 18): hashing, login, tokens, lockout.

The PIN is the only proof of a parent's authority: a spoken "I'm Mom" gives addressing
only. `buddy parent set-pin` stores a salted scrypt hash of it in the household file (never
the PIN). `ParentAuth` is what `identity/parent_login` runs: a correct PIN gives a random
token that expires (`token_ttl_s`, steady clock, so /clock or a wrong wall clock cannot
stretch it); wrong PINs are counted, and after `free_attempts` each further failure
locks login for a growing time (base doubling up to `max_lockout_s`). During a lockout the
PIN is not even checked, so guessing costs the full lockout per try.

ROS-free: every call takes `now` (seconds on a steady clock); token bytes come from an
injected factory (`secrets.token_urlsafe` by default) so tests can be deterministic.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

# scrypt cost (RFC 7914): n=2**14, r=8 -> 16 MiB and ~50-100 ms a check on a Pi 5: slow
# enough that an offline guess of a 4-6 digit PIN costs hours, fast enough for a login.
SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
SALT_BYTES = 16
DIGEST_BYTES = 32
MIN_PIN = 4
MAX_PIN = 64
ALGORITHM = "scrypt"


@dataclass(slots=True, frozen=True)
class PinHash:
    """What the household file keeps of the PIN."""

    salt: bytes
    digest: bytes
    n: int = SCRYPT_N
    r: int = SCRYPT_R
    p: int = SCRYPT_P

    def to_json(self) -> dict[str, object]:
        return {"algorithm": ALGORITHM, "salt": self.salt.hex(), "hash": self.digest.hex(),
                "n": self.n, "r": self.r, "p": self.p}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> PinHash:
        """Raises ValueError on anything but a plausible scrypt record."""
        if data.get("algorithm") != ALGORITHM:
            raise ValueError(f"unknown PIN hash algorithm {data.get('algorithm')!r}")
        n, r, p = (int(data[k]) for k in ("n", "r", "p"))  # type: ignore[call-overload]
        # Refuse costs that are too weak (a tampered file) or that would stall the node.
        if not (2**12 <= n <= 2**20 and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 4):
            raise ValueError(f"implausible scrypt parameters n={n} r={r} p={p}")
        salt = bytes.fromhex(str(data["salt"]))
        digest = bytes.fromhex(str(data["hash"]))
        if len(salt) < 8 or len(digest) != DIGEST_BYTES:
            raise ValueError("PIN hash record has a short salt or a wrong digest length")
        return cls(salt, digest, n, r, p)


def pin_problem(pin: str) -> str | None:
    """Why `pin` cannot be a parent PIN, or None."""
    if not MIN_PIN <= len(pin) <= MAX_PIN:
        return f"the PIN must have {MIN_PIN} to {MAX_PIN} characters"
    if pin.strip() != pin:
        return "the PIN must not start or end with spaces"
    if len(set(pin)) == 1:
        return "the PIN must not be one character repeated"
    return None


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p,
                          maxmem=128 * r * n * 2 + 1024 * 1024, dklen=DIGEST_BYTES)


def hash_pin(pin: str, salt: bytes | None = None) -> PinHash:
    """A new salted hash of `pin` (raises ValueError for a PIN `pin_problem` refuses)."""
    problem = pin_problem(pin)
    if problem:
        raise ValueError(problem)
    salt = salt if salt is not None else os.urandom(SALT_BYTES)
    return PinHash(salt, _scrypt(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P))


def verify_pin(pin: str, stored: PinHash) -> bool:
    """Constant-time comparison of the hash of `pin` with `stored`."""
    if not 0 < len(pin) <= MAX_PIN:
        return False
    return hmac.compare_digest(_scrypt(pin, stored.salt, stored.n, stored.r, stored.p),
                               stored.digest)


@dataclass(slots=True, frozen=True)
class AuthConfig:
    token_ttl_s: float = 900.0       # a parent page session: 15 minutes
    free_attempts: int = 3           # wrong PINs before the first lockout
    base_lockout_s: float = 30.0     # first lockout; doubles with each further failure
    max_lockout_s: float = 3600.0
    max_tokens: int = 8              # live tokens kept; the oldest goes first

    def __post_init__(self) -> None:
        for name in ("token_ttl_s", "base_lockout_s", "max_lockout_s"):
            v = getattr(self, name)
            if not math.isfinite(v) or v <= 0.0:
                raise ValueError(f"{name} must be a positive number")
        if self.free_attempts < 1 or self.max_tokens < 1:
            raise ValueError("free_attempts and max_tokens must be >= 1")


@dataclass(slots=True, frozen=True)
class LoginResult:
    success: bool
    token: str = ""
    expires_in_s: float = 0.0
    retry_after_s: float = 0.0
    message: str = ""


@dataclass(slots=True, frozen=True)
class ParentProof:
    """The outcome of checking a request's token: authority or the reason for none."""

    valid: bool
    reason: str = ""


NO_TOKEN = ParentProof(False, "this needs a parent: log in with the parent PIN "
                              "(identity/parent_login) and send the token")


@dataclass(slots=True)
class ParentAuth:
    """identity/parent_login and the token check of every authority-bearing request."""

    pin_source: Callable[[], PinHash | None]   # read fresh: set-pin works without restart
    config: AuthConfig = field(default_factory=AuthConfig)
    new_token: Callable[[], str] = lambda: secrets.token_urlsafe(32)
    counters: Counter[str] = field(default_factory=Counter)
    _tokens: dict[str, float] = field(default_factory=dict)   # token -> expiry
    _failures: int = 0                                         # since the last success
    _locked_until: float = -math.inf

    def lockout_remaining(self, now: float) -> float:
        return max(0.0, self._locked_until - now)

    @property
    def consecutive_failures(self) -> int:
        return self._failures

    def login(self, pin: str, now: float) -> LoginResult:
        self.counters["login_attempts"] += 1
        wait = self.lockout_remaining(now)
        if wait > 0.0:
            self.counters["login_locked_out"] += 1
            return LoginResult(False, retry_after_s=wait,
                               message=f"too many wrong PINs: try again in {math.ceil(wait)} s")
        try:
            stored = self.pin_source()
        except (OSError, ValueError) as exc:
            self.counters["login_no_pin"] += 1
            return LoginResult(False, message=f"the parent PIN cannot be read: {exc}")
        if stored is None:
            self.counters["login_no_pin"] += 1
            return LoginResult(False, message="no parent PIN is set: run `buddy parent set-pin`"
                                              " on the robot")
        if not verify_pin(pin, stored):
            return self._failed(now)
        self._failures = 0
        self.counters["login_success"] += 1
        self._purge(now)
        while len(self._tokens) >= self.config.max_tokens:
            del self._tokens[min(self._tokens, key=self._tokens.__getitem__)]
        token = self.new_token()
        self._tokens[token] = now + self.config.token_ttl_s
        return LoginResult(True, token, self.config.token_ttl_s, message="logged in")

    def _failed(self, now: float) -> LoginResult:
        cfg = self.config
        self._failures += 1
        self.counters["login_failures"] += 1
        over = self._failures - cfg.free_attempts
        if over < 0:
            left = -over
            return LoginResult(False, message=f"wrong PIN ({left} more before a lockout)")
        lockout = min(cfg.max_lockout_s, cfg.base_lockout_s * 2.0 ** over)
        self._locked_until = now + lockout
        self.counters["lockouts"] += 1
        return LoginResult(False, retry_after_s=lockout,
                           message=f"wrong PIN: login locked for {math.ceil(lockout)} s")

    def logout(self, token: str) -> bool:
        return self._tokens.pop(token, None) is not None

    def check(self, token: str, now: float) -> ParentProof:
        """Whether `token` carries a parent's authority right now."""
        if not token:
            self.counters["requests_without_token"] += 1
            return NO_TOKEN
        self._purge(now)
        # compare_digest against every live token: no early exit that times a guess.
        valid = any(hmac.compare_digest(token.encode(), t.encode()) for t in self._tokens)
        if not valid:
            self.counters["requests_bad_token"] += 1
            return ParentProof(False, "the parent token is unknown or expired: log in again "
                                      "with the parent PIN")
        return ParentProof(True, "parent PIN")

    def _purge(self, now: float) -> None:
        for token, expiry in list(self._tokens.items()):
            if expiry <= now:
                del self._tokens[token]

    def live_tokens(self, now: float) -> int:
        self._purge(now)
        return len(self._tokens)
