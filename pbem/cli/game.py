"""Playing a game: new, show, check, process, gm-edit, schema, map check."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from pbem.cli.base import (
    IMAGE_BASE_HELP,
    app,
    err,
    pairs,
    print_json,
    print_reports,
    quiet_stdout,
    reporter,
    run,
    time_option,
)
from pbem.errors import InputError, PbemError, Refused, UsageError, clip

REPORT_DIR_HELP = "Also write the reports of what this changed into this folder."
FORMAT_HELP = ("With --report-dir: svg, pdf, png, txt, md, bbcode or all; repeatable or "
               "comma-separated (default: all).")


EDITION_HELP = ("The edition, by its id or another of its names (default: classic, also called antike; an "
                "unknown name lists every edition).")
BOARD_HELP = ("A shipped board's id (classic: antike-east, antike-west; an unknown id lists every shipped board) or "
              "the path of a map file (antike-ref map new; the game file then carries the board). Default: the "
              "edition's first board (classic: antike-east).")
FIRST_HELP = ("Start nation (default: the board's start nation for the number of nations, else the first seat; by "
              "lot in the double-nation variant).")
VARIANT_HELP = ("A variant of the edition, repeatable (classic: expert, military, longer, double; an unknown one lists "
                "the edition's).")
GOAL_HELP = "What wins, where the edition lets the table choose (classic: a 3-nation game may play to 12)."
PLAYERS_HELP = ("Number of players: 2 (four nations, two each, or two double nations with --variant double) or one "
                "per nation.")
TEAM_HELP = ("NATION,NATION: the two nations one player runs when 2 players play 4 (twice; default and rulebook: the "
             "board's pairing).")
PICKS_HELP = ("--variant double: the six start cities in the order the players picked them, in turns from the start "
              "player (A, B, B, A, A, B).")
DATA_HELP = ("JSON file with the printed values the rulebook does not give, for a GM who owns the game (classic takes "
             "none; the values another edition takes are in its docs/EDITION.md, and `new` names each value it had to "
             "rule on).")
KDF_HELP = ("Cost of the password hashes (PBKDF2 iterations, stored with each hash; default 60000, at least 1000). "
            "Lower it only for throw-away games.")


SIGNED_HELP = ("A game without a game master: write the proposal the players join with their keys "
               "(docs/without-gm.md); no passwords.")
MISSED_HELP = "--signed: what a missed turn gets: default (the default turn), bot-random or bot-greedy."
ARBITER_HELP = "--signed: a seat whose signature settles disputes, repeatable (default: every seat, together)."
PROPOSED_AT_HELP = "--signed: the proposal's time (ISO 8601); default: now."


@app.command()
def new(
    game: Path = typer.Argument(..., help="The game file to create."),
    nations: str = typer.Option(..., "--nations", help="Nations in seat (turn) order, comma-separated."),
    edition: str = typer.Option("classic", "--edition", help=EDITION_HELP),
    board: str | None = typer.Option(None, "--board", help=BOARD_HELP),
    game_id: str | None = typer.Option(None, "--id", help="Game id; defaults to the file name's stem."),
    first: str | None = typer.Option(None, "--first", help=FIRST_HELP),
    variant: list[str] | None = typer.Option(None, "--variant", help=VARIANT_HELP),
    goal: int | None = typer.Option(None, "--goal", help=GOAL_HELP),
    players: int | None = typer.Option(None, "--players", help=PLAYERS_HELP),
    team: list[str] | None = typer.Option(None, "--team", help=TEAM_HELP),
    picks: str | None = typer.Option(None, "--picks", help=PICKS_HELP),
    player: list[str] | None = typer.Option(None, "--player", help="NATION=Name <e-mail> (repeatable)."),
    start: list[str] | None = typer.Option(None, "--start", help="NATION=CITY,CITY,CITY start cities (repeatable)."),
    secrets_out: Path | None = typer.Option(None, "--secrets-out",
                                               help="Where the plain passwords go (default GAME.secrets.json)."),
    password: list[str] | None = typer.Option(None, "--password",
                                                 help="NATION=PASSWORD instead of a generated one (repeatable)."),
    seed: str | None = typer.Option(None, "--seed", help="Seed stored in the game (salts, bots); random by default."),
    data: Path | None = typer.Option(None, "--data", metavar="FILE", help=DATA_HELP),
    kdf_iterations: int | None = typer.Option(None, "--kdf-iterations", envvar="ANTIKE_REF_KDF_ITERATIONS",
                                                 show_envvar=False, help=KDF_HELP),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing game file."),
    report_dir: Path | None = typer.Option(None, "--report-dir",
                                              help="Also write the set-up's report (turn 0) into this folder."),
    report_format: list[str] | None = typer.Option(None, "--format", help=FORMAT_HELP),
    image_base: str | None = typer.Option(None, "--image-base", metavar="URL", help=IMAGE_BASE_HELP),
    signed: bool = typer.Option(False, "--signed", help=SIGNED_HELP),
    deadline: str = typer.Option("3d", "--deadline", help="--signed: the time each turn has, e.g. 48h or 3d."),
    missed: str = typer.Option("default", "--missed", help=MISSED_HELP),
    arbiter: list[str] | None = typer.Option(None, "--arbiter", help=ARBITER_HELP),
    chain: int = typer.Option(1000, "--chain", help="--signed: values in each seat's hash chain (one per turn)."),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help=PROPOSED_AT_HELP),
) -> None:
    """Create a game.

    With --signed, write the proposal of a game without a game master instead: each
    player joins it with a key (antike-ref join), then reveals (antike-ref reveal).

    Example: antike-ref new game.json --nations persians,phoenicians,arabs,greeks
    """

    def go():
        from pbem import editions

        chosen = editions.get(edition)
        on, secrets = _board_and_secrets(game, board or chosen.default_board, secrets_out)
        opts = _setup_options(game_id or game.stem, on.id, nations, first, variant, goal, players, player, start,
                              seed, team, picks, data)
        if signed:
            from pbem.cli.signed import propose

            given = {"--password": password, "--seed": seed, "--secrets-out": secrets_out, "--report-dir": report_dir}
            propose(game, chosen, on, opts, given, deadline, missed, arbiter, chain, time_option(now), force)
            return
        _create(game, chosen, on, opts, password, secrets, kdf_iterations, force,
                reporter(report_dir, report_format, image_base, game), seed)

    run(go)


def _setup_options(game_id, board_id, nations, first, variant, goal, players, player, start, seed, team, picks,
                   data):
    """What ``new`` asks of the edition, from its options."""
    from pbem.service.creation import SetupOptions

    starts = {n: [c.strip() for c in v.split(",") if c.strip()] for n, v in pairs(start, "--start").items()}
    return SetupOptions(
        game_id=game_id, board=board_id, nations=_listed(nations), first=first,
        variants=list(variant or []), goal=goal, players=players,
        player=pairs(player, "--player"), start=starts, seed=seed,
        teams=[_listed(t) for t in team or []], picks=_listed(picks or ""), data=_data_file(data))


def _create(game, chosen, on, opts, password, secrets, kdf_iterations, force, write, seed) -> None:
    """``new`` without --signed: the game file, its secrets, and what was made, printed."""
    from pbem.service import passwords
    from pbem.service.service import GameService

    outcome = GameService(game).create(
        chosen, opts, on, pairs(password, "--password"), secrets,
        passwords.ITERATIONS if kdf_iterations is None else kdf_iterations, force, reporter=write)
    _print_created(game, secrets, len(opts.nations), seed, chosen, on, outcome)


SHORT_SEED = 16
"""A ``--seed`` shorter than this gets a note: a GM-chosen word is quickly guessed."""


def _listed(text: str) -> list[str]:
    """A comma-separated list as given: each item trimmed, empty ones left out."""
    return [item.strip() for item in text.split(",") if item.strip()]


def _board_and_secrets(game: Path, board: str, secrets_out: Path | None):
    """``new``: the board the game is played on, and the file its plain passwords go to
    (neither the game file nor in a folder that does not exist)."""
    from pbem.service import store
    from pbem.service.boards import board_for_new

    on = board_for_new(board)
    secrets = secrets_out or store.sibling(game, ".secrets.json")
    if secrets.resolve() == game.resolve():
        raise UsageError(f"--secrets-out {secrets}: that is the game file")
    for path in (game, secrets):
        if not path.resolve().parent.is_dir():
            raise UsageError(f"{path}: folder {path.parent} does not exist")
    return on, secrets


def _print_created(game: Path, secrets: Path, nations: int, seed: str | None, chosen, on, outcome) -> None:
    """What ``new`` made: the game, where the passwords are, a note on a short seed, the
    board if it is a reconstruction, each value the edition had to rule on, the reports."""
    created = outcome.after
    print(f"created {game} ({nations} nations, {created.state.status.active} to play turn 1)")
    print(f"passwords for the GM only: {secrets}")
    if seed is not None and len(seed) < SHORT_SEED:
        err(f"note: --seed {seed!r} is short. The seed is not a secret: anyone with a copy of the game "
            "can find a short one by trying. Nothing hidden comes from it alone (an edition's hidden "
            "draws, such as a deck of cards, also come from the passwords), but leave --seed out, and a "
            "random one is drawn, unless you need to set the same game up again.")
    if on.reconstruction:
        print(f"board: {on.name} (marked as a reconstruction, not the printed board; docs/maps.md)")
    for ruling in chosen.setup.rulings(created.state.table):
        print(f"ruling, not printed: {ruling} (docs/{chosen.id}.md; a GM can enter the printed value with --data)")
    print_reports(outcome.reports)


def _data_file(path: Path | None) -> dict:
    """``new --data FILE``: a JSON object (its keys are the edition's to check)."""
    if path is None:
        return {}
    from pbem.service.schemas import read_json

    data = read_json(path)
    if not isinstance(data, dict) or not data:
        raise UsageError(f"--data {path}: a JSON object with at least one value")
    return data


@app.command()
def show(
    game: Path = typer.Argument(..., help="The game file."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout (docs/orders.md)."),
    viewer: str | None = typer.Option(None, "--as", help="Show only what this nation may see (every edition's "
                                         "public view is the default)."),
    neighbours: bool = typer.Option(False, "--neighbours", help="Also list every province's neighbours: across "
                                    "land borders (legions) and sea borders (galleys)."),
    province: str | None = typer.Option(None, "--province", metavar="NAME",
                                           help="Show one province: what is in it and its neighbours."),
    now: str | None = typer.Option(None, "--now", metavar="TIME",
                                      help="The time the deadline's time left is told at (ISO 8601, e.g. "
                                           "2026-11-23T18:00:00Z); default: now."),
) -> None:
    """Show whose turn it is, every nation's holdings and the board.

    A game run by mail also shows the current turn's deadline and the time left, a pause
    and the players away (docs/mail.md).

    Example: antike-ref show game.json --json
    """

    def go():
        from pbem.service.clockfile import read_clock
        from pbem.service.readout import show_json
        from pbem.service.service import GameService

        moment = time_option(now)
        from pbem.cli.signed import show_setup, signed_lines

        if show_setup(game, viewer, moment, as_json):  # a game without a game master, before it starts
            return
        loaded = GameService(game).load()
        clock = read_clock(game)
        if viewer is not None and viewer not in loaded.seats:
            raise UsageError(f"--as {viewer}: not a nation of this game (one of {', '.join(loaded.seats)})")
        who = viewer if viewer is not None else loaded.copy_of  # a player's copy shows what its player sees
        if province is not None:
            from pbem.cli.show import console, print_neighbours
            from pbem.service.language.names import vocabulary

            pid, problem = vocabulary(loaded.edition, loaded.board).provinces.lookup(province)
            if pid is None:
                raise UsageError(f"--province: {problem}")
            print_neighbours(loaded, console(), [pid], who)
        elif as_json:
            data = show_json(loaded, who, clock=clock, now=moment)
            steps = signed_lines(loaded, viewer, moment)
            print_json({**data, "signed": {"next": steps}} if steps else data)
        else:
            from pbem.cli.show import console, print_neighbours, print_summary

            out = console()
            print_summary(loaded, out, who, clock=clock, now=moment)
            for line in signed_lines(loaded, viewer, moment):
                print(f"without a game master: {line}")
            if neighbours:
                print_neighbours(loaded, out, list(loaded.board.provinces), who)

    run(go)


@app.command("gm-edit")
def gm_edit(
    game: Path = typer.Argument(..., help="The game file."),
    edit: Path = typer.Argument(..., help="The edit file (docs/orders.md, 'GM edit file')."),
    output: Path | None = typer.Option(None, "-o", "--output", help="Write the result here instead of GAME."),
    report_dir: Path | None = typer.Option(None, "--report-dir", help=REPORT_DIR_HELP),
    report_format: list[str] | None = typer.Option(None, "--format", help=FORMAT_HELP),
    image_base: str | None = typer.Option(None, "--image-base", metavar="URL", help=IMAGE_BASE_HELP),
) -> None:
    """Apply a GM edit file: all edits or none, logged in the history with its reason.

    Example: antike-ref gm-edit game.json fix.json
    """

    def go():
        from pbem.service.service import GameService, read_input

        write = reporter(report_dir, report_format, image_base, output or game)
        outcome = GameService(game).gm_edit(read_input(edit), output, write)
        entry = outcome.added[0]
        print(f"applied {len(entry['edits'])} edit(s) to {outcome.saved_to}: {entry['reason']}")
        edits = outcome.after.edition.edits
        for note in edits.notes(outcome.after.state.table, entry["edits"]) if edits else ():
            print(f"note: {note}")
        print_reports(outcome.reports)

    run(go)


def turn_output(before, result, nation: str, as_json: bool, verb: str, form: str = "json", reading=None) -> None:
    """Print the outcome of an accepted order file (check and process); the orders as
    understood are echoed in the form they came in (JSON or the text syntax), after the
    lines of text orders that were not read as orders (``reading``: the text's reading)."""
    turn = before.state.status.turn
    ns = result.state.nations[nation]
    holds = {**{r: ns.resources[r] for r in ("marble", "iron", "gold")}, "coin": ns.coins}
    if as_json:
        # ``holds`` (what the nation has afterwards) and ``defaults`` (the choices the
        # referee made where the orders left them open) are additions to docs/orders.md.
        print_json({"ok": True, "turn": turn, "nation": nation, "echo": result.echo,
                    "events": result.events, "holds": holds,
                    "defaults": [dict(d) for d in result.defaults]}, sort_keys=False)
        return
    from pbem.report.text import event_line

    name = before.edition.nations[nation].name
    what = f"turn {turn}" if result.kind == "turn" else "standing orders"
    print(f"{verb}: {what} for {name}")
    if reading is not None and reading.ignored:
        print("not read as orders (before the first and after the last order line):")
        for number, text in reading.ignored:
            print(f"  line {number}: {clip(text.strip())}")
    if reading is not None and reading.cut:
        print("cut from the text, not read:")
        for number, text, why in reading.cut:
            print(f"  line {number}: {clip(text)} ({why})")
    print("orders as understood:")
    if form == "text":
        from pbem.service.service import echo_text

        print(echo_text(before, result.echo), end="")
    else:
        print(json.dumps(result.echo, ensure_ascii=False, indent=1))
    played = [e["play"] for e in result.echo.get("events", []) if isinstance(e, dict) and "play" in e]
    if played:  # an edition's event cards: what each does, in words
        print("event cards played:")
        data = before.state.table.data
        for cid in played:
            text = before.edition.cards.text(cid, data, before.state.table.revision)
            print(f"  - {before.edition.cards.name(cid, data)} ({cid}): {text}")
    print("what happens:")
    from pbem.report.model import card_namer

    card = card_namer(before, noted=False)  # an entered card by its name
    for ev in result.events:
        print(f"  - {event_line(ev, card=card, edition=before.edition)}")
    if result.defaults:
        print("chosen by the referee, because the orders left it open (say it in the orders to choose):")
        for d in result.defaults:
            print(f"  - {d['default']}")
    if result.kind == "turn":
        res = ", ".join(f"{holds[r]} {r}" for r in ("marble", "iron", "gold"))
        coins = f"{holds['coin']} coin{'' if holds['coin'] == 1 else 's'}"
        print(f"{name} then {'has' if name == nation else 'hold'} {res}, {coins}")


def orders_failure(exc: Exception, as_json: bool) -> None:
    """With ``--json``, print the refusal as docs/orders.md's object on stdout; then re-raise
    (``run`` writes the message to stderr and sets the exit code)."""
    if as_json and isinstance(exc, (Refused, InputError)):
        from pbem.service.service import refusal_json

        try:
            print_json(refusal_json(exc), sort_keys=False)
            sys.stdout.flush()
        except BrokenPipeError:
            quiet_stdout()  # the reader has gone; the refusal still sets the exit code
    raise exc


@app.command()
def check(
    game: Path = typer.Argument(..., help="The game file (not changed)."),
    orders: Path = typer.Argument(..., help="The order file: JSON, or the text syntax of docs/text-orders.md."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout (docs/orders.md)."),
) -> None:
    """Check an order file against the game without writing anything.

    Example: antike-ref check game.json greeks-12.json
    """

    def go():
        from pbem.service.service import GameService, read_input

        try:
            given = read_input(orders)
            loaded, result, reading = GameService(game).check(given)
        except PbemError as exc:
            orders_failure(exc, as_json)
        turn_output(loaded, result, result.echo["nation"], as_json, "would be accepted", given.form, reading)

    run(go)


@app.command()
def process(
    game: Path = typer.Argument(..., help="The game file; rewritten atomically."),
    orders: Path = typer.Argument(..., help="The order file: JSON, or the text syntax of docs/text-orders.md."),
    output: Path | None = typer.Option(None, "-o", "--output", help="Write the next game file here instead of GAME."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout (docs/orders.md)."),
    report_dir: Path | None = typer.Option(None, "--report-dir", help="Also write this turn's reports into this folder "
                                                                     "(GAMEID-turn-NNN.EXT)."),
    report_format: list[str] | None = typer.Option(None, "--format", help=FORMAT_HELP),
    image_base: str | None = typer.Option(None, "--image-base", metavar="URL", help=IMAGE_BASE_HELP),
    key: Path | None = typer.Option(None, "--key", help="A game without a game master: your private key; the turn "
                                       "is signed and its block printed, to send to the others (docs/without-gm.md)."),
    signature: Path | None = typer.Option(None, "--signature", help="A game a GM runs: the player's block of "
                                             "signed orders (antike-ref sign), kept with the turn."),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help="With --key: the time to sign with (ISO "
                                      "8601); default: now."),
    block: Path | None = typer.Option(None, "--block", help="With --key: also write the block to this file."),
) -> None:
    """Apply an order file: check it, then write the next game file (and reports).

    In a game without a game master, the mover plays with --key: the turn is signed and
    its block printed for the others.

    Example: antike-ref process game.json greeks-12.json --report-dir reports
    """

    def go():
        from pbem.service.service import GameService, read_input

        if key is not None:
            from pbem.cli.signed import signed_turn, write_block

            try:
                before, signed, result, given, reading = signed_turn(game, orders, key, time_option(now), block,
                                                                     as_json, output, report_dir)
            except PbemError as exc:
                orders_failure(exc, as_json)
            turn_output(before, result, signed.seat, as_json, f"signed and processed into {game}", given.form, reading)
            return write_block(signed, block, as_json)
        write = reporter(report_dir, report_format, image_base, output or game)
        try:
            given = read_input(orders)
            outcome = GameService(game).process(given, output, write, signed=_signature(signature))
        except PbemError as exc:
            orders_failure(exc, as_json)
        turn_output(outcome.before, outcome.result, outcome.result.echo["nation"], as_json,
                     f"processed into {output or game}", given.form, outcome.reading)
        print_reports(outcome.reports, to_stderr=as_json)

    run(go)


def _signature(path: Path | None):
    """``process --signature FILE``: the player's signed orders in it."""
    if path is None:
        return None
    from pbem.service.schemas import read_text
    from pbem.service.signed.blocks import find

    found = [f.signed for f in find(read_text(path, str(path)), str(path)) if f.signed is not None]
    if not found:
        raise InputError(str(path), "no block of signed orders here (-----BEGIN ANTIKE-REF ENTRY-----)")
    return found[-1]


@app.command()
def schema(
    kind: str = typer.Argument(..., help="game | orders | edit | map"),
    edition: str = typer.Option("classic", "--edition", help="The edition whose vocabulary fills the schema."),
) -> None:
    """Print a JSON Schema, complete for one edition.

    Example: antike-ref schema orders --edition classic
    """

    def go():
        from pbem import editions
        from pbem.service.schemas import EDITION_KINDS, KINDS, compose

        if kind not in KINDS:
            raise UsageError(f"unknown schema {kind!r}: one of {', '.join(KINDS)}")
        chosen = editions.get(edition)
        print_json(compose(kind, chosen if kind in EDITION_KINDS else None))

    run(go)

