"""A player's copy of a game with secrets (an edition's event cards in hand).

The GM's game file holds everything. A player's copy holds what that player may see
(:meth:`Secrets.player_view <pbem.kernel.protocols.Secrets.player_view>`): its own hand, the
open display and the other's hand *size*, but not the other's cards, the deck's order, the
secret the deck is shuffled by, the seed it came from or another player's password hash
(neither the current one nor any a player change in the history recorded). Every
card it may not see is ``"?"``; history events are masked the same way
(:meth:`Secrets.mask_event <pbem.kernel.protocols.Secrets.mask_event>`), so a drawn card is
named only in its drawer's copy, and so are a GM's edits (:meth:`Secrets.mask_edit
<pbem.kernel.protocols.Secrets.mask_edit>`: a hand the GM set shows only its size to the other).

With a copy a player runs ``check``, ``options``, ``show`` and ``bot -o`` fully; nothing is
ever written to it (``process``, ``gm-edit``, ``undo`` refuse it), and ``verify`` checks
what it can: the file's shape, the hash chain's links and the witness hashes it is given.
It cannot replay the turns: their hashes cover the cards it does not hold.
"""

from __future__ import annotations

from typing import Any

from pbem.kernel.state import copy_json
from pbem.service.game import Game

HIDDEN = "?"


PACKED = "zlib"
"""How a packed copy (:func:`packed_copy`) holds the copy: the compact JSON of the copy,
compressed with zlib (RFC 1950) and written in base64 (RFC 4648) as lines of
:data:`PACK_LINE` characters."""
PACK_LINE = 76


def is_player_copy(data: bytes) -> bool:
    """Whether the bytes of a file are a player's copy of a game (what :func:`player_copy`
    writes: an object with ``copy`` and ``history``, or :func:`packed_copy`: with ``copy``
    and ``packed``), for instance the copy a report mail carried, sent back with a reply:
    it is no order file."""
    if b'"copy"' not in data or (b'"history"' not in data and b'"packed"' not in data):
        return False
    from pbem.errors import InputError
    from pbem.service.schemas import parse_json

    try:
        parsed = parse_json(data.decode("utf-8-sig"), "an attachment")  # deep nesting is bad input here too
    except (InputError, UnicodeDecodeError):
        return False
    return isinstance(parsed, dict) and isinstance(parsed.get("copy"), dict) and (
        "history" in parsed or "packed" in parsed)


def packed_copy(game: Game, nation: str) -> bytes:
    """``nation``'s copy of ``game`` packed for a mail: a JSON object whose ``packed``
    lines hold the copy compressed (:data:`PACKED`), beside the game, the nation and the
    turn in the clear. A copy of a long game is some 90 kB of JSON at turn 60, this about a
    tenth of it, in short lines of ASCII that a mail carries as they are (no base64 around
    it). Every command that reads a game file reads it as the copy it packs
    (:func:`unpacked`); ``antike-ref copy`` writes the copy itself."""
    import base64
    import json
    import zlib

    from pbem.service.schemas import dumps

    full = player_copy(game, nation)
    text = json.dumps(full, sort_keys=True, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    coded = base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    lines = [coded[k:k + PACK_LINE] for k in range(0, len(coded), PACK_LINE)]
    outer = {"copy": {"of": nation, "packed": PACKED}, "game_id": game.game_id,
             "turn": game.state.status.turn, "packed": lines}
    return dumps(outer).encode("ascii")


def unpacked(data: Any, source: str, limit: int) -> Any:
    """The copy a packed copy (:func:`packed_copy`) holds, as :func:`player_copy` wrote it;
    any other JSON as it is. What cannot be unpacked (not base64, not zlib, larger than
    ``limit`` bytes unpacked, not a copy of the same nation) is an :class:`InputError`."""
    if not isinstance(data, dict) or not isinstance(data.get("copy"), dict) or "packed" not in data:
        return data
    import base64
    import binascii
    import zlib

    from pbem.errors import InputError
    from pbem.service.schemas import parse_json

    lines, nation = data["packed"], data["copy"].get("of")
    if data["copy"].get("packed") != PACKED or not isinstance(lines, list) \
            or not all(isinstance(x, str) for x in lines):
        raise InputError(source, f"a packed copy of an unknown kind (copy.packed {data['copy'].get('packed')!r}, "
                                 f"expected {PACKED!r} and a list of lines)")
    try:
        raw = base64.b64decode("".join(lines), validate=True)
        inflate = zlib.decompressobj()
        text = inflate.decompress(raw, limit + 1)
        if len(text) > limit or inflate.unconsumed_tail:
            raise ValueError(f"it unpacks to more than {limit:,} bytes")
        inner = parse_json(text.decode("utf-8"), source)
    except (binascii.Error, zlib.error, ValueError) as exc:
        raise InputError(source, f"the packed copy cannot be unpacked ({exc})") from None
    if not isinstance(inner, dict) or not isinstance(inner.get("copy"), dict) or "packed" in inner \
            or inner["copy"].get("of") != nation:
        raise InputError(source, f"the packed copy does not hold the {nation}'s copy of a game")
    return inner


def player_copy(game: Game, nation: str) -> dict[str, Any]:
    """The JSON of ``nation``'s copy of ``game``."""
    if nation not in game.seats:
        from pbem.errors import UsageError

        raise UsageError(f"--for {nation}: not a nation of this game (one of {', '.join(game.seats)})")
    edition = game.edition
    secrets = edition.secrets
    data = game._json((secrets.player_view(game.state, nation) if secrets else game.state).to_json())
    data["seed"] = HIDDEN
    data["copy"] = {"of": nation}
    for other, meta in data["nations"].items():
        if other != nation:
            meta["password"] = HIDDEN
    history = []
    for entry in game.history:
        entry = copy_json(entry)
        if isinstance(entry.get("setup"), dict):
            for key in ("seed", "secret"):
                if key in entry["setup"]:
                    entry["setup"][key] = HIDDEN
        if secrets and isinstance(entry.get("events"), list):
            entry["events"] = [secrets.mask_event(e, nation) if isinstance(e, dict) else e for e in entry["events"]]
        if secrets and isinstance(entry.get("edits"), list):
            entry["edits"] = [secrets.mask_edit(e, nation) if isinstance(e, dict) else e for e in entry["edits"]]
        _hide_hashes(entry.get("identities"), game.meta[nation].password)
        history.append(entry)
    data["history"] = history
    return data


def _hide_hashes(identities: Any, own: str) -> None:
    """A player change in the history (``player``: a new player, address and password)
    keeps the new and the old password hash: in a copy every one of them is hidden but the
    copy's own nation's current hash ``own``, so that nobody can try to guess another
    player's password (or a former player's of the same nation) offline."""
    if not isinstance(identities, dict):
        return
    for who in identities.values():
        if not isinstance(who, dict):
            continue
        for record in (who, who.get("was")):
            if isinstance(record, dict) and "password" in record and record["password"] != own:
                record["password"] = HIDDEN


def chain_problems(game: Game) -> list[str]:
    """What is wrong with the links of the history's hash chain (each entry's ``prev`` is
    the entry before's ``hash``): all a copy can check of the chain."""
    from pbem.service.history import GENESIS

    out = []
    prev = GENESIS
    for i, entry in enumerate(game.history):
        if entry.get("prev") != prev:
            out.append(f"history entry {i}: its prev is not the hash of entry {i - 1}")
        prev = entry.get("hash")
    return out
