"""A game in memory moved on by one history entry: orders played, or a GM edit applied.

This is where who sent the orders is checked (the password) and where what happened is
recorded (the history's hash chain); the rules themselves are the kernel's
(:func:`pbem.kernel.turn.resolve`, :func:`pbem.kernel.edit.apply_edit`). Nothing here
reads or writes a file: the game service (:mod:`pbem.service.service`) does, around these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.errors import Refused
from pbem.kernel.edit import apply_edit
from pbem.kernel.orders import canonical_orders
from pbem.kernel.queries import default_orders
from pbem.kernel.rejections import Rejection, reject
from pbem.kernel.turn import TurnResult, header_problems, public_echo, resolve
from pbem.kernel.vocab import HEADER_KEYS
from pbem.service import history, passwords
from pbem.service.game import Game, NationMeta


@dataclass(frozen=True, slots=True)
class Author:
    """Who a history entry's orders come from: the nation's player (checked by password),
    the GM's default turn (D15), or a bot the GM let play (``mode``)."""

    kind: str
    """``player``, ``gm`` or ``bot``."""
    mode: str | None = None

    @property
    def trusted(self) -> bool:
        """Orders the GM plays need no password: the GM holds the game file."""
        return self.kind != "player"

    def entry_kind(self, result: TurnResult) -> str:
        """The history entry's kind: ``turn`` / ``standing`` for a player's file,
        ``default-turn`` for the GM's, ``bot-turn`` for a bot's."""
        if self.kind == "gm":
            return "default-turn"
        if self.kind == "bot":
            return "bot-turn"
        return result.kind


PLAYER = Author("player")
GM = Author("gm")


def bot(mode: str) -> Author:
    return Author("bot", mode)


TURN_KINDS = history.TURN_KINDS
"""History entries that are a nation's turn."""
ORDER_KINDS = TURN_KINDS + ("standing",)
"""History entries that carry orders."""
NOTES = ("bot", "mail", "deadline", "absent", "defaults", "signed", "draws")
"""Keys an order entry may carry besides its orders and events, kept as recorded on replay:
the bot that played, the Message-ID of the mail the orders came in, the deadline whose
passing made the GM's default or a bot play, the last day of the player's absence for
which the GM's default or a bot played (the mail judge's ``absence`` policy), the defaults
the referee applied where the orders left a choice open (the stored orders spell out what
was chosen, so a replay could not tell them again), and in a game without a game master the
entry its player signed with the signature (``signed``: docs/without-gm.md) and the draws
the turn asked for, pending until the others' reveals are in (``draws``)."""


def orders_something(orders: dict[str, Any]) -> bool:
    """Whether an order file orders anything: keys beyond the header's (``game``,
    ``nation``, ``turn``, ``password``), which say who sends it and for what."""
    return bool(set(orders) - set(HEADER_KEYS))


def authenticate(game: Game, orders: dict[str, Any]) -> list[Rejection]:
    """The password problem of an order file, if any (none for a nation not in the game:
    the kernel names that)."""
    nation = orders["nation"]
    meta = game.meta.get(nation)
    if meta is not None and not passwords.verify(orders.get("password", ""), meta.password):
        return [reject("orders/wrong-password", "$.password", nation=nation)]
    return []


def check(game: Game, orders: dict[str, Any], author: Author = PLAYER, chance=None) -> TurnResult:
    """What canonical ``orders`` would do, or :class:`Refused` with every problem: who
    sends them (game, nation, password) is named before what they are for. A player's
    file without a rondel move that leaves the standing orders as they are (none given, or
    the same again) changes nothing and is refused: it would only add an empty history
    entry. Replays go through :func:`replay_orders`, so such entries of older games still
    replay."""
    if not author.trusted:
        wrong = authenticate(game, orders)
        if wrong:
            header = header_problems(game.state, orders)
            who = [r for r in header if r.code in ("orders/wrong-game", "orders/unknown-nation")]
            raise Refused(who + wrong + [r for r in header if r not in who])
    again = applied_already(game, orders)
    if again:
        raise Refused(header_problems(game.state, orders) or again)
    result = resolve(game.state, orders, game.edition, game.board, chance=chance)
    if result.kind == "standing" and not author.trusted:
        nation = orders["nation"]
        if result.state.standing[nation].to_json() == game.state.standing[nation].to_json():
            why = (f"the standing orders of {nation} are already as given" if orders.get("standing") else
                   "there is no rondel move (a turn's orders need one) and no standing order")
            raise Refused([reject("standing/nothing-to-change", "$", why=why)])
    return result


def applied_already(game: Game, orders: dict[str, Any]) -> list[Rejection]:
    """Every order file is applied at most once. A turn's file is bound to its turn and its
    nation (once applied, the game is at a later turn); a standing-orders-only file, which
    may come at any time, is refused when the same orders (canonical, without the password)
    are in the history already, as an earlier standing-orders entry. So a file processed
    twice, or sent again later, cannot take back a newer change; the same change can be
    sent again with the current ``turn`` in it. Legacy entries need nothing new: the
    history has always recorded the canonical orders of each entry, under its hash."""
    if "rondel" in orders:
        return []
    echo = public_echo(orders)
    for entry in reversed(game.history):
        if entry.get("kind") != "standing" or entry.get("nation") != orders["nation"]:
            continue
        if _same_orders(game, entry.get("orders"), echo):
            turn = game.state.status.turn
            if orders.get("turn") == turn:
                advice = ("to give them again in this turn, also restate another of your standing orders as "
                          "it stands now, so that the file differs")
            else:
                advice = f"to give them again, write the current turn ({turn}) in the file"
            return [reject("standing/already-applied", "$", seq=entry.get("seq", "?"), advice=advice)]
    return []


def _same_orders(game: Game, stored: Any, echo: dict[str, Any]) -> bool:
    """Whether stored orders are ``echo``, both in today's canonical form (an entry
    written by an earlier release may hold a form canonical then)."""
    if not isinstance(stored, dict):
        return False
    if stored == echo:
        return True
    try:
        return canonical_orders(stored, game.edition) == canonical_orders(echo, game.edition)
    except (KeyError, TypeError, ValueError, AttributeError):
        return False


def play(game: Game, orders: dict[str, Any], author: Author = PLAYER,
         notes: dict[str, Any] | None = None, chance=None) -> tuple[Game, TurnResult]:
    """Apply canonical ``orders``; return the next game, its history entry appended (with
    ``notes``, keys of :data:`NOTES`, such as the Message-ID of the mail they came in).
    ``chance``: the game's source of draws (a game without a game master); the draws the
    turn asked for first are recorded with the entry (``draws``)."""
    result = check(game, orders, author, chance)
    extra = dict(notes or {})
    if getattr(chance, "asked", None):
        extra["draws"] = [dict(d) for d in chance.asked]
    if result.defaults:
        extra["defaults"] = [dict(d) for d in result.defaults]
    if author.kind == "bot":
        extra["bot"] = author.mode
    return _record(game, result, author.entry_kind(result), orders["nation"], extra), result


def _record(game: Game, result: TurnResult, kind: str, nation: str, notes: dict[str, Any]) -> Game:
    new = game.copy_with(result.state, list(game.history))
    body: dict[str, Any] = {"kind": kind, "nation": nation, "orders": result.echo, "events": result.events}
    body.update((key, notes[key]) for key in NOTES if key in notes)
    if result.kind == "turn":
        body["turn"] = game.state.status.turn
    history.append(new, body)
    return new


def public_orders(orders: dict[str, Any]) -> dict[str, Any]:
    """What a set of orders orders, as the history echoes it: without the password (for an
    adapter that compares orders sent again with those applied)."""
    return public_echo(orders)


def mail_ids(game: Game) -> set[str]:
    """The Message-IDs of every mail whose orders are in the history."""
    return {entry["mail"] for entry in game.history if "mail" in entry}


def replay_orders(game: Game, entry: dict[str, Any], owned: bool = False) -> Game:
    """Apply a stored entry's orders again, as they were recorded (kind, author and notes
    kept; the password was checked when they were first applied); ``owned``: the entry's
    orders were made for this call alone (:func:`pbem.kernel.turn.resolve`)."""
    chance = None
    if game.history and "signed" in game.history[0]:  # a game without a game master draws from its reveals
        from pbem.service.signed.chance import PlayChance

        said = entry.get("signed", {}).get("entry", {}) if isinstance(entry.get("signed"), dict) else {}
        value = said.get("reveal") if said.get("kind") == "turn" else None
        chance = PlayChance(game, entry["orders"]["nation"], bytes.fromhex(value) if isinstance(value, str) else None)
    result = resolve(game.state, dict(entry["orders"]), game.edition, game.board, owned=owned, chance=chance)
    return _record(game, result, entry["kind"], entry["orders"]["nation"], entry)


def default_turn(game: Game, nation: str, notes: dict[str, Any] | None = None) -> tuple[Game, TurnResult]:
    """The default turn (D15) for ``nation``, which must be the active nation; recorded as
    the GM's."""
    active = game.state.status.active
    if game.state.status.winner is None and nation != active:
        raise Refused([reject("orders/wrong-nation", "$.nation", active=active, nation=nation)])
    return play(game, default_orders(game.state, game.edition, game.board, nation), GM, notes)


def edit(game: Game, change: dict[str, Any]) -> Game:
    """Apply a canonical GM edit; return the next game with the edit in its history.

    ``change`` may also carry ``identities`` (who plays a nation: a new player, address or
    password hash, each with what it replaces under ``was``), as :func:`replace_player`
    makes them; they are recorded with the edit and replayed with it."""
    state = apply_edit(game.state, change, game.edition, game.board)
    new = game.copy_with(state, list(game.history))
    body: dict[str, Any] = {"kind": "gm-edit", "reason": change["reason"], "edits": change["edits"], "events": []}
    if "signed" in change:  # the arbiters' ruling in a game without a game master, with their signatures
        body["signed"] = change["signed"]
    identities = change.get("identities")
    if identities:
        for nation, who in identities.items():
            new.meta[nation] = NationMeta(who["player"], who["email"], new.meta[nation].colour, who["password"])
        body["identities"] = identities
        body["events"] = [{"type": "player-replaced", "nation": n, "player": who["player"]}
                          for n, who in identities.items() if who.get("change") not in history.PRIVATE_CHANGES]
    history.append(new, body)
    return new


def replace_player(game: Game, nation: str, player: str | None, email: str | None,
                   password_hash: str, reason: str) -> Game:
    """A new player for ``nation`` (name, address, password hash), as a logged GM edit; a
    change that keeps the password, or the player and the address, is the player's own
    (:func:`pbem.service.history.identity_change`) and recorded so."""
    if nation not in game.meta:
        raise Refused([reject("orders/unknown-nation", "$.nation", nation=nation, playing=", ".join(game.meta))])
    old = game.meta[nation]
    was = {"player": old.player, "email": old.email, "password": old.password}
    who: dict[str, Any] = {"player": player, "email": email, "password": password_hash, "was": was}
    change = history.identity_change(was, who)
    if change is not None:
        who["change"] = change
    return edit(game, {"game": game.game_id, "reason": reason, "edits": [], "identities": {nation: who}})


def original_meta(game: Game) -> dict[str, NationMeta]:
    """Who played each nation when the game was created: the file's identities with every
    replacement in the history taken back (what a replay starts from)."""
    meta = {n: NationMeta(m.player, m.email, m.colour, m.password) for n, m in game.meta.items()}
    for entry in reversed(game.history):
        for nation, who in (entry.get("identities") or {}).items():
            if nation in meta and isinstance(who, dict) and isinstance(who.get("was"), dict):
                was = who["was"]
                meta[nation] = NationMeta(was.get("player"), was.get("email"), meta[nation].colour,
                                          was.get("password", ""))
    return meta
