"""Game file I/O: load and check, atomic deterministic save, and the lock.

A game file is only ever replaced whole: the new text goes to a temporary file in the
same folder, is flushed and fsynced, and then renamed over the old one, so a crash leaves
either the old file or the new one. A separate ``GAME.lock`` file keeps two runs on the
same game from interleaving.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from pbem.errors import GameLocked
from pbem.game import Game, game_from_json
from pbem.schemas import dumps, read_json, validate


def load_game(path: str | os.PathLike) -> Game:
    """Read, schema-check and consistency-check a game file."""
    source = str(path)
    data = read_json(path, source)
    validate("game", data, source)
    return game_from_json(data, source)


def game_text(game: Game) -> str:
    return dumps(game.to_json())


def write_atomic(path: str | os.PathLike, text: str, mode: int | None = None) -> None:
    """Replace ``path`` with ``text`` atomically (temp file, fsync, rename, fsync folder)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
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
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
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
    write_atomic(path, game_text(game))


@contextmanager
def locked(path: str | os.PathLike, timeout: float = 0) -> Iterator[None]:
    """Hold ``PATH.lock`` for the duration; raise :class:`GameLocked` if another run has it."""
    from filelock import FileLock, Timeout

    lock = FileLock(f"{path}.lock", timeout=timeout)
    try:
        lock.acquire()
    except Timeout:
        raise GameLocked(f"{path} is locked by another run (lock file {path}.lock); try again when it has finished") from None
    try:
        yield
    finally:
        lock.release()
