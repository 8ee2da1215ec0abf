"""The entries players of a game without a game master sign, and their one byte form.

An entry is a JSON object; what is signed is its canonical form (keys sorted, no spaces,
UTF-8: :func:`pbem.service.history.canonical`), the *message*. The signature is OpenSSH's
SSHSIG in the namespace ``antike-ref@turn`` (:mod:`pbem.trust.sshsig`), so ``ssh-keygen
-Y verify`` checks any entry given the message bytes and the game's allowed-signers file.
An entry travels with its signatures as a block of text (:mod:`.blocks`); in the game file
each history entry a player signed carries it under ``signed``: ``{"entry": ...,
"sigs": {SEAT: SIGNATURE}}``.

Every entry has ``v`` (1), ``kind`` and ``game``; the rest by kind (:data:`FIELDS`):

- ``proposal``: what the group agrees to play (edition, board, seats, variants, set-up,
  the group's rules: deadline, what a missed turn gets, arbiters; the chain length); not
  signed, its hash is what the joins sign;
- ``join``: a seat's key and the head of its hash chain, for one proposal;
- ``reveal``: the seat's first chain value, once every seat joined (it names the joins);
- ``turn``: the mover's orders, ``prev`` (the hash of the history entry it follows), the
  hash of the state after it, the mover's next chain value, the engine and data versions;
- ``claim``: that the seat to play missed its deadline; the missed turn's outcome;
- ``ruling``: the arbiters' decision (a reason, a new deadline, edits), signed by each;
- ``orders``: a player's orders in a game a GM runs, signed (the GM's game then proves
  which orders each player gave).

A parsed entry is accepted only in the form we write: a message that is not the canonical
JSON of what it holds is refused, so one entry has one message and one hash.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import clip
from pbem.service.history import canonical
from pbem.service.signed.refusals import SignedRefused, Why

VERSION = 1
KINDS = ("proposal", "join", "reveal", "turn", "claim", "ruling", "orders")
MAX_MESSAGE = 256 * 1024
"""A message longer than this is refused unread (a turn's is under two kilobytes)."""
TIME_FORM = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
SEAT = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MISSED = ("default", "bot-random", "bot-greedy")
"""What a missed turn gets: the default turn (D15), or a bot's turn (the bot's own seed)."""

Check = Callable[[Any], bool]


def _text(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= 4000


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 31


def _hex(v: Any) -> bool:
    return isinstance(v, str) and HEX64.match(v) is not None


def _time(v: Any) -> bool:
    return isinstance(v, str) and TIME_FORM.match(v) is not None


def _seat(v: Any) -> bool:
    return isinstance(v, str) and SEAT.match(v) is not None


def _seats(v: Any) -> bool:
    return isinstance(v, list) and 0 < len(v) <= 12 and all(_seat(s) for s in v) and len(set(v)) == len(v)


def _object(v: Any) -> bool:
    return isinstance(v, dict)


def _group(v: Any) -> bool:
    return (isinstance(v, dict) and set(v) == {"deadline", "missed", "arbiters"} and _text(v["deadline"])
            and v["missed"] in MISSED and _seats(v["arbiters"]))


def _edits(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(e, dict) for e in v)


_STEP = {"seq": _count, "prev": _hex, "state": _hex, "time": _time, "engine": _text, "data": _text}
"""The fields of every entry that extends a game's history."""
FIELDS: dict[str, dict[str, Check]] = {
    "proposal": {"edition": _text, "revision": _count, "board": _text, "board_sha256": _hex, "seats": _seats,
                 "setup": _object, "group": _group, "chain": _count, "engine": _text, "time": _time},
    "join": {"proposal": _hex, "seat": _seat, "key": _text, "head": _hex, "length": _count, "time": _time},
    "reveal": {"proposal": _hex, "joins": _hex, "seat": _seat, "value": _hex, "time": _time},
    "turn": {**_STEP, "seat": _seat, "orders": _object, "reveal": _hex},
    "claim": {**_STEP, "seat": _seat, "missed": _seat, "deadline": _time, "play": lambda v: v in MISSED},
    "ruling": {**_STEP, "arbiters": _seats, "reason": _text, "deadline": lambda v: v is None or _time(v),
               "edits": _edits},
    "orders": {"seat": _seat, "key": _text, "prev": _hex, "turn": _count, "orders": _object, "time": _time},
}
"""Every kind's fields besides ``v``, ``kind`` and ``game``, each with its check."""
SIGNERS = {"proposal": 0, "join": 1, "reveal": 1, "turn": 1, "claim": 1, "ruling": None, "orders": 1}
"""How many signatures an entry of each kind carries (a ruling: one per arbiter)."""


@dataclass(frozen=True)
class Signed:
    """An entry and its signatures (seat -> armored SSHSIG signature)."""

    entry: dict[str, Any]
    sigs: Mapping[str, str] = field(default_factory=dict)

    @property
    def message(self) -> bytes:
        """The bytes every signature is over: the entry's canonical JSON, UTF-8."""
        return canonical(self.entry).encode("utf-8")

    @property
    def digest(self) -> str:
        """SHA-256 of the message, hex: the entry's name (a proposal's hash, the joins')."""
        return hashlib.sha256(self.message).hexdigest()

    @property
    def kind(self) -> str:
        return self.entry["kind"]

    @property
    def seat(self) -> str | None:
        """The seat that signs (none for a proposal or a ruling)."""
        return self.entry.get("seat")

    def note(self) -> dict[str, Any]:
        """What a history entry keeps under ``signed``."""
        return {"entry": self.entry, "sigs": dict(sorted(self.sigs.items()))}

    def with_sig(self, seat: str, signature: str) -> Signed:
        return Signed(self.entry, {**self.sigs, seat: signature})

    def same(self, other: Signed) -> bool:
        """The same entry with the same signatures."""
        return self.message == other.message and dict(self.sigs) == dict(other.sigs)

    def label(self) -> str:
        """The entry in a few words, for messages: ``turn 12 of romans (entry 34)``."""
        e = self.entry
        kind = e.get("kind")
        at = f" (entry {e['seq']})" if "seq" in e else ""
        if kind == "turn":
            turn = e.get("orders", {}).get("turn")
            return f"{'turn ' + str(turn) if turn else 'standing orders'} of {e.get('seat')}{at}"
        if kind == "claim":
            return f"{e.get('seat')}'s claim that {e.get('missed')} missed the deadline{at}"
        if kind == "ruling":
            return f"the arbiters' ruling{at}"
        if kind == "proposal":
            return f"the proposal of game {e.get('game')}"
        return f"{kind} of {e.get('seat')}{at}"


def check_shape(entry: Any, source: str) -> dict[str, Any]:
    """``entry`` if it is an entry of ours (its kind's fields, each of its kind, nothing
    else); :class:`SignedRefused` (``entry/malformed``) naming the first field at fault."""
    def bad(message: str) -> SignedRefused:
        return SignedRefused(Why.MALFORMED, message, source)

    if not isinstance(entry, dict):
        raise bad("an entry is a JSON object")
    if entry.get("v") != VERSION:
        raise bad(f"entry format {clip(repr(entry.get('v')))}: antike-ref reads format {VERSION} (update antike-ref?)")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise bad(f"an entry of kind {clip(repr(kind))}: one of {', '.join(KINDS)}")
    if not (isinstance(entry.get("game"), str) and 0 < len(entry["game"]) <= 64):
        raise bad("'game' must be a game id")
    wanted = FIELDS[kind]
    unknown = sorted(set(entry) - set(wanted) - {"v", "kind", "game"})
    if unknown:
        raise bad(f"a {kind} has no field {clip(unknown[0])!r}")
    for key, ok in wanted.items():
        if key not in entry:
            raise bad(f"a {kind} needs {key!r}")
        if not ok(entry[key]):
            raise bad(f"the {kind}'s {key!r} is not what it must be ({clip(repr(entry[key]))})")
    return entry


def from_message(message: bytes, sigs: Mapping[str, str], source: str) -> Signed:
    """The entry whose message is ``message``, with ``sigs``; refused unless the message is
    the canonical JSON of an entry of ours and the signatures are as many as its kind has."""
    if len(message) > MAX_MESSAGE:
        raise SignedRefused(Why.MALFORMED, f"an entry of {len(message)} bytes: at most {MAX_MESSAGE}", source)
    try:
        text = message.decode("utf-8")
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise SignedRefused(Why.MALFORMED, "the entry is not JSON text", source) from None
    signed = Signed(check_shape(data, source), dict(sigs))
    if signed.message != message:
        raise SignedRefused(Why.MALFORMED, "the entry is not in the one form antike-ref writes (canonical JSON: "
                                           "keys sorted, no spaces)", source)
    wanted = SIGNERS[signed.kind]
    if wanted is not None and len(signed.sigs) > wanted:
        raise SignedRefused(Why.MALFORMED, f"a {signed.kind} carries {wanted} signature{'s' if wanted != 1 else ''}, "
                                           f"not {len(signed.sigs)}", source)
    for seat, sig in signed.sigs.items():
        if not _seat(seat) or not isinstance(sig, str):
            raise SignedRefused(Why.MALFORMED, f"a signature named {clip(repr(seat))} is not a seat's", source)
    return signed


def from_note(note: Any, source: str) -> Signed:
    """The entry a history entry keeps under ``signed``."""
    if not (isinstance(note, dict) and set(note) == {"entry", "sigs"} and isinstance(note["sigs"], dict)):
        raise SignedRefused(Why.MALFORMED, "'signed' must hold the entry and its signatures", source)
    try:
        message = canonical(note["entry"]).encode("utf-8")
    except (TypeError, ValueError):
        raise SignedRefused(Why.MALFORMED, "the signed entry is not JSON", source) from None
    return from_message(message, note["sigs"], source)


def sign(entry: dict[str, Any], seat: str, key) -> Signed:
    """``entry`` signed by ``seat`` with ``key`` (a :class:`pbem.trust.keys.SecretKey`)."""
    from pbem.trust.sshsig import sign as sshsig_sign

    signed = Signed(check_shape(entry, f"the {entry.get('kind')} to sign"))
    return signed.with_sig(seat, sshsig_sign(signed.message, key))


def verify_sig(signed: Signed, seat: str, key, game: str, source: str, signers=()) -> None:
    """``seat``'s signature of ``signed`` is valid and made with ``key`` (a
    :class:`pbem.trust.keys.PublicKey`); :class:`pbem.trust.refusals.TrustRefused` or
    :class:`SignedRefused` (``entry/unsigned``) otherwise. With ``signers`` (the game's
    allowed signers), a signature by another seat's key names that seat."""
    from pbem.trust.signers import AllowedSigner, identity, verify_allowed

    sig = signed.sigs.get(seat)
    if sig is None:
        raise SignedRefused(Why.UNSIGNED, f"no signature of {seat}", source)
    known = list(signers) or [AllowedSigner((identity(seat, game),), key)]
    verify_allowed(signed.message, sig, known, identity(seat, game), source=source)
