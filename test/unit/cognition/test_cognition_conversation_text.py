"""Wake phrase and goodbye rules (DESIGN §4.5)."""

from __future__ import annotations

import pytest

from buddy_personality.cognition.conversation import is_goodbye, split_wake


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("hey buddy", ""),
        ("Hey Buddy!", ""),
        ("HEY, BUDDY... why is the sky blue?", "why is the sky blue?"),
        ("hey buddy I like dinosaurs", "I like dinosaurs"),
        ("  hey   buddy, look!", "look!"),
    ],
)
def test_wake_phrase_is_case_and_punctuation_tolerant_and_keeps_the_rest(
    text: str, rest: str
) -> None:
    assert split_wake(text) == (True, rest)


@pytest.mark.parametrize(
    "text", ["buddy hey", "hey there buddy", "they buddy", "hey", "", "hey buddyboy hi"]
)
def test_not_a_wake_utterance(text: str) -> None:
    assert split_wake(text)[0] is False


def test_custom_wake_phrase() -> None:
    assert split_wake("Hello robot, sing!", "hello robot") == (True, "sing!")


@pytest.mark.parametrize(
    "text", ["bye", "Bye bye!", "Goodbye, Buddy.", "ok see you later", "I have to go now",
             "good night buddy"]
)
def test_goodbyes(text: str) -> None:
    assert is_goodbye(text)


@pytest.mark.parametrize(
    "text", ["I said bye to my friend at the park today", "byebye is a funny word to say now ok",
             "what does goodbye mean in french please tell me", "hello", ""]
)
def test_not_goodbyes(text: str) -> None:
    assert not is_goodbye(text)
