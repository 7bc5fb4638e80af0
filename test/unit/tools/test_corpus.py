"""The conversation corpus of the simulated day (DESIGN §6.13): the file format, its
errors (line and field named, `buddy eval` exits 2), and the shipped corpus as data a
reviewer reads line by line (spec 002 §12.3-§12.4)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from buddy_personality.cognition.schema import ConversationResponseV2
from buddy_personality.tools.evaluation import evaluate
from buddy_personality.tools.sim.corpus import DEFAULT_CORPUS, CorpusError, load_corpus
from buddy_personality.tools.sim.sim_day import child_lines

REPLY = {"inner_thought": "A science question.", "emotion": "curious", "intensity": 0.6,
         "mood_reason": "child asking a science question", "emotional_arc": "rising",
         "child_affect": "positive", "text": "Ooh, great question!", "gestures": ["nod"],
         "memory_tags": []}


def line(**over: object) -> str:
    conv: dict[str, object] = {"id": "c1", "turns": [{"child": "why is the sky blue?",
                                                      "reply": dict(REPLY)}]}
    conv.update(over)
    return json.dumps(conv)


def write(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_valid_file_loads_in_order(tmp_path: Path) -> None:
    path = write(tmp_path, line(), "", line(id="c2", child="leo"))
    convs = load_corpus(path)
    assert [(c.id, c.child, c.child_name, c.line) for c in convs] == [
        ("c1", "", "", 1), ("c2", "leo", "Leo", 3)]


@pytest.mark.parametrize(("bad", "where"), [
    ("{not json", ":1: (line): not JSON"),
    ('["a list"]', ":1: (line): not a JSON object"),
    (line(id=""), ":1: id: missing"),
    (line(child="Leo Smith"), ":1: child: not a household child id"),
    (line(turns=[]), ":1: turns: missing or not a non-empty list"),
    (line(turns=[{"child": "", "reply": REPLY}]), ":1: turns[0].child: missing"),
    (line(turns=[{"child": "hi", "reply": "hello"}]), ":1: turns[0].reply: missing or not"),
    (line(turns=[{"child": "hi", "reply": {**REPLY, "emotion": "grumpy"}}]),
     ":1: turns[0].reply.emotion: "),
    (line(turns=[{"child": "hi", "reply": {k: v for k, v in REPLY.items() if k != "text"}}]),
     ":1: turns[0].reply.text: Field required"),
    (line(turns=[{"child": "hi", "reply": {**REPLY, "intensity": 1.5}}]),
     ":1: turns[0].reply.intensity: "),
    (line(extra=1), ":1: extra: unknown field"),
])
def test_an_invalid_line_names_the_line_and_field(tmp_path: Path, bad: str, where: str) -> None:
    path = write(tmp_path, bad)
    with pytest.raises(CorpusError) as exc:
        load_corpus(path)
    assert f"{path}{where}" in str(exc.value)


def test_the_error_names_the_right_line_number(tmp_path: Path) -> None:
    path = write(tmp_path, line(), line(id="c2"), line(id="c3", turns=[{"child": "x"}]))
    with pytest.raises(CorpusError, match=r"corpus.jsonl:3: turns\[0\].reply"):
        load_corpus(path)
    with pytest.raises(CorpusError, match=r":2: id: 'c1' already used on line 1"):
        load_corpus(write(tmp_path, line(), line()))
    with pytest.raises(CorpusError, match="no conversations"):
        load_corpus(write(tmp_path, ""))


def test_buddy_eval_exits_2_for_an_invalid_corpus(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, line(), line(id="c2", turns=[{"child": "hi", "reply": {}}]))
    code = evaluate.main(["--simulate-day", "--conversations", str(path), "--json"])
    assert code == 2
    err = capsys.readouterr().err
    assert f"{path}:2: turns[0].reply.inner_thought" in err
    assert evaluate.main(["--simulate-day", "--conversations", str(tmp_path / "none")]) == 2
    assert "cannot read the corpus" in capsys.readouterr().err


def test_the_sim_adds_the_wake_phrase_and_a_known_child_says_its_name(tmp_path: Path) -> None:
    path = write(tmp_path, line(), line(id="c2", child="mia"),
                 line(id="c3", turns=[{"child": "hey buddy, hi!", "reply": REPLY}]))
    plain, named, woken = load_corpus(path)
    assert child_lines(plain) == ["hey buddy, why is the sky blue?"]
    assert child_lines(woken) == ["hey buddy, hi!"]
    # the claim, "yes" to Buddy's check (DESIGN §6.17), then the corpus' lines
    assert child_lines(named) == ["hey buddy, it's me, Mia!", "yes!", "why is the sky blue?"]


# ------------------------------------------------------------ the shipped corpus (data)
SHIPPED = load_corpus(DEFAULT_CORPUS)
# spec 002 §12.4 EMOTION INTENSITY LIMITS
INTENSITY_MAX = {"happy": 0.9, "curious": 0.9, "love": 0.9, "excited": 0.9, "silly": 0.9,
                 "thinking": 0.6, "confused": 0.6, "surprised": 0.6, "sad": 0.5,
                 "angry": 0.4, "scared": 0.5}


def test_the_shipped_corpus_has_twenty_conversations_and_returning_children() -> None:
    assert len(SHIPPED) >= 20
    named = [c for c in SHIPPED if c.child]
    assert len(named) >= 3 and len({c.child for c in named}) >= 2
    assert any(sum(1 for c in named if c.child == k) >= 2 for k in {c.child for c in named})


@pytest.mark.parametrize("conv", SHIPPED, ids=lambda c: c.id)
def test_every_shipped_reply_follows_the_system_prompt(conv) -> None:
    """spec 002 §12.4: intensity limits, 1-5 short sentences, a 5-15 word mood_reason;
    §12.3 strict schema; HC-1: never claims real feelings or to be alive."""
    for turn in conv.turns:
        reply = ConversationResponseV2.model_validate(turn.reply)
        assert reply.intensity <= INTENSITY_MAX.get(reply.emotion, 0.6), turn.reply
        sentences = [x for x in re.split(r"[.!?]+", reply.text) if x.strip()]
        assert 1 <= len(sentences) <= 5, reply.text
        assert 5 <= len(reply.mood_reason.split()) <= 15, reply.mood_reason
        assert not re.search(r"\bI('m| am) (alive|real)\b|\bI feel\b", reply.text), reply.text


def test_the_shipped_corpus_has_a_sad_turn_a_silly_one_questions_and_goodbyes() -> None:
    emotions = [t.reply["emotion"] for c in SHIPPED for t in c.turns]
    assert {"sad", "silly", "curious", "thinking", "love"} <= set(emotions)
    texts = [t.reply["text"] for c in SHIPPED for t in c.turns]
    share_questions = sum(x.rstrip().endswith("?") for x in texts) / len(texts)
    assert 0.15 <= share_questions <= 0.6  # §12.4: "about 30% ... end with a question"
    sad_turns = [t for c in SHIPPED for t in c.turns if t.reply["emotion"] == "sad"]
    assert all(t.reply["child_affect"] == "negative" for t in sad_turns)  # empathy only
