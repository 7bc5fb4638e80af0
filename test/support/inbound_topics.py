"""The inbound topics of every node, read from the nodes' code (issue 31 item 1): every
`create_subscription(Type, "topic", ...)` in the module of each class bringup.NODE_CLASSES
names, the message type resolved in that module. Not hand-picked, so a subscription
added to a node is fuzzed and checked without anyone listing it."""

from __future__ import annotations

import ast
import inspect
import sys

from buddy_personality.nodes.bringup import NODE_CLASSES


def _calls(tree: ast.AST) -> list[ast.Call]:
    return [call for call in ast.walk(tree)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "create_subscription" and len(call.args) >= 2
            and isinstance(call.args[0], ast.Name) and isinstance(call.args[1], ast.Constant)]


def subscriptions_in(cls: type, conditional: bool = True) -> list[tuple[str, type]]:
    """(topic, message type) of every `create_subscription(Type, "topic", ...)` in the
    module of node class `cls`; with conditional=False only those not under an `if`
    (a subscription made only in some configurations, e.g. asr's tts/played)."""
    module = sys.modules[cls.__module__]
    tree = ast.parse(inspect.getsource(module))
    calls = _calls(tree)
    if not conditional:
        under_if = {id(c) for node in ast.walk(tree) if isinstance(node, ast.If)
                    for c in _calls(node)}
        calls = [c for c in calls if id(c) not in under_if]
    return [(c.args[1].value, getattr(module, c.args[0].id)) for c in calls]


def inbound_topics(conditional: bool = True) -> dict[str, list[tuple[str, type]]]:
    """node name -> its (topic, message type) subscriptions (topics relative unless /)."""
    return {name: subscriptions_in(cls, conditional) for name, cls in NODE_CLASSES.items()}
