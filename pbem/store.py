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

from pbem.errors import GameLocked, InputError
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
    """Replace ``path`` with ``text`` atomically (temp file, fsync, rename, fsync folder).

    A file that cannot be written raises :class:`InputError` naming it; the old file, if
    any, is then left as it was and no temporary file stays behind.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
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
    """The lock file that guards the game file ``path``."""
    return f"{path}.lock"


@contextmanager
def locked(path: str | os.PathLike, timeout: float = 0, must_exist: bool = True) -> Iterator[None]:
    """Hold ``PATH.lock`` for the duration; raise :class:`GameLocked` if another run has it.

    The game's folder must exist (the lock library would otherwise create it), and unless
    ``must_exist`` is false (``new``) so must the game file: no lock file is left beside a
    game that is not there.
    """
    from filelock import FileLock, Timeout

    lock_file = lock_path(path)
    folder = Path(path).parent
    if not folder.is_dir():
        raise InputError(str(path), f"folder {folder} does not exist")
    if must_exist and not Path(path).exists():
        raise InputError(str(path), "file not found")
    lock = FileLock(lock_file, timeout=timeout)
    try:
        lock.acquire()
    except Timeout:
        raise GameLocked(f"{path} is locked by another run (lock file {lock_file}); "
                         "try again when it has finished") from None
    except OSError as exc:
        raise InputError(lock_file, f"cannot create the lock file: {exc.strerror or exc}") from None
    try:
        yield
    finally:
        lock.release()


@contextmanager
def locked_files(*paths: str | os.PathLike | None) -> Iterator[None]:
    """Hold the locks of every distinct path given (``None`` skipped): a game and the file
    a command writes its result to with ``-o``. The first must exist; the others may not yet."""
    from contextlib import ExitStack

    seen: list[Path] = []
    with ExitStack() as stack:
        for path in paths:
            if path is None or Path(path).resolve() in seen:
                continue
            stack.enter_context(locked(path, must_exist=not seen))
            seen.append(Path(path).resolve())
        yield
