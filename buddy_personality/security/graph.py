"""The one table of every node's publications, subscriptions, services and clients
(DESIGN §3, erratum 19).

The SROS2 policy is generated from this table (policy.py), and a test brings the graph
up and compares each node's actual endpoints (rclpy's graph API) with it
(test/node/test_security_graph.py), so the policy cannot drift from the code.

Names are relative to the robot's namespace (`/buddy` on the robot), as the nodes create
them; names starting with "/" are absolute. To add a node (tts, asr, parent_dashboard):
add one `NodeInterfaces` entry to NODES; the test then says exactly which endpoint is
missing or unexpected, and `buddy security policy` covers it.
"""

from __future__ import annotations

from dataclasses import dataclass

# What every rclpy node has (rosout, parameter events and the parameter services, the
# type-description service), so the policy lets a node be a node. "~/" = the node's own
# name. Dev-only and lifecycle services are listed where they exist.
COMMON_PUBLISHES: tuple[str, ...] = ("/rosout", "/parameter_events")
COMMON_SERVICES: tuple[str, ...] = (
    "~/describe_parameters", "~/get_parameter_types", "~/get_parameters",
    "~/list_parameters", "~/set_parameters", "~/set_parameters_atomically",
    "~/get_type_description",
)
LIFECYCLE_PUBLISHES: tuple[str, ...] = ("~/transition_event",)
LIFECYCLE_SERVICES: tuple[str, ...] = (
    "~/change_state", "~/get_state", "~/get_available_states",
    "~/get_available_transitions", "~/get_transition_graph",
)
DIAGNOSTICS = "/diagnostics"


@dataclass(slots=True, frozen=True)
class NodeInterfaces:
    """One node's endpoints (its own, beyond the COMMON_* ones every node has)."""

    publishes: tuple[str, ...] = ()
    subscribes: tuple[str, ...] = ()
    services: tuple[str, ...] = ()        # it answers (SROS2 "reply")
    clients: tuple[str, ...] = ()         # it calls (SROS2 "request")
    dev_services: tuple[str, ...] = ()    # only with dev_mode (erratum 19)
    # subscriptions a node makes only in some configurations (the asr's echo reference,
    # with the software echo canceller): granted by the policy, not required on the graph
    optional_subscribes: tuple[str, ...] = ()
    lifecycle: bool = False


NODES: dict[str, NodeInterfaces] = {
    "personality": NodeInterfaces(
        publishes=("personality/snapshot", "personality/llm_profile",
                   "personality/mood_changed", "personality/guardrail",
                   "personality/affect_markers", "personality/usage",
                   "personality/emotion_applied", DIAGNOSTICS),
        subscribes=("personality/ai_emotion", "conversation/events", "conversation/phase",
                    "system/events", "tts/speaking", "face/button", "memory/extract",
                    "identity/state", "consent/state"),
        # reset_memory, forget_user, lower_limits: the identity node's internal calls after
        # an executed parent command (erratum 18, issue 16); under SROS2 only the identity
        # enclave may request them (see `clients` of identity below).
        services=("personality/list_memories", "personality/reset_memory",
                  "personality/forget_user", "personality/lower_limits"),
        dev_services=("personality/set_guardrail", "personality/override_affect"),
    ),
    "governor": NodeInterfaces(
        publishes=("governor/state", DIAGNOSTICS),
        subscribes=("governor/signal",),
        services=("governor/reset",),
    ),
    "identity": NodeInterfaces(
        publishes=("identity/state", "consent/state", "identity/system_events", DIAGNOSTICS),
        subscribes=("identity/events", "conversation/events", "consent/events"),
        services=("identity/execute_command", "identity/request_profile_update",
                  "identity/request_consent", "identity/delegate", "identity/parent_login",
                  "identity/manage_household"),
        clients=("personality/reset_memory", "personality/forget_user",
                 "personality/lower_limits"),
    ),
    "llm_bridge": NodeInterfaces(
        publishes=("personality/ai_emotion", "conversation/events", "conversation/phase",
                   "memory/extract", "governor/signal", "tts/say", "face/gesture",
                   "system/events", "identity/events", "personality/guardrail", DIAGNOSTICS),
        subscribes=("speech/utterance", "face/button", "personality/guardrail",
                    "personality/llm_profile", "personality/snapshot", "governor/state",
                    "identity/state", "speech/activity", "tts/speaking", "system/events",
                    # issue 30 item 2: the mood a turn's intent left, for its line
                    "personality/emotion_applied"),
        services=("llm_bridge/end_conversation",),
        clients=("governor/reset",),
    ),
    "face_driver": NodeInterfaces(
        publishes=("face/state", "face/button", "face/touch", DIAGNOSTICS),
        subscribes=("personality/snapshot", "personality/ai_emotion", "conversation/phase",
                    "face/gesture", "tts/speaking", "system/events",
                    # the mouth: loudness while speaking, or an envelope from the text
                    "tts/energy", "tts/say"),
        lifecycle=True,
    ),
    # Speech (DESIGN §4.7).
    "tts": NodeInterfaces(
        # tts/played: what the speaker played, the software echo canceller's reference
        # (erratum 24)
        publishes=("tts/speaking", "tts/energy", "tts/played", DIAGNOSTICS),
        subscribes=("tts/say", "conversation/events", "face/button", "speech/activity"),
    ),
    "asr": NodeInterfaces(
        publishes=("speech/activity", "speech/utterance", "system/events", DIAGNOSTICS),
        subscribes=("tts/speaking",),
        optional_subscribes=("tts/played",),
    ),
    "parent_dashboard": NodeInterfaces(
        publishes=(DIAGNOSTICS,),
        subscribes=("personality/snapshot", "face/state", "conversation/events",
                    "personality/guardrail", "consent/state", "personality/usage",
                    # issue 30: who talks (alerts name the child), the bridge's health
                    "identity/state", DIAGNOSTICS),
        # every parent action goes through identity with the parent's token (erratum 18);
        # the RS-1/RS-2 talk and limits in force come on personality/usage
        clients=("identity/parent_login", "identity/execute_command",
                 "identity/request_consent", "identity/manage_household",
                 "personality/list_memories"),
    ),
}


def resolve(name: str, namespace: str, node: str) -> str:
    """The fully qualified name of `name` as node `node` in `namespace` creates it."""
    ns = "/" + namespace.strip("/") if namespace.strip("/") else ""
    if name.startswith("/"):
        return name
    if name.startswith("~/"):
        return f"{ns}/{node}/{name[2:]}"
    return f"{ns}/{name}"


@dataclass(slots=True, frozen=True)
class Endpoints:
    """Fully qualified endpoint names of one node, as the graph API reports them."""

    publishes: frozenset[str]
    subscribes: frozenset[str]
    services: frozenset[str]
    clients: frozenset[str]


def expected_endpoints(node: str, namespace: str, dev_mode: bool = False,
                       common: bool = True) -> Endpoints:
    """What `node` should show on the graph under `namespace` (COMMON_* included unless
    `common` is False)."""
    spec = NODES[node]

    def full(names: tuple[str, ...]) -> frozenset[str]:
        return frozenset(resolve(n, namespace, node) for n in names)

    publishes = spec.publishes + (COMMON_PUBLISHES if common else ())
    services = spec.services + (COMMON_SERVICES if common else ())
    if spec.lifecycle:
        publishes += LIFECYCLE_PUBLISHES
        services += LIFECYCLE_SERVICES
    if dev_mode:
        services += spec.dev_services
    return Endpoints(full(publishes), full(spec.subscribes), full(services),
                     full(spec.clients))
