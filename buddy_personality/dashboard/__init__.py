"""The parent dashboard (DESIGN §4.6; spec 002 §8.5, RS-4, RS-5): a web page on the robot
where a parent sees what Buddy remembers, how long the child talked, distress alerts and
the face live, and forgets, consents and limits.

Core first, node thin: the web app (`app.py`) talks to the graph only through one small
port object (`port.py`); `nodes/parent_dashboard_node.py` implements that port over ROS
topics and services, `testing.py` implements it in memory for tests without ROS. The
dashboard holds no rule of the spec: every action goes to the identity node's FSMs with
the parent's token, and what it shows is what the graph publishes.
"""
