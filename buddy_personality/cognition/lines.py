"""Buddy's fixed lines: the short kind lines that close or refuse a conversation.

Layer 0's conversation (no server, RS-9) lives in cognition/layer0/ as a reviewed table.
"""

from __future__ import annotations

# Closing lines by end reason (ConversationEvent END_* values). Kind, short, no guilt or
# obligation (HC-6), no loneliness (HC-5).
CLOSING_LINES: dict[str, str] = {
    "goodbye": "Bye bye! That was fun. See you next time!",
    "session_limit": "We've talked so much! Let's take a little break now. See you soon!",
    "daily_limit": "What a lot of talking today! Let's play again tomorrow.",
    "governor_halted": "I need a little rest now. Let's talk again later!",
}
# RS-2 lockout: a child who tries to start a conversation gets this, and nothing more.
LOCKOUT_LINE = "I'm resting now. Let's play again tomorrow!"
