"""The lines of a mail body that can hold orders: what a reply, a signature, a forwarded
message or a mail program's trailer adds is cut, and every kept line keeps its number in the
original text, so that a problem found in it names the line the player sees.

A text of orders too long to be worth reading (:data:`MAX_TEXT_LINES`,
:data:`MAX_TEXT_CHARS`) is refused by the order reader unread
(:func:`pbem.service.language.textorders.read_text_orders`); the mail looks only at the start
of a longer body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_TEXT_LINES = 5000
MAX_TEXT_CHARS = 500_000
"""A text of orders longer than this is not read at all (one problem says so): a mail
with a quoted history is long, a hostile one is longer."""

_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"

_TRAILER = re.compile(
    r"(sent (from|with|via) |get outlook for |von meinem .*gesendet|gesendet von |"
    r"envoy[ée] de |enviado desde )", re.IGNORECASE)
"""A mail program's trailer line ('Sent from my phone'). Only at the end of the mail's own
text is it one: 'Sent from the wrong address before, sorry.' above the orders is prose."""
_FORWARD = re.compile(
    r"(-{2,} ?(original message|forwarded message|urspr(ü|ue)ngliche nachricht|"
    r"weitergeleitete nachricht|message d'origine) ?-{2,}|begin forwarded message:|_{10,})$",
    re.IGNORECASE)
"""The line above a message quoted without '>' (Outlook); it and everything after it go."""
_WROTE = re.compile(r"\b(wrote|schrieb|a (é|e)crit|escribi(ó|o)|ha scritto|schreef)\b.*:$", re.IGNORECASE)
"""The end of a reply header ('On Mon, 3 Nov 2026, Ann wrote:')."""
_HEADER_START = re.compile(r"(on|am|le|el|il|op) ", re.IGNORECASE)


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as written: ``\\r\\n`` and ``\\r`` end lines as ``\\n`` does,
    and a UTF-8 byte order mark at the start is dropped (line ``n`` is item ``n - 1``)."""
    return re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff"))


def clean_spaces(line: str) -> str:
    """``line`` with every kind of space (tab, non-breaking, zero-width) a plain space; the
    length stays the same, so columns are those of the original line."""
    return "".join(" " if c.isspace() or c in _INVISIBLE else c for c in line)


def _is_signature(line: str) -> bool:
    return line.rstrip() == "--"


def _is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def strip_mail(text: str) -> list[tuple[int, str]]:
    """The lines of a mail body that can hold orders, each with its 1-based line number in
    the ORIGINAL text: :func:`mail_lines`' ``kept``."""
    return mail_lines(text).kept


@dataclass(frozen=True)
class MailLines:
    """A mail body split into the lines that can hold orders and what was cut from it.

    ``kept``: ``(line number, text)`` of every line that can hold orders, in order.
    ``cut``: ``(line number, text, why)`` of each place where the mail was cut: the line
    where a signature or a message quoted without '>' begins (it and everything after it
    were dropped), and a mail program's trailer at the end of the mail's own text. Quoted
    reply lines, blank lines and reply headers are dropped without a word.
    """

    kept: list[tuple[int, str]]
    cut: tuple[tuple[int, str, str], ...] = ()


def mail_lines(text: str) -> MailLines:
    """The lines of a mail body that can hold orders, and what was cut (:class:`MailLines`).

    Dropped: blank lines; quoted reply lines (starting with '>' after optional spaces); the
    signature (a line that is exactly '-- ' or '--', and everything after it); the marker
    of a message quoted without '>' ('-----Original Message-----') and everything after it;
    a reply header ('On Mon, 3 Nov 2026, Ann wrote:', also when wrapped over two lines)
    directly before quoted lines or at the end; and a mail program's trailer ('Sent from my
    phone', 'Get Outlook for ...') where it ends the mail's own text: the last lines that
    are left, when they are trailers. A trailer-like line with text after it is the mail's
    own text ('Sent from the wrong address before, sorry.' above the orders). ``\\r\\n``
    and ``\\r`` end lines as ``\\n`` does, a UTF-8 byte order mark at the start is dropped,
    and tabs, non-breaking and zero-width spaces become plain spaces (one for one, so the
    columns of the kept lines are those of the original). Trailing spaces are removed.
    """
    lines = [clean_spaces(line) for line in split_lines(text)]
    end, cut = _end_of_own_text(lines)
    kept: list[tuple[int, str]] = []
    for i in range(end):
        line = lines[i].rstrip()
        if not line.strip() or _is_quoted(line):
            continue
        if _WROTE.search(line) and _before_quote(lines, i, end):
            if not _HEADER_START.match(line.lstrip()) and kept and kept[-1][0] == i \
                    and _HEADER_START.match(kept[-1][1].lstrip()):
                kept.pop()  # the header's first line, wrapped before 'wrote:'
            continue
        kept.append((i + 1, line))
    trailers: list[tuple[int, str, str]] = []
    while kept and _TRAILER.match(kept[-1][1].strip()):
        number, line = kept.pop()
        trailers.insert(0, (number, line.strip(), "a mail program's trailer at the end of the mail"))
    return MailLines(kept, tuple(sorted(trailers + cut)))


def _end_of_own_text(lines: list[str]) -> tuple[int, list[tuple[int, str, str]]]:
    """Where the mail's own text ends: the index of the line where a signature or a
    message quoted without '>' begins (``len(lines)`` if none does), and that cut."""
    for i, line in enumerate(lines):
        stripped = line.strip()
        if _is_signature(line) or _FORWARD.match(stripped):
            return i, [(i + 1, stripped, "a signature: it and every line after it are not read"
                        if _is_signature(line) else "a message quoted below: it and every line after it "
                                                    "are not read")]
    return len(lines), []


def _before_quote(lines: list[str], i: int, end: int) -> bool:
    """Whether the next non-blank line after ``i`` is quoted, or there is none before ``end``."""
    for line in lines[i + 1:end]:
        if line.strip():
            return _is_quoted(line)
    return True
