"""GM moderation commands: history, verify, undo, default-turn, options, bot."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from pbem.cli import _print_json, app, run
from pbem.errors import UsageError


def _audit_path(game: Path) -> Path:
    return game.with_name(game.name.removesuffix(".json") + ".audit.jsonl")


@app.command()
def verify(
    game: Path = typer.Argument(..., help="The game file."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Replay the whole history from the set-up and check every hash.

    Example: antike-ref verify game.json
    """

    def go():
        from pbem.replay import verify as replay_verify
        from pbem.schemas import read_json
        from pbem.store import load_game

        loaded = load_game(game)
        raw = read_json(game)
        total = len(loaded.history) - 1
        if quiet or total < 50 or not sys.stderr.isatty():
            result = replay_verify(loaded, raw)
        else:
            from rich.progress import Progress

            with Progress(transient=True) as bar:
                task = bar.add_task("replaying", total=total)
                result = replay_verify(loaded, raw, progress=lambda i, n: bar.update(task, completed=i))
        print(f"{game}: ok, {result.entries} history entries replay exactly")

    run(go)


@app.command("history")
def history_cmd(
    game: Path = typer.Argument(..., help="The game file."),
    turn: Optional[int] = typer.Option(None, "--turn", help="Show one turn's orders and events."),
    as_json: bool = typer.Option(False, "--json", help="JSON on stdout."),
) -> None:
    """List the history, or show one turn's orders and events.

    Example: antike-ref history game.json --turn 12
    """

    def go():
        from pbem.report.text import event_line
        from pbem.store import load_game

        loaded = load_game(game)
        if turn is None:
            rows = []
            for e in loaded.history:
                what = e.get("reason") or (e.get("orders", {}).get("rondel", {}).get("to", "") if e.get("orders") else "")
                rows.append({"seq": e["seq"], "kind": e["kind"], "turn": e.get("turn"),
                             "nation": e.get("nation"), "summary": what, "events": len(e.get("events", []))})
            if as_json:
                _print_json(rows, sort_keys=False)
                return
            for r in rows:
                t = f"turn {r['turn']:>3}" if r["turn"] else " " * 8
                print(f"#{r['seq']:<4} {t}  {r['kind']:<12} {r['nation'] or '':<12} {r['summary']}")
            return
        entry = next((e for e in loaded.history if e.get("turn") == turn), None)
        if entry is None:
            raise UsageError(f"turn {turn} has not been played (the game is at turn {loaded.state.status.turn})")
        if as_json:
            _print_json(entry, sort_keys=False)
            return
        print(f"turn {turn}: {entry['nation']} ({entry['kind']})")
        print(json.dumps(entry["orders"], ensure_ascii=False, indent=1))
        for ev in entry["events"]:
            print(f"  - {event_line(ev)}")

    run(go)


@app.command()
def undo(
    game: Path = typer.Argument(..., help="The game file."),
    turns: int = typer.Option(1, "--turns", help="How many turns to take back."),
    reason: str = typer.Option("", "--reason", help="Why (written to the audit log)."),
) -> None:
    """GM: take back the last turn(s) by replaying the history; logged in GAME.audit.jsonl.

    Example: antike-ref undo game.json --turns 1 --reason "wrong order file"
    """

    def go():
        from pbem.history import canonical
        from pbem.moderation import undo as take_back
        from pbem.store import load_game, locked, save_game

        with locked(game):
            loaded = load_game(game)
            earlier, removed = take_back(loaded, turns)
            record = {"action": "undo", "turns": turns, "reason": reason,
                      "from_turn": loaded.state.status.turn, "to_turn": earlier.state.status.turn,
                      "head_before": loaded.history[-1]["hash"], "removed": removed}
            with open(_audit_path(game), "a", encoding="utf-8") as log:
                log.write(canonical(record) + "\n")
            save_game(earlier, game)
        print(f"undid {turns} turn(s): {game} is back at turn {earlier.state.status.turn}, "
              f"{earlier.state.status.active} to play; logged in {_audit_path(game)}")

    run(go)


@app.command("default-turn")
def default_turn(
    game: Path = typer.Argument(..., help="The game file."),
    nation: str = typer.Argument(..., help="The (active) nation whose player is missing."),
) -> None:
    """GM: play the default turn (D15) for a missing player; logged in the history.

    Example: antike-ref default-turn game.json greeks
    """

    def go():
        from pbem.moderation import default_turn as play_default
        from pbem.report.text import event_line
        from pbem.store import load_game, locked, save_game

        with locked(game):
            loaded = load_game(game)
            new, result = play_default(loaded, nation)
            save_game(new, game)
        print(f"default turn for {nation}:")
        for ev in result.events:
            print(f"  - {event_line(ev)}")

    run(go)


@app.command()
def options(
    game: Path = typer.Argument(..., help="The game file."),
    as_json: bool = typer.Option(False, "--json", help="JSON on stdout."),
) -> None:
    """What the active nation can do: each rondel target, its cost and what it allows.

    Example: antike-ref options game.json
    """

    def go():
        from pbem.options import options as compute
        from pbem.store import load_game

        data = compute(load_game(game))
        if as_json:
            _print_json(data, sort_keys=False)
            return
        print(f"turn {data['turn']}: {data['nation']} holds "
              + ", ".join(f"{v} {k}" for k, v in data["resources"].items()) + f", {data['coins']} coin(s)")
        for t in data["targets"]:
            cost = "free" if t["cost"] == 0 else f"{t['cost']} resource(s)"
            if not t["legal"]:
                print(f"  {t['index']} {t['wedge'].upper():<9} {t['steps']} step(s), {cost}: cannot afford")
                continue
            print(f"  {t['index']} {t['wedge'].upper():<9} {t['steps']} step(s), {cost}: {_effect_line(t['effect'])}")
        print("order-file template:")
        print(json.dumps(data["template"], ensure_ascii=False, indent=1))

    run(go)


def _effect_line(effect: dict) -> str:
    if "produce" in effect:
        (res, n), = effect["produce"].items()
        return f"produce {n} {res}"
    if "cities" in effect:
        return f"up to {effect['affordable']} temple(s) in {', '.join(effect['cities']) or 'no city'}"
    if "places" in effect:
        return f"arm up to {effect['affordable']} unit(s) (stock {effect['stock']['legion']} legions, {effect['stock']['galley']} galleys)"
    if "knowhow" in effect:
        offers = [f"{o['name']} {o['price']}" for o in effect["knowhow"] if o["affordable"]]
        return "buy " + (", ".join(offers) if offers else "nothing affordable")
    groups = len(effect["groups"])
    targets = ", ".join(f"{c['city']} (defence {c['defence']})" for c in effect["conquerable"])
    return f"{groups} unit group(s) can move; conquerable: {targets or 'none'}"


@app.command()
def bot(
    game: Path = typer.Argument(..., help="The game file."),
    mode: str = typer.Option("greedy", "--mode", help="random | greedy"),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write the order file here (default: stdout)."),
    apply: bool = typer.Option(False, "--apply", help="GM: process the bot's turn at once (logged as a default turn)."),
) -> None:
    """Let the bot write a legal turn for the active nation (for an absent player, or practice).

    Example: antike-ref bot game.json --mode greedy -o orders.json
    """

    def go():
        from pbem.bot import MODES, play_turn
        from pbem.engine import process
        from pbem.schemas import dumps
        from pbem.store import load_game, locked, save_game

        if mode not in MODES:
            raise UsageError(f"--mode {mode!r}: one of {', '.join(MODES)}")
        if apply:
            with locked(game):
                loaded = load_game(game)
                orders = play_turn(loaded, mode)
                new, _ = process(loaded, orders, trusted=True, kind="default-turn")
                save_game(new, game)
            print(f"bot ({mode}) played turn {orders['turn']} for {orders['nation']}")
            return
        loaded = load_game(game)
        orders = {**play_turn(loaded, mode), "password": "YOUR-PASSWORD"}
        text = dumps(orders)
        if output:
            output.write_text(text, encoding="utf-8")
            print(f"wrote {output}; put the nation's password in before sending it")
        else:
            sys.stdout.write(text)

    run(go)
