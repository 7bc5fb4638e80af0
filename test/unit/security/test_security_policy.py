"""The SROS2 policy generated from the graph table, and robot.launch.py's refusal of an
unsecured network graph (DESIGN erratum 19)."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from buddy_personality.security.cli import main as security_main
from buddy_personality.security.graph import NODES, resolve
from buddy_personality.security.launch_policy import decide
from buddy_personality.security.policy import enclave_of, policy_element, policy_xml


def _profile(node: str, dev_mode: bool = False) -> ET.Element:
    root = policy_element("/buddy", dev_mode)
    enclave = root.find(f"enclaves/enclave[@path='/buddy/{node}']")
    assert enclave is not None
    profile = enclave.find("profiles/profile")
    assert profile is not None and profile.get("ns") == "/buddy"
    return profile


def _granted(profile: ET.Element, tag: str, attr: str) -> set[str]:
    return {e.text or "" for group in profile.findall(f"{tag}s[@{attr}='ALLOW']")
            for e in group.findall(tag)}


def test_one_enclave_per_node() -> None:
    root = policy_element("/buddy")
    paths = [e.get("path") for e in root.iter("enclave")]
    assert paths == [enclave_of(n) for n in NODES] == [f"/buddy/{n}" for n in NODES]


@pytest.mark.parametrize("service", ["personality/reset_memory", "personality/forget_user",
                                     "personality/lower_limits"])
def test_parent_effects_may_be_called_by_the_identity_enclave_only(service: str) -> None:
    """Erratum 18 (issue 16 for forget_user and lower_limits): the identity node's internal
    calls after an executed parent command."""
    callers = [n for n in NODES if service in _granted(_profile(n), "service", "request")]
    assert callers == ["identity"]
    assert service in _granted(_profile("personality"), "service", "reply")


def test_only_the_bridge_speaks_and_only_identity_answers_parent_login() -> None:
    speakers = [n for n in NODES if "tts/say" in _granted(_profile(n), "topic", "publish")]
    assert speakers == ["llm_bridge"]
    servers = [n for n in NODES if "identity/parent_login" in
               _granted(_profile(n), "service", "reply")]
    assert servers == ["identity"]


def test_dev_services_only_in_a_dev_policy() -> None:
    plain = _granted(_profile("personality"), "service", "reply")
    dev = _granted(_profile("personality", dev_mode=True), "service", "reply")
    assert "personality/set_guardrail" not in plain
    assert {"personality/set_guardrail", "personality/override_affect"} <= dev


def test_policy_validates_against_sros2_schema_when_available(tmp_path: Path) -> None:
    lxml = pytest.importorskip("lxml.etree", reason="lxml (sros2's dependency) not installed")
    try:
        from sros2.policy import POLICY_VERSION, get_policy_schema
    except ImportError as exc:
        pytest.skip(f"sros2 not importable, schema not checked: {exc}")
    schema = lxml.XMLSchema(lxml.parse(str(get_policy_schema("policy.xsd"))))
    doc = lxml.fromstring(policy_xml("/buddy").split("\n", 2)[2].encode())
    assert doc.get("version") == POLICY_VERSION
    schema.assertValid(doc)


def test_cli_writes_the_policy(tmp_path: Path, capsys) -> None:
    out = tmp_path / "policy.xml"
    assert security_main(["policy", "-o", str(out)]) == 0
    assert ET.parse(out).getroot().tag == "policy"
    assert security_main(["policy"]) == 0
    assert "<enclave path=\"/buddy/identity\">" in capsys.readouterr().out


def test_resolve_names() -> None:
    assert resolve("tts/say", "/buddy", "llm_bridge") == "/buddy/tts/say"
    assert resolve("/diagnostics", "/buddy", "x") == "/diagnostics"
    assert resolve("~/get_state", "buddy", "face_driver") == "/buddy/face_driver/get_state"
    assert resolve("tts/say", "", "n") == "/tts/say"


@pytest.mark.parametrize(("dds", "security", "insecure", "refused"), [
    ("localhost", "off", "false", False),
    ("network", "off", "false", True),      # erratum 19: no keystore, no network
    ("network", "off", "true", False),      # ... unless asked for explicitly
    ("network", "enforce", "false", True),  # enforce without a keystore: refused
    ("cloud", "off", "false", True),
    ("localhost", "maybe", "false", True),
])
def test_launch_decision(tmp_path: Path, monkeypatch, dds, security, insecure, refused) -> None:
    monkeypatch.delenv("ROS_SECURITY_KEYSTORE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    out = decide(dds, security, str(tmp_path / "none"), insecure)
    assert bool(out.error) is refused, out.error
    if dds == "network" and insecure == "true":
        assert out.warning


def test_launch_enforce_with_a_keystore_sets_the_security_environment(tmp_path: Path) -> None:
    store = tmp_path / "ks"
    (store / "enclaves").mkdir(parents=True)
    (store / "public").mkdir()
    out = decide("network", "enforce", str(store), "false")
    assert not out.error
    assert out.env == {"ROS_SECURITY_ENABLE": "true", "ROS_SECURITY_STRATEGY": "Enforce",
                       "ROS_SECURITY_KEYSTORE": str(store)}

