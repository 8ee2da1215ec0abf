"""The press log of a game: what the players said to each other through the referee.

``GAME.press.jsonl`` beside the game, one message a line (``at``, ``after`` (the history
entry it followed), ``from``, ``to`` (``"all"`` or nations), ``public``, ``text``, and
``key``, which tells the mail it came in), mode 600 (it holds private messages). The mail
cycle writes it (:mod:`pbem.mail.desk`); the game's web page shows its public messages. It
is outside the history on purpose: press is talk, not a move of the game; a replay does
not need it, and the GM may take a message out without rewriting the game.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pbem.errors import CannotWrite
from pbem.service import store


def press_log(game_file: str | os.PathLike) -> Path:
    """The game's press log: ``GAME.press.jsonl``, one message a line."""
    return store.sibling(game_file, ".press.jsonl")


def read_press(game_file: str | os.PathLike, public_only: bool = True) -> list[dict[str, Any]]:
    """The press log's messages (the public ones only, by default), oldest first; lines that
    cannot be read are passed over."""
    out = []
    raw = store.read_in(press_log(game_file))
    for line in (raw or b"").decode("utf-8", "replace").splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict) and (item.get("public") or not public_only):
            out.append(item)
    return out


def append_press(game_file: Path, item: dict[str, Any]) -> bool:
    """Add ``item`` to the press log (``CannotWrite`` if it cannot be). An item with a
    ``key`` (the mail it came in) that the log holds already is not added again (a mail
    read again after a run that logged it could not note it): false then."""
    from pbem.service.history import canonical

    key = item.get("key")
    if key is not None and any(i.get("key") == key for i in read_press(game_file, public_only=False)):
        return False
    path = press_log(game_file)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise CannotWrite(str(path), str(exc.strerror or exc)) from None
    try:
        os.write(fd, (canonical(item) + "\n").encode("utf-8"))
        os.fsync(fd)
    except OSError as exc:
        raise CannotWrite(str(path), str(exc.strerror or exc)) from None
    finally:
        os.close(fd)
    return True
