"""The mails a mail server hands ``mail receive`` (a Postfix ``pipe``, procmail, a Sieve
``pipe``), kept in a folder until every game of the configuration has read them.

``mail receive`` first keeps the mail (:func:`keep`: written whole and synced to disk
before anything else happens), then runs the cycle on the folder (:class:`Arrivals`, a
mail source like a Maildir). A mail every game has noted in its ledger is taken out of
the folder again; one that a game could not read now (its mail lock held by another run,
a file it could not write) stays, and the next ``mail run``, ``mail watch`` or ``mail
receive`` reads it, so a mail the server handed over is never lost, and, read by
Message-ID as every mail is, never applied twice.

The folder is a Maildir (``new/``, ``cur/``, ``tmp/``; mode 700, each mail 600: an order
mail holds a password): waiting mails are in ``new/``. A mail that tripped a bug of ours
is moved to ``cur/`` rather than deleted, for the GM's report of it. Each file is named
``TIME.DIGEST.mail`` (the time it arrived, in nanoseconds, and a digest of its bytes: a
mail handed over twice is kept once), or ``TIME.DIGEST.head-SIZE`` for a mail larger than
the configuration's ``max_message``: only its header is kept, and it is answered as a mail
that large is (:func:`pbem.mail.inbox.unreadable`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from pbem.mail.config import Limits
from pbem.mail.inbox import HEAD, Incoming, Known, LocalSource, header_id, read_message, unreadable
from pbem.mail.watermarks import ARRIVAL
from pbem.service import store

WAITING = "new"
KEPT = "cur"
CHUNK = 64 * 1024


def read_mail(stream: BinaryIO, limits: Limits) -> tuple[bytes, int]:
    """One mail from ``stream`` (standard input, as a mail server's pipe hands it over): its
    bytes and its size. Memory stays bounded: of a mail larger than ``limits.size`` only the
    first :data:`~pbem.mail.inbox.HEAD` bytes are kept, the rest is read and counted. An
    mbox ``From `` line before the header (procmail, Postfix's ``pipe`` with flag ``F``) is
    not part of the mail."""
    kept = bytearray()
    size = 0
    first = True
    while True:
        chunk = stream.read(CHUNK)
        if not chunk:
            break
        if first:
            first = False
            if chunk.startswith(b"From "):
                while b"\n" not in chunk:  # a From line longer than a chunk
                    more = stream.read(CHUNK)
                    if not more:
                        break
                    chunk += more
                chunk = chunk.split(b"\n", 1)[1] if b"\n" in chunk else b""
        size += len(chunk)
        if size <= limits.size:
            kept += chunk
        elif len(kept) < HEAD:
            kept += chunk[:HEAD - len(kept)]
    return bytes(kept[:HEAD] if size > limits.size else kept), size


def folder_of(path: str | os.PathLike) -> Path:
    """The arrivals folder, made if missing (mode 700, never through a symbolic link)."""
    base = store.owned_folder(Path(path))
    for sub in (WAITING, KEPT, "tmp"):
        store.owned_folder(base / sub)
    return base


def keep(folder: str | os.PathLike, raw: bytes, size: int, now_ns: int) -> Path:
    """Keep one mail in the folder's ``new/``, synced to disk; a mail with the same bytes
    waiting there already is not kept twice. Raises :class:`pbem.errors.CannotWrite`."""
    waiting = folder_of(folder) / WAITING
    digest = hashlib.sha256(raw).hexdigest()[:24]
    tail = "mail" if len(raw) == size else f"head-{size}"
    for entry in _entries(waiting):
        if entry.name.split(".")[1] == digest and entry.name.endswith(f".{tail}"):
            return entry
    return store.write_in(waiting, f"{now_ns:020d}.{digest}.{tail}", raw)


def _entries(folder: Path) -> list[Path]:
    """The mails in ``folder`` (``new/`` or ``cur/``), oldest first; only regular files
    named as :func:`keep` names them."""
    try:
        with os.scandir(folder) as found:
            names = [e.name for e in found if ARRIVAL.match(e.name) and e.is_file(follow_symlinks=False)]
    except OSError:
        return []
    return [folder / n for n in sorted(names)]


def waiting(folder: str | os.PathLike | None) -> list[Path]:
    """The mails waiting in the arrivals folder, oldest first (none if there is no folder)."""
    return [] if folder is None else _entries(Path(folder) / WAITING)


Settled = Callable[[str], str | None]
"""Whether every game of the configuration has noted a Message-ID: ``None`` if not (the mail
stays), ``"failed"`` if a game noted it as a mail that tripped a bug (the mail is kept in
``cur/``), anything else if it is done with (the mail is taken out)."""


class Arrivals:
    """The arrivals folder as a mail source (:class:`pbem.mail.inbox.Source`). After each
    mail has been handled (and for each mail every game knows already) ``settled`` is
    asked about it; a settled mail leaves ``new/`` unless ``sweep`` is false (a dry run).
    :attr:`left` names the mails still waiting after a reading."""

    def __init__(self, folder: str | os.PathLike, limits: Limits, settled: Settled, sweep: bool = True):
        self.folder = Path(folder)
        self.name = str(self.folder)
        self.limits = limits
        self.settled = settled
        self.sweep = sweep
        self.left: list[Path] = []

    def messages(self, known: Known) -> Iterator[Incoming]:
        self.left = []
        for path in waiting(self.folder):
            found = ARRIVAL.match(path.name)
            assert found is not None
            if found.group(4) is not None:
                size = int(found.group(4))
                head = store.read_in(path, HEAD) or b""
                incoming: Incoming | None = unreadable(head, f"it is {size:,} bytes, more than the "
                                                             f"{self.limits.size:,} the referee reads", size)
                assert incoming is not None
                message_id = incoming.message_id
                if known(message_id, incoming.fingerprint):
                    incoming = None
            else:
                incoming = next(iter(LocalSource(path, "file", self.limits).messages(known)), None)
                message_id = incoming.message_id if incoming is not None else _id(path, self.limits)
            if incoming is not None:
                yield incoming
            if message_id is not None:
                self._settle(path, message_id)

    def _settle(self, path: Path, message_id: str) -> None:
        outcome = self.settled(message_id)
        if outcome is None or not self.sweep:
            self.left.append(path)
            return
        try:
            if outcome == "failed":
                os.replace(path, self.folder / KEPT / path.name)
            else:
                os.unlink(path)
        except OSError:
            self.left.append(path)


def _id(path: Path, limits: Limits) -> str | None:
    """The Message-ID of a kept mail that every game knows (as the reader found it);
    ``None`` if the file cannot be read now (it stays)."""
    raw = store.read_in(path, limits.size + 1)
    if raw is None:
        return None
    try:
        return header_id(raw)
    except Exception:  # a header too broken for the quick look: the id the full reading gives
        return read_message(raw, limits).message_id
