"""Identity from speech (DESIGN erratum 17) and spoken parent requests (erratum 18), in the
bridge's ROS-free core: the introduction corpus line by line, the once-per-session check,
yes/no as validation, a second name as a strong conflict, unknown names for one session."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from buddy_personality.cognition.bridge import BridgeCore
from buddy_personality.cognition.introductions import (
    answer_to_check,
    find_introduction,
    find_parent_request,
)
from buddy_personality.cognition.speaker import (
    CHECK_LINE,
    EXPLICIT_IDENTITY_CLAIM,
    GREETING_LINE,
    MEET_LINE,
    NOT_YOU_LINE,
    PARENT_PAGE_LINE,
    SPEAKING_TURN,
    STRONG_CONFLICT,
    VALIDATION_FAILURE,
    VALIDATION_SUCCESS,
    HouseholdFile,
    SpeakerTracker,
    household_names,
)
from buddy_personality.cognition.views import ID_UNKNOWN, IdentityView
from buddy_personality.identity import Profile, write_household

CORPUS = Path(__file__).resolve().parents[2] / "data" / "identity" / "introductions.tsv"


def _corpus() -> list[tuple[str, str | None]]:
    rows = []
    for raw in CORPUS.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        line, expected = raw.split("\t")
        rows.append((line, None if expected == "-" else expected))
    return rows


ROWS = _corpus()


def test_the_corpus_has_enough_lines_and_near_misses() -> None:
    """Issue 22: at least 60 lines, including the named near-misses."""
    assert len(ROWS) >= 60
    lines = {line for line, _ in ROWS}
    assert {"I'm hungry", "I'm five", "my name is a secret", "Leo is my friend"} <= lines
    assert sum(1 for _, name in ROWS if name is None) >= 25


CORPUS_HOUSEHOLD = frozenset({"leo", "mia"})  # as the corpus header says


@pytest.mark.parametrize(("line", "expected"), ROWS, ids=[r[0] for r in ROWS])
def test_introductions(line: str, expected: str | None) -> None:
    found = find_introduction(line, CORPUS_HOUSEHOLD)
    assert (found.name if found else None) == expected


@pytest.mark.parametrize(("line", "answer"), [
    ("yes", True), ("Yeah!", True), ("yep, it's me", True), ("uh-huh", True),
    ("that's me", True), ("mhm", True), ("no", False), ("nope", False), ("not me", False),
    ("no, I'm not", False), ("I like trains", None), ("maybe", None),
    ("yes I want to tell you about my dinosaur and the park today", None),
])
def test_answers_to_the_check(line: str, answer: bool | None) -> None:
    assert answer_to_check(line) is answer


@pytest.mark.parametrize(("line", "kind"), [
    ("forget everything", "forget_everything"),
    ("Buddy, delete your memory!", "forget_everything"),
    ("you can remember things about me", "memory_consent"),
    ("change my birthday to tomorrow", "profile_update"),
    ("I'm the parent, let him talk longer", "profile_update"),
    ("can we talk longer today", "limits"),
    ("I forgot my teddy", None),
    ("do you remember my dog?", None),
    ("it's my birthday", None),
])
def test_parent_requests(line: str, kind: str | None) -> None:
    assert find_parent_request(line) == kind


def _kinds(heard) -> list[int]:
    return [e.kind for e in heard.events]


def test_a_known_name_is_checked_once_and_yes_validates() -> None:
    t = SpeakerTracker(household=frozenset({"leo", "mia"}))
    heard = t.hear("I'm Leo")
    assert _kinds(heard) == [EXPLICIT_IDENTITY_CLAIM] and heard.events[0].value == "Leo"
    assert heard.line == CHECK_LINE.format(name="Leo") == "Leo! Is that you?"
    assert t.session_name == ""  # not before the yes
    heard = t.hear("yes!")
    assert _kinds(heard) == [VALIDATION_SUCCESS, SPEAKING_TURN]
    assert heard.line == GREETING_LINE.format(name="Leo") and "Leo" in heard.line
    assert t.session_name == "Leo"
    heard = t.hear("I like trains")
    assert _kinds(heard) == [SPEAKING_TURN] and heard.line is None
    assert t.hear("I'm Leo").line is None  # said again: no second check


def test_no_is_a_validation_failure_and_no_name_is_used() -> None:
    t = SpeakerTracker(household=frozenset({"leo"}))
    t.hear("it's me, Leo")
    heard = t.hear("no")
    assert _kinds(heard) == [VALIDATION_FAILURE] and heard.line == NOT_YOU_LINE
    assert t.session_name == ""
    assert t.hear("I'm Leo").events == []  # the check is asked once per session


def test_an_unanswered_check_is_not_asked_again() -> None:
    t = SpeakerTracker(household=frozenset({"leo"}))
    t.hear("I'm Leo")
    heard = t.hear("I want to play")
    assert heard.events == [] and heard.line is None and not t.awaiting
    assert t.counters["check_unanswered"] == 1


def test_an_unknown_name_addresses_the_child_for_this_session_only() -> None:
    t = SpeakerTracker(household=frozenset({"leo"}))
    heard = t.hear("my name is Zoe")
    assert _kinds(heard) == [EXPLICIT_IDENTITY_CLAIM]
    assert heard.line is None and t.session_name == "Zoe"  # the usual reply answers ...
    assert heard.rules_line == MEET_LINE.format(name="Zoe")  # ... by rules: this line
    t.reset()  # the next session
    assert t.session_name == ""


def test_a_different_name_in_the_session_is_a_strong_conflict() -> None:
    t = SpeakerTracker(household=frozenset({"leo", "mia"}))
    t.hear("I'm Leo")
    t.hear("yes")
    heard = t.hear("I'm Mia")
    assert _kinds(heard) == [STRONG_CONFLICT] and t.session_name == ""
    assert t.hear("I'm Leo").events == [] and t.hear("hello").events == []


def test_no_with_another_name_is_a_failure_and_a_conflict() -> None:
    t = SpeakerTracker(household=frozenset({"leo", "mia"}))
    t.hear("I'm Leo")
    heard = t.hear("no, I'm Mia")
    assert _kinds(heard) == [VALIDATION_FAILURE, STRONG_CONFLICT]


def test_a_spoken_parent_request_gets_the_pointer_never_the_action() -> None:
    t = SpeakerTracker()
    heard = t.hear("I'm the mommy, forget everything")
    assert heard.line == PARENT_PAGE_LINE and "parent page" in heard.line
    assert heard.parent_request is not None
    assert heard.parent_request.kind == "forget_everything"


def test_household_names_drop_names_two_members_share() -> None:
    names = household_names([("mom", "Anna", "Mama"), ("gran", "Anna", ""), ("leo", "Leo", "")])
    assert names == frozenset({"mom", "mama", "gran", "leo"})


def test_household_file_is_reread_when_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "household.json"
    watch = HouseholdFile(path)
    assert not watch.refresh() and watch.names == frozenset()
    write_household(path, [Profile("leo", "Leo", "child")])
    assert watch.refresh() and "leo" in watch.names
    assert not watch.refresh()
    path.write_text("{broken")
    assert watch.refresh() and watch.names == frozenset() and "unreadable" in watch.error


def _bridge() -> BridgeCore:
    core = BridgeCore(random.Random(1), server_configured=False)
    core.on_household(frozenset({"leo"}))
    return core


def test_bridge_checks_then_greets_by_name_in_layer_0() -> None:
    core = _bridge()
    step = core.on_utterance(0.0, "hey buddy, I'm Leo")
    assert [s.text for s in step.says] == ["Leo! Is that you?"]
    assert [(e.kind, e.value) for e in step.identity_events] == [(EXPLICIT_IDENTITY_CLAIM,
                                                                  "Leo")]
    step = core.on_utterance(5.0, "yes")
    assert [s.text for s in step.says] == [GREETING_LINE.format(name="Leo")]
    assert [e.kind for e in step.identity_events] == [VALIDATION_SUCCESS, SPEAKING_TURN]


def test_bridge_gives_the_session_name_to_the_prompt() -> None:
    core = _bridge()
    core.on_identity(0.0, IdentityView(state=ID_UNKNOWN))
    step = core.on_utterance(0.0, "hey buddy, my name is Zoe")
    assert [s.text for s in step.says] == [MEET_LINE.format(name="Zoe")]  # layer 0
    assert core._identity_for_prompt().name_for_prompt() == "Zoe"
    core.on_utterance(1.0, "bye bye")
    core.on_utterance(10.0, "hey buddy")
    assert core._identity_for_prompt().name_for_prompt() == ""


def test_bridge_answers_a_voice_parent_request_with_a_guardrail_event() -> None:
    core = _bridge()
    step = core.on_utterance(0.0, "hey buddy, forget everything")
    assert [s.text for s in step.says] == [PARENT_PAGE_LINE]
    assert [(g.rule_id, g.details) for g in step.guardrails] == [("PARENT-PIN",
                                                                  "forget_everything")]
    assert step.call is None


def test_the_safety_corpus_child_lines_are_no_introductions() -> None:
    """A held-out check written by someone else: the child lines of the safety corpus
    (distress and its near-misses: "I'm frightened", "they call me names", "I'm stuck")
    must never make Buddy call a child by a feeling."""
    import json

    root = CORPUS.parents[1] / "safety"
    lines = [json.loads(raw)["text"] for path in sorted(root.rglob("child_utterances.jsonl"))
             for raw in path.read_text(encoding="utf-8").splitlines() if raw.strip()]
    assert len(lines) > 100
    named = [(t, find_introduction(t, CORPUS_HOUSEHOLD)) for t in lines]
    assert [(t, n) for t, n in named if n is not None] == []
