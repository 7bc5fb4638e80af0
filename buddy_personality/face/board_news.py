"""Which bytes from the board are worth waking a paused driver for.

The firmware sends FACE_STATUS every 50 ms and HEARTBEAT every second whatever happens
(face-protocol.md). A driver that pauses its fixed-rate tick when nothing is going on
(the face driver node, issue 8) would be woken 21 times a second by that chatter, so the
port's reader thread asks `BoardNews` first: only a frame that says something new wakes
the driver at once. Chatter is still read at the next tick (deadlines: keepalive,
talking refresh, read-back checks), so nothing is lost, only not hurried.

News: a button or touch event, a TIME_SYNC reply (its round trip is timed), a protocol
ACK, any frame type not known here, and a FACE_STATUS whose visible fields (mood,
gesture, system mode, flags) or envelope differ from the previous one (a v1 status in
v2 mode is a board reset). Not news: HEARTBEAT, an unchanged FACE_STATUS, and bytes
that do not make a whole valid frame.
"""

from __future__ import annotations

from buddy_personality.face.codec import V1_HEADER, V2_HEADER, FrameDecoder
from buddy_personality.face.protocol import PacketType

STATUS_FIELDS = 4   # mood_id, active_gesture, system_mode, flags


class BoardNews:
    """Fed from the reader thread only (its own frame decoder; no shared state)."""

    def __init__(self) -> None:
        self._decoder = FrameDecoder()
        self._last_status: tuple[int, bytes] | None = None

    def is_news(self, data: bytes) -> bool:
        news = False
        for body in self._decoder.feed(data):
            kind = body[0]
            if kind == PacketType.HEARTBEAT:
                continue
            if kind == PacketType.FACE_STATUS:
                # v1: 2-byte header + 4; v2: 13-byte header + 4 + 8
                offset = V2_HEADER.size if len(body) >= V2_HEADER.size + STATUS_FIELDS \
                    else V1_HEADER.size
                key = (offset, bytes(body[offset:offset + STATUS_FIELDS]))
                if key == self._last_status:
                    continue
                self._last_status = key
            news = True
        return news
