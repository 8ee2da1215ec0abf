"""Report commands: ``render`` any turn's report again from the game's history."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from pbem.cli.app import app, run
from pbem.errors import UsageError


@app.command()
def render(
    game: Path = typer.Argument(..., help="The game file (not changed)."),
    turn: Optional[int] = typer.Option(None, "--turn", help="The turn to render (default: the latest; 0: the set-up)."),
    entry: Optional[int] = typer.Option(None, "--entry", help="Or the history entry with this number (as `history` lists "
                                        "it): a GM edit's or a standing-orders change's own report."),
    formats: Optional[List[str]] = typer.Option(
        None, "--format", "-f",
        help="svg | pdf | png | txt | md | bbcode | all; repeatable or comma-separated (default: all)."),
    out: Path = typer.Option(Path("."), "--out", "-o", help="Folder for the files (created if missing)."),
) -> None:
    """Render a turn's report, byte-identical to the one written when it was processed.

    Files are named GAMEID-turn-NNN.EXT (GAMEID-entry-NNN.EXT for an entry that is not a turn). A past turn is rebuilt by replaying the history, each entry checked against its hash.

    Example: antike-ref render game.json --turn 12 --format pdf --format png --out reports
    """

    def go():
        from pbem.report import parse_formats, write_reports
        from pbem.service.service import GameService

        chosen = parse_formats(formats)
        if turn is not None and entry is not None:
            raise UsageError("--turn or --entry, not both")
        for path in write_reports(GameService(game).load(), out, chosen, turn=turn, entry=entry):
            print(path)

    run(go)
