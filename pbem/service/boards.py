"""Board files: the shipped boards in ``maps/``, a board file anywhere, and the map kit.

A map file is checked twice before it becomes a :class:`~pbem.kernel.board.Board`: its
shape against ``schemas/map.schema.json``, then its consistency
(:func:`pbem.kernel.board.board_problems`) and what its edition allows. Every problem is
reported, so a hand-edited map can be fixed in one pass.

A map file may keep its provinces in a CSV table beside it (``"provinces":
"west.provinces.csv"``), one row per province, which is pleasant to type from a printed
board: each border needs to be typed on one of its two rows only, the province kind follows
from the borders, and outlines are generated from the positions. ``antike-ref map new``
writes such a pair to fill in (:func:`skeleton`). A game on a board that is not shipped
carries the board's data in its own file (:func:`embedded_board`).
"""

from __future__ import annotations

import io
import json
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import InputError, Problem, UsageError, clip
from pbem.kernel.board import Board, board_problems
from pbem.paths import data_dir, map_path
from pbem.service.schemas import problems as schema_problems
from pbem.service.schemas import read_json, read_text

if TYPE_CHECKING:
    import csv  # the annotations only; read_provinces_csv imports it when a table is read

_PROVINCE_PATH = re.compile(r"^\$\.provinces\[(\d+)\](.*)$")

CSV_COLUMNS = ("id", "name", "resource", "x", "y", "land", "sea", "label_x", "label_y", "temple", "double")
"""The columns of a provinces table, in the order ``map new`` writes them."""
_YES = {"yes", "y", "true", "1", "x"}
_NO = {"", "no", "n", "false", "0", "-"}


def _province_at(data: Any, path: str) -> tuple[str, str] | None:
    """The id of the province a problem's ``path`` points into, and the rest of the path
    (``".land[2]"``); ``None`` when it points elsewhere or the province has no usable id."""
    match = _PROVINCE_PATH.match(path)
    if not match:
        return None
    try:
        pid = data["provinces"][int(match.group(1))]["id"]
    except (KeyError, IndexError, TypeError):
        return None
    return (pid, match.group(2)) if isinstance(pid, str) else None


def _name_province(data: Any, problem: Problem) -> Problem:
    """``problem`` with the province's id added when its path points into one, since a
    bare list index is hard to find in a 50-province file."""
    found = _province_at(data, problem.path)
    if found is None:
        return problem
    return Problem(problem.path, f"{problem.message} (province {clip(repr(found[0]))})")


def _edition_problems(data: dict[str, Any]) -> list[Problem]:
    """The board's edition must exist, and have the kinds of sites the board uses."""
    from pbem import editions

    try:
        edition = editions.get(data["edition"])
    except editions.UnknownEdition:
        return [Problem("$.edition", f"unknown edition {clip(repr(data['edition']))}: "
                                     f"one of {', '.join(editions.names())}")]
    allowed = edition.board_features
    found = []
    for i, p in enumerate(data["provinces"]):
        used = ([p["resource"]] if p["resource"] in ("choice", "none") else []) + [
            key for key in ("temple", "double") if p.get(key)]
        for feature in used:
            if feature not in allowed:
                found.append(Problem(f"$.provinces[{i}]", f"{clip(repr(p['id']))}: {edition.name} boards have no "
                                     f"{_FEATURES[feature]} (only the editions that have them do)"))
    for count, nations in sorted(data["nations"].items()):
        for nation in nations:
            if nation not in edition.nations:
                found.append(Problem(f"$.nations.{count}", f"{clip(repr(nation))} is not a nation of {edition.name}: "
                                     f"one of {', '.join(edition.nations)}"))
    return found


_FEATURES = {"choice": "sites whose resource the founder chooses ('choice')",
             "none": "regions without a city site ('none')",
             "temple": "neutral temples at set-up", "double": "regions that count double for navigators"}


def map_problems(data: Any) -> list[Problem]:
    """Every problem of map data: schema violations, or if the shape is right, every
    consistency problem and what the board's edition does not allow, each with the JSON
    path of the offending value."""
    found = schema_problems("map", data)
    if found:
        return [_name_province(data, problem) for problem in found]
    return [_name_province(data, problem) for problem in board_problems(data) + _edition_problems(data)]


# -- map files and provinces tables -----------------------------------------------------


def _flag(text: str) -> bool | None:
    word = text.strip().lower()
    return True if word in _YES else False if word in _NO else None


def province_id(name: str) -> str:
    """The id a province name gets when the table leaves the id empty: lowercase, accents
    dropped, every run of other characters one ``_`` (``Castra Regina`` -> ``castra_regina``)."""
    import unicodedata  # here, not at the top: only map files and their tables need it

    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in plain if not unicodedata.combining(c)).lower()
    text = re.sub(r"[^a-z0-9]+", "_", plain).strip("_")
    return text if text[:1].isalpha() else f"p_{text}"


def read_provinces_csv(text: str, source: str) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The provinces of a CSV table, borders made two-sided and kinds set from them; and the
    line of each province id. Problems of single cells raise :class:`InputError` naming
    every one (file, line and column)."""
    import csv  # here, not at the top: only map files with a provinces table need it

    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    try:
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
        return _read_rows(reader, header, source)
    except csv.Error as exc:
        raise InputError(source, [Problem(f"line {reader.line_num}", f"cannot be read as CSV: {exc}")]) from None


def _read_rows(reader: csv.DictReader, header: list[str], source: str) -> tuple[list[dict[str, Any]], dict[str, int]]:
    problems = []
    missing = [c for c in ("name", "resource", "x", "y", "land", "sea") if c not in header]
    unknown = [h for h in header if h and h not in CSV_COLUMNS]
    if missing or unknown:
        parts = ([f"missing column(s) {', '.join(missing)}"] if missing else []) + (
            [f"unknown column(s) {clip(', '.join(unknown))}"] if unknown else [])
        raise InputError(source, [Problem("line 1", f"{'; '.join(parts)}; the columns are {', '.join(CSV_COLUMNS)}")])
    rows = []
    for raw in reader:
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items() if k is not None}
        if not any(row.values()):
            continue
        line = reader.line_num
        where = f"line {line}"
        name = row.get("name", "")
        pid = row.get("id") or (province_id(name) if name else "")
        if not name:
            problems.append(Problem(where, "the name is empty"))
        province: dict[str, Any] = {"id": pid, "name": name, "resource": row.get("resource", "").lower()}
        for key in ("x", "y"):
            try:
                province[key] = int(row.get(key, ""))
            except ValueError:
                problems.append(Problem(f"{where}, column {key}",
                                        f"{clip(repr(row.get(key, '')))} is not a whole number of pixels"))
        if row.get("label_x") or row.get("label_y"):
            try:
                province["label"] = [int(row.get("label_x", "")), int(row.get("label_y", ""))]
            except ValueError:
                problems.append(Problem(f"{where}, columns label_x/label_y", "give both as whole numbers, or neither"))
        for key in ("temple", "double"):
            value = _flag(row.get(key, ""))
            if value is None:
                problems.append(Problem(f"{where}, column {key}",
                                        f"{clip(repr(row.get(key)))}: write yes or leave it empty"))
            elif value:
                province[key] = True
        province["_land"] = [t.strip() for t in row.get("land", "").split(";") if t.strip()]
        province["_sea"] = [t.strip() for t in row.get("sea", "").split(";") if t.strip()]
        rows.append((line, province))
    if problems:
        raise InputError(source, problems)
    return _link(rows)


def _link(rows: list[tuple[int, dict[str, Any]]]) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Borders named by id or display name, each typed on one of its two rows, made into the
    map format's two-sided lists; kinds from the borders."""
    by_name: dict[str, str] = {}
    for _, p in rows:
        by_name.setdefault(_fold(p["name"]), p["id"])
    ids = {p["id"] for _, p in rows}

    def resolve(token: str) -> str:
        if token in ids:
            return token
        return by_name.get(_fold(token)) or province_id(token)

    borders: dict[str, dict[str, set[str]]] = {p["id"]: {"land": set(), "sea": set()} for _, p in rows}
    for _, p in rows:
        for layer in ("land", "sea"):
            for token in p.pop(f"_{layer}"):
                other = resolve(token)
                borders[p["id"]][layer].add(other)
                if other in borders and other != p["id"]:
                    borders[other][layer].add(p["id"])
    provinces = []
    lines: dict[str, int] = {}
    for line, p in rows:
        land, sea = sorted(borders[p["id"]]["land"]), sorted(borders[p["id"]]["sea"])
        kind = "coastal" if land and sea else "land_only" if land else "sea_only"
        out = {"id": p["id"], "name": p["name"], "resource": p["resource"], "kind": kind,
               "xy": [p.get("x", 0), p.get("y", 0)], "land": land, "sea": sea}
        out.update({k: p[k] for k in ("label", "temple", "double") if k in p})
        provinces.append(out)
        lines.setdefault(p["id"], line)
    return provinces, lines


def _fold(text: str) -> str:
    import unicodedata

    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain.lower() if c.isalnum() and not unicodedata.combining(c))


def read_map(path: str | Path) -> tuple[Any, str | None, dict[str, int]]:
    """The map data in the file at ``path``, with a provinces table read in; the table's
    file name (or ``None``) and the line of each province in it."""
    path = Path(path)
    data = read_json(path)
    if not (isinstance(data, dict) and isinstance(data.get("provinces"), str)):
        return data, None, {}
    name = data["provinces"]
    table = path.parent / name
    if Path(name).name != name or not name.endswith(".csv"):
        raise InputError(str(path), [Problem("$.provinces", f"{name!r}: name a .csv file in the same folder")])
    provinces, lines = read_provinces_csv(read_text(table), str(table))
    return {**data, "provinces": provinces}, str(table), lines


def _in_table(problem: Problem, table: str, data: dict[str, Any], lines: dict[str, int]) -> Problem:
    """A problem of a province read from a table, placed at its row."""
    found = _province_at(data, problem.path)
    if found is None:
        return problem
    pid, rest = found[0], found[1].lstrip(".")
    column = re.sub(r"\[\d+\]$", "", rest) or None
    where = f"{table} line {lines.get(pid, '?')}" + (f", column {column}" if column and column != "kind" else "")
    message = problem.message.replace(f" (province {clip(repr(pid))})", "")
    return Problem(where, message)


def check_map_file(path: str | Path) -> list[Problem]:
    """Every problem of the map file at ``path`` (unreadable, not JSON, its provinces
    table, shape, consistency, edition). For ``antike-ref map check FILE``: an empty list
    means the file is a usable board."""
    return _read_checked(path)[1]


def load_map_file(path: str | Path) -> Board:
    """The board in the map file at ``path``; :class:`InputError` listing every problem."""
    data, found = _read_checked(path)
    if found:
        raise InputError(str(path), found)
    return Board(data)


def _read_checked(path: str | Path) -> tuple[Any, list[Problem]]:
    """The map data at ``path`` and every problem of it, a table's problems at its rows."""
    try:
        data, table, lines = read_map(path)
    except InputError as exc:
        if exc.source == str(path):
            return None, list(exc.problems)
        return None, [Problem(exc.source if p.path == "$" else f"{exc.source} {p.path}", p.message)
                      for p in exc.problems]
    found = map_problems(data)
    if table:
        found = [_in_table(p, table, data, lines) for p in found]
    return data, found


def known_boards() -> list[str]:
    """Ids of the boards shipped in the ``maps`` folder (listed once per process)."""
    return list(_shipped_ids())


@cache
def _shipped_ids() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in data_dir("maps").glob("*.json")))


@cache
def load_board(board_id: str) -> Board:
    """The shipped board ``board_id`` (e.g. ``antike-east``), loaded once per process."""
    known = known_boards()
    if board_id not in known:
        raise InputError(f"board {board_id!r}",
                         f"unknown board {board_id!r}; known boards: {', '.join(known) or 'none'}")
    path = map_path(board_id)
    # A shipped board is checked whole by the tests (tests/service/test_map_kit.py) and by
    # `antike-ref map check`; re-checking it against the map schema on every run cost
    # about 60 ms of each command, so here it is only read.
    data = read_json(path)
    board = Board(data)
    if board.id != board_id:
        raise InputError(str(path), [Problem("$.id", f"map id {board.id!r} does not match its file name {board_id!r}")])
    board.shipped = True
    return board


def board_for_new(given: str) -> Board:
    """``new --board``: a shipped board's id, or the path of a map file. A map file may not
    take a shipped board's id unless it is that board (the game could not tell them apart)."""
    known = known_boards()
    if given in known:
        return load_board(given)
    path = Path(given)
    if path.suffix != ".json" and not path.exists():
        raise UsageError(f"--board {given}: neither a shipped board ({', '.join(known)}) nor a map file")
    board = load_map_file(path)
    if board.id in known:
        shipped = load_board(board.id)
        if shipped.data == board.data:
            return shipped
        raise UsageError(f"--board {given}: its id {board.id!r} is a shipped board's; give your board an id of its own")
    return board


_embedded: dict[str, Board] = {}


def embedded_board(pinned: dict[str, Any], source: str) -> Board:
    """The board a game file carries (``$.board.map``), checked like a map file; the same
    data is checked once per process."""
    data = pinned["map"]
    key = json.dumps(data, sort_keys=True, ensure_ascii=False)
    board = _embedded.get(key)
    if board is None:
        found = map_problems(data)
        if found:
            raise InputError(source, [Problem("$.board.map" + p.path[1:], p.message) for p in found])
        board = Board(data)
        if board.id != pinned["id"]:
            raise InputError(source, [Problem("$.board.id",
                                              f"{pinned['id']!r}, but the board in the file is {board.id!r}")])
        _embedded[key] = board
    return board


# -- the map kit ------------------------------------------------------------------------


BLANK = {
    "$schema": "https://antike-ref.invalid/schemas/map.schema.json",
    "format": 1,
    "edition": "antike",
    "size": {"width": 1400, "height": 900},
    "nations": {"3": ["greeks", "romans", "germans"]},
    "start_lines": {"3": {"greeks": [], "romans": [], "germans": []}},
    "start_nation": {},
    "pairings": {},
}


def skeleton(template: str, board_id: str, table_name: str) -> tuple[dict[str, Any], str]:
    """A map file and its provinces table to fill in for ``map new``: from a shipped board
    (its header, and its provinces with each border on one row), or blank."""
    if template == "blank":
        data = {**json.loads(json.dumps(BLANK)), "name": f"{board_id} (typed in from the printed board)"}
        rows: list[dict[str, Any]] = []
    else:
        source = load_board(_template_board(template))
        data = {k: v for k, v in json.loads(json.dumps(source.data)).items() if k not in ("shapes", "provinces")}
        data["name"] = f"{source.name} (typed in from the printed board)"
        rows = sorted(source.data["provinces"], key=lambda p: p["id"])
    data.update({"id": board_id, "provinces": table_name, "reconstruction": True,
                 "notes": ["Typed in from the printed board with antike-ref map new. Set reconstruction to "
                           "false once every province, border and start line has been checked against it."]})
    import csv

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    done: set[frozenset[str]] = set()
    for p in rows:
        cells = {"id": p["id"], "name": p["name"], "resource": p["resource"], "x": p["xy"][0], "y": p["xy"][1]}
        for layer in ("land", "sea"):
            mine = [q for q in sorted(p[layer]) if frozenset((layer, p["id"], q)) not in done]
            done.update(frozenset((layer, p["id"], q)) for q in mine)
            cells[layer] = ";".join(mine)
        if "label" in p:
            cells["label_x"], cells["label_y"] = p["label"]
        for key in ("temple", "double"):
            cells[key] = "yes" if p.get(key) else ""
        writer.writerow([cells.get(c, "") for c in CSV_COLUMNS])
    return data, out.getvalue()


def templates() -> list[str]:
    """What ``map new --template`` accepts: ``blank``, each shipped board, and the sides'
    short names (``east``, ``west``)."""
    short = sorted({b.split("-", 1)[1] for b in known_boards() if "-" in b})
    return ["blank", *short, *known_boards()]


def _template_board(template: str) -> str:
    if template in known_boards():
        return template
    matches = [b for b in known_boards() if b.endswith(f"-{template}")]
    if len(matches) != 1:
        raise UsageError(f"--template {template}: one of {', '.join(templates())}")
    return matches[0]
