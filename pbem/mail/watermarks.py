"""Watermarks: how an idle ``mail run`` knows, without loading a game, that its cycle has
nothing to do.

At the end of every cycle of a game that ended without a failure, ``mail run`` writes a
small file beside the game, ``GAME.mail-mark.json`` (:mod:`pbem.mail.idle` writes it,
under the game's mail lock). It says what the cycle had before it when it was done. The
next ``mail run`` leaves the game alone, without reading the game file or its ledger,
only if all of this still holds:

- the mark is one this version of antike-ref wrote (its format, the version and its own
  checksum: a mark that was edited by hand is not trusted), for the same settings of the
  game (a digest of what the cycle reads of the configuration for it: the game file, the
  mail source, deadline, remind, missed, absence, bot, attach, from, gm and domain) and
  the same mail source;
- the game file, its ledger ``GAME.mail.json`` and its clock ``GAME.clock.json`` are the
  same files, unchanged (``st_dev``, ``st_ino``, ``st_mtime_ns``, ``st_size``); every
  writer of any of them replaces it whole, which makes a new file;
- no mail waits in ``GAME.mail-queue/``;
- the mail source has not changed since it was looked at, *before* it was read: a Maildir
  by the identity and modification time of its ``new/`` and ``cur/`` folders (a mail
  delivered, moved from ``new/`` to ``cur/``, flagged or removed changes one of them), an
  mbox or ``.eml`` file by its identity, modification time and size; a source whose
  times were within :data:`RACY_NS` of the moment it was looked at is not trusted (two
  deliveries within one tick of the file system's clock leave the time as it was). An
  IMAP mailbox cannot be told from here: it is asked once (one login and EXAMINE) for its
  UIDVALIDITY, UIDNEXT and EXISTS (:meth:`pbem.mail.inbox.ImapSource.state`);
- the time (``--now``) is not before the run that wrote the mark, and not yet at the
  next moment the clock needs the cycle: when the cycle's run ended, the clock's own
  :func:`pbem.service.clock.next_step` said when its next step falls due (the reminder,
  the deadline, the day an absence of the player on turn begins or ends; none when the
  game has no deadline, is paused or is over), and the mark keeps that moment.

Anything unknown, unreadable or different means a full cycle: a wrong full run costs
only time, a wrong skip would cost a turn's report. Deleting a mark is always safe.

Only the standard library and the configuration are imported here: this is all an idle
``mail run`` loads (tests/test_startup.py checks it).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pbem import __version__
from pbem.errors import PbemError
from pbem.mail.config import GameMail, MailConfig
from pbem.service.clock import SUFFIX as CLOCK_SUFFIX
from pbem.service.clock import iso, parse_time

FORMAT = 1
"""The layout of a mark file; a mark of another format is not trusted."""
SUFFIX = ".mail-mark.json"
RACY_NS = 2_000_000_000
"""A source modified less than this (2 s, in nanoseconds) before it was looked at may have
been modified again within the same tick of the file system's clock without its time
changing (and some file systems count in whole seconds): its mark is not trusted."""
MAX_MARK_BYTES = 64 * 1024
"""A mark is a few hundred bytes; a larger file is not read."""


def sibling(path: str | os.PathLike, suffix: str) -> Path:
    """The file beside game file ``path`` with ``.json`` replaced by ``suffix``, beside the
    file a symbolic link points to: :func:`pbem.service.store.sibling`, without loading
    the store."""
    p = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    return p.with_name(p.name.removesuffix(".json") + suffix)


def mark_path(game: str | os.PathLike) -> Path:
    return sibling(game, SUFFIX)


def ledger_file(game: str | os.PathLike) -> Path:
    return sibling(game, ".mail.json")


def clock_file(game: str | os.PathLike) -> Path:
    """The game's clock (:mod:`pbem.service.clockfile`), found without loading the service."""
    return sibling(game, CLOCK_SUFFIX)


def queue_folder(game: str | os.PathLike) -> Path:
    return sibling(game, ".mail-queue")


def file_state(path: str | os.PathLike) -> list[int] | None:
    """``[st_dev, st_ino, st_mtime_ns, st_size]`` of the file ``path`` names (through a
    symbolic link), ``None`` if there is none. Any other failure to look raises
    :class:`OSError`."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return [info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size]


def forget(game: str | os.PathLike) -> None:
    """Remove the game's mark (a cycle begins: until it has ended well, there is none)."""
    try:
        os.unlink(mark_path(game))
    except OSError:
        pass  # none, or not a file: it is not read as a mark either


# -- the source -----------------------------------------------------------------------

def is_imap(spec: str) -> bool:
    return re.match(r"^imaps?://", spec) is not None


def source_key(spec: str | None) -> str | None:
    """The source as the mark names it: an IMAP URL as written, a local mailbox by its
    real path."""
    if spec is None or is_imap(spec):
        return spec
    return os.path.realpath(os.path.expanduser(spec))


def local_state(spec: str) -> dict[str, Any] | None:
    """A local mailbox's watermark: a Maildir's ``new/`` and ``cur/`` folders (device,
    inode, modification time), an mbox or ``.eml`` file's :func:`file_state`; ``None``
    when it cannot be looked at."""
    path = Path(spec).expanduser()
    try:
        if path.is_dir():
            folders = {}
            for sub in ("new", "cur"):
                info = os.stat(path / sub)
                folders[sub] = [info.st_dev, info.st_ino, info.st_mtime_ns]
            return {"kind": "maildir", **folders}
        found = file_state(path)
        return None if found is None else {"kind": "file", "file": found}
    except OSError:
        return None


def _times(state: dict[str, Any]) -> list[int]:
    if state.get("kind") == "maildir":
        return [state["new"][2], state["cur"][2]]
    if state.get("kind") == "file":
        return [state["file"][2]]
    return []


def settled(state: dict[str, Any], taken_ns: int) -> bool:
    """Whether every time in a local source's watermark lies :data:`RACY_NS` before the
    moment it was taken (so that a change right after cannot have kept the same time)."""
    return all(t < taken_ns - RACY_NS for t in _times(state))


# -- the settings ---------------------------------------------------------------------

def effective_source(config: MailConfig, settings: GameMail, option: str | None) -> str | None:
    """The mail source a ``mail run`` reads for a game: ``--source``, the game's own, the
    configuration's."""
    return option or settings.source or config.source


def settings_digest(config: MailConfig, settings: GameMail, spec: str | None) -> str:
    """A digest of everything the cycle reads of the configuration for this game. A digest
    rather than the configuration file's time and size: adding a game, or a password
    file, leaves the marks of the other games good, and rewriting the file unchanged too;
    it is exactly what the game's cycle depends on."""

    def seconds(value: timedelta | None) -> float | None:
        return None if value is None else value.total_seconds()

    data = {"file": os.path.realpath(settings.file), "source": source_key(spec),
            "deadline": seconds(settings.deadline), "remind": seconds(settings.remind),
            "missed": settings.missed, "absence": settings.absence, "bot": settings.bot,
            "attach": list(settings.attach),
            "from": config.sender, "gm": config.gm, "domain": config.domain,
            "timezone": config.timezone, "guide": config.guide_url, "site": settings.site,
            "image_base": settings.image_base}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode("utf-8")).hexdigest()


# -- the mark file --------------------------------------------------------------------

def _digest(data: dict[str, Any]) -> str:
    body = {k: v for k, v in data.items() if k != "check"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=True).encode("ascii")).hexdigest()


def mark_text(data: dict[str, Any]) -> str:
    """A mark's file text: ``data`` with its format, version and checksum."""
    body = {**data, "format": FORMAT, "version": __version__}
    body["check"] = _digest(body)
    return json.dumps(body, sort_keys=True, indent=1, ensure_ascii=True) + "\n"


def _stat_list(value: Any, length: int) -> bool:
    return (isinstance(value, list) and len(value) == length
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value))


def _source_ok(source: Any) -> bool:
    if not isinstance(source, dict) or not isinstance(source.get("kind"), str):
        return False
    kind = source["kind"]
    state = source.get("state")
    if kind == "none":
        return source.get("spec") is None
    if not isinstance(source.get("spec"), str):
        return False
    if kind == "imap":
        return (isinstance(state, dict) and set(state) == {"uidvalidity", "uidnext", "exists"}
                and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in state.values()))
    if kind == "local":
        taken = source.get("taken_ns")
        return (isinstance(taken, int) and isinstance(state, dict)
                and ((state.get("kind") == "maildir" and set(state) == {"kind", "new", "cur"}
                      and _stat_list(state["new"], 3) and _stat_list(state["cur"], 3))
                     or (state.get("kind") == "file" and set(state) == {"kind", "file"}
                         and _stat_list(state["file"], 4))))
    return False


def _well_formed(data: Any) -> bool:
    """Whether a mark has every field, each of its kind (a mark is trusted only then)."""
    if not isinstance(data, dict):
        return False
    game = data.get("game")
    return (data.get("format") == FORMAT and data.get("version") == __version__
            and isinstance(data.get("check"), str) and data["check"] == _digest(data)
            and isinstance(data.get("settings"), str) and isinstance(data.get("at"), str)
            and (data.get("next") is None or isinstance(data.get("next"), str))
            and isinstance(game, dict) and _stat_list(game.get("file"), 4)
            and isinstance(game.get("id"), str) and isinstance(game.get("head"), str)
            and isinstance(game.get("addresses"), dict)
            and all(isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in game["addresses"].items())
            and (data.get("ledger") is None or _stat_list(data.get("ledger"), 4))
            and (data.get("clock") is None or _stat_list(data.get("clock"), 4))
            and _source_ok(data.get("source")))


def read_mark(game: str | os.PathLike) -> dict[str, Any] | None:
    """The game's mark, or ``None`` if there is none or it is not one to trust (unreadable,
    too large, not JSON, another format or version, a checksum that does not match,
    a field missing or of the wrong kind)."""
    try:
        fd = os.open(mark_path(game), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        raw = os.read(fd, MAX_MARK_BYTES + 1)
        if len(raw) > MAX_MARK_BYTES:
            return None
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        os.close(fd)
    return data if _well_formed(data) else None


# -- the verdict ----------------------------------------------------------------------

@dataclass
class Verdict:
    """What a game's mark says now."""

    settings: GameMail
    spec: str | None
    mark: dict[str, Any] | None = None
    idle: bool = False
    """Everything but the source holds: the game, its ledger, its queue, the settings and
    the clock are as the mark says."""
    why: str = "no mark"
    """Why not (for tests and for reading)."""
    ledger: list[int] | None = field(default=None)
    clock: list[int] | None = field(default=None)

    @property
    def source(self) -> dict[str, Any] | None:
        return self.mark["source"] if self.mark is not None else None

    def ledger_unchanged(self) -> bool:
        """Whether the ledger is the one the mark saw (then every mail the mark's source
        state covers is in it)."""
        return self.mark is not None and self.ledger == self.mark["ledger"]


def look(config: MailConfig, settings: GameMail, option: str | None, now: datetime) -> Verdict:
    """Check a game's mark against everything but the mail source (that is
    :func:`source_unchanged`, or an IMAP server's answer). Never raises for anything on
    disk: whatever cannot be read is a reason for a full run."""
    spec = effective_source(config, settings, option)
    verdict = Verdict(settings, spec)
    mark = read_mark(settings.file)
    if mark is None:
        return verdict
    verdict.mark = mark
    try:
        verdict.ledger = file_state(ledger_file(settings.file))
        verdict.clock = file_state(clock_file(settings.file))
        verdict.idle, verdict.why = _holds(config, settings, spec, mark, verdict, now)
    except (OSError, ValueError, PbemError) as exc:
        verdict.idle, verdict.why = False, f"cannot look: {exc}"
    return verdict


def _holds(config: MailConfig, settings: GameMail, spec: str | None, mark: dict[str, Any],
           verdict: Verdict, now: datetime) -> tuple[bool, str]:
    if mark["settings"] != settings_digest(config, settings, spec):
        return False, "the game's settings changed"
    if mark["source"].get("spec") != source_key(spec):
        return False, "another mail source"
    if file_state(settings.file) != mark["game"]["file"]:
        return False, "the game file changed"
    if verdict.ledger != mark["ledger"]:
        return False, "the ledger changed"
    if verdict.clock != mark.get("clock"):
        return False, "the clock changed"
    if mail_waiting(queue_folder(settings.file)):
        return False, "mail waits in the queue"
    if now < parse_time(mark["at"]):
        return False, "the time is before the last run"
    if mark["next"] is not None and now >= parse_time(mark["next"]):
        return False, "the clock needs the cycle"
    return True, "idle"


def mail_waiting(folder: Path) -> bool:
    """Whether a mail waits in the queue folder (:func:`pbem.mail.transport.waiting`)."""
    try:
        with os.scandir(folder) as entries:
            return any(e.name.endswith(".eml") and not e.name.startswith(".") for e in entries)
    except FileNotFoundError:
        return False


def source_unchanged(verdict: Verdict, state: dict[str, Any] | None) -> bool:
    """Whether a local source is as the mark saw it, and was settled then."""
    source = verdict.source
    if source is None or state is None or source["kind"] != "local":
        return False
    return source["state"] == state and settled(state, source["taken_ns"])


ARRIVAL = re.compile(r"^(\d{1,20})\.([0-9a-f]{24})\.(mail|head-(\d{1,15}))$")
"""The name of a mail ``mail receive`` kept (:mod:`pbem.mail.arrivals`)."""


def arrivals_waiting(folder: str | os.PathLike) -> bool:
    """Whether a mail ``mail receive`` kept waits in the arrivals folder's ``new/``."""
    try:
        with os.scandir(Path(folder) / "new") as entries:
            return any(ARRIVAL.match(e.name) and e.is_file(follow_symlinks=False) for e in entries)
    except OSError:
        return False


def next_due(games: list[GameMail]) -> tuple[datetime | None, bool]:
    """The earliest moment a game's clock needs the cycle, as the marks the last cycle wrote
    keep it (:func:`pbem.service.clock.next_step`), and whether a game has no mark to tell
    (its last cycle failed, or another run has it): then when is not known."""
    earliest: datetime | None = None
    unknown = False
    for settings in games:
        mark = read_mark(settings.file)
        if mark is None:
            unknown = True
        elif mark["next"] is not None:
            due = parse_time(mark["next"])
            earliest = due if earliest is None or due < earliest else earliest
    return earliest, unknown


@dataclass
class Plan:
    """Which games a ``mail run`` leaves alone and which it runs."""

    idle: list[GameMail] = field(default_factory=list)
    busy: list[GameMail] = field(default_factory=list)
    why: dict[str, str] = field(default_factory=dict)
    """Game file -> why it runs (or ``idle``)."""


def plan(config: MailConfig, games: list[GameMail], option: str | None, now: datetime) -> Plan:
    """Split the games of a ``mail run`` into idle and busy ones. Games that share a
    source stay together when it is an IMAP mailbox (one login for all of them); a local
    source's watermark is read once."""
    groups: dict[str | None, list[Verdict]] = {}
    for settings in games:
        verdict = look(config, settings, option, now)
        groups.setdefault(verdict.spec, []).append(verdict)
    result = Plan()

    def put(verdict: Verdict, idle: bool, why: str) -> None:
        (result.idle if idle else result.busy).append(verdict.settings)
        result.why[str(verdict.settings.file)] = why

    for spec, verdicts in groups.items():
        if spec is None:
            for v in verdicts:
                idle = v.idle and v.source is not None and v.source["kind"] == "none"
                put(v, idle, v.why if not v.idle else "idle" if idle else "another mail source")
        elif is_imap(spec):
            state = None
            if all(v.idle and v.source["kind"] == "imap" for v in verdicts):
                state = _imap_state(spec, config)
            for v in verdicts:
                same = state is not None and v.source["kind"] == "imap" and v.source["state"] == state
                put(v, same, "idle" if same else v.why if not v.idle else "the mailbox changed (or cannot be told)")
        else:
            state = local_state(spec)
            for v in verdicts:
                same = v.idle and source_unchanged(v, state)
                put(v, same, "idle" if same else v.why if not v.idle else "the mailbox changed")
    return result


def _imap_state(spec: str, config: MailConfig) -> dict[str, int] | None:
    """The IMAP mailbox's state (one login and EXAMINE); ``None`` if it cannot be had (the
    full run that follows says why)."""
    from pbem.mail.inbox import ImapSource

    try:
        return ImapSource(spec, config.imap).state()
    except PbemError:
        return None
