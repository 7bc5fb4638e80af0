"""Lazy package exports (PEP 562), so importing one light module does not load a whole core.

DESIGN erratum 22 (the suite's budget): `msg_constants` imports `identity.enums`, and an
`identity/__init__.py` that imported the identity core put ~160 ms of CPU into every node
process. A package `__init__` lists its public names here instead; each is imported from
its module the first time it is read, so `from buddy_personality.identity import X` keeps
working and a submodule import (`buddy_personality.identity.enums`) loads nothing else.
"""

from collections.abc import Callable, Mapping
from importlib import import_module


def lazy_exports(package: str, exports: Mapping[str, str]
                 ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for `package`; `exports` maps a public name to its module."""

    def __getattr__(name: str) -> object:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        setattr(import_module(package), name, value)  # read once, then a plain attribute
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(import_module(package)), *exports})

    return __getattr__, __dir__
