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
    }


def print_summary(game: Game, console) -> None:
    """A readable terminal summary with rich tables."""
    from rich.table import Table

    st = game.state
    view = show_json(game)
    status = f"winner: [bold]{st.status.winner}[/]" if st.status.winner else f"active: [bold]{st.status.active}[/]"
    variants = f", variants: {', '.join(game.variants)}" if game.variants else ""
    console.print(f"[bold]{game.game_id}[/] — Antike on {game.board.name}{variants}")
    console.print(f"turn {st.status.turn}, round {st.status.round}, {status}, goal {game.goal}"
                  f" {'victory points' if game.military else 'personages'}")
    table = Table(title="Nations (seat order)")
    for col in ("nation", "marble", "iron", "gold", "coins", "rondel", "cities", "temples",
                "legions", "galleys", "know-how", "personages", "score"):
        table.add_column(col)
    for n in game.seats:
        v = view["nations"][n]
        legions = sum(st.provinces[p].count(n, "legion") for p in st.provinces)
        galleys = sum(st.provinces[p].count(n, "galley") for p in st.provinces)
        pers = ", ".join(f"{c} {p}" for p, c in v["personages"].items() if c) or "-"
        mark = "▶ " if n == st.status.active and not st.status.winner else ""
        table.add_row(mark + n, *(str(v["resources"][r]) for r in RESOURCES), str(v["coins"]),
                      v["rondel"]["wedge"] if v["rondel"] else "-", str(len(v["cities"])),
                      str(len(v["temples"])), str(legions), str(galleys),
                      ", ".join(v["knowhow"]) or "-", pers, f"{v['score']}/{game.goal}")
    console.print(table)
    board = Table(title="Provinces with a city or units")
    for col in ("province", "resource", "owner", "temple", "units"):
        board.add_column(col)
    for pid, prov in view["provinces"].items():
        units = "; ".join(f"{n} {c['legion']}L {c['galley']}G" for n, c in prov["units"].items()) or "-"
        board.add_row(game.board.province(pid).name, game.board.province(pid).resource,
                      prov["owner"] or "-", "yes" if prov["temple"] else "", units)
    console.print(board)
    orders = Table(title="Standing orders (public)")
    for col in ("nation", "battle", "bonus stack", "coin substitute"):
        orders.add_column(col)
    for n in game.seats:
        so = st.standing[n]
        battle = ", ".join(f"{k}: {v}" for k, v in so.battle.items())
        orders.add_row(n, battle, " > ".join(so.bonus_stack), so.coin_substitute)
    console.print(orders)
    bank = st.bank
    stacks = ", ".join(f"{p} {bank.personages[p]}" for p in PERSONAGES)
    console.print(f"Bank: {bank.coins} coins, {bank.temples} temples; personages: {stacks}")
