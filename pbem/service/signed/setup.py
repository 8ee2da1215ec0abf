"""Setting a game up without a trusted party: a proposal, every seat's join, every seat's
reveal, and only then the set-up's draws.

1. **The proposal** (``new --signed``): the game id, edition, board, seats, variants and
   set-up options, the group's rules (the deadline, what a missed turn gets, the
   arbiters) and the length of every seat's hash chain. It is not signed: its hash is
   what every seat signs.
2. **Joins**: each seat signs, over the proposal's hash, its public key and the head of a
   hash chain (:mod:`pbem.trust.commit`) made from a seed only its key can make
   (:func:`chain_for`: nothing of it is written anywhere).
3. **Reveals**, once every seat has joined: each seat signs the hash of all the joins (so
   it agrees to every key and every head) and reveals the first value of its chain.
   Nobody can choose a value after seeing another's: every value was fixed by its head
   before the first reveal. That is why there are two phases.
4. **The start**: with every reveal in, every copy computes the same set-up: the game's
   seed and every draw the edition's set-up makes (a start nation or a start player drawn by
   lot) come from all the reveals together
   (:class:`SetupLots`). The game's first history entry keeps the proposal, the joins and
   the reveals with their signatures.

A :class:`Book` holds a set-up while it is gathered (in ``GAME.setup.json`` until the
game starts); adding an entry to it checks it at once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pbem.errors import ExitCode, UsageError
from pbem.service.signed.entries import Signed, from_note, verify_sig
from pbem.service.signed.refusals import SignedRefused, Why

CHAIN = 1000
"""Values in each seat's chain unless the proposal says otherwise: one for the set-up and
one for each of the seat's turns (a long game has under 200 turns a seat)."""
SEED_TAG = "antike-ref chain seed v1"
JOINS_TAG = "antike-ref joins v1"
NO_PASSWORD = "-"
"""What a game without a game master keeps in place of a seat's password hash: a seat
signs with its key instead."""


def stamp(moment: datetime) -> str:
    """A signed time: UTC, to the second, ``2026-11-30T18:00:00Z``."""

    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_stamp(text: str) -> datetime:

    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def engine() -> str:
    """The program and version an entry was made with."""
    import pbem

    return f"antike-ref {pbem.__version__}"


@dataclass(frozen=True)
class Group:
    """The group's rules, agreed in the proposal: the time a seat has for its turn, what a
    turn it misses gets (``default``: the default turn; ``bot-random``, ``bot-greedy``: that
    bot's turn), and the seats whose joint signature settles a dispute."""

    deadline: str
    missed: str
    arbiters: tuple[str, ...]

    @property
    def allowance(self):
        from pbem.service.numbers import duration

        return duration(self.deadline, "the group's deadline")

    def to_json(self) -> dict[str, Any]:
        return {"deadline": self.deadline, "missed": self.missed, "arbiters": list(self.arbiters)}


def proposal(edition, opts, board, group: Group, chain: int, now: datetime) -> Signed:
    """The proposal of a game (``new --signed``): checked by setting the game up once
    with a stand-in for the draws, so that what ``new`` would refuse is refused now, not
    after every seat has joined."""
    from pbem.service.creation import start

    if edition.secrets and not edition.secrets.draws_by_chance:
        raise UsageError(f"--signed: {edition.name} keeps {edition.secrets.words} hidden, whose draws during play are "
                         "not yet made without a game master: a game master runs it (docs/without-gm.md, \"Chance\")")
    if not board.shipped:
        raise UsageError("--signed: a game without a game master plays on a shipped board (every copy must have it)")
    if opts.revision is None:
        opts = opts.replace(revision=edition.revision)
    seats = list(opts.nations)
    for arbiter in group.arbiters:
        if arbiter not in seats:
            raise UsageError(f"--arbiter {arbiter}: not among --nations")
    group.allowance  # noqa: B018 - a bad deadline is refused here
    if not 1 <= chain <= 100_000:
        raise UsageError(f"--chain {chain}: from 1 to 100000 values")
    start(edition, opts.replace(seed="proposal", chance=_First()), board)  # what new refuses, with its words
    setup = {k: v for k, v in opts.replace(seed=None).to_json().items() if k not in ("game_id", "board", "nations")}
    entry = {"v": 1, "kind": "proposal", "game": opts.game_id, "edition": edition.id, "revision": edition.revision,
             "board": board.id, "board_sha256": board.sha256, "seats": seats, "setup": setup,
             "group": group.to_json(), "chain": chain, "engine": engine(), "time": stamp(now)}
    from pbem.service.signed.entries import check_shape

    return checked_proposal(Signed(check_shape(entry, "the proposal")))


def checked_proposal(proposal: Signed) -> Signed:
    """``proposal`` if it sets a game up (with a stand-in for the draws) and its group's
    rules read; :class:`SignedRefused` naming what is wrong otherwise."""
    p = proposal.entry
    if p["kind"] != "proposal":
        raise SignedRefused(Why.MALFORMED, f"{proposal.label()} is not a proposal", "the proposal")
    group = p["group"]
    if any(a not in p["seats"] for a in group["arbiters"]) or not 1 <= p["chain"] <= 100_000:
        raise SignedRefused(Why.MALFORMED, "its arbiters are not among its seats, or its chain is not from 1 to "
                                           "100000 values", "the proposal")
    try:
        Group(group["deadline"], group["missed"], tuple(group["arbiters"])).allowance  # noqa: B018 - read it
    except UsageError as exc:
        raise SignedRefused(Why.MALFORMED, str(exc), "the proposal") from None
    set_up(proposal, "proposal", _First())
    return proposal


class _First:
    """A stand-in for the draws while a proposal is checked."""

    def below(self, n: int, purpose: str) -> int:
        return 0


def chain_for(key, proposal_hash: str, game: str, seat: str, length: int):
    """The hash chain of ``seat`` for the proposal ``proposal_hash``, from a seed only the
    holder of ``key`` can make: SHA-256 of the tag and of the key's Ed25519 signature of
    the tag, the proposal's hash and the seat (Ed25519 signatures are deterministic, so the
    same key gives the same chain every time, and nothing of it is written anywhere)."""
    from pbem.trust.commit import HashChain
    from pbem.trust.wire import strings

    signature = key.sign(strings(SEED_TAG, proposal_hash, seat))
    seed = hashlib.sha256(strings(SEED_TAG, signature)).digest()
    return HashChain(seed, game, seat, length)


def joins_hash(joins: Mapping[str, Signed], seats: list[str]) -> str:
    """What every reveal signs: the hash of every join, in the seats' order."""
    from pbem.trust.wire import strings

    return hashlib.sha256(strings(JOINS_TAG, *[joins[s].digest for s in seats])).hexdigest()


@dataclass(frozen=True)
class SetupLots:
    """The set-up's draws of a game without a game master: each from every seat's first
    reveal (:func:`pbem.trust.commit.draw`, turn 0, the purpose as the edition names it)."""

    game: str
    reveals: Mapping[str, bytes]

    def below(self, n: int, purpose: str) -> int:
        from pbem.trust.commit import draw

        return draw(self.game, 0, purpose, self.reveals, n)

    def seed(self) -> str:
        """The game's stored seed (its bots and everything else a seed decides)."""
        from pbem.trust.commit import draw_key

        return draw_key(self.game, 0, "seed", self.reveals).hex()[:32]


@dataclass
class Book:
    """A set-up being gathered: the proposal, and the joins and reveals so far."""

    proposal: Signed
    joins: dict[str, Signed] = field(default_factory=dict)
    reveals: dict[str, Signed] = field(default_factory=dict)

    @property
    def entry(self) -> dict[str, Any]:
        return self.proposal.entry

    @property
    def game(self) -> str:
        return self.entry["game"]

    @property
    def seats(self) -> list[str]:
        return list(self.entry["seats"])

    @property
    def group(self) -> Group:
        g = self.entry["group"]
        return Group(g["deadline"], g["missed"], tuple(g["arbiters"]))

    def key_of(self, seat: str):
        from pbem.trust.keys import read_public_key

        return read_public_key(self.joins[seat].entry["key"], f"{seat}'s join")

    def missing(self) -> tuple[list[str], list[str]]:
        """The seats that have not joined, and those that have not revealed."""
        return [s for s in self.seats if s not in self.joins], [s for s in self.seats if s not in self.reveals]

    @property
    def complete(self) -> bool:
        return not any(self.missing())

    def holds(self, signed: Signed) -> bool:
        """Whether ``signed`` is in the book already."""
        held = {"proposal": {"": self.proposal}, "join": self.joins, "reveal": self.reveals}.get(signed.kind, {})
        found = held.get(signed.seat or "")
        return found is not None and found.same(signed)

    def add(self, signed: Signed, source: str) -> bool:
        """Check ``signed`` (a join or a reveal) and keep it; ``False`` if it is held
        already. :class:`SignedRefused` if it does not fit."""
        if self.holds(signed):
            return False
        e = signed.entry
        if signed.kind == "proposal" or e.get("game") != self.game or e.get("proposal") != self.proposal.digest:
            raise SignedRefused(Why.OTHER_GAME, f"not of this set-up (game {self.game}, proposal "
                                                f"{self.proposal.digest[:12]})", source)
        seat = e["seat"]
        if seat not in self.seats:
            raise SignedRefused(Why.NOT_A_SEAT, f"{seat} is not a seat of {self.game} ({', '.join(self.seats)})",
                                source)
        if signed.kind == "join":
            self._join(signed, seat, source)
        elif signed.kind == "reveal":
            self._reveal(signed, seat, source)
        else:
            raise SignedRefused(Why.WAITING, f"a {signed.kind} before the game has started (waiting for "
                                             f"{self.waiting_words()})", source)
        return True

    def _join(self, signed: Signed, seat: str, source: str) -> None:
        from pbem.trust.keys import read_public_key

        e = signed.entry
        if seat in self.joins:
            raise SignedRefused(Why.SETUP, f"{seat} has joined already, with the key "
                                           f"{self.key_of(seat).fingerprint()}; a second join is refused", source)
        if e["length"] != self.entry["chain"]:
            raise SignedRefused(Why.SETUP, f"a chain of {e['length']} values; the proposal says {self.entry['chain']}",
                                source)
        _not_before(e["time"], self.entry["time"], "the proposal", source)
        from pbem.errors import InputError

        try:
            key = read_public_key(e["key"], source)
        except InputError as exc:
            raise SignedRefused(Why.MALFORMED, f"the key does not read: {exc}", source) from None
        verify_sig(signed, seat, key, self.game, source)
        self.joins[seat] = signed

    def _reveal(self, signed: Signed, seat: str, source: str) -> None:
        from pbem.trust.commit import Commitment, Tracker

        missing = self.missing()[0]
        if missing:
            raise SignedRefused(Why.SETUP, f"a reveal before every seat has joined (waiting for {', '.join(missing)})",
                                source)
        e = signed.entry
        if e["joins"] != joins_hash(self.joins, self.seats):
            raise SignedRefused(Why.SETUP, "this reveal agrees to another set of joins (another key or chain head "
                                           "for some seat) than this copy holds", source)
        if seat in self.reveals:
            raise SignedRefused(Why.SETUP, f"{seat} has revealed already; a second reveal is refused", source)
        for other in self.joins.values():
            _not_before(e["time"], other.entry["time"], f"{other.seat}'s join", source)
        verify_sig(signed, seat, self.key_of(seat), self.game, source)
        join = self.joins[seat].entry
        Tracker(Commitment(self.game, seat, bytes.fromhex(join["head"]), join["length"])).check(
            bytes.fromhex(e["value"]), source)
        self.reveals[seat] = signed

    def waiting_words(self) -> str:
        joins, reveals = self.missing()
        if joins:
            return f"joins from {', '.join(joins)}"
        return f"reveals from {', '.join(reveals)}" if reveals else "nothing"

    def lots(self) -> SetupLots:
        return SetupLots(self.game, {s: bytes.fromhex(r.entry["value"]) for s, r in self.reveals.items()})

    def started(self) -> str:
        """The signed time the game starts at: the last reveal's."""
        return max(r.entry["time"] for r in self.reveals.values())

    def note(self) -> dict[str, Any]:
        """What the game's first history entry keeps under ``signed``."""
        return {"proposal": self.proposal.note(), "joins": [self.joins[s].note() for s in self.seats],
                "reveals": [self.reveals[s].note() for s in self.seats]}

    def to_json(self) -> dict[str, Any]:
        """The set-up file (``GAME.setup.json``) while the set-up is gathered."""
        return {"proposal": self.proposal.note(),
                "joins": [self.joins[s].note() for s in self.seats if s in self.joins],
                "reveals": [self.reveals[s].note() for s in self.seats if s in self.reveals]}

    @classmethod
    def from_json(cls, data: Any, source: str) -> Book:
        """A set-up file, or a game's first ``signed``: every entry checked again."""
        if not (isinstance(data, dict) and set(data) == {"proposal", "joins", "reveals"}
                and isinstance(data["joins"], list) and isinstance(data["reveals"], list)):
            raise SignedRefused(Why.MALFORMED, "a set-up holds the proposal, the joins and the reveals", source)
        book = cls(checked_proposal(from_note(data["proposal"], f"{source}: the proposal")))
        for what in ("joins", "reveals"):
            for i, note in enumerate(data[what]):
                where = f"{source}: {what[:-1]} {i + 1}"
                book.add(from_note(note, where), where)
        return book

    def start(self):
        """The game every copy sets up from the complete book (:class:`SignedRefused`
        ``setup/waiting`` while it is not)."""
        from pbem.service.creation import record

        if not self.complete:
            raise SignedRefused(Why.WAITING, f"the set-up is not complete: waiting for {self.waiting_words()}",
                                exit_code=ExitCode.REFUSED)
        lots = self.lots()
        created, entry = set_up(self.proposal, lots.seed(), lots)
        for meta in created.meta.values():
            meta.password = NO_PASSWORD
        return record(created, {**entry, "signed": self.note()})

    def summary(self) -> str:
        """The proposal in words, for a player to read before joining."""
        p = self.entry
        setup = p["setup"]
        options = ""
        if setup.get("variants"):
            options += f", variants {', '.join(setup['variants'])}"
        if setup.get("first"):
            options += f", start nation {setup['first']}"
        return (f"game {self.game}: {p['edition']} on {p['board']}, seats {', '.join(self.seats)}{options}; "
                f"{self.group.deadline} a turn, a missed turn gets {self.group.missed}, arbiters "
                f"{', '.join(self.group.arbiters)}; proposed {p['time']}")


def set_up(proposal: Signed, seed: str, chance):
    """The game ``proposal`` sets up with ``seed`` and the draws of ``chance`` (the start:
    every reveal's; the check of a proposal: a stand-in), and the body of its first entry.
    A proposal that sets no game up (another program's, a stranger's) is refused by name."""
    from pbem import editions
    from pbem.errors import PbemError
    from pbem.service.boards import load_board
    from pbem.service.creation import recorded_options, start

    p = proposal.entry
    where = "the proposal"
    try:
        edition = editions.get(p["edition"])
        board = load_board(p["board"])
        opts = recorded_options({**p["setup"], "game_id": p["game"], "board": p["board"], "nations": p["seats"],
                                 "seed": seed})
    except (PbemError, ValueError) as exc:
        raise SignedRefused(Why.MALFORMED, f"it sets no game up: {exc}", where) from None
    hidden = edition.secrets is not None and not edition.secrets.draws_by_chance
    if board.sha256 != p["board_sha256"] or p["revision"] > edition.revision or hidden:
        raise SignedRefused(Why.OTHER_GAME, f"it plays {p['edition']} revision {p['revision']} on board {p['board']} "
                                            f"{p['board_sha256'][:12]}; this antike-ref plays revisions up to "
                                            f"{edition.revision} on board {board.sha256[:12]}"
                                            + (" and no hidden cards without a GM" if hidden else "")
                                            + f": use the version it was made with ({p['engine']})", where)
    try:
        return start(edition, opts.replace(chance=chance), board)
    except PbemError as exc:
        raise SignedRefused(Why.MALFORMED, f"it sets no game up: {exc}", where) from None


def _not_before(time: str, earlier: str, what: str, source: str) -> None:
    if time < earlier:
        raise SignedRefused(Why.BACKWARDS, f"signed at {time}, before {what} ({earlier})", source)


def setup_lots(first_signed: Any) -> SetupLots:
    """The set-up's draws of a game from its first entry's ``signed`` (what a replay sets
    the game up with again; the signatures are ``verify``'s to check)."""
    reveals = {}
    for note in first_signed.get("reveals", []) if isinstance(first_signed, dict) else []:
        entry = note.get("entry", {}) if isinstance(note, dict) else {}
        if isinstance(entry.get("seat"), str) and isinstance(entry.get("value"), str):
            reveals[entry["seat"]] = bytes.fromhex(entry["value"]) if len(entry["value"]) == 64 else b""
    game = (first_signed.get("proposal", {}).get("entry", {}) if isinstance(first_signed, dict) else {}).get("game", "")
    return SetupLots(str(game), reveals)
