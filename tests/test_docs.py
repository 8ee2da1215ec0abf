"""Every command is documented: in its --help (tests/cli/test_startup.py) and in the README."""

from __future__ import annotations

from pathlib import Path

from pbem.cli import app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def command_names() -> list[str]:
    names = [c.name or c.callback.__name__ for c in app.registered_commands]
    names += [f"{g.name} {c.name}" for g in app.registered_groups for c in g.typer_instance.registered_commands]
    return sorted(names)


def test_every_command_has_an_example_in_the_readme():
    missing = [n for n in command_names() if f"antike-ref {n} " not in README]
    assert not missing, f"commands without a README example: {missing}"


def test_readme_quick_start_is_the_two_make_commands():
    quick = README.split("## Quick start", 1)[1].split("##", 1)[0]
    assert "make demo" in quick and "make test" in quick
