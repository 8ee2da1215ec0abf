"""Game files on disk: load and check, atomic deterministic save, the lock, the audit log.

A game file is only ever replaced whole: the new text goes to a temporary file in the
same folder (``.GAME.XXXXXXXX.tmp``), is flushed and fsynced, and then renamed over the old
one, so a crash leaves either the old file or the new one. A lock file ``GAME.lock`` keeps
two runs on the same game from interleaving; it exists only while a run holds it. A run
that was killed may leave its lock file (the lock itself dies with the run: the next run
takes it over and removes it) and, if it died while writing, its temporary file, which
the next successful save of that game removes. A game reached through a symbolic link is
the file the link points to: it is locked and written there, its siblings (audit log,
secrets) are beside it, and the link stays a link. A game file with a second name (a hard
link) is refused by every writer: replacing it would split it into two games.
"""

from __future__ import annotations

import os
import re
import stat
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from pbem import editions
from pbem.errors import CannotWrite, GameLocked, InconsistentGame, InputError, Problem, clip
from pbem.service.boards import embedded_board, known_boards, load_board
from pbem.service.game import Game, game_from_json
from pbem.service.schemas import dumps, parse_json, read_text, validate


def _edition_of(data: Any, source: str):
    """The edition a game file names; a file too broken to say is checked as classic."""
    rules = data.get("rules") if isinstance(data, dict) else None
    name = rules.get("edition") if isinstance(rules, dict) else None
    if not isinstance(name, str):
        return editions.get("antike")
    try:
        return editions.get(name)
    except editions.UnknownEdition:
        raise InputError(source, [Problem("$.rules.edition", f"unknown edition {clip(repr(name))}: "
                                          f"one of {', '.join(editions.names())}")]) from None


def game_from_data(data: Any, source: str) -> Game:
    """A game from the parsed JSON of a game file: schema, board and consistency checked."""
    edition = _edition_of(data, source)
    validate("game", data, source, edition)
    board_id = data["board"]["id"]
    if "map" in data["board"]:
        return game_from_json(data, edition, embedded_board(data["board"], source), source)
    if board_id not in known_boards():
        raise InconsistentGame(source, [Problem(
            "$.board.id", f"unknown board {clip(repr(board_id))}; known boards: {', '.join(known_boards())}")])
    return game_from_json(data, edition, load_board(board_id), source)


def load_game(path: str | os.PathLike) -> Game:
    """Read, schema-check and consistency-check a game file (a player's copy packed as a
    mail carries it is read as the copy it holds: :func:`pbem.service.copies.unpacked`)."""
    from pbem.service.copies import unpacked
    from pbem.service.schemas import MAX_INPUT_BYTES

    source = str(path)
    text = read_text(path, source)
    data = parse_json(text, source)
    inner = unpacked(data, source, MAX_INPUT_BYTES)  # a player's copy as a mail carries it, packed
    game = game_from_data(inner, source)
    if inner is data:
        game.origin = HistoryText.of(text, game.history)
    return game


_HISTORY_OPEN = '\n "history": [\n'
_HISTORY_CLOSE = '\n ],\n "nations": '
_HISTORY_EMPTY = '\n "history": [],\n'


@dataclass(frozen=True)
class HistoryText:
    """The history entries of a game file as the file wrote them: the loaded entries (the
    list object) and the text between the history's brackets. A game that only added
    entries since is written again with this text for the old ones: the indented writer
    is pure Python, and the history is almost all of a long game's file."""

    entries: list
    body: str

    @classmethod
    def of(cls, text: str, entries: list) -> HistoryText | None:
        """The history text of a game file in the layout :func:`dumps` writes (one space
        per level, keys sorted, so the history's brackets stand at the start of their
        lines with one space); ``None`` for any other layout."""
        start = text.find(_HISTORY_OPEN)
        end = text.find(_HISTORY_CLOSE, start)
        if start < 0 or end < 0 or not entries:
            return None
        return cls(entries, text[start + len(_HISTORY_OPEN):end])

    def text_for(self, history: list) -> str | None:
        """The text between the brackets of ``history``, or ``None`` if it does not start
        with the very entries that were read (an undo took some back)."""
        old = self.entries
        if len(history) < len(old) or any(a is not b for a, b in zip(old, history)):
            return None
        added = [_entry_text(entry) for entry in history[len(old):]]
        return ",\n".join([self.body, *added])


def _entry_text(entry: dict[str, Any]) -> str:
    """One history entry as :func:`dumps` writes it inside the file's history (two levels in)."""
    return "  " + dumps(entry)[:-1].replace("\n", "\n  ")


def game_text(game: Game) -> str:
    """The game file's text: deterministic, the same as :func:`dumps` of the whole game,
    with the entries the file held already copied from it as it wrote them."""
    data = game.to_json()
    body = game.origin.text_for(game.history) if game.origin is not None else None
    if body is None:
        return dumps(data)
    text = dumps({**data, "history": []})
    at = text.find(_HISTORY_EMPTY)
    return f"{text[:at]}{_HISTORY_OPEN}{body}\n ],\n{text[at + len(_HISTORY_EMPTY):]}"


TEMP_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"
"""The letters of the random part of a temporary file's name (eight of them)."""


def _temp_letters() -> str:
    """Eight random :data:`TEMP_LETTERS`, from ``os.urandom`` (the ``secrets`` module would
    import ``random`` into every command that saves a file)."""
    return "".join(TEMP_LETTERS[b % len(TEMP_LETTERS)] for b in os.urandom(8))

_held: dict[str, float] = {}
"""The files whose lock this process holds (real paths), each with when it was taken."""


def held_since(path: str | os.PathLike) -> float | None:
    """When this process took the lock of ``path`` (a :func:`time.time`), ``None`` if it
    does not hold it."""
    return _held.get(os.path.realpath(path))


def temp_pattern(name: str) -> re.Pattern[str]:
    """The names of the temporary files :func:`write_atomic` makes for the file ``name``:
    ``.NAME.XXXXXXXX.tmp``, eight of :data:`TEMP_LETTERS` (also what ``tempfile.mkstemp``
    made for earlier versions)."""
    return re.compile(rf"\.{re.escape(name)}\.[{re.escape(TEMP_LETTERS)}]{{8}}\.tmp")


def _new_temp(target: Path) -> tuple[int, str]:
    """Create a new, empty temporary file beside ``target`` (mode 600); its fd and path."""
    for _ in range(100):
        tmp = str(target.parent / f".{target.name}.{_temp_letters()}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(17, "no free temporary file name", str(target))


def clear_stale_temps(path: str | os.PathLike, older_than: float) -> list[str]:
    """Remove the temporary files a killed :func:`write_atomic` left beside ``path``: only
    regular files whose name has exactly that pattern (:func:`temp_pattern`) and that were
    last written before ``older_than`` (a :func:`time.time`). Call it only while no other
    run can be writing ``path`` (holding its lock). Returns the names removed; a file that
    cannot be removed is left."""
    target = Path(os.path.realpath(path))
    pattern = temp_pattern(target.name)
    removed = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and info.st_mtime < older_than:
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:
            continue
    return removed


def write_atomic(path: str | os.PathLike, text: str, mode: int | None = None, durable: bool = True) -> None:
    """Replace ``path`` with ``text`` atomically (temp file, fsync, rename, fsync folder).

    ``durable=False`` leaves out both fsyncs, for a file that is only a cache (a mail
    watermark): it is still replaced whole or not at all while the machine runs, but after
    a power cut it may be missing or empty, which its reader must take as "no file".

    A file that cannot be written raises :class:`InputError` naming it; the old file, if
    any, is then left as it was and no temporary file stays behind. A symbolic link is
    followed: the file it points to is replaced, and the link stays. While this run holds
    the file's lock (:func:`locked`), temporary files that a killed run left beside it are
    removed after the rename (:func:`clear_stale_temps`).
    """
    target = Path(os.path.realpath(path))
    folder = target.parent
    try:
        fd, tmp = _new_temp(target)
    except OSError as exc:
        raise CannotWrite(str(path), str(exc.strerror or exc)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        elif target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise CannotWrite(str(path), str(exc.strerror or exc)) from None
        raise
    since = _held.get(str(target))
    if since is not None:
        clear_stale_temps(target, since)
    if not durable:
        return
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def save_game(game: Game, path: str | os.PathLike, mode: int | None = None) -> None:
    """Write ``game`` to ``path``: deterministic text, replaced atomically. A game file
    with a second name (hard link) is refused (:func:`refuse_hard_links`). ``mode``: for a
    new file (an existing one keeps its own)."""
    refuse_hard_links(path)
    write_atomic(path, game_text(game), mode=None if Path(path).exists() else mode)


def owned_folder(folder: Path) -> Path:
    """``folder``, a folder this program keeps for itself (a game's mail queue), made if
    missing (mode 700); one that is a symbolic link, or not a folder, is refused: what is
    written there must stay there."""
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise CannotWrite(str(folder), f"cannot make the folder: {exc.strerror or exc}") from None
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode):
        raise CannotWrite(str(folder), "it is a symbolic link or not a folder: move it away (this program "
                                       "writes there only into a real folder of its own)")
    return folder


def write_in(folder: Path, name: str, data: bytes, mode: int = 0o600, durable: bool = True) -> Path:
    """Write ``data`` as ``folder/name`` without following a symbolic link: the file is
    made new (``O_EXCL``, ``O_NOFOLLOW``, mode ``mode``) under a temporary name and renamed
    over ``name`` in the same folder, which replaces a link planted there rather than the
    file it points to. For the files the program writes into its folders (queued and
    delivered mails: they may hold a password or a player's cards, hence 600), and the
    files it writes where it is told to (reports, a website, the GM's status page).
    ``durable=False`` leaves out the fsyncs (a report can be written again). Any error
    is :class:`CannotWrite`, and leaves no temporary file."""
    try:
        dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise CannotWrite(str(folder), str(exc.strerror or exc)) from None
    tmp = None
    try:
        for _ in range(100):
            tmp = f".{name}.{_temp_letters()}.tmp"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode,
                             dir_fd=dir_fd)
                break
            except FileExistsError:
                continue
        else:
            raise FileExistsError(17, "no free temporary file name", name)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        tmp = None
        if durable:
            os.fsync(dir_fd)
    except OSError as exc:
        raise CannotWrite(str(folder / name), str(exc.strerror or exc)) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp, dir_fd=dir_fd)
            except OSError:
                pass
        os.close(dir_fd)
    return folder / name


def read_in(path: Path, limit: int = 64 * 1024 * 1024) -> bytes | None:
    """The bytes of the regular file ``path``, read without following a symbolic link;
    ``None`` for a link, a folder, a pipe or a device (left alone), or a file over
    ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:  # a folder cannot even be opened as a file
            os.close(fd)
            return None
    except OSError:
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as fh:
        return fh.read(limit + 1)[:limit]


def refuse_hard_links(path: str | os.PathLike) -> None:
    """Raise :class:`InputError` if the file ``path`` has more than one name (hard links):
    replacing it whole would leave the other names on the old text, two games where there
    was one. A symbolic link is fine (the file it points to is replaced)."""
    try:
        names = os.stat(path).st_nlink
    except OSError:
        return
    if names > 1:
        raise InputError(str(path), f"the file has {names} names (hard links), and saving would split it "
                                    "into two games (the other names keeping the old one); keep one name, "
                                    "or make the others symbolic links")


@contextmanager
def locked(path: str | os.PathLike, must_exist: bool = True) -> Iterator[None]:
    """Hold the game's lock for the duration; raise :class:`GameLocked` if another run has it.

    The lock is an exclusive ``flock`` on ``GAME.lock``, which is removed again on the way
    out (while still held, so no other run can lock a file that is going away; a run that
    opened it just before checks that what it locked is still the lock file, and otherwise
    tries again). A lock file left by a killed run holds no lock: it is taken over, and
    removed on the way out. The game's folder must exist, and unless ``must_exist`` is
    false (``new``) so must the game file; a file with a second name (hard link) is refused
    (:func:`refuse_hard_links`).
    """
    import fcntl

    folder = Path(path).parent
    if not folder.is_dir():
        raise InputError(str(path), f"folder {folder} does not exist")
    if must_exist and not Path(path).exists():
        raise InputError(str(path), "file not found")
    real = os.path.realpath(path)
    lock_file = f"{real}.lock"
    while True:
        try:
            fd = os.open(lock_file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise CannotWrite(lock_file, f"cannot create the lock file: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise GameLocked(f"{path} is locked by another run (lock file {lock_file}); "
                             "try again when it has finished") from None
        try:
            held = os.fstat(fd)
            if _same_file(held, os.stat(lock_file)):
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    _held[real] = time.time()
    try:
        refuse_hard_links(path)
        yield
    finally:
        _held.pop(real, None)
        try:
            # Only our own lock file: one removed by hand may have been made again by
            # another run, whose lock must stay.
            if _same_file(held, os.stat(lock_file)):
                os.unlink(lock_file)
        except FileNotFoundError:
            pass
        finally:
            os.close(fd)


def file_state(path: str | os.PathLike) -> tuple[int, int, int, int] | None:
    """What tells one version of a file from another without reading it: its device,
    inode, modification time (ns) and size, through a symbolic link; ``None`` if it cannot
    be looked at. Every writer here replaces a file whole (a new inode), so a file with
    the same state is the same file, unchanged."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


@contextmanager
def locked_files(*paths: str | os.PathLike | None) -> Iterator[None]:
    """Hold the locks of every distinct file given (``None`` skipped): a game and the file
    a command writes its result to with ``-o``. The first must exist; the others may not yet."""
    seen: list[str] = []
    with ExitStack() as stack:
        for path in paths:
            if path is None or os.path.realpath(path) in seen:
                continue
            stack.enter_context(locked(path, must_exist=not seen))
            seen.append(os.path.realpath(path))
        yield


def sibling(path: str | os.PathLike, suffix: str) -> Path:
    """The file beside game file ``path`` with ``.json`` replaced by ``suffix``
    (``game.json`` -> ``game.secrets.json``). For a symbolic link it is beside the file
    the link points to, so that every name of a game has the same audit log, secrets and
    mail ledger."""
    p = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    return p.with_name(p.name.removesuffix(".json") + suffix)


def audit_path(path: str | os.PathLike) -> Path:
    """The GM's append-only audit log beside the game: ``GAME.audit.jsonl``."""
    return sibling(path, ".audit.jsonl")


def append_audit(path: str | os.PathLike, line: str) -> tuple[int, int]:
    """Append one line to the game's audit log, flushed to disk; returns where the log
    ended before and after it (for :func:`retract_audit`).

    The line goes out in one ``write``; should the log end in a line cut short (a run
    killed while appending), a newline is put first, so that only that line is lost. The
    log is the GM's alone (mode 600, made so if it was not) and never written through a
    symbolic link: a link planted in its place is refused. A log that cannot be written
    is :class:`CannotWrite` naming it."""
    data = (line + "\n").encode("utf-8")
    target = audit_path(path)
    try:
        fd = os.open(target, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise CannotWrite(str(target), f"the audit log cannot be written: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CannotWrite(str(target), "the audit log is not a regular file")
        if info.st_mode & 0o077:
            os.fchmod(fd, 0o600)
        size = info.st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        while data:
            data = data[os.write(fd, data):]
        os.fsync(fd)
        return size, os.fstat(fd).st_size
    except OSError as exc:
        raise CannotWrite(str(target), f"the audit log cannot be written: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def retract_audit(path: str | os.PathLike, written: tuple[int, int]) -> None:
    """Take back the line :func:`append_audit` wrote (``written``: where the log ended
    before and after it) when the change it records could not be saved: the log is cut
    back, but only while that line is still its last (a line another run appended since
    stays, and so does ours). Best effort: a log that cannot be cut is left."""
    before, after = written
    try:
        fd = os.open(audit_path(path), os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if os.fstat(fd).st_size == after:
            os.ftruncate(fd, before)
            os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
