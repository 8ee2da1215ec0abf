"""GM moderation commands: verify, history, undo, default-turn, options, bot."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from pbem.cli.base import IMAGE_BASE_HELP, app, print_json, print_reports, reporter, run
from pbem.cli.game import FORMAT_HELP, REPORT_DIR_HELP
from pbem.errors import UsageError


@app.command()
def verify(
    game: Path = typer.Argument(..., help="The game file."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    expect: list[str] | None = typer.Option(
        None, "--expect", metavar="HASH",
        help="A game hash a player was given (a report or receipt says 'game hash after turn N: HASH'; "
             "at least 12 hex digits), or WHO=HASH: it must be the hash of an entry of the history, "
             "else exit 6. Repeatable."),
    receipts: Path | None = typer.Option(
        None, "--receipts", metavar="DIR",
        help="A folder of saved receipts and reports (mails as .eml or mbox, text, Markdown, BBCode, "
             "SVG): every game hash labelled as one in them is checked as with --expect."),
) -> None:
    """Replay the whole history from the set-up and check every hash.

    With --expect or --receipts, also check that every game hash the players were given
    is still in the history: a history rewritten after a receipt was sent (even with its
    hashes computed again) no longer holds that receipt's hash, and verify fails (exit 6)
    naming the hash and the file it came from.

    Example: antike-ref verify game.json --receipts saved-mail --expect 3f2a9c41d07e
    """

    def go():
        from pbem.service.service import GameService

        witnesses = _expected(expect or [])
        service = GameService(game)
        loaded = service.load()
        if receipts is not None:
            witnesses += _receipt_hashes(receipts, loaded.game_id)
        total = len(loaded.history) - 1
        if loaded.copy_of is not None:
            _verify_copy(game, loaded, witnesses)
            return
        bar = not (quiet or total < 50 or not sys.stderr.isatty())
        result, checked = _replay(service, witnesses, total if bar else None)
        print(f"{game}: ok, {result.entries} history entries replay exactly")
        if checked is not None:
            _print_witnessed(loaded, checked, len(witnesses))
        from pbem.cli.signed import print_signatures

        print_signatures(game, loaded)

    run(go)


def _expected(values: list[str]) -> list:
    """``verify --expect``: each hash a player was given (a witness)."""
    if not values:
        return []
    from pbem.service import witness

    return [witness.expected(value) for value in values]


def _receipt_hashes(receipts: Path, game_id: str) -> list:
    """``verify --receipts``: every game hash labelled as one in the folder's files."""
    from pbem.service import witness

    found, files = witness.receipts(receipts, game_id)
    if not found:
        raise UsageError(f"--receipts {receipts}: no game hash in its {files} file(s) (a report or "
                         "receipt says 'game hash after turn N: HASH')")
    return found


def _replay(service, witnesses: list, total: int | None):
    """Replay the history (with a progress bar of ``total`` entries unless ``None``) and
    check the witnesses: the replay's result, and which entry holds each witness (or
    ``None`` without witnesses)."""

    def check(progress=None):
        if witnesses:
            return service.verify_witnesses(witnesses, progress=progress)
        return service.verify(progress=progress), None

    if total is None:
        return check()
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task("replaying", total=total)
        return check(progress=lambda i, n: bar.update(task, completed=i))


def _print_witnessed(loaded, checked, count: int) -> None:
    """That every hash given to players is in the history, and the latest entry holding one."""
    from pbem.service import witness

    latest = max(checked.found.values())
    when = witness.label(loaded.history[latest]).removeprefix("game hash ")
    print(f"{'all ' if count > 1 else ''}{count} game hash{'es' if count > 1 else ''} given to players "
          f"{'are' if count > 1 else 'is'} in the history (the latest: entry {latest}, {when})")


def _verify_copy(path: Path, loaded, witnesses) -> None:
    """``verify`` on a player's copy: the chain's links and the witnesses, not a replay."""
    from pbem.errors import VerifyFailed
    from pbem.service import copies, witness

    broken = copies.chain_problems(loaded)
    if broken:
        raise VerifyFailed(int(broken[0].split()[2].rstrip(":")), broken[0].split(": ", 1)[1], str(path))
    if witnesses:
        checked = witness.check(loaded.history, witnesses)
        if checked.missing:
            from pbem.errors import WitnessMissing

            raise WitnessMissing(f"{path}: {len(checked.missing)} game hash(es) given to players are not in this "
                                 f"copy's history: {', '.join(checked.missing)}")
    print(f"{path}: the {loaded.copy_of}' copy: {len(loaded.history)} history entries, their hash chain linked"
          + (f", and {len(witnesses)} game hash(es) given to players in it" if witnesses else ""))
    print("  not checked: a copy cannot replay the turns, because their hashes cover the other player's cards "
          "and the deck, which a copy does not hold; the GM's verify replays them, and the last hash "
          f"here ({loaded.history[-1]['hash'][:12]}) must be the one in the latest report")


@app.command("copy")
def copy_cmd(
    game: Path = typer.Argument(..., help="The GM's game file."),
    nation: str = typer.Option(..., "--for", help="The nation whose player gets the copy."),
    output: Path | None = typer.Option(None, "--output", "-o",
                                          help="Where to write it (default: GAME.NATION.json beside the game)."),
) -> None:
    """GM: write a player's copy of the game: everything that nation may see, nothing else.

    In an edition with secrets each player holds cards the others must not see: send each
    player their own copy (it holds their hand, what lies open and the others' hand
    sizes, not the others' cards or the deck's order). With it they run check, options and
    show; verify checks its hash chain. In the other editions a copy is the game file
    without the other players' password hashes.

    Example: antike-ref copy game.json --for romans
    """

    def go():
        from pbem.service import copies, store
        from pbem.service.schemas import dumps
        from pbem.service.service import GameService

        loaded = GameService(game).load()
        if loaded.copy_of is not None:
            raise UsageError(f"{game} is the {loaded.copy_of}' copy already; make copies from the GM's game file")
        data = copies.player_copy(loaded, nation)
        target = output or game.with_name(f"{game.stem}.{nation}.json")
        store.write_atomic(target, dumps(data), mode=0o600)  # a player's own: their hand, their hash
        print(f"wrote {target} (the {nation}' copy, turn {loaded.state.status.turn})")

    run(go)


def _row_line(row: dict) -> str:
    t = f"turn {row['turn']:>3}" if row["turn"] else " " * 8
    return f"#{row['seq']:<4} {t}  {row['kind']:<12} {row['nation'] or '':<12} {row['summary']}".rstrip()


@app.command("history")
def history_cmd(
    game: Path = typer.Argument(..., help="The game file."),
    turn: int | None = typer.Option(None, "--turn", help="Show one turn's orders and events."),
    as_json: bool = typer.Option(False, "--json", help="JSON on stdout."),
) -> None:
    """List the history, or show one turn's orders and events.

    Example: antike-ref history game.json --turn 12
    """

    def go():
        from pbem.report.text import event_line
        from pbem.service.readout import entry_row
        from pbem.service.service import GameService

        loaded = GameService(game).load()
        if turn is None:
            rows = [entry_row(e) for e in loaded.history]
            if as_json:
                print_json(rows, sort_keys=False)
                return
            for r in rows:
                print(_row_line(r))
            return
        entry = next((e for e in loaded.history if e.get("turn") == turn), None)
        if entry is None:
            raise UsageError(f"turn {turn} has not been played (the game is at turn {loaded.state.status.turn})")
        if as_json:
            print_json(entry, sort_keys=False)
            return
        print(f"turn {turn}: {entry['nation']} ({entry['kind']})")
        print(json.dumps(entry["orders"], ensure_ascii=False, indent=1))
        from pbem.report.model import card_namer

        card = card_namer(loaded, noted=False)  # an entered card by its name
        for ev in entry["events"]:
            print(f"  - {event_line(ev, card=card, edition=loaded.edition)}")

    run(go)


@app.command()
def undo(
    game: Path = typer.Argument(..., help="The game file."),
    turns: int = typer.Option(1, "--turns", "--entries",
                              help="How many history entries to take back, counted as `history` lists "
                                   "them: turns, GM edits and standing-order changes alike."),
    reason: str = typer.Option("", "--reason", help="Why (written to the audit log)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Only list what would be taken back."),
    report_dir: Path | None = typer.Option(None, "--report-dir", help=REPORT_DIR_HELP),
    report_format: list[str] | None = typer.Option(None, "--format", help=FORMAT_HELP),
    image_base: str | None = typer.Option(None, "--image-base", metavar="URL", help=IMAGE_BASE_HELP),
) -> None:
    """GM: take back the last history entries by replaying the history; logged in GAME.audit.jsonl.

    Lists exactly what it takes back. Example: antike-ref undo game.json --turns 1 --reason "wrong order file"
    """

    def go():
        from pbem.service.readout import entry_row
        from pbem.service.service import GameService

        service = GameService(game)
        write = reporter(report_dir, report_format, image_base, game)
        outcome = service.undo(turns, reason, dry_run=dry_run, reporter=write)
        status = outcome.after.state.status
        where = f"turn {status.turn}, {status.active} to play"
        if dry_run:
            print(f"would take back {len(outcome.removed)} history entr{'y' if len(outcome.removed) == 1 else 'ies'} "
                  f"(nothing is changed); {game} would be back at {where}:")
        else:
            print(f"took back {len(outcome.removed)} history entr{'y' if len(outcome.removed) == 1 else 'ies'}; "
                  f"{game} is back at {where}; logged in {service.audit_path()}:")
        for entry in outcome.removed:
            print(f"  {_row_line(entry_row(entry))}")
        print_reports(outcome.reports)

    run(go)


@app.command("default-turn")
def default_turn(
    game: Path = typer.Argument(..., help="The game file."),
    nation: str = typer.Argument(..., help="The (active) nation whose player is missing."),
    report_dir: Path | None = typer.Option(None, "--report-dir", help=REPORT_DIR_HELP),
    report_format: list[str] | None = typer.Option(None, "--format", help=FORMAT_HELP),
    image_base: str | None = typer.Option(None, "--image-base", metavar="URL", help=IMAGE_BASE_HELP),
) -> None:
    """GM: play the default turn (D15) for a missing player; logged in the history.

    Example: antike-ref default-turn game.json greeks
    """

    def go():
        from pbem.report.text import event_line
        from pbem.service.service import GameService

        outcome = GameService(game).default_turn(nation, reporter(report_dir, report_format, image_base, game))
        from pbem.report.model import card_namer

        print(f"default turn for {nation}:")
        card = card_namer(outcome.after, noted=False)  # an entered card by its name
        for ev in outcome.result.events:
            print(f"  - {event_line(ev, card=card, edition=outcome.after.edition)}")
        print_reports(outcome.reports)

    run(go)


@app.command()
def options(
    game: Path = typer.Argument(..., help="The game file."),
    as_json: bool = typer.Option(False, "--json", help="JSON on stdout."),
    hint: bool = typer.Option(False, "--hint", help="Also the turn the strong bot would play, and why."),
    budget: int | None = typer.Option(None, "--budget", help="--hint: simulated turns (default 240)."),
    seed: str = typer.Option("", "--seed", help="--hint: a seed of your own."),
) -> None:
    """What the active nation can do: each rondel target, its cost and what it allows.

    Example: antike-ref options game.json --hint
    """

    def go():
        from pbem.play.options import option_lines
        from pbem.play.options import options as compute
        from pbem.play.search import budget_problem
        from pbem.service.service import GameService

        if budget_problem(budget):
            raise UsageError(budget_problem(budget))
        loaded = GameService(game).load()
        data = compute(loaded)
        if hint:
            from pbem.play.search import hint as strong_hint

            data["hint"] = strong_hint(loaded, budget, seed)
        if as_json:
            print_json(data, sort_keys=False)
            return
        for line in option_lines(data, loaded):
            print(line)
        print("order-file template:")
        print(json.dumps(data["template"], ensure_ascii=False, indent=1))
        if hint:
            from pbem.play.search import hint_lines
            from pbem.service.service import echo_text

            # the orders as a player writes them in a mail (the order file's JSON: --json)
            for line in hint_lines(data["hint"], echo_text(loaded, data["hint"]["orders"]).splitlines()):
                print(line)

    run(go)


@app.command()
def bot(
    game: Path = typer.Argument(..., help="The game file."),
    mode: str = typer.Option("greedy", "--mode", "--level", help="random | greedy | strong (searches; slower)"),
    budget: int | None = typer.Option(None, "--budget", help="strong: simulated turns per move (default 240)."),
    seed: str = typer.Option("", "--seed", help="strong: a seed of your own (same file and seed, same move)."),
    output: Path | None = typer.Option(None, "-o", "--output", help="Write the order file here (default: stdout)."),
    apply: bool = typer.Option(False, "--apply", help="GM: play the bot's turn at once (recorded as a bot turn)."),
    report_dir: Path | None = typer.Option(None, "--report-dir", help=REPORT_DIR_HELP + " With --apply."),
    report_format: list[str] | None = typer.Option(None, "--format", help=FORMAT_HELP),
    image_base: str | None = typer.Option(None, "--image-base", metavar="URL", help=IMAGE_BASE_HELP + " With --apply."),
) -> None:
    """Let the bot write a legal turn for the active nation (for an absent player, or practice).

    Example: antike-ref bot game.json --level strong -o orders.json
    """

    def go():
        from pbem.play.search import MODES, budget_problem, play_turn
        from pbem.service import store
        from pbem.service.schemas import dumps
        from pbem.service.service import GameService

        if mode not in MODES:
            raise UsageError(f"--level {mode!r}: one of {', '.join(MODES)}")
        if budget_problem(budget):
            raise UsageError(budget_problem(budget))

        def turn(g):
            return play_turn(g, mode, budget=budget, seed=seed)

        service = GameService(game)
        if apply:
            if output is not None:
                raise UsageError("-o and --apply: the bot's turn is either written out or played")
            outcome = service.bot_turn(mode, turn, reporter(report_dir, report_format, image_base, game))
            entry = outcome.added[0]
            print(f"bot ({mode}) played turn {entry['turn']} for {entry['nation']}")
            print_reports(outcome.reports)
            return
        if report_dir is not None or image_base is not None:
            raise UsageError("--report-dir and --image-base go with --apply: without it nothing is played")
        orders = {**turn(service.load()), "password": "YOUR-PASSWORD"}
        text = dumps(orders)
        if output:
            store.write_atomic(output, text, durable=False)
            print(f"wrote {output}; put the nation's password in before sending it")
        else:
            sys.stdout.write(text)

    run(go)
