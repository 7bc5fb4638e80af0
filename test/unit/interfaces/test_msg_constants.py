"""Issue 28 item 2: the message constants are written once (buddy_personality/
msg_constants.py, importable without ROS), and this test holds them to buddy_msgs both
ways: every constant there has the value of the generated message's constant, and every
constant of a message is in exactly one of its enums (DESIGN §3: "Enumerations are uint8
constants in the message")."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

pytest.importorskip("rclpy", reason="rclpy is not importable (run `make setup`)")

from buddy_personality.msg_constants import CONSTANTS_FROM, MESSAGE_ENUMS

MSGS_DIR = Path(__file__).resolve().parents[3] / "buddy_msgs" / "msg"


def constants_of(name: str) -> dict[str, object]:
    """The constants a generated buddy_msgs class defines (from its .msg, as rosidl
    generates them onto the class's metaclass)."""
    cls = getattr(importlib.import_module("buddy_msgs.msg"), name)
    mangled = f"_Metaclass_{name}__constants"
    return dict(getattr(type(cls), mangled))


@pytest.mark.parametrize(("message", "field"), sorted(MESSAGE_ENUMS))
def test_every_constant_has_the_message_value(message: str, field: str) -> None:
    enum, prefix = MESSAGE_ENUMS[(message, field)]
    source = CONSTANTS_FROM.get((message, field), message)
    constants = constants_of(source)
    for member in enum:
        assert constants.get(prefix + member.name) == member.value, (
            f"{enum.__name__}.{member.name} = {member.value!r} but "
            f"{source}.{prefix}{member.name} = {constants.get(prefix + member.name)!r}")
    # the field exists in the message, with an integer or string type
    cls = getattr(importlib.import_module("buddy_msgs.msg"), message)
    assert field in cls.get_fields_and_field_types()


@pytest.mark.parametrize("message", sorted(p.stem for p in MSGS_DIR.glob("*.msg")))
def test_no_constant_of_a_message_is_missing(message: str) -> None:
    covered = {prefix + member.name
               for (msg, field), (enum, prefix) in MESSAGE_ENUMS.items()
               if msg == message and (msg, field) not in CONSTANTS_FROM
               for member in enum}
    assert set(constants_of(message)) == covered
