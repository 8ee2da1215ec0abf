"""The mail configuration: a TOML file the GM keeps outside every game file.

Secrets (the SMTP and IMAP passwords) are never in it: it names an environment variable
or a file readable by its owner only. docs/mail.md describes every key.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import Any, overload

from pbem.errors import InputError, UsageError
from pbem.service.numbers import amount, whole

SECURITY = ("starttls", "ssl", "plain")
SMTP_PASSWORD_ENV = "ANTIKE_REF_SMTP_PASSWORD"
IMAP_PASSWORD_ENV = "ANTIKE_REF_IMAP_PASSWORD"
"""Where the passwords are looked for when the configuration names no other place."""
POLICIES = ("remind", "default", "bot", "wait")
"""What happens when a deadline passes: only remind the player, the GM's default turn
(D15), a bot's turn, or wait for the GM (who is told)."""


@dataclass(frozen=True)
class Secret:
    """Where a password comes from: an environment variable or a 0600 file."""

    env: str | None = None
    file: str | None = None

    def read(self, what: str) -> str:
        if self.env:
            value = os.environ.get(self.env)
            if value:
                return value
            if not self.file:
                raise UsageError(f"{what}: the environment variable {self.env} is not set")
        if self.file:
            return read_secret_file(Path(self.file).expanduser(), what)
        raise UsageError(f"{what}: no password configured (password_env or password_file)")


def read_secret_file(path: Path, what: str) -> str:
    """The first line of a password file, which must be readable by its owner only."""
    try:
        info = path.stat()
    except OSError as exc:
        raise UsageError(f"{what}: cannot read {path}: {exc.strerror or exc}") from None
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise UsageError(f"{what}: {path} may be read by others (mode {stat.S_IMODE(info.st_mode):o}); "
                         f"run: chmod 600 {path}")
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or not lines[0].strip():
        raise UsageError(f"{what}: {path} is empty")
    return lines[0].strip()


@dataclass(frozen=True)
class Smtp:
    host: str
    port: int
    security: str = "starttls"
    user: str | None = None
    password: Secret = field(default_factory=Secret)
    ca_file: str | None = None
    timeout: float = 30.0


@dataclass(frozen=True)
class Imap:
    password: Secret = field(default_factory=lambda: Secret(IMAP_PASSWORD_ENV))
    ca_file: str | None = None
    timeout: float = 30.0


@dataclass(frozen=True)
class Limits:
    """What the referee reads of one mail (``[mail] max_message``, ``max_parts``): a mail
    larger than ``size`` bytes is not fetched or read whole (its header tells who sent it),
    one of more than ``parts`` MIME parts is not read for orders. An order mail is a few
    kilobytes; these leave room for a reply that quotes a report with its picture."""

    size: int = 2 * 1024 * 1024
    parts: int = 100


_SIZE = re.compile(r"^\s*([0-9]+)\s*(|b|kb|k|mb|m)\s*$", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "m": 1024 ** 2, "mb": 1024 ** 2}
LARGEST = 1024 ** 3
"""The largest ``max_message`` (1 GB)."""


def size_of(value: Any, where: str) -> int:
    """``"2MB"``, ``"500kB"``, ``1048576``: a number of bytes (from 64 kB to 1 GB)."""
    from pbem.service.numbers import shown, whole

    found = _SIZE.match(str(value)) if isinstance(value, (int, str)) and not isinstance(value, bool) else None
    if not found:
        raise UsageError(f"{where}: {shown(value)} is not a size like 2MB, 500kB or a number of bytes")
    unit = _UNITS[found.group(2).lower()]
    n = whole(found.group(1), where, 0, LARGEST // unit, f"a number of {found.group(2) or 'bytes'}") * unit
    if n < 64 * 1024:
        raise UsageError(f"{where}: {value!r} is too small (at least 64kB: a mail's header alone may be that long)")
    return n


ATTACHABLE = ("pdf", "png", "svg", "md", "bbcode", "txt", "copy")
"""What a report mail may carry: the report in these formats, and ``copy``: each player's
own copy of the game file (``antike-ref copy``), on which they run ``check`` and ``options``."""


@dataclass(frozen=True)
class GameMail:
    """How one game is run by mail."""

    file: Path
    source: str | None = None
    deadline: timedelta | None = None
    remind: timedelta | None = None
    """How long before the deadline the late player is reminded."""
    missed: str = "remind"
    bot: str = "greedy"
    attach: tuple[str, ...] = ("png",)
    """Report formats attached to the report mails, and ``copy`` (:data:`ATTACHABLE`). The
    default is the board picture only: a report mail stays small (the PDF, some 140 KB
    more, only when the configuration names it)."""
    site: str | None = None
    """The address of the game's web page (``antike-ref site``), linked from every mail."""
    image_base: str | None = None
    """Where the board pictures are on the web (``--image-base``), for the Markdown and
    BBCode reports a mail carries."""
    absence: str = "wait"
    """While a nation's player is away: ``wait`` (its deadline waits), ``default`` (the GM's
    default turn is played for it) or ``bot`` (the bot plays it)."""
    absence_days: int = 21
    """How many days of absence a nation may have in any 365 days."""
    press: str = "open"
    """Press between players through the referee: ``open`` (to one nation or to all),
    ``broadcast-only`` (to all only) or ``none``."""
    press_gm: bool = False
    """Whether the GM gets a copy of every press mail (public press is in the log anyway)."""
    observers: tuple[str, ...] = ()
    """``Name <address>`` of people who follow the game: public reports and public press;
    by mail they may ask for ``HELP``, ``STATUS``, ``HISTORY`` and ``RESEND``."""
    observer_press: bool = False
    """Whether observers may send press (to all only; they have no password: their address
    is all that signs it)."""
    forward: bool = False
    """Whether a player's mail that is neither orders nor a command goes on to the GM."""
    gm_copies: str = "none"
    """``refusals``: the GM gets a copy of every refusal the referee mails; ``none``."""


@dataclass(frozen=True)
class RelayMail:
    """A game without a game master the referee relays (``[[relay]]``, docs/without-gm.md):
    ``file`` is the relay's own copy of the game (it starts from the group's proposal),
    ``source`` the mailbox the players send their blocks to (default: the configuration's)."""

    file: Path
    source: str | None = None


ABSENCE = ("wait", "default", "bot")
PRESS = ("open", "broadcast-only", "none")
GM_COPIES = ("none", "refusals")


@dataclass(frozen=True)
class MailConfig:
    sender: str = "antike-ref <antike-ref@localhost>"
    gm: str | None = None
    guide_url: str | None = None
    """Where players read how to write orders (a web page the GM chooses); mails link it.
    No default: a mail never points to a file of this repository."""
    timezone: str = "UTC"
    """The time zone deadlines are told in (an IANA name such as ``Europe/Berlin``)."""
    limits: Limits = field(default_factory=Limits)
    """How much of one mail is read (:class:`Limits`)."""
    answer_strangers: bool = False
    """Whether a mail with orders from an address no game here knows is answered (in one
    line, with no game detail); by default it is only noted, so that a forged sender never
    gets mail from the referee (no backscatter)."""
    domain: str | None = None
    smtp: Smtp | None = None
    imap: Imap = field(default_factory=Imap)
    source: str | None = None
    games: tuple[GameMail, ...] = ()
    relays: tuple[RelayMail, ...] = ()
    """Games without a game master whose blocks the referee checks and passes on."""
    defaults: GameMail | None = None
    path: Path | None = None
    incoming: str | None = None
    """The folder where ``mail receive`` keeps each mail a mail server hands it until every
    game of the configuration has read it (``[mail] incoming``; default: ``incoming``
    beside the configuration file); ``mail run`` and ``mail watch`` read it too."""

    def game(self, file: Path) -> GameMail:
        """The settings of game file ``file``: its own entry, else the defaults."""
        real = os.path.realpath(file)
        for g in self.games:
            if os.path.realpath(g.file) == real:
                return g
        base = self.defaults or GameMail(file)
        return replace(base, file=Path(file))

    @property
    def owner(self) -> str | None:
        """The configuration as the games it runs record it (its file's full path, links
        resolved: :attr:`pbem.service.clock.TurnClock.config`); ``None`` without a file."""
        return os.path.realpath(self.path) if self.path is not None else None

    def message_domain(self) -> str:
        if self.domain:
            return self.domain
        m = re.search(r"@([A-Za-z0-9.-]+)", self.sender)
        return m.group(1) if m else "localhost"


def tls_context(ca_file: str | None, where: str):
    """The TLS context for a mail server (``where``: ``smtp`` or ``imap``), trusting the
    certificates of ``ca_file`` (a private certificate authority) if the configuration
    names one. A file that cannot be read, or holds no certificate, is the configuration's
    error, told as such (a usage error naming the key), never a bug."""
    import ssl

    try:
        return ssl.create_default_context(cafile=ca_file)
    except ssl.SSLError as exc:
        raise UsageError(f"{where}.ca_file {ca_file}: not a file of certificates in PEM form ({exc.reason or exc}); "
                         f"correct ca_file in [{where}] of the mail configuration") from None
    except OSError as exc:
        raise UsageError(f"{where}.ca_file {ca_file}: cannot be read ({exc.strerror or exc}); correct ca_file in "
                         f"[{where}] of the mail configuration") from None


def duration(value: Any, where: str) -> timedelta:
    """``"48h"``, ``"30m"``, ``"2d"`` (or a number of hours), up to a year
    (:func:`pbem.service.numbers.duration`)."""
    from pbem.service.numbers import duration as read

    return read(value, where)


@overload
def local_path(value: str, base: Path) -> str: ...
@overload
def local_path(value: None, base: Path) -> None: ...
def local_path(value: str | None, base: Path) -> str | None:
    """A path the configuration names, relative to the configuration's own folder (``~``
    is the home folder), so that cron, which starts in another folder, finds the same files."""
    if value is None:
        return None
    path = Path(value).expanduser()
    return str(path if path.is_absolute() else base / path)


def local_source(value: str | None, base: Path) -> str | None:
    """A mail source: an IMAP URL as written; a Maildir, mbox or ``.eml`` file relative to
    the configuration's folder (:func:`local_path`)."""
    if value is None or re.match(r"^[a-z][a-z0-9+.-]*://", value, re.IGNORECASE):
        return value
    return local_path(value, base)


def _secret(section: dict[str, Any], default_env: str, base: Path) -> Secret:
    if "password_env" not in section and "password_file" not in section:
        return Secret(default_env)
    return Secret(section.get("password_env"), local_path(section.get("password_file"), base))


def _game(raw: dict[str, Any], where: str, base: Path, fallback: GameMail | None) -> GameMail:
    known = {"file", "source", "deadline", "remind", "missed", "bot", "attach", "site", "image_base", "absence",
             "absence_days", "press", "press_gm", "observers", "observer_press", "forward", "gm_copies"}
    extra = set(raw) - known
    if extra:
        raise UsageError(f"{where}: unknown key(s) {', '.join(sorted(extra))} (known: {', '.join(sorted(known))})")
    start = fallback or GameMail(Path())
    missed = raw.get("missed", start.missed)
    if missed not in POLICIES:
        raise UsageError(f"{where}.missed: {missed!r} is not one of {', '.join(POLICIES)}")
    bot = raw.get("bot", start.bot)
    if bot not in ("greedy", "random", "strong"):
        raise UsageError(f"{where}.bot: {bot!r} is not greedy, random or strong")
    attach = raw.get("attach", start.attach)
    if isinstance(attach, str):
        attach = [a.strip() for a in attach.split(",") if a.strip()]
    bad = [a for a in attach if a not in ATTACHABLE]
    if bad:
        raise UsageError(f"{where}.attach: unknown format(s) {', '.join(bad)} (known: {', '.join(ATTACHABLE)})")
    file = raw.get("file")
    choice: dict[str, Any] = {key: _choice(raw.get(key, getattr(start, key)), options, f"{where}.{key}")
              for key, options in (("absence", ABSENCE), ("press", PRESS), ("gm_copies", GM_COPIES))}
    flags: dict[str, Any] = {key: _flag(raw.get(key, getattr(start, key)), f"{where}.{key}")
             for key in ("press_gm", "forward", "observer_press")}
    days = whole(raw.get("absence_days", start.absence_days), f"{where}.absence_days", 0, 366, "a number of days")
    observers = raw.get("observers", list(start.observers))
    if not isinstance(observers, list) or not all(isinstance(o, str) and _one_mailbox(o) for o in observers):
        raise UsageError(f"{where}.observers: a list of addresses such as [\"Name <name@example.org>\"] (one "
                         "address each; a name with a colon reads as a group of addresses: put it in quotes)")
    return GameMail(
        **choice, **flags, absence_days=days, observers=tuple(observers),
        file=Path(local_path(file, base)) if file else start.file,
        source=local_source(raw["source"], base) if "source" in raw else start.source,
        deadline=duration(raw["deadline"], f"{where}.deadline") if "deadline" in raw else start.deadline,
        remind=duration(raw["remind"], f"{where}.remind") if "remind" in raw else start.remind,
        missed=missed, bot=bot, attach=tuple(attach),
        site=web_address(raw["site"], f"{where}.site") if "site" in raw else start.site,
        image_base=web_address(raw["image_base"], f"{where}.image_base") if "image_base" in raw
        else start.image_base)


def _choice(value: Any, options: tuple[str, ...], where: str) -> str:
    if value not in options:
        raise UsageError(f"{where}: {value!r} is not one of {', '.join(options)}")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise UsageError(f"{where}: true or false, not {value!r}")
    return value


def _count(value: Any, where: str) -> int:
    return whole(value, where, 2, 10_000, "a number of parts")


def _timeout(section: dict[str, Any], where: str) -> float:
    """A server's ``timeout``: seconds, from 1 to 600 (30 by default)."""
    return amount(section.get("timeout", 30), where, 1, 600, "a number of seconds")


def _one_mailbox(value: Any) -> bool:
    """``name@domain`` or ``Name <name@domain>``: one address, one line, and the address
    the mail library reads in it too. A display name with a colon outside quotes is
    refused: ``Eve: eve@evil.example <olga@watch.example>`` reads as a group, whose one
    member is Eve's address, not the one in brackets."""
    if not isinstance(value, str) or re.search(r"[\x00-\x1f\x7f]", value):
        return False
    found = re.fullmatch(r"\s*(?:[^<>,;]*<)?([^\s<>,;:\"()\[\]\\@]+@[^\s<>,;:\"()\[\]\\@]+)>?\s*", value)
    if found is None or (("<" in value) != value.rstrip().endswith(">")):
        return False
    if ":" in re.sub(r'"[^"]*"', "", value):
        return False
    from email.utils import getaddresses

    read = getaddresses([value])
    return len(read) == 1 and read[0][1].lower() == found.group(1).lower()


def web_address(value: Any, where: str) -> str:
    """An ``http`` or ``https`` address (a page, a folder of pictures), as mails link it."""
    text = str(value).strip()
    if not re.fullmatch(r"https?://[^\s<>\"'`\\()\[\]]+", text):
        raise UsageError(f"{where}: {value!r} is not an http:// or https:// address")
    return text


def load_config(path: str | os.PathLike) -> MailConfig:
    """Read and check a mail configuration file; a usage error names the bad key."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(str(path), "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), f"cannot read file: {exc}") from None
    except ValueError as exc:  # TOMLDecodeError, or a number of thousands of digits
        raise InputError(str(path), f"not valid TOML: {str(exc)[:200]}") from None
    base = path.parent.absolute()
    mail = data.get("mail", {})
    smtp = None
    if "smtp" in data:
        s = data["smtp"]
        security = s.get("security", "starttls")
        if security not in SECURITY:
            raise UsageError(f"{path}: smtp.security {security!r} is not one of {', '.join(SECURITY)}")
        if "host" not in s:
            raise UsageError(f"{path}: smtp.host is missing")
        port = whole(s.get("port", {"ssl": 465, "starttls": 587, "plain": 25}[security]), f"{path}: smtp.port", 1,
                     65535, "a port number")
        smtp = Smtp(s["host"], port, security, s.get("user"), _secret(s, SMTP_PASSWORD_ENV, base),
                    local_path(s.get("ca_file"), base), _timeout(s, f"{path}: smtp.timeout"))
    i = data.get("imap", {})
    imap = Imap(_secret(i, IMAP_PASSWORD_ENV, base), local_path(i.get("ca_file"), base),
                _timeout(i, f"{path}: imap.timeout"))
    defaults = _game(data["defaults"], f"{path}: defaults", base, None) if "defaults" in data else None
    games = tuple(_game(g, f"{path}: game[{k}]", base, defaults) for k, g in enumerate(data.get("game", [])))
    for k, g in enumerate(games):
        if g.file == Path():
            raise UsageError(f"{path}: game[{k}].file is missing")
    relays = _relays(data.get("relay", []), path, base)
    for k, r in enumerate(relays):
        if any(os.path.realpath(g.file) == os.path.realpath(r.file) for g in games):
            raise UsageError(f"{path}: relay[{k}].file: {r.file} is a [[game]] too: a game a GM runs is not relayed, "
                             "and a relay's copy is no game of the GM's")
    guide = web_address(mail["guide_url"], f"{path}: mail.guide_url") if "guide_url" in mail else None
    for key in ("from", "gm"):
        if key in mail and not _one_mailbox(mail[key]):
            raise UsageError(f"{path}: mail.{key} {str(mail[key])[:80]!r}: one address, as "
                             "'Name <name@example.org>' or 'name@example.org'")
    limits = Limits(size_of(mail["max_message"], f"{path}: mail.max_message") if "max_message" in mail
                    else Limits.size, _count(mail.get("max_parts", Limits.parts), f"{path}: mail.max_parts"))
    zone = mail.get("timezone", "UTC")
    from pbem.service.clock import known_zone

    if not isinstance(zone, str) or not known_zone(zone):
        raise UsageError(f"{path}: mail.timezone {str(zone)[:60]!r}: not a time zone this machine knows "
                         "(an IANA name such as Europe/Berlin, or UTC)")
    strangers = mail.get("answer_strangers", False)
    if not isinstance(strangers, bool):
        raise UsageError(f"{path}: mail.answer_strangers: true or false")
    return MailConfig(sender=mail.get("from", MailConfig.sender), gm=mail.get("gm"), guide_url=guide,
                      limits=limits, answer_strangers=strangers, timezone=zone,
                      domain=mail.get("domain"), smtp=smtp, imap=imap, relays=relays,
                      source=local_source(i.get("url") or mail.get("source"), base), games=games,
                      defaults=defaults, path=path, incoming=local_path(_text(mail.get("incoming", "incoming"),
                                                                              f"{path}: mail.incoming"), base))


def _relays(raw: Any, path: Path, base: Path) -> tuple[RelayMail, ...]:
    """The ``[[relay]]`` tables: ``file`` (required) and ``source``."""
    if not isinstance(raw, list) or not all(isinstance(r, dict) for r in raw):
        raise UsageError(f"{path}: relay: a list of tables ([[relay]] file = ...)")
    out: list[RelayMail] = []
    for k, r in enumerate(raw):
        where = f"{path}: relay[{k}]"
        extra = set(r) - {"file", "source"}
        if extra:
            raise UsageError(f"{where}: unknown key(s) {', '.join(sorted(extra))} (known: file, source)")
        if "file" not in r:
            raise UsageError(f"{where}.file is missing (the relay's copy of the game)")
        file = Path(local_path(_text(r["file"], f"{where}.file", "a file name"), base))
        if any(os.path.realpath(g.file) == os.path.realpath(file) for g in out):
            raise UsageError(f"{where}.file: {file} is relayed twice")
        source = local_source(_text(r["source"], f"{where}.source", "a mailbox"), base) if "source" in r else None
        out.append(RelayMail(file, source))
    return tuple(out)


def _text(value: Any, where: str, what: str = "a folder name") -> str:
    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        raise UsageError(f"{where}: {what}, not {str(value)[:60]!r}")
    return value
