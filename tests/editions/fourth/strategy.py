"""How the bots play Quadriga: celebrate every TRIUMPH held where a city has room for its
chariot, harness chariots on the HIPPODROME in the cities nearest a rival first, and
leave the rest of a turn (temples, arming, know-how, the maneuver, foundings) to the
shared play. The greedy bot weighs every rondel target within one paid step by
:func:`value`, in which a war chariot counts.

The builder (``b``) is the one :mod:`pbem.play.bot` hands a strategy: ``game``,
``nation``, ``orders``, ``result``, ``try_add``; the shared play (``shared``) comes with it,
so that nothing here imports :mod:`pbem.play`."""

from __future__ import annotations

import random
from typing import Any

from pbem.kernel.facets import Facet

from . import chariots
from .rules import CARD, HIPPODROME


def _exposed(game, nation: str, city: str) -> int:
    """How many rival cities border ``city``: where a chariot is wanted first."""
    here = game.board.province(city)
    return sum(1 for p in here.land | here.sea
               if (prov := game.state.provinces.get(p)) is not None and prov.owner not in (None, nation))


def _cities(b) -> list[str]:
    st = b.result.state
    return sorted(chariots.room(st, b.nation), key=lambda c: (-_exposed(b.game, b.nation, c), c))


def celebrate(b) -> None:
    """Every TRIUMPH held, each for a chariot in the city that wants one most."""
    for _ in range(b.result.state.nations[b.nation].extra["hand"].count(CARD)):
        if not any(b.try_add("events", {"play": CARD, "city": c}) for c in _cities(b)):
            return


def harness(b, rng: random.Random, eager: float) -> None:
    """Chariots on the HIPPODROME, each tried with the chance ``eager``."""
    for city in _cities(b) * 2:
        if rng.random() < eager:
            b.try_add("chariots", {"city": city})


def value(game, nation: str, result) -> float:
    st = result.state
    ns = st.nations[nation]
    won = 1000 if st.status.winner == nation else 0
    units = sum(p.count(nation, u) for p in st.provinces.values() for u in ("legion", "galley"))
    return (won + 50 * game.edition.turn.score(st, nation) + 6 * len(st.cities(nation)) + 5 * len(st.temples(nation))
            + 4 * len(ns.knowhow) + 2 * sum(ns.extra["chariots"].values()) + 1.5 * min(units, 12)
            + 0.3 * (sum(ns.resources.values()) + ns.coins))


class QuadrigaStrategy(Facet):
    """The bots' play of Quadriga (its strategy facet, as
    :class:`pbem.kernel.protocols.BotStrategy` describes one): its own steps, then the shared
    play it is handed for the rest."""

    def fill(self, b, rng: random.Random, eager: float, greedy: bool, march: bool, shared) -> None:
        celebrate(b)
        field = b.game.edition.rondel[b.result.state.nations[b.nation].rondel]
        if field.name == HIPPODROME:
            harness(b, rng, eager)
        shared.fill(b, rng, eager, greedy, march)

    def greedy_turn(self, game, nation: str, rng: random.Random, choices, builder, shared) -> dict[str, Any] | None:
        """The shared greedy loop with Quadriga's fill and value (its units never march)."""

        def fill(b, rng, eager, greedy=False, march=False):
            self.fill(b, rng, eager, greedy, march, shared)

        return shared.best_turn(game, nation, rng, choices, builder, fill, value)
