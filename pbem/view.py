"""What ``show`` prints: the public JSON view (ORDERS.md) and a terminal summary."""

from __future__ import annotations

from typing import Any

from pbem.game import Game
from pbem.vocab import PERSONAGES, RESOURCES, UNITS


def show_json(game: Game) -> dict[str, Any]:
    """The ``show --json`` object exactly as ORDERS.md specifies it."""
    st = game.state
    rules = game.rules
    nations = {}
    for n in game.seats:
        ns = st.nations[n]
        nations[n] = {
            "resources": {r: ns.resources[r] for r in RESOURCES},
            "coins": ns.coins,
            "rondel": None if ns.rondel is None else {"index": ns.rondel, "wedge": ns.wedge},
            "knowhow": sorted(ns.knowhow),
            "personages": {p: ns.personages[p] for p in PERSONAGES},
            "score": game.score(n),
            "goal": game.goal,
            "cities": st.cities(n),
            "temples": st.temples(n),
            "stock": {u: rules.unit_cap - st.units_on_board(n, u) for u in UNITS},
            "standing": st.standing[n].to_json(),
        }
    return {
        "game": game.game_id,
        "edition": game.edition,
        "board": game.board.id,
        "variants": sorted(game.variants),
        "turn": st.status.turn,
        "round": st.status.round,
        "active": st.status.active,
        "winner": st.status.winner,
        "bank": st.bank.to_json(),
        "nations": nations,
        "provinces": st.units_json(),
        # an addition to the contract (issue 6): the last few history entries' events
        "recent": [{k: e[k] for k in ("seq", "kind", "turn", "nation", "reason", "events") if k in e}
                   for e in recent_entries(game, RECENT_TURNS)],
    }


def _table(title: str, *columns: str, right: int = 0):
    """A borderless rich table that fits 80 columns; the last ``right`` columns are numbers."""
    from rich import box
    from rich.table import Table

    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                  title_justify="left", padding=(0, 1), collapse_padding=True)
    for i, col in enumerate(columns):
        numeric = i >= len(columns) - right
        # "fold": a long word breaks onto the next line instead of losing its end to "…".
        table.add_column(col, justify="right" if numeric else "left", no_wrap=numeric, overflow="fold")
    return table


def print_summary(game: Game, console) -> None:
    """A readable terminal summary with rich tables, laid out for 80 columns."""
    st = game.state
    view = show_json(game)
    status = f"winner: [bold]{st.status.winner}[/]" if st.status.winner else f"active: [bold]{st.status.active}[/]"
    variants = f", variants: {', '.join(game.variants)}" if game.variants else ""
    console.print(f"[bold]{game.game_id}[/] — Antike on {game.board.name}{variants}")
    console.print(f"turn {st.status.turn}, round {st.status.round}, {status}, goal {game.goal}"
                  f" {'victory points' if game.military else 'personages'}")
    active = None if st.status.winner else st.status.active
    table = _table("Nations (seat order)", "nation", "marble", "iron", "gold",
                   "coins", "cities", "temples", "legions", "galleys", "score", right=9)
    for n in game.seats:
        v = view["nations"][n]
        table.add_row(n, *(str(v["resources"][r]) for r in RESOURCES), str(v["coins"]),
                      str(len(v["cities"])), str(len(v["temples"])),
                      *(str(st.units_on_board(n, u)) for u in UNITS),
                      f"{v['score']}/{game.goal}", style="bold" if n == active else None)
    console.print(table)
    progress = _table("Rondel, know-how and personages", "nation", "rondel", "know-how", "personages")
    for n in game.seats:
        v = view["nations"][n]
        pers = ", ".join(f"{c} {p}" for p, c in v["personages"].items() if c) or "-"
        progress.add_row(n, v["rondel"]["wedge"] if v["rondel"] else "-", ", ".join(v["knowhow"]) or "-", pers)
    console.print(progress)
    board = _table("Provinces with a city or units", "province", "resource", "owner", "temple", "units")
    for pid, prov in view["provinces"].items():
        units = "; ".join(f"{n} {c['legion']}L {c['galley']}G" for n, c in prov["units"].items()) or "-"
        board.add_row(game.board.province(pid).name, game.board.province(pid).resource,
                      prov["owner"] or "-", "yes" if prov["temple"] else "", units)
    console.print(board)
    orders = _table("Standing orders (public)", "nation", "battle", "bonus stack, first choice first", "no coin")
    for n in game.seats:
        so = st.standing[n]
        stances = sorted(so.battle.items(), key=lambda kv: (kv[0] != "default", kv[0]))
        battle = "\n".join(f"{k}: {v}" for k, v in stances)
        orders.add_row(n, battle, ", ".join(so.bonus_stack), so.coin_substitute)
    console.print(orders)
    bank = st.bank
    stacks = ", ".join(f"{p} {bank.personages[p]}" for p in PERSONAGES)
    console.print(f"Bank: {bank.coins} coins, {bank.temples} temples; personages: {stacks}")
    recent = recent_entries(game, RECENT_TURNS)
    if recent:
        from pbem.report.text import event_line

        console.print(f"[bold]The last {len(recent)} entries of the history[/]")
        for entry in recent:
            title = _entry_title(entry)
            console.print(f"{title}:", highlight=False)
            for ev in entry.get("events", []):
                console.print(f"  - {event_line(ev)}", highlight=False, soft_wrap=False)


RECENT_TURNS = 4
"""How many history entries plain ``show`` lists at its end (issue 6)."""


def recent_entries(game: Game, count: int) -> list[dict[str, Any]]:
    """The last ``count`` history entries after the set-up, oldest first."""
    return [e for e in game.history[1:]][-count:]


def _entry_title(entry: dict[str, Any]) -> str:
    kind = entry["kind"]
    if kind in ("turn", "default-turn"):
        extra = " (GM default turn)" if kind == "default-turn" else ""
        return f"turn {entry['turn']}, {entry['nation']}{extra}"
    if kind == "gm-edit":
        return f"GM edit: {entry['reason']}"
    if kind == "standing":
        return f"{entry['nation']} change their standing orders"
    return kind
