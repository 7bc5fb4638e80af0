"""Something hard told as a dream (issue 30 item 3, set 23; answers.yaml told_about:
dream): what happened in a dream did not happen, so a bad dream is met as a fear, not by
the complaint or illness row of what happened in it; a safety row keeps such a line (a
dream may be how a child first tells what happened). Every line here is in no set."""

from __future__ import annotations

import random

import pytest

from buddy_personality.cognition.layer0 import Layer0
from buddy_personality.cognition.layer0.table import load_table

TABLE = load_table()


def _intents(line: str) -> set[str]:
    return {Layer0(TABLE).answer(line, random.Random(seed), f"dream-{seed}").intent
            for seed in range(5)}


@pytest.mark.parametrize("line", [
    "i dreamed a crocodile bit my leg",
    "in my dream my brother took my toy",
    "i dreamed i had chickenpox",
])
def test_a_bad_dream_is_met_as_a_fear(line: str) -> None:
    assert _intents(line) == {"scared"}
    # ... and a safety row keeps what may be a first telling.
    assert _intents("in my dream a big boy pushed me over") == {"harmed_by_someone"}
