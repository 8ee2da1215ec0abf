"""Mail in: messages read from a Maildir, an mbox, a single ``.eml`` file or an IMAP
mailbox, and the orders found in each.

Nothing here changes a mailbox: IMAP folders are opened read-only and fetched with
``BODY.PEEK``, local files are only read. What has been handled is remembered in each
game's ledger (:mod:`pbem.mail.ledger`), keyed by Message-ID; an IMAP mailbox's
UIDVALIDITY, UIDNEXT and EXISTS are remembered with each game's watermark
(:mod:`pbem.mail.watermarks`), so that a mailbox in which nothing arrived is not read at all.

The IMAP and TLS modules are imported when a mailbox on a server is opened, not before:
most runs read a local mailbox, or none (an idle ``mail run``).
"""

from __future__ import annotations

import email
import email.errors
import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote, urlparse

from pbem.errors import InputError, MailServerError, UsageError
from pbem.mail.config import Imap, Limits
from pbem.service.numbers import whole

if TYPE_CHECKING:
    import imaplib

ORDER_EXTENSIONS = (".json", ".txt")


HEAD = 64 * 1024
"""How much of a mail over the size limit is read: enough for its header."""


@dataclass
class Incoming:
    """One mail as far as the referee cares."""

    message_id: str
    sender: str
    """The From address, lowercased (empty if there is none)."""
    subject: str
    raw: bytes
    text: str | None = None
    """The plain-text body (``None`` if the mail has no text part)."""
    html_text: str | None = None
    """The HTML body reduced to text, when there is one."""
    attachments: list[tuple[str, bytes]] = field(default_factory=list)
    """Attached order files (``.json`` / ``.txt``): name and content."""
    automatic: bool = False
    """A bounce, an auto-reply or list mail: never answered (no mail loops)."""
    problem: str | None = None
    """Why the mail could not be read (too large, too many parts, broken beyond what the
    e-mail reader can take): it is noted, answered in one line if its sender plays here,
    and never read for orders."""
    fingerprint: str = ""
    """What the mail holds, in short (a digest of its bytes, or its size where only that
    is known): a Message-ID seen again with other content is told apart by it."""
    sender_name: str = ""
    """The From header's display name (``Dora`` of ``Dora <dora@example.org>``): a mail from
    an address no nation has, under a player's name, is told to the GM (:mod:`pbem.mail.strays`)."""
    replying_to: tuple[str, ...] = ()
    """The Message-IDs of ``In-Reply-To`` and ``References`` (at most 20): a reply to a
    press mail is known by them."""

    _lines: list[tuple[int, str]] | None = field(default=None, init=False, repr=False, compare=False)

    def body_lines(self) -> list[tuple[int, str]]:
        """The lines of the plain-text body that can hold orders or commands, with their
        numbers (:func:`~pbem.service.language.mailtext.strip_mail` of the body's start):
        stripped once per mail, for everyone who reads it (commands, orders, the game line,
        the order reader). Empty for a mail without a text part."""
        if self._lines is None:
            from pbem.service.language.mailtext import MAX_TEXT_CHARS, strip_mail

            self._lines = strip_mail(self.text[:MAX_TEXT_CHARS]) if self.text is not None else []
        return self._lines


def normalise_id(value: str | None, raw: bytes) -> str:
    """A Message-ID in angle brackets; a mail without one gets an id from its bytes."""
    value = (value or "").strip()
    if value:
        m = re.search(r"<[^<>\s]+>", value)
        return m.group(0) if m else f"<{value}>"
    return f"<sha256-{hashlib.sha256(raw).hexdigest()[:32]}@antike-ref.invalid>"


_TAG = re.compile(r"<(script|style)\b.*?</\1\s*>|<[^>]+>", re.S | re.I)
_BREAK = re.compile(r"<\s*(br|/p|/div|/li|/tr|/h\d)\b[^>]*>", re.I)


def html_to_text(markup: str) -> str:
    """Rough text of an HTML body: enough to tell whether it holds orders."""
    import html

    markup = _BREAK.sub("\n", markup)
    return html.unescape(_TAG.sub("", markup))


def header_text(msg: EmailMessage, name: str, default: str = "") -> str:
    """The header ``name`` as text; a header too broken to be parsed (a Message-ID such as
    ``<>``, an undecodable encoded word) is taken as written rather than stopping the mail."""
    try:
        value = msg.get(name)
        return default if value is None else str(value)
    except (ValueError, TypeError, IndexError, AttributeError, LookupError, email.errors.MessageError):
        raw = next((v for k, v in msg.raw_items() if k.lower() == name.lower()), None)
        return default if raw is None else str(raw).encode("utf-8", "replace").decode("utf-8")


def _automatic(msg: EmailMessage, sender: str) -> bool:
    auto = header_text(msg, "Auto-Submitted", "no").strip().lower()
    precedence = header_text(msg, "Precedence").strip().lower()
    local = sender.split("@")[0]
    return (auto not in ("", "no") or precedence in ("bulk", "list", "junk")
            or local in ("mailer-daemon", "postmaster") or bool(header_text(msg, "List-Id"))
            or header_text(msg, "Return-Path").strip() == "<>")


def _decoded(part) -> str:
    try:
        return part.get_content()
    except (LookupError, ValueError, AssertionError):  # an unknown charset, bad bytes, a NUL in the charset
        payload = part.get_payload(decode=True) or b""
        return payload.decode("utf-8", errors="replace")


def fingerprint(raw: bytes) -> str:
    """A short digest of a mail's bytes (:attr:`Incoming.fingerprint`)."""
    return "sha256:" + hashlib.sha256(raw).hexdigest()[:24]


def sender_of(msg: EmailMessage) -> tuple[str, str]:
    """The name and address (lowercased) a mail is from, read by the e-mail library's own
    address parser; ``("", "")`` when the header is not one clean address (``ann@x.org
    <eve@y.org>`` would give the display name's address to a looser reader, so anything
    the parser had to repair is no sender at all: such a mail is never answered)."""
    try:
        header = msg["From"]
        addresses = header.addresses if header is not None else ()
        defects = header.defects if header is not None else ()
    except Exception:  # a header the library cannot take apart is no sender
        return "", ""
    if len(addresses) != 1 or defects:
        return "", ""
    found = addresses[0]
    return str(found.display_name or ""), str(found.addr_spec or "").strip().lower()


_PART_HEADER = re.compile(rb"^content-type[ \t]*:", re.IGNORECASE | re.MULTILINE)
"""Each MIME part has one such header (and so does the mail itself): counted on the bytes,
a mail of thousands of parts, or nested thousands deep, costs no parse."""


def read_message(raw: bytes, limits: Limits = Limits()) -> Incoming:
    """Parse one mail; never raises. A mail the e-mail library cannot take apart (MIME
    parts nested a thousand deep, say), or one of more parts than ``limits`` allows, comes
    back with its :attr:`Incoming.problem`, as much of its header as could be read, and
    nothing else: one bad mail is that mail's problem, never the run's."""
    if len(_PART_HEADER.findall(raw)) > limits.parts:  # told from the bytes, before any parsing
        return unreadable(raw, f"it has more than {limits.parts} parts")
    try:
        return _read_message(raw, limits)
    except Exception as exc:  # RecursionError included: the reader of strangers' mail
        incoming = unreadable(raw, f"it cannot be read ({type(exc).__name__})")
        return incoming


def unreadable(head: bytes, problem: str, size: int | None = None) -> Incoming:
    """A mail that is not read for orders: who sent it and its id, from its header alone
    (as far as that can be read), and why."""
    mid, addr, subject, automatic = normalise_id(None, head), "", "", True
    try:
        from email.parser import BytesHeaderParser

        msg = BytesHeaderParser(policy=default_policy).parsebytes(head[:HEAD])
        mid = normalise_id(header_text(msg, "Message-ID"), head)
        _, addr = sender_of(msg)
        subject = header_text(msg, "Subject")[:200]
        automatic = _automatic(msg, addr)
    except Exception:
        pass
    return Incoming(mid, addr, subject, b"", automatic=automatic, problem=problem,
                    fingerprint=f"size:{size}" if size is not None else fingerprint(head))


def _read_message(raw: bytes, limits: Limits) -> Incoming:
    msg = email.message_from_bytes(raw, policy=default_policy)
    name, addr = sender_of(msg)
    replying = re.findall(r"<[^<>\s]{1,500}>", header_text(msg, "In-Reply-To") + " " + header_text(msg, "References"))
    incoming = Incoming(
        message_id=normalise_id(header_text(msg, "Message-ID"), raw), sender=addr,
        subject=header_text(msg, "Subject"), raw=raw, automatic=_automatic(msg, addr),
        fingerprint=fingerprint(raw), sender_name=name[:200], replying_to=tuple(dict.fromkeys(replying))[:20])
    for count, part in enumerate(msg.walk()):
        if count >= limits.parts:
            return unreadable(raw, f"it has more than {limits.parts} parts")
        if part.is_multipart():
            continue
        filename = part.get_filename()
        ctype = part.get_content_type()
        if filename:
            if filename.lower().endswith(ORDER_EXTENSIONS):
                incoming.attachments.append((filename, part.get_payload(decode=True) or b""))
            continue
        if part.get_content_disposition() == "attachment":
            continue
        if ctype == "text/plain" and incoming.text is None:
            incoming.text = _decoded(part)
        elif ctype == "text/html" and incoming.html_text is None:
            incoming.html_text = html_to_text(_decoded(part))
    return incoming


# -- sources ---------------------------------------------------------------------------

Known = Callable[..., bool]
"""Whether a Message-ID has been handled already (such mails are not fetched again):
``known(message_id)``, or ``known(message_id, fingerprint)`` where the mail's content is
known too, so that an id seen again with other content can be told (and the GM with it)."""


class Source(Protocol):
    """Where mail comes from; :meth:`messages` yields them in arrival order."""

    name: str

    def messages(self, known: Known) -> Iterator[Incoming]: ...


LOCAL_KINDS = ("file", "maildir", "mbox")


class LocalSource:
    """Mail on this machine: a single ``.eml`` file (``file``), a Maildir (``cur``, ``new``,
    ``tmp``: mails in ``new`` and ``cur``, oldest first, as Maildir file names begin with
    the delivery time) or an mbox file (in file order)."""

    def __init__(self, path: Path, kind: str = "file", limits: Limits = Limits()):
        assert kind in LOCAL_KINDS
        self.path = path
        self.kind = kind
        self.name = str(path)
        self.limits = limits

    def messages(self, known: Known) -> Iterator[Incoming]:
        if self.kind == "maildir":
            files = [f for sub in ("new", "cur") for f in (self.path / sub).iterdir()
                     if not f.name.startswith(".") and not f.is_symlink() and f.is_file()]
            paths = sorted(files, key=lambda f: (f.name.split(".")[0].zfill(12), f.name))
        elif self.kind == "mbox":
            yield from self._mbox(known)
            return
        else:
            paths = [self.path]
        for path in paths:
            incoming = self._local(path, known)
            if incoming is not None:
                yield incoming

    def _mbox(self, known: Known) -> Iterator[Incoming]:
        import mailbox

        box = mailbox.mbox(self.path, create=False)
        try:
            for key in box.iterkeys():
                with box.get_file(key) as fh:
                    raw = fh.read(self.limits.size + 1)
                if len(raw) > self.limits.size:  # only so much is read of a mail too large
                    incoming = self._take(raw[:HEAD], len(raw), known)
                else:
                    incoming = self._take(raw, len(raw), known)
                if incoming is not None:
                    yield incoming
        finally:
            box.close()

    def _local(self, path: Path, known: Known) -> Incoming | None:
        """The mail in file ``path``, or ``None`` if it is known already (or no regular file:
        a link, a pipe, a device planted in a mailbox is not read). Never raises for what
        the file holds."""
        try:
            head, size = _read_bytes(path, self.limits.size)
        except OSError:
            return None
        if head is None:
            return None
        return self._take(head, size, known)

    def _take(self, raw: bytes, size: int, known: Known) -> Incoming | None:
        if size > self.limits.size:
            incoming = unreadable(raw, f"it is {size:,} bytes, more than the {self.limits.size:,} the referee "
                                       "reads", size)
            return None if known(incoming.message_id, incoming.fingerprint) else incoming
        try:
            quick = header_id(raw)
        except Exception:
            quick = None
        if quick is not None and known(quick, fingerprint(raw)):
            return None
        incoming = read_message(raw, self.limits)
        return None if known(incoming.message_id, incoming.fingerprint) else incoming


def header_id(raw: bytes) -> str:
    """The Message-ID of a mail, from its header alone (cheap: the body is not parsed)."""
    quick = plain_id(raw)
    if quick is not None:
        return quick
    from email.parser import BytesHeaderParser

    return normalise_id(header_text(BytesHeaderParser(policy=default_policy).parsebytes(raw), "Message-ID"), raw)


_HEADER_LINE = re.compile(rb"[\x21-\x39\x3b-\x7e]+:")
_PLAIN_ID = re.compile(rb"[ \t\r\n]*(<[\x21-\x3b\x3d\x3f-\x7e]+>)[ \t\r\n]*")


def plain_id(raw: bytes) -> str | None:
    """The Message-ID of a mail whose header says it plainly (``Message-ID: <id@host>`` in
    ASCII, maybe folded), found without the e-mail parser, or ``None`` when the header
    holds anything less plain (then the parser decides). The known mails of a mailbox are
    passed over by this id: hundreds of old mails cost a few milliseconds, not a parse each.

    Plain means: every line up to the Message-ID is a header line (a name and a colon, or
    a continuation) and the first Message-ID header holds one id in angle brackets and
    nothing else; the parser reads exactly that id from such a header."""
    end = raw.find(b"\n\n")
    crlf = raw.find(b"\r\n\r\n")
    if crlf >= 0 and (end < 0 or crlf < end):
        end = crlf
    head = raw if end < 0 else raw[:end]
    lines = head.replace(b"\r\n", b"\n").split(b"\n")
    for k, line in enumerate(lines):
        if line[:1] in (b" ", b"\t"):
            if k == 0:
                return None
            continue
        if not _HEADER_LINE.match(line):
            return None
        name, _, value = line.partition(b":")
        if name.lower() != b"message-id":
            continue
        for more in lines[k + 1:]:  # a folded header goes on in lines that begin with blanks
            if more[:1] not in (b" ", b"\t"):
                break
            value += b"\n" + more
        found = _PLAIN_ID.fullmatch(value)
        return found.group(1).decode("ascii") if found else None
    return None


def _read_bytes(path: Path, limit: int) -> tuple[bytes | None, int]:
    """The bytes of the mail file ``path`` and its size: the whole file up to ``limit``
    bytes, only its start (:data:`HEAD`) beyond; ``None`` for what is no regular file (a
    link, a named pipe: opened without following or waiting, never read)."""
    import os
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None, 0
        if info.st_size > limit:
            return fh.read(HEAD), info.st_size
        data = fh.read(limit + 1)
        return (data[:HEAD], len(data)) if len(data) > limit else (data, len(data))


class ImapSource:
    """An IMAP mailbox, ``imaps://user@host[:port]/MAILBOX`` (implicit TLS) or
    ``imap://…`` (STARTTLS, required). Opened read-only; only unknown mails are fetched
    whole.

    :attr:`remembered` may hold, for each game that reads the mailbox, the mailbox's
    :func:`state` when that game last read it whole (``None`` for a game that did not, or
    whose ledger changed since): then no mail below the UIDNEXT all of them remember is
    looked at, and when the mailbox is as they all remember it, not a single header is
    fetched. :attr:`observed` is the state the mailbox had when it was opened, before
    anything was read (``None`` if it could not be told, or if a mail could not be
    fetched): what the next run remembers."""

    def __init__(self, url: str, settings: Imap, limits: Limits = Limits()):
        self.limits = limits
        parts = urlparse(url)
        if parts.scheme not in ("imap", "imaps") or not parts.hostname:
            raise UsageError(f"{url}: expected imaps://user@host/MAILBOX")
        if not parts.username:
            raise UsageError(f"{url}: the user is missing (imaps://user@host/MAILBOX)")
        self.url = url
        self.name = f"{parts.scheme}://{parts.username}@{parts.hostname}{':' + str(parts.port) if parts.port else ''}{parts.path or '/INBOX'}"
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = parts.port or (993 if parts.scheme == "imaps" else 143)
        self.user = unquote(parts.username)
        self.mailbox = unquote(parts.path.lstrip("/")) or "INBOX"
        self.settings = settings
        self.remembered: list[dict[str, int] | None] | None = None
        self.observed: dict[str, int] | None = None

    def _connect(self) -> imaplib.IMAP4:
        import imaplib

        from pbem.mail.config import tls_context

        context = tls_context(self.settings.ca_file, "imap")
        password = self.settings.password.read(f"IMAP {self.name}")
        try:
            if self.scheme == "imaps":
                conn = imaplib.IMAP4_SSL(self.host, self.port, ssl_context=context, timeout=self.settings.timeout)
            else:
                conn = imaplib.IMAP4(self.host, self.port, timeout=self.settings.timeout)
                conn.starttls(ssl_context=context)
            conn.login(self.user, password)
        except (OSError, imaplib.IMAP4.error) as exc:
            raise MailServerError(f"IMAP {self.name}: {exc}") from None
        return conn

    def _open(self, conn: imaplib.IMAP4) -> dict[str, int] | None:
        """Open the mailbox read-only (EXAMINE); its state as the server reported it."""
        status, _ = conn.select(_quote(self.mailbox), readonly=True)
        if status != "OK":
            raise MailServerError(f"IMAP {self.name}: cannot open mailbox {self.mailbox!r}")
        return mailbox_state(conn.untagged_responses)

    def state(self) -> dict[str, int] | None:
        """One login and EXAMINE: the mailbox's UIDVALIDITY, UIDNEXT and EXISTS
        (:func:`mailbox_state`), ``None`` if the server did not say them all."""
        import imaplib

        conn = self._connect()
        try:
            return self._open(conn)
        except (OSError, imaplib.IMAP4.error) as exc:
            raise MailServerError(f"IMAP {self.name}: {exc}") from None
        finally:
            _logout(conn)

    def _first_new(self, state: dict[str, int] | None) -> int | None:
        """The lowest UID that may be new to a game (1: every mail may be), or ``None``
        when the mailbox is exactly as every game remembers it: nothing is new."""
        remembered = self.remembered
        if state is None or not remembered or any(r is None for r in remembered):
            return 1
        if any(r["uidvalidity"] != state["uidvalidity"] for r in remembered):  # type: ignore[index]
            return 1
        if all(r == state for r in remembered):
            return None
        return max(1, min(r["uidnext"] for r in remembered))  # type: ignore[index]

    def messages(self, known: Known) -> Iterator[Incoming]:
        import imaplib

        conn = self._connect()
        try:
            state = self.observed = self._open(conn)  # before anything is read
            first = self._first_new(state)
            if first is None:
                return
            status, data = conn.uid("SEARCH", None, "ALL" if first == 1 else f"UID {first}:*")
            if status != "OK":
                self.observed = None
            # "UID n:*" also names the last mail when every UID is below n: not a new one
            uids = [u for u in (data[0] or b"").split() if u.isdigit() and int(u) >= first] if status == "OK" else []
            wanted = []
            for uid in uids:
                # the size comes with the header: a mail too large is never fetched whole
                status, head = conn.uid("FETCH", uid, "(RFC822.SIZE BODY.PEEK[HEADER.FIELDS (MESSAGE-ID FROM "
                                                      "SUBJECT AUTO-SUBMITTED PRECEDENCE LIST-ID RETURN-PATH)])")
                if status != "OK":
                    self.observed = None
                header = b"".join(p[1] for p in head if isinstance(p, tuple))
                size = _fetched_size(head)
                try:
                    found = header_text(email.message_from_bytes(header, policy=default_policy), "Message-ID")
                except Exception:
                    found = ""
                if found and known(normalise_id(found, b""), f"size:{size}" if size is not None else None):
                    continue
                if size is not None and size > self.limits.size:
                    incoming = unreadable(header, f"it is {size:,} bytes, more than the {self.limits.size:,} the "
                                                  "referee reads", size)
                    if not known(incoming.message_id, incoming.fingerprint):
                        yield incoming
                    continue
                wanted.append((uid, size))
            for uid, size in wanted:
                status, body = conn.uid("FETCH", uid, "(BODY.PEEK[])")
                if status != "OK":
                    self.observed = None
                raw = b"".join(p[1] for p in body if isinstance(p, tuple))[:self.limits.size + 1]
                incoming = read_message(raw, self.limits) if len(raw) <= self.limits.size else unreadable(
                    raw[:HEAD], f"it is more than the {self.limits.size:,} bytes the referee reads", len(raw))
                if not known(incoming.message_id, incoming.fingerprint):
                    yield incoming
        except (OSError, imaplib.IMAP4.error) as exc:
            self.observed = None
            raise MailServerError(f"IMAP {self.name}: {exc}") from None
        finally:
            _logout(conn)


def _fetched_size(response: list[Any]) -> int | None:
    """RFC822.SIZE from a FETCH response, ``None`` if the server gave none."""
    for part in response:
        text = part[0] if isinstance(part, tuple) else part
        if isinstance(text, bytes):
            found = re.search(rb"RFC822\.SIZE (\d+)", text)
            if found:
                return int(found.group(1))
    return None


def mailbox_state(responses: dict[str, list[Any]]) -> dict[str, int] | None:
    """UIDVALIDITY, UIDNEXT and EXISTS from the untagged responses to SELECT or EXAMINE;
    ``None`` unless the server gave all three as numbers. Under one UIDVALIDITY a new mail
    always gets a UID from UIDNEXT on, so while the three stay the same no mail arrived
    (EXISTS also tells a mail taken away)."""
    state = {}
    for key in ("UIDVALIDITY", "UIDNEXT", "EXISTS"):
        values = responses.get(key) or [None]
        value = values[-1]
        if isinstance(value, bytes):
            value = value.decode("ascii", "replace")
        try:
            state[key.lower()] = whole(value, f"the server's {key}", 0, 2 ** 63)
        except UsageError:
            return None
    return state


def _logout(conn: imaplib.IMAP4) -> None:
    import imaplib

    try:
        conn.logout()
    except (OSError, imaplib.IMAP4.error):
        pass


def _quote(mailbox_name: str) -> str:
    return '"' + mailbox_name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def open_source(spec: str, imap: Imap, limits: Limits = Limits()) -> Source:
    """The mail source ``spec`` names: an IMAP URL, a Maildir folder, an mbox file or a
    ``.eml`` file. A named pipe, a device or a socket is none of them (reading one would
    wait for ever): refused."""
    import os
    import stat

    if re.match(r"^imaps?://", spec):
        return ImapSource(spec, imap, limits)
    path = Path(spec).expanduser()
    if path.is_dir():
        if all((path / sub).is_dir() for sub in ("cur", "new")):
            return LocalSource(path, "maildir", limits)
        raise UsageError(f"{spec}: a folder, but not a Maildir (no cur/ and new/ inside)")
    if not path.exists():
        raise InputError(spec, "mail source not found (a Maildir, an mbox, an .eml file or imaps://user@host/INBOX)")
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise InputError(spec, "not a mailbox: a named pipe, a device or a socket (a Maildir, an mbox, an .eml file "
                               "or imaps://user@host/INBOX)")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as fh:
        head = fh.read(5)
    return LocalSource(path, "mbox" if head == b"From " else "file", limits)

