"""Witness hashes: what players hold that makes a rewritten history detectable.

Every report and every mail the referee sends carries the hash of a history entry (the
head of the hash chain after that turn), written as ``game hash after turn 17: <64 hex
digits>``. The chain is not keyed: anyone with the game file can recompute every hash, the
GM included, so a GM who rewrites a turn can make the rewritten file replay and ``verify``
cleanly. What the GM cannot do is change the hashes the players already hold: an entry's
hash covers every entry before it, so a history that still contains a hash a player was
given is, up to that entry, exactly the history the player was told about.
``verify --expect HASH`` and ``verify --receipts DIR`` check exactly that
(docs/orders.md, "Witness hashes").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import UsageError
from pbem.service.turns import TURN_KINDS

if TYPE_CHECKING:
    from email.message import Message

MIN_PREFIX = 12
"""The fewest hex digits of a hash ``--expect`` takes (48 bits: no two entries of any game
share them by chance)."""

MAX_FILE = 64 * 1024 * 1024
"""Files larger than this in a receipts folder are skipped (no receipt is that large)."""


def label(entry: dict[str, Any]) -> str:
    """How reports and mails name the hash of ``entry``: ``game hash after turn 17``,
    ``game hash after the set-up``, or ``game hash after history entry 23`` for a GM edit
    or a standing-orders change (which have no turn of their own)."""
    kind = entry.get("kind")
    if kind in TURN_KINDS and "turn" in entry:
        return f"game hash after turn {entry['turn']}"
    if kind == "new":
        return "game hash after the set-up"
    return f"game hash after history entry {entry.get('seq', '?')}"


def line(entry: dict[str, Any]) -> str:
    """``game hash after turn 17: 3f2a…`` with all 64 hex digits, ready to paste."""
    return f"{label(entry)}: {entry['hash']}"


@dataclass(frozen=True, slots=True)
class Witness:
    """A hash (or a prefix of at least :data:`MIN_PREFIX` hex digits) a player holds, and
    where it came from (a file and line, or ``--expect``)."""

    hash: str
    source: str


_HEX = re.compile(rf"[0-9a-f]{{{MIN_PREFIX},64}}")


def expected(value: str) -> Witness:
    """An ``--expect`` value: ``HASH`` or ``WHO=HASH`` (who gave it, named if it is
    missing); a trailing ``…`` or ``...`` (a shortened hash pasted as shown) is dropped."""
    who, sep, digits = value.rpartition("=")
    digits = digits.strip().rstrip(".…").strip().lower()
    if not _HEX.fullmatch(digits):
        raise UsageError(f"--expect {value!r}: a game hash, {MIN_PREFIX} to 64 hex digits (as a receipt or "
                         "report shows it: 'game hash after turn N: ...'), optionally as WHO=HASH")
    who = who.strip()
    return Witness(digits, f"--expect ({who})" if sep and who else "--expect")


# "game hash after turn 17: <64 hex>" in reports and mails (the hash may follow on the next
# line, where a text report wraps it); the mail header; the footer of mails sent before the
# full hash was printed ("History head: <16 hex>").
_LABELLED = re.compile(r"game hash after\b[^:\n]{0,60}:\s*([0-9a-f]{64})(?![0-9a-f])", re.IGNORECASE)
_HEADER = re.compile(r"^X-Antike-Ref-Head:[ \t]*([0-9a-f]{64})(?![0-9a-f])", re.IGNORECASE | re.MULTILINE)
_OLD_FOOTER = re.compile(r"History head:[ \t]*([0-9a-f]{16,64})(?![0-9a-f])", re.IGNORECASE)


def hashes_in_text(text: str) -> Iterator[tuple[str, int]]:
    """Every game hash labelled as one in ``text``, with the line its label is on."""
    found = []
    for pattern in (_LABELLED, _HEADER, _OLD_FOOTER):
        for match in pattern.finditer(text):
            found.append((match.start(), match.group(1).lower()))
    for start, digits in sorted(found):
        yield digits, text.count("\n", 0, start) + 1


def _looks_like_mail(data: bytes) -> bool:
    head = data[:4096].lstrip()
    return bool(re.match(rb"(?:[A-Za-z][A-Za-z0-9-]*:[^\n]*\r?\n(?:[ \t][^\n]*\r?\n)*){2,}", head))


def _mail_texts(message) -> Iterator[str]:
    """A mail's headers and every text part (the body, text attachments), decoded."""
    yield "".join(f"{key}: {value}\n" for key, value in message.items())
    for part in message.walk():
        if part.get_content_maintype() != "text":
            continue
        try:
            yield part.get_content()
        except (LookupError, ValueError, AssertionError):
            payload = part.get_payload(decode=True) or b""
            yield payload.decode("utf-8", "replace")


def _file_texts(path: Path, game_id: str | None) -> Iterator[tuple[str, str]]:
    """(where, text) for each thing in ``path`` a game hash may be written in: the file
    itself (``where`` empty: its lines are the file's), or each mail of a mail file
    (``.eml``: ``mail``) or mailbox (mbox: ``mail N``), its headers and decoded text parts.
    Mails the referee sent for another game (``X-Antike-Ref-Game``) are left out."""
    import email
    import mailbox
    from email.policy import default as default_policy

    data = path.read_bytes()
    message: Message | None
    if data.startswith(b"From "):
        # typeshed gives the factory mailbox's own file type, which it does not take for a binary file
        box = mailbox.mbox(str(path), factory=lambda f: email.message_from_binary_file(f, policy=default_policy),  # type: ignore[call-overload]
                           create=False)
        try:
            for i, message in enumerate(box):
                if message is None or (game_id and message.get("X-Antike-Ref-Game", game_id).strip() != game_id):
                    continue
                for text in _mail_texts(message):
                    yield f"mail {i + 1}", text
        finally:
            box.close()
        return
    if path.suffix.lower() == ".eml" or _looks_like_mail(data):
        message = email.message_from_bytes(data, policy=default_policy)
        if game_id and message.get("X-Antike-Ref-Game", game_id).strip() != game_id:
            return
        for text in _mail_texts(message):
            yield "mail", text
        return
    yield "", data.decode("utf-8", "replace")


def receipts(folder: Path, game_id: str | None = None) -> tuple[list[Witness], int]:
    """Every game hash labelled as one in the files under ``folder`` (searched through,
    hidden files and folders left out), and how many files were read."""
    if not folder.is_dir():
        raise UsageError(f"--receipts {folder}: not a folder")
    found: list[Witness] = []
    files = 0
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        try:
            if path.stat().st_size > MAX_FILE:
                continue
            files += 1
            for where, text in _file_texts(path, game_id):
                for digits, number in hashes_in_text(text):
                    found.append(Witness(digits, f"{path} ({where or f'line {number}'})"))
        except (OSError, ValueError) as exc:
            raise UsageError(f"--receipts {folder}: cannot read {path}: {exc}") from None
    return list(dict.fromkeys(found)), files


@dataclass
class Checked:
    """The outcome of checking witnesses against a history: the entry each hash named, and
    the hashes no entry has (with every place they came from)."""

    found: dict[str, int]
    missing: dict[str, list[str]]


def check(history: list[dict[str, Any]], witnesses: Iterable[Witness]) -> Checked:
    """Which ``witnesses`` are hashes (or prefixes of hashes) of entries of ``history``."""
    index = {entry["hash"]: i for i, entry in enumerate(history)}
    found: dict[str, int] = {}
    missing: dict[str, list[str]] = {}
    for w in witnesses:
        if w.hash in index:
            found[w.hash] = index[w.hash]
            continue
        hit = next((i for h, i in index.items() if len(w.hash) < 64 and h.startswith(w.hash)), None)
        if hit is not None:
            found[w.hash] = hit
        else:
            missing.setdefault(w.hash, []).append(w.source)
    for short in sorted(missing, key=len):
        longer = next((h for h in missing if len(h) > len(short) and h.startswith(short)), None)
        if longer is not None:  # a prefix of a hash named in full: one hash, named once
            missing[longer] = missing.pop(short) + missing[longer]
    return Checked(found, missing)


def undo_notes(audit: Path) -> dict[str, str]:
    """Hashes of entries the GM took back with ``undo``, per the audit log: what it says."""
    import json

    notes: dict[str, str] = {}
    try:
        text = audit.read_text(encoding="utf-8")
    except OSError:
        return notes
    for raw in text.splitlines():
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("action") != "undo":
            continue
        why = f"taken back by the GM's undo (audit log: {record.get('reason') or 'no reason given'!r})"
        for entry in record.get("removed") or []:
            if isinstance(entry, dict) and isinstance(entry.get("hash"), str):
                notes[entry["hash"]] = why
    return notes
