"""The whole game file in memory: the rules' state, who plays, the seed and the history.

:func:`game_from_json` checks consistency beyond the schema (caps, owners, whose turn)
and names the offending field; :meth:`Game.to_json` is deterministic and changes nothing.
The board is handed in by whoever reads the file (:mod:`pbem.service.store`): this
module reads no file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import InconsistentGame, Problem
from pbem.kernel.board import Board
from pbem.kernel.consistency import state_problems
from pbem.kernel.edition import Edition
from pbem.kernel.state import GameState, Table
from pbem.service import history
from pbem.service.history import history_problems

_CHANGING = ("history", "state", "status", "standing_orders")
"""The parts of a game file that change from entry to entry (the others only with the
players' identities, which :meth:`Game.snapshot_bytes` compares)."""
_KEPT: tuple = ()
"""The last game's fixed parts, as :meth:`Game.snapshot_bytes` wrote them."""

_KEYS: dict[str, bytes] = {}
"""Object keys as canonical JSON texts with their colon (province ids, part names)."""


def _object(parts: dict[str, bytes]) -> bytes:
    """The canonical JSON object whose members are ``parts`` (each value already canonical)."""
    keys = _KEYS
    try:
        return b"{" + b",".join([keys[key] + parts[key] for key in sorted(parts)]) + b"}"
    except KeyError:
        for key in parts:
            if key not in keys:
                keys[key] = history.canonical_bytes(key) + b":"
        return _object(parts)


def _province_bytes(prov) -> bytes:
    """A province's canonical JSON; empty for an empty province (left out of the file)."""
    return b"" if prov.is_empty() else history.part_bytes(prov.to_json())


def _nation_bytes(held) -> bytes:
    return history.part_bytes(held.to_json())


def _standing_bytes(standing) -> bytes:
    return history.part_bytes(standing.to_json())


class _Members:
    """The canonical JSON object of a mapping of read-only state objects (provinces,
    nations, standing orders), rebuilt from the one it wrote last: only the members that
    are not the very same objects as then are written again (each once, :meth:`kept`)."""

    def __init__(self, make):
        self.make = make
        self.objects: dict[str, Any] = {}
        self.texts: dict[str, bytes] = {}
        self.order: list[str] = []
        self.whole = b"{}"

    def __call__(self, mapping: dict[str, Any]) -> bytes:
        objects = self.objects
        changed = [key for key, obj in mapping.items() if objects.get(key) is not obj]
        if not changed and len(mapping) == len(objects):
            return self.whole
        texts = dict(self.texts)
        for key in changed:
            texts[key] = mapping[key].kept(self.make)
        order = self.order
        if len(mapping) != len(objects) or any(key not in objects for key in changed):
            for key in [k for k in texts if k not in mapping]:
                del texts[key]
            order = sorted(texts)
        keys = _KEYS
        for key in changed:
            if key not in keys:
                keys[key] = history.canonical_bytes(key) + b":"
        # an empty text is a member left out of the file (an empty province)
        self.whole = b"{" + b",".join([keys[key] + texts[key] for key in order if texts[key]]) + b"}"
        self.objects, self.texts, self.order = dict(mapping), texts, order
        return self.whole


def _state_bytes(st: GameState) -> bytes:
    """The canonical JSON of :meth:`GameState.to_json`, writing again only the nations
    and provinces that changed since the state was last copied."""
    parts = {"bank": history.part_bytes(st.bank.to_json()),
             "nations": _NATIONS(st.nations),
             "provinces": _PROVINCES(st.provinces)}
    for key, value in st.extra.items():
        parts[key] = history.canonical_bytes(value)
    return _object(parts)


_PROVINCES, _NATIONS, _STANDING = _Members(_province_bytes), _Members(_nation_bytes), _Members(_standing_bytes)


FORMAT = 1
"""The game file format this release writes (``$.format``)."""
SCHEMA_ID = "https://antike-ref.invalid/schemas/game.schema.json"


@dataclass(slots=True)
class NationMeta:
    """Who plays a nation: public identity and the salted password hash."""

    player: str | None
    email: str | None
    colour: str
    password: str

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "email": self.email, "colour": self.colour,
                "password": self.password}


@dataclass(slots=True)
class Game:
    """A game file in memory."""

    state: GameState
    edition: Edition
    board: Board
    seed: str
    meta: dict[str, NationMeta]
    history: list[dict[str, Any]] = field(default_factory=list)
    source: str = field(default="", compare=False)
    origin: Any = field(default=None, compare=False, repr=False)
    """The history as the file it was read from wrote it (:class:`pbem.service.store.HistoryText`),
    so that saving it again writes only the entries added since; ``None`` for a game made
    in memory."""
    """The file the game was read from (named in messages); empty for a game made in memory."""
    copy_of: str | None = field(default=None, compare=False)
    """The nation whose player's copy this is (:mod:`pbem.service.copies`); ``None`` for the
    GM's game file."""

    @property
    def table(self) -> Table:
        return self.state.table

    @property
    def game_id(self) -> str:
        return self.state.table.game_id

    @property
    def seats(self) -> tuple[str, ...]:
        return self.state.table.seats

    @property
    def goal(self) -> int:
        return self.state.table.goal

    def turn_order(self) -> tuple[str, ...]:
        return self.state.table.turn_order()

    def score(self, nation: str, state: GameState | None = None) -> int:
        """What counts towards the goal (personages, or victory points), in ``state``
        (default: the game's own)."""
        return self.edition.turn.score(state or self.state, nation)

    def to_json(self) -> dict[str, Any]:
        return self._json(self.state.to_json())

    def snapshot_bytes(self) -> bytes:
        """The canonical JSON (:func:`pbem.service.history.canonical`) of what a history
        entry's hash covers: the game file without its history.

        With the fast encoder (a whole replay), the parts fixed for the game (its table,
        board, seed) and the players' identities are written once and kept, and only the
        state, status and standing orders are written for every entry; the bytes are the
        same either way (``tests/test_canonical.py``)."""
        st = self.state
        st.freeze()  # hashed into the history: final (the next turn works on a copy)
        if not history.fast():
            return history.canonical_bytes(history.snapshot(self.to_json()))
        global _KEPT
        who = tuple((n, m.player, m.email, m.colour, m.password) for n, m in sorted(self.meta.items()))
        kept = _KEPT
        if not (kept and kept[0] is st.table and kept[1] is self.board and kept[2] == self.seed and kept[3] == who):
            fixed = {key: history.canonical_bytes(value) for key, value in self._json(None).items()
                     if key not in _CHANGING}
            kept = _KEPT = (st.table, self.board, self.seed, who, fixed)
        parts = dict(kept[4])
        parts["state"] = _state_bytes(st)
        parts["status"] = history.part_bytes(st.status_json())
        parts["standing_orders"] = _STANDING(st.standing)
        return _object(parts)

    def _json(self, state_json: dict[str, Any]) -> dict[str, Any]:
        st = self.state
        table = st.table
        return {
            "$schema": SCHEMA_ID,
            **({"copy": {"of": self.copy_of}} if self.copy_of else {}),
            "format": FORMAT,
            "game_id": table.game_id,
            "rules": {"edition": table.edition, "variants": sorted(table.variants),
                      "goal": table.goal, "players": table.players,
                      **({"revision": table.revision} if table.revision > 1 else {}),
                      **({"data": json.loads(table.data)} if table.data else {})},
            "board": self.board_json(),
            "seed": self.seed,
            "seats": list(table.seats),
            "first": table.first,
            "nations": {n: self.meta[n].to_json() for n in sorted(self.meta)},
            "state": state_json,
            "status": st.status_json(),
            "standing_orders": st.standing_json(),
            "history": self.history,
        }

    def board_json(self) -> dict[str, Any]:
        """The board's id and rules hash; for a board that is not shipped (``new --board
        FILE``) also its whole map data, so that the game file stands on its own: a player's
        copy, ``verify`` and reports need nothing else."""
        pinned: dict[str, Any] = {"id": self.board.id, "sha256": self.board.sha256}
        if not self.board.shipped:
            pinned["map"] = self.board.data
        return pinned

    def copy_with(self, state: GameState, history: list[dict[str, Any]]) -> Game:
        return Game(state, self.edition, self.board, self.seed, dict(self.meta), history, self.source,
                    self.origin, self.copy_of)


def table_from_json(data: dict[str, Any]) -> Table:
    rules = data["rules"]
    extra = json.dumps(rules["data"], sort_keys=True, separators=(",", ":")) if rules.get("data") else ""
    return Table(data["game_id"], rules["edition"], tuple(rules["variants"]), rules["goal"],
                 rules["players"], tuple(data["seats"]), data["first"], extra, rules.get("revision", 1))


def game_from_json(data: dict[str, Any], edition: Edition, board: Board, source: str) -> Game:
    """Build a :class:`Game` of ``edition`` on ``board`` from JSON valid against the
    edition's game schema; raise :class:`InconsistentGame` if it breaks an invariant."""
    if data["board"]["sha256"] != board.sha256:
        raise InconsistentGame(source, [Problem(
            "$.board.sha256",
            f"the game was created on a different version of board {board.id!r} "
            f"(file {data['board']['sha256'][:12]}…, installed {board.sha256[:12]}…)")])
    revision = data["rules"].get("revision", 1)
    if revision > edition.revision:
        raise InconsistentGame(source, [Problem(
            "$.rules.revision", f"the game plays by revision {revision} of the rules of {edition.name}; this "
                                f"release of antike-ref knows revisions up to {edition.revision}: update antike-ref")])
    wrong = edition.setup.data_problems(data["rules"].get("data"), board)
    if wrong:  # read before anything asks the rule table, which is built from them
        raise InconsistentGame(source, [Problem("$.rules.data", "; ".join(wrong))])
    meta = {n: NationMeta(m["player"], m["email"], m["colour"], m["password"])
            for n, m in data["nations"].items()}
    state = GameState.from_json(table_from_json(data), data["state"], data["status"],
                                data["standing_orders"])
    game = Game(state, edition, board, data["seed"], meta, data["history"], source)
    if "copy" in data:
        game.copy_of = data["copy"]["of"]
    elif data["seed"] == HIDDEN or any(m.password == HIDDEN for m in meta.values()):
        # what a player's copy hides ("?"), in a file that says it is a game: a copy whose
        # "copy" key was taken out is still a copy, never a game to change
        raise InconsistentGame(source, [Problem(
            "$.copy", "this file hides what only the GM's game file holds (a seed or a password hash that is "
                      "\"?\"): it is a player's copy whose \"copy\" key is missing; use the GM's game file")])
    problems = consistency_problems(game) + history_problems(game.history, edition, game.seats, board)
    if problems:
        raise InconsistentGame(source, problems)
    return game


HIDDEN = "?"
"""What a player's copy writes for everything it hides (:mod:`pbem.service.copies`)."""


def consistency_problems(game: Game) -> list[Problem]:
    """Every broken invariant of ``game``, each with the JSON path of the field at fault."""
    out = []
    seats = set(game.seats)
    if set(game.meta) != seats:
        out.append(Problem("$.nations", f"nations {sorted(game.meta)} do not match the seats {sorted(seats)}"))
    return out + state_problems(game.state, game.edition, game.board)
