"""Entries as blocks of text, for a mail body or a forum post.

A block is::

    -----BEGIN ANTIKE-REF ENTRY-----
    AAAAE2FudGlrZS1yZWYgZW50cnkgdjEAAAGneyJnYW1lIjoiZGVtbyIsImtpbmQiOiJ0
    ...                                             (base64, lines of 64)
    -----END ANTIKE-REF ENTRY-----

The base64 holds, in the SSH wire encoding (:mod:`pbem.trust.wire`): the string
``antike-ref entry v1``; the entry's message (:mod:`.entries`) as a string; the number of
signatures (four bytes) and for each the seat and the SSHSIG blob, two strings; then the
first eight bytes of the SHA-256 of all of that, a check sum that tells a block damaged on
the way from one that was forged.

Reading a block (:func:`find`) takes it from any text: a mail, a mailbox file, a forum
thread saved as text or as HTML. Everything outside the markers is ignored; inside them
only the letters of base64 count, so a quote's ``> `` in front of each line, BBCode
(``[quote]``, ``[code]``), HTML tags and entities, spaces and blank lines a forum adds, and
dashes it turned into long ones do not matter. A block quoted again is the same block
(:func:`find` names each once, at its first place); a block cut short (a quote trimmed),
or one whose text changed, is reported as damaged rather than read.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import re
from dataclasses import dataclass

from pbem.service.signed.entries import Signed, from_message
from pbem.service.signed.refusals import SignedRefused, Why
from pbem.trust.wire import Reader, Truncated, strings, u32

TAG = "antike-ref entry v1"
BEGIN = "-----BEGIN ANTIKE-REF ENTRY-----"
END = "-----END ANTIKE-REF ENTRY-----"
WRAP = 64
"""Characters of base64 per line: short enough for a mail (78) and a quoted forum post."""
CHECK = 8
MAX_TEXT = 64 * 1024 * 1024
"""A text longer than this is refused unread (a whole game's thread is a few megabytes)."""
MAX_BLOCK = 512 * 1024

_DASH = "[-\u2010-\u2015\u2212]"
_MARK = re.compile(rf"{_DASH}{{2,}}\s*(BEGIN|END)\s+ANTIKE-REF\s+ENTRY\s*{_DASH}{{2,}}?", re.IGNORECASE)
_BBCODE = re.compile(r"\[/?[A-Za-z*][^\[\]\n]{0,200}\]")
_HTML = re.compile(r"<[^<>]{0,400}>")
_NOT_BASE64 = re.compile(r"[^A-Za-z0-9+/=]")


def payload(signed: Signed) -> bytes:
    """The bytes a block carries."""
    sigs = sorted(signed.sigs.items())
    body = strings(TAG, signed.message) + u32(len(sigs))
    for seat, sig in sigs:
        from pbem.trust.sshsig import dearmor

        body += strings(seat, dearmor(sig))
    return body + hashlib.sha256(body).digest()[:CHECK]


def armor(signed: Signed) -> str:
    """The block of ``signed``, ending with a newline."""
    text = base64.b64encode(payload(signed)).decode("ascii")
    lines = [text[i:i + WRAP] for i in range(0, len(text), WRAP)]
    return "\n".join([BEGIN, *lines, END]) + "\n"


def read_payload(data: bytes, source: str) -> Signed:
    """The entry a block's bytes carry; :class:`SignedRefused` if they are damaged or not
    an entry of ours (a signature's validity is checked later, against the game)."""
    from pbem.trust.sshsig import armor as sig_armor

    if len(data) <= CHECK or hashlib.sha256(data[:-CHECK]).digest()[:CHECK] != data[-CHECK:]:
        raise SignedRefused(Why.DAMAGED, "the block was changed on the way (its check sum does not match): a line "
                                         "lost or cut, or a character changed; ask for it again", source)
    reader = Reader(data[:-CHECK])
    try:
        if reader.text() != TAG:
            raise SignedRefused(Why.MALFORMED, f"not an antike-ref entry (expected {TAG!r})", source)
        message = reader.string()
        sigs = {}
        for _ in range(min(reader.u32(), 64)):
            seat = reader.text()
            sigs[seat] = sig_armor(reader.string())
    except (Truncated, UnicodeDecodeError):
        raise SignedRefused(Why.MALFORMED, "the block ends in the middle of a field", source) from None
    if reader.left:
        raise SignedRefused(Why.MALFORMED, f"{reader.left} bytes after the last signature", source)
    return from_message(message, sigs, source)


@dataclass(frozen=True)
class Found:
    """A block found in a text: where (its first line), and its entry or why it does not read."""

    line: int
    signed: Signed | None
    problem: SignedRefused | None = None
    raw: bytes = b""


def find(text: str, source: str) -> list[Found]:
    """Every block in ``text``, in order, each once (a block quoted again, or posted twice,
    is named at its first place only)."""
    if len(text) > MAX_TEXT:
        raise SignedRefused(Why.MALFORMED, f"a text of {len(text)} characters: too long to read", source)
    clean = _HTML.sub("", _BBCODE.sub("", html.unescape(text) if "&" in text else text))
    marks = list(_MARK.finditer(clean))
    out: list[Found] = []
    seen: set[bytes] = set()
    for i, mark in enumerate(marks):
        if mark.group(1).upper() != "BEGIN":
            continue
        line = clean.count("\n", 0, mark.start()) + 1
        where = f"{source}, the block at line {line}"
        ends = marks[i + 1] if i + 1 < len(marks) else None
        if ends is None or ends.group(1).upper() != "END":
            out.append(Found(line, None, SignedRefused(Why.DAMAGED, "the block has no end line (cut short)", where)))
            continue
        letters = _NOT_BASE64.sub("", clean[mark.end():ends.start()])
        if len(letters) > MAX_BLOCK:
            out.append(Found(line, None, SignedRefused(Why.MALFORMED, "a block too long to be an entry", where)))
            continue
        try:
            data = base64.b64decode(letters + "=" * (-len(letters) % 4), validate=True)
        except (binascii.Error, ValueError):
            out.append(Found(line, None, SignedRefused(Why.DAMAGED, "the block's text is not base64", where)))
            continue
        if data in seen:
            continue
        seen.add(data)
        try:
            out.append(Found(line, read_payload(data, where), raw=data))
        except SignedRefused as exc:
            out.append(Found(line, None, exc, data))
    return out


def caption(signed: Signed) -> str:
    """A line to put above a block: what it is."""
    label = signed.label()
    game = "" if signed.kind == "proposal" else f", game {signed.entry.get('game')}"
    return f"antike-ref: {label}{game}; copy the block below whole"

