"""The Typer application and what every command shares: error handling and exit codes,
option parsing helpers, JSON printing, report writers."""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC
from pathlib import Path

import typer

from pbem.errors import ExitCode, InconsistentGame, InputError, PbemError, Refused, UsageError, caused_by_interrupt

APP_HELP = "Play-by-email referee for Mac Gerdts' Antike."

app = typer.Typer(
    name="antike-ref",
    help=APP_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
map_app = typer.Typer(help="Board map files.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(map_app, name="map")


GUIDE = 'the player\'s guide, docs/playing.md, "When the referee says no", explains every refusal'
"""Where every refusal and bad input points the player."""


def err(message: str) -> None:
    print(f"antike-ref: {message}", file=sys.stderr)


def _fail(exc: Exception) -> None:
    """Print ``exc`` on stderr (one line per problem, the first saying what and where) and
    exit with its code. A problem of orders in the text syntax names its line (the text's
    reading, ``text_reading``, tells it); one of an order file its JSON path."""
    reading = getattr(exc, "text_reading", None)
    if isinstance(exc, Refused):
        items = [reading.describe(r.path, r.message, r.code) if reading else str(r) for r in exc.rejections]
        head = "refused"
    elif isinstance(exc, InputError):
        items = [reading.describe(p.path, p.message) if reading else p.message if p.path == "$" else str(p)
                 for p in exc.problems]
        head = f"{exc.source}: {'inconsistent game' if isinstance(exc, InconsistentGame) else 'bad input'}"
    else:
        items, head = [], str(exc)
    if len(items) == 1:
        err(f"{head}: {items[0]}")
    else:
        err(f"{head} ({len(items)} problems):" if items else head)
        for item in items:
            print(f"  {item}", file=sys.stderr)
    if getattr(exc, "about_orders", False) or (
            isinstance(exc, Refused) and any(not r.code.startswith("edit/") for r in exc.rejections)):
        err(f"help: {GUIDE}")
    raise typer.Exit(int(getattr(exc, "exit_code", ExitCode.INTERNAL)))


def quiet_stdout() -> None:
    """Send what is left of stdout nowhere: its reader has gone (a closed pipe)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def run(fn):
    """Call ``fn`` and turn every error into a message and an exit code.

    Output cut short by a closed pipe (``antike-ref history game.json | head -1``) ends
    quietly with exit code 0: the reader had what it wanted, and whatever the command was
    to change was saved before it printed."""
    try:
        result = fn()
        sys.stdout.flush()
        return result
    except typer.Exit:
        raise
    except BrokenPipeError:
        quiet_stdout()
        raise typer.Exit(0) from None
    except PbemError as exc:
        _fail(exc)
    except KeyboardInterrupt:  # in-process callers; the console script has its own handler
        raise typer.Exit(interrupted()) from None
    except Exception as exc:  # a bug: say so, ask for a report
        if caused_by_interrupt(exc):
            raise typer.Exit(interrupted()) from None
        err(f"internal error (a bug in antike-ref, please report it with the files used): "
            f"{type(exc).__name__}: {exc}")
        raise typer.Exit(int(ExitCode.INTERNAL)) from None


def interrupted() -> int:
    """Say what an interrupt left behind; the exit code tells a script the same."""
    service = sys.modules.get("pbem.service.service")
    saved = list(getattr(service, "COMMITTED", []))
    if saved:
        print(f"antike-ref: interrupted after {', '.join(map(str, saved))} was saved: the change is "
              "applied; anything after it (reports, mails) may be missing", file=sys.stderr)
        return int(ExitCode.INTERRUPTED_SAVED)
    print("antike-ref: interrupted: nothing was saved, the game file is unchanged", file=sys.stderr)
    return int(ExitCode.INTERRUPTED)


def pairs(values: list[str] | None, option: str) -> dict[str, str]:
    """``["greeks=a", ...]`` -> ``{"greeks": "a"}``; a nation given twice is a usage error."""
    out: dict[str, str] = {}
    for v in values or []:
        key, sep, rest = v.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"{option} {v!r}: expected NATION=VALUE")
        if key in out:
            raise UsageError(f"{option} {key}: given twice")
        out[key] = rest
    return out


def print_json(data, sort_keys: bool = True) -> None:
    print(json.dumps(data, sort_keys=sort_keys, ensure_ascii=False, indent=1))


def time_option(value: str | None):
    """``--now TIME`` (ISO 8601; no zone means UTC), or the clock read now: the one place a
    command that tells time left reads it (docs/mail.md, "Deadlines")."""
    from datetime import datetime

    from pbem.service.numbers import moment

    if value is None:
        return datetime.now(UTC).replace(microsecond=0)
    return moment(value, "--now")


IMAGE_BASE_HELP = ("Web address of the folder the report pictures are put in (http or https): the "
                   "Markdown and BBCode then show the board from URL/FILE.png instead of the bare file name.")


def reporter(report_dir: Path | None, formats: list[str] | None, image_base: str | None = None,
             game_file: Path | None = None):
    """A report writer for the service (``None`` without ``--report-dir``): it writes the
    reports of the game's latest history entry. The formats and ``--image-base`` are
    checked at once, so a bad option is refused before the game is touched.

    ``game_file``: where the game is saved; the reports name its current turn's deadline
    when its clock (GAME.clock.json) has one (read when they are written, after the save;
    without a time left: a file is read later, and ``render`` writes the same bytes)."""
    if report_dir is None and image_base is None:
        return None  # nothing to check or write: the report package is not even loaded
    from pbem.report import check_image_base, parse_formats, write_latest

    check_image_base(image_base)
    if report_dir is None:
        return None

    chosen = parse_formats(formats)

    def write(game):
        from pbem.service.clockfile import read_clock
        from pbem.service.readout import current_deadline

        deadline = current_deadline(game, read_clock(game_file)) if game_file is not None else None
        return write_latest(game, report_dir, chosen, image_base=image_base, deadline=deadline)

    return write


def print_reports(paths: list[Path], to_stderr: bool = False) -> None:
    """Say which report files were written, one line per report:
    ``reports: DIR/GAME-turn-007.{svg,pdf,...}`` (and one per private report in an edition
    with secrets, ``DIR/GAME-turn-007.romans.{pdf,...}``)."""
    stems: dict[Path, list[str]] = {}
    for p in paths:
        stems.setdefault(p.with_suffix(""), []).append(p.suffix.lstrip("."))
    for stem, exts in stems.items():
        print(f"reports: {stem}.{{{','.join(exts)}}}", file=sys.stderr if to_stderr else sys.stdout)


def main() -> None:
    """The console script."""
    app()

