"""The personality engine core (spec 002 §1-§10, §13; spec 000 intent gate).

ROS-free: nothing here imports rclpy. Every entry point takes the time as an argument.
"""

from buddy_personality.personality.engine import EngineOutput, PersonalityEngine
from buddy_personality.personality.traits import TraitParameters, derive_traits

__all__ = ["EngineOutput", "PersonalityEngine", "TraitParameters", "derive_traits"]
