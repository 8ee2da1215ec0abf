"""Setting up classic Antike (``antike-ref new``): nations, start cities, goal, start nation.

Every rule cites the English rulebook (key 000) and the project's rulings (docs/rulings.md).
:func:`setup` asks the edition's set-up facet for its goal and its number of nations, so an
edition that sets up like classic (a variant) calls it with itself; :class:`ClassicSetUp` is
classic's set-up facet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.editions.classic.rules import PERSONAGE_RULES as P
from pbem.errors import UsageError
from pbem.kernel.chance import lot
from pbem.kernel.facets import SharedSetUp
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
    if "double" in opts.variants:
        default = P.double_nation_goal  # 000 L189-191
    elif players == 2:
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
            if longer and nation in lines and chosen and chosen[0] not in lines[nation]:
                # 000 L964-967: "The start cities can be chosen from the three start cities on the nation card."
                raise UsageError(f"--start {nation}={chosen[0]}: in the longer game the start city is one of the "
                                 f"{nation}' start cities for {count} nations: {', '.join(lines[nation])} "
                                 "(rulebook p. XIII, 'Longer game')")
        elif nation in lines:
            # docs/rulings.md: in the longer game without --start a nation keeps its line's first city.
            chosen = list(lines[nation])[:want]
        else:
            raise UsageError(f"{nation} has no start line for {count} nations on {board.id}; "
                             f"give --start {nation}=CITY,...")
        if len(chosen) != want:
            raise UsageError(f"--start {nation}: {want} start {'city' if want == 1 else 'cities'} needed, "
                             f"got {len(chosen)}")
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


def check_nations(nations: list[str], board: Board, edition: Edition, double: bool = False) -> None:
    """As many nations as the edition seats, each on the board; the board may fix which
    nations play at each number (000 L102-137)."""
    count = len(nations)
    low, high = edition.players
    low = max(low, 3)  # two nations only in the double-nation variant (000 L187-189)
    if double:
        if count != 2:
            raise UsageError(f"--variant double: two nations, one for each player, got {count} "
                             "(rulebook p. III, 'Antike for two players')")
    elif not low <= count <= high:
        double_hint = "; two nations are the double-nation variant: add --variant double" if count == 2 else ""
        raise UsageError(f"--nations: {edition.name} needs {low} to {high} nations{edition.setup.seating_note}, "
                         f"got {count}{double_hint}")
    on_board = set().union(*board.nations.values()) if board.nations else set()
    for n in nations:
        if n not in on_board:
            raise UsageError(f"--nations: {n} does not play on board {board.id}")
    wanted = board.nations.get(count)
    if wanted is not None and not double and set(nations) != set(wanted):
        # 000 L106-137: "The number of nations determines which nations take part."
        raise UsageError(f"--nations: with {count} nations on {board.id} the nations are "
                         f"{', '.join(wanted)} (rulebook p. III, 'Distribute nation cards')")


def teams(opts: SetupOptions, board: Board, nations: list[str]) -> list[list[str]]:
    """Two players with four nations: who runs which two. The rulebook pairs them per board
    side (000 L176-181: West Romans+Phoenicians against Germanic tribes+Greeks, East
    Persians+Phoenicians against Greeks+Arabs); the board file carries the pairing."""
    printed = [list(team) for team in board.pairings.get(len(nations), ())]
    if not opts.teams:
        if not printed:
            raise UsageError(f"board {board.id} gives no two-player teams; name them with --team A,B --team C,D")
        return printed
    given = [list(team) for team in opts.teams]
    named = [n for team in given for n in team]
    if len(given) != 2 or any(len(team) != 2 for team in given) or sorted(named) != sorted(nations):
        raise UsageError(f"--team: two teams of two, together the four nations ({', '.join(nations)}); "
                         f"got {' against '.join('+'.join(t) for t in given)}")
    if printed and sorted(map(sorted, given)) != sorted(map(sorted, printed)):
        raise UsageError(f"--team: on {board.id} one player runs "
                         f"{' and the other '.join('+'.join(t) for t in printed)} "
                         "(rulebook p. III, 'Antike for two players')")
    return given


def start_player(opts: SetupOptions, board: Board, nations: list[str]) -> str:
    """``--first``, else the board's start nation for this number of nations (the red dot on
    the nation cards, 000 L282-287), else the first seat (docs/rulings.md). In the
    double-nation variant the start player is drawn by lot from the game's seed, as a coin
    flip (000 L193-194)."""
    if opts.first is not None:
        if opts.first not in nations:
            raise UsageError(f"--first {opts.first}: not among --nations")
        return opts.first
    if "double" in opts.variants:
        return nations[lot(opts.chance, opts.seed, len(nations), "start player")]
    first = board.start_nation.get(len(nations))
    return first if first in nations else nations[0]


def picked_cities(opts: SetupOptions, board: Board, nations: list[str], first: str) -> dict[str, list[str]]:
    """The double-nation variant: "players take turns picking out their three starting
    cities" (000 L191-193), one marble, one iron and one gold city each (000 L161-162).
    ``--picks`` lists the six picks in order; the turns go A, B, B, A, A, B from the start
    player (a snake draft, docs/rulings.md). Without ``--picks`` each nation takes its start
    line at the smallest number of nations that seats both."""
    other = nations[1] if first == nations[0] else nations[0]
    if not opts.picks:
        for count in sorted(board.start_lines):
            lines = board.start_lines[count]
            if first in lines and other in lines:
                return {n: list(lines[n]) for n in nations}
        raise UsageError(f"the board has no start lines for both {first} and {other}; give --picks with six cities")
    order = [first, other, other, first, first, other]
    if len(opts.picks) != len(order):
        raise UsageError(f"--picks: six start cities, three per player in turns, got {len(opts.picks)}")
    cities: dict[str, list[str]] = {n: [] for n in nations}
    taken: dict[str, int] = {}
    for k, (city, nation) in enumerate(zip(opts.picks, order), start=1):
        where = f"--picks: pick {k} ({city}, by the {nation})"
        if not board.is_province(city):
            raise UsageError(f"{where}: not a province of {board.id}{board.hint(city)}")
        resource = board.province(city).resource
        if resource not in RESOURCES:
            raise UsageError(f"{where}: no printed resource there")
        if city in taken:
            raise UsageError(f"{where}: already picked as pick {taken[city]}")
        same = [c for c in cities[nation] if board.province(c).resource == resource]
        if same:
            raise UsageError(f"{where}: the {nation} already picked a {resource} city ({same[0]}); "
                             "each nation starts with one marble, one iron and one gold city")
        taken[city] = k
        cities[nation].append(city)
    return cities


def setup(edition: Edition, opts: SetupOptions, board: Board) -> tuple[GameState, list[dict[str, Any]], SetupOptions]:
    """The classic start: 3-6 nations on their start lines (2 players run two each, or one
    double nation each), 2 chips of marble, 1 iron and 3 gold each, and the first round's
    coins (000 L92-194, L289-292); the goal and the seating are the edition's (its set-up facet)."""
    check_common(opts, edition)
    nations = list(opts.nations)
    count = len(nations)
    double = "double" in opts.variants
    check_nations(nations, board, edition, double)
    players = opts.players or (2 if double else count)
    problem = edition.setup.seating_problem(players, count)
    if problem or (count == 2 and not double):
        raise UsageError(f"--players {players}: "
                         f"{problem or 'two nations are the double-nation variant: add --variant double'}")
    if double:
        clash = sorted({"longer", "military"} & set(opts.variants))
        if clash:
            raise UsageError(f"--variant double cannot be combined with {', '.join(clash)} "
                             "(docs/rulings.md, 'Two players')")
        if opts.start:
            raise UsageError("--variant double: the players pick their start cities in turns; "
                             "give them with --picks, not --start")
    elif opts.picks:
        raise UsageError("--picks is for the double-nation variant (--variant double); use --start")
    if opts.teams and not (players == 2 and count == 4):
        raise UsageError("--team is for two players with four nations")
    opts = opts.replace(variants=sorted(set(opts.variants)))
    if players == 2 and count == 4:
        opts = opts.replace(teams=teams(opts, board, nations))
    first = start_player(opts, board, nations)
    goal = edition.setup.goal(opts, count, players)
    cities = picked_cities(opts, board, nations, first) if double else start_cities(opts, board, count)
    table = Table(opts.game_id, edition.id, tuple(opts.variants), goal, players, tuple(nations), first,
                  revision=opts.revision or 1)
    state = initial_state(table, edition, cities)
    events: list[dict[str, Any]] = []
    edition.turn.start_round(state, events)
    return state, events, opts.replace(first=first)


class ClassicSetUp(SharedSetUp):
    """Classic's set-up facet: :func:`setup`, :func:`goal`, and two players who play four
    nations or two double nations."""

    edition: Edition

    seating_note = " (2 players play 4)"

    def start(self, options: SetupOptions, board: Board) -> tuple[GameState, list[dict[str, Any]], SetupOptions]:
        return setup(self.edition, options, board)

    def goal(self, options: SetupOptions, nations: int, players: int) -> int:
        return goal(options, nations, players)

    def seating_problem(self, players: int, nations: int) -> str | None:
        """One player per nation, or two players with four nations each playing two
        (000 L103-106)."""
        if players == nations or (players == 2 and nations in (2, 4)):
            return None
        if players == 2:
            return ("two players play 4 nations, two each, or 2 double nations with --variant double "
                    "(rulebook p. III, 'Antike for two players')")
        return (f"{players} players cannot play {nations} nations "
                "(one player per nation, or 2 players with 4 nations)")
