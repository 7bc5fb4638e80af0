"""`personality/affect_markers`: the VA plane drawn for rviz and Foxglove (the 13 mood
anchors with labels, the baseline, the decay attractor, the current affect and a trail).
For a viewer only: nothing is built while nobody subscribes (issue 14)."""

from __future__ import annotations

from collections import deque

from geometry_msgs.msg import Point
from rclpy.node import Node
from std_msgs.msg import ColorRGBA
from visualization_msgs.msg import Marker, MarkerArray

from buddy_personality.nodes.common import qos
from buddy_personality.personality.moods import MOOD_ANCHORS, NEGATIVE_MOODS
from buddy_personality.personality.records import Snapshot
from buddy_personality.personality.traits import TraitParameters

MARKER_FRAME = "buddy_affect"  # the VA plane: x = valence, y = arousal
TRAIL_LENGTH = 30  # ticks of affect history drawn as a trail


def _color(mood: str, alpha: float = 1.0) -> ColorRGBA:
    if mood in NEGATIVE_MOODS:
        return ColorRGBA(r=0.9, g=0.3, b=0.3, a=alpha)
    if mood == "neutral":
        return ColorRGBA(r=0.8, g=0.8, b=0.8, a=alpha)
    return ColorRGBA(r=0.3, g=0.8, b=0.4, a=alpha)


def _marker(ns: str, mid: int, kind: int, x: float, y: float, scale: float,
            color: ColorRGBA) -> Marker:
    m = Marker()
    m.header.frame_id = MARKER_FRAME
    m.ns = ns
    m.id = mid
    m.type = kind
    m.action = Marker.ADD
    m.pose.position.x = float(x)
    m.pose.position.y = float(y)
    m.pose.orientation.w = 1.0
    m.scale.x = m.scale.y = m.scale.z = scale
    m.color = color
    return m


class AffectMarkers:
    """The markers' publisher, the trail of the last ticks and the markers that never move."""

    def __init__(self, node: Node, traits: TraitParameters) -> None:
        self._node = node
        self._pub = node.create_publisher(MarkerArray, "personality/affect_markers",
                                          qos.of("personality/affect_markers"))
        self._trail: deque[tuple[float, float]] = deque(maxlen=TRAIL_LENGTH)
        self._static = self._build_static(traits)

    @staticmethod
    def _build_static(traits: TraitParameters) -> list[Marker]:
        """The 13 anchors with labels and the baseline never move: built once."""
        markers: list[Marker] = []
        for k, (mood, (v, a)) in enumerate(MOOD_ANCHORS.items()):
            markers.append(_marker("anchors", k, Marker.SPHERE, v, a, 0.05, _color(mood, 0.8)))
            label = _marker("labels", k, Marker.TEXT_VIEW_FACING, v, a + 0.06, 0.06,
                            ColorRGBA(r=1.0, g=1.0, b=1.0, a=1.0))
            label.text = mood
            markers.append(label)
        markers.append(_marker("baseline", 0, Marker.CYLINDER, traits.baseline_valence,
                               traits.baseline_arousal, 0.04,
                               ColorRGBA(r=0.3, g=0.5, b=1.0, a=1.0)))
        return markers

    def tick(self, s: Snapshot, attractor_valence: float, attractor_arousal: float) -> None:
        """One tick's affect joins the trail; the markers go out if anyone watches."""
        self._trail.append((s.valence, s.arousal))
        # Markers are for rviz and Foxglove only: nobody watching, nothing built. Building
        # and publishing them each second was a tenth of the idle robot's executor time
        # (issue 14); a viewer that connects gets them at the next tick (the trail is kept).
        if self._pub.get_subscription_count() == 0:
            return
        current = _marker("affect", 0, Marker.SPHERE, s.valence, s.arousal, 0.08,
                          _color(s.mood))
        trail = _marker("trail", 0, Marker.LINE_STRIP, 0.0, 0.0, 0.01,
                        ColorRGBA(r=1.0, g=0.8, b=0.2, a=0.8))
        trail.points = [Point(x=float(v), y=float(a), z=0.0) for v, a in self._trail]
        # DESIGN §6.11: where the decay pulls now (the baseline, or the sleep rule's target
        # while drowsy / asleep), so a sleeping Buddy's attractor is seen moving in rviz.
        attractor = _marker("attractor", 0, Marker.CUBE, attractor_valence,
                            attractor_arousal, 0.05, ColorRGBA(r=0.6, g=0.4, b=1.0, a=0.9))
        stamp = self._node.get_clock().now().to_msg()
        markers = [*self._static, attractor, current, trail]
        for m in markers:
            m.header.stamp = stamp
        self._pub.publish(MarkerArray(markers=markers))
