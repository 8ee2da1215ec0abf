"""Property tests: random legal self-play of every edition, every invariant after every turn.

Hypothesis draws an edition's board (classic Antike and the test plug-in edition ninefold,
each on the East and the West board; Antike II on Mare Nostrum and, with 3 nations, on the
Orient excerpt of tests/data/boards; Antike Duellum's two nations on its Rome/Carthage side
and on the Aegean excerpt), the nations (3-6, Duellum 2) and their seats, a seed, a variant
and, entry by entry, one of the legal ways to go on: the player's order file (the GM's
default turn, a target or the template ``antike-ref options`` shows as legal, the random
or greedy bot, a rondel target filled in with drawn randomness, or a military turn:
conquer, march on rival cities, arm), the GM's default turn or a bot the GM lets play; sometimes the orders trade, spell
out every payment as the referee's own echo does (with the keys of every object in
reverse order), change standing orders or come by mail; sometimes a nation sends a
standing-orders-only file, or the GM edits the game (never the bank: the conservation laws
still hold).

Each history entry goes the way ``antike-ref process`` takes it: the game is loaded from
the text of the file, the orders are played, the next file's text is written and the
reports of the new entry are rendered. After every entry (:meth:`Run._next`):

* the file matches its edition's game schema, loads back (consistency) and writes back
  byte for byte;
* the same orders played again on the same game give the same bytes, and playing them
  does not change the game they were played on;
* the edition's conservation laws hold, with the numbers of the game's own rule table
  (coins, temples with Antike II's neutral ones, personage cards in stock and held with
  Pliny's ninth scholar, each nation's legions and galleys on the board and in stock under
  each unit's own cap, city stones; Duellum's units in the recruitment boxes, town walls,
  city tokens and every event card in exactly one place), and nothing is negative.

Every :data:`CHECK_EVERY` entries and at the end (:meth:`Run.check_history`): ``verify``
passes, and every report rendered again from the history, as ``antike-ref render`` does
it, is byte for byte the report ``process`` wrote. One short game goes through the real
command line, every format included (:func:`test_cli_render_reproduces_process_reports`).
``bench/soak_properties.py`` runs the same checks over long games.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT
from pbem import editions
from pbem.errors import PbemError, Refused
from pbem.kernel import queries
from pbem.kernel.orders import canonical_edit, canonical_orders
from pbem.kernel.setup import SetupOptions
from pbem.kernel.turn import merge_standing, resolve
from pbem.kernel.vocab import RESOURCES, UNITS
from pbem.play.bot import build_turn, play_turn
from pbem.play.options import options
from pbem.play.selfplay import conservation_problems as edition_conservation
from pbem.report import prepare, report_name
from pbem.service import turns
from pbem.service.boards import load_board, load_map_file
from pbem.service.creation import new_game
from pbem.service.game import consistency_problems
from pbem.service.passwords import MIN_ITERATIONS
from pbem.service.replay import game_after, replayed, verify
from pbem.service.schemas import problems
from pbem.service.store import game_from_data, game_text
from tests.editions import ninefold

NINEFOLD = ninefold.EDITION.id

settings.register_profile(
    "antike-properties-ci",
    derandomize=True,
    max_examples=10,
    deadline=None,
    print_blob=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""The fixed CI profile: the same examples on every run (no database, derandomized)."""
CI = settings.get_profile("antike-properties-ci")

CONFIGS = [("antike", "antike-east"), ("antike", "antike-west"),
           (NINEFOLD, "antike-east"), (NINEFOLD, "antike-west"),
           ("antike2", "antike2-mare-nostrum"), ("antike2", "antike2-orient-excerpt"),
           ("duellum", "duellum-rome-carthage"), ("duellum", "duellum-aegean-excerpt")]
"""Every edition on every board it plays on."""
EXAMPLES = {(NINEFOLD, "antike-east"): 5, (NINEFOLD, "antike-west"): 5,
            ("antike2", "antike2-mare-nostrum"): 7, ("antike2", "antike2-orient-excerpt"): 5,
            ("duellum", "duellum-rome-carthage"): 5, ("duellum", "duellum-aegean-excerpt"): 4}
"""Examples per configuration where fewer than the profile's keep the file's run time (the
soak plays every configuration at length)."""
BOARD_FILES = {"antike2-orient-excerpt": ROOT / "tests" / "data" / "boards" / "antike2-orient-excerpt.json",
               "duellum-aegean-excerpt": ROOT / "tests" / "data" / "boards" / "duellum-aegean-excerpt.json"}
"""Boards that are not shipped (``new --board FILE``): id -> map file."""
VARIANTS: dict[str, list[tuple[str, ...]]] = {
    "antike": [(), ("expert",), ("military",), ("longer",)],
    NINEFOLD: [()],
    "antike2": [(), ("nine_scholars",), ("free_city_types",)],
    "duellum": [(), ("special_units",), ("hidden_draws",)],
}
FAST_FORMATS = ("svg", "txt", "md", "bbcode")
"""The formats compared in-process; PNG and PDF (drawn from the SVG, slow) only by the CLI test."""
MAX_TURNS = 36
CHECK_EVERY = 12
"""History entries between two ``verify`` and render checks during a game."""
KINDS = ("default", "option", "target", "random", "greedy", "military", "military")
"""How a turn is chosen; hypothesis shrinks towards the first (the GM's default turn)."""
AUTHORS = ("player", "player", "player", "player", "gm", "random", "greedy")
"""Who plays a turn: the player's order file, or the GM (default turn, a bot)."""
STANCES = ("always", "never", "home")
SUBSTITUTES = ("lowest", "marble", "iron", "gold")


# -- the invariants --------------------------------------------------------------------------

def conservation_problems(game) -> list[str]:
    """What breaks the edition's conservation laws or goes below zero; the numbers come
    from the game's own rule table (:meth:`Edition.rules_for`)."""
    st_, edition = game.state, game.edition
    rules = edition.rules_for(st_.table)
    out = []
    coins = st_.bank.coins + sum(ns.coins for ns in st_.nations.values())
    if coins != rules.bank_coins:
        out.append(f"coins: {coins} in play, the rules have {rules.bank_coins}")
    # Antike II's neutral temples come from the same stock (003 L184, L365)
    temples = st_.bank.temples + sum(1 for p in st_.provinces.values() if p.temple or p.extra.get("neutral_temple"))
    if temples != rules.bank_temples:
        out.append(f"temples: {temples} in play, the rules have {rules.bank_temples}")
    for p, stack in rules.personage_stacks.items():
        held = st_.bank.personages[p] + sum(ns.personages[p] for ns in st_.nations.values())
        if held != stack:
            out.append(f"{p} cards: {held} in stock and held, the rules have {stack}")
        if st_.bank.personages[p] < 0:
            out.append(f"{p} cards: {st_.bank.personages[p]} in the bank")
    if st_.bank.coins < 0 or st_.bank.temples < 0:
        out.append(f"bank below zero: {st_.bank.coins} coins, {st_.bank.temples} temples")
    for n, ns in st_.nations.items():
        for r in RESOURCES:
            if ns.resources[r] < 0:
                out.append(f"{n} hold {ns.resources[r]} {r}")
        if ns.coins < 0:
            out.append(f"{n} hold {ns.coins} coins")
        for p, k in ns.personages.items():
            if k < 0 or ns.earned.get(p, 0) < 0:
                out.append(f"{n} hold {k} {p} cards (earned {ns.earned.get(p)})")
        for u in UNITS:
            board = st_.units_on_board(n, u)
            stock = queries.stock(st_, edition, n, u)
            reserve = edition.forces.reserve(st_, n, u)  # Duellum's recruitment box
            if stock < 0 or board + reserve + stock != rules.cap(u):
                out.append(f"{n} {u}s: {board} on the board, {reserve} in reserve and {stock} in stock, "
                           f"the rules have {rules.cap(u)}")
        cities = len(st_.cities(n))
        if cities > rules.city_stones:
            out.append(f"{n} own {cities} cities, more than their {rules.city_stones} city stones")
    for pid, prov in st_.provinces.items():
        for n, counts in prov.units.items():
            if any(c < 0 for c in counts.values()):
                out.append(f"{pid}: {n} units {counts}")
    out += edition_conservation(game)  # what the edition adds (a box, walls, cards)
    return out


def _negatives(value: Any, path: str = "$") -> list[str]:
    """Every number below zero in a JSON value."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [f"{path} is {value}"] if value < 0 else []
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _negatives(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _negatives(v, f"{path}[{i}]")]
    return []


def file_problems(text: str, edition) -> tuple[Any, list[str]]:
    """Load a game file's text as ``process`` and ``render`` do; return the game and what is
    wrong with the file: its schema, its consistency, its round trip, negative numbers."""
    data = json.loads(text)
    out = [f"schema: {p}" for p in problems("game", data, edition)]
    if out:
        return None, out
    try:
        game = game_from_data(data, "game file")
    except PbemError as exc:
        return None, [f"it does not load: {exc}"]
    out += [f"consistency: {p}" for p in consistency_problems(game)]
    if game_text(game) != text:
        out.append("the file does not write back byte for byte")
    out += [f"negative: {p}" for k in ("state", "status", "standing") for p in _negatives(data.get(k), f"$.{k}")]
    played = sum(1 for e in game.history if e.get("kind") in turns.TURN_KINDS)
    if game.state.status.turn != played + 1:
        out.append(f"status.turn is {game.state.status.turn} after {played} turns")
    return game, out


def reports_of(game, index: int, formats) -> dict[str, bytes]:
    """The reports of history entry ``index`` of ``game`` (whose history ends there), as
    ``process`` writes them for its latest entry (``write_latest``)."""
    assert index == len(game.history) - 1
    report = prepare(game, entry=index)
    return {fmt: report.render(fmt) for fmt in formats}


def _reversed(value: Any) -> Any:
    """A JSON value with the keys of every object in reverse order (JSON does not care)."""
    if isinstance(value, dict):
        return {k: _reversed(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed(v) for v in value]
    return value


class InvariantBroken(AssertionError):
    """An invariant failed after a history entry."""


class Run:
    """One game played entry by entry as the referee's commands play it, checked all along."""

    def __init__(self, edition: str, board: str, nations: list[str], seed: str,
                 variants: tuple[str, ...] = (), formats=FAST_FORMATS, goal: int | None = None):
        self.plain = {n: f"pw-{n}" for n in nations}
        opts = SetupOptions(game_id="prop", board=board, nations=list(nations), variants=list(variants),
                            seed=seed, goal=goal)
        created, _ = new_game(editions.get(edition), opts, board_of(board), self.plain,
                              iterations=MIN_ITERATIONS)
        self.edition = created.edition
        self.formats = formats
        self.label = f"{edition} on {board}, {','.join(nations)}, seed {seed!r}, variants {list(variants)}"
        self.reports: dict[int, dict[str, bytes]] = {}
        self.compared = 0
        """History entries below this were compared with a replay's rendering already."""
        self.entries = 0
        self.turns = 0
        self.text = ""
        self.game = None
        self._accept(created)

    def fail(self, what: str, problems_: list[str]) -> None:
        if problems_:
            shown = "\n  ".join(problems_[:12])
            raise InvariantBroken(f"{self.label}, after history entry {self.entries}: {what}:\n  {shown}")

    @property
    def over(self) -> bool:
        return self.game.state.status.winner is not None

    def _accept(self, new, text: str | None = None) -> None:
        """``new`` is the game ``process`` (or ``new``) just made (``text``: its file): save
        it, load it back, check it, and keep the reports it wrote."""
        index = len(new.history) - 1
        self.entries = index
        self.text = text if text is not None else game_text(new)
        self.reports[index] = reports_of(new, index, self.formats)
        self.game, found = file_problems(self.text, self.edition)
        self.fail("the game file", found)
        self.fail("conservation", conservation_problems(self.game))

    def send(self, orders: dict[str, Any], author: str = "player", notes: dict[str, Any] | None = None) -> None:
        """Process an order file (without password: the nation's is added): a player's
        (``process``), the GM's default turn (``gm``, ``default-turn``) or a bot's the GM
        lets play (``random`` or ``greedy``, ``bot --apply``); ``notes`` as the mail
        cycle records them (the Message-ID of the mail)."""
        data = {**orders, "password": self.plain[orders["nation"]]}
        self.fail("the order file", [f"schema: {p}" for p in problems("orders", data, self.edition)])
        if author == "gm":
            def make(game, data):
                return turns.default_turn(game, data["nation"], notes)[0]
        else:
            who = turns.PLAYER if author == "player" else turns.bot(author)

            def make(game, data):
                return turns.play(game, canonical_orders(data, self.edition), who, notes)[0]
        self._next(lambda game: make(game, json.loads(json.dumps(data))), lambda game: make(game, data))

    def gm_edit(self, change: dict[str, Any]) -> None:
        """Apply a GM edit file (``gm-edit``)."""
        self.fail("the edit file", [f"schema: {p}" for p in problems("edit", change, self.edition)])
        self._next(lambda game: turns.edit(game, canonical_edit(json.loads(json.dumps(change)), self.edition)),
                   lambda game: turns.edit(game, canonical_edit(change, self.edition)))

    def _next(self, make, again) -> None:
        """The next history entry, made twice from the game as loaded from its file."""
        game = self.game
        new = make(game)
        text = game_text(new)
        self.fail("the same orders played twice", ["two different files"] if game_text(again(game)) != text else [])
        self.fail("the orders changed the game they were played on",
                  ["it changed"] if game.to_json() != json.loads(self.text) else [])
        if new.history[-1]["kind"] in turns.TURN_KINDS:
            self.turns += 1
        self._accept(new, text)

    def check_history(self) -> None:
        """``verify`` passes, and every report rendered again equals what process wrote."""
        raw = json.loads(self.text)
        loaded = game_from_data(raw, "game file")
        verify(loaded, raw)
        last = len(loaded.history) - 1
        found = []
        for i, at in enumerate(replayed(loaded, last)):
            if i == last:
                found += self._compare(i, loaded, "rendered from the file")
            if i >= self.compared:
                found += self._compare(i, at, "rendered from a replay")
        self.compared = last + 1
        self.fail("render differs from process", found)

    def _compare(self, index: int, at, how: str) -> list[str]:
        out = []
        again = reports_of(at, index, self.formats)
        entry = at.history[-1]
        own = None if entry["kind"] in ("new", *turns.TURN_KINDS) else index
        for fmt, written in self.reports[index].items():
            if again[fmt] != written:
                out.append(f"{report_name('prop', entry.get('turn', 0), fmt, own)} (entry {index}, {how}): "
                           + _first_difference(written, again[fmt]))
        return out


def _first_difference(a: bytes, b: bytes) -> str:
    la, lb = a.decode("utf-8", "replace").splitlines(), b.decode("utf-8", "replace").splitlines()
    for x, y in zip(la, lb):
        if x != y:
            return f"process wrote {x.strip()!r}, render gives {y.strip()!r}"
    return f"{len(la)} lines written, {len(lb)} rendered"


# -- drawing the turns ------------------------------------------------------------------------

def board_of(board: str):
    """A shipped board by its id, or one of :data:`BOARD_FILES`."""
    return load_map_file(BOARD_FILES[board]) if board in BOARD_FILES else load_board(board)


def board_nations(board: str) -> dict[int, list[str]]:
    """The nations a board seats, by their number (its file's ``nations``)."""
    path = BOARD_FILES.get(board, ROOT / "maps" / f"{board}.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    return {int(k): v for k, v in data["nations"].items()}


class Draw:
    """Where a game's choices come from: hypothesis (``data``: every choice shrinks towards
    the first option, the smallest number, no shuffle) or, for the soak, a seeded ``rng``."""

    def __init__(self, data=None, rng: random.Random | None = None):
        self.data, self.rng = data, rng

    def pick(self, choices, label: str):
        choices = list(choices)
        if self.data is not None:
            return self.data.draw(st.sampled_from(choices), label=label)
        return self.rng.choice(choices)

    def integer(self, low: int, high: int, label: str) -> int:
        if self.data is not None:
            return self.data.draw(st.integers(low, high), label=label)
        return self.rng.randint(low, high)

    def shuffled(self, items, label: str) -> list:
        if self.data is not None:
            return list(self.data.draw(st.permutations(list(items)), label=label))
        return self.rng.sample(list(items), len(items))

    def some(self, items, most: int, label: str) -> list:
        """Up to ``most`` different items."""
        if self.data is not None:
            return self.data.draw(st.lists(st.sampled_from(list(items)), unique=True, max_size=most), label=label)
        return self.rng.sample(list(items), self.rng.randint(0, min(most, len(items))))

    def flag(self, one_in: int, label: str) -> bool:
        """True about once in ``one_in`` draws (it shrinks to false)."""
        return self.integer(0, one_in - 1, label) == one_in - 1


def standing_change(draw: Draw, game, nation: str) -> dict[str, Any]:
    """A change to ``nation``'s standing orders: battle stances, bonus stack, coin substitute;
    in Duellum also FORTRESS and the cards drawn first."""
    rivals = [n for n in game.state.table.turn_order() if n != nation]
    change: dict[str, Any] = {}
    if "draw" in game.edition.extras.standing and draw.flag(2, "duellum standing"):
        from pbem.editions.duellum import cards

        change["fortress"] = draw.pick(("always", "never"), "fortress")
        change["draw"] = draw.some(sorted(set(cards.deck_of(game.state.table))), 4, "cards")
    if draw.flag(2, "battle stance"):
        if draw.flag(2, "bare stance"):
            change["battle"] = draw.pick(STANCES, "stance")
        else:
            battle = {"default": draw.pick(STANCES, "stance")}
            for rival in draw.some(rivals, 2, "rivals"):
                battle[rival] = draw.pick(STANCES, "stance")
            change["battle"] = battle
    if draw.flag(2, "bonus stack"):
        change["bonus_stack"] = draw.shuffled(game.edition.personages, "stack")
    if not change or draw.flag(2, "coin substitute"):
        change["coin_substitute"] = draw.pick(SUBSTITUTES, "substitute")
    return change


def draw_orders(draw: Draw, game) -> dict[str, Any]:
    """Legal orders (without password) for the active nation of ``game``."""
    nation = game.state.status.active
    kind = draw.pick(KINDS, "how")
    orders = None
    targets = [t for t in queries.rondel_targets(game.state, game.edition, nation) if t.affordable]
    if kind in ("random", "greedy"):
        orders = play_turn(game, kind)
    elif kind == "option":
        # What ``antike-ref options`` shows as legal is accepted: a target with the payment
        # it names, or the order-file template.
        shown = options(game)
        legal = [t for t in shown["targets"] if t["legal"]]
        if legal and not draw.flag(4, "template"):
            target = draw.pick(legal, "option")
            move = {**target["rondel"], "pay": target["pay"]} if target["cost"] else target["rondel"]
            orders = {"game": game.game_id, "nation": nation, "turn": game.state.status.turn, "rondel": move}
        else:
            orders = {k: v for k, v in shown["template"].items() if k != "password"}
    elif kind == "target" and targets:
        target = draw.pick(targets, "target")
        rng = random.Random(draw.integer(0, 2**32 - 1, "rng"))
        eager = draw.pick((1.0, 0.5, 0.0), "eager")
        orders = build_turn(game, target.order, rng, eager, draw.flag(2, "attack"))
    elif kind == "military":
        # War: on a MANEUVER wedge conquer what can be taken and march the rest towards the
        # nearest rival cities; on ARMING arm all that may be armed.
        key = draw.pick(("maneuver", "arm"), "war")
        fitting = [t for t in targets if key in game.edition.rondel[t.index].action.keys]
        if fitting:
            target = draw.pick(fitting, "target")
            rng = random.Random(draw.integer(0, 2**32 - 1, "rng"))
            orders = build_turn(game, target.order, rng, 1.0 if key == "arm" else 0.0, greedy=True, march=True)
    if orders is None:
        orders = queries.default_orders(game.state, game.edition, game.board, nation)
    rates, problem = game.edition.turn.trade_rates(game.state, nation)
    if problem is None and rates and draw.flag(2, "trade"):
        orders = with_trade(draw, game, orders, rates)
    if draw.flag(3, "spelt out"):
        # The referee's echo spells out every payment and choice it made: sent back as an
        # order file, with every object's keys in another order, it must do the same.
        orders = _reversed(resolve(game.state, orders, game.edition, game.board).echo)
    if draw.flag(6, "standing with the turn"):
        orders = {**orders, "standing": standing_change(draw, game, nation)}
    return orders


def with_trade(draw: Draw, game, orders: dict[str, Any], rates: dict[int, int]) -> dict[str, Any]:
    """``orders`` with trades first at one of the nation's ``rates`` (chips given -> chips
    received: classic 2 for 1; Antike II's MERCATURA 2 for 1, COMMERCIUM 3 for 2;
    docs/orders.md), when the rules take them."""
    trades = []
    for _ in range(draw.integer(1, 2, "trades")):
        give_n, get_n = draw.pick(sorted(rates.items()), "rate")
        give: dict[str, int] = {}
        for _ in range(give_n):
            chip = draw.pick(RESOURCES, "give")
            give[chip] = give.get(chip, 0) + 1
        if get_n == 1:
            trades.append({"give": give, "get": draw.pick([r for r in RESOURCES if r not in give] or RESOURCES,
                                                          "get")})
        else:
            got: dict[str, int] = {}
            for _ in range(get_n):
                chip = draw.pick(RESOURCES, "get")
                got[chip] = got.get(chip, 0) + 1
            trades.append({"give": give, "get": got})
    trial = {**orders, "trade": trades}
    try:
        resolve(game.state, trial, game.edition, game.board)
    except Refused:
        return orders
    return trial


def draw_gm_edit(draw: Draw, game) -> dict[str, Any] | None:
    """Sometimes a GM edit that keeps the conservation laws (pieces move from and to the
    bank with it; the bank itself is never set): chips, coins, a rondel stone, units in a
    province, a temple, standing orders, in Duellum a hand's cards; ``None`` when the rules
    refuse it (a cap)."""
    if not draw.flag(24, "gm edit"):
        return None
    st_ = game.state
    order = st_.table.turn_order()
    nation = draw.pick(order, "nation")
    ns = st_.nations[nation]
    kinds = ("resources", "coins", "rondel", "units", "temple", "standing")
    if game.edition.id == "antike2":
        kinds += ("neutral_temple", "resource", "bellona")
    if game.edition.id == "duellum":
        kinds += ("resource", "wall", "walls_supply", "recruitment", "hand")
    what = draw.pick(kinds, "edit")
    if what == "resources":
        chips = draw.some(RESOURCES, 3, "chips") or [draw.pick(RESOURCES, "chip")]
        edit = {"nation": nation, "resources": {r: draw.integer(0, 12, r) for r in chips}}
    elif what == "coins":
        edit = {"nation": nation, "coins": draw.integer(0, ns.coins + st_.bank.coins, "coins")}
    elif what == "rondel":
        edit = {"nation": nation, "rondel": draw.integer(0, len(game.edition.rondel) - 1, "wedge")}
    elif what == "units":
        pid = draw.pick(sorted(game.board.provinces), "province")
        prov = game.board.province(pid)
        counts = {u: draw.integer(0, 3, u) if prov.neighbours(u) else 0 for u in UNITS}
        held = st_.provinces[pid].units if pid in st_.provinces else {}
        # a special unit (Duellum's variant) stays where it is: it has no supply to go back to
        counts = {**{u: n for u, n in held.get(nation, {}).items() if u not in UNITS}, **counts}
        edit = {"province": pid, "units": {**{n: dict(c) for n, c in held.items()}, nation: counts}}
    elif what == "temple":
        cities = st_.cities(nation)
        if not cities:
            return None
        city = draw.pick(cities, "city")
        edit = {"province": city, "temple": not st_.provinces[city].temple}
    elif what == "neutral_temple":
        # a neutral temple put up where no city stands, or taken down (from and to the bank)
        sites = sorted(p for p in game.board.provinces if game.board.province(p).site != "none"
                       and (p not in st_.provinces or st_.provinces[p].owner is None))
        if not sites:
            return None
        pid = draw.pick(sites, "site")
        edit = {"province": pid, "neutral_temple": not queries.neutral_temple(st_, pid)}
    elif what == "resource":
        cities = st_.cities(nation)
        if not cities:
            return None
        # Duellum: every city but the start cities stands on a choice site and needs one
        kinds_ = RESOURCES if game.edition.id == "duellum" else [*RESOURCES, None]
        edit = {"province": draw.pick(cities, "city"), "resource": draw.pick(kinds_, "type")}
    elif what == "bellona":
        edit = {"bellona": draw.pick(order, "holder")}
    elif what == "wall":
        cities = st_.cities(nation)
        if not cities:
            return None
        city = draw.pick(cities, "city")
        edit = {"province": city, "wall": not st_.provinces[city].extra.get("wall")}
    elif what == "walls_supply":
        edit = {"nation": nation, "walls_supply": draw.integer(0, 6, "walls")}
    elif what == "recruitment":
        # units into or out of the box from the supply (refused beyond the 12 of a type);
        # a special unit stays
        box = {u: n for u, n in ns.extra["recruitment"].items() if u not in UNITS}
        edit = {"nation": nation, "recruitment": {**box, **{u: draw.integer(0, 4, u) for u in UNITS}}}
    elif what == "hand":
        # Duellum: a card given to the hand comes out of the display, the deck or the
        # discards, a card taken away goes to the discards (every card stays in one place)
        held = list(ns.extra["hand"])
        free = sorted({*st_.extra["display"], *st_.extra["deck"], *st_.extra["discards"]})
        if held and draw.flag(2, "take a card"):
            edit = {"nation": nation, "hand": held[1:]}
        elif free:
            edit = {"nation": nation, "hand": [*held, draw.pick(free, "card")]}
        else:
            return None
    else:
        edit = {"nation": nation, "standing": standing_change(draw, game, nation)}
    change = {"game": game.game_id, "reason": f"property test: {what} of {nation}", "edits": [edit]}
    try:
        turns.edit(game, canonical_edit(change, game.edition))
    except Refused:
        return None
    return change


def draw_standing_only(draw: Draw, game) -> dict[str, Any] | None:
    """Sometimes a standing-orders-only file from any nation, between two turns."""
    if not draw.flag(8, "standing-only file"):
        return None
    nation = draw.pick(game.state.table.turn_order(), "sender")
    # The turn it is written for: the same change sent again in a later turn is a new
    # file (a standing-orders file is applied at most once: standing/already-applied).
    orders = {"game": game.game_id, "nation": nation, "turn": game.state.status.turn,
              "standing": standing_change(draw, game, nation)}
    # a file that changes nothing is refused (standing/nothing-to-change): not sent
    after = game.state.standing[nation].copy()
    merge_standing(after, canonical_orders(orders, game.edition).get("standing", {}))
    return orders if after.to_json() != game.state.standing[nation].to_json() else None


def drawn_run(draw: Draw, edition: str, board: str) -> Run:
    """A new game of ``edition`` on ``board`` with drawn nations, seats, seed and variant."""
    seats = board_nations(board)
    count = draw.integer(min(seats), max(seats), "nations")
    lineup = draw.shuffled(seats[count], "seats")
    seed = f"s{draw.integer(0, 10**6, 'seed')}"
    return Run(edition, board, lineup, seed, draw.pick(VARIANTS[edition], "variants"))


def play_on(draw: Draw, run: Run, length: int, check_every: int = CHECK_EVERY) -> Run:
    """Play drawn turns until ``length`` turns are played or a nation wins, checked all along."""
    while run.turns < length and not run.over:
        extra = draw_standing_only(draw, run.game)
        if extra is not None:
            run.send(extra)
        change = draw_gm_edit(draw, run.game)
        if change is not None:
            run.gm_edit(change)
        author = draw.pick(AUTHORS, "author")
        if author == "player":
            orders = draw_orders(draw, run.game)
        elif author == "gm":
            orders = queries.default_orders(run.game.state, run.game.edition, run.game.board,
                                            run.game.state.status.active)
        else:
            orders = play_turn(run.game, author)
        notes = {"mail": f"<{run.entries + 1}.{run.turns}@prop.invalid>"} if draw.flag(4, "by mail") else None
        run.send(orders, author, notes)
        if run.entries >= run.compared + check_every:
            run.check_history()
    run.check_history()
    return run


# -- the tests --------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("edition,board", CONFIGS, ids=[f"{e}-{b}" for e, b in CONFIGS])
def test_random_legal_play_keeps_every_invariant(edition, board):
    @settings(CI, max_examples=EXAMPLES.get((edition, board), CI.max_examples))
    @given(data=st.data())
    def play(data):
        draw = Draw(data)
        run = drawn_run(draw, edition, board)
        play_on(draw, run, draw.integer(1, MAX_TURNS, "turns"))

    play()


def test_every_edition_is_played():
    """The configurations cover every registered edition on every board it plays on."""
    played = {e for e, _ in CONFIGS}
    assert {e.id for e in editions.registered()} <= played
    for edition, board in CONFIGS:
        assert board_of(board).edition in (edition, *editions.get(edition).board_editions)
    assert set(VARIANTS["antike2"]) == {()} | {(v,) for v in editions.get("antike2").variants}
    assert set(VARIANTS["duellum"]) == {()} | {(v,) for v in editions.get("duellum").variants}


@pytest.mark.slow
@pytest.mark.parametrize("board", ["antike-east", "antike-west"])
def test_games_played_to_the_end_still_hold(board):
    """Through the end of a game: ninefold played to a goal of one personage (its table may
    choose any goal), greedy bots; then a standing-orders file is refused, and the finished
    game verifies and renders as it was written."""
    run = Run(NINEFOLD, board, board_nations(board)[4], "end", goal=1)
    while not run.over:
        run.send(play_turn(run.game, "greedy"))
    run.check_history()
    assert run.game.history[-1]["events"][-1]["type"] == "won"
    with pytest.raises(Refused):
        run.send({"game": "prop", "nation": run.game.state.status.active, "standing": {"battle": "never"}})


# -- the command line: process writes, render rewrites, byte for byte ---------------------------

def _cli(*args: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("antike-ref")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "pbem"]
    env = {**os.environ, "ANTIKE_REF_KDF_ITERATIONS": "1000"}
    done = subprocess.run([*cmd, *args], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


@pytest.mark.slow
def test_cli_render_reproduces_process_reports(tmp_path):
    """A short game through the real commands: ``render --turn N`` (``--entry N`` for a
    standing-orders change and a GM edit) writes exactly the files ``new``, ``process`` and
    ``gm-edit`` wrote. PNG and
    PDF (slow) for the set-up and the last turn, the other formats for every entry."""
    game_file, written, again = tmp_path / "cli.json", tmp_path / "written", tmp_path / "again"
    nations = ["greeks", "persians", "arabs"]
    pw = [a for n in nations for a in ("--password", f"{n}=pw-{n}")]
    _cli("new", str(game_file), "--nations", ",".join(nations), "--seed", "cli-prop", *pw,
         "--report-dir", str(written), "--format", "all")
    rng = random.Random(3)
    steps = 5
    for step in range(steps):
        game = game_from_data(json.loads(game_file.read_text(encoding="utf-8")), "cli")
        nation = game.state.status.active
        if step == 3:
            edit = tmp_path / "edit.json"
            edit.write_text(json.dumps({"game": game.game_id, "reason": "a property test's correction", "edits": [
                {"nation": nation, "resources": {"gold": 4, "marble": 1}, "coins": 2},
                {"province": game.state.cities(nation)[0], "temple": True}]}), encoding="utf-8")
            _cli("gm-edit", str(game_file), str(edit), "--report-dir", str(written), "--format", "svg,txt,md,bbcode")
            continue
        if step == 1:
            orders = {"game": game.game_id, "nation": nation, "turn": game.state.status.turn,
                      "standing": {"bonus_stack": list(reversed(game.edition.personages)), "battle": "always"}}
        elif step == 2:
            # the referee's own echo, every payment spelt out, keys in reverse order
            orders = _reversed(resolve(game.state, play_turn(game, "greedy"), game.edition, game.board).echo)
        else:
            orders = build_turn(game, {"to": "arming"}, rng, 1.0) or play_turn(game, "random")
        path = tmp_path / f"orders-{step}.json"
        path.write_text(json.dumps({**orders, "password": f"pw-{nation}"}), encoding="utf-8")
        formats = "all" if step == steps - 1 else "svg,txt,md,bbcode"
        _cli("process", str(game_file), str(path), "--report-dir", str(written), "--format", formats)
    final = game_from_data(json.loads(game_file.read_text(encoding="utf-8")), "cli")
    for i, entry in enumerate(final.history):
        which = ["--turn", str(entry.get("turn", 0))] if entry["kind"] in ("new", *turns.TURN_KINDS) \
            else ["--entry", str(i)]
        formats = "all" if i in (0, len(final.history) - 1) else "svg,txt,md,bbcode"
        _cli("render", str(game_file), *which, "--out", str(again), "--format", formats)
    names = sorted(p.name for p in written.iterdir())
    assert names == sorted(p.name for p in again.iterdir())
    assert len(names) == 6 * 2 + 4 * (len(final.history) - 2)
    assert len([n for n in names if "-entry-" in n]) == 2 * 4
    differ = [n for n in names if (written / n).read_bytes() != (again / n).read_bytes()]
    assert differ == []
    _cli("verify", str(game_file))


# -- regressions: what the properties found, pinned down --------------------------------------

def _process_and_render(game):
    """The txt report ``process`` wrote for ``game``'s latest entry, and the one ``render``
    gives for it from the saved file, now and after one more turn (replayed then)."""
    index = len(game.history) - 1
    written = reports_of(game, index, ["txt"])["txt"]
    loaded = game_from_data(json.loads(game_text(game)), "game file")
    from_file = reports_of(loaded, index, ["txt"])["txt"]
    later, _ = turns.default_turn(loaded, loaded.state.status.active)
    replayed_ = list(replayed(game_from_data(json.loads(game_text(later)), "later"), index))[-1]
    return written, from_file, reports_of(replayed_, index, ["txt"])["txt"]


def test_a_conquest_with_legions_and_galleys_reads_the_same_when_rendered_again():
    """Found by the soak: a conquest with both unit types read "using 1 legion, 1 galley"
    when processed and "using 1 galley, 1 legion" when rendered from the file (whose keys are
    sorted), and the other way round in the next player's report. Units are named in the
    vocabulary's order (legions first), whatever the order of the event's keys."""
    from conftest import maneuver, position

    g = position({"province": "tyros", "owner": "arabs", "units": {"arabs": {"legion": 1},
                  "phoenicians": {"legion": 2, "galley": 1}}})
    g, _ = maneuver(g, {"conquer": "tyros", "with": {"galley": 1, "legion": 1}})
    written, from_file, from_replay = _process_and_render(g)
    assert "using 1 legion, 1 galley" in written.decode()
    assert written == from_file == from_replay


def test_the_demo_payment_reads_as_process_wrote_it():
    """The known bug of the demo's turn 16: process wrote "(paid: 1 iron, 2 coins)" (the
    payment as the rules made it), render read the entry back from the file, whose keys are
    sorted, and wrote "(paid: 2 coins, 1 iron)". A payment is told chips first, coins last
    (``report.text._pay``), whichever way the entry was reached. Played here from the 0.1.0
    demo file (tests/data/legacy) with the demo's own order file."""
    legacy = game_from_data(json.loads((ROOT / "tests" / "data" / "legacy" / "demo-16.json").read_text("utf-8")),
                            "demo-16.json")
    assert legacy.history[-1]["turn"] == 16
    before = game_after(legacy, len(legacy.history) - 2)
    orders = json.loads((ROOT / "demo" / "orders" / "16-persians.json").read_text("utf-8"))
    played, _ = turns.play(before, canonical_orders(orders, before.edition))
    assert played.history[-1]["events"] == legacy.history[-1]["events"]
    written, from_file, from_replay = _process_and_render(played)
    assert "Persians arm 3 legions in Artaxata (paid: 1 iron, 2 coins)" in written.decode()
    assert written == from_file == from_replay
