"""An entry's signed bytes and signature as files, so that ``ssh-keygen -Y verify`` checks
it without antike-ref (docs/without-gm.md, "Checking with OpenSSH alone")."""

from __future__ import annotations

from pbem.errors import UsageError
from pbem.service.game import Game
from pbem.service.signed import chain
from pbem.service.signed.entries import Signed, from_note


def _pick(game: Game, which: str) -> Signed:
    """The signed entry ``which`` names: a history entry's number, or ``join:SEAT`` /
    ``reveal:SEAT`` of the set-up."""
    kind, _, seat = which.partition(":")
    if kind in ("join", "reveal") and seat:
        book = chain.book_of(game)
        held = (book.joins if kind == "join" else book.reveals).get(seat)
        if held is None:
            raise UsageError(f"{which}: no {kind} of {seat} (seats: {', '.join(book.seats)})")
        return held
    if not which.isdigit() or not 0 < int(which) < len(game.history):
        raise UsageError(f"{which}: a history entry from 1 to {len(game.history) - 1}, or join:SEAT / reveal:SEAT")
    note = game.history[int(which)].get("signed")
    if note is None:
        raise UsageError(f"entry {which} is not signed")
    return from_note(note, f"entry {which}")


def exported(game: Game, which: str, seat: str | None = None) -> tuple[bytes, str, str, str]:
    """The message bytes, the armored signature, the identity to check it for
    (``SEAT@GAME``) and the allowed-signers text of entry ``which``."""
    from pbem.trust.keys import read_public_key
    from pbem.trust.signers import AllowedSigner, allowed_signers_text, identity

    signed = _pick(game, which)
    if seat is None:
        if len(signed.sigs) != 1:
            raise UsageError(f"{which} carries the signatures of {', '.join(sorted(signed.sigs))}: give --seat")
        seat = next(iter(signed.sigs))
    if seat not in signed.sigs:
        raise UsageError(f"--seat {seat}: {which} is signed by {', '.join(sorted(signed.sigs)) or 'no one'}")
    if chain.is_signed(game):
        signers = chain.signers_of(chain.book_of(game))
    else:  # a game a GM runs: the key the player signed with
        key = read_public_key(signed.entry.get("key", ""), f"entry {which}")
        signers = (AllowedSigner((identity(seat, game.game_id),), key.with_comment(seat)),)
    return signed.message, signed.sigs[seat], identity(seat, game.game_id), allowed_signers_text(signers)
