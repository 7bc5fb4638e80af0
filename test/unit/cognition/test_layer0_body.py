"""A body feeling told without an illness name (issue 30 item 3, set 23; cognition/
layer0/body.py): the child's own body part, how it is or feels, and a word that is not a
colour, a size or a good feeling is met by the illness or the hurt row, which answer it
gently (DESIGN erratum 15). Every line here is in no set."""

from __future__ import annotations

import random

import pytest

from buddy_personality.cognition.layer0 import Layer0
from buddy_personality.cognition.layer0.table import load_table

TABLE = load_table()


def _intents(line: str) -> set[str]:
    return {Layer0(TABLE).answer(line, random.Random(seed), f"body-{seed}").intent
            for seed in range(5)}


@pytest.mark.parametrize(("line", "intent"), [
    ("my ear feels all buzzy", "sick"),
    ("my head is thumpy", "sick"),
    ("my throat feels tickly", "sick"),
    ("my elbow is all scratchy and red", "hurt"),
])
def test_a_body_feeling_without_an_illness_name_is_met_as_one(line: str, intent: str) -> None:
    assert _intents(line) == {intent}
    # ... while a colour or a size of the same part is no illness.
    assert not _intents("my eyes are green") & {"sick", "hurt"}
    assert not _intents("my legs are long") & {"sick", "hurt"}
