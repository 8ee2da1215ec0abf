"""Setting up classic Antike (``antike-ref new``): nations, start cities, goal, start nation.

Every rule cites the English rulebook (key 000) and the project's rulings (docs/rulings.md).
:func:`setup` asks the edition for its goal and its number of nations, so an edition that
sets up like classic (a variant) calls it with itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.editions.classic.rules import PERSONAGE_RULES as P
from pbem.errors import UsageError
from pbem.kernel.setup import SetupOptions, check_common, initial_state
from pbem.kernel.state import GameState, Table
from pbem.kernel.vocab import RESOURCES

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition


def goal(opts: SetupOptions, count: int, players: int) -> int:
    """Classic's goal: personages (or victory points) by number of nations, 9 for two
    players; a 3-nation game may choose 12 instead of 10."""
    military = "military" in opts.variants
    if players == 2:
        default = P.goals_military[4] if military else P.two_player_goal  # 000 L184-185
    else:
        default = (P.goals_military if military else P.goals)[count]  # 000 L231-234
    if opts.goal is None:
        return default
    if count == 3 and players == 3 and not military and opts.goal in (P.goals[3], P.three_player_long_goal):
        return opts.goal  # 000 L972-978: the 3-nation game may be played to 12
    raise UsageError(f"--goal {opts.goal}: only a 3-nation game may choose its goal, 10 or 12, and not in "
                     "the military variant (rulebook p. XIII, 'Antike for three players')")


def start_cities(opts: SetupOptions, board: Board, count: int) -> dict[str, list[str]]:
    """Each nation's start cities: ``--start`` if given, else its start line on the board.

    000 L161-170: one marble, one iron and one gold city from the line for the number of
    nations; 000 L964-967 (longer game): one of them.
    """
    lines = board.start_lines.get(count, {})
    longer = "longer" in opts.variants
    want = 1 if longer else 3
    cities: dict[str, list[str]] = {}
    for nation in opts.nations:
        if nation in opts.start:
            chosen = list(opts.start[nation])
        elif nation in lines:
            # docs/rulings.md: in the longer game without --start a nation keeps its line's first city.
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
        if not longer and kinds != sorted(RESOURCES):
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


def check_nations(nations: list[str], board: Board, edition: Edition) -> None:
    """As many nations as the edition seats, each on the board; the board may fix which
    nations play at each number (000 L102-137)."""
    count = len(nations)
    low, high = edition.players
    if not low <= count <= high:
        raise UsageError(f"--nations: {edition.name} needs {low} to {high} nations{edition.seating_note}, got {count}")
    on_board = set().union(*board.nations.values()) if board.nations else set()
    for n in nations:
        if n not in on_board:
            raise UsageError(f"--nations: {n} does not play on board {board.id}")
    wanted = board.nations.get(count)
    if wanted is not None and set(nations) != set(wanted):
        # 000 L106-137: "The number of nations determines which nations take part."
        raise UsageError(f"--nations: with {count} nations on {board.id} the nations are "
                         f"{', '.join(wanted)} (rulebook p. III, 'Distribute nation cards')")


def setup(edition: Edition, opts: SetupOptions, board: Board) -> tuple[GameState, list[dict[str, Any]], SetupOptions]:
    """The classic start: 3-6 nations on their start lines, 2 chips of marble, 1 iron and
    3 gold each, and the first round's coins (000 L92-170, L289-292); the goal is the
    edition's (:meth:`goal`)."""
    check_common(opts, edition)
    nations = list(opts.nations)
    count = len(nations)
    check_nations(nations, board, edition)
    players = opts.players or count
    problem = edition.seating_problem(players, count)
    if problem:
        raise UsageError(f"--players {players}: {problem}")
    opts = opts.replace(variants=sorted(set(opts.variants)))
    if opts.first is None:
        # docs/rulings.md: the Phoenicians start with 4 nations (000 L282-287), else the first seat.
        first = board.start_nation.get(count)
        first = first if first in nations else nations[0]
    elif opts.first in nations:
        first = opts.first
    else:
        raise UsageError(f"--first {opts.first}: not among --nations")
    goal = edition.goal(opts, count, players)
    cities = start_cities(opts, board, count)
    table = Table(opts.game_id, edition.id, tuple(opts.variants), goal, players, tuple(nations), first)
    state = initial_state(table, edition, cities)
    events: list[dict[str, Any]] = []
    edition.start_round(state, events)
    return state, events, opts.replace(first=first)
