"""Report commands: ``render`` any turn's report again from the game's history."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from pbem.cli import app, run


@app.command()
def render(
    game: Path = typer.Argument(..., help="The game file (not changed)."),
    turn: Optional[int] = typer.Option(None, "--turn", help="The turn to render (default: the latest; 0: the set-up)."),
    formats: Optional[List[str]] = typer.Option(
        None, "--format", "-f",
        help="svg | pdf | png | txt | md | bbcode | all; repeatable or comma-separated (default: all)."),
    out: Path = typer.Option(Path("."), "--out", "-o", help="Folder for the files (created if missing)."),
) -> None:
    """Render a turn's report, byte-identical to the one written when it was processed.

    Files are named GAMEID-turn-NNN.EXT. A past turn is rebuilt by replaying the history, each entry checked against its hash.

    Example: antike-ref render game.json --turn 12 --format pdf --format png --out reports
    """

    def go():
        from pbem.report import parse_formats, write_reports
        from pbem.store import load_game

        chosen = parse_formats(formats)
        loaded = load_game(game)
        for path in write_reports(loaded, out, chosen, turn=turn):
            print(path)

    run(go)
