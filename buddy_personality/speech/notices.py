"""What Buddy says about its own speech hardware (DESIGN §4.7): faults raised on
`system/events` by the speech nodes that a child should hear about, once per outage.
The bridge says them through the normal `tts/say` path (and so through the output guard).
Rules as data: one row per fault name (SystemEvent.detail)."""

from __future__ import annotations

from buddy_personality.speech.ears import FAULT_NAME as ASR_UNAVAILABLE
from buddy_personality.speech.ears import SLOW_FAULT_NAME as ASR_SLOW

SPOKEN_FAULTS: dict[str, str] = {
    ASR_UNAVAILABLE: "Uh oh, my ears are not working right now, so I can't hear you. "
                     "Can you ask a grown-up to help me?",
    ASR_SLOW: "Hmm, I'm having a little trouble hearing right now. "
              "Give me a moment to think about what you said.",
}
