"""The ``antike-ref`` command line: a thin Typer adapter over the library.

It parses arguments, calls the library, prints, and maps every error to its exit code
(ORDERS.md, "Exit codes"). Heavy libraries are imported inside the commands that need them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from pbem.errors import ExitCode, InconsistentGame, InputError, PbemError, Refused, UsageError

app = typer.Typer(
    name="antike-ref",
    help="Play-by-email referee for Mac Gerdts' Antike.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
map_app = typer.Typer(help="Board map files.", no_args_is_help=True)
app.add_typer(map_app, name="map")


def _err(message: str) -> None:
    print(f"antike-ref: {message}", file=sys.stderr)


def _fail(exc: Exception) -> None:
    """Print ``exc`` on stderr (one line per problem, the first saying what and where) and
    exit with its code."""
    if isinstance(exc, Refused):
        items = [str(r) for r in exc.rejections]
        head = "refused"
    elif isinstance(exc, InputError):
        items = [p.message if p.path == "$" else str(p) for p in exc.problems]
        head = f"{exc.source}: {'inconsistent game' if isinstance(exc, InconsistentGame) else 'bad input'}"
    else:
        items, head = [], str(exc)
    if len(items) == 1:
        _err(f"{head}: {items[0]}")
    else:
        _err(f"{head} ({len(items)} problems):" if items else head)
        for item in items:
            print(f"  {item}", file=sys.stderr)
    raise typer.Exit(int(getattr(exc, "exit_code", ExitCode.INTERNAL)))


def run(fn):
    """Call ``fn`` and turn every error into a message and an exit code."""
    try:
        return fn()
    except typer.Exit:
        raise
    except PbemError as exc:
        _fail(exc)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    except Exception as exc:  # a bug: say so, ask for a report
        _err(f"internal error (a bug in antike-ref, please report it with the files used): "
             f"{type(exc).__name__}: {exc}")
        raise typer.Exit(int(ExitCode.INTERNAL)) from None


def _pairs(values: list[str] | None, option: str) -> dict[str, str]:
    """``["greeks=a", ...]`` → ``{"greeks": "a"}``; a nation given twice is a usage error."""
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


def _print_json(data, sort_keys: bool = True) -> None:
    print(json.dumps(data, sort_keys=sort_keys, ensure_ascii=False, indent=1))


@app.command()
def new(
    game: Path = typer.Argument(..., help="The game file to create."),
    nations: str = typer.Option(..., "--nations", help="Nations in seat (turn) order, comma-separated."),
    board: str = typer.Option("antike-east", "--board", help="Board id (a file in maps/)."),
    game_id: Optional[str] = typer.Option(None, "--id", help="Game id; defaults to the file name's stem."),
    first: Optional[str] = typer.Option(None, "--first", help="Start nation (default: Phoenicians with 4 nations, else the first seat)."),
    variant: Optional[List[str]] = typer.Option(None, "--variant", help="expert | military | longer (repeatable)."),
    goal: Optional[int] = typer.Option(None, "--goal", help="Personages to win; a 3-nation game may choose 12."),
    players: Optional[int] = typer.Option(None, "--players", help="Number of players: 2 (four nations, two each) or one per nation."),
    player: Optional[List[str]] = typer.Option(None, "--player", help="NATION=Name <e-mail> (repeatable)."),
    start: Optional[List[str]] = typer.Option(None, "--start", help="NATION=CITY,CITY,CITY start cities (repeatable)."),
    secrets_out: Optional[Path] = typer.Option(None, "--secrets-out", help="Where the plain passwords go (default GAME.secrets.json)."),
    password: Optional[List[str]] = typer.Option(None, "--password", help="NATION=PASSWORD instead of a generated one (repeatable)."),
    seed: Optional[str] = typer.Option(None, "--seed", help="Seed stored in the game (salts, bots); random by default."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing game file."),
) -> None:
    """Create a classic Antike game.

    Example: antike-ref new game.json --nations persians,phoenicians,arabs,greeks
    """

    def go():
        from pbem.board import known_boards, load_board
        from pbem.game import consistency_problems
        from pbem.schemas import dumps, problems
        from pbem.setup import SetupOptions, new_game
        from pbem.store import locked, save_game, write_atomic

        if board not in known_boards():
            raise UsageError(f"--board {board}: unknown board (known: {', '.join(known_boards())})")
        secrets = secrets_out or game.with_name(game.name.removesuffix(".json") + ".secrets.json")
        if secrets.resolve() == game.resolve():
            raise UsageError(f"--secrets-out {secrets}: that is the game file")
        for path in (game, secrets):
            if not path.resolve().parent.is_dir():
                raise UsageError(f"{path}: folder {path.parent} does not exist")
        starts = {n: [c.strip() for c in v.split(",") if c.strip()]
                  for n, v in _pairs(start, "--start").items()}
        opts = SetupOptions(
            game_id=game_id or game.stem, board=board,
            nations=[n.strip() for n in nations.split(",") if n.strip()], first=first,
            variants=list(variant or []), goal=goal, players=players,
            player=_pairs(player, "--player"), start=starts, seed=seed)
        created, plain = new_game(opts, load_board(board), _pairs(password, "--password"))
        wrong = problems("game", created.to_json()) + consistency_problems(created)
        if wrong:
            raise RuntimeError(f"new would write a game file that does not load: {wrong[0]}")
        with locked(game, must_exist=False):
            for path in (game, secrets):
                if path.exists() and not force:
                    raise UsageError(f"{path} exists already (use --force to overwrite)")
            write_atomic(secrets, dumps(plain), mode=0o600)
            save_game(created, game)
        print(f"created {game} ({len(opts.nations)} nations, {created.state.status.active} to play turn 1)")
        print(f"passwords for the GM only: {secrets}")

    run(go)


@app.command()
def show(
    game: Path = typer.Argument(..., help="The game file."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout (ORDERS.md)."),
) -> None:
    """Show whose turn it is, every nation's holdings and the board.

    Example: antike-ref show game.json --json
    """

    def go():
        from pbem.store import load_game
        from pbem.view import print_summary, show_json

        loaded = load_game(game)
        if as_json:
            _print_json(show_json(loaded))
        else:
            from rich.console import Console

            print_summary(loaded, Console())

    run(go)


@app.command("gm-edit")
def gm_edit(
    game: Path = typer.Argument(..., help="The game file."),
    edit: Path = typer.Argument(..., help="The edit file (ORDERS.md, 'GM edit file')."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write the result here instead of GAME."),
) -> None:
    """Apply a GM edit file: all edits or none, logged in the history with its reason.

    Example: antike-ref gm-edit game.json fix.json
    """

    def go():
        from pbem.edit import apply_edit
        from pbem.orders import load_edit
        from pbem.store import load_game, locked_files, save_game

        with locked_files(game, output):
            loaded = load_game(game)
            change = load_edit(edit)
            edited = apply_edit(loaded, change)
            save_game(edited, output or game)
        print(f"applied {len(change['edits'])} edit(s) to {output or game}: {change['reason']}")

    run(go)


def _turn_output(game, result, nation: str, as_json: bool, verb: str) -> None:
    """Print the outcome of an accepted order file (check and process)."""
    turn = game.state.status.turn
    ns = result.state.nations[nation]
    holds = {**{r: ns.resources[r] for r in ("marble", "iron", "gold")}, "coin": ns.coins}
    if as_json:
        # ``holds`` (what the nation has afterwards) is an addition to ORDERS.md's object.
        _print_json({"ok": True, "turn": turn, "nation": nation, "echo": result.echo,
                     "events": result.events, "holds": holds}, sort_keys=False)
        return
    from pbem.report.text import event_line

    what = f"turn {turn}" if result.kind == "turn" else "standing orders"
    print(f"{verb}: {what} for {nation}")
    print("orders as understood:")
    print(json.dumps(result.echo, ensure_ascii=False, indent=1))
    print("what happens:")
    for ev in result.events:
        print(f"  - {event_line(ev)}")
    res = ", ".join(f"{holds[r]} {r}" for r in ("marble", "iron", "gold"))
    print(f"{nation} then holds {res}, {holds['coin']} coin(s)")


def _orders_failure(exc: Exception, as_json: bool) -> None:
    """With ``--json``, print the refusal as ORDERS.md's object on stdout; then re-raise
    (``run`` writes the message to stderr and sets the exit code)."""
    if as_json and isinstance(exc, (Refused, InputError)):
        from pbem.rejections import reject

        if isinstance(exc, Refused):
            found = exc.rejections
        else:
            found = [reject("input/invalid", p.path, source=exc.source, message=p.message)
                     for p in exc.problems]
        _print_json({"ok": False, "rejections": [r.to_json() for r in found]}, sort_keys=False)
    raise exc


@app.command()
def check(
    game: Path = typer.Argument(..., help="The game file (not changed)."),
    orders: Path = typer.Argument(..., help="The order file."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout (ORDERS.md)."),
) -> None:
    """Check an order file against the game without writing anything.

    Example: antike-ref check game.json greeks-12.json
    """

    def go():
        from pbem.engine import apply_orders
        from pbem.orders import load_orders
        from pbem.store import load_game

        try:
            loaded = load_game(game)
            parsed = load_orders(orders)
            result = apply_orders(loaded, parsed)
        except PbemError as exc:
            _orders_failure(exc, as_json)
        _turn_output(loaded, result, parsed["nation"], as_json, "would be accepted")

    run(go)


@app.command()
def process(
    game: Path = typer.Argument(..., help="The game file; rewritten atomically."),
    orders: Path = typer.Argument(..., help="The order file."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write the next game file here instead of GAME."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout (ORDERS.md)."),
    report_dir: Optional[Path] = typer.Option(None, "--report-dir", help="Also write this turn's reports into this folder (GAMEID-turn-NNN.EXT)."),
    report_format: Optional[List[str]] = typer.Option(None, "--format", help="With --report-dir: svg, pdf, png, txt, md, bbcode or all; repeatable or comma-separated (default: all)."),
) -> None:
    """Apply an order file: check it, then write the next game file (and reports).

    Example: antike-ref process game.json greeks-12.json --report-dir reports
    """

    def go():
        from pbem.engine import process as apply
        from pbem.orders import load_orders
        from pbem.report import parse_formats
        from pbem.store import load_game, locked_files, save_game

        chosen = parse_formats(report_format)

        # A missing or unreadable game file is reported like a bad order file (with --json
        # too); a lock held by another run is not a problem of the files (exit 5, no JSON).
        try:
            with locked_files(game, output):
                loaded = load_game(game)
                parsed = load_orders(orders)
                new, result = apply(loaded, parsed)
                save_game(new, output or game)
        except PbemError as exc:
            _orders_failure(exc, as_json)
        _turn_output(loaded, result, parsed["nation"], as_json, f"processed into {output or game}")
        if report_dir is not None:
            # after the save: a rendering failure never costs a turn (`render` redoes it)
            from pbem.report import write_reports

            paths = write_reports(new, report_dir, chosen)
            if paths:
                stem = paths[0].with_suffix("")
                exts = ",".join(p.suffix.lstrip(".") for p in paths)
                print(f"reports: {stem}.{{{exts}}}", file=sys.stderr if as_json else sys.stdout)

    run(go)


@app.command()
def schema(kind: str = typer.Argument(..., help="game | orders | edit | map")) -> None:
    """Print a JSON Schema.

    Example: antike-ref schema orders
    """

    def go():
        from pbem.schemas import KINDS, load_schema

        if kind not in KINDS:
            raise UsageError(f"unknown schema {kind!r}: one of {', '.join(KINDS)}")
        _print_json(load_schema(kind))

    run(go)


@map_app.command("check")
def map_check(file: Path = typer.Argument(..., help="A map file.")) -> None:
    """Check a map file and name every problem.

    Example: antike-ref map check maps/antike-east.json
    """

    def go():
        from pbem.board import check_map_file

        problems = check_map_file(file)
        if problems:
            raise InputError(str(file), problems)
        print(f"{file}: ok")

    run(go)


def main() -> None:
    app()


# Command groups that live in their own modules register themselves on ``app``.
from pbem import cli_gm, cli_report  # noqa: E402,F401
