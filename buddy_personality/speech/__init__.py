"""Buddy hears and speaks (DESIGN §4.7): ROS-free cores of the `tts` and `asr` nodes."""
