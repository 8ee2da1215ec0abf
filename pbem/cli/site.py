"""The ``site`` command: a static website of a game, for the GM to upload."""

from __future__ import annotations

from pathlib import Path

import typer

from pbem.cli.base import app, run


@app.command()
def site(
    game: Path = typer.Argument(..., help="The game file (not changed)."),
    folder: Path = typer.Argument(..., metavar="DIR", help="Folder for the website (created if missing; "
                                  "updated in place when it exists)."),
    force: bool = typer.Option(False, "--force", help="Render every board image again, not only the missing ones."),
) -> None:
    """Write a static website of the game: index.html (board, standings, whose turn, the
    history) and one page per history entry.

    Every file is local (no outside fonts, scripts or images) and no e-mail address is
    written; the same game file gives the same files. Run it again into the same folder
    after each turn: it writes only what changed, and removes only files it wrote itself
    that the game no longer has (after an undo).

    Example: antike-ref site games/demo.json public_html/demo
    """

    def go():
        from pbem.report.site import build_site
        from pbem.service.clockfile import read_clock
        from pbem.service.press import read_press
        from pbem.service.readout import current_deadline
        from pbem.service.service import GameService

        loaded = GameService(game).load()
        result = build_site(loaded, folder, force=force, deadline=current_deadline(loaded, read_clock(game)),
                            press=read_press(game))
        removed = f", {len(result.removed)} removed" if result.removed else ""
        print(f"site: {result.index} ({result.entries} history entries; {len(result.written)} files written, "
              f"{len(result.unchanged)} unchanged{removed})")

    run(go)
