"""The context packet (spec 003 §4, spec 002 §12.4-§12.7): words only, privacy rules."""

from __future__ import annotations

import re

from buddy_personality.cognition.context import (
    ANCHOR_EVERY,
    RECENT_TURNS,
    HistoryTurn,
    build_messages,
    system_prompt_v2,
)
from buddy_personality.cognition.intentions import Intention
from buddy_personality.cognition.views import (
    ADDR_CONFIRMED,
    ADDR_UNKNOWN,
    AGE_ADULT,
    AGE_UNKNOWN,
    GOV_RECOVERING,
    ID_CONFIRMED,
    ID_PROBABLE,
    MODE_PRIVATE,
    MODE_SHARED_UNVERIFIED,
    GovernorView,
    IdentityView,
    ProfileView,
)

PROFILE = ProfileView(mood="curious", intensity=0.4321, tonic_valence=0.1234,
                      memory_tags=("likes_dinosaurs", "has_a_cat", "plays_piano",
                                   "likes_trains"), conversation_arc="rising")
KNOWN = IdentityView(state=ID_CONFIRMED, addressing_state=ADDR_CONFIRMED,
                     preferred_name="Emma", age_group=AGE_UNKNOWN, child_safe=True)
GOV = GovernorView(effort=0.8765, persistence=0.6543, exploration=0.3456,
                   pressures=(0.2345, 0.5678))


def dynamic(msgs: list[dict[str, str]]) -> list[str]:
    """Every generated message: all but the fixed prompt and the child's own words."""
    return [m["content"] for m in msgs[1:] if m["role"] != "user"]


def history(n: int) -> list[HistoryTurn]:
    return [HistoryTurn(f"child words {chr(97 + i)}", f"buddy words {chr(97 + i)}", "happy",
                        ("likes_space",) if i == 0 else (),
                        gist="dinosaurs" if i == 1 else "") for i in range(n)]


def test_generated_messages_contain_no_digits_at_all() -> None:
    """DESIGN §6.6: intensity, energy, tonic, turns, strengths all in words."""
    for turn in (1, 5, 13):
        msgs = build_messages("hi", turn, history(turn - 1), PROFILE, KNOWN, GOV,
                              [Intention("be_gentle", "school", "", 3, 1, None)])
        for content in dynamic(msgs):
            assert not re.search(r"\d", content), content


def test_fixed_prompt_renders_the_energy_axis_in_words() -> None:
    prompt = system_prompt_v2(0.40)
    assert "Energy: calm —" in prompt and "0.40" not in prompt  # spec 002 §12.4, §6.6


def test_state_renders_mood_intensity_energy_and_arc_in_words() -> None:
    state = build_messages("hi", 3, history(2), PROFILE, KNOWN, GOV, [])[-2]["content"]
    assert state.startswith("CURRENT STATE")
    assert "Buddy is feeling fairly curious." in state  # 0.4321 -> "fairly"
    assert "Buddy has plenty of energy." in state        # effort 0.8765
    assert "Conversation has been warming up." in state  # arc rising
    assert "gently positive" in state                    # tonic 0.1234


def test_recovering_governor_asks_for_nothing_new() -> None:
    gov = GovernorView(state=GOV_RECOVERING, effort=0.2)
    state = build_messages("hi", 1, [], PROFILE, KNOWN, gov, [])[-2]["content"]
    assert "getting tired" in state and "don't try anything new" in state


def test_name_and_top_memory_tags_for_a_confirmed_child() -> None:
    msgs = build_messages("hi", 1, [], PROFILE, KNOWN, GOV, [])
    text = "\n".join(dynamic(msgs))
    assert "You may call them Emma." in text
    # "memory tags only (top few by strength)": the first three, the fourth is left out.
    assert "likes dinosaurs; has a cat; plays piano" in text and "trains" not in text


def test_no_name_without_confirmed_identity_or_addressing() -> None:
    for ident in (
        IdentityView(state=ID_PROBABLE, addressing_state=ADDR_CONFIRMED, preferred_name="Emma"),
        IdentityView(state=ID_CONFIRMED, addressing_state=ADDR_UNKNOWN, preferred_name="Emma"),
        IdentityView(state=ID_CONFIRMED, addressing_state=ADDR_CONFIRMED, preferred_name="Emma",
                     conversation_mode=MODE_SHARED_UNVERIFIED),
    ):
        text = "\n".join(dynamic(build_messages("hi", 1, [], PROFILE, ident, GOV, [])))
        assert "Emma" not in text
        assert "Don't use a name" in text


def test_no_memories_for_unknown_people_or_unverified_company() -> None:
    for ident in (IdentityView(),
                  IdentityView(state=ID_CONFIRMED, conversation_mode=MODE_SHARED_UNVERIFIED)):
        text = "\n".join(dynamic(build_messages("hi", 1, [], PROFILE, ident, GOV, [])))
        assert "dinosaurs" not in text


def test_child_safe_framing_unless_a_confirmed_adult() -> None:
    unknown = "\n".join(dynamic(build_messages("hi", 1, [], PROFILE, IdentityView(), GOV, [])))
    assert "young child" in unknown and "child-safe" in unknown
    adult = IdentityView(state=ID_CONFIRMED, age_group=AGE_ADULT, child_safe=False,
                         conversation_mode=MODE_PRIVATE)
    text = "\n".join(dynamic(build_messages("hi", 1, [], PROFILE, adult, GOV, [])))
    assert "grown-up" in text and "young child" not in text


def test_user_id_never_sent() -> None:
    msgs = build_messages("hi", 1, [], PROFILE, KNOWN, GOV, [])
    assert "user_id" not in str(msgs)


def test_anchor_every_five_turns() -> None:
    """spec 002 §12.7."""
    anchored = [t for t in range(1, 16)
                if any("[Reminder:" in c for c in dynamic(
                    build_messages("hi", t, history(t - 1), PROFILE, KNOWN, GOV, [])))]
    assert anchored == [5, 10, 15] and ANCHOR_EVERY == 5


def test_history_compression_keeps_a_recent_window_and_summarises_the_rest() -> None:
    """spec 002 §12.6: recent turns full (text + emotion only), older as (topic, emotion)."""
    turns = history(10)
    msgs = build_messages("now", 11, turns, PROFILE, KNOWN, GOV, [])
    users = [m["content"] for m in msgs if m["role"] == "user"]
    assert users == [t.user_text for t in turns[-RECENT_TURNS:]] + ["now"]
    assistants = [m["content"] for m in msgs if m["role"] == "assistant"]
    assert assistants[0] == '{"emotion": "happy", "text": "buddy words e"}'
    summary = next(m["content"] for m in msgs if m["content"].startswith("EARLIER"))
    assert "(likes space; Buddy felt happy)" in summary          # topic from memory tags
    assert "(dinosaurs; Buddy felt happy)" in summary            # layer 0's label
    assert "(a chat; Buddy felt happy)" in summary               # neither: no words
    # The summary is a system message: the child's words stay in user messages (issue
    # 13 input hardening), and the assistant's text is dropped (§12.6).
    assert "child words" not in summary
    assert "buddy words a" not in summary


def test_intentions_appear_as_words() -> None:
    msgs = build_messages("hi", 2, [], PROFILE, KNOWN, GOV,
                          [Intention("be_gentle", "school", "", 4, 1, None),
                           Intention("follow_up", None, "ask about the drawing", 2, 1, 4)])
    state = msgs[-2]["content"]
    assert "Your current intentions: be gentle (school); ask about the drawing." in state


def test_message_order() -> None:
    msgs = build_messages("last words", 5, history(7), PROFILE, KNOWN, GOV, [])
    assert msgs[0]["content"] == system_prompt_v2()
    assert msgs[1]["content"].startswith("AUDIENCE")
    assert msgs[2]["content"].startswith("EARLIER")
    assert msgs[-3]["content"].startswith("[Reminder:")
    assert msgs[-2]["content"].startswith("CURRENT STATE")
    assert msgs[-1] == {"role": "user", "content": "last words"}


def test_memory_tags_are_rechecked_before_the_prompt() -> None:
    profile = ProfileView(memory_tags=("feels_sad_often", "Likes Frogs", "x"))
    state = build_messages("hi", 1, [], profile, KNOWN, GOV, [])[-2]["content"]
    assert "likes frogs" in state and "sad" not in state
