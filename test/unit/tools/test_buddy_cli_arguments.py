"""Issue 31 item 8: a bad argument to a `buddy` command ends in one clear line and exit
status 2, like argparse's own errors; before, a bad or missing `--params` and a bad
`--state-dir` ended in Python tracebacks, and `--duration -5` or `nan` ran forever.

Every case here is refused while the arguments are parsed: no ROS is started."""

from __future__ import annotations

from pathlib import Path

import pytest

from buddy_personality.tools.bags import record
from buddy_personality.tools.cli import cli, say
from buddy_personality.tools.fakes import face_sim


def refused(main, argv: list[str], capsys) -> str:
    """The one error line of `main(argv)`, which must exit 2 without a traceback."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1 and "Traceback" not in err, err
    return errors[0]


@pytest.mark.parametrize("duration", ["-5", "nan", "inf", "-inf", "soon"])
def test_a_duration_that_never_ends_or_means_nothing_is_refused(duration, capsys) -> None:
    line = refused(cli.main, ["run", "--headless", f"--duration={duration}"], capsys)
    assert "--duration" in line and duration in line


def test_a_missing_parameter_file_is_refused(tmp_path: Path, capsys) -> None:
    line = refused(cli.main, ["run", "--params", str(tmp_path / "nope.yaml")], capsys)
    assert "--params" in line and "nope.yaml" in line


@pytest.mark.parametrize("content", [
    "buddy: [unclosed\n",                  # not YAML
    "- a list\n- of things\n",             # YAML, not a parameter file
    "personality:\n  ros__parameters: 3\n",
])
def test_a_parameter_file_that_is_not_one_is_refused(tmp_path: Path, content: str,
                                                     capsys) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(content)
    line = refused(cli.main, ["run", "--params", str(bad)], capsys)
    assert "--params" in line and "bad.yaml" in line


def test_a_state_dir_that_is_a_file_or_cannot_be_made_is_refused(tmp_path: Path,
                                                                 capsys) -> None:
    a_file = tmp_path / "state"
    a_file.write_text("")
    assert "--state-dir" in refused(cli.main, ["run", "--state-dir", str(a_file)], capsys)
    under_a_file = a_file / "inside"
    assert "--state-dir" in refused(cli.main, ["run", "--state-dir", str(under_a_file)],
                                    capsys)


def test_a_good_state_dir_is_created(tmp_path: Path) -> None:
    ns = cli.build_parser().parse_args(["run", "--state-dir", str(tmp_path / "a" / "b"),
                                        "--duration", "2.5"])
    assert (tmp_path / "a" / "b").is_dir() and ns.duration == 2.5


@pytest.mark.parametrize(("main", "argv"), [
    (record.main, ["--duration", "-5"]),
    (face_sim.main, ["--duration", "nan"]),
    (say.main, ["hello", "--wait", "-1"]),
])
def test_the_other_commands_refuse_such_durations_too(main, argv, capsys) -> None:
    assert "error:" in refused(main, argv, capsys)
