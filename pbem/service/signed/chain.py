"""The history of a game without a game master: every entry after the set-up signed by the
seat it comes from, and checked and applied the same way by every copy.

:func:`extend` is the one path an entry takes into a game, whoever made it: the mover
whose ``process`` made it, a player whose ``accept`` received it, ``rebuild`` and
``verify``. It checks, and names the first thing wrong (:mod:`.refusals`):

- the entry is of this game, takes the next place of the history (``seq``), follows its
  last entry (``prev``: the hash of that entry), and is signed at a time no earlier than
  it (nor, when the caller gives the time, ahead of this computer's clock);
- a turn: signed by the seat whose turn it is, with its key from the set-up; its reveal
  is the seat's next chain value (never one revealed before: no draw can be made again);
  its orders are accepted by the rules;
- a claim: by another seat, after the deadline of the seat to play (the signed time of
  the entry that gave it the turn, plus the group's allowance, or the arbiters' later
  deadline), playing what the group's rules give a missed turn: the default turn or the
  bot's (its seed the game's, which every copy holds, so every copy plays the same);
- a ruling: signed by every arbiter the set-up names;
- and after it the game is in the state whose hash the entry names.

The history entry it becomes keeps the signed entry under ``signed``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from pbem.errors import ExitCode, PbemError, Refused, UsageError
from pbem.service import turns
from pbem.service.game import Game
from pbem.service.history import last_hash
from pbem.service.signed.chance import PlayChance
from pbem.service.signed.entries import Signed, from_note, sign, verify_sig
from pbem.service.signed.refusals import SignedRefused, Why
from pbem.service.signed.setup import NO_PASSWORD, Book, chain_for, engine, parse_stamp, stamp

SIGNED = turns.Author("signed")
"""Who a signed turn's orders come from: the seat whose signature was checked."""
SLACK = timedelta(minutes=10)
"""How far ahead of this computer's clock an entry's signed time may be (clocks differ a little)."""
Bot = Callable[[Game, str], dict[str, Any]]
"""The bot a claim plays a missed turn with: canonical orders for the active nation of the
game, by a bot mode (``random``, ``greedy``); handed in by the caller (the bots are above
the service)."""

_BOOKS: dict[int, tuple[Any, Book]] = {}


def is_signed(game: Game) -> bool:
    """Whether ``game`` is played without a game master."""
    return bool(game.history) and "signed" in game.history[0]


def book_of(game: Game) -> Book:
    """The set-up of ``game`` (every join and reveal checked once, then kept)."""
    note = game.history[0].get("signed") if game.history else None
    if note is None:
        raise UsageError(f"{game.source or game.game_id}: a game run by a game master (not set up with new --signed)")
    held = _BOOKS.get(id(note))
    if held is not None and held[0] is note:
        return held[1]
    book = Book.from_json(note, f"{game.source or game.game_id}: the set-up")
    if len(_BOOKS) > 64:
        _BOOKS.clear()
    _BOOKS[id(note)] = (note, book)
    return book


def signers_of(book: Book) -> tuple:
    """The game's allowed signers: one line per seat, ``SEAT@GAME``."""
    from pbem.trust.signers import AllowedSigner, identity

    return tuple(AllowedSigner((identity(s, book.game),), book.key_of(s).with_comment(s)) for s in book.seats)


def state_hash(game: Game) -> str:
    """The hash of the game's state after an entry: SHA-256 of everything but the history,
    as its history entry's hash covers it."""
    return hashlib.sha256(game.snapshot_bytes()).hexdigest()


def data_version(game: Game) -> str:
    """The rules' data an entry was made with: edition, revision, board and its hash."""
    t = game.state.table
    return f"{game.edition.id} r{t.revision} {game.board.id} {game.board.sha256[:16]}"


def signed_of(entry: dict[str, Any], source: str) -> Signed | None:
    note = entry.get("signed")
    return None if note is None else from_note(note, source)


def time_of(game: Game, i: int) -> str:
    """The signed time of history entry ``i`` (the set-up: its last reveal's)."""
    if i == 0:
        return book_of(game).started()
    return game.history[i]["signed"]["entry"]["time"]


def deadline(game: Game) -> datetime:
    """When the seat to play misses its turn: the signed time of the entry that gave it
    the turn (a standing-orders entry of its own gives none) plus the group's allowance,
    or the deadline of the arbiters' last ruling since then."""
    book = book_of(game)
    active = game.state.status.active
    ruled = None
    for i in range(len(game.history) - 1, 0, -1):
        entry = game.history[i]
        said = entry.get("signed", {}).get("entry", {})
        if said.get("kind") == "ruling":
            ruled = ruled or said.get("deadline")
            continue
        if entry.get("kind") == "standing" and entry.get("nation") == active:
            continue
        started = time_of(game, i)
        break
    else:
        started = book.started()
    if ruled:
        return parse_stamp(ruled)
    from pbem.service.numbers import later

    return later(parse_stamp(started), book.group.allowance)


def trackers(game: Game) -> dict[str, Any]:
    """Every seat's reveals so far (:class:`pbem.trust.commit.Tracker`), the set-up's and
    each of its turns'."""
    from pbem.trust.commit import Commitment, Tracker

    book = book_of(game)
    out = {}
    for seat in book.seats:
        join = book.joins[seat].entry
        out[seat] = Tracker(Commitment(book.game, seat, bytes.fromhex(join["head"]), join["length"]),
                            [bytes.fromhex(book.reveals[seat].entry["value"])])
    for entry in game.history[1:]:
        said = entry.get("signed", {}).get("entry", {})
        if said.get("kind") == "turn":
            out[said["seat"]].accept(bytes.fromhex(said["reveal"]))
    return out


def seat_of_key(game: Game, key) -> str:
    """The seat whose key ``key`` (a secret key) is; a usage error if none."""
    book = book_of(game)
    public = key.public
    for seat in book.seats:
        if book.key_of(seat) == public:
            return seat
    raise UsageError(f"--key: the key {public.fingerprint()} is no seat's key in game {book.game} "
                     f"({', '.join(f'{s}: {book.key_of(s).fingerprint()}' for s in book.seats)})")


def extend(game: Game, signed: Signed, source: str, now: datetime | None = None, bot: Bot | None = None) -> Game:
    """The game after ``signed`` (a turn, a claim or a ruling), every check made; the game
    given is not changed. :class:`SignedRefused` (or a signature's or a reveal's
    :class:`pbem.trust.refusals.TrustRefused`) names the first thing wrong."""
    e = signed.entry
    if e["game"] != game.game_id:
        raise SignedRefused(Why.OTHER_GAME, f"an entry of game {e['game']}, not of {game.game_id}", source)
    if signed.kind not in ("turn", "claim", "ruling"):
        raise SignedRefused(Why.MALFORMED, f"a {signed.kind} cannot follow the set-up", source)
    if e["seq"] != len(game.history) or e["prev"] != last_hash(game.history):
        raise SignedRefused(Why.SEQUENCE, f"it is entry {e['seq']} following {e['prev'][:12]}; the next entry here "
                                          f"is {len(game.history)} following {last_hash(game.history)[:12]}", source)
    before = time_of(game, len(game.history) - 1)
    if e["time"] < before:
        raise SignedRefused(Why.BACKWARDS, f"signed at {e['time']}, before the entry it follows ({before})", source)
    if now is not None and parse_stamp(e["time"]) > now + SLACK:
        raise SignedRefused(Why.FUTURE, f"signed at {e['time']}, still ahead of this computer's clock ({stamp(now)}): "
                                        "accept it once that time has come, or ask the group's arbiters", source)
    step = {"turn": _turn, "claim": _claim, "ruling": _ruling}[signed.kind]
    after = step(game, signed, source, bot)
    found = state_hash(after)
    if found != e["state"]:
        versions = "" if e["engine"] == engine() and e["data"] == data_version(game) else (
            f"; it was made with {e['engine']} ({e['data']}), this is {engine()} ({data_version(game)}): "
            "the same version must check it")
        raise SignedRefused(Why.STATE, f"the entry says the game is then in state {e['state'][:12]}, the rules make "
                                       f"it {found[:12]}{versions}", source)
    return after


def _signed_by(game: Game, signed: Signed, seat: str, source: str) -> Book:
    book = book_of(game)
    if seat not in book.seats:
        raise SignedRefused(Why.NOT_A_SEAT, f"{seat} is not a seat of {book.game}", source)
    verify_sig(signed, seat, book.key_of(seat), book.game, source, signers_of(book))
    return book


def _turn(game: Game, signed: Signed, source: str, bot: Bot | None) -> Game:
    e = signed.entry
    seat = e["seat"]
    _signed_by(game, signed, seat, source)
    _to_play(game, seat, source, ExitCode.VERIFY_FAILED)
    value = bytes.fromhex(e["reveal"])
    trackers(game)[seat].check(value, source)
    orders = _orders(game, e["orders"], source)
    if orders.get("nation") != seat:
        raise SignedRefused(Why.OUT_OF_TURN, f"orders for {orders.get('nation')}, signed by {seat}", source)
    return _play(game, orders, SIGNED, {"signed": signed.note()}, source, PlayChance(game, seat, value))


def _to_play(game: Game, seat: str, source: str, code: ExitCode) -> None:
    status = game.state.status
    if status.winner is not None:
        raise SignedRefused(Why.OUT_OF_TURN, f"the game is over ({status.winner} won)", source, code)
    if status.active != seat:
        raise SignedRefused(Why.OUT_OF_TURN, f"it is {status.active}'s turn, not {seat}'s", source, code)


def _orders(game: Game, orders: dict[str, Any], source: str) -> dict[str, Any]:
    """Signed orders checked against the order schema, in the one canonical form."""
    from pbem.kernel.orders import canonical_orders
    from pbem.service.schemas import problems

    wrong = problems("orders", {**orders, "password": NO_PASSWORD}, game.edition)
    if wrong:
        raise SignedRefused(Why.MALFORMED, f"its orders are not an order file: {wrong[0]}", source)
    canonical = canonical_orders({**orders, "password": NO_PASSWORD}, game.edition)
    canonical.pop("password")
    if canonical != orders:
        raise SignedRefused(Why.MALFORMED, "its orders are not in canonical form", source)
    return canonical


def _play(game: Game, orders: dict[str, Any], author, notes: dict[str, Any], source: str, chance) -> Game:
    try:
        after, _ = turns.play(game, {**orders, "password": NO_PASSWORD}, author, notes, chance)
    except Refused as exc:
        raise SignedRefused(Why.ORDERS, "the rules refuse its orders: " + "; ".join(map(str, exc.rejections[:3])),
                            source) from None
    return after


def missed_orders(game: Game, play: str, bot: Bot | None) -> dict[str, Any]:
    """What the group's rules give the active seat's missed turn: the default turn (D15)
    or the bot's orders (its randomness seeded by the game's seed, the turn and the nation)."""
    from pbem.kernel.queries import default_orders

    nation = game.state.status.active
    if play == "default":
        return default_orders(game.state, game.edition, game.board, nation)
    if bot is None:
        raise UsageError(f"the group's missed turns are played by the bot ({play}): this check needs it")
    return bot(game, play.removeprefix("bot-"))


def _claim(game: Game, signed: Signed, source: str, bot: Bot | None) -> Game:
    e = signed.entry
    book = _signed_by(game, signed, e["seat"], source)
    status = game.state.status
    if status.winner is not None:
        raise SignedRefused(Why.CLAIM, f"the game is over ({status.winner} won)", source)
    if e["missed"] != status.active or e["seat"] == status.active:
        why = "no seat claims its own turn" if e["seat"] == status.active else f"it is {status.active}'s turn"
        raise SignedRefused(Why.CLAIM, f"a claim that {e['missed']} missed its deadline: {why}", source)
    due = stamp(deadline(game))
    if e["deadline"] != due:
        raise SignedRefused(Why.CLAIM, f"the claim names the deadline {e['deadline']}; it is {due}", source)
    if e["time"] < due:
        raise SignedRefused(Why.EARLY, f"made at {e['time']}, before {e['missed']}'s deadline ({due})", source)
    if e["play"] != book.group.missed:
        raise SignedRefused(Why.CLAIM, f"the claim plays {e['play']}; the group's rules give a missed turn "
                                       f"{book.group.missed}", source)
    orders = missed_orders(game, e["play"], bot)
    author = turns.GM if e["play"] == "default" else turns.bot(e["play"].removeprefix("bot-"))
    return _play(game, orders, author, {"signed": signed.note(), "deadline": due}, source,
                 PlayChance(game, e["missed"]))


def _ruling(game: Game, signed: Signed, source: str, bot: Bot | None) -> Game:
    e = signed.entry
    book = book_of(game)
    arbiters = book.group.arbiters
    if sorted(e["arbiters"]) != sorted(arbiters) or set(signed.sigs) - set(arbiters):
        raise SignedRefused(Why.ARBITER, f"the game's arbiters are {', '.join(arbiters)}; this ruling is signed "
                                         f"by {', '.join(sorted(signed.sigs)) or 'no one'}", source)
    for seat in arbiters:
        if seat not in signed.sigs:
            raise SignedRefused(Why.UNSIGNED, f"a ruling needs every arbiter's signature; {seat} has not signed "
                                              "(antike-ref rule --cosign)", source)
        _signed_by(game, signed, seat, source)
    change = _edit(game, e, source)
    try:
        return turns.edit(game, {**change, "signed": signed.note()})
    except Refused as exc:
        raise SignedRefused(Why.ORDERS, "the rules refuse its edits: " + "; ".join(map(str, exc.rejections[:3])),
                            source) from None


def _edit(game: Game, e: dict[str, Any], source: str) -> dict[str, Any]:
    from pbem.kernel.orders import canonical_edit
    from pbem.service.schemas import problems

    change = {"game": game.game_id, "reason": e["reason"], "edits": e["edits"]}
    if not e["edits"]:
        return change
    wrong = problems("edit", change, game.edition)
    if wrong:
        raise SignedRefused(Why.MALFORMED, f"its edits are not a GM edit: {wrong[0]}", source)
    return canonical_edit(change, game.edition)


# -- making entries -------------------------------------------------------------------------


def _base(game: Game, kind: str, now: datetime) -> dict[str, Any]:
    """What every entry that extends ``game`` holds: its place, and a signed time no
    earlier than the entry it follows (a clock behind another player's is not a refusal)."""
    before = time_of(game, len(game.history) - 1)
    return {"v": 1, "kind": kind, "game": game.game_id, "seq": len(game.history), "prev": last_hash(game.history),
            "time": max(stamp(now), before), "engine": engine(), "data": data_version(game)}


def make_turn(game: Game, orders: dict[str, Any], key, now: datetime) -> tuple[Game, Signed, Any]:
    """The holder of ``key`` plays canonical ``orders`` (without a password): the next
    game, the signed entry to send, and the turn's result (for the echo)."""
    seat = seat_of_key(game, key)
    _to_play(game, seat, "your turn", ExitCode.REFUSED)
    if orders.get("nation") != seat:
        raise UsageError(f"the orders are for {orders.get('nation')}; your key is {seat}'s")
    book = book_of(game)
    chain = chain_for(key, book.proposal.digest, book.game, seat, book.entry["chain"])
    position = trackers(game)[seat].position + 1
    if position > chain.length:
        raise UsageError(f"{seat}'s chain of {chain.length} values is used up: the game needs a ruling")
    trial, result = turns.play(game, {**orders, "password": NO_PASSWORD}, SIGNED,
                               chance=PlayChance(game, seat, chain.reveal(position)))
    entry = {**_base(game, "turn", now), "seat": seat, "orders": result.echo, "state": state_hash(trial),
             "reveal": chain.reveal(position).hex()}
    signed = sign(entry, seat, key)
    return extend(game, signed, "your turn"), signed, result


def make_claim(game: Game, key, now: datetime, bot: Bot | None) -> tuple[Game, Signed]:
    """The holder of ``key`` claims that the seat to play missed its deadline: refused by
    name before the deadline (``claim/early``)."""
    seat = seat_of_key(game, key)
    status = game.state.status
    if status.winner is not None or status.active == seat:
        why = "the game is over" if status.winner is not None else "it is your own turn: play it"
        raise SignedRefused(Why.CLAIM, why, "your claim", ExitCode.REFUSED)
    due = deadline(game)
    if now < due:
        raise SignedRefused(Why.EARLY, f"{status.active}'s deadline is {stamp(due)}; it is {stamp(now)}: claim after "
                                       "the deadline", "your claim", ExitCode.REFUSED)
    play = book_of(game).group.missed
    author = turns.GM if play == "default" else turns.bot(play.removeprefix("bot-"))
    trial, _ = turns.play(game, {**missed_orders(game, play, bot), "password": NO_PASSWORD}, author,
                          chance=PlayChance(game, status.active))
    entry = {**_base(game, "claim", now), "seat": seat, "missed": status.active, "deadline": stamp(due),
             "play": play, "state": state_hash(trial)}
    signed = sign(entry, seat, key)
    return extend(game, signed, "your claim", bot=bot), signed


def make_ruling(game: Game, key, reason: str, until: datetime | None, edits: list[dict[str, Any]],
                now: datetime) -> Signed:
    """A ruling signed by the arbiter whose key ``key`` is (the others co-sign it:
    :func:`cosign`)."""
    seat = seat_of_key(game, key)
    book = book_of(game)
    if seat not in book.group.arbiters:
        raise SignedRefused(Why.ARBITER, f"{seat} is not an arbiter of this game ({', '.join(book.group.arbiters)})",
                            "your ruling", ExitCode.REFUSED)
    change = _edit(game, {"reason": reason, "edits": edits}, "your ruling")
    try:
        trial = turns.edit(game, change)
    except Refused as exc:
        raise SignedRefused(Why.ORDERS, "the rules refuse the edits: " + "; ".join(map(str, exc.rejections[:3])),
                            "your ruling", ExitCode.REFUSED) from None
    entry = {**_base(game, "ruling", now), "arbiters": list(book.group.arbiters), "reason": reason,
             "deadline": stamp(until) if until else None, "edits": change["edits"], "state": state_hash(trial)}
    return sign(entry, seat, key)


def cosign(game: Game, signed: Signed, key) -> Signed:
    """``signed`` (a ruling) with the signature of the arbiter whose key ``key`` is added."""
    seat = seat_of_key(game, key)
    if signed.kind != "ruling":
        raise UsageError(f"--cosign: {signed.label()} is not a ruling")
    if seat not in book_of(game).group.arbiters:
        raise SignedRefused(Why.ARBITER, f"{seat} is not an arbiter of this game", "your signature", ExitCode.REFUSED)
    return signed.with_sig(seat, sign(signed.entry, seat, key).sigs[seat])


def complete(game: Game, signed: Signed) -> bool:
    """Whether ``signed`` carries every signature it needs to be applied."""
    if signed.kind != "ruling":
        return bool(signed.sigs)
    return set(book_of(game).group.arbiters) <= set(signed.sigs)


def next_seat_step(game: Game, seat: str | None, now: datetime) -> list[str]:
    """What happens next, in words: whose turn, until when, and what ``seat`` (if given)
    must do."""
    status = game.state.status
    if status.winner is not None:
        return [f"the game is over: {status.winner} won"]
    due = deadline(game)
    late = now >= due
    lines = [f"{status.active} to play turn {status.turn}, deadline {stamp(due)}"
             + (" (passed)" if late else "")]
    if seat is None:
        return lines
    if seat == status.active:
        lines.append("you play: write your orders, run antike-ref process GAME ORDERS --key KEY, and send the block "
                     "it prints to the others")
    elif late:
        lines.append(f"{status.active} missed the deadline: you may claim it (antike-ref claim GAME --key KEY); "
                     f"the group's rules give the turn {book_of(game).group.missed}")
    else:
        lines.append(f"you wait for {status.active}'s block; then antike-ref accept GAME FILE")
    return lines


def held_signed(game: Game, i: int) -> Signed | None:
    """The signed entry of history entry ``i`` (``None`` if it has none)."""
    try:
        return signed_of(game.history[i], f"entry {i}")
    except PbemError:
        return None
