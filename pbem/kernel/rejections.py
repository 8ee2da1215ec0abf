"""Rejections are data: a stable namespaced code, a message, and the JSON path at fault.

Every code is defined once with its message template, so codes stay stable and the
catalogue doubles as documentation (``docs/rejections.md`` is generated from it). Every
code the kernel raises is here, so an edition that defines none still gets a refusal, never
a missing code. An edition with rules of its own adds its codes through :attr:`Edition.codes
<pbem.kernel.edition.Edition.codes>`, and may word a kernel code its own way through
:attr:`Edition.wording <pbem.kernel.edition.Edition.wording>` (same code, same values);
:func:`catalogue` merges them.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pbem.errors import clip

CODES: dict[str, str] = {
    # a file that cannot be read or has the wrong shape (exit code 3, not a rule refusal)
    "input/invalid": "{source}: {message}",
    # the order file as a whole
    "orders/wrong-game": "these orders are for game {got!r}, this is game {want!r}",
    "orders/wrong-nation": "it is the turn of {active}, not of {nation}",
    "orders/unknown-nation": "{nation} does not play in this game (the nations playing: {playing})",
    "orders/wrong-turn": "these orders are for turn {got}, the game is at turn {want}",
    "orders/missing-turn": "a turn's orders must say which turn they are for (the game is at turn {want})",
    "orders/wrong-password": "wrong password for {nation}",
    "orders/game-over": "the game is over: {winner} has won",
    "orders/wrong-action": "{key!r} does not fit the {wedge} wedge",
    "orders/action-without-rondel": "{key!r} needs a rondel move in the same file",
    "game/player-copy": "this file is a player's copy of the game ({nation}), for check, options and show: it is "
                        "never changed; send the orders to the GM, whose game file is the game",
    # rondel
    "rondel/wrong-steps": "{steps} steps from {start} do not lead to {to} (that would be {lands})",
    # payments
    "pay/wrong-total": "{what} costs {cost} ({spelled}); the payment adds up to {paid}",
    "pay/wrong-chip": "{what} cannot be paid with {chip}",
    "pay/not-enough": "{what} costs {spelled}; the payment asks for {need} {chip} but {nation} has {held} "
                      "(all it holds: {holds})",
    "pay/cannot-afford": "{what} costs {spelled}; {nation} has only {held} in chips and coins that could pay it "
                         "(all it holds: {holds})",
    "pay/too-many": "{what} needs only {need} {chip}; pay the rest with coins or the right chips",
    "pay/coins-only": "{what} includes {coins} coin(s) that only coins can pay; the payment has {paid}",
    # temples
    "temple/not-own-city": "{city} is not a city of {nation}{hint}",
    "temple/already": "{city} already has a temple",
    "temple/twice": "{city} is named twice",
    "temple/bank-empty": "the bank has no temple left",
    # arming
    "arm/not-own-city": "{at} is not a city of {nation}{hint}",
    "arm/limit": "{at} may arm {limit} unit(s) this turn ({asked} asked)",
    "arm/wrong-terrain": "a {unit} cannot be armed in {at} ({kind})",
    "arm/no-stock": "{nation} has {left} {unit}(s) {where}, {asked} asked",
    # an edition that lets a nation arm units for free (Edition.free_units)
    "arm/no-free-unit": "{nation} arms no unit for free this turn",
    "arm/free-twice": "only {free} unit(s) may be armed for free; mark one entry \"free\": true",
    # know-how
    "knowhow/owned": "{nation} already owns {name}",
    "knowhow/needs": "{name} needs {requires} first",
    "knowhow/twice": "{name} is named twice",
    # founding
    "found/not-a-province": "{city!r} is not a province of this board{hint}",
    "found/occupied": "{city} already has a city ({owner})",
    "found/no-unit": "{nation} has no legion or galley in {city}",
    "found/no-stone": "{nation} has no city stone left ({stones} cities)",
    "found/twice": "{city} is named twice",
    # boards with neutral temples, regions without a city site, sites of the founder's choice
    "found/neutral-temple": "a neutral temple stands in {city}",
    "found/no-site": "{city} has no city site",
    "found/resource-needed": "the founder chooses the resource of a city in {city}: add \"resource\": \"marble\", "
                             "\"iron\" or \"gold\"",
    "found/resource-fixed": "a city in {city} produces {resource}, as the board shows",
    # trade
    "trade/not-allowed": "{nation} owns {owned} of the {total} know-hows; trading with the bank needs all {total}, "
                         "owned since an earlier turn",
    "trade/ratio": "a trade gives {rates}, each entry at one rate; this one gives {given} for {got}",
    "trade/not-enough": "{nation} has {held} {chip}, the trade gives {give}",
    # maneuver
    "move/not-a-province": "{province!r} is not a province of this board{hint}",
    "move/not-enough-units": "{nation} cannot move {count} {unit}(s) {need} step(s) from {at}: {reason}",
    "move/no-border": "a {unit} cannot cross from {a} to {b}{why}",
    "move/after-conquest": "all movement and battles come before any conquest",
    "battle/no-units": "{nation} has no {unit} in {at}",
    "battle/no-enemy": "{against} has no {unit} in {at}",
    "battle/too-many": "at most {most} {unit} pairs can fight in {at}; {count} asked",
    "battle/self": "a nation cannot fight itself",
    "conquer/no-city": "there is no city in {city}",
    "conquer/own-city": "{city} is already a city of {nation}",
    "conquer/last-city": "{city} is {owner}'s last city and cannot be conquered",
    "conquer/wrong-strength": "{city} has defence {defence}; the conquest uses {used}",
    "conquer/not-enough-units": "{nation} has {have} {unit}(s){able} in {city}; {need} needed{why}",
    "conquer/cannot-reach": "{nation} has {have} unit(s){able} in {city}; its defence is {defence}{why}",
    "conquer/give-up-not-needed": "{nation} still has city stones; 'give_up' is only for a nation with {stones} cities",
    "conquer/give-up-invalid": "{give_up} is not another city of {nation}",
    # standing orders and edits
    "standing/unknown-nation": "{nation} does not play in this game (the nations playing: {playing})",
    "standing/self": "a nation has no battle stance towards itself",
    "standing/game-over": "the game is over: {winner} has won",
    "standing/already-applied": "these standing orders were applied already, as history entry {seq} "
                                "(an order file is applied at most once); {advice}",
    "standing/nothing-to-change": "these orders change nothing: {why}",
    "edit/wrong-game": "this edit is for game {got!r}, this is game {want!r}",
    "edit/unknown-nation": "{nation} does not play in this game (the nations playing: {playing})",
    "edit/unknown-province": "{province!r} is not a province of this board{hint}",
    "edit/bank-short": "the bank has {held} {what}; the edit needs {need}",
    "edit/temple-without-city": "a temple needs a city in {province}",
    "edit/neutral-temple-in-city": "{province} has a city: a neutral temple stands only where no city is",
    "edit/unit-terrain": "a {unit} cannot stand in {province}",
    "edit/inconsistent": "{detail}",
}


@dataclass(frozen=True, slots=True)
class Rejection:
    """One illegal step: why (``code``, ``message``) and where (``path``)."""

    code: str
    message: str
    path: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "path": self.path, "message": self.message}

    def __str__(self) -> str:
        return f"{self.path}: {self.message} [{self.code}]"


def reject(code: str, path: str, codes: Mapping[str, str] = CODES, **values: Any) -> Rejection:
    """Build a :class:`Rejection` from the catalogue ``codes``; an unknown code is a bug.
    A long text among ``values`` (a name as the file gives it) is clipped (:func:`~pbem.errors.clip`)."""
    shown = {k: clip(v, 200) if isinstance(v, str) else v for k, v in values.items()}
    return Rejection(code, codes[code].format(**shown), path)


def fields(template: str) -> set[str]:
    """The names of the values a message template uses."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def catalogue(extra: Mapping[str, str], wording: Mapping[str, str] = MappingProxyType({})) -> dict[str, str]:
    """The kernel's codes with an edition's own (``extra``) and its words for kernel codes
    (``wording``). An edition may not redefine a kernel code, nor word a code the kernel does
    not have, nor use a value the kernel does not pass with that code."""
    clash = sorted(set(extra) & set(CODES))
    if clash:
        raise ValueError(f"rejection codes defined twice: {', '.join(clash)}")
    unknown = sorted(set(wording) - set(CODES))
    if unknown:
        raise ValueError(f"words for codes the kernel does not have: {', '.join(unknown)}")
    extra_values = sorted(code for code, text in wording.items() if not fields(text) <= fields(CODES[code]))
    if extra_values:
        raise ValueError(f"words that use values the kernel does not pass: {', '.join(extra_values)}")
    return {**CODES, **wording, **extra}
