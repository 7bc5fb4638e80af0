"""The engine's use of memory (spec 002 §8, RS-4, RS-5, DESIGN §4.1, erratum 18): the
consent gate in front of the store, the §8.3 affect bias and the tags the LLM profile
carries, both cached because strengths change over days, not seconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from buddy_personality.msg_constants import ConsentScope, ConsentStateId
from buddy_personality.personality.affect import MEMORY_ACTIVE_THRESHOLD, MEMORY_WEIGHT
from buddy_personality.personality.guardrails import GuardrailConfig
from buddy_personality.personality.inputs import STRING_MAX, bump
from buddy_personality.personality.memory import MemoryStore
from buddy_personality.personality.records import MemoryReport, MemoryView

# ConsentRecord.state GRANTED; the scope the memory gate reads (RS-5)
CONSENT_GRANTED = ConsentStateId.GRANTED
MEMORY_SCOPE = ConsentScope.MEMORY
MEMORY_BIAS_REFRESH_S = 60.0  # strengths change over days: refreshing each minute is exact enough
PROFILE_TOP_TAGS = 5


class MemoryAccess:
    """Consent gate, cached bias and cached top tags over one `MemoryStore`."""

    __slots__ = ("_bias_refresh_at", "_bias_version", "_tags_refresh_at", "_tags_version",
                 "_top_tags", "bias_a", "bias_v", "consent", "consented_users",
                 "current_user", "guardrails", "store")

    def __init__(self, store: MemoryStore, consent: bool, guardrails: GuardrailConfig,
                 now: float) -> None:
        self.store = store
        self.consent = consent  # the memory_consent parameter
        self.guardrails = guardrails
        self.current_user = ""
        self.consented_users: set[str] = set()
        self.bias_v = 0.0
        self.bias_a = 0.0
        self._bias_version = -1
        self._bias_refresh_at = now
        self._top_tags: tuple[str, ...] = ()
        self._tags_version = -1
        self._tags_refresh_at = now

    # --- RS-5 consent gate ------------------------------------------------------------
    def set_consent(self, records: Iterable[tuple[str, str, int]]) -> None:
        """All consent records (user_id, scope, state); replaces the previous set."""
        self.consented_users = {
            user for user, scope, state in records
            if scope == MEMORY_SCOPE and state == CONSENT_GRANTED and user
        }

    def refusal(self, user_id: str = "") -> str | None:
        """Why memory may not be written now (RS-5, DESIGN §4.1), or None."""
        if not self.consent:
            return "memory_consent parameter is false"
        if not self.guardrails.memory_consent_required:
            return None
        user = user_id or self.current_user
        if not user:
            return "no identified user"
        if user != self.current_user:
            return f"user {user!r} is not the current user"
        if user not in self.consented_users:
            return f"no GRANTED memory consent for user {user!r}"
        return None

    # --- caches ---------------------------------------------------------------------------
    def refresh_bias_if_due(self, now: float) -> None:
        """spec 002 §8.3: the bias from the store's strength sums, when stale."""
        if now >= self._bias_refresh_at or self.store.version != self._bias_version:
            bv, ba = self.store.bias(now)
            self.bias_v = bv * MEMORY_WEIGHT
            self.bias_a = ba * MEMORY_WEIGHT
            self._bias_version = self.store.version
            self._bias_refresh_at = now + MEMORY_BIAS_REFRESH_S
            assert MEMORY_ACTIVE_THRESHOLD == 0.05  # the store applies the §8.3 threshold

    def top_tags(self, now: float) -> tuple[str, ...]:
        """The strongest tags, re-ranked when memory changes or once a minute."""
        if self.store.version != self._tags_version or now >= self._tags_refresh_at:
            self._top_tags = tuple(
                e.tag for e, _ in self.store.strongest(now, PROFILE_TOP_TAGS))
            self._tags_version = self.store.version
            self._tags_refresh_at = now + MEMORY_BIAS_REFRESH_S
        return self._top_tags

    def profile_tags(self, now: float) -> tuple[str, ...]:
        """Memory reaches the LLM only while consent is active (RS-5): a revoked consent
        silences the tags at once, before any parent asks to delete them."""
        return self.top_tags(now) if self.refusal() is None else ()

    # --- writes and the parent viewer -----------------------------------------------------
    def remember(self, now: float, tags: Sequence[tuple[str, str, float, float]],
                 user_id: str, refusals: dict[str, int]) -> MemoryReport:
        """Store the (tag, category, valence_bias, arousal_bias) of one turn under consent;
        `refusals` counts what was refused (diagnostics)."""
        refused = self.refusal(user_id)
        # issue 16: each entry notes the household user it came from (the extract's user,
        # or the identified user), so a parent can forget one child
        source_user = user_id or self.current_user
        stored: list[str] = []
        reinforced: list[str] = []
        evicted: list[str] = []
        rejected: list[tuple[str, str]] = []
        if refused is not None:
            bump(refusals, "consent")
        else:
            for tag, category, vb, ab in tags:
                result = self.store.remember(tag, category, vb, ab, now, user=source_user)
                if result.reason is not None:
                    rejected.append((str(tag)[:STRING_MAX], result.reason))
                    bump(refusals, "invalid_tag")
                elif result.reinforced:
                    reinforced.append(tag)
                else:
                    stored.append(tag)
                if result.evicted:
                    evicted.append(result.evicted)
        return MemoryReport(tuple(stored), tuple(reinforced), tuple(evicted),
                            tuple(rejected), refused)

    def views(self, now: float) -> list[MemoryView]:
        """Every stored memory, strongest first (RS-4 parent viewer)."""
        return [
            MemoryView(e.tag, e.category, s, e.valence_bias, e.arousal_bias, e.created_ts,
                       e.last_reinforced_ts, e.reinforcement_count, e.source, tuple(e.users))
            for e, s in self.store.strongest(now)
        ]
