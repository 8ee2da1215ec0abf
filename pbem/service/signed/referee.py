"""Players' signatures in a game a GM runs: optional, and nothing else changes.

A player signs the orders they send (``antike-ref sign``): the orders as the history will
echo them (never the password), the game, the turn, the hash of the history entry they
follow, the player's public key and the time. The GM processes the orders as always
(``process``, the password checked) and gives the block with them (``--signature``): the
service checks that the block signs exactly these orders, for this game at this point of
its history, by the key this seat signed with before (and the one the folder's
``GAME.allowed_signers`` names for it, if the GM keeps one), and keeps it in the history
entry under ``signed``. The GM's file then proves which orders each player gave; a game
without signatures is as it always was.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.service.game import Game
from pbem.service.history import last_hash
from pbem.service.signed.entries import Signed, from_note, sign, verify_sig
from pbem.service.signed.refusals import SignedRefused, Why


def sign_orders(game: Game, orders: dict[str, Any], key, now: datetime) -> Signed:
    """Canonical ``orders`` signed by the holder of ``key`` for ``game`` as it stands."""
    from pbem.service.signed.setup import stamp
    from pbem.service.turns import public_orders

    seat = orders["nation"]
    if orders.get("game") != game.game_id or seat not in game.seats:
        from pbem.errors import UsageError

        raise UsageError(f"the orders are for game {orders.get('game')} and {seat}; this is game {game.game_id} "
                         f"({', '.join(game.seats)})")
    entry = {"v": 1, "kind": "orders", "game": game.game_id, "seat": seat, "key": key.public.with_comment("").line(),
             "prev": last_hash(game.history), "turn": game.state.status.turn, "orders": public_orders(orders),
             "time": stamp(now)}
    return sign(entry, seat, key)


def _key(signed: Signed, source: str):
    from pbem.errors import InputError
    from pbem.trust.keys import read_public_key

    try:
        return read_public_key(signed.entry["key"], source)
    except InputError as exc:
        raise SignedRefused(Why.MALFORMED, f"its key does not read: {exc}", source) from None


def check_orders(game: Game, orders: dict[str, Any], signed: Signed, source: str, allowed=()) -> Signed:
    """``signed`` is the signature of ``orders`` (canonical, as about to be played) by the
    seat that gives them, for ``game`` as it stands; :class:`SignedRefused` (exit code 6)
    or a signature's refusal otherwise."""
    from pbem.service.turns import public_orders

    e = signed.entry
    if signed.kind != "orders":
        raise SignedRefused(Why.MALFORMED, f"{signed.label()} is not a player's signed orders", source)
    if e["game"] != game.game_id:
        raise SignedRefused(Why.OTHER_GAME, f"signed for game {e['game']}, not {game.game_id}", source)
    if e["seat"] != orders["nation"] or e["orders"] != public_orders(orders):
        raise SignedRefused(Why.ORDERS, f"the signature is of other orders ({e['seat']}'s signed for turn "
                                        f"{e['turn']}) than the ones given", source)
    if e["prev"] != last_hash(game.history) or e["turn"] != game.state.status.turn:
        raise SignedRefused(Why.SEQUENCE, f"signed for turn {e['turn']} after entry {e['prev'][:12]}; the game is at "
                                          f"turn {game.state.status.turn} after {last_hash(game.history)[:12]}", source)
    key = _key(signed, source)
    bound = keys_of(game).get(e["seat"])
    named = [s.key for s in allowed if f"{e['seat']}@{game.game_id}" in s.principals]
    for other in ([bound] if bound else []) + named[:1]:
        if other != key:
            raise SignedRefused(Why.ORDERS, f"signed with the key {key.fingerprint()}; {e['seat']} signs with "
                                            f"{other.fingerprint()}", source)
    verify_sig(signed, e["seat"], key, game.game_id, source)
    return signed


def keys_of(game: Game) -> dict[str, Any]:
    """The key each seat signed its first signed orders with."""
    out: dict[str, Any] = {}
    for i, entry in enumerate(game.history):
        note = entry.get("signed")
        if note is not None and i > 0:
            signed = from_note(note, f"entry {i}")
            if signed.kind == "orders":
                out.setdefault(signed.entry["seat"], _key(signed, f"entry {i}"))
    return out


def verify_referee(game: Game) -> list[str]:
    """Every signed order of a game a GM runs checked against what the history recorded:
    the orders the player signed, applied to the game as it stood, are the orders the entry
    played (the history keeps them as the rules completed them: a payment chosen, say);
    what was checked, in words (none: no line)."""
    from pbem.errors import PbemError, VerifyFailed
    from pbem.service.replay import replayed

    count: dict[str, int] = {}
    keys: dict[str, Any] = {}
    before: Game | None = None
    for i, after in enumerate(replayed(game, len(game.history) - 1, check=False)):
        entry = game.history[i]
        if i and "signed" in entry:
            assert before is not None  # entry 0 is the set-up, never signed: i > 0 here
            try:
                seat = _check_entry(before, entry, keys, f"entry {i}")
            except PbemError as exc:  # every refusal of a stored signature is a failed verify
                raise VerifyFailed(i, str(exc), game.source) from None
            count[seat] = count.get(seat, 0) + 1
        before = after
    if not count:
        return []
    parts = ", ".join(f"{seat} {n} ({keys[seat].fingerprint()})" for seat, n in sorted(count.items()))
    return [f"orders signed by their players: {parts}; each signs the orders its entry played"]


def _check_entry(before: Game, entry: dict[str, Any], keys: dict[str, Any], source: str) -> str:
    from pbem.errors import Refused
    from pbem.kernel.turn import resolve

    signed = from_note(entry["signed"], source)
    e = signed.entry
    key = _key(signed, source)
    try:
        played = resolve(before.state, {**e["orders"], "password": ""}, before.edition, before.board).echo
    except (Refused, KeyError, TypeError, ValueError):
        played = None
    if signed.kind != "orders" or e["seat"] != entry.get("nation") or played != entry.get("orders") \
            or e["prev"] != entry.get("prev"):
        raise SignedRefused(Why.ORDERS, "the signed orders are not the ones this entry played", source)
    if keys.setdefault(e["seat"], key) != key:
        raise SignedRefused(Why.ORDERS, f"{e['seat']} signed with two keys", source)
    verify_sig(signed, e["seat"], key, before.game_id, source)
    return e["seat"]
