"""What the mail cycle has done for one game, kept beside it in ``GAME.mail.json``.

The history is the record of what was *applied* (each entry that came by mail carries its
Message-ID); the ledger records the rest: every mail looked at and what became of it, up
to which history entry the reports have been queued, and the clock of the current turn
(when it began, whether the player was reminded, whether the deadline was dealt with).
It is rewritten atomically, under the game's mail lock, after every step, so a crash
costs at most the repetition of the step that was under way. It holds the players'
addresses, pending codes and the reasons of absences: it is the GM's alone (mode 600).

A change of the clock that the GM's audit log records (:mod:`pbem.mail.judge`) is saved
with its line: the ledger first, then the line (:meth:`Ledger.audit`); a line that
cannot be written takes the ledger back to what it was, so the log never records a
change that was not made, and no change is made unrecorded.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from pbem.errors import CannotWrite, InputError
from pbem.service import store

FORMAT = 1
JUDGE = ("paused", "absences", "last_error", "announce", "pending", "identity")
"""The ledger's keys beside the messages and the clock (:attr:`Ledger.judge`)."""
CONTENT = ("fp", "size", "again")
"""What a ledger keeps of a mail's content: its digest, its size, and the digests of other
mails seen later under the same Message-ID."""


@dataclass
class Ledger:
    path: Path
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Message-ID -> {"outcome": applied|rejected|ignored|answered, ...}."""
    queued: int = -1
    """The last history entry (``seq``) whose mails are queued; -1: none yet."""
    head: str | None = None
    """The history head hash the reports were last queued for (an undo changes it)."""
    clock: dict[str, Any] = field(default_factory=dict)
    """The current turn: {"turn", "nation", "since", "reminded", "missed"}."""
    judge: dict[str, Any] = field(default_factory=dict)
    """What the judge keeps beside the clock (:mod:`pbem.service.clock`): ``paused``,
    ``absences``, ``last_error``, ``announce`` (notices for the players' next mails),
    ``pending`` (address changes waiting to be confirmed) and ``identity`` (when each nation
    last changed its password or address by mail, for the rate a day)."""
    _content: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    _text: str | None = field(default=None, repr=False)
    """The ledger's text on disk as last read or written (``None``: no file yet)."""
    _audits: list[str] = field(default_factory=list, repr=False)
    """Lines for the audit log, written by the next :meth:`save` after the ledger."""
    on_save: Callable[[], None] | None = field(default=None, repr=False, compare=False)
    """Called after each save that succeeded (the cycle: the mails spooled so far are
    decided, :meth:`pbem.mail.runs.GameRun.take_back`)."""

    def known(self, message_id: str) -> bool:
        return message_id in self.messages

    def note(self, message_id: str, outcome: str, **details: Any) -> None:
        """Record what became of a mail; the mail's content marks (:meth:`content`) stay."""
        kept = {k: v for k, v in self.messages.get(message_id, {}).items() if k in CONTENT}
        self.messages[message_id] = {"outcome": outcome, **details, **kept, **self._content.pop(message_id, {})}

    def content(self, message_id: str, fingerprint: str, size: int | None) -> None:
        """What a mail held (a digest, its size), kept with whatever :meth:`note` records of
        it, so that its Message-ID seen again with other content is told apart."""
        marks = {"fp": fingerprint} if fingerprint.startswith("sha256:") else {}
        if size is not None:
            marks["size"] = size
        self._content[message_id] = marks

    def differs(self, message_id: str, fingerprint: str | None) -> bool:
        """Whether the mail known by ``message_id`` held something else than ``fingerprint``
        (a digest, or ``size:N``) says; ``False`` where the ledger has nothing to compare."""
        record = self.messages.get(message_id) or {}
        if not fingerprint:
            return False
        if fingerprint.startswith("size:"):
            return "size" in record and f"size:{record['size']}" != fingerprint
        return "fp" in record and record["fp"] != fingerprint

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "messages": self.messages, "queued": self.queued,
                "head": self.head, "clock": self.clock,
                **{k: v for k, v in sorted(self.judge.items()) if v not in (None, [], {})}}

    def save(self) -> None:
        """Write the ledger whole, atomically: one mail a line, keys sorted. (A ledger grows
        with every mail a game's mailbox holds and is written after each: the layout is the
        one the C encoder writes, some ten times faster than an indented one. Ledgers in the
        indented layout of earlier releases read the same.)"""
        text = json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        text = text.replace(',"<', ',\n"<') + "\n"
        store.write_atomic(self.path, text, mode=0o600)
        if self._audits:
            game = self.path.with_name(self.path.name.removesuffix(".mail.json") + ".json")
            try:
                for line in self._audits:
                    store.append_audit(game, line)
            except CannotWrite:
                self._restore()
                raise
            self._audits.clear()
        self._text = text
        if self.on_save is not None:
            self.on_save()

    def audit(self, line: str) -> None:
        """A line for the game's audit log, recording a change made to this ledger: written
        by the next :meth:`save`, after the ledger (and should it fail, the ledger is put
        back as it was, and the save fails)."""
        self._audits.append(line)

    def _restore(self) -> None:
        """Put the ledger's file back as it was before the last save (best effort)."""
        try:
            if self._text is None:
                self.path.unlink(missing_ok=True)
            else:
                store.write_atomic(self.path, self._text, mode=0o600)
        except (OSError, CannotWrite):
            pass


def ledger_path(game: str | os.PathLike) -> Path:
    return store.sibling(game, ".mail.json")


def spool_path(game: str | os.PathLike) -> Path:
    """The folder of mails waiting to be delivered: ``GAME.mail-queue/``."""
    return store.sibling(game, ".mail-queue")


def load_ledger(game: str | os.PathLike) -> Ledger:
    path = ledger_path(game)
    if not path.exists():
        return Ledger(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, expected {FORMAT}")
        return Ledger(path, dict(data["messages"]), int(data["queued"]), data.get("head"),
                      dict(data.get("clock") or {}), {k: data[k] for k in JUDGE if k in data}, _text=text)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InputError(str(path), f"the mail ledger cannot be read ({exc}); move it away to start afresh") from None


@contextmanager
def mail_lock(game: str | os.PathLike) -> Iterator[None]:
    """The lock of a game's mail cycle (``GAME.mail.json.lock``): one cycle per game at a
    time; a second run finds it taken and leaves the game to the first
    (:class:`pbem.errors.GameLocked`)."""
    with store.locked(ledger_path(game), must_exist=False):
        yield
