"""identity node over real DDS (DESIGN §4.3): events in, latched identity/consent state
out, the four services behind the parent PIN (erratum 18), the birthday greeting, and
"forget everything" reaching personality/reset_memory exactly once."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from rclpy.parameter import Parameter
from std_srvs.srv import Trigger

from buddy_msgs.msg import (
    ConsentEvent,
    ConsentState,
    ConversationEvent,
    IdentityEvent,
    IdentityState,
    SystemEvent,
)
from buddy_msgs.srv import (
    Delegate,
    ExecuteCommand,
    ForgetUser,
    ManageHousehold,
    ParentLogin,
    RequestConsent,
    RequestProfileUpdate,
)
from buddy_personality.identity import Profile, ProfileStore, write_household
from buddy_personality.identity.parent_pin import hash_pin
from buddy_personality.identity.profiles import read_household
from buddy_personality.nodes.common import qos
from buddy_personality.nodes.identity_node import IdentityNode

pytestmark = pytest.mark.ros

FORGET = ExecuteCommand.Request.CMD_FORGET_EVERYTHING
PIN = "4711"
PIN_HASH = hash_pin(PIN)  # once: scrypt is deliberately slow


def _years_ago(today: dt.date, years: int) -> dt.date:
    try:
        return today.replace(year=today.year - years)
    except ValueError:  # 29 February
        return today.replace(year=today.year - years, day=28)


@pytest.fixture
def household(tmp_path: Path) -> Path:
    today = dt.date.today()
    path = tmp_path / "household.json"
    write_household(
        path,
        [
            # mom's birthday is never today, so only mia is greeted
            Profile("mom", "Anna", "parent", _years_ago(today + dt.timedelta(days=2), 38)),
            Profile("mia", "Mia", "child", _years_ago(today, 5)),  # her birthday is today
        ],
        PIN_HASH,
    )
    return path


@pytest.fixture
def node(ros, household):
    return ros.add(IdentityNode(**ros.node_kwargs(parameter_overrides=[
        Parameter("profiles_path", value=str(household)),
        Parameter("tick_hz", value=10.0),
    ])))


@pytest.fixture
def states(ros, node):
    return ros.collect(IdentityState, "identity/state", qos.LATCHED)


@pytest.fixture
def events(ros, node):
    return ros.publisher(IdentityEvent, "identity/events")


def identity_event(kind: int, user_id: str = "", confidence: float = 1.0, **kw) -> IdentityEvent:
    return IdentityEvent(kind=kind, user_id=user_id, confidence=confidence, **kw)


def confirm(ros, events, states, user_id: str) -> None:
    events.publish(identity_event(IdentityEvent.EXPLICIT_IDENTITY_CLAIM, user_id))
    events.publish(identity_event(IdentityEvent.VALIDATION_SUCCESS, user_id))
    assert ros.spin_until(
        lambda: states and states[-1].state == IdentityState.CONFIRMED
        and states[-1].user_id == user_id,
        timeout=5,
    )


def diagnostics_value(ros, key: str, expected: str, timeout: float = 5.0) -> bool:
    arrays = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)

    def seen() -> bool:
        for array in arrays:
            for status in array.status:
                if status.name.endswith("identity"):
                    values = {kv.key: kv.value for kv in status.values}
                    if values.get(key) == expected:
                        return True
        return False

    return ros.spin_until(seen, timeout)


def login(ros, pin: str = PIN) -> ParentLogin.Response:
    return ros.call(ParentLogin, "identity/parent_login",
                    ParentLogin.Request(action=ParentLogin.Request.LOGIN, pin=pin))


def command(ros, action: int, user_id: str, token: str = "") -> ExecuteCommand.Response:
    return ros.call(ExecuteCommand, "identity/execute_command",
                    ExecuteCommand.Request(action=action, command=FORGET, user_id=user_id,
                                           parent_token=token))


def test_initial_state_is_latched_and_child_safe(ros, node) -> None:
    ros.spin_for(0.2)
    late = ros.collect(IdentityState, "identity/state", qos.LATCHED)
    consent = ros.collect(ConsentState, "consent/state", qos.LATCHED)
    assert ros.spin_until(lambda: late and consent, timeout=5)
    s = late[-1]
    assert (s.state, s.user_id, s.age_group, s.conversation_mode) == (
        IdentityState.UNKNOWN, "", IdentityState.AGE_UNKNOWN, IdentityState.PRIVATE)
    assert s.child_safe  # DESIGN §4.3: unknown age means CHILD
    assert list(consent[-1].records) == []


def test_voice_signal_is_refused_under_hc2(ros, node, states, events) -> None:
    events.publish(identity_event(IdentityEvent.VOICE_SIGNAL, "mom", 0.99))
    events.publish(identity_event(IdentityEvent.FACE_SIGNAL, "mom", 0.99))
    assert diagnostics_value(ros, "rejected.hc2_refused", "2")
    assert all(s.state == IdentityState.UNKNOWN for s in states)
    # Identity still comes from an explicit claim and validation.
    confirm(ros, events, states, "mom")
    assert states[-1].role == "parent" and not states[-1].child_safe


def test_bad_events_are_refused_and_counted(ros, node, states, events) -> None:
    events.publish(identity_event(200))
    events.publish(identity_event(IdentityEvent.SATELLITE_IDENTITY, "mom", 1.7))
    events.publish(identity_event(IdentityEvent.SATELLITE_IDENTITY, "mom", float("nan")))
    events.publish(identity_event(IdentityEvent.SATELLITE_IDENTITY, "stranger", 0.9))
    assert diagnostics_value(ros, "rejected.total", "4")
    assert diagnostics_value(ros, "rejected.bad_confidence", "2")
    assert all(s.state == IdentityState.UNKNOWN for s in states)


def test_parent_forget_everything_calls_reset_memory_once(ros, node, states, events) -> None:
    calls: list[int] = []

    def reset(_req: Trigger.Request, res: Trigger.Response) -> Trigger.Response:
        calls.append(1)
        res.success, res.message = True, "memory cleared"
        return res

    ros.probe.create_service(Trigger, "personality/reset_memory", reset)
    token = login(ros).token
    res = command(ros, ExecuteCommand.Request.REQUEST, "mom", token)
    assert res.accepted and res.state == ExecuteCommand.Response.PENDING_CONFIRMATION
    ros.spin_for(0.3)
    assert calls == []  # nothing before the confirmation
    res = command(ros, ExecuteCommand.Request.CONFIRM, "mom", token)
    assert res.accepted and res.state == ExecuteCommand.Response.EXECUTED
    assert ros.spin_until(lambda: calls, timeout=5)
    assert command(ros, ExecuteCommand.Request.CONFIRM, "mom", token).accepted is False
    ros.spin_for(0.5)
    assert calls == [1]
    assert diagnostics_value(ros, "core.execution_success", "1")


def test_reset_waits_for_the_personality_service(ros, node, states, events) -> None:
    token = login(ros).token
    command(ros, ExecuteCommand.Request.REQUEST, "", token)
    command(ros, ExecuteCommand.Request.CONFIRM, "", token)
    assert diagnostics_value(ros, "reset_memory_waiting", "1")
    calls: list[int] = []

    def reset(_req: Trigger.Request, res: Trigger.Response) -> Trigger.Response:
        calls.append(1)
        res.success = True
        return res

    ros.probe.create_service(Trigger, "personality/reset_memory", reset)
    assert ros.spin_until(lambda: calls, timeout=5)
    ros.spin_for(0.3)
    assert calls == [1]


def test_an_effect_with_no_personality_node_is_reported_not_done(ros, node) -> None:
    """Issue 16: an executed lower_limits whose personality service is not up answers
    EXECUTION_FAILURE at once (spec 004 §3 execution_failure), and says nothing changed."""
    token = login(ros).token
    res = ros.call(ExecuteCommand, "identity/execute_command", ExecuteCommand.Request(
        action=ExecuteCommand.Request.REQUEST, command=ExecuteCommand.Request.CMD_LOWER_LIMITS,
        args='{"daily_limit_s": 600}', parent_token=token))
    assert res.accepted and res.state == ExecuteCommand.Response.EXECUTED
    assert res.execution == ExecuteCommand.Response.EXECUTION_FAILURE
    assert "nothing changed" in res.message
    assert diagnostics_value(ros, "core.execution_failure", "1")


def test_a_silent_personality_times_out_without_blocking_the_node(ros, household) -> None:
    """The reply waits for the personality's answer at most effect_answer_timeout_s, and
    the identity node keeps serving meanwhile (the executor is never blocked)."""
    from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
    from rclpy.task import Future

    from buddy_msgs.srv import LowerLimits

    ros.add(IdentityNode(**ros.node_kwargs(parameter_overrides=[
        Parameter("profiles_path", value=str(household)),
        Parameter("effect_answer_timeout_s", value=1.0)])))
    never: Future = Future()

    async def silent(_req, res):
        await never
        return res

    # its own group: an awaiting coroutine holds its group, and the probe's clients must run
    ros.probe.create_service(LowerLimits, "personality/lower_limits", silent,
                             callback_group=MutuallyExclusiveCallbackGroup())
    token = login(ros).token
    client = ros.probe.create_client(ExecuteCommand, "identity/execute_command")
    assert ros.spin_until(client.service_is_ready, 5.0)
    started = time.monotonic()
    future = client.call_async(ExecuteCommand.Request(
        action=ExecuteCommand.Request.REQUEST, command=ExecuteCommand.Request.CMD_LOWER_LIMITS,
        args='{"session_limit_s": 60}', parent_token=token))
    ros.spin_for(0.2)
    assert login(ros).success  # answered while the command waits
    assert ros.spin_until(future.done, 5.0)
    res = future.result()
    assert res.execution == ExecuteCommand.Response.EXECUTION_FAILURE
    assert "did not answer" in res.message and 0.9 <= time.monotonic() - started < 4.0
    never.set_result(None)


def test_forged_parent_over_identity_events_is_refused(ros, node, states, events,
                                                     household) -> None:
    """Issue 22's attack, over DDS: anything on the graph publishes a claim for the
    parent's profile and VALIDATION_SUCCESS, then asks for forget-everything, a birthdate
    change and a memory consent grant (service and topic). Erratum 18: all refused with
    the reason; nothing reset, nothing written, no consent."""
    calls: list[int] = []
    ros.probe.create_service(Trigger, "personality/reset_memory",
                             lambda _q, r: calls.append(1) or r)
    consent = ros.collect(ConsentState, "consent/state", qos.LATCHED)
    before = household.read_bytes()
    confirm(ros, events, states, "mom")  # the forged "parent" is CONFIRMED ...
    assert states[-1].role == "parent"

    for action in (ExecuteCommand.Request.REQUEST, ExecuteCommand.Request.CONFIRM):
        res = command(ros, action, "mom")
        assert not res.accepted and "parent PIN" in res.message
    res = command(ros, ExecuteCommand.Request.REQUEST, "mom", token="guessed-token")
    assert not res.accepted and "expired" in res.message

    update = RequestProfileUpdate.Request(action=RequestProfileUpdate.Request.REQUEST,
                                          requester_id="mom", target_user_id="mia",
                                          field="birthdate", value="2015-01-01")
    res = ros.call(RequestProfileUpdate, "identity/request_profile_update", update)
    assert not res.accepted and "parent PIN" in res.message

    grant = RequestConsent.Request(action=RequestConsent.Request.REQUEST, user_id="mia",
                                   scope="memory", granted_by="mom")
    assert ros.call(RequestConsent, "identity/request_consent", grant).accepted  # asking
    grant.action = RequestConsent.Request.GRANT
    res = ros.call(RequestConsent, "identity/request_consent", grant)
    assert not res.accepted and "parent PIN" in res.message
    ros.publisher(ConsentEvent, "consent/events").publish(ConsentEvent(
        kind=ConsentEvent.EXPLICIT_GRANT, user_id="mia", scope="memory", granted_by="mom"))
    assert diagnostics_value(ros, "core.parent_authority_refused", "6")

    ros.spin_for(0.3)
    assert calls == []
    assert household.read_bytes() == before
    assert read_household(household)[0][1].birthdate.year != 2015
    assert consent and all(r.state != 2 for r in consent[-1].records)  # never GRANTED


def test_wrong_pins_lock_out(ros, household) -> None:
    """Erratum 18: failed tries are rate-limited with a growing lockout, counted in
    diagnostics; during the lockout even the right PIN is refused."""
    ros.add(IdentityNode(**ros.node_kwargs(parameter_overrides=[
        Parameter("profiles_path", value=str(household)),
        Parameter("parent_free_attempts", value=2),
        Parameter("parent_base_lockout_s", value=60.0),
    ])))
    first = login(ros, "0000")
    assert not first.success and not first.token and first.retry_after_s == 0.0
    second = login(ros, "1234")
    assert not second.success and second.retry_after_s == 60.0
    right = login(ros, PIN)
    assert not right.success and not right.token and 0.0 < right.retry_after_s <= 60.0
    assert diagnostics_value(ros, "parent.lockouts", "1")
    assert diagnostics_value(ros, "parent.login_failures", "2")
    assert diagnostics_value(ros, "parent.login_locked_out", "1")


def test_a_token_works_until_logout(ros, node) -> None:
    res = login(ros)
    assert res.success and len(res.token) >= 32 and res.expires_in_s == 900.0
    bye = ros.call(ParentLogin, "identity/parent_login",
                   ParentLogin.Request(action=ParentLogin.Request.LOGOUT, token=res.token))
    assert bye.success
    after = command(ros, ExecuteCommand.Request.REQUEST, "", res.token)
    assert not after.accepted and "expired" in after.message


def test_participant_arrival_makes_the_mode_shared(ros, node, states, events) -> None:
    confirm(ros, events, states, "mom")
    events.publish(identity_event(IdentityEvent.EXPLICIT_PREFERENCE, value="Mama"))
    assert ros.spin_until(lambda: states[-1].preferred_name == "Mama", timeout=5)
    events.publish(identity_event(IdentityEvent.PARTICIPANT_DETECTED, participant_id="guest"))
    assert ros.spin_until(
        lambda: states[-1].conversation_mode == IdentityState.SHARED_UNVERIFIED, timeout=5
    )
    assert states[-1].preferred_name == "" and list(states[-1].participants) == ["guest"]


def test_birthday_greeting_once(ros, node, states, events) -> None:
    greetings = ros.collect(SystemEvent, "identity/system_events")
    confirm(ros, events, states, "mia")
    assert ros.spin_until(lambda: greetings, timeout=5)
    ros.spin_for(0.5)
    assert [(g.kind, g.user_id) for g in greetings] == [(SystemEvent.BIRTHDAY_GREETING, "mia")]


def test_consent_granted_then_expired_at_conversation_end(ros, node, states, events) -> None:
    consent = ros.collect(ConsentState, "consent/state", qos.LATCHED)
    token = login(ros).token
    for action in (RequestConsent.Request.REQUEST, RequestConsent.Request.GRANT):
        res = ros.call(RequestConsent, "identity/request_consent", RequestConsent.Request(
            action=action, user_id="mia", scope="memory", granted_by="mom",
            parent_token=token))
        assert res.accepted
    assert ros.spin_until(
        lambda: consent and [(r.user_id, r.scope, r.state) for r in consent[-1].records]
        == [("mia", "memory", 2)], timeout=5)
    conv = ros.publisher(ConversationEvent, "conversation/events")
    conv.publish(ConversationEvent(kind=ConversationEvent.ENDED, session_id="s1",
                                   trigger=ConversationEvent.END_GOODBYE))
    assert ros.spin_until(lambda: consent[-1].records[0].state == 3, timeout=5)  # EXPIRED


def test_profile_update_and_delegation_services(ros, node, states, events, household) -> None:
    token = login(ros).token
    req = RequestProfileUpdate.Request(action=RequestProfileUpdate.Request.REQUEST,
                                       requester_id="mom", target_user_id="mia",
                                       field="name", value="Mila", parent_token=token)
    res = ros.call(RequestProfileUpdate, "identity/request_profile_update", req)
    assert res.accepted and res.state == RequestProfileUpdate.Response.PENDING_CONFIRMATION
    assert ProfileStore(household).get("mia").name == "Mia"
    req.action = RequestProfileUpdate.Request.CONFIRM
    res = ros.call(RequestProfileUpdate, "identity/request_profile_update", req)
    assert res.state == RequestProfileUpdate.Response.APPROVED
    assert ProfileStore(household).get("mia").name == "Mila"
    assert read_household(household)[1] == PIN_HASH  # the profile write kept the PIN

    d = Delegate.Request(action=Delegate.Request.REQUEST, owner_id="mom", delegate_id="mia",
                         scope=FORGET, duration_s=60.0, parent_token=token)
    res = ros.call(Delegate, "identity/delegate", d)
    assert res.state == Delegate.Response.PENDING_CONFIRMATION
    d.action = Delegate.Request.CONFIRM
    assert ros.call(Delegate, "identity/delegate", d).state == Delegate.Response.ACTIVE


def test_reset_failure_is_reported(ros, node, states, events) -> None:
    def refuse(_req: Trigger.Request, res: Trigger.Response) -> Trigger.Response:
        res.success, res.message = False, "memory file locked"
        return res

    ros.probe.create_service(Trigger, "personality/reset_memory", refuse)
    token = login(ros).token
    command(ros, ExecuteCommand.Request.REQUEST, "mom", token)
    command(ros, ExecuteCommand.Request.CONFIRM, "mom", token)
    assert diagnostics_value(ros, "reset_memory_failed", "1")
    assert diagnostics_value(ros, "core.execution_failure", "1")


def test_birthday_not_greeted_twice_across_a_restart(ros, node, states, events,
                                                      household) -> None:
    greetings = ros.collect(SystemEvent, "identity/system_events")
    confirm(ros, events, states, "mia")
    assert ros.spin_until(lambda: greetings, timeout=5)
    # A second identity node on the same files (a restart), in its own namespace.
    ns = f"{ros.namespace}/again"
    ros.add(IdentityNode(**ros.node_kwargs(namespace=ns, parameter_overrides=[
        Parameter("profiles_path", value=str(household)),
    ])))
    states2 = ros.collect(IdentityState, f"{ns}/identity/state", qos.LATCHED)
    greetings2 = ros.collect(SystemEvent, f"{ns}/identity/system_events")
    events2 = ros.publisher(IdentityEvent, f"{ns}/identity/events")
    confirm(ros, events2, states2, "mia")
    ros.spin_for(0.5)
    assert greetings2 == [] and len(greetings) == 1


def _buddy_parent(ros, *args: str, pin: str = PIN) -> subprocess.CompletedProcess:
    """`buddy parent ...` as a person runs it (PIN on stdin), while this process spins the
    identity node."""
    proc = subprocess.Popen([str(Path(sys.prefix) / "bin" / "buddy"), "parent", "--namespace",
                             ros.namespace, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ))
    assert proc.stdin is not None
    proc.stdin.write(f"{pin}\n")
    proc.stdin.close()
    assert ros.spin_until(lambda: proc.poll() is not None, timeout=60)
    assert proc.stdout is not None and proc.stderr is not None
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.slow
def test_buddy_parent_commands_use_the_pin(ros, node) -> None:
    """`buddy parent consent` and `forget-all` with the PIN do what the page would; with
    a wrong PIN nothing happens."""
    consent = ros.collect(ConsentState, "consent/state", qos.LATCHED)
    calls: list[int] = []
    ros.probe.create_service(Trigger, "personality/reset_memory",
                             lambda _q, r: calls.append(1) or r)
    wrong = _buddy_parent(ros, "consent", "mia", "grant", pin="0000")
    assert wrong.returncode == 1 and "login refused" in wrong.stderr
    done = _buddy_parent(ros, "consent", "mia", "grant")
    assert done.returncode == 0, done.stderr
    assert ros.spin_until(lambda: consent and [(r.user_id, r.state) for r in
                                              consent[-1].records] == [("mia", 2)], timeout=5)
    done = _buddy_parent(ros, "forget-all", "--yes")
    assert done.returncode == 0, done.stderr
    assert ros.spin_until(lambda: calls == [1], timeout=5)


def household_call(ros, action: int, token: str, **fields: str) -> ManageHousehold.Response:
    return ros.call(ManageHousehold, "identity/manage_household",
                    ManageHousehold.Request(action=action, parent_token=token, **fields))


def test_a_parent_adds_edits_and_removes_a_child(ros, node, household) -> None:
    """Issue 30 item 1 (erratum 18: the identity node owns the household file): with the
    token a child is added and edited on disk; without it nothing changes; a removal
    first has personality/forget_user forget the child, then the profile goes."""
    H = ManageHousehold.Request
    token = login(ros).token
    five = _years_ago(dt.date.today(), 5).isoformat()
    refused = household_call(ros, H.ADD_CHILD, "", name="Leo", birthdate=five)
    assert not refused.accepted and "leo" not in [p.user_id for p in
                                                 read_household(household)[0]]
    added = household_call(ros, H.ADD_CHILD, token, name="Leo", birthdate=five,
                           addressing="Captain Leo")
    assert added.accepted and added.user_id == "leo", added.message
    markup = household_call(ros, H.ADD_CHILD, token, name="<b>Bo</b>")
    assert not markup.accepted and "not a name" in markup.message
    edited = household_call(ros, H.EDIT_CHILD, token, user_id="leo", addressing="Leo")
    assert edited.accepted, edited.message
    leo = {p.user_id: p for p in read_household(household)[0]}["leo"]
    assert (leo.name, leo.birthdate.isoformat(), leo.addressing) == ("Leo", five, "Leo")
    # no personality node: nothing is forgotten, so nothing is removed
    kept = household_call(ros, H.REMOVE_CHILD, token, user_id="leo")
    assert not kept.accepted and "nothing changed" in kept.message
    forgotten: list[str] = []

    def forget(req: ForgetUser.Request, res: ForgetUser.Response) -> ForgetUser.Response:
        forgotten.append(req.user_id)
        res.success, res.message = True, "forgot 2 memories"
        return res

    ros.probe.create_service(ForgetUser, "personality/forget_user", forget)
    ros.spin_for(0.3)
    removed = household_call(ros, H.REMOVE_CHILD, token, user_id="leo")
    assert removed.accepted, removed.message
    assert forgotten == ["leo"]
    assert "leo" not in [p.user_id for p in read_household(household)[0]]


def test_a_first_run_without_children_is_a_hint_not_a_warning(ros, tmp_path: Path) -> None:
    """Issue 30: a missing household was a WARN for the whole session ("problem" in the
    live view); it is OK with a hint that says how to add a child."""
    ros.add(IdentityNode(**ros.node_kwargs(parameter_overrides=[
        Parameter("profiles_path", value=str(tmp_path / "none" / "household.json"))])))
    arrays = ros.collect(DiagnosticArray, "/diagnostics", qos.DIAGNOSTICS)

    def status():
        for array in arrays:
            for s in array.status:
                if s.name.endswith("identity"):
                    return s
        return None

    assert ros.spin_until(lambda: status() is not None, timeout=5)
    s = status()
    assert s.level == DiagnosticStatus.OK, s.message
    assert "buddy parent add-child" in s.message


@pytest.mark.slow
def test_buddy_parent_adds_and_removes_a_child(ros, node, household) -> None:
    """Issue 30: `buddy parent add-child` / `remove-child` with the PIN, through the
    identity node; the options may follow the command."""
    forgotten: list[str] = []

    def forget(req: ForgetUser.Request, res: ForgetUser.Response) -> ForgetUser.Response:
        forgotten.append(req.user_id)
        res.success, res.message = True, "forgot 0 memories"
        return res

    ros.probe.create_service(ForgetUser, "personality/forget_user", forget)
    five = _years_ago(dt.date.today(), 5).isoformat()
    added = _buddy_parent(ros, "add-child", "Noah", "--birthdate", five,
                          "--household", str(household))
    assert added.returncode == 0, added.stderr
    assert "noah" in [p.user_id for p in read_household(household)[0]]
    bad = _buddy_parent(ros, "add-child", "Noah2")
    assert bad.returncode == 1 and "not a name" in bad.stderr
    removed = _buddy_parent(ros, "remove-child", "Noah", "--yes",
                            "--household", str(household))
    assert removed.returncode == 0, removed.stderr
    assert forgotten == ["noah"]
    assert "noah" not in [p.user_id for p in read_household(household)[0]]
