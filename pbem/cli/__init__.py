"""The ``antike-ref`` command line: thin Typer adapters over the game service.

Commands parse their arguments, call the service (:mod:`pbem.service`) or a reader of the
game (``options``, ``bot``, reports), print, and map every error to its exit code
(docs/orders.md, "Exit codes"). Heavy libraries are imported inside the commands that need
them. Each command module registers its commands on :data:`pbem.cli.base.app` when
imported.

Start-up is kept lean in two more ways (bench/bench_speed.py measures both):

- :func:`main` imports only the module that defines the command it is asked for, so
  Typer builds a handful of commands rather than all of them;
- ``antike-ref`` and ``antike-ref --help`` print the command list from :data:`COMMANDS`
  (each command's first help paragraph) without building any command;
  tests/cli/test_startup.py proves that this text is exactly the one Typer prints for the
  whole application, so the two cannot drift apart.

``from pbem.cli import app`` gives the whole application with every command registered.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "new": ("game", "Create a game."),
    "show": ("game", "Show whose turn it is, every nation's holdings and the board."),
    "gm-edit": ("game", "Apply a GM edit file: all edits or none, logged in the history with its reason."),
    "check": ("game", "Check an order file against the game without writing anything."),
    "process": ("game", "Apply an order file: check it, then write the next game file (and reports)."),
    "schema": ("game", "Print a JSON Schema, complete for one edition."),
    "verify": ("gm", "Replay the whole history from the set-up and check every hash."),
    "copy": ("gm", "GM: write a player's copy of the game: everything that nation may see, nothing else."),
    "history": ("gm", "List the history, or show one turn's orders and events."),
    "undo": ("gm", "GM: take back the last history entries by replaying the history; logged in "
                   "GAME.audit.jsonl."),
    "default-turn": ("gm", "GM: play the default turn (D15) for a missing player; logged in the history."),
    "options": ("gm", "What the active nation can do: each rondel target, its cost and what it allows."),
    "bot": ("gm", "Let the bot write a legal turn for the active nation (for an absent player, or practice)."),
    "inbox": ("mail", "Read order mails for a game: apply the valid ones, answer every one, mail reports."),
    "remind": ("mail", "Mail the player whose turn it is a reminder (with what they can do)."),
    "player": ("mail", "GM: give a nation a new player (name, address, new password), as a logged edit."),
    "deadline": ("mail", "GM: extend or set the current turn's deadline (this turn only); logged, and the players "
                         "told."),
    "absent": ("mail", "GM: a player is away from one day to another; their turns follow the game's absence policy."),
    "pause": ("mail", "GM: pause the game: no deadline runs until `resume`; the players are told."),
    "resume": ("mail", "GM: the paused game goes on; the current turn's deadline moves on by the time it was paused."),
    "render": ("report", "Render a turn's report, byte-identical to the one written when it was processed."),
    "post": ("report", "Print a forum post of a turn's report: the board picture and the report, ready "
                       "to paste."),
    "site": ("site", "Write a static website of the game: index.html (board, standings, whose turn, the "
                     "history) and one page per history entry."),
    "status": ("status", "GM: one line per game run by mail: whose turn, the deadline, how late, who is away, "
                         "the mail queue, the last error."),
    "keygen": ("signed", "Make a key to sign your entries with (Ed25519, in OpenSSH's formats)."),
    "join": ("signed", "Join a game without a game master: your key and the commitment of your chain."),
    "reveal": ("signed", "Reveal your first value, once every seat has joined (it signs every seat's join)."),
    "accept": ("signed", "Accept the others' entries: every signature, reveal and turn checked, all or none."),
    "rebuild": ("signed", "Rebuild a game without a game master from any text holding its blocks, checking all."),
    "claim": ("signed", "Claim that the seat to play missed its deadline: its turn is played as the group agreed."),
    "rule": ("signed", "Arbiters: settle a dispute with a ruling every arbiter signs (a deadline, edits)."),
    "blocks": ("signed", "Print the blocks of the game's signed entries, to send again or post."),
    "entry": ("signed", "Write an entry's signed bytes and signature, for ssh-keygen -Y verify without antike-ref."),
    "sign": ("signed", "In a game a GM runs: sign your orders, so the game proves which orders you gave."),
    "map": ("maps", "Board map files."),
    "mail": ("mail", "The mail cycle: from cron, from the mail server, or as a service (docs/mail.md)."),
}
"""Every top-level command: the module that defines it and its first help paragraph, in
the order ``--help`` lists them."""

MODULES = ("game", "gm", "mail", "maps", "report", "site", "status", "signed")


def load(*modules: str) -> None:
    """Import command modules (all of them when none are named), registering their commands."""
    for name in modules or MODULES:
        importlib.import_module(f"pbem.cli.{name}")


def __getattr__(name: str):
    if name == "app":
        load()
        from pbem.cli.base import app

        return app
    raise AttributeError(f"module 'pbem.cli' has no attribute {name!r}")


def program_name() -> str:
    """The name the program was called by, as the full help shows it: the script's file
    name (``antike-ref``), or ``python -m PACKAGE`` when it was run as a module."""
    import os

    script = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "antike-ref"
    package = getattr(sys.modules.get("__main__"), "__package__", None)
    if not package:
        return script
    stem = os.path.splitext(script)[0]
    return f"python -m {package}" + ("" if stem == "__main__" else f".{stem}")


def top_help() -> str:
    """The text of ``antike-ref --help``, made from :data:`COMMANDS` without building the
    commands themselves."""
    import typer
    from typer.core import TyperCommand, TyperGroup

    from pbem.cli.base import APP_HELP

    group = TyperGroup(name="antike-ref", help=APP_HELP, no_args_is_help=True, rich_markup_mode=None)
    for name, (_, text) in COMMANDS.items():
        group.add_command(TyperCommand(name=name, help=text, rich_markup_mode=None))
    with typer.Context(group, info_name=program_name()) as ctx:
        return group.get_help(ctx)


def _interrupt(signum, frame):
    from pbem.errors import RECEIVED, Interrupted  # loaded by main() before this is installed

    RECEIVED.append(signum)  # an error that follows is the interrupt's (caused_by_interrupt)
    raise Interrupted(signum)


def _early(signum, frame):
    """The handler while antike-ref is still loading its own modules: nothing can have
    been done yet."""
    raise KeyboardInterrupt


def _unraisable(info) -> None:
    """An interrupt that landed in a weakref callback or a ``__del__`` cannot be raised
    from there (Python would print "Exception ignored" and carry on): deliver it again, so
    that it is raised in the command itself; anything else goes to Python's own hook.

    It is sent again from a helper thread a moment later: sent from here, its handler
    would run inside this hook, and Python would print the interrupt as ignored. (A
    command that ends before it arrives has ignored signals by then: it ran to the end.)"""
    from pbem.errors import Interrupted

    if isinstance(info.exc_value, Interrupted):
        import os
        import threading

        resend = threading.Timer(0.01, os.kill, (os.getpid(), info.exc_value.args[0]))
        resend.daemon = True
        resend.start()
        return
    sys.__unraisablehook__(info)


def main() -> None:
    """The console script: Ctrl-C and SIGTERM end it with exit code 8 (nothing saved) or 9
    (the game file was saved), never with a traceback."""
    import signal

    # This module imports nothing of antike-ref's at the top, so a signal is handled from
    # the first moment the console script runs: first by _early, then, once the error
    # classes are loaded, by _interrupt.
    signal.signal(signal.SIGINT, _early)
    signal.signal(signal.SIGTERM, _early)
    try:
        try:
            from pbem import errors

            signal.signal(signal.SIGINT, _interrupt)
            signal.signal(signal.SIGTERM, _interrupt)
            sys.unraisablehook = _unraisable
            _main()
        except KeyboardInterrupt:
            _exit_interrupted()
        except BaseException as exc:
            errors = sys.modules.get("pbem.errors")  # type: ignore[assignment]  # None: the import above did not finish
            if errors is not None and (isinstance(exc, errors.Interrupted) or (
                    isinstance(exc, Exception) and errors.caused_by_interrupt(exc))):
                _exit_interrupted()  # an interrupt, maybe wrapped (class creation, cairo's writer)
            raise
    finally:
        # The work is done: a signal now must not kill the interpreter as it exits (which
        # Python would do once it has put the default handlers back), turning a finished
        # run's exit code into "killed".
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _exit_interrupted() -> None:
    from pbem.cli.base import interrupted

    sys.exit(interrupted())


def _main() -> None:
    args = sys.argv[1:]
    if args in ([], ["--help"]):
        try:
            print(top_help())
            sys.stdout.flush()
        except BrokenPipeError:  # `antike-ref --help | head -3`: the reader had enough
            from pbem.cli.base import quiet_stdout

            quiet_stdout()
        sys.exit(0 if args else 2)
    entry = COMMANDS.get(args[0])
    if entry is None:
        load()
    else:
        load(entry[0])
    from pbem.cli.base import main as run_app

    run_app()


__all__ = ["COMMANDS", "app", "load", "main", "top_help"]
