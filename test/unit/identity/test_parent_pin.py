"""The parent PIN: salted scrypt hash in the household file, login, tokens, lockout
(DESIGN erratum 18)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from identity_testlib import HOUSEHOLD

from buddy_personality.identity import ProfileStore
from buddy_personality.identity.parent_pin import (
    AuthConfig,
    ParentAuth,
    PinHash,
    hash_pin,
    pin_problem,
    verify_pin,
)
from buddy_personality.identity.profiles import (
    read_household,
    read_parent_pin,
    set_parent_pin,
    write_household,
)

PIN = "2468"


@pytest.fixture(scope="module")
def pin_hash() -> PinHash:
    return hash_pin(PIN)


def test_the_hash_is_salted_and_verifies_only_the_pin(pin_hash: PinHash) -> None:
    again = hash_pin(PIN)
    assert again.salt != pin_hash.salt and again.digest != pin_hash.digest  # salted
    assert verify_pin(PIN, pin_hash) and verify_pin(PIN, again)
    for wrong in ("2469", "", "24680", " 2468", PIN * 20):
        assert not verify_pin(wrong, pin_hash)
    assert PinHash.from_json(json.loads(json.dumps(pin_hash.to_json()))) == pin_hash


@pytest.mark.parametrize("bad", ["", "123", "1111", " 1234", "x" * 65])
def test_weak_or_malformed_pins_are_refused(bad: str) -> None:
    assert pin_problem(bad)
    with pytest.raises(ValueError):
        hash_pin(bad)


@pytest.mark.parametrize("field,value", [("algorithm", "md5"), ("n", 2), ("salt", "ab"),
                                         ("hash", "00")])
def test_a_tampered_hash_record_is_refused(pin_hash: PinHash, field: str, value: object) -> None:
    data = pin_hash.to_json() | {field: value}
    with pytest.raises(ValueError):
        PinHash.from_json(data)


def test_set_pin_keeps_profiles_and_stores_no_pin_in_clear(tmp_path: Path,
                                                           pin_hash: PinHash) -> None:
    path = tmp_path / "household.json"
    write_household(path, HOUSEHOLD)
    set_parent_pin(path, pin_hash)
    text = path.read_text()
    # The PIN's digits may well occur inside the random salt's or the digest's hex (they
    # did, once in a few thousand runs): look for it in every stored value but those.
    assert "scrypt" in text
    assert not [v for v in _values_outside_hashes(json.loads(text)) if PIN in v]
    profiles, stored = read_household(path)
    assert [p.user_id for p in profiles] == sorted(p.user_id for p in HOUSEHOLD)
    assert stored == pin_hash


def test_a_profile_write_by_the_node_keeps_a_pin_set_meanwhile(tmp_path: Path,
                                                               pin_hash: PinHash) -> None:
    """The node loaded the file before `buddy parent set-pin` ran; its next profile write
    must not drop the PIN."""
    path = tmp_path / "household.json"
    write_household(path, HOUSEHOLD)
    store = ProfileStore(path)
    set_parent_pin(path, pin_hash)
    store.apply("mia", "addressing", "Mimi")
    assert read_parent_pin(path) == pin_hash and store.parent_pin() == pin_hash
    assert {p.user_id: p for p in read_household(path)[0]}["mia"].addressing == "Mimi"


def test_a_version_1_file_without_a_pin_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "household.json"
    path.write_text(json.dumps({"schema_version": 1, "profiles": [
        {"user_id": "mia", "name": "Mia", "role": "child"}]}))
    store = ProfileStore(path)
    assert store.warnings == [] and "mia" in store and store.parent_pin() is None


def _auth(pin_hash: PinHash | None, **cfg: object) -> ParentAuth:
    counter = itertools.count()
    return ParentAuth(lambda: pin_hash, AuthConfig(**cfg),  # type: ignore[arg-type]
                      new_token=lambda: f"token-{next(counter)}")


def test_login_gives_a_token_that_expires(pin_hash: PinHash) -> None:
    auth = _auth(pin_hash, token_ttl_s=60.0)
    result = auth.login(PIN, now=100.0)
    assert result.success and result.token and result.expires_in_s == 60.0
    assert auth.check(result.token, 159.9).valid
    assert not auth.check(result.token, 160.0).valid
    assert not auth.check("", 100.0).valid and not auth.check("forged", 100.0).valid
    assert auth.counters["requests_bad_token"] == 2


def test_logout_forgets_the_token(pin_hash: PinHash) -> None:
    auth = _auth(pin_hash)
    token = auth.login(PIN, 0.0).token
    assert auth.logout(token) and not auth.check(token, 1.0).valid
    assert not auth.logout(token)


def test_no_pin_set_refuses_every_login() -> None:
    auth = _auth(None)
    result = auth.login("anything", 0.0)
    assert not result.success and "set-pin" in result.message


def test_wrong_pins_lock_out_with_a_growing_lockout(pin_hash: PinHash) -> None:
    """Three free tries, then 30 s, 60 s, 120 s ... up to the cap; the right PIN is not
    even checked while locked, and a success resets the count."""
    auth = _auth(pin_hash, free_attempts=3, base_lockout_s=30.0, max_lockout_s=100.0)
    now = 0.0
    for _ in range(2):
        assert not auth.login("0000", now).success
    first = auth.login("0000", now)
    assert not first.success and first.retry_after_s == 30.0
    locked = auth.login(PIN, now + 29.0)  # the right PIN, but locked
    assert not locked.success and locked.retry_after_s == pytest.approx(1.0)
    now += 30.0
    second = auth.login("0000", now)
    assert second.retry_after_s == 60.0
    now += 60.0
    third = auth.login("0000", now)
    assert third.retry_after_s == 100.0  # capped
    now += 100.0
    assert auth.login(PIN, now).success
    assert auth.consecutive_failures == 0
    assert auth.counters["login_failures"] == 5 and auth.counters["lockouts"] == 3
    assert auth.counters["login_locked_out"] == 1
    assert not auth.login("0000", now).success and auth.lockout_remaining(now) == 0.0


def test_live_tokens_are_bounded(pin_hash: PinHash) -> None:
    auth = _auth(pin_hash, max_tokens=2)
    tokens = [auth.login(PIN, float(i)).token for i in range(3)]
    assert not auth.check(tokens[0], 3.0).valid
    assert all(auth.check(t, 3.0).valid for t in tokens[1:])


def _values_outside_hashes(node: object) -> list[str]:
    """Every key and scalar of a JSON document as text, but the salt and hash (random hex)."""
    if isinstance(node, dict):
        return [v for k, child in node.items() if k not in ("salt", "hash")
                for v in _values_outside_hashes(child)] + [str(k) for k in node]
    if isinstance(node, list):
        return [v for child in node for v in _values_outside_hashes(child)]
    return [str(node)]
