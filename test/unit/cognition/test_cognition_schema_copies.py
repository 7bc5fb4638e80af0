"""response_json_schema() is built once and handed out as independent copies, each still
the spec 002 §12.3 schema (ConversationResponseV2, plus spec 003 §5 intention_updates)."""

from __future__ import annotations

from typing import Any

from buddy_personality.cognition.client import ClientConfig, LlmClient
from buddy_personality.cognition.schema import ConversationResponseV2, response_json_schema
from buddy_personality.governor.policy import CallPolicy

# spec 002 §12.3, in the spec's order (inner_thought first), then spec 003 §5.
SPEC_FIELDS = [
    "inner_thought", "emotion", "intensity", "mood_reason", "emotional_arc",
    "child_affect", "text", "gestures", "memory_tags", "intention_updates",
]


def check_spec_schema(schema: dict[str, Any]) -> None:
    props = schema["properties"]
    assert list(props) == SPEC_FIELDS
    # spec 002 §12.3: intensity ge=0.0, le=1.0; the two closed Literal sets.
    assert (props["intensity"]["minimum"], props["intensity"]["maximum"]) == (0.0, 1.0)
    assert props["emotional_arc"]["enum"] == ["rising", "stable", "falling", "peak", "recovery"]
    assert props["child_affect"]["enum"] == ["positive", "neutral", "negative", "unclear"]
    # spec 002 §12.3: gestures and memory_tags have defaults, the rest is required.
    assert schema["required"] == SPEC_FIELDS[:7]


def test_each_call_is_a_new_object_equal_to_what_pydantic_builds() -> None:
    a, b = response_json_schema(), response_json_schema()
    assert a is not b and a["properties"] is not b["properties"]
    assert a == b == ConversationResponseV2.model_json_schema()
    check_spec_schema(a)


def test_changing_one_copy_leaves_the_next_untouched() -> None:
    fresh = ConversationResponseV2.model_json_schema()
    spoiled = response_json_schema()
    spoiled["properties"]["emotion"]["enum"].append("furious")
    spoiled["properties"]["gestures"]["items"]["enum"].clear()
    del spoiled["properties"]["inner_thought"]
    spoiled["required"].remove("text")
    spoiled["$defs"].clear()
    spoiled["title"] = "changed"
    after = response_json_schema()
    assert after == fresh
    assert "furious" not in after["properties"]["emotion"]["enum"]
    check_spec_schema(after)


def test_request_bodies_do_not_share_their_schema() -> None:
    # No request is sent: request_body only builds the JSON (spec 002 §12.2 guided).
    c = LlmClient(ClientConfig("http://127.0.0.1:9/v1"))
    policy = CallPolicy(True, 0.5, 300, 0, False)
    first = c.request_body([], policy)["response_format"]["json_schema"]["schema"]
    first["properties"].clear()
    second = c.request_body([], policy)["response_format"]["json_schema"]["schema"]
    assert second == ConversationResponseV2.model_json_schema()
    c.close()
