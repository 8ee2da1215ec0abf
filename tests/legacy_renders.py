"""What the reports of the legacy games were, byte for byte: a digest of every report of every
history entry, public and private, in every format, as the release before issue 36 rendered
them (``tests/data/legacy/renders.json``; ``tests/test_legacy.py`` renders them again and
compares).

The PDF and the PNG are drawn by cairo from SVG: the board picture (``svg``) and the report
pages. Their digests here are of those drawings (``pdf``: the board and every page, ``png``:
the board), so that the comparison does not depend on the cairo build of the machine; a
drawing that is the same gives the same PDF and PNG on one machine
(``tests/report/test_report.py``).

Run ``python tests/legacy_renders.py`` to print the digests (``renders.json`` was written so
at commit 900c792); never write them anew for a release that changes them: a change in an
old game's report is what the test is there to catch.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data" / "legacy"
DIGESTS = DATA / "renders.json"
GAMES = ("demo-16.json", "moderated.json", "antike2-31.json", "duellum-82.json", "duellum-91.json",
         "duellum-44.json")
"""Every legacy game file: each entry's reports (a replay from the set-up)."""
COPIES = ("duellum-82.carthaginians.json",)
"""Player copies: they do not replay, so only the latest entry's reports."""
TEXT_FORMATS = ("txt", "md", "bbcode")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


def report_digests(report: Any, drawings: bool = True) -> dict[str, str]:
    """One report's digests by format (:data:`pbem.report.FORMATS`, the PDF and PNG as
    their drawings); ``drawings=False``: the text formats only (fast)."""
    out = {fmt: _digest(report.render(fmt)) for fmt in TEXT_FORMATS}
    if drawings:
        board = report.board_svg()
        out["svg"] = _digest(board.encode("utf-8"))
        out["png"] = out["svg"]
        out["pdf"] = _digest("\n".join([board, *report.page_svgs()]).encode("utf-8"))
    return out


def game_digests(name: str, drawings: bool = True) -> dict[str, dict[str, dict[str, str]]]:
    """Entry number -> reader (``public`` or a nation) -> format -> digest, for the legacy
    file ``name`` (every entry of a game, the latest of a player's copy)."""
    from pbem.report import prepare_all, private_viewers
    from pbem.report.site import games_after_each_entry
    from pbem.service.service import GameService

    game = GameService(DATA / name).load()
    readers = ("public", *private_viewers(game))
    if name in COPIES:
        at = [(len(game.history) - 1, game)]
    else:
        at = list(enumerate(games_after_each_entry(game)))
    out: dict[str, dict[str, dict[str, str]]] = {}
    for index, state in at:
        reports = prepare_all(state, entry=index)
        out[str(index)] = {reader: report_digests(r, drawings) for reader, r in zip(readers, reports)}
    return out


def all_digests(drawings: bool = True) -> dict[str, Any]:
    return {name: game_digests(name, drawings) for name in (*GAMES, *COPIES)}


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    json.dump(all_digests(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
