"""What ``new`` asks for, and the parts of setting up a game every edition shares.

:class:`SetupOptions` is recorded in the game's first history entry, so that replaying a
game starts from exactly the same set-up. The edition turns options into a state
(its set-up facet, :class:`SetUpRules`); passwords and player
identities are the game service's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pbem.errors import UsageError, clip
from pbem.kernel.chance import Chance, lot
from pbem.kernel.state import Bank, GameState, NationState, ProvinceState, Standing, Status, Table

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.protocols import EditionView

GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
"""The game ids a game file accepts (``$.game_id``)."""


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
    teams: list[list[str]] = field(default_factory=list)
    """Two players with four nations: which two nations each player runs."""
    picks: list[str] = field(default_factory=list)
    """Start cities in the order the players picked them (classic's double-nation variant)."""
    data: dict[str, Any] = field(default_factory=dict)
    """Values for what the rulebook does not print, entered by a GM who owns the game
    (``new --data FILE``; the edition says which keys it takes)."""
    secret: str | None = None
    """For an edition with secrets (a deck of event cards): what its hidden order is drawn
    from besides the seed, made by ``new`` from what only the GM holds; recorded in the
    GM's file, never in a player's copy. ``None`` in games set up before it existed (their
    deck came from the seed alone)."""
    revision: int | None = None
    """The revision of the edition's rules the game is set up under (:attr:`Table.revision
    <pbem.kernel.state.Table.revision>`): ``new`` sets the edition's current one; recorded
    only when it is above 1, so a set-up recorded before revisions existed (``None``) is
    revision 1, as every game then was."""
    chance: Chance | None = field(default=None, compare=False, repr=False)
    """Where the set-up's draws come from (:mod:`pbem.kernel.chance`): ``None``, the game's
    seed (every game a GM sets up); in a game without a game master, the values every
    player committed to and revealed (docs/without-gm.md). Never recorded: such a game
    rebuilds it from the reveals its set-up entry holds."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game_id": self.game_id, "board": self.board, "nations": list(self.nations),
            "first": self.first, "variants": sorted(self.variants), "goal": self.goal,
            "players": self.players, "player": dict(sorted(self.player.items())),
            "start": {n: list(c) for n, c in sorted(self.start.items())}, "seed": self.seed,
        }
        # Recorded only where used, so that the set-up of every earlier game reads the same.
        if self.teams:
            data["teams"] = [list(team) for team in self.teams]
        if self.picks:
            data["picks"] = list(self.picks)
        if self.data:
            data["data"] = json.loads(json.dumps(self.data))
        if self.secret is not None:
            data["secret"] = self.secret
        if self.revision is not None and self.revision > 1:
            data["revision"] = self.revision
        return data

    def replace(self, **changes: Any) -> SetupOptions:
        return SetupOptions(**{**self.__dict__, **changes})


@runtime_checkable
class SetUpRules(Protocol):
    """An edition's facet for setting up a game (``new``): the state at the start, the
    goal, who may sit at the table, the values a GM enters for what the rulebook does not
    print. The shared parts are :class:`pbem.kernel.facets.SharedSetUp`."""

    seating_note: str
    """Said after the number of nations ``new`` needs (" (2 players play 4)")."""

    def start(self, options: SetupOptions, board: Board) -> tuple[GameState, list[dict[str, Any]], SetupOptions]:
        """The state at the start of a game, the events of its set-up (a first round's
        coins), and the options as recorded (start nation and seed filled in). Raise
        :class:`pbem.errors.UsageError` naming the option at fault."""
        ...

    def goal(self, options: SetupOptions, nations: int, players: int) -> int:
        """What a nation needs to win."""
        ...

    def seating_problem(self, players: int, nations: int) -> str | None:
        """Why ``players`` players cannot play ``nations`` nations, or ``None``."""
        ...

    def data_problems(self, data: Any, board: Board) -> list[str]:
        """What is wrong with values a GM entered for what the rulebook does not print
        (``new --data``, kept as ``rules.data``), in words."""
        ...

    def rulings(self, table: Table) -> list[str]:
        """The values of this game that are the project's rulings rather than printed
        ones, in words, for ``new`` to say."""
        ...


def start_nation_by_lot(opts: SetupOptions, nations: list[str]) -> str:
    """``--first``, else a nation drawn by lot from the game's seed (where a rulebook has the
    start nation decided at random)."""
    if opts.first is not None:
        if opts.first not in nations:
            raise UsageError(f"--first {opts.first}: not among --nations")
        return opts.first
    return nations[lot(opts.chance, opts.seed, len(nations), "start nation")]


def check_common(opts: SetupOptions, edition: EditionView) -> None:
    """What every edition asks of ``new``: a usable game id, known nations each once, known
    variants, and a player for every nation named in ``--player`` or ``--start``."""
    if not GAME_ID.match(opts.game_id):
        raise UsageError(f"game id {clip(opts.game_id)!r}: use 1-64 letters, digits, '.', '_' or '-', "
                         "starting with a letter or digit (give --id)")
    if opts.seed is not None and (not opts.seed.strip() or opts.seed == "?"):
        raise UsageError("--seed: give a seed of letters and digits (\"?\" is what a player's copy shows "
                         "instead of the seed)")
    for n in opts.nations:
        if n not in edition.nations:
            raise UsageError(f"--nations: unknown nation {clip(n)!r} (one of {', '.join(sorted(edition.nations))})")
    twice = sorted({n for n in opts.nations if opts.nations.count(n) > 1})
    if twice:
        raise UsageError(f"--nations: {', '.join(twice)} listed twice")
    for v in opts.variants:
        if v not in edition.variants:
            raise UsageError(f"--variant: unknown variant {clip(v)!r} (one of {', '.join(edition.variants)})")
    for n in list(opts.player) + list(opts.start):
        if n not in opts.nations:
            raise UsageError(f"{clip(n)!r} named in --player/--start is not among --nations")


def initial_state(table: Table, edition: EditionView, cities: dict[str, list[str]]) -> GameState:
    """The state before the first round: the bank full, each nation with its start chips
    and cities, nothing else (000 L92-170)."""
    rules = edition.rules_for(table)
    personages = tuple(rules.personage_stacks)
    return GameState(
        table=table,
        bank=Bank(rules.bank_coins, rules.bank_temples, dict(rules.personage_stacks)),
        nations={n: NationState.fresh(dict(rules.start_resources), personages, dict(edition.extras.nation))
                 for n in table.seats},
        provinces={c: ProvinceState(owner=n) for n, cs in cities.items() for c in cs},
        status=Status(active=table.first, extra=dict(edition.extras.status)),
        standing={n: default_standing(edition) for n in table.seats},
        extra=dict(edition.extras.state),
    )


def default_standing(edition: EditionView) -> Standing:
    """A nation's standing orders before it changes them (docs/rulings.md): battles at
    home, the edition's bonus stack (its personages in display order if it names none),
    the lowest chip for a coin, and the edition's own standing orders at their defaults."""
    return Standing({"default": "home"}, list(edition.default_bonus_stack or edition.personages), "lowest",
                    dict(edition.extras.standing))
