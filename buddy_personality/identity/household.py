"""A parent sets up the household: add, edit and remove a child (issue 30 item 1).

Spec 004 keeps household profiles (name, role, birthdate, addressing preference) and lets
them change only through the Pending Profile Update FSM; DESIGN erratum 18 gives profile
changes to a requester who proved the parent PIN. A parent's form (the parent page, or
`buddy parent add-child | edit-child | remove-child`) is one explicit change: it runs the
FSM from request to APPROVED at once (ProfileHandler.run_approved) and is written to the
household file atomically, whole or not at all.

What is accepted (rules as data, below):
- names and addressing forms are words: letters, joined by a single space, hyphen,
  apostrophe or dot ("Leo", "Mary-Jane", "Zoë", "Anne Marie"), at most MAX_WORDS_CHARS.
  Digits, brackets and markup are refused: the name is spoken and shown on the page.
- a child's birthdate, when given, makes them CHILD_MIN_AGE_YEARS to CHILD_MAX_AGE_YEARS
  old today. Buddy is for "children aged 4-6" (spec 002 §12.4); a younger sibling from 2
  and an older one up to 12 still talk with it, and up to 12 they stay in the CHILD age
  group of spec 004 §1.2 (TEEN from 13), which is what a child profile means. A date
  outside is a typo (a year off by ten, a parent's own birthdate) and is refused. An
  empty birthdate is allowed: unknown age behaves as CHILD (spec 004 §1.2).
- removing a child first forgets that child's memories (the forget_user effect, which
  the identity node asks of the personality node); the profile goes only after that
  succeeded (`remove`), so a failed forget leaves the household as it was.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import replace

from .age_context import TEEN_FROM_YEARS, age_in_years
from .enums import ROLE_CHILD, ProfileUpdateState
from .ledger import Ledger
from .parent_pin import ParentProof
from .profile_handler import PendingUpdate, ProfileHandler
from .profiles import Profile, ProfileStore

CHILD_MIN_AGE_YEARS = 2
CHILD_MAX_AGE_YEARS = TEEN_FROM_YEARS - 1  # 12: still CHILD in spec 004 §1.2
MAX_WORDS_CHARS = 32
REMOVE_EFFECT = "remove_child"  # the command name the forget_user effect carries
_WORD = r"[^\W\d_]+"  # letters of any script, no digits or underscore
_WORDS = re.compile(rf"{_WORD}(?:[ '\u2019.-]{_WORD})*\.?")

P = ProfileUpdateState


def words_problem(label: str, text: str) -> str:
    """Why `text` is not a name Buddy can say and the page can show ("" when it is)."""
    if not text:
        return f"the {label} is empty"
    if len(text) > MAX_WORDS_CHARS:
        return f"the {label} is longer than {MAX_WORDS_CHARS} characters"
    if not _WORDS.fullmatch(text):
        return (f"the {label} {text!r} is not a name: use letters, with a space, hyphen or "
                "apostrophe between words")
    return ""


def child_birthdate(text: str, today: dt.date | None) -> tuple[dt.date | None, str]:
    """A child's birthdate (None for "not given"), or the reason it is refused."""
    if not text:
        return None, ""
    try:
        born = dt.date.fromisoformat(text)
    except ValueError:
        return None, f"the birthdate {text!r} is not a date: write it as YYYY-MM-DD"
    if today is None:
        return None, ("Buddy does not know today's date yet (its clock is not set), so it "
                      "cannot check a birthdate; leave it empty for now")
    age = age_in_years(born, today)
    if born > today or not CHILD_MIN_AGE_YEARS <= age <= CHILD_MAX_AGE_YEARS:
        return None, (f"a child born on {born.isoformat()} would be {max(age, 0)} today; "
                      f"Buddy's children are {CHILD_MIN_AGE_YEARS} to "
                      f"{CHILD_MAX_AGE_YEARS} years old")
    return born, ""


def new_user_id(name: str, taken: set[str]) -> str:
    """A stable, readable id from the name ("Zoë Rose" -> "zoe-rose"), unique."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:24] or "child"
    user_id, n = base, 2
    while user_id in taken:
        user_id, n = f"{base}-{n}", n + 1
    return user_id


class HouseholdHandler:
    def __init__(self, ledger: Ledger, store: ProfileStore, profiles: ProfileHandler) -> None:
        self._ledger = ledger
        self._store = store
        self._profiles = profiles

    def _refuse(self, reason: str, user_id: str = "") -> None:
        self._ledger.reject("household_refused", reason)
        self._ledger.reply(False, P.REJECTED, reason, user_id)

    def _name_taken(self, name: str, but: str = "") -> bool:
        """Two members answering to one name would make spoken claims ambiguous (spec 004:
        an ambiguous name resolves to nobody)."""
        wanted = name.casefold()
        return any(p.user_id != but and wanted in (p.name.casefold(),
                                                   (p.addressing or "").casefold())
                   for p in self._store.profiles())

    def _child(self, user_id: str, parent: ParentProof, what: str) -> Profile | None:
        if self._ledger.needs_parent(parent, f"{what} of {user_id!r}", P.NONE):
            return None
        profile = self._store.get(user_id)
        if profile is None:
            self._refuse(f"there is no {user_id!r} in the household", user_id)
            return None
        if profile.role != ROLE_CHILD:
            self._refuse(f"{profile.name} is a parent: only children are set up here",
                         user_id)
            return None
        return profile

    def add(self, name: str, birthdate: str, addressing: str, now: float,
            parent: ParentProof, today: dt.date | None) -> None:
        led = self._ledger
        if led.needs_parent(parent, "adding a child", P.NONE):
            return
        name, birthdate, addressing = name.strip(), birthdate.strip(), addressing.strip()
        born, why = child_birthdate(birthdate, today)
        why = (words_problem("name", name) or why
               or (words_problem("addressing", addressing) if addressing else ""))
        if not why and self._name_taken(name):
            why = f"there is already a {name} in the household"
        if why:
            self._refuse(why)
            return
        user_id = new_user_id(name, set(self._store.user_ids()))
        child = Profile(user_id, name, ROLE_CHILD, born, addressing or None)
        ok, message = self._profiles.run_approved(user_id, lambda: self._store.put(child),
                                                  now)
        led.reply(ok, P.NONE if ok else P.REJECTED,
                  message or f"{name} joined the household", user_id)

    def edit(self, user_id: str, name: str, birthdate: str, addressing: str, now: float,
             parent: ParentProof, today: dt.date | None) -> list[PendingUpdate]:
        """The fields that changed (empty when nothing was written)."""
        led = self._ledger
        current = self._child(user_id, parent, "editing")
        if current is None:
            return []
        name, birthdate, addressing = name.strip(), birthdate.strip(), addressing.strip()
        why = ""
        changes: dict[str, object] = {}
        if name:
            why = words_problem("name", name) or (
                f"there is already a {name} in the household"
                if self._name_taken(name, but=user_id) else "")
            changes["name"] = name
        if birthdate and not why:
            born, why = child_birthdate(birthdate, today)
            changes["birthdate"] = born
        if addressing and not why:
            why = words_problem("addressing", addressing)
            changes["addressing"] = addressing
        if not why and not changes:
            why = "nothing to change: give a name, a birthdate or an addressing form"
        if why:
            self._refuse(why, user_id)
            return []
        updated = replace(current, **changes)  # type: ignore[arg-type]
        ok, message = self._profiles.run_approved(user_id, lambda: self._store.put(updated),
                                                  now)
        led.reply(ok, P.NONE if ok else P.REJECTED,
                  message or f"{updated.name}'s profile updated", user_id)
        if not ok:
            return []
        return [PendingUpdate("", user_id, field, value, True)
                for field, value in changes.items()]

    def may_remove(self, user_id: str, parent: ParentProof) -> Profile | None:
        """The child to remove, once the request is checked (nothing changes yet)."""
        return self._child(user_id, parent, "removing")

    def remove(self, user_id: str, now: float) -> bool:
        """After the child's memories were forgotten: the profile goes (atomic)."""
        profile = self._store.get(user_id)
        if profile is None:
            self._refuse(f"there is no {user_id!r} in the household", user_id)
            return False
        ok, message = self._profiles.run_approved(user_id,
                                                  lambda: self._store.remove(user_id), now)
        self._ledger.reply(ok, P.NONE if ok else P.REJECTED, message or
                           f"{profile.name} left the household; Buddy forgot what it "
                           f"remembered about {profile.name}", user_id)
        return ok
