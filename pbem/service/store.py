"""Game files on disk: load and check, atomic deterministic save, the lock, the audit log.

A game file is only ever replaced whole: the new text goes to a temporary file in the
same folder, is flushed and fsynced, and then renamed over the old one, so a crash leaves
either the old file or the new one. A lock file ``GAME.lock`` keeps two runs on the same
game from interleaving; it exists only while a run holds it. A game reached through a
symbolic link is the file the link points to: it is locked and written there, and the link
stays a link.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Iterator

from pbem import editions
from pbem.errors import GameLocked, InconsistentGame, InputError, Problem
from pbem.service.boards import embedded_board, known_boards, load_board
from pbem.service.game import Game, game_from_json
from pbem.service.schemas import dumps, read_json, validate


def _edition_of(data: Any, source: str):
    """The edition a game file names; a file too broken to say is checked as classic."""
    rules = data.get("rules") if isinstance(data, dict) else None
    name = rules.get("edition") if isinstance(rules, dict) else None
    if not isinstance(name, str):
        return editions.get("antike")
    try:
        return editions.get(name)
    except editions.UnknownEdition:
        raise InputError(source, [Problem("$.rules.edition", f"unknown edition {name!r}: "
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
            "$.board.id", f"unknown board {board_id!r}; known boards: {', '.join(known_boards())}")])
    return game_from_json(data, edition, load_board(board_id), source)


def load_game(path: str | os.PathLike) -> Game:
    """Read, schema-check and consistency-check a game file."""
    source = str(path)
    return game_from_data(read_json(path, source), source)


def game_text(game: Game) -> str:
    return dumps(game.to_json())


def write_atomic(path: str | os.PathLike, text: str, mode: int | None = None) -> None:
    """Replace ``path`` with ``text`` atomically (temp file, fsync, rename, fsync folder).

    A file that cannot be written raises :class:`InputError` naming it; the old file, if
    any, is then left as it was and no temporary file stays behind. A symbolic link is
    followed: the file it points to is replaced, and the link stays.
    """
    target = Path(os.path.realpath(path))
    folder = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise InputError(str(path), f"cannot write file: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
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
            raise InputError(str(path), f"cannot write file: {exc.strerror or exc}") from None
        raise
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def save_game(game: Game, path: str | os.PathLike) -> None:
    """Write ``game`` to ``path``: deterministic text, replaced atomically."""
    write_atomic(path, game_text(game))


def lock_path(path: str | os.PathLike) -> str:
    """The lock file that guards the game file ``path`` (beside the file a link points to)."""
    return f"{os.path.realpath(path)}.lock"


@contextmanager
def locked(path: str | os.PathLike, must_exist: bool = True) -> Iterator[None]:
    """Hold the game's lock for the duration; raise :class:`GameLocked` if another run has it.

    The lock is an exclusive ``flock`` on ``GAME.lock``, which is removed again on the way
    out (while still held, so no other run can lock a file that is going away; a run that
    opened it just before checks that what it locked is still the lock file, and otherwise
    tries again). The game's folder must exist, and unless ``must_exist`` is false
    (``new``) so must the game file.
    """
    import fcntl

    folder = Path(path).parent
    if not folder.is_dir():
        raise InputError(str(path), f"folder {folder} does not exist")
    if must_exist and not Path(path).exists():
        raise InputError(str(path), "file not found")
    lock_file = lock_path(path)
    while True:
        try:
            fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise InputError(lock_file, f"cannot create the lock file: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise GameLocked(f"{path} is locked by another run (lock file {lock_file}); "
                             "try again when it has finished") from None
        try:
            held, current = os.fstat(fd), os.stat(lock_file)
            if (held.st_dev, held.st_ino) == (current.st_dev, current.st_ino):
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    try:
        yield
    finally:
        try:
            os.unlink(lock_file)
        finally:
            os.close(fd)


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
    (``game.json`` -> ``game.secrets.json``)."""
    p = Path(path)
    return p.with_name(p.name.removesuffix(".json") + suffix)


def audit_path(path: str | os.PathLike) -> Path:
    """The GM's append-only audit log beside the game: ``GAME.audit.jsonl``."""
    return sibling(path, ".audit.jsonl")


def append_audit(path: str | os.PathLike, line: str) -> None:
    """Append one line to the game's audit log, flushed to disk."""
    with open(audit_path(path), "a", encoding="utf-8") as log:
        log.write(line + "\n")
        log.flush()
        os.fsync(log.fileno())
