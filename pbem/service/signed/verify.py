"""Checking every signature of a game, and saying in words what was checked.

A game without a game master is checked by building it again from its own signed
entries, through the same path an entry takes when a player accepts it
(:func:`pbem.service.signed.chain.extend`): the set-up's joins and reveals, then every
entry, each of which must come out exactly as the file holds it. A game a GM runs may
carry players' signatures on their orders (:mod:`.referee`): each is checked against the
orders the history recorded and the key the player signed with. The proofs a folder kept
(two entries one seat signed for one place) are checked and named.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.errors import PbemError, VerifyFailed
from pbem.service.game import Game
from pbem.service.history import same_json
from pbem.service.signed import chain
from pbem.service.signed.entries import from_note, verify_sig
from pbem.service.signed.setup import Book


def verify_signed(game: Game, bot: chain.Bot | None = None) -> list[str]:
    """Every signature, reveal, claim and ruling of the game without a game master
    ``game`` checked by building it again; what was checked, in words.
    :class:`VerifyFailed` names the first entry that does not come out as held."""
    source = game.source or game.game_id
    try:
        book = Book.from_json(game.history[0]["signed"], f"{source}: the set-up")
        rebuilt = book.start()
    except PbemError as exc:
        raise VerifyFailed(0, f"its set-up does not check: {exc}", game.source) from None
    if not same_json(rebuilt.history[0], game.history[0]):
        raise VerifyFailed(0, "the set-up entry is not what its proposal, joins and reveals make", game.source)
    kinds: Counter[str] = Counter()
    for i in range(1, len(game.history)):
        entry = game.history[i]
        try:
            if "signed" not in entry:
                raise VerifyFailed(i, f"a {entry.get('kind')} nobody signed, in a game without a game master",
                                   game.source)
            signed = from_note(entry["signed"], f"entry {i}")
            rebuilt = chain.extend(rebuilt, signed, f"entry {i}", bot=bot)
        except VerifyFailed:
            raise
        except PbemError as exc:
            raise VerifyFailed(i, str(exc), game.source) from None
        if not same_json(rebuilt.history[i], entry):
            raise VerifyFailed(i, "the entry is not what its signed orders make", game.source)
        kinds[signed.kind] += 1
    seats = ", ".join(f"{s} ({book.key_of(s).fingerprint()})" for s in book.seats)
    lines = [f"set-up: signed by every seat with its key: {seats}; every reveal opens its seat's commitment, "
             f"and the set-up's draws come from them all (start: {rebuilt.history[0].get('setup', {}).get('first')})",
             f"{kinds['turn']} turn{'s' if kinds['turn'] != 1 else ''} signed by their movers, each replaying to the "
             "state it names, each with its mover's next chain value (none used twice)"]
    if kinds["claim"]:
        lines.append(f"{kinds['claim']} missed turn{'s' if kinds['claim'] != 1 else ''} claimed after the deadline "
                     f"and played as the group's rules say ({book.group.missed})")
    if kinds["ruling"]:
        lines.append(f"{kinds['ruling']} ruling{'s' if kinds['ruling'] != 1 else ''} signed by every arbiter "
                     f"({', '.join(book.group.arbiters)})")
    return lines


def proof_lines(game: Game, proofs: list[dict[str, Any]]) -> list[str]:
    """Each kept proof, checked again: who signed two entries for one place (or which two
    branches there are)."""
    book = chain.book_of(game)
    signers = chain.signers_of(book)
    out = []
    for n, proof in enumerate(proofs, start=1):
        try:
            entries = [from_note(note, f"proof {n}") for note in proof["entries"]]
            for signed in entries:
                for seat in signed.sigs:
                    verify_sig(signed, seat, book.key_of(seat), book.game, f"proof {n}", signers)
        except (PbemError, KeyError, TypeError) as exc:
            out.append(f"proof {n}: does not check ({exc}): no proof")
            continue
        seats = sorted(set.intersection(*(set(s.sigs) for s in entries))) if len(entries) > 1 else []
        labels = " and ".join(f"{s.label()} ({s.digest[:12]})" for s in entries)
        if seats:
            out.append(f"EQUIVOCATION: {', '.join(seats)} signed two different entries for entry {proof.get('seq')}: "
                       f"{labels}; both signatures are valid")
        else:
            out.append(f"FORK: two branches at entry {proof.get('seq')}: {labels}; the arbiters decide which stands")
    return out
