"""Board graphs: provinces, their resources and borders, start lines, drawing data.

Map data becomes a :class:`Board` only after two checks: its shape against its schema
(done where map files are read, :mod:`pbem.service.boards`), then its consistency
(:func:`board_problems`): symmetric borders, kinds that match the borders, start lines of
one marble, one iron and one gold city. Every problem is reported, so a hand-edited map
can be fixed in one pass. Nothing here reads a file.

The rules care only about provinces, resources, kinds and borders; :attr:`Board.sha256`
hashes exactly that, so a game file can pin its board while coordinates, names and shapes
are still being improved.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.errors import Problem, clip
from pbem.kernel.vocab import RESOURCES, TERRAIN


@dataclass(frozen=True, slots=True)
class Province:
    """One province: its city's resource, which borders it has, and where it is drawn."""

    id: str
    name: str
    resource: str
    kind: str
    xy: tuple[int, int]
    land: frozenset[str]
    sea: frozenset[str]
    label: tuple[int, int] | None = None
    temple: bool = False
    double: bool = False

    def __repr__(self) -> str:
        """Rebuilds the province; border sets are listed sorted so the text is stable."""
        def ids(group: frozenset[str]) -> str:
            return f"frozenset({{{', '.join(map(repr, sorted(group)))}}})" if group else "frozenset()"

        extra = "".join(f", {key}={value!r}" for key, value in
                        (("label", self.label), ("temple", self.temple), ("double", self.double)) if value)
        return (f"Province(id={self.id!r}, name={self.name!r}, resource={self.resource!r}, "
                f"kind={self.kind!r}, xy={self.xy!r}, land={ids(self.land)}, sea={ids(self.sea)}{extra})")

    @property
    def both(self) -> frozenset[str]:
        """Neighbours across a combined (red and blue) border: both unit types cross it."""
        return self.land & self.sea

    @property
    def site(self) -> str:
        """What a city here may be: ``"fixed"`` (its resource is printed), ``"choice"`` (the
        founder picks the resource) or ``"none"`` (no city site, e.g. a sea region)."""
        return self.resource if self.resource in ("choice", "none") else "fixed"

    @property
    def land_only(self) -> bool:
        """Only red borders: galleys can never be here (rulebook 000 L426-428)."""
        return self.kind == "land_only"

    @property
    def sea_only(self) -> bool:
        """Only blue borders (island or sea city): legions can never be here."""
        return self.kind == "sea_only"

    @property
    def coastal(self) -> bool:
        """Both red and blue borders."""
        return self.kind == "coastal"

    def neighbours(self, unit: str) -> frozenset[str]:
        """The provinces ``unit`` can reach in one step: legions cross land, galleys sea."""
        return self.land if TERRAIN[_unit(unit)] == "land" else self.sea


def _unit(unit: str) -> str:
    """``unit`` if it is a unit type of :data:`~pbem.kernel.vocab.TERRAIN` (a unit of an
    edition's own is asked as the type it moves as, :meth:`Edition.moves_as
    <pbem.kernel.edition.Edition.moves_as>`); ``ValueError`` if it is none."""
    if unit not in TERRAIN:
        raise ValueError(f"unknown unit type {unit!r} (expected one of {', '.join(TERRAIN)})")
    return unit


class Board:
    """One board side, checked and ready for the rules.

    Instances are shared (the game service caches them): treat every attribute as read-only.
    """

    __slots__ = ("id", "name", "edition", "width", "height", "provinces", "nations",
                 "start_lines", "start_nation", "pairings", "reconstruction", "notes", "sha256",
                 "data", "shipped", "_shapes")

    def __init__(self, data: dict[str, Any]):
        """Build from map data in which no problem was found (schema and :func:`board_problems`)."""
        self.id: str = data["id"]
        self.name: str = data["name"]
        self.edition: str = data["edition"]
        self.width: int = data["size"]["width"]
        self.height: int = data["size"]["height"]
        self.provinces: dict[str, Province] = {
            p["id"]: Province(
                id=p["id"],
                name=p["name"],
                resource=p["resource"],
                kind=p["kind"],
                xy=(p["xy"][0], p["xy"][1]),
                land=frozenset(p["land"]),
                sea=frozenset(p["sea"]),
                label=(p["label"][0], p["label"][1]) if "label" in p else None,
                temple=bool(p.get("temple", False)),
                double=bool(p.get("double", False)),
            )
            for p in sorted(data["provinces"], key=lambda p: p["id"])
        }
        self.nations: dict[int, tuple[str, ...]] = {
            int(count): tuple(nations) for count, nations in sorted(data["nations"].items())
        }
        self.start_lines: dict[int, dict[str, tuple[str, ...]]] = {
            int(count): {
                nation: tuple(sorted(cities, key=self._resource_rank))
                for nation, cities in sorted(lines.items())
            }
            for count, lines in sorted(data["start_lines"].items())
        }
        self.start_nation: dict[int, str] = {
            int(count): nation for count, nation in sorted(data["start_nation"].items())
        }
        self.pairings: dict[int, tuple[tuple[str, ...], ...]] = {
            int(count): tuple(tuple(team) for team in teams)
            for count, teams in sorted(data.get("pairings", {}).items())
        }
        self.reconstruction: bool = bool(data.get("reconstruction", False))
        self.notes: tuple[str, ...] = tuple(data["notes"])
        self.sha256: str = rules_hash(data)
        self.data: dict[str, Any] = data
        """The map data this board was built from (embedded in games on a board file)."""
        self._shapes: dict[str, list[tuple[float, float]]] | None = None
        self.shipped: bool = False
        """Whether this is a board shipped in ``maps/`` (set by whoever loads it); a game on
        any other board carries the board's data in its file."""

    @property
    def shapes(self) -> dict[str, list[tuple[float, float]]]:
        """Each province's outline: the map's ``shapes`` where given, the others generated
        from the city positions (:func:`pbem.kernel.geometry.outlines`) on first use, since
        only drawing needs them."""
        if self._shapes is None:
            given = {pid: [(x, y) for x, y in points]
                     for pid, points in sorted(self.data.get("shapes", {}).items())}
            if len(given) < len(self.provinces):
                from pbem.kernel.geometry import outlines

                made = outlines({pid: p.xy for pid, p in self.provinces.items()}, self.width, self.height,
                                {pid: p.sea_only for pid, p in self.provinces.items()},
                                {pid: p.land for pid, p in self.provinces.items()})
                given = {pid: given.get(pid) or made[pid] for pid in sorted(self.provinces)}
            self._shapes = given
        return self._shapes

    def _resource_rank(self, pid: str) -> int:
        resource = self.provinces[pid].resource
        return RESOURCES.index(resource) if resource in RESOURCES else len(RESOURCES)

    def __repr__(self) -> str:
        return f"<Board {self.id}: {len(self.provinces)} provinces, sha256 {self.sha256[:12]}>"

    def province(self, pid: str) -> Province:
        """The province ``pid``; ``KeyError`` naming the board if there is none."""
        try:
            return self.provinces[pid]
        except KeyError:
            raise KeyError(f"no province {pid!r} on board {self.id!r}") from None

    def is_province(self, pid: str) -> bool:
        return pid in self.provinces

    def hint(self, name: str) -> str:
        """For a name that is no province: ``" (did you mean Athen (athen)?)"`` naming the
        closest provinces by spelling, or ``""`` when none is close."""
        return did_you_mean(name, {pid: p.name for pid, p in self.provinces.items()})

    def can_arm(self, pid: str, unit: str) -> bool:
        """Whether ``unit`` may be set up in ``pid`` as far as the board goes.

        Only galleys in provinces with only blue borders, only legions in provinces with
        only red borders (rulebook 000 L426-428); coastal provinces take both. Who owns
        the city is the rules' business (the kernel's actions).
        """
        province = self.province(pid)
        if TERRAIN[_unit(unit)] == "land":
            return not province.sea_only
        return not province.land_only

    def path_ok(self, unit: str, start: str, path: Sequence[str]) -> int | None:
        """Index into ``path`` of the first step ``unit`` cannot take, or ``None``.

        ``path`` lists the provinces entered one by one after ``start``. A step is legal
        when it crosses a border of the unit's type (combined borders serve both). Only
        the graph is checked here; stops forced by rival units are the maneuver's business.
        An unknown ``start`` makes the first step illegal.
        """
        _unit(unit)
        here = self.provinces.get(start)
        for index, pid in enumerate(path):
            if here is None or pid not in here.neighbours(unit):
                return index
            here = self.provinces[pid]
        return None


def rules_hash(data: dict[str, Any]) -> str:
    """SHA-256 of the rules-relevant part of map data: board id and the provinces'
    ids, resources (or site kinds), kinds, borders, neutral temples and double-counting
    regions, in canonical JSON (sorted everywhere)."""
    core = {
        "id": data["id"],
        "provinces": sorted(
            (
                {
                    "id": p["id"],
                    "resource": p["resource"],
                    "kind": p["kind"],
                    "land": sorted(p["land"]),
                    "sea": sorted(p["sea"]),
                    # Rules data added after the first boards: hashed only where set, so
                    # the hash of a board without them (and every game on it) is unchanged.
                    **{key: True for key in ("temple", "double") if p.get(key)},
                }
                for p in data["provinces"]
            ),
            key=lambda p: p["id"],
        ),
    }
    text = json.dumps(core, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _q(value) -> str:
    """A value from the board file as a message quotes it (a long one clipped)."""
    return repr(clip(value)) if isinstance(value, str) else repr(value)


def board_problems(data: dict[str, Any]) -> list[Problem]:
    """Every consistency problem of map data that has the right shape (its schema is the
    game service's business), each with the JSON path of the offending value."""
    return (_province_problems(data) + _reach_problems(data) + _start_problems(data)
            + _pairing_problems(data) + _shape_problems(data))


def _reach_problems(data: dict[str, Any]) -> list[Problem]:
    """Every province must be reachable from every other over land and sea borders: a
    board in pieces is a typing slip (a missing border), never a printed board."""
    provinces = data["provinces"]
    ids = [p["id"] for p in provinces]
    known = set(ids)
    step = {p["id"]: {q for q in (*p["land"], *p["sea"]) if q in known} for p in provinces}
    for p in provinces:  # a one-sided border still joins the pieces (reported elsewhere)
        for q in step[p["id"]]:
            step[q].add(p["id"])
    pieces: list[list[str]] = []
    seen: set[str] = set()
    for start in ids:
        if start in seen:
            continue
        piece, todo = [], [start]
        seen.add(start)
        while todo:
            here = todo.pop()
            piece.append(here)
            for nxt in sorted(step[here] - seen):
                seen.add(nxt)
                todo.append(nxt)
        pieces.append(sorted(piece))
    if len(pieces) < 2:
        return []
    pieces.sort(key=lambda piece: (-len(piece), piece))
    main = pieces[0]
    index = {pid: i for i, pid in enumerate(ids)}
    found = []
    for piece in pieces[1:]:
        if len(piece) == 1 and not step[piece[0]]:
            continue  # a province without borders is reported on its own
        found.append(Problem(f"$.provinces[{index[piece[0]]}]",
                             f"{', '.join(map(repr, piece))} cannot be reached from the rest of the board "
                             f"({len(main)} provinces around {_q(main[0])}): a border is missing"))
    return found


def _pairing_problems(data: dict[str, Any]) -> list[Problem]:
    """The two-player teams: two nations each, together the nations in play at that count."""
    found = []
    nations: dict[str, list[str]] = data["nations"]
    for count, teams in sorted(data.get("pairings", {}).items()):
        where = f"$.pairings.{count}"
        if count not in nations:
            found.append(Problem(where, f"teams for {count} nations, but $.nations has no {_q(count)}"))
            continue
        named = [n for team in teams for n in team]
        twice = sorted({n for n in named if named.count(n) > 1})
        if twice:
            found.append(Problem(where, f"{', '.join(twice)} in both teams"))
        elif set(named) != set(nations[count]):
            found.append(Problem(where, f"the teams ({' against '.join('+'.join(t) for t in teams)}) "
                                        f"are not the {count} nations in play ({', '.join(nations[count])})"))
    return found


def _province_problems(data: dict[str, Any]) -> list[Problem]:
    found: list[Problem] = []
    provinces: list[dict[str, Any]] = data["provinces"]
    first_at: dict[str, int] = {}
    for i, p in enumerate(provinces):
        if p["id"] in first_at:
            found.append(Problem(f"$.provinces[{i}].id",
                                 f"duplicate province id {_q(p['id'])} (first at $.provinces[{first_at[p['id']]}])"))
        else:
            first_at[p["id"]] = i
    borders = {p["id"]: {"land": set(p["land"]), "sea": set(p["sea"])} for p in provinces}
    width, height = data["size"]["width"], data["size"]["height"]
    names = {p["id"]: p["name"] for p in provinces}
    for i, p in enumerate(provinces):
        pid = p["id"]
        for layer in ("land", "sea"):
            for k, other in enumerate(p[layer]):
                where = f"$.provinces[{i}].{layer}[{k}]"
                if other == pid:
                    found.append(Problem(where, f"{_q(pid)} has a {layer} border with itself"))
                elif other not in borders:
                    found.append(Problem(where, f"{_q(pid)} has a {layer} border with unknown province {_q(other)}"
                                                f"{did_you_mean(other, names)}"))
                elif pid not in borders[other][layer]:
                    found.append(Problem(where, f"{_q(pid)} lists a {layer} border with {_q(other)}, "
                                                f"but {_q(other)} does not list {_q(pid)}"))
        expected = _kind_of(bool(p["land"]), bool(p["sea"]))
        if expected is None:
            found.append(Problem(f"$.provinces[{i}]", f"{_q(pid)} has no borders at all"))
        elif expected != p["kind"]:
            found.append(Problem(f"$.provinces[{i}].kind",
                                 f"{_q(pid)} is {_q(p['kind'])} but its borders make it {_q(expected)}"))
        for key in ("xy", "label"):
            if key not in p:
                continue
            x, y = p[key]
            if x >= width or y >= height:
                found.append(Problem(f"$.provinces[{i}].{key}",
                                     f"{_q(pid)} {'label ' if key == 'label' else ''}at {x},{y} lies outside "
                                     f"the {width}x{height} picture"))
    return found


def _kind_of(has_land: bool, has_sea: bool) -> str | None:
    """The kind that a province's borders imply (``None`` for an isolated province)."""
    if has_land and has_sea:
        return "coastal"
    if has_land:
        return "land_only"
    if has_sea:
        return "sea_only"
    return None


def _start_problems(data: dict[str, Any]) -> list[Problem]:
    found: list[Problem] = []
    resource = {p["id"]: p["resource"] for p in data["provinces"]}
    nations: dict[str, list[str]] = data["nations"]
    for count, in_play in sorted(nations.items()):
        if len(in_play) != int(count):
            found.append(Problem(f"$.nations.{count}", f"{len(in_play)} nations listed for {count} nations"))
    for count, lines in sorted(data["start_lines"].items()):
        where = f"$.start_lines.{count}"
        if count not in nations:
            found.append(Problem(where, f"start lines for {count} nations, but $.nations has no {_q(count)}"))
        elif set(lines) != set(nations[count]):
            found.append(Problem(where, _difference(f"$.nations.{count}", nations[count], lines)))
        owner: dict[str, str] = {}
        for nation, cities in sorted(lines.items()):
            for k, city in enumerate(cities):
                if city not in resource:
                    found.append(Problem(f"{where}.{nation}[{k}]", f"start city {_q(city)} is not a province"))
                elif resource[city] in ("choice", "none"):
                    found.append(Problem(f"{where}.{nation}[{k}]",
                                         f"start city {_q(city)} has no printed resource ({resource[city]})"))
                elif city in owner:
                    found.append(Problem(f"{where}.{nation}[{k}]",
                                         f"{_q(city)} is also a start city of {owner[city]} at {count} nations"))
                else:
                    owner[city] = nation
            kinds = sorted((resource[c] for c in cities if resource.get(c) in RESOURCES), key=RESOURCES.index)
            if len(kinds) == len(cities) and kinds != list(RESOURCES):
                found.append(Problem(f"{where}.{nation}",
                                     f"start line of {nation} at {count} nations has {', '.join(kinds)}; "
                                     "it needs one marble, one iron and one gold city"))
    for count in sorted(set(nations) - set(data["start_lines"])):
        found.append(Problem("$.start_lines", f"no start lines for {count} nations"))
    for count, nation in sorted(data["start_nation"].items()):
        if count not in nations:
            found.append(Problem(f"$.start_nation.{count}", f"$.nations has no {_q(count)}"))
        elif nation not in nations[count]:
            found.append(Problem(f"$.start_nation.{count}", f"{nation} does not play at {count} nations"))
    return found


def _difference(name: str, expected: Iterable[str], actual: Iterable[str]) -> str:
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    parts = []
    if missing:
        parts.append(f"no start line for {', '.join(missing)}")
    if extra:
        parts.append(f"start lines for {', '.join(extra)}, not in play")
    return f"nations differ from {name}: {'; '.join(parts)}"


def _shape_problems(data: dict[str, Any]) -> list[Problem]:
    ids = {p["id"] for p in data["provinces"]}
    return [
        Problem(f"$.shapes.{pid}", f"shape for unknown province {_q(pid)}")
        for pid in sorted(data.get("shapes", {}))
        if pid not in ids
    ]


def _folded(text: str) -> str:
    """Lowercase, accents stripped, ``_``/``-``/spaces dropped: how names are compared."""
    import unicodedata

    text = unicodedata.normalize("NFKD", str(text))
    return "".join(c for c in text.lower() if c.isalnum() and not unicodedata.combining(c))


def did_you_mean(name: str, names: dict[str, str]) -> str:
    """``" (did you mean X (x) or Y (y)?)"`` for the up to three ``names`` (id -> display
    name) spelled most like ``name``; ``""`` if none is close."""
    import difflib

    key = _folded(name)
    scores = {}
    for ident, display in names.items():
        scores[ident] = max(difflib.SequenceMatcher(None, key, _folded(ident)).ratio(),
                            difflib.SequenceMatcher(None, key, _folded(display)).ratio())
    best = max(scores.values(), default=0.0)
    close = [i for i in sorted(scores, key=lambda i: (-scores[i], i)) if scores[i] >= max(0.6, best - 0.1)][:3]
    if not close:
        return ""
    return f" (did you mean {' or '.join(f'{names[i]} ({i})' for i in close)}?)"
