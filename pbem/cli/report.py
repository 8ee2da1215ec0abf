"""Report commands: ``render`` any turn's report again from the game's history, ``post`` a
turn's report as a forum post."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from pbem.cli.base import IMAGE_BASE_HELP, app, run
from pbem.errors import UsageError

POST_FORMATS = {"bbcode": "bbcode", "markdown": "md", "md": "md"}


@app.command()
def render(
    game: Path = typer.Argument(..., help="The game file (not changed)."),
    turn: int | None = typer.Option(None, "--turn", help="The turn to render (default: the latest; 0: the set-up)."),
    entry: int | None = typer.Option(None, "--entry", help="Or the history entry with this number (as `history` lists "
                                        "it): a GM edit's or a standing-orders change's own report."),
    formats: list[str] | None = typer.Option(
        None, "--format", "-f",
        help="svg | pdf | png | txt | md | bbcode | all; repeatable or comma-separated (default: all)."),
    out: Path = typer.Option(Path("."), "--out", "-o", help="Folder for the files (created if missing)."),
    image_base: str | None = typer.Option(None, "--image-base", metavar="URL", help=IMAGE_BASE_HELP),
) -> None:
    """Render a turn's report, byte-identical to the one written when it was processed.

    Files are named GAMEID-turn-NNN.EXT (GAMEID-entry-NNN.EXT for an entry that is not a
    turn). A past turn is rebuilt by replaying the history, each entry checked against its
    hash.

    Example: antike-ref render game.json --turn 12 --format pdf --format png --out reports
    """

    def go():
        from pbem.report import check_image_base, parse_formats, write_reports
        from pbem.service.clockfile import read_clock
        from pbem.service.readout import current_deadline
        from pbem.service.service import GameService

        chosen = parse_formats(formats)
        check_image_base(image_base)
        if turn is not None and entry is not None:
            raise UsageError("--turn or --entry, not both")
        loaded = GameService(game).load()
        # the latest entry's report names the current turn's deadline, as process wrote it
        for path in write_reports(loaded, out, chosen, turn=turn, entry=entry, image_base=image_base,
                                  deadline=current_deadline(loaded, read_clock(game))):
            print(path)

    run(go)


@app.command()
def post(
    game: Path = typer.Argument(..., help="The game file (not changed)."),
    turn: int | None = typer.Option(None, "--turn", help="The turn to post (default: the latest; 0: the set-up)."),
    entry: int | None = typer.Option(None, "--entry",
                                     help="Or the history entry with this number (as `history` lists it)."),
    fmt: str = typer.Option("bbcode", "--format", "-f", help="bbcode (phpBB and most forums) or markdown."),
    image_base: str | None = typer.Option(None, "--image-base", metavar="URL", help=IMAGE_BASE_HELP),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write the post to this file instead of printing it."),
) -> None:
    """Print a forum post of a turn's report: the board picture and the report, ready to paste.

    Players are named, never their e-mail addresses. Without --image-base the picture is
    referred to by its file name (GAMEID-turn-NNN.png, from `render --format png`): upload
    it with the post.

    Example: antike-ref post game.json --turn 12 --image-base https://example.org/antike/game
    """

    def go():
        from pbem.report import check_image_base, prepare
        from pbem.service import store
        from pbem.service.clockfile import read_clock
        from pbem.service.readout import current_deadline
        from pbem.service.service import GameService

        kind = POST_FORMATS.get(fmt.strip().lower())
        if kind is None:
            raise UsageError(f"--format {fmt!r}: bbcode or markdown")
        check_image_base(image_base)
        if turn is not None and entry is not None:
            raise UsageError("--turn or --entry, not both")
        loaded = GameService(game).load()
        report = prepare(loaded, turn, entry, image_base=image_base,
                         deadline=current_deadline(loaded, read_clock(game)))
        text = report.render(kind)
        from pbem.cli.signed import post_blocks

        text += post_blocks(report.game, kind).encode("utf-8")  # a game without a game master: its entry's block
        if out is not None:
            store.write_atomic(out, text.decode("utf-8"), durable=False)
            print(out)
        else:
            sys.stdout.write(text.decode("utf-8"))
        if not image_base:
            print(f"note: the post shows the picture {report.name('png')}: upload it with the post, "
                  "or give --image-base", file=sys.stderr)

    run(go)
