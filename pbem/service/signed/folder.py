"""A player's folder of a game without a game master: the files, and the one transaction
each change of them is.

Beside the game file ``GAME.json`` a folder holds, while the set-up is gathered,
``GAME.setup.json`` (the proposal, joins and reveals so far; gone once the game starts:
its first history entry holds them all), ``GAME.allowed_signers`` (one line per seat, for
``ssh-keygen -Y verify``) and, once anyone has cheated, ``GAME.proofs.json`` (two different
entries one seat signed for one place of the history, or entries of two branches). No
player's key, chain or seed is ever in it: a seat's chain is made from its key each time it
is needed (:func:`pbem.service.signed.setup.chain_for`).

Every change takes the game's lock, checks everything it adds, and writes the game file
whole or not at all: an entry refused leaves the game byte for byte as it was (a proof of
cheating is still kept).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.errors import ExitCode, InputError, UsageError
from pbem.service import store
from pbem.service.game import Game
from pbem.service.signed import chain
from pbem.service.signed.blocks import Found, find
from pbem.service.signed.entries import Signed, from_note, sign, verify_sig
from pbem.service.signed.refusals import SignedRefused, Why
from pbem.service.signed.setup import Book, chain_for, checked_proposal, joins_hash, stamp


@dataclass
class Taken:
    """What a text added to a game: the entries new to it, how many it held already, the
    blocks that did not read (each skipped), and whether the game started."""

    game: Game | None
    book: Book | None
    added: list[Signed] = field(default_factory=list)
    held: int = 0
    damaged: list[SignedRefused] = field(default_factory=list)
    started: bool = False


class Conflict(SignedRefused):
    """Two different entries for one place of the history, both validly signed: the proof
    is kept (:attr:`proof`)."""

    def __init__(self, code: Why, message: str, source: str, proof: dict[str, Any]):
        super().__init__(code, message, source)
        self.proof = proof


def take(game: Game | None, book: Book | None, found: list[Found], now: datetime | None = None,
         bot: chain.Bot | None = None) -> Taken:
    """``found`` (blocks in order) added to ``game`` (or, before it starts, to the set-up
    ``book``), in memory: duplicates and entries held already are skipped, a damaged block
    is skipped and noted, anything else wrong is refused (:class:`SignedRefused`, and
    :class:`Conflict` for two entries on one place)."""
    out = Taken(game, book)
    for f in found:
        if f.signed is None:
            assert f.problem is not None  # a block that does not read carries what is wrong with it
            out.damaged.append(f.problem)
            continue
        where = f"{f.signed.label()}, block at line {f.line}"
        held = out.game.game_id if out.game is not None else out.book.game if out.book is not None else None
        if held is not None and f.signed.entry["game"] != held:  # a block of another game pasted in
            out.damaged.append(SignedRefused(Why.OTHER_GAME, f"a block of game {f.signed.entry['game']}, not of "
                                                             f"{held}: skipped", where))
            continue
        if f.signed.kind in ("proposal", "join", "reveal"):
            _take_setup(out, f.signed, where)
        elif out.game is None:
            waiting = out.book.waiting_words() if out.book else "the proposal"
            raise SignedRefused(Why.WAITING, f"the game has not started: waiting for {waiting}", where)
        else:
            _take_entry(out, f.signed, where, now, bot)
    return out


def _take_setup(out: Taken, signed: Signed, where: str) -> None:
    if out.game is not None:
        if chain.book_of(out.game).holds(signed):
            out.held += 1
            return
        raise SignedRefused(Why.SETUP, "the game has started; its set-up holds no such entry", where)
    if out.book is None:
        if signed.kind != "proposal":
            raise SignedRefused(Why.GAP, "a join or reveal before the proposal: accept the proposal's block first",
                                where)
        out.book = Book(checked_proposal(signed))
        out.added.append(signed)
        return
    if signed.kind == "proposal" and out.book.proposal.same(signed):
        out.held += 1
        return
    if out.book.add(signed, where):
        out.added.append(signed)
    else:
        out.held += 1
    if out.book.complete:
        out.game = out.book.start()
        out.started = True


def _take_entry(out: Taken, signed: Signed, where: str, now, bot) -> None:
    game = out.game
    assert game is not None  # an entry is taken once the set-up has made the game
    e = signed.entry
    seq, size = e["seq"], len(game.history)
    if signed.kind == "ruling" and not chain.complete(game, signed) \
            and set(signed.sigs) <= set(chain.book_of(game).group.arbiters):
        out.damaged.append(SignedRefused(Why.UNSIGNED, "a ruling still waiting for the other arbiters' signatures "
                                                       "(antike-ref rule --cosign): skipped", where))
        return
    if seq == size and e["prev"] == game.history[-1]["hash"]:
        out.game = chain.extend(game, signed, where, now, bot)
        out.added.append(signed)
        return
    if e["game"] != game.game_id:
        raise SignedRefused(Why.OTHER_GAME, f"an entry of game {e['game']}, not of {game.game_id}", where)
    if seq > size:
        raise SignedRefused(Why.GAP, f"entry {seq} follows entry {seq - 1}, which this copy does not hold (it holds "
                                     f"{size - 1}): accept the entries before it first", where)
    held = chain.held_signed(game, seq) if 0 < seq < size else None
    if held is not None and held.same(signed) or _cosigned_already(held, signed):
        out.held += 1
        return
    if not 0 < seq < size or game.history[seq]["prev"] != e["prev"]:
        raise SignedRefused(Why.FORK, f"entry {seq} follows {e['prev'][:12]}, an entry this copy does not hold: it "
                                      "belongs to another branch of the game", where)
    _conflict(game, held, signed, where)


def _cosigned_already(held: Signed | None, signed: Signed) -> bool:
    """A ruling held with every signature, met again with some of them (as it was passed
    round to be co-signed)."""
    return (held is not None and held.kind == "ruling" and held.message == signed.message
            and all(held.sigs.get(seat) == sig for seat, sig in signed.sigs.items()))


def _conflict(game: Game, held: Signed | None, signed: Signed, where: str) -> None:
    """An entry for a place the game holds another entry for: refused; with a valid
    signature it is kept as a proof (one seat twice: equivocation; two seats: a fork)."""
    book = chain.book_of(game)
    signers = chain.signers_of(book)
    for seat in signed.sigs:
        if seat in book.seats:
            verify_sig(signed, seat, book.key_of(seat), book.game, where, signers)
    seq = signed.entry["seq"]
    mine = set(held.sigs) if held else set()
    twice = sorted(mine & set(signed.sigs))
    proof = {"seq": seq, "seats": twice or sorted(mine | set(signed.sigs)),
             "entries": [n.note() for n in (held, signed) if n is not None]}
    if twice:
        assert held is not None  # twice: seats that signed the entry held
        raise Conflict(Why.EQUIVOCATION, f"{', '.join(twice)} signed two different entries for entry {seq} (this copy "
                                         f"holds {held.label()}): kept as proof in the proofs file", where, proof)
    raise Conflict(Why.FORK, f"entry {seq} is held already ({held.label() if held else 'the set-up'}); this is "
                             "another branch: kept in the proofs file, for the arbiters", where, proof)


class Folder:
    """The files of one game without a game master in a player's folder."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.setup_path = store.sibling(self.path, ".setup.json")
        self.proofs_path = store.sibling(self.path, ".proofs.json")
        self.signers_path = store.sibling(self.path, ".allowed_signers")

    # -- reading --------------------------------------------------------------------------

    def load(self) -> tuple[Game | None, Book | None]:
        """The game, or before it starts the set-up gathered so far (both ``None``: nothing
        here yet)."""
        if self.path.exists():
            game = store.load_game(self.path)
            if not chain.is_signed(game):
                raise UsageError(f"{self.path}: a game run by a game master (it has passwords, no keys)")
            return game, None
        if self.setup_path.exists():
            from pbem.service.schemas import read_json

            return None, Book.from_json(read_json(self.setup_path), str(self.setup_path))
        return None, None

    def proofs(self) -> list[dict[str, Any]]:
        if not self.proofs_path.exists():
            return []
        from pbem.service.schemas import read_json

        data = read_json(self.proofs_path)
        if not isinstance(data, dict) or not isinstance(data.get("proofs"), list):
            raise InputError(str(self.proofs_path), "expected an object with a list of proofs")
        return data["proofs"]

    # -- writing --------------------------------------------------------------------------

    def _save(self, taken: Taken, before: tuple[Game | None, Book | None]) -> None:
        from pbem.service.schemas import dumps
        from pbem.service.service import commit

        if taken.game is not None and (taken.added or taken.started or before[0] is None):
            with commit(self.path):
                store.save_game(taken.game, self.path)
            self._write_signers(taken.game)
            if self.setup_path.exists():
                self.setup_path.unlink()
        elif taken.book is not None and taken.added:
            store.write_atomic(self.setup_path, dumps(taken.book.to_json()))

    def _write_signers(self, game: Game) -> None:
        from pbem.trust.signers import allowed_signers_text

        text = allowed_signers_text(chain.signers_of(chain.book_of(game)))
        if not self.signers_path.exists() or self.signers_path.read_text(encoding="utf-8") != text:
            store.write_atomic(self.signers_path, text)

    def _keep_proof(self, proof: dict[str, Any]) -> None:
        from pbem.service.schemas import dumps

        proofs = self.proofs()
        if proof not in proofs:
            store.write_atomic(self.proofs_path, dumps({"proofs": [*proofs, proof]}))

    def change(self, make, must_exist: bool = False) -> Taken:
        """Under the game's lock: ``make(game, book)`` returns what to add (a
        :class:`Taken`), which is saved; a conflict's proof is kept even though the change
        is refused."""
        with store.locked(self.path, must_exist=False):
            before = self.load()
            if must_exist and before[0] is None:
                raise InputError(str(self.path), "the game has not started here yet: " + (
                    f"waiting for {before[1].waiting_words()}" if before[1] else "no set-up in this folder"))
            try:
                taken = make(*before)
            except Conflict as exc:
                self._keep_proof(exc.proof)
                raise
            self._save(taken, before)
            return taken

    # -- the set-up -----------------------------------------------------------------------

    def propose(self, proposal: Signed, force: bool = False) -> None:
        """Write the proposal as the set-up file (``new --signed``)."""
        from pbem.service.schemas import dumps

        with store.locked(self.path, must_exist=False):
            for path in (self.path, self.setup_path):
                if path.exists() and not force:
                    raise UsageError(f"{path} exists already (use --force to overwrite)")
            if force and self.path.exists():
                self.path.unlink()
            store.write_atomic(self.setup_path, dumps(Book(proposal).to_json()))

    def join(self, key, seat: str, now: datetime, text: str | None = None, source: str = "") -> Signed:
        """The holder of ``key`` joins as ``seat`` (the proposal from ``text`` if this folder
        has none yet)."""
        made: list[Signed] = []

        def make(game, book):
            if game is not None:
                raise UsageError(f"{self.path}: the game has started already")
            if book is None:
                proposals = [f.signed for f in find(text or "", source) if f.signed and f.signed.kind == "proposal"]
                if not proposals:
                    raise UsageError("no proposal here yet: give the text holding the proposal's block")
                book = Book(checked_proposal(proposals[0]))
            p = book.entry
            chained = chain_for(key, book.proposal.digest, book.game, seat, p["chain"])
            entry = {"v": 1, "kind": "join", "game": book.game, "proposal": book.proposal.digest, "seat": seat,
                     "key": key.public.with_comment("").line(), "head": chained.head.hex(), "length": p["chain"],
                     "time": max(stamp(now), p["time"])}
            signed = sign(entry, seat, key)
            book.add(signed, f"{seat}'s join")
            made.append(signed)
            return Taken(None, book, [signed])

        self.change(make)
        return made[0]

    def reveal(self, key, now: datetime) -> tuple[Signed, Taken]:
        """The holder of ``key`` reveals its first value (every seat must have joined)."""
        made: list[Signed] = []

        def make(game, book):
            if game is not None or book is None:
                raise UsageError(f"{self.path}: " + ("the game has started already" if game else "no set-up here"))
            seat = next((s for s in book.joins if book.key_of(s) == key.public), None)
            if seat is None:
                raise UsageError(f"--key {key.public.fingerprint()}: no seat of {book.game} has joined with this key")
            joins, _ = book.missing()
            if joins:
                raise SignedRefused(Why.WAITING, f"reveal once every seat has joined: waiting for {', '.join(joins)}",
                                    "your reveal", ExitCode.REFUSED)
            chained = chain_for(key, book.proposal.digest, book.game, seat, book.entry["chain"])
            latest = max(j.entry["time"] for j in book.joins.values())
            entry = {"v": 1, "kind": "reveal", "game": book.game, "proposal": book.proposal.digest,
                     "joins": joins_hash(book.joins, book.seats), "seat": seat, "value": chained.reveal(1).hex(),
                     "time": max(stamp(now), latest)}
            signed = sign(entry, seat, key)
            taken = Taken(None, book)
            _take_setup(taken, signed, "your reveal")
            made.append(signed)
            return taken

        taken = self.change(make)
        return made[0], taken

    # -- the game -------------------------------------------------------------------------

    def accept(self, text: str, source: str, now: datetime | None = None, bot: chain.Bot | None = None) -> Taken:
        """The blocks in ``text`` added to this folder's game (or set-up)."""
        found = find(text, source)
        if not any(f.signed for f in found):
            raise InputError(source, "no block of antike-ref entries here (-----BEGIN ANTIKE-REF ENTRY-----)"
                             + (f"; {len(found)} damaged: {found[0].problem}" if found else ""))
        return self.change(lambda game, book: take(game, book, found, now, bot))

    def rebuild(self, text: str, source: str, bot: chain.Bot | None = None, force: bool = False) -> Taken:
        """The whole game from ``text`` alone (a saved forum thread, a mailbox): written to
        this folder's game file, which must not exist unless ``force``."""
        found = find(text, source)
        taken = take(None, None, found, None, bot)
        if taken.game is None:
            waiting = taken.book.waiting_words() if taken.book else "the proposal"
            raise SignedRefused(Why.WAITING, f"the text does not hold a whole set-up: waiting for {waiting}", source)
        with store.locked(self.path, must_exist=False):
            if self.path.exists() and not force:
                raise UsageError(f"{self.path} exists already (use --force to overwrite it with the rebuilt game)")
            self._save(taken, (None, None))
        return taken

    def play(self, given, key, now: datetime):
        """The holder of ``key`` plays the order file ``given`` (an :class:`Input
        <pbem.service.service.Input>`; no password needed): (game before, after, the signed
        entry, the turn's result, the reading of text orders)."""
        from pbem.service.service import read_orders_for_game, told_by_line

        made: list[Any] = []

        def make(game, book):
            orders, reading = read_orders_for_game(game, without_password(given))
            with told_by_line(reading):
                after, signed, result = chain.make_turn(game, orders, key, now)
            made.extend([game, after, signed, result, reading])
            return Taken(after, None, [signed])

        self.change(make, must_exist=True)
        return tuple(made)

    def claim(self, key, now: datetime, bot: chain.Bot | None = None) -> Signed:
        made: list[Signed] = []

        def make(game, book):
            after, signed = chain.make_claim(game, key, now, bot)
            made.append(signed)
            return Taken(after, None, [signed])

        self.change(make, must_exist=True)
        return made[0]

    def rule(self, key, now: datetime, reason: str = "", until: datetime | None = None,
             edits: list | None = None, cosign: str | None = None, source: str = "") -> tuple[Signed, bool]:
        """An arbiter's ruling, or (``cosign``: the text holding one) an arbiter's signature
        added to it; applied once every arbiter has signed. Returns it and whether it was
        applied."""
        made: list[Any] = []

        def make(game, book):
            if cosign is None:
                signed = chain.make_ruling(game, key, reason, until, edits or [], now)
            else:
                rulings = [f.signed for f in find(cosign, source) if f.signed and f.signed.kind == "ruling"]
                if not rulings:
                    raise InputError(source, "no ruling's block here to co-sign")
                signed = chain.cosign(game, rulings[-1], key)
            done = chain.complete(game, signed)
            after = chain.extend(game, signed, "the ruling", now) if done else game
            made.extend([signed, done])
            return Taken(after, None, [signed] if done else [])

        self.change(make, must_exist=True)
        return made[0], made[1]


def without_password(given):
    """An order file of a game without a game master, which needs no password: the
    stand-in ``-`` where the order file's form wants one."""
    import re
    from dataclasses import replace

    if given.form == "text":
        if re.search(r"(?im)^\s*password\b", given.data) is None:
            return replace(given, data="password -\n" + given.data, lines=None)
        return given
    if isinstance(given.data, dict) and "password" not in given.data:
        return replace(given, data={**given.data, "password": "-"})
    return given


def game_blocks(game: Game, since: int = 0) -> list[Signed]:
    """The signed entries of ``game`` from history entry ``since`` on (the set-up's
    proposal, joins and reveals for entry 0), in order: what ``blocks`` prints."""
    out: list[Signed] = []
    for i in range(max(since, 0), len(game.history)):
        note = game.history[i].get("signed")
        if note is None:
            continue
        if i == 0:
            out += [from_note(note["proposal"], "the proposal")]
            out += [from_note(n, "the set-up") for n in note["joins"] + note["reveals"]]
        else:
            out.append(from_note(note, f"entry {i}"))
    return out
