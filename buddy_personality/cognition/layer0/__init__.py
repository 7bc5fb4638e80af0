"""Layer 0: Buddy's conversation without the server (spec 002 §10 RS-9, PE-7).

`answers.yaml` is the table (what a 4-6 year old says, and Buddy's answers); `table`
loads and checks it, `understand` matches a line to a row, `respond` picks the answer.
"""

from buddy_personality.cognition.layer0.respond import REPEAT_WINDOW, Layer0, Layer0Answer

__all__ = ["REPEAT_WINDOW", "Layer0", "Layer0Answer"]
