"""A rehearsal of the mail cycle (``--dry-run``): every mail it would send, nothing changed.

The cycle runs as usual, but on copies: each game file, its ledger, its clock, its mail
queue, its idle mark, the GM's secrets file (the opening mails carry the passwords) and the
press log are copied (under the game's mail lock, so no other run is half-way through
them) into a private temporary folder, the cycle works on the copies, and the folder is
removed afterwards. The mail sources are only read, as always. So a dry run applies the
orders, plays the missed deadlines and writes the reports exactly as the real run would,
into the outbox, while the games, ledgers, queues and clocks stay as they were: the real
run that follows still sends every one of those mails.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from pbem.errors import GameLocked
from pbem.mail.config import GameMail
from pbem.mail.ledger import ledger_path, mail_lock, spool_path
from pbem.service import store

BESIDE = (".mail-mark.json", ".clock.json", ".secrets.json", ".press.jsonl")
"""Other files of the mail cycle beside a game that a rehearsal copies when present."""


@contextmanager
def rehearsal(games: list[GameMail],
              log: Callable[[str], None]) -> Iterator[tuple[list[GameMail], Callable[[str], str]]]:
    """Copies of ``games`` to run the cycle on, and a function that puts the real file
    names back into a message about a copy. A game another run is working on is left out
    (and said so)."""
    with tempfile.TemporaryDirectory(prefix="antike-ref-dry-run-") as tmp:
        copies: list[GameMail] = []
        names: dict[str, str] = {}
        for k, settings in enumerate(games):
            folder = Path(tmp) / f"{k:03d}"
            folder.mkdir()
            target = folder / settings.file.name
            try:
                with mail_lock(settings.file):
                    _copy(settings.file, target)
            except GameLocked:
                log(f"{settings.file}: another mail run is working on this game; left out of the dry run")
                continue
            copies.append(replace(settings, file=target))
            names[str(target)] = str(settings.file)
            names[str(folder)] = str(settings.file.parent)

        def real(message: str) -> str:
            for copy, original in sorted(names.items(), key=lambda kv: -len(kv[0])):
                message = message.replace(copy, original)
            return message

        yield copies, real


def _copy(game: Path, target: Path) -> None:
    """The game file, its ledger, its queue and the files beside it (:data:`BESIDE`), as
    far as they exist."""
    if game.is_file():
        shutil.copyfile(game, target)
    ledger = ledger_path(game)
    if ledger.is_file():
        shutil.copyfile(ledger, ledger_path(target))
    for suffix in BESIDE:
        mark = store.sibling(game, suffix)
        if mark.is_file():
            shutil.copyfile(mark, store.sibling(target, suffix))
    queue = spool_path(game)
    if queue.is_dir():
        mine = spool_path(target)
        mine.mkdir(mode=0o700)
        for mail in queue.iterdir():
            if mail.is_file() and mail.suffix == ".eml" and not mail.name.startswith("."):
                shutil.copyfile(mail, mine / mail.name)
