"""Built-in scripted LLM responders for the demo and the golden scenarios.

They are *scripted*: a fixed list of spec 002 §12.3 answers returned in turn whatever the
child says (FakeLlmServer on loopback), so a scenario and its replay get the same replies.
A bag names its responder in its sim setup (`llm: "scripted:<name>"`), and replay starts
the same one. Changing an answer here changes the outputs of bags that use it: regenerate
the golden bags (docs/REPLAY.md).
"""

from __future__ import annotations

from typing import Any

from buddy_personality.tools.fakes.fake_llm_server import Responder, scripted


def _answer(emotion: str, intensity: float, reason: str, arc: str, child: str, text: str,
            gestures: tuple[str, ...] = (), tags: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "inner_thought": f"Scripted reply: {reason}.",
        "emotion": emotion, "intensity": intensity, "mood_reason": reason,
        "emotional_arc": arc, "child_affect": child, "text": text,
        "gestures": list(gestures), "memory_tags": list(tags),
    }


# A child talking about dinosaurs, a drawing and a sleepy cat; warm, curious, playful.
DINOSAUR_TALK: tuple[dict[str, Any], ...] = (
    _answer("curious", 0.6, "the child wants to talk about dinosaurs", "rising",
            "positive", "Ooh, dinosaurs! Which one is your favourite?", ("nod",),
            ("likes_dinosaurs",)),
    _answer("excited", 0.7, "a triceratops is a great favourite", "rising", "positive",
            "A triceratops has three horns! That is so cool.", ("surprise",)),
    _answer("happy", 0.6, "the child is proud of a drawing", "peak", "positive",
            "I would love to see your drawing. What colour is it?", ("heart",)),
    _answer("silly", 0.5, "a purple dinosaur is a funny idea", "stable", "positive",
            "A purple dinosaur with green spots? That sounds very silly!", ("laugh",)),
    _answer("thinking", 0.4, "the child asked a tricky question", "stable", "neutral",
            "Hmm, let me think. Dinosaurs lived a very, very long time ago."),
    _answer("surprised", 0.5, "the cat did something unexpected", "rising", "positive",
            "Your cat sat on the drawing? Oh my!", ("surprise",)),
    _answer("love", 0.5, "the child shares something dear", "stable", "positive",
            "It sounds like you love your cat very much.", ("heart",), ("has_a_cat",)),
    _answer("happy", 0.5, "a nice calm moment together", "falling", "positive",
            "That was a lovely story. Thank you for telling me.", ("nod",)),
)

RESPONDERS: dict[str, tuple[dict[str, Any], ...]] = {
    "dinosaur_talk": DINOSAUR_TALK,
}


def responder(name: str) -> Responder:
    """A fresh responder (its own position in the script) for a built-in script."""
    answers = RESPONDERS.get(name)
    if answers is None:
        raise KeyError(f"no built-in scripted responder {name!r} "
                       f"(known: {', '.join(sorted(RESPONDERS))})")
    return scripted(list(answers), cycle=True)


def start_llm(spec: str) -> Any:
    """A started FakeLlmServer for a setup's `llm` ('scripted:<name>'), or None for ""
    (layer 0). Raises ValueError for anything a sim cannot reproduce."""
    if not spec:
        return None
    kind, _, name = spec.partition(":")
    if kind != "scripted":
        raise ValueError(f"LLM {spec!r} cannot be reproduced in the sim (only built-in "
                         "scripted responders: 'scripted:<name>')")
    try:
        answer = responder(name)
    except KeyError as exc:
        raise ValueError(str(exc.args[0])) from exc
    from buddy_personality.tools.fakes.fake_llm_server import FakeLlmServer  # noqa: PLC0415

    return FakeLlmServer(responder=answer).start()
