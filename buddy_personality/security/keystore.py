"""An SROS2 keystore for the graph, made with sros2's own tools, and its verification.

`make_keystore` writes the generated policy into the keystore folder and runs sros2's
`generate_artifacts` (what `ros2 security generate_artifacts -k DIR -p POLICY` runs): a
keystore (identity and permissions CAs, governance) and one enclave per node with its key,
certificate and signed permissions. `verify_keystore` reads each enclave's permissions.xml
back and checks that it grants exactly what the table says, so a keystore that does not
match the code is reported before a robot is started with it.
"""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree as ET

from .graph import NODES, expected_endpoints
from .policy import DEFAULT_NAMESPACE, enclave_of, policy_xml

POLICY_FILE = "buddy_policy.xml"
ENCLAVE_FILES = ("cert.pem", "key.pem", "permissions.xml", "permissions.p7s",
                 "governance.p7s", "identity_ca.cert.pem", "permissions_ca.cert.pem")
SROS2_MISSING = (
    "sros2 is not installed. On a ROS 2 apt install: sudo apt install ros-jazzy-sros2. "
    "In the development venv: ../shared/ros2-jazzy/install.sh .venv"
)


def sros2_available() -> str | None:
    """None when sros2's keystore tools import, else why not."""
    try:
        import sros2.api._artifact_generation  # noqa: F401, PLC0415
    except ImportError as exc:
        return f"{SROS2_MISSING} ({exc})"
    return None


def make_keystore(keystore: Path, namespace: str = DEFAULT_NAMESPACE) -> Path:
    """Create (or update) `keystore` with one enclave per node; returns the policy path."""
    problem = sros2_available()
    if problem:
        raise RuntimeError(problem)
    from sros2.api._artifact_generation import generate_artifacts  # noqa: PLC0415

    keystore.mkdir(parents=True, exist_ok=True)
    policy = keystore / POLICY_FILE
    policy.write_text(policy_xml(namespace), encoding="utf-8")
    generate_artifacts(keystore_path=keystore, identity_names=[], policy_files=[policy])
    return policy


def _granted(permissions: Path) -> tuple[set[str], set[str]]:
    """(published, subscribed) DDS topic names of the first grant in a permissions.xml."""
    root = ET.parse(permissions).getroot()
    pub: set[str] = set()
    sub: set[str] = set()
    for rule in root.iter("allow_rule"):
        for kind, into in (("publish", pub), ("subscribe", sub)):
            for block in rule.findall(kind):
                into.update(t.text or "" for t in block.iter("topic"))
    return pub, sub


def verify_keystore(keystore: Path, namespace: str = DEFAULT_NAMESPACE) -> list[str]:
    """Problems with the keystore's enclaves (empty list: every node's permissions match
    the table)."""
    problems: list[str] = []
    for node in NODES:
        enclave = keystore / "enclaves" / enclave_of(node, namespace).lstrip("/")
        missing = [f for f in ENCLAVE_FILES if not (enclave / f).exists()]
        if missing:
            problems.append(f"{node}: enclave {enclave} lacks {', '.join(missing)}")
            continue
        pub, sub = _granted(enclave / "permissions.xml")
        want = expected_endpoints(node, namespace)
        for topic in sorted(want.publishes):
            if f"rt{topic}" not in pub:
                problems.append(f"{node}: may not publish {topic}")
        for topic in sorted(want.subscribes):
            if f"rt{topic}" not in sub:
                problems.append(f"{node}: may not subscribe to {topic}")
        for service in sorted(want.services):
            if f"rq{service}Request" not in sub or f"rr{service}Reply" not in pub:
                problems.append(f"{node}: may not answer {service}")
        for service in sorted(want.clients):
            if f"rq{service}Request" not in pub or f"rr{service}Reply" not in sub:
                problems.append(f"{node}: may not call {service}")
        allowed = {f"rt{t}" for t in want.publishes} | {
            f"rr{s}Reply" for s in want.services} | {f"rq{s}Request" for s in want.clients}
        extra = {t for t in pub if t.startswith(("rt/", "rq/", "rr/"))} - allowed
        if extra:
            problems.append(f"{node}: may publish more than the table says: {sorted(extra)}")
    return problems
