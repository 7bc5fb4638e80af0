"""`buddy parent`: a parent's powers without a browser (DESIGN erratum 18).

    buddy parent set-pin [--household FILE]       set or change the parent PIN (offline)
    buddy parent show [--namespace /buddy]        household, consent, memories, limits
    buddy parent forget-all [--yes]               forget every memory (asks to confirm)
    buddy parent consent CHILD grant|revoke       memory consent for one child (RS-5)
    buddy parent add-child NAME [--birthdate YYYY-MM-DD] [--addressing WORD]
                                                  add a child to the household (issue 30)
    buddy parent edit-child CHILD [--name N] [--birthdate D] [--addressing A]
    buddy parent remove-child CHILD [--yes]       remove a child; Buddy forgets them

Options (--household, --namespace) go before or after the command.

Every command except set-pin talks to the running graph and asks for the PIN first: it
logs in through `identity/parent_login` and sends the token with each request, exactly as
the parent page does. The PIN is read with getpass on a terminal, or one line per prompt
from standard input when it is not a terminal (scripts, tests). set-pin works on the
household file directly (who can write that file owns the robot); changing an existing
PIN asks for the current one.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

DEFAULT_HOUSEHOLD = "~/.local/share/buddy/household.json"  # identity.profiles_path default
DEFAULT_NAMESPACE = "/buddy"
CALL_TIMEOUT_S = 10.0


def read_secret(prompt: str, stream: Any = None) -> str:
    """A PIN: hidden on a terminal, else one line from stdin (never echoed or logged)."""
    stream = stream or sys.stdin
    if stream.isatty():
        return getpass.getpass(prompt)
    line = stream.readline()
    if not line:
        raise EOFError("no PIN on standard input")
    return line.rstrip("\n")


def _fail(message: str) -> int:
    print(f"buddy parent: {message}", file=sys.stderr)
    return 1


# -- set-pin (offline) -------------------------------------------------------------------

def set_pin(household: Path, ask: Callable[[str], str] = read_secret) -> int:
    from buddy_personality.identity.parent_pin import hash_pin, pin_problem, verify_pin  # noqa: PLC0415
    from buddy_personality.identity.profiles import read_household, set_parent_pin  # noqa: PLC0415

    try:
        _, current = read_household(household)
    except (OSError, ValueError) as exc:
        return _fail(f"cannot read {household}: {exc}; nothing changed")
    if current is not None and not verify_pin(ask("Current parent PIN: "), current):
        return _fail("wrong current PIN; nothing changed")
    new = ask("New parent PIN: ")
    problem = pin_problem(new)
    if problem:
        return _fail(f"{problem}; nothing changed")
    if ask("New parent PIN again: ") != new:
        return _fail("the two PINs differ; nothing changed")
    set_parent_pin(household, hash_pin(new))
    print(f"buddy parent: PIN {'changed' if current else 'set'} in {household} "
          "(salted scrypt hash; the PIN itself is not stored)")
    return 0


# -- commands over the graph -----------------------------------------------------------------

class ParentSession:
    """A short-lived node that logs in with the PIN and sends token-carrying requests."""

    def __init__(self, namespace: str) -> None:
        from buddy_personality.dds_confinement import confine_dds  # noqa: PLC0415

        confine_dds()
        import rclpy  # noqa: PLC0415 - after confine_dds: rmw reads the environment at init

        self._rclpy = rclpy
        rclpy.init(args=["buddy_parent"])
        self.node = rclpy.create_node("buddy_parent", namespace=namespace)
        self.token = ""

    def close(self) -> None:
        if self.token:
            from buddy_msgs.srv import ParentLogin  # noqa: PLC0415

            req = ParentLogin.Request(action=ParentLogin.Request.LOGOUT, token=self.token)
            with contextlib.suppress(TimeoutError):  # the token expires by itself
                self.call(ParentLogin, "identity/parent_login", req, timeout=2.0)
        self.node.destroy_node()
        self._rclpy.try_shutdown()

    def call(self, srv_type: type, name: str, request: Any,
             timeout: float = CALL_TIMEOUT_S) -> Any:
        client = self.node.create_client(srv_type, name)
        try:
            if not client.wait_for_service(timeout_sec=timeout):
                raise TimeoutError(f"{self.node.get_namespace()}/{name} is not available: "
                                   "is Buddy running (buddy run, or the launch file)?")
            future = client.call_async(request)
            self._rclpy.spin_until_future_complete(self.node, future, timeout_sec=timeout)
            if not future.done():
                raise TimeoutError(f"{name} did not answer within {timeout:.0f} s")
            return future.result()
        finally:
            self.node.destroy_client(client)

    def latched(self, msg_type: type, topic: str, timeout: float = 3.0) -> Any | None:
        from buddy_personality.nodes.common import qos  # noqa: PLC0415

        got: list[Any] = []
        sub = self.node.create_subscription(msg_type, topic, got.append, qos.of(topic))
        try:
            deadline = self.node.get_clock().now().nanoseconds + int(timeout * 1e9)
            while not got and self.node.get_clock().now().nanoseconds < deadline:
                self._rclpy.spin_once(self.node, timeout_sec=0.1)
        finally:
            self.node.destroy_subscription(sub)
        return got[-1] if got else None

    def login(self, ask: Callable[[str], str]) -> str | None:
        """Log in; the reason when refused (a wrong PIN, a lockout), else None."""
        from buddy_msgs.srv import ParentLogin  # noqa: PLC0415

        res = self.call(ParentLogin, "identity/parent_login",
                        ParentLogin.Request(action=ParentLogin.Request.LOGIN,
                                            pin=ask("Parent PIN: ")))
        if not res.success:
            return res.message
        self.token = res.token
        return None


def forget_all(session: ParentSession, confirm: Callable[[str], bool]) -> int:
    from buddy_msgs.srv import ExecuteCommand  # noqa: PLC0415

    req = ExecuteCommand.Request(action=ExecuteCommand.Request.REQUEST,
                                 command=ExecuteCommand.Request.CMD_FORGET_EVERYTHING,
                                 parent_token=session.token)
    res = session.call(ExecuteCommand, "identity/execute_command", req)
    if res.state != ExecuteCommand.Response.PENDING_CONFIRMATION:
        return _fail(f"refused: {res.message}")
    if not confirm("Buddy will forget everything it remembers about your family. Sure? "):
        req.action = ExecuteCommand.Request.CANCEL
        session.call(ExecuteCommand, "identity/execute_command", req)
        print("buddy parent: cancelled; nothing was forgotten")
        return 1
    req.action = ExecuteCommand.Request.CONFIRM
    res = session.call(ExecuteCommand, "identity/execute_command", req)
    if res.state != ExecuteCommand.Response.EXECUTED:
        return _fail(f"refused: {res.message}")
    print("buddy parent: done; Buddy is forgetting everything it remembered")
    return 0


def consent(session: ParentSession, child: str, decision: str) -> int:
    from buddy_msgs.srv import RequestConsent  # noqa: PLC0415

    R = RequestConsent.Request
    steps = [R.REQUEST, R.GRANT] if decision == "grant" else [R.REVOKE]
    for action in steps:
        res = session.call(RequestConsent, "identity/request_consent", R(
            action=action, user_id=child, scope="memory", parent_token=session.token))
        if not res.accepted:
            return _fail(f"refused: {res.message}")
    verb = "may now remember" if decision == "grant" else "no longer remembers"
    print(f"buddy parent: Buddy {verb} things about {child} "
          "(memory consent lasts until the conversation ends, spec 004 §5)")
    return 0


def _child_id(household: Path, child: str) -> str:
    """A child named by user id or by name (the household file is read, never written)."""
    from buddy_personality.identity.profiles import read_household  # noqa: PLC0415

    try:
        profiles, _ = read_household(household)
    except (OSError, ValueError):
        return child
    wanted = child.strip().casefold()
    for p in profiles:
        if wanted in (p.user_id.casefold(), p.name.casefold()):
            return p.user_id
    return child


def manage_child(session: ParentSession, action: str, user_id: str = "", name: str = "",
                 birthdate: str = "", addressing: str = "") -> int:
    """add-child / edit-child / remove-child through identity/manage_household: the
    identity node validates and writes the household file (erratum 18)."""
    from buddy_msgs.srv import ManageHousehold  # noqa: PLC0415

    R = ManageHousehold.Request
    kind = {"add-child": R.ADD_CHILD, "edit-child": R.EDIT_CHILD,
            "remove-child": R.REMOVE_CHILD}[action]
    res = session.call(ManageHousehold, "identity/manage_household", R(
        action=kind, user_id=user_id, name=name, birthdate=birthdate, addressing=addressing,
        parent_token=session.token))
    if not res.accepted:
        return _fail(f"nothing changed: {res.message}")
    print(f"buddy parent: {res.message} (user id {res.user_id})")
    return 0


def show(session: ParentSession, household: Path) -> int:
    from buddy_msgs.msg import ConsentState  # noqa: PLC0415
    from buddy_msgs.srv import ListMemories  # noqa: PLC0415
    from buddy_personality.identity.profiles import read_household  # noqa: PLC0415

    states = {0: "none", 1: "pending", 2: "granted", 3: "expired", 4: "revoked"}
    try:
        profiles, _ = read_household(household)
    except (OSError, ValueError) as exc:
        profiles = []
        print(f"household file {household} unreadable: {exc}")
    print("Household:")
    for p in profiles:
        born = p.birthdate.isoformat() if p.birthdate else "birthdate unknown"
        print(f"  {p.user_id:<12} {p.name:<14} {p.role:<7} {born}")
    record = session.latched(ConsentState, "consent/state")
    print("Memory consent:")
    for r in (record.records if record is not None else []):
        print(f"  {r.user_id:<12} {r.scope:<8} {states.get(r.state, r.state)}")
    memories = session.call(ListMemories, "personality/list_memories", ListMemories.Request())
    print(f"Memories ({len(memories.entries)}):")
    for m in memories.entries:
        print(f"  {m.tag:<28} {m.category:<10} strength {m.strength:.2f}")
    return 0


def _confirm_on_terminal(question: str) -> bool:
    return read_secret(question).strip().lower() in ("y", "yes")


def _common_options(parser: argparse.ArgumentParser, defaults: bool) -> None:
    """--household and --namespace, on the main parser (with the defaults) and on each
    sub-command (SUPPRESS: given there, they win; not given, the main parser's stand), so
    they may come before or after the command (issue 30)."""
    parser.add_argument("--household", type=Path,
                        default=Path(DEFAULT_HOUSEHOLD) if defaults else argparse.SUPPRESS,
                        help=f"household file (default {DEFAULT_HOUSEHOLD})")
    parser.add_argument("--namespace",
                        default=DEFAULT_NAMESPACE if defaults else argparse.SUPPRESS,
                        help="Buddy's namespace (default /buddy)")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="buddy parent", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    _common_options(p, defaults=True)
    common = argparse.ArgumentParser(add_help=False)
    _common_options(common, defaults=False)
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("set-pin", parents=[common], help="set or change the parent PIN")
    sub.add_parser("show", parents=[common], help="household, consent and memories")
    forget = sub.add_parser("forget-all", parents=[common], help="forget every memory")
    forget.add_argument("--yes", action="store_true", help="do not ask to confirm")
    c = sub.add_parser("consent", parents=[common],
                       help="grant or revoke memory consent for a child")
    c.add_argument("child", help="the child's user id")
    c.add_argument("decision", choices=("grant", "revoke"))
    add = sub.add_parser("add-child", parents=[common], help="add a child to the household")
    add.add_argument("name", help="the child's name, as Buddy says it")
    add.add_argument("--birthdate", default="", help="YYYY-MM-DD (a child of 2 to 12)")
    add.add_argument("--addressing", default="", help="how Buddy addresses the child")
    edit = sub.add_parser("edit-child", parents=[common],
                          help="change a child's name, birthdate or addressing")
    edit.add_argument("child", help="the child's name or user id")
    edit.add_argument("--name", default="")
    edit.add_argument("--birthdate", default="", help="YYYY-MM-DD")
    edit.add_argument("--addressing", default="")
    remove = sub.add_parser("remove-child", parents=[common],
                            help="remove a child; Buddy forgets what it remembers about them")
    remove.add_argument("child", help="the child's name or user id")
    remove.add_argument("--yes", action="store_true", help="do not ask to confirm")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    ns = build_parser().parse_args(argv)
    household = ns.household.expanduser()
    try:
        if ns.command == "set-pin":
            return set_pin(household)
        session = ParentSession(ns.namespace)
        try:
            refused = session.login(read_secret)
            if refused:
                return _fail(f"login refused: {refused}")
            if ns.command == "forget-all":
                return forget_all(session, (lambda _q: True) if ns.yes else
                                  _confirm_on_terminal)
            if ns.command == "consent":
                return consent(session, ns.child, ns.decision)
            if ns.command == "add-child":
                return manage_child(session, "add-child", name=ns.name,
                                    birthdate=ns.birthdate, addressing=ns.addressing)
            if ns.command == "edit-child":
                return manage_child(session, "edit-child", _child_id(household, ns.child),
                                    ns.name, ns.birthdate, ns.addressing)
            if ns.command == "remove-child":
                if not ns.yes and not _confirm_on_terminal(
                        f"Remove {ns.child} from the household? Buddy forgets everything it "
                        "remembers about them. Sure? "):
                    print("buddy parent: cancelled; nothing changed")
                    return 1
                return manage_child(session, "remove-child", _child_id(household, ns.child))
            return show(session, household)
        finally:
            session.close()
    except (EOFError, TimeoutError) as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return 130
