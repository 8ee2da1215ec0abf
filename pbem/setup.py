"""Creating a classic Antike game (``antike-ref new``): nations, start cities, bank.

Every rule cites the English rulebook (key 000) and the project rulings (RULINGS.md).
"""

from __future__ import annotations

import re
import secrets as _secrets
from dataclasses import dataclass, field

from pbem import history, passwords
from pbem.bank import start_round
from pbem.board import Board
from pbem.errors import UsageError
from pbem.game import Game, NationMeta
from pbem.rules import rules_for
from pbem.state import Bank, GameState, NationState, ProvinceState, Standing, Status
from pbem.vocab import Nation, Variant

_PLAYER = re.compile(r"^\s*(?P<name>[^<>]*?)\s*(?:<(?P<email>[^<>\s]+@[^<>\s]+)>)?\s*$")
_GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
"""The game ids the game file schema accepts (``$.game_id``)."""


@dataclass
class SetupOptions:
    """Everything ``new`` needs; recorded in the history so the set-up can be replayed."""

    game_id: str
    board: str
    nations: list[str]
    first: str | None = None
    variants: list[str] = field(default_factory=list)
    goal: int | None = None
    players: int | None = None
    player: dict[str, str] = field(default_factory=dict)
    start: dict[str, list[str]] = field(default_factory=dict)
    seed: str | None = None

    def to_json(self) -> dict:
        return {
            "game_id": self.game_id, "board": self.board, "nations": list(self.nations),
            "first": self.first, "variants": sorted(self.variants), "goal": self.goal,
            "players": self.players, "player": dict(sorted(self.player.items())),
            "start": {n: list(c) for n, c in sorted(self.start.items())}, "seed": self.seed,
        }


def parse_player(text: str) -> tuple[str | None, str | None]:
    """``"Ann <ann@example.org>"`` → (name, e-mail); either part may be missing."""
    m = _PLAYER.match(text)
    if not m:
        raise UsageError(f"player {text!r}: expected 'Name <e-mail>'")
    return (m["name"] or None), m["email"]


def _goal(opts: SetupOptions, count: int, players: int) -> int:
    rules = rules_for("antike")
    military = Variant.MILITARY in opts.variants
    if players == 2:
        default = rules.goals_military[4] if military else rules.two_player_goal  # 000 L184-185
    else:
        default = (rules.goals_military if military else rules.goals)[count]  # 000 L231-234
    if opts.goal is None:
        return default
    if count == 3 and players == 3 and not military and opts.goal in (rules.goals[3], rules.three_player_long_goal):
        return opts.goal  # 000 L972-978: the 3-nation game may be played to 12
    raise UsageError(f"--goal {opts.goal}: only a 3-nation game may choose its goal, 10 or 12, and not in "
                     "the military variant (000 L972-978)")


def _start_cities(opts: SetupOptions, board: Board, count: int) -> dict[str, list[str]]:
    """Each nation's start cities: ``--start`` if given, else its start line on the board.

    000 L161-170: one marble, one iron and one gold city from the line for the number of
    nations; 000 L964-967 (longer game): one of them.
    """
    lines = board.start_lines.get(count, {})
    longer = Variant.LONGER in opts.variants
    want = 1 if longer else 3
    cities: dict[str, list[str]] = {}
    for nation in opts.nations:
        if nation in opts.start:
            chosen = list(opts.start[nation])
        elif nation in lines:
            # RULINGS.md: in the longer game without --start a nation keeps its line's first city.
            chosen = list(lines[nation])[:want]
        else:
            raise UsageError(f"{nation} has no start line for {count} nations on {board.id}; give --start {nation}=CITY,...")
        if len(chosen) != want:
            raise UsageError(f"--start {nation}: {want} start {'city' if want == 1 else 'cities'} needed, got {len(chosen)}")
        for city in chosen:
            if not board.is_province(city):
                raise UsageError(f"--start {nation}: {city!r} is not a province of {board.id}")
        if len(set(chosen)) != len(chosen):
            raise UsageError(f"--start {nation}: a city is named twice ({', '.join(chosen)})")
        kinds = sorted(board.province(c).resource for c in chosen)
        if not longer and kinds != ["gold", "iron", "marble"]:
            # 000 L162-170: one marble, one iron and one gold city.
            raise UsageError(f"--start {nation}: start cities must be one marble, one iron and one gold city, "
                             f"got {', '.join(f'{c} ({board.province(c).resource})' for c in chosen)}")
        cities[nation] = chosen
    seen: dict[str, str] = {}
    for nation, chosen in cities.items():
        for city in chosen:
            if city in seen:
                raise UsageError(f"start city {city} given to both {seen[city]} and {nation}")
            seen[city] = nation
    return cities


def _check_nations(nations: list[str], board: Board) -> None:
    """The nations in play are fixed by their number (000 L102-137)."""
    count = len(nations)
    known = {n.value for n in Nation}
    for n in nations:
        if n not in known:
            raise UsageError(f"--nations: unknown nation {n!r} (one of {', '.join(sorted(known))})")
    twice = sorted({n for n in nations if nations.count(n) > 1})
    if twice:
        raise UsageError(f"--nations: {', '.join(twice)} listed twice")
    if not 3 <= count <= 6:
        raise UsageError(f"--nations: classic Antike needs 3 to 6 nations (2 players play 4), got {count}")
    on_board = set().union(*board.nations.values()) if board.nations else set()
    for n in nations:
        if n not in on_board:
            raise UsageError(f"--nations: {n} does not play on board {board.id}")
    wanted = board.nations.get(count)
    if wanted is not None and set(nations) != set(wanted):
        # 000 L106-137: "The number of nations determines which nations take part."
        raise UsageError(f"--nations: with {count} nations on {board.id} the nations are "
                         f"{', '.join(wanted)} (000 L106-137)")


def _check_passwords(given: dict[str, str], nations: list[str]) -> None:
    for n, pw in given.items():
        if n not in nations:
            raise UsageError(f"--password {n}: {n!r} is not among --nations")
        if not pw or pw != pw.strip():
            raise UsageError(f"--password {n}: a password must not be empty or start or end with a space")


def new_game(opts: SetupOptions, board: Board, given_passwords: dict[str, str] | None = None) -> tuple[Game, dict[str, str]]:
    """Create the game; return it with the plain passwords (for the GM's secrets file)."""
    rules = rules_for(board.edition)
    nations = list(opts.nations)
    count = len(nations)
    if not _GAME_ID.match(opts.game_id):
        raise UsageError(f"game id {opts.game_id!r}: use 1-64 letters, digits, '.', '_' or '-', "
                         "starting with a letter or digit (give --id)")
    _check_nations(nations, board)
    players = opts.players or count
    if players == 2 and count != 4:
        raise UsageError("--players 2: two players play 4 nations, two each (000 L103-106)")
    if players not in (2, count):
        raise UsageError(f"--players {players}: one player per nation, or 2 players with 4 nations")
    for v in opts.variants:
        if v not in {x.value for x in Variant}:
            raise UsageError(f"--variant: unknown variant {v!r} (one of {', '.join(x.value for x in Variant)})")
    opts = SetupOptions(**{**opts.__dict__, "variants": sorted(set(opts.variants))})
    for n in list(opts.player) + list(opts.start):
        if n not in nations:
            raise UsageError(f"{n!r} named in --player/--start is not among --nations")
    if opts.first is None:
        # RULINGS.md: the Phoenicians start with 4 nations (000 L282-287), else the first seat.
        first = board.start_nation.get(count)
        first = first if first in nations else nations[0]
    elif opts.first in nations:
        first = opts.first
    else:
        raise UsageError(f"--first {opts.first}: not among --nations")
    goal = _goal(opts, count, players)
    cities = _start_cities(opts, board, count)
    seed = opts.seed or _secrets.token_hex(8)

    plain = dict(given_passwords or {})
    _check_passwords(plain, nations)
    for n in nations:
        plain.setdefault(n, passwords.generate())
    meta = {}
    for n in nations:
        name, email = parse_player(opts.player[n]) if n in opts.player else (None, None)
        meta[n] = NationMeta(name, email, rules.nation_colours[n],
                             passwords.hash_password(plain[n], passwords.salt_for(seed, n)))

    provinces = {c: ProvinceState(owner=n) for n, cs in cities.items() for c in cs}
    state = GameState(
        bank=Bank(rules.bank_coins, rules.bank_temples, dict(rules.personage_stacks)),
        nations={n: NationState(resources=dict(rules.start_resources)) for n in nations},
        provinces=provinces,
        status=Status(active=first),
        standing={n: Standing() for n in nations},
    )
    game = Game(opts.game_id, board.edition, sorted(opts.variants), goal, players, board,
                nations, first, seed, meta, state, [])
    events: list[dict] = []
    start_round(state, game.turn_order(), events)
    recorded = SetupOptions(**{**opts.__dict__, "first": first, "seed": seed})
    history.append(game, {"kind": "new", "setup": recorded.to_json(), "events": events})
    return game, {n: plain[n] for n in nations}
