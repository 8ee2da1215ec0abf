"""Board files: the shipped boards in ``maps/`` and a board file anywhere, checked and loaded.

A map file is checked twice before it becomes a :class:`~pbem.kernel.board.Board`: its
shape against ``schemas/map.schema.json``, then its consistency
(:func:`pbem.kernel.board.board_problems`). Every problem is reported, so a hand-edited
map can be fixed in one pass.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pbem.errors import InputError, Problem
from pbem.kernel.board import Board, board_problems
from pbem.paths import data_dir, map_path
from pbem.service.schemas import problems as schema_problems
from pbem.service.schemas import read_json

_PROVINCE_PATH = re.compile(r"^\$\.provinces\[(\d+)\]")


def _name_province(data: Any, problem: Problem) -> Problem:
    """``problem`` with the province's id added when its path points into one, since a
    bare list index is hard to find in a 50-province file."""
    match = _PROVINCE_PATH.match(problem.path)
    if not match:
        return problem
    try:
        pid = data["provinces"][int(match.group(1))]["id"]
    except (KeyError, IndexError, TypeError):
        return problem
    if not isinstance(pid, str):
        return problem
    return Problem(problem.path, f"{problem.message} (province {pid!r})")


def map_problems(data: Any) -> list[Problem]:
    """Every problem of map data: schema violations, or if the shape is right, every
    consistency problem, each with the JSON path of the offending value."""
    found = schema_problems("map", data)
    if found:
        return [_name_province(data, problem) for problem in found]
    return board_problems(data)


def check_map_file(path) -> list[Problem]:
    """Every problem of the map file at ``path`` (unreadable, not JSON, shape, consistency).

    For ``antike-ref map check FILE``: an empty list means the file is a usable board.
    """
    try:
        data = read_json(path)
    except InputError as exc:
        return list(exc.problems)
    return map_problems(data)


def load_map_file(path) -> Board:
    """The board in the map file at ``path``; :class:`InputError` listing every problem."""
    data = read_json(path)
    found = map_problems(data)
    if found:
        raise InputError(str(path), found)
    return Board(data)


def known_boards() -> list[str]:
    """Ids of the boards shipped in the ``maps`` folder."""
    return sorted(p.stem for p in data_dir("maps").glob("*.json"))


@cache
def load_board(board_id: str) -> Board:
    """The shipped board ``board_id`` (e.g. ``antike-east``), loaded once per process."""
    known = known_boards()
    if board_id not in known:
        raise InputError(f"board {board_id!r}",
                         f"unknown board {board_id!r}; known boards: {', '.join(known) or 'none'}")
    path = map_path(board_id)
    board = load_map_file(path)
    if board.id != board_id:
        raise InputError(str(path), [Problem("$.id", f"map id {board.id!r} does not match its file name {board_id!r}")])
    return board
