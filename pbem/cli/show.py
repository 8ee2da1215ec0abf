"""``show`` without ``--json``: the game as rich tables that fit 80 columns."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.service.clock import TurnClock
from pbem.service.game import Game
from pbem.service.view import RECENT_TURNS, RESOURCES, UNITS, current_deadline, recent_entries, show_json, today


def console():
    """A rich console whose closed pipe is handled like every other command's (quietly,
    exit 0) rather than by rich's own exit code 1."""
    from rich.console import Console

    class PipeConsole(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError

    return PipeConsole()


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


def print_summary(game: Game, console, viewer: str | None = None, clock: TurnClock | None = None,
                  now: datetime | None = None) -> None:
    """A readable terminal summary with rich tables, laid out for 80 columns. ``clock``:
    the game's clock (:func:`pbem.service.clockfile.read_clock`): the deadline with the
    time left at ``now``, a pause, the players away."""
    edition = game.edition
    st = edition.secrets.player_view(game.state, viewer) if edition.secrets else game.state
    view = show_json(game, viewer)
    status = f"winner: [bold]{st.status.winner}[/]" if st.status.winner else f"active: [bold]{st.status.active}[/]"
    variants = f", variants: {', '.join(st.table.variants)}" if st.table.variants else ""
    console.print(f"[bold]{game.game_id}[/] — {edition.name} on {game.board.name}{variants}")
    console.print(f"turn {st.status.turn}, round {st.status.round}, {status}, goal {game.goal}"
                  f" {edition.phrases.score_unit(st)}")
    for line in clock_lines(game, clock or TurnClock(), now):
        console.print(line, highlight=False, markup=False)
    for line in edition.lines.show(st) if edition.lines else ():
        console.print(line, highlight=False)
    players = ", ".join(f"{edition.nation_name(n)}: {game.meta[n].player}" for n in game.seats
                        if n in game.meta and game.meta[n].player)
    if players:
        console.print(f"players: {players}", highlight=False)
    console.print(_nations_table(game, st, view))
    console.print(_progress_table(game, view))
    console.print(_provinces_table(game, view))
    console.print(_standing_table(game, st))
    bank = st.bank
    stacks = ", ".join(f"{p} {bank.personages[p]}" for p in edition.personages)
    console.print(f"Bank: {bank.coins} coins, {bank.temples} temples; personages: {stacks}")
    _print_recent(game, console, viewer)


def _nations_table(game: Game, st, view: dict[str, Any]):
    """Each nation's chips, coins, cities, temples, units and score; the active one in bold."""
    active = None if st.status.winner else st.status.active
    table = _table("Nations (seat order)", "nation", "marble", "iron", "gold",
                   "coins", "cities", "temples", "legions", "galleys", "score", right=9)
    for n in game.seats:
        v = view["nations"][n]
        table.add_row(n, *(str(v["resources"][r]) for r in RESOURCES), str(v["coins"]),
                      str(len(v["cities"])), str(len(v["temples"])),
                      *(str(st.units_on_board(n, u)) for u in UNITS),
                      f"{v['score']}/{game.goal}", style="bold" if n == active else None)
    return table


def _progress_table(game: Game, view: dict[str, Any]):
    """Each nation's rondel wedge, know-hows and personages."""
    edition = game.edition
    progress = _table("Rondel, know-how and personages", "nation", "rondel", "know-how", "personages")
    for n in game.seats:
        v = view["nations"][n]
        pers = ", ".join(f"{c} {edition.personage_label(p)}" for p, c in v["personages"].items() if c) or "-"
        progress.add_row(n, v["rondel"]["wedge"] if v["rondel"] else "-", ", ".join(v["knowhow"]) or "-", pers)
    return progress


def _provinces_table(game: Game, view: dict[str, Any]):
    """Every province with a city or units: its resource (a chosen one marked), owner,
    temple and units."""
    board = _table("Provinces with a city or units", "province", "resource", "owner", "temple", "units")
    for pid, prov in view["provinces"].items():
        units = "; ".join(f"{n} {c['legion']}L {c['galley']}G" for n, c in prov["units"].items()) or "-"
        printed = game.board.province(pid).resource
        resource = prov.get("resource", printed)  # a city's: what its founder chose, where they could
        if resource != printed:
            resource += " (chosen)"
        temple = "yes" if prov["temple"] else "neutral" if prov.get("neutral_temple") else ""
        board.add_row(game.board.province(pid).name, resource, prov["owner"] or "-", temple, units)
    return board


def _standing_table(game: Game, st):
    """Each nation's public standing orders."""
    orders = _table("Standing orders (public)", "nation", "battle", "bonus stack, first choice first", "no coin")
    for n in game.seats:
        so = st.standing[n]
        stances = sorted(so.battle.items(), key=lambda kv: (kv[0] != "default", kv[0]))
        battle = "\n".join(f"{k}: {v}" for k, v in stances)
        orders.add_row(n, battle, ", ".join(so.bonus_stack), so.coin_substitute)
    return orders


def _print_recent(game: Game, console, viewer: str | None) -> None:
    """The last entries of the history, as ``viewer`` may see them."""
    recent = recent_entries(game, RECENT_TURNS)
    if not recent:
        return
    from pbem.report.model import card_namer
    from pbem.report.text import event_lines
    from pbem.report.views import masked_entry

    console.print(f"[bold]The last {len(recent)} entries of the history[/]")
    for entry in recent:
        entry = masked_entry(game.edition, entry, (viewer,))  # another's drawn cards stay hidden
        title = entry_title(entry)
        console.print(f"{title}:", highlight=False)
        for line in event_lines(entry.get("events", []), card=card_namer(game, noted=False), edition=game.edition):
            console.print(f"  - {line}", highlight=False, soft_wrap=False)


def clock_lines(game: Game, clock: TurnClock, now: datetime | None) -> list[str]:
    """The current turn's deadline with the time left at ``now``, whether the game is
    paused, and who is away today (the reasons are the GM's: ``status`` shows them)."""
    lines = []
    deadline = current_deadline(game, clock)
    if deadline is not None:
        lines.append(deadline.line(now))
    if clock.paused is not None and deadline is None:
        lines.append("The game is paused by the GM: no deadline runs.")
    if now is not None:
        away = [f"{game.edition.nation_name(n)} until {day:%a %d %b %Y}"
                for n, day in sorted(clock.away(today(clock, now)).items()) if n in game.seats]
        if away:
            lines.append(f"Away: {'; '.join(away)}.")
    return lines


def print_neighbours(game: Game, console, provinces: list[str], viewer: str | None = None) -> None:
    """Each of ``provinces``: its resource and kind, what stands in it, and its neighbours
    across land borders (where legions go) and sea borders (where galleys go)."""
    board = game.board
    view = show_json(game, viewer)["provinces"]
    table = _table("Provinces and their neighbours", "province", "in it", "land (legions)", "sea (galleys)")
    for pid in provinces:
        p = board.province(pid)
        here = view.get(pid, {})
        held = [f"city of {game.edition.nation_name(here['owner'])}" + (", temple" if here.get("temple") else "")
                ] if here.get("owner") else []
        held += [f"{game.edition.nation_name(n)} {c['legion']}L {c['galley']}G" for n, c in here.get("units", {}).items()]
        kind = "" if p.kind == "coastal" else f", {p.kind.replace('_', '-')}"
        table.add_row(f"{p.name} ({pid})\n{p.resource}{kind}", "\n".join(held) or "-",
                      ", ".join(board.province(q).name for q in sorted(p.land)) or "-",
                      ", ".join(board.province(q).name for q in sorted(p.sea)) or "-")
    console.print(table)


def entry_title(entry: dict[str, Any]) -> str:
    """A history entry's heading: ``turn 12, greeks``, ``GM edit: reason``, ..."""
    kind = entry["kind"]
    if kind in ("turn", "default-turn", "bot-turn"):
        extra = {"default-turn": " (GM default turn)",
                 "bot-turn": f" (played by the {entry.get('bot')} bot for the GM)"}.get(kind, "")
        return f"turn {entry['turn']}, {entry['nation']}{extra}"
    if kind == "gm-edit":
        return f"GM edit: {entry['reason']}"
    if kind == "standing":
        return f"{entry['nation']} change their standing orders"
    return kind
