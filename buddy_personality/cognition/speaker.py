"""Who Buddy is talking with, from what it hears (DESIGN erratum 17), for one session.

The bridge hands every child line to `SpeakerTracker.hear` before cognition. It turns a
self-introduction into `explicit_identity_claim(name)`; a name that matches exactly one
household profile makes Buddy check once per session, in its next line ("Leo! Is that
you?"), and the child's yes or no becomes `validation_success` / `validation_failure`.
An unknown name is used to address the child for that session only (nothing is stored:
consent needs a known profile). A different name inside the session is a
`strong_conflict`, after which Buddy uses no name. A spoken request that needs a parent
(forget everything, consent, a birthdate, limits, delegation; erratum 18) gets a kind
pointer to the parent page and a guardrail event, never the action.

ROS-free and deterministic; the phrase tables live in `introductions.py`, the lines here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from buddy_personality.cognition.introductions import (
    answer_to_check,
    find_introduction,
    find_parent_request,
)

# buddy_msgs/IdentityEvent kinds, repeated so the core imports no ROS.
EXPLICIT_IDENTITY_CLAIM, VALIDATION_SUCCESS, VALIDATION_FAILURE = 3, 4, 5
STRONG_CONFLICT, SPEAKING_TURN = 7, 8

PARENT_RULE = "PARENT-PIN"           # GuardrailEvent.rule_id of a refused voice request
PARENT_ACTION = "voice_request_refused"

# Buddy's lines for the identity turns: short, warm, and never a promise it cannot keep.
CHECK_LINE = "{name}! Is that you?"
GREETING_LINE = "Hi, {name}! I'm so happy to see you!"
NOT_YOU_LINE = "Oops, my mistake! Hello, friend!"
MEET_LINE = "Hi, {name}! Nice to meet you!"
PARENT_PAGE_LINE = ("That's a job for a grown-up. A grown-up can do that on my parent "
                    "page.")


@dataclass(slots=True, frozen=True)
class SpeakerEvent:
    kind: int          # IdentityEvent kind
    value: str = ""    # the claimed name for EXPLICIT_IDENTITY_CLAIM


@dataclass(slots=True, frozen=True)
class ParentRequest:
    kind: str          # forget_everything | memory_consent | profile_update | limits | ...


@dataclass(slots=True)
class Heard:
    """What one child line means for identity: events to publish, and the line Buddy says
    instead of its usual reply (None: answer as usual)."""

    events: list[SpeakerEvent] = field(default_factory=list)
    line: str | None = None
    parent_request: ParentRequest | None = None
    # Said instead of the layer-0 reply when Buddy answers by rules; with the LLM, the
    # name reaches the prompt instead ("Hi, Zoe! Nice to meet you!" for an unknown name).
    rules_line: str | None = None


def household_names(entries: Iterable[tuple[str, ...]]) -> frozenset[str]:
    """Names (case-folded) that identify exactly one household member. Each entry is one
    member's (user_id, name, addressing...) as the identity node matches them; a name two
    members share is no one's (spec 004: ambiguity resolves to the safe side)."""
    owners: dict[str, set[int]] = {}
    for i, entry in enumerate(entries):
        for word in entry:
            if word and word.strip():
                owners.setdefault(word.strip().casefold(), set()).add(i)
    return frozenset(name for name, who in owners.items() if len(who) == 1)


@dataclass(slots=True)
class SpeakerTracker:
    household: frozenset[str] = frozenset()
    counters: Counter[str] = field(default_factory=Counter)
    _claimed: str = ""          # the first name claimed this session
    _awaiting: str = ""         # the name Buddy asked about ("Leo! Is that you?")
    _checked: bool = False      # asked once this session already
    _confirmed: bool = False    # the child said yes
    _conflict: bool = False     # two names this session: no name any more
    _session_name: str = ""     # how Buddy addresses the child this session

    def reset(self) -> None:
        """A new session: nothing carries over (unknown names are for one session)."""
        self._claimed = self._awaiting = self._session_name = ""
        self._checked = self._confirmed = self._conflict = False

    @property
    def session_name(self) -> str:
        return "" if self._conflict else self._session_name

    @property
    def awaiting(self) -> str:
        return self._awaiting

    def hear(self, text: str) -> Heard:
        heard = Heard()
        kind = find_parent_request(text)
        intro = find_introduction(text, self.household)
        if self._awaiting:
            self._answer(heard, text, intro.name if intro else "")
        elif intro is not None:
            self._introduced(heard, intro.name)
        elif self._confirmed and not self._conflict:
            heard.events.append(SpeakerEvent(SPEAKING_TURN))
        if kind is not None:
            # Erratum 18: never the action; a kind pointer, and a guardrail event.
            self.counters[f"parent_request.{kind}"] += 1
            heard.parent_request = ParentRequest(kind)
            heard.line = PARENT_PAGE_LINE
        return heard

    def _answer(self, heard: Heard, text: str, named: str) -> None:
        asked, self._awaiting = self._awaiting, ""
        if named and named.casefold() != asked.casefold():
            answer: bool | None = False  # "No, I'm Mia"
        elif named:
            answer = True                # "I'm Leo!" again
        else:
            answer = answer_to_check(text)
        if answer is None:
            self.counters["check_unanswered"] += 1
            return  # asked once; not asked again this session
        if answer:
            self.counters["validated"] += 1
            self._confirmed = True
            self._session_name = asked
            heard.events += [SpeakerEvent(VALIDATION_SUCCESS), SpeakerEvent(SPEAKING_TURN)]
            heard.line = GREETING_LINE.format(name=asked)
            return
        self.counters["validation_failed"] += 1
        heard.events.append(SpeakerEvent(VALIDATION_FAILURE))
        heard.line = NOT_YOU_LINE
        if named:
            self._conflicting(heard)

    def _introduced(self, heard: Heard, name: str) -> None:
        if self._conflict:
            return
        if self._claimed:
            if name.casefold() != self._claimed.casefold():
                self._conflicting(heard)
            elif self._confirmed:
                heard.events.append(SpeakerEvent(SPEAKING_TURN))
            return
        self._claimed = name
        self.counters["claims"] += 1
        heard.events.append(SpeakerEvent(EXPLICIT_IDENTITY_CLAIM, name))
        if name.casefold() in self.household and not self._checked:
            self._checked = True
            self._awaiting = name
            heard.line = CHECK_LINE.format(name=name)
        else:
            self.counters["unknown_names"] += 1
            self._session_name = name  # this session only; nothing stored
            heard.rules_line = MEET_LINE.format(name=name)

    def _conflicting(self, heard: Heard) -> None:
        """Erratum 17: a different name in the same session is a strong conflict."""
        self.counters["conflicts"] += 1
        self._conflict = True
        heard.events.append(SpeakerEvent(STRONG_CONFLICT))


@dataclass(slots=True)
class HouseholdFile:
    """The household file's names, re-read when the file changes (the bridge only reads
    it; the identity node owns it). A missing or unreadable file means no known names:
    every introduction is then an unknown name, addressed for the session only."""

    path: Path | None
    names: frozenset[str] = frozenset()
    error: str = ""
    _stamp: tuple[int, int] | None = None

    def refresh(self) -> bool:
        """Re-read if the file changed; True when `names` changed."""
        if self.path is None:
            return False
        try:
            st = self.path.stat()
            stamp: tuple[int, int] | None = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        before = self.names
        if stamp is None:
            self.names, self.error = frozenset(), ""
            return before != self.names
        from buddy_personality.identity.profiles import read_household  # noqa: PLC0415

        try:
            profiles, _ = read_household(self.path)
        except (OSError, ValueError) as exc:
            self.names, self.error = frozenset(), f"household file unreadable: {exc}"
            return before != self.names
        self.error = ""
        self.names = household_names((p.user_id, p.name, p.addressing or "") for p in profiles)
        return before != self.names
