"""Start-up stays fast and every command explains itself (STYLE.md habits 11 and 12)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer.main

from conftest import cli_run
from pbem.cli import app

ROOT = Path(__file__).resolve().parent.parent.parent
HEAVY = ["jsonschema", "jinja2", "cairosvg", "PIL", "cryptography"]


def test_import_does_not_pull_in_heavy_libraries():
    """``import pbem.cli`` in a fresh interpreter leaves jsonschema, jinja2, cairosvg,
    Pillow and cryptography (the keys and signatures of games without a game master) out."""
    code = ("import json, sys; import pbem.cli; "
            f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_the_check_can_see_a_heavy_import():
    """The same probe does notice a heavy module (so the test above can fail)."""
    code = ("import sys; import pbem.cli, pbem.editions, pbem.service.schemas as s; "
            "s._validator('edit', pbem.editions.get('classic')); print('jsonschema' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.stdout.strip() == "True", result.stderr


def _commands(command=None, path=()):
    command = command or typer.main.get_command(app)
    subs = getattr(command, "commands", None)
    if subs:
        for name, sub in sorted(subs.items()):
            yield from _commands(sub, (*path, name))
    else:
        yield path, command


COMMANDS = list(_commands())


def test_the_foundation_commands_are_registered():
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"new", "show", "gm-edit", "schema", "map check", "check", "process"} <= names


@pytest.mark.parametrize("path,command", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_command_has_help(path, command):
    """``--help`` works, and the command and each of its parameters say what they are for."""
    assert (command.help or "").strip(), f"{' '.join(path)} has no help text"
    assert "Example:" in command.help, f"{' '.join(path)} gives no example"
    for param in command.params:
        if param.name != "help":
            assert getattr(param, "help", None), f"{' '.join(path)}: {param.name} has no help"
    result = cli_run(*path, "--help")
    assert result.exit_code == 0, result.output
    # the help is rewrapped to the terminal's width (a line may even break after a hyphen)
    assert "".join(command.help.strip().splitlines()[0].split()) in "".join(result.stdout.split())


def test_top_level_help_lists_every_command():
    result = cli_run("--help")
    assert result.exit_code == 0
    for path, _ in COMMANDS:
        assert path[0] in result.stdout


def test_the_command_list_behind_lazy_loading_matches_the_application():
    """``pbem.cli.COMMANDS`` (which module defines each command, and its first help
    paragraph) is exactly what the whole application has, in the same order. A docstring's
    paragraph may be wrapped over lines: its words are compared, as --help reflows them."""
    import pbem.cli

    group = typer.main.get_command(app)
    assert list(pbem.cli.COMMANDS) == list(group.commands)
    for name, command in group.commands.items():
        module, text = pbem.cli.COMMANDS[name]
        assert " ".join((command.help or "").split("\n\n")[0].split()) == text, name
        if command.callback is not None:
            assert command.callback.__module__ == f"pbem.cli.{module}", name
        else:  # a group: its subcommands live in the module named
            sub = next(iter(command.commands.values()))
            assert sub.callback.__module__ == f"pbem.cli.{module}", name


@pytest.mark.parametrize("columns", ["80", "120", "60"])
@pytest.mark.parametrize("args", [["--help"], []])
def test_the_quick_top_level_help_is_the_one_typer_prints(args, columns):
    """``antike-ref --help`` (and bare ``antike-ref``, exit code 2) print the command list
    without building the commands; it is byte for byte the help Typer prints for the whole
    application, at any terminal width."""
    env = {**os.environ, "COLUMNS": columns}
    quick = subprocess.run([str(Path(sys.executable).with_name("antike-ref")), *args],
                           capture_output=True, text=True, cwd=ROOT, env=env)
    full = subprocess.run([sys.executable, "-c", "from pbem.cli import app; app(prog_name='antike-ref')", *args],
                          capture_output=True, text=True, cwd=ROOT, env=env)
    assert quick.returncode == full.returncode == (0 if args else 2)
    assert quick.stdout + quick.stderr == full.stdout + full.stderr
    assert "process" in quick.stdout + quick.stderr


def test_a_command_loads_only_its_own_module():
    code = ("import sys; sys.argv = ['antike-ref', 'schema', 'orders']; from pbem.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('pbem.cli.')), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "['pbem.cli.base', 'pbem.cli.game']"


IDLE_PROBE = """
import json, sys
sys.argv = ["antike-ref", "mail", "run", "--config", sys.argv[1], "--source", sys.argv[2], "--outbox", sys.argv[3],
            "--now", sys.argv[4]]
from pbem.cli import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(m for m in ("pbem.mail.cycle", "pbem.service.service", "pbem.service.store", "jsonschema",
                                    "jinja2", "pbem.report", "imaplib", "smtplib") if m in sys.modules)),
      file=sys.stderr)
"""


@pytest.mark.parametrize("news", [False, True], ids=["idle", "a-new-mail"])
def test_an_idle_mail_run_imports_neither_the_cycle_nor_the_service(tmp_path, news):
    """An idle ``mail run`` (each game's watermark says nothing changed, docs/mail.md) is
    told by ``os.stat`` and a small JSON file: it imports neither the mail cycle, the game
    service, ``jsonschema`` nor ``jinja2``. The same probe sees them once a mail came."""
    from mailkit import ADDRESSES, config, game_with_players, mail, maildir

    game = game_with_players(tmp_path)
    cfg = config(tmp_path, game, defaults='attach = ""')
    box = maildir(tmp_path / "M")
    old = time.time_ns() - 60 * 10**9
    for sub in ("new", "cur"):
        os.utime(box / sub, ns=(old, old))  # a mailbox that has been quiet for a minute
    first = cli_run("mail", "run", "--config", cfg, "--source", box, "--outbox", tmp_path / "o1",
                    "--now", "2026-11-23T10:00:00Z")
    assert first.exit_code == 0, first.stderr
    if news:
        maildir(box, mail(ADDRESSES["greeks"], body="hello"))
    result = subprocess.run([sys.executable, "-c", IDLE_PROBE, str(cfg), str(box), str(tmp_path / "o2"),
                             "2026-11-23T10:05:00Z"], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("0 games idle" if news else "1 game idle"), result.stdout
    loaded = json.loads(result.stderr.strip().splitlines()[-1])
    if news:
        assert {"pbem.mail.cycle", "pbem.service.service"} <= set(loaded)
    else:
        assert loaded == []
