"""The identity and governor packages load their cores only when a name is read (erratum 22).

Every node imports `identity.enums` through msg_constants; when identity/__init__ imported
the identity core, every node process paid for it. These tests run a fresh interpreter so
what is already imported in the test process does not hide an eager import.
"""

import subprocess
import sys

import pytest


def _loaded_after(statement: str, module: str) -> bool:
    code = f"import sys\n{statement}\nprint({module!r} in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    return out.stdout.strip() == "True"


@pytest.mark.parametrize(("statement", "heavy"), [
    ("import buddy_personality.msg_constants", "buddy_personality.identity.core"),
    ("import buddy_personality.identity.enums", "buddy_personality.identity.core"),
    ("import buddy_personality.governor.policy", "buddy_personality.governor.governor"),
])
def test_a_submodule_import_does_not_load_the_core(statement: str, heavy: str) -> None:
    assert not _loaded_after(statement, heavy)


def test_the_package_names_still_import_and_are_the_modules_objects() -> None:
    from buddy_personality import governor, identity
    from buddy_personality.governor.governor import Governor
    from buddy_personality.identity import IdentityCore, write_household
    from buddy_personality.identity.core import IdentityCore as CoreClass
    from buddy_personality.identity.profiles import write_household as writer

    assert IdentityCore is CoreClass and write_household is writer
    assert governor.Governor is Governor
    for package in (identity, governor):
        assert all(hasattr(package, name) for name in package.__all__)
        assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError):
        _ = identity.NoSuchName
