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

from pbem.errors import Problem
from pbem.kernel.vocab import RESOURCES, TERRAIN, UNITS


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

    def __repr__(self) -> str:
        """Rebuilds the province; border sets are listed sorted so the text is stable."""
        def ids(group: frozenset[str]) -> str:
            return f"frozenset({{{', '.join(map(repr, sorted(group)))}}})" if group else "frozenset()"

        return (f"Province(id={self.id!r}, name={self.name!r}, resource={self.resource!r}, "
                f"kind={self.kind!r}, xy={self.xy!r}, land={ids(self.land)}, sea={ids(self.sea)})")

    @property
    def both(self) -> frozenset[str]:
        """Neighbours across a combined (red and blue) border: both unit types cross it."""
        return self.land & self.sea

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
    """``unit`` itself if it is a unit type; ``ValueError`` otherwise."""
    if unit not in UNITS:
        raise ValueError(f"unknown unit type {unit!r} (expected one of {', '.join(UNITS)})")
    return unit


class Board:
    """One board side, checked and ready for the rules.

    Instances are shared (the game service caches them): treat every attribute as read-only.
    """

    __slots__ = ("id", "name", "edition", "width", "height", "provinces", "nations",
                 "start_lines", "start_nation", "shapes", "notes", "sha256")

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
        self.shapes: dict[str, list[tuple[float, float]]] = {
            pid: [(x, y) for x, y in points] for pid, points in sorted(data.get("shapes", {}).items())
        }
        self.notes: tuple[str, ...] = tuple(data["notes"])
        self.sha256: str = rules_hash(data)

    def _resource_rank(self, pid: str) -> int:
        return RESOURCES.index(self.provinces[pid].resource)

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
    ids, resources, kinds and borders, in canonical JSON (sorted everywhere)."""
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
                }
                for p in data["provinces"]
            ),
            key=lambda p: p["id"],
        ),
    }
    text = json.dumps(core, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def board_problems(data: dict[str, Any]) -> list[Problem]:
    """Every consistency problem of map data that has the right shape (its schema is the
    game service's business), each with the JSON path of the offending value."""
    return _province_problems(data) + _start_problems(data) + _shape_problems(data)


def _province_problems(data: dict[str, Any]) -> list[Problem]:
    found: list[Problem] = []
    provinces: list[dict[str, Any]] = data["provinces"]
    first_at: dict[str, int] = {}
    for i, p in enumerate(provinces):
        if p["id"] in first_at:
            found.append(Problem(f"$.provinces[{i}].id",
                                 f"duplicate province id {p['id']!r} (first at $.provinces[{first_at[p['id']]}])"))
        else:
            first_at[p["id"]] = i
    borders = {p["id"]: {"land": set(p["land"]), "sea": set(p["sea"])} for p in provinces}
    width, height = data["size"]["width"], data["size"]["height"]
    for i, p in enumerate(provinces):
        pid = p["id"]
        for layer in ("land", "sea"):
            for k, other in enumerate(p[layer]):
                where = f"$.provinces[{i}].{layer}[{k}]"
                if other == pid:
                    found.append(Problem(where, f"{pid!r} has a {layer} border with itself"))
                elif other not in borders:
                    found.append(Problem(where, f"{pid!r} has a {layer} border with unknown province {other!r}"))
                elif pid not in borders[other][layer]:
                    found.append(Problem(where, f"{pid!r} lists a {layer} border with {other!r}, "
                                                f"but {other!r} does not list {pid!r}"))
        expected = _kind_of(bool(p["land"]), bool(p["sea"]))
        if expected is None:
            found.append(Problem(f"$.provinces[{i}]", f"{pid!r} has no borders at all"))
        elif expected != p["kind"]:
            found.append(Problem(f"$.provinces[{i}].kind",
                                 f"{pid!r} is {p['kind']!r} but its borders make it {expected!r}"))
        x, y = p["xy"]
        if x >= width or y >= height:
            found.append(Problem(f"$.provinces[{i}].xy",
                                 f"{pid!r} at {x},{y} lies outside the {width}x{height} picture"))
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
            found.append(Problem(where, f"start lines for {count} nations, but $.nations has no {count!r}"))
        elif set(lines) != set(nations[count]):
            found.append(Problem(where, _difference(f"$.nations.{count}", nations[count], lines)))
        owner: dict[str, str] = {}
        for nation, cities in sorted(lines.items()):
            for k, city in enumerate(cities):
                if city not in resource:
                    found.append(Problem(f"{where}.{nation}[{k}]", f"start city {city!r} is not a province"))
                elif city in owner:
                    found.append(Problem(f"{where}.{nation}[{k}]",
                                         f"{city!r} is also a start city of {owner[city]} at {count} nations"))
                else:
                    owner[city] = nation
            kinds = sorted((resource[c] for c in cities if c in resource), key=RESOURCES.index)
            if len(kinds) == len(cities) and kinds != list(RESOURCES):
                found.append(Problem(f"{where}.{nation}",
                                     f"start line of {nation} at {count} nations has {', '.join(kinds)}; "
                                     "it needs one marble, one iron and one gold city"))
    for count in sorted(set(nations) - set(data["start_lines"])):
        found.append(Problem("$.start_lines", f"no start lines for {count} nations"))
    for count, nation in sorted(data["start_nation"].items()):
        if count not in nations:
            found.append(Problem(f"$.start_nation.{count}", f"$.nations has no {count!r}"))
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
        Problem(f"$.shapes.{pid}", f"shape for unknown province {pid!r}")
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
