"""Declare a node's parameters from one table of specs (descriptors with ranges,
read-only flags and descriptions), and validate every later change.

rclpy already refuses values outside a declared range and changes to read-only
parameters; `ParamSpec.choices` and `ParamSpec.validate` add what descriptors cannot say.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rcl_interfaces.msg import (
    FloatingPointRange,
    IntegerRange,
    ParameterDescriptor,
    SetParametersResult,
)
from rclpy.node import Node
from rclpy.parameter import Parameter

Validator = Callable[[Any], str | None]  # returns an error message, or None when valid


@dataclass(slots=True, frozen=True)
class ParamSpec:
    """One parameter: name, default (its type is the parameter's type), documentation."""

    name: str
    default: Any
    description: str
    min: float | int | None = None
    max: float | int | None = None
    read_only: bool = False
    choices: tuple[str, ...] = ()
    validate: Validator | None = None

    def descriptor(self) -> ParameterDescriptor:
        d = ParameterDescriptor(description=self.description, read_only=self.read_only)
        if self.choices:
            d.additional_constraints = "one of: " + ", ".join(self.choices)
        if isinstance(self.default, bool) or (self.min is None and self.max is None):
            return d
        if isinstance(self.default, float):
            d.floating_point_range = [
                FloatingPointRange(
                    from_value=float(self.min if self.min is not None else -math.inf),
                    to_value=float(self.max if self.max is not None else math.inf),
                    step=0.0,
                )
            ]
        elif isinstance(self.default, int):
            d.integer_range = [
                IntegerRange(
                    from_value=int(self.min if self.min is not None else -(2**63)),
                    to_value=int(self.max if self.max is not None else 2**63 - 1),
                    step=0,
                )
            ]
        return d

    def check(self, value: Any) -> str | None:
        """Errors a descriptor cannot express: choices, NaN, custom rules."""
        if isinstance(value, float) and not math.isfinite(value):
            return f"{self.name} must be a finite number, got {value}"
        if self.choices and value not in self.choices:
            return f"{self.name} must be one of {', '.join(self.choices)}, got {value!r}"
        if self.validate is not None:
            return self.validate(value)
        return None


class ParameterError(ValueError):
    """A parameter file or override holds a value the node cannot accept."""


def declare_parameters(node: Node, specs: Sequence[ParamSpec]) -> dict[str, Any]:
    """Declare every spec on `node`, check the values it starts with, and install a
    set-parameters callback that checks every later change. Returns name -> value.

    Raises ParameterError with a clear message when a start value is invalid (rclpy's
    own range/type errors are re-raised as ParameterError too).
    """
    by_name = {s.name: s for s in specs}
    values: dict[str, Any] = {}
    for spec in specs:
        try:
            param = node.declare_parameter(spec.name, spec.default, spec.descriptor())
        except Exception as exc:  # rclpy raises several exception types here
            raise ParameterError(
                f"parameter '{spec.name}' of node '{node.get_name()}': {exc}"
            ) from exc
        error = spec.check(param.value)
        if error:
            raise ParameterError(f"parameter of node '{node.get_name()}': {error}")
        values[spec.name] = param.value

    def on_set(params: list[Parameter]) -> SetParametersResult:
        for p in params:
            spec = by_name.get(p.name)
            if spec is None:
                continue
            error = spec.check(p.value)
            if error:
                node.get_logger().warning(f"refused parameter change: {error}")
                return SetParametersResult(successful=False, reason=error)
        return SetParametersResult(successful=True)

    node.add_on_set_parameters_callback(on_set)
    return values
