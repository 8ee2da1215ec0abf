"""``antike-ref map ...``: the kit for entering a printed board, checking and drawing it."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from pbem.cli.base import map_app, run
from pbem.errors import InputError, UsageError


def city_marks(board) -> tuple:
    """The city marks of the board's edition, which the board's pictures leave room for in
    their legend, as the reports of its games do."""
    from pbem import editions

    return tuple(editions.get(board.edition).phrases.city_marks)


def _summary(board) -> str:
    provinces = board.provinces.values()
    land = sum(len(p.land) for p in provinces) // 2
    sea = sum(len(p.sea) for p in provinces) // 2
    sites = {}
    for p in provinces:
        sites[p.resource] = sites.get(p.resource, 0) + 1
    counts = ", ".join(f"{n} {r}" for r, n in sorted(sites.items()))
    made = " (a reconstruction, not the printed board)" if board.reconstruction else ""
    if made and "reconstruction" in board.name.lower():
        made = ", not the printed board"
    return (f"{board.name}{made}: {len(board.provinces)} provinces ({counts}), {land} land and {sea} sea borders, "
            f"start lines for {', '.join(map(str, sorted(board.start_lines)))} nations")


@map_app.command("check")
def map_check(file: Path = typer.Argument(..., help="A map file (with its provinces table, if it names one).")) -> None:
    """Check a map file and name every problem: its shape, borders (unknown, one-sided,
    missing), provinces nobody can reach, start lines, two-player teams, labels that
    overlap when drawn.

    Example: antike-ref map check maps/antike-west.json
    """

    def go():
        from pbem.report.boardmap import label_problems
        from pbem.service.boards import load_map_file

        board = load_map_file(file)
        problems = label_problems(board, city_marks(board))
        if problems:
            raise InputError(str(file), problems)
        print(f"{file}: ok; {_summary(board)}")

    run(go)


@map_app.command("new")
def map_new(
    file: Path = typer.Argument(..., help="The map file to write (NAME.json); its provinces table goes beside it "
                                "as NAME.provinces.csv."),
    template: str = typer.Option("blank", "--template", help="Start from: blank, or a shipped board (east, west, "
                                 "antike-east, antike-west) to correct against your printed board."),
    board_id: Optional[str] = typer.Option(None, "--id", help="The board's id (default: the file name's stem)."),
    force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
) -> None:
    """Write a board to fill in: a map file (nations, start lines, two-player teams,
    picture size) and a provinces table, one row per province: id, name, resource, x, y,
    land and sea borders (ids or names separated by ';', each border on one of its two
    rows), and optional label position, neutral temple and double region. Outlines are
    generated from the positions. Then: map check, map render, new --board FILE.

    Example: antike-ref map new my-west.json --template west
    """

    def go():
        import re

        from pbem.service.boards import skeleton
        from pbem.service.schemas import dumps
        from pbem.service.store import write_atomic

        if file.suffix != ".json":
            raise UsageError(f"{file}: a map file's name ends in .json")
        ident = board_id or file.stem
        if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", ident):
            raise UsageError(f"board id {ident!r}: lowercase letters and digits in parts joined by '-', "
                             "starting with a letter (give --id)")
        table = file.with_name(f"{file.stem}.provinces.csv")
        if not file.resolve().parent.is_dir():
            raise UsageError(f"{file}: folder {file.parent} does not exist")
        for path in (file, table):
            if path.exists() and not force:
                raise UsageError(f"{path} exists already (use --force to overwrite)")
        data, rows = skeleton(template, ident, table.name)
        write_atomic(table, rows)
        write_atomic(file, dumps(data))
        count = rows.count("\n") - 1
        print(f"wrote {file} and {table} ({count} provinces from template {template})")
        print(f"next: fill them in, then antike-ref map check {file}; antike-ref map render {file} --out DIR")

    run(go)


@map_app.command("render")
def map_render(
    file: Path = typer.Argument(..., help="A map file, or a shipped board's id."),
    out: Path = typer.Option(Path("."), "--out", help="Folder for the pictures (created if missing)."),
    formats: Optional[List[str]] = typer.Option(None, "--format", help="svg, png, pdf (repeatable or comma-separated; "
                                                "default svg,png)."),
    ids: bool = typer.Option(True, "--ids/--no-ids", help="Print each province's id under its name."),
) -> None:
    """Draw a board as the reports will, with every province's name and id, to compare
    with the printed board.

    Example: antike-ref map render my-west.json --out pictures
    """

    def go():
        from pbem.report.boardmap import board_pictures
        from pbem.service.boards import known_boards, load_board, load_map_file

        wanted = [f.strip() for value in (formats or ["svg,png"]) for f in value.split(",") if f.strip()]
        bad = [f for f in wanted if f not in ("svg", "png", "pdf")]
        if bad:
            raise UsageError(f"--format {', '.join(bad)}: one of svg, png, pdf")
        board = load_board(str(file)) if str(file) in known_boards() else load_map_file(file)
        pictures = board_pictures(board, wanted, ids=ids, marks=city_marks(board))
        out.mkdir(parents=True, exist_ok=True)
        from pbem.report import _write_bytes

        written = []
        for fmt in wanted:
            path = out / f"{board.id}.{fmt}"
            _write_bytes(path, pictures[fmt])
            written.append(path)
        print(f"{_summary(board)}")
        print("wrote " + ", ".join(str(p) for p in written))

    run(go)
