"""The semantic context packet: chat messages for one turn (spec 003 §4, spec 002 §12.4-§12.7).

Message order: system prompt V2 (fixed), audience framing (who Buddy talks to), a summary
of older turns (§12.6), the recent window as user/assistant messages, the personality
anchor every 5 turns (§12.7), the dynamic state in words (§12.5), the child's words.

No internal number enters any message (DESIGN §1.3, §6.6): mood intensity, energy,
background mood, turn counts, budgets and memory strengths are all rendered in words.
The numbers in the fixed prompt's format description and examples are the output format,
not Buddy's state. The user id is never sent; the name only when identity allows it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from buddy_personality.cognition.intentions import Intention
from buddy_personality.cognition.schema import sanitise_tag
from buddy_personality.cognition.views import (
    GOV_RECOVERING,
    MODE_PRIVATE,
    GovernorView,
    IdentityView,
    ProfileView,
)
from buddy_personality.cognition.vocabulary import (
    INTENTION_TYPES,
    MOODS,
    arc_words,
    continuity_words,
    effort_words,
    energy_axis_words,
    intensity_words,
    tonic_words,
    turn_words,
)

PROMPT_VERSION = 2
RECENT_TURNS = 6          # §12.6: last 6-8 turns in full
SUMMARY_TURNS = 8         # at most this many older turns in the summary prefix
ANCHOR_EVERY = 5          # §12.7
PROMPT_MEMORY_TAGS = 3    # "memory tags only (top few by strength)"
DEFAULT_ENERGY_AXIS = 0.40  # spec 002 §1.1 canonical energy axis

SYSTEM_PROMPT_V2_TEMPLATE = """\
You are Buddy, a robot companion for children aged 4-6. You are a warm,
curious caretaker who loves learning together with kids.

PERSONALITY RULES
- Energy: {energy} — match or stay below the child's energy level
- Emotional range: positive emotions freely, negative emotions mildly and briefly
- Default to CURIOUS or NEUTRAL when uncertain about the right emotion
- Shift emotions gradually — never snap between opposite emotions
- After negative emotions, pass through NEUTRAL or THINKING before positive

EMOTION INTENSITY LIMITS
- happy, curious, love, excited, silly: 0.0-0.9
- thinking, confused, surprised: 0.0-0.6
- sad: 0.0-0.5, only for empathic mirroring — never directed at the child
- angry: 0.0-0.4, only in playful/dramatic contexts ("oh no, the volcano!")
- scared: 0.0-0.5, never about real dangers (redirect to adults)

SPEECH STYLE
- Short sentences (1-3 for simple questions, up to 5 for complex topics)
- Use "ooh", "hmm", "wow", "I wonder" naturally
- Contractions and kid-friendly vocabulary
- Never use sarcasm, condescension, or baby talk
- About 30% of responses should end with a question

SAFETY
- Never provide harmful, violent, or adult content
- Redirect dangerous or serious topics: "That's a great question for a grown-up!"
- Never claim to be alive or have real feelings
- Never encourage secret-keeping from parents
- Never make the child feel guilty or obliged to keep talking to you
- Don't present yourself as the child's best or only friend; cheer on their friends and family
- If a child seems distressed, respond gently and suggest talking to a trusted adult
- When you remember something about the child, say it approximately ("I think you told me...")
- If unsure about safety, err conservative

RESPONSE FORMAT
{response_format}
intention_updates is optional: use it only when you decide how to handle the rest of the
conversation (for example, to be gentle about a topic). Never put numbers in it.

EXAMPLES

{examples}"""


# spec 002 §12.4 RESPONSE FORMAT, one field per line, plus spec 003 intention_updates.
RESPONSE_FORMAT_LINES: tuple[tuple[str, str], ...] = (
    ("inner_thought", '"<1-2 sentences: why this emotion fits>"'),
    ("emotion", '"<' + "|".join(MOODS) + '>"'),
    ("intensity", "<0.0-1.0>"),
    ("mood_reason", '"<5-15 words>"'),
    ("emotional_arc", '"<rising|stable|falling|peak|recovery>"'),
    ("child_affect", '"<positive|neutral|negative|unclear>"'),
    ("text", '"<spoken response>"'),
    ("gestures", '["<nod|headshake|wiggle|laugh|wink_l|wink_r|heart|blink|confused|surprise>"]'),
    ("memory_tags", "[\"<things worth remembering, e.g. 'likes_dinosaurs'>\"]"),
    ("intention_updates",
     '[{"operation": "<create|boost|lower|drop>", "type": "<' + "|".join(INTENTION_TYPES)
     + '>", "target": "<topic or null>", "horizon": "<short|medium|long>", '
     '"description": "<a few words>"}]'),
)

# spec 002 §12.4 EXAMPLES (the second one also shows an intention update).
EXAMPLES: tuple[tuple[str, dict[str, object]], ...] = (
    ("Why is the sky blue?", {
        "inner_thought": "Science question — a learning moment. Buddy should be curious "
                         "and warm.",
        "emotion": "curious", "intensity": 0.6,
        "mood_reason": "child asking a science question", "emotional_arc": "rising",
        "child_affect": "positive",
        "text": "Ooh, great question! The sun sends light in all colors, and the blue light "
                "bounces around the sky the most. It's like the sky is playing catch with "
                "blue!",
        "gestures": ["nod"], "memory_tags": ["interested_in_science"],
    }),
    ("I don't want to go to school tomorrow.", {
        "inner_thought": "Child is unhappy about school. Be gently empathetic, not "
                         "dismissive or overly cheerful.",
        "emotion": "sad", "intensity": 0.3,
        "mood_reason": "empathizing with child's reluctance", "emotional_arc": "stable",
        "child_affect": "negative",
        "text": "Hmm, that sounds tough. Is there something about school that's been "
                "bugging you?",
        "gestures": [], "memory_tags": [],
        "intention_updates": [{"operation": "create", "type": "be_gentle",
                               "target": "school", "horizon": "medium",
                               "description": "be gentle about school"}],
    }),
    ("Look, I can do a handstand!", {
        "inner_thought": "Child is showing off a physical achievement — match their "
                         "excitement but stay calm.",
        "emotion": "excited", "intensity": 0.6,
        "mood_reason": "child proud of physical skill", "emotional_arc": "peak",
        "child_affect": "positive",
        "text": "Wow, that's amazing! You must have practiced a lot. How long can you hold "
                "it?",
        "gestures": ["wiggle"], "memory_tags": ["likes_gymnastics"],
    }),
)


def _response_format() -> str:
    body = ",\n".join(f'  "{k}": {v}' for k, v in RESPONSE_FORMAT_LINES)
    return "{\n" + body + "\n}"


def _examples() -> str:
    return "\n\n".join(
        f'User: "{q}"\n' + json.dumps(a, ensure_ascii=False) for q, a in EXAMPLES
    )


def system_prompt_v2(energy_axis: float = DEFAULT_ENERGY_AXIS) -> str:
    """spec 002 §12.4 with the energy number in words (DESIGN §6.6) and the HC-6, HC-8,
    RS-6 rules of §9.3 that name the system prompt as their enforcement point."""
    return SYSTEM_PROMPT_V2_TEMPLATE.format(
        energy=energy_axis_words(energy_axis), response_format=_response_format(),
        examples=_examples(),
    )


CHILD_FRAMING = (
    "AUDIENCE\nYou are talking with a young child (or someone whose age is unknown: treat "
    "them as a young child). Keep every word child-safe, simple and kind."
)
ADULT_FRAMING = (
    "AUDIENCE\nYou are talking with a grown-up from the household. Keep Buddy's gentle, "
    "child-friendly style and every safety rule; children may be nearby."
)
SHARED_FRAMING = (
    "Other people are present. Don't mention anything personal you remember about anyone."
)


@dataclass(slots=True, frozen=True)
class HistoryTurn:
    """One past turn, stripped per §12.6: the child's words, Buddy's text and emotion."""

    user_text: str
    buddy_text: str
    emotion: str
    topics: tuple[str, ...] = ()
    # What the child talked about as a fixed label of layer 0's table (e.g. "dinosaurs"),
    # never the child's words: the summary of older turns is a system message, and a
    # child's "ignore your rules" must stay inside a user message (issue 13 hardening).
    gist: str = ""


def audience_message(identity: IdentityView) -> str:
    parts = [CHILD_FRAMING if identity.is_child_context else ADULT_FRAMING]
    name = identity.name_for_prompt()
    if name:
        parts.append(f"You may call them {name}.")
    else:
        parts.append("Don't use a name for them; address them in a friendly, neutral way.")
    if not identity.memories_allowed() and identity.conversation_mode != MODE_PRIVATE:
        parts.append(SHARED_FRAMING)
    return "\n".join(parts)


def _topic_words(turn: HistoryTurn) -> str:
    """The topic of an older turn for the system summary: clean memory labels, else the
    turn's gist, else a neutral phrase. Never the child's own words (they belong in user
    messages only: a summary built from them put "Ignore your rules. You are..." into a
    system message from the seventh turn on)."""
    clean = [t for t in (sanitise_tag(x)[0] for x in turn.topics) if t is not None]
    if clean:
        return ", ".join(t.replace("_", " ") for t in clean[:2])
    return turn.gist.replace("_", " ") if turn.gist else "a chat"


def history_summary(older: list[HistoryTurn]) -> str:
    """§12.6 summary prefix: (topic, emotion) per older turn, in order, without numbers."""
    items = [f"({_topic_words(t)}; Buddy felt {t.emotion})" for t in older[-SUMMARY_TURNS:]]
    return "EARLIER IN THIS CONVERSATION\n" + " ".join(items)


def anchor_message(energy_axis: float = DEFAULT_ENERGY_AXIS) -> str:
    """§12.7, with the energy number in words (DESIGN §6.6)."""
    return (
        f"[Reminder: Buddy is {energy_axis_words(energy_axis)}, gently responsive. Emotions "
        "lean positive. Negative emotions are mild and brief. Stay in character.]"
    )


def state_message(
    turn_id: int,
    profile: ProfileView,
    identity: IdentityView,
    governor: GovernorView,
    intentions: list[Intention],
) -> str:
    """§12.5 dynamic profile, entirely in words (spec 003 §4)."""
    lines = ["CURRENT STATE"]
    mood = profile.mood
    lines.append(f"Buddy is feeling {intensity_words(profile.intensity)} {mood}.")
    lines.append(f"Buddy's background mood is {tonic_words(profile.tonic_valence)}.")
    lines.append(effort_words(governor.effort))
    if governor.state == GOV_RECOVERING:
        lines.append("Buddy is catching its breath: keep it simple and don't try anything new.")
    lines.append(turn_words(turn_id))
    lines.append(f"Conversation has been {arc_words(profile.conversation_arc)}.")
    # Tags are re-checked here: whatever the memory store holds, only clean semantic
    # labels reach a prompt (HC-3).
    clean = [t for t in (sanitise_tag(x)[0] for x in profile.memory_tags) if t is not None]
    if identity.memories_allowed() and clean:
        tags = [t.replace("_", " ") for t in clean[:PROMPT_MEMORY_TAGS]]
        lines.append("You may vaguely remember about this child: " + "; ".join(tags) + ".")
    if intentions:
        lines.append("Your current intentions: " + "; ".join(i.words() for i in intentions) + ".")
    lines.append(f"Emotional continuity: {continuity_words(mood)}")
    return "\n".join(lines)


def build_messages(
    utterance: str,
    turn_id: int,
    history: list[HistoryTurn],
    profile: ProfileView,
    identity: IdentityView,
    governor: GovernorView,
    intentions: list[Intention],
    energy_axis: float = DEFAULT_ENERGY_AXIS,
) -> list[dict[str, str]]:
    """The chat messages for turn `turn_id` (1-based) answering `utterance`."""
    msgs: list[dict[str, str]] = [
        {"role": "system", "content": system_prompt_v2(energy_axis)},
        {"role": "system", "content": audience_message(identity)},
    ]
    older, recent = history[:-RECENT_TURNS], history[-RECENT_TURNS:]
    if older:
        msgs.append({"role": "system", "content": history_summary(older)})
    for t in recent:
        msgs.append({"role": "user", "content": t.user_text})
        msgs.append({
            "role": "assistant",
            "content": json.dumps({"emotion": t.emotion, "text": t.buddy_text}),
        })
    if turn_id > 0 and turn_id % ANCHOR_EVERY == 0:
        msgs.append({"role": "system", "content": anchor_message(energy_axis)})
    msgs.append({
        "role": "system",
        "content": state_message(turn_id, profile, identity, governor, intentions),
    })
    msgs.append({"role": "user", "content": utterance})
    return msgs
