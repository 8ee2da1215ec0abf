"""The rondel: an edition's fields in clockwise order, and what moving on it costs.

An edition lists its fields (wedges) with a name, a label and the action each carries out
(:mod:`pbem.kernel.actions`); a name printed twice (classic MANEUVER) is two fields. The
arithmetic is the same in every edition (docs/rulings.md, "Rondel"): steps are counted
clockwise, a move of 0 steps is a move of a full turn, the first ``free_steps`` cost
nothing and each further step one resource of the nation's choice; a nation's first move
may go anywhere for free.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pbem.kernel.rejections import Rejection, reject

if TYPE_CHECKING:
    from pbem.kernel.protocols import WedgeAction


@dataclass(frozen=True, slots=True)
class Field:
    """One field of the rondel."""

    name: str
    """The wedge's id in order files (``rondel.to``)."""
    label: str
    """How reports and messages print it."""
    action: WedgeAction
    colour: str = "#eeeeee"
    """Its fill on the report's rondel."""


@dataclass(frozen=True, slots=True)
class Landing:
    """Where a rondel move lands: the field's index, the steps taken and their cost."""

    index: int
    steps: int
    cost: int
    first: bool


@dataclass(frozen=True)
class Rondel:
    """An edition's rondel: its fields clockwise from index 0, and the free steps."""

    fields: tuple[Field, ...]
    free_steps: int
    aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Other names accepted for a wedge in ``rondel.to`` (e.g. another edition's), each
    mapped to this rondel's name."""

    def __len__(self) -> int:
        return len(self.fields)

    def __getitem__(self, index: int) -> Field:
        return self.fields[index]

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Each wedge name once, in rondel order."""
        return tuple(dict.fromkeys(f.name for f in self.fields))

    def canonical(self, name: str) -> str | None:
        """The wedge ``name`` stands for (itself or the wedge it is an alias of), or ``None``."""
        if name in self.names:
            return name
        return self.aliases.get(name)

    def steps_to(self, current: int, index: int) -> int:
        """Clockwise steps from field ``current`` to field ``index`` (a full turn for 0)."""
        return (index - current) % len(self.fields) or len(self.fields)

    def cost(self, steps: int) -> int:
        return max(0, steps - self.free_steps)

    def landing(self, current: int | None, index: int) -> Landing:
        """Moving from ``current`` (``None``: first move) to field ``index``."""
        if current is None:
            return Landing(index, 0, 0, True)
        steps = self.steps_to(current, index)
        return Landing(index, steps, self.cost(steps), False)

    def landings(self, current: int | None) -> list[Landing]:
        """Every field with the steps and cost of moving there now, in rondel order."""
        return [self.landing(current, i) for i in range(len(self.fields))]

    def order_for(self, landing: Landing) -> dict[str, Any]:
        """The ``rondel`` order that lands exactly on ``landing`` (explicit steps where the
        wedge's name alone would be ambiguous)."""
        name = self.fields[landing.index].name
        if landing.first:
            if self.first_index(name) == landing.index:
                return {"to": name}
            return {"to": name, "steps": landing.index or len(self.fields)}
        return {"to": name, "steps": landing.steps}

    def first_index(self, name: str) -> int:
        """The field a first move to ``name`` lands on without ``steps``: the first one
        clockwise from index 0."""
        return next(i for i, f in enumerate(self.fields) if f.name == name)

    def target(self, current: int | None, move: dict[str, Any]) -> tuple[int | None, int, Rejection | None]:
        """Where a rondel order lands: (index, steps, problem).

        A name printed twice means the nearer field clockwise; ``steps`` picks one
        explicitly. On a nation's first move the stone is placed anywhere: then ``steps``
        counts from index 0, so ``{"to": "maneuver", "steps": 7}`` is classic's second
        MANEUVER wedge (docs/rulings.md, Rondel).
        """
        to = self.canonical(move["to"])
        assert to is not None, f"wedge {move['to']!r} is not on the rondel"  # the orders are canonical
        n = len(self.fields)
        origin = 0 if current is None else current
        if "steps" in move:
            steps = move["steps"]
            lands = (origin + steps) % n
            if current is None and steps == n:
                lands = 0
            if self.fields[lands].name != to:
                start = self.fields[origin].name if current is not None else f"{self.fields[0].name} (first move)"
                return None, steps, reject("rondel/wrong-steps", "$.rondel.steps", steps=steps,
                                           start=start, to=move["to"], lands=self.fields[lands].name)
            return lands, steps, None
        if current is None:
            return self.first_index(to), 0, None
        for steps in range(1, n + 1):
            lands = (current + steps) % n
            if self.fields[lands].name == to:
                return lands, steps, None
        raise AssertionError(f"wedge {to!r} is not on the rondel")
