"""The graph against the one table (DESIGN erratum 19): every node's actual publications,
subscriptions, services and clients, read with rclpy's graph API from a running graph,
equal buddy_personality/security/graph.py, from which the SROS2 policy is generated; and
the keystore `buddy security init` makes grants each enclave exactly that."""

from __future__ import annotations

from pathlib import Path

import pytest

from buddy_personality.nodes.bringup import NODE_CLASSES, GraphOptions, create_graph
from buddy_personality.nodes.common import qos
from buddy_personality.security.graph import NODES, Endpoints, expected_endpoints, resolve

pytestmark = pytest.mark.ros


def _actual(ros, node: str) -> Endpoints:
    ns = ros.namespace
    probe = ros.probe

    def names(pairs: list) -> frozenset[str]:
        return frozenset(name for name, _types in pairs)

    return Endpoints(
        publishes=names(probe.get_publisher_names_and_types_by_node(node, ns)),
        subscribes=names(probe.get_subscriber_names_and_types_by_node(node, ns)),
        services=names(probe.get_service_names_and_types_by_node(node, ns)),
        clients=names(probe.get_client_names_and_types_by_node(node, ns)),
    )


def _differences(node: str, want: Endpoints, got: Endpoints) -> list[str]:
    out = []
    for kind in ("publishes", "subscribes", "services", "clients"):
        w, g = getattr(want, kind), getattr(got, kind)
        if w - g:
            out.append(f"{node} {kind}: in the table, not on the graph: {sorted(w - g)}")
        if g - w:
            out.append(f"{node} {kind}: on the graph, not in the table "
                       f"(add it to security/graph.py NODES): {sorted(g - w)}")
    return out


def _bring_up(ros, tmp_path: Path) -> None:
    options = GraphOptions(namespace=ros.namespace, overrides={
        "personality": {"memory_path": str(tmp_path / "memory.json")},
        "identity": {"profiles_path": str(tmp_path / "household.json")},
        "llm_bridge": {"household_path": str(tmp_path / "household.json")},
        "face_driver": {"port": "sim"},
    })
    for node in create_graph(options, context=ros.context):
        ros.add(node)


def test_every_node_matches_the_table(ros, tmp_path: Path) -> None:
    _bring_up(ros, tmp_path)
    assert set(NODE_CLASSES) <= set(NODES), (
        f"nodes without a row in security/graph.py: {sorted(set(NODE_CLASSES) - set(NODES))}")

    def problems() -> list[str]:
        out: list[str] = []
        for node in NODE_CLASSES:
            out += _differences(node, expected_endpoints(node, ros.namespace),
                                _actual(ros, node))
        return out

    # Discovery is eventually consistent: wait until the graph agrees, or report the
    # differences that remain.
    ros.spin_until(lambda: not problems(), timeout=20)
    assert problems() == []


def _is_bridge_watch(info) -> bool:
    """The personality's liveliness watch on conversation/events (qos.BRIDGE_WATCH): the
    one reader that asks for a lease, documented in qos.py."""
    return (info.node_name == "personality"
            and info.qos_profile.liveliness_lease_duration
            == qos.BRIDGE_WATCH.liveliness_lease_duration)


def test_every_endpoint_uses_its_topic_s_profile(ros, tmp_path: Path) -> None:
    """Issue 28 item 4: each topic's QoS is chosen once, by the topic (qos.TOPICS); every
    writer and reader on the graph uses that topic's reliability and durability (a reader
    that is volatile where the writer latches misses the state a late joiner needs)."""
    _bring_up(ros, tmp_path)
    probe = ros.probe
    topics = sorted({t for spec in NODES.values() for t in spec.publishes + spec.subscribes})
    endpoints_wanted = sum(len(spec.publishes) + len(spec.subscribes)
                           for node, spec in NODES.items() if node in NODE_CLASSES)

    def infos() -> list[tuple[str, str, object]]:
        out = []
        for topic in topics:
            name = resolve(topic, ros.namespace, "")
            out += [(topic, "publisher", i) for i in probe.get_publishers_info_by_topic(name)
                    if i.node_name in NODE_CLASSES]
            out += [(topic, "subscriber", i)
                    for i in probe.get_subscriptions_info_by_topic(name)
                    if i.node_name in NODE_CLASSES]
        return out

    # discovery is eventually consistent: wait until every endpoint of the table is seen
    ros.spin_until(lambda: len(infos()) >= endpoints_wanted, timeout=20)
    found = infos()
    assert len(found) >= endpoints_wanted
    wrong = []
    for topic, kind, info in found:
        if kind == "subscriber" and topic == "conversation/events" and _is_bridge_watch(info):
            continue
        want, got = qos.TOPICS[topic], info.qos_profile
        if (got.reliability, got.durability) != (want.reliability, want.durability):
            wrong.append(f"{info.node_name} {kind} on {topic}: {got.reliability.name}/"
                         f"{got.durability.name}, the table says {want.reliability.name}/"
                         f"{want.durability.name}")
    assert wrong == []


def test_of_knows_every_topic_and_names_an_unknown_one() -> None:
    for spec in NODES.values():
        for topic in spec.publishes + spec.subscribes:
            assert qos.of(topic) is qos.TOPICS[topic]
    assert qos.of("/buddy/face/state") is qos.TOPICS["face/state"]
    with pytest.raises(KeyError, match=r"no QoS for topic 'face/stat'.*TOPICS"):
        qos.of("face/stat")


def test_dev_services_appear_in_the_table_only_with_dev_mode() -> None:
    plain = expected_endpoints("personality", "/buddy")
    dev = expected_endpoints("personality", "/buddy", dev_mode=True)
    assert dev.services - plain.services == {"/buddy/personality/set_guardrail",
                                              "/buddy/personality/override_affect"}


def test_keystore_has_one_enclave_per_node_with_the_table_s_permissions(tmp_path) -> None:
    from buddy_personality.security.keystore import (
        make_keystore,
        sros2_available,
        verify_keystore,
    )

    problem = sros2_available()
    if problem:
        pytest.skip(f"sros2 not importable here, keystore not checked: {problem}")
    keystore = tmp_path / "keystore"
    make_keystore(keystore, "/buddy")
    assert verify_keystore(keystore, "/buddy") == []
    bridge = (keystore / "enclaves/buddy/llm_bridge/permissions.xml").read_text()
    identity = (keystore / "enclaves/buddy/identity/permissions.xml").read_text()
    # erratum 18/19: only the identity enclave may call personality/reset_memory.
    assert "rq/buddy/personality/reset_memoryRequest" in identity
    assert "reset_memory" not in bridge
    assert "rt/buddy/tts/say" in bridge and "rt/buddy/tts/say" not in identity
