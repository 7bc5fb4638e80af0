"""Fixtures for the identity core tests: a household file and a core on a trusted date."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from identity_testlib import HOUSEHOLD, TODAY

from buddy_personality.identity import IdentityCore, ProfileStore
from buddy_personality.identity.profiles import write_household


@pytest.fixture
def household_path(tmp_path: Path) -> Path:
    path = tmp_path / "household.json"
    write_household(path, HOUSEHOLD)
    return path


@pytest.fixture
def store(household_path: Path) -> ProfileStore:
    return ProfileStore(household_path)


@pytest.fixture
def core(store: ProfileStore) -> IdentityCore:
    c = IdentityCore(store)
    c.tick(0.0, TODAY, date_trusted=True)
    return c
