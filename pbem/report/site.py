"""A static website for a game: an index page and one page per history entry.

``build_site(game, folder)`` writes

- ``index.html``: the current board, the standings, whose turn it is (and the deadline,
  for a game run by mail), and every history entry (newest first), each linking to its
  page;
- ``entry-NNN.html``: the report of history entry NNN (the board, what happened, the
  tables), built from the same view model as the other report formats
  (:mod:`pbem.report.model`), through the Jinja2 templates in ``templates/site/``;
- ``board-NNN-HASH.svg``: the board of entry NNN, as :meth:`Report.render` draws it;
- ``GAME-turn-NNN.png`` (``GAME-entry-NNN.png`` for an entry that is not a turn): the same
  board as a picture, under the name ``render``, ``process --report-dir`` and ``post`` give
  it, so a forum post made with ``post --image-base URL-OF-THIS-FOLDER`` shows the site's
  own picture;
- ``style.css`` and ``favicon.svg``.

The website is public: in an edition with secrets every page is the
public report (:mod:`pbem.report.visibility`), which names no card a nation drew or holds.

Everything is local (no font, script, image or stylesheet from elsewhere), the same
game file gives the same bytes (no clock), and no player's e-mail address is written:
the model is scrubbed of addresses before anything is rendered from it, the board
included.

Speed: the history is replayed once, entry after entry (a past entry's game is not
rebuilt from the start each time). A board image is named by its entry and that entry's
hash, so its content never changes; it is rendered only when the file is missing (SVG is
what the pages show: about 10 ms to draw). The picture of an entry is drawn once too (a
few hundred ms); its name does not say its entry's hash, so the manifest records the hash
each picture was drawn for, and an ``undo`` that gives a name to another entry has it
drawn again. Pages are rendered every time (a few ms each) and written only when their
bytes changed.

Re-running into the same folder updates it. The names of the files written are kept in
``.antike-ref-site.json``; a file listed there that the game no longer needs (after an
``undo``) is removed, and no other file is ever touched.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pbem.errors import CannotWrite
from pbem.paths import data_dir
from pbem.report import Report, make_folder, report_name
from pbem.report.model import build_model, deadline_sentence
from pbem.service import store
from pbem.service.clock import Deadline
from pbem.service.game import Game
from pbem.service.turns import TURN_KINDS

MANIFEST = ".antike-ref-site.json"
"""The list of files this module wrote into the folder (and so may replace or remove)."""

STATIC = ("style.css", "favicon.svg")
"""Files copied unchanged from ``templates/site/``."""

HIDDEN = "(address hidden)"

_BRACKETED = re.compile(r"\s*<[^<>\s]*@[^<>\s]*>")
_ADDRESS = re.compile(r"[^\s<>()\[\]{},;:\"']+@[^\s<>()\[\]{},;:\"']+")
_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
_SAFE_NAME = re.compile(r"(index|entry-\d{3,}|board-\d{3,}-[0-9a-f]{1,16})\.(html|svg)|style\.css|favicon\.svg"
                        r"|[A-Za-z0-9_][A-Za-z0-9_.-]*-(turn|entry)-\d{3,}\.png")


@dataclass
class SiteResult:
    """What :func:`build_site` did."""

    folder: Path
    entries: int
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    boards_rendered: int = 0
    pictures_drawn: int = 0

    @property
    def index(self) -> Path:
        return self.folder / "index.html"


# -- the games after each entry -----------------------------------------------------------


def games_after_each_entry(game: Game) -> Iterator[Game]:
    """The game right after history entry 0, 1, ..., in order, replayed once through the
    rules; each replayed entry is checked against the file's (as ``render`` does). The
    last one is ``game`` itself."""
    from pbem.service.replay import replayed

    last = len(game.history) - 1
    if last:
        yield from replayed(game, last - 1)
    yield game


# -- addresses ----------------------------------------------------------------------------


def known_addresses(game: Game) -> list[str]:
    """Every e-mail address the game file knows: today's players' and every earlier one's
    (recorded with a player change), longest first."""
    found = {m.email for m in game.meta.values() if m.email}
    for entry in game.history:
        for who in (entry.get("identities") or {}).values():
            if not isinstance(who, dict):
                continue
            for rec in (who, who.get("was")):
                if isinstance(rec, dict) and isinstance(rec.get("email"), str) and rec["email"]:
                    found.add(rec["email"])
    return sorted(found, key=lambda a: (-len(a), a))


def scrub_text(text: str, addresses: list[str]) -> str:
    """``text`` without e-mail addresses: the game's own (any case), ``Name <addr>``
    brackets, and anything else that looks like an address."""
    if "@" not in text:
        return text
    for address in addresses:
        text = re.sub(re.escape(address), HIDDEN, text, flags=re.IGNORECASE)
    text = _BRACKETED.sub("", text)
    text = text.replace(f"<{HIDDEN}>", "").replace(f" {HIDDEN}>", "")
    return _ADDRESS.sub(HIDDEN, text).strip() if "@" in text else text


def scrub(value: Any, addresses: list[str]) -> Any:
    """A copy of the view model with every string scrubbed (:func:`scrub_text`); the
    nations' ``email`` is emptied and their ``contact`` is the player's name."""
    if isinstance(value, str):
        return scrub_text(value, addresses)
    if isinstance(value, list):
        return [scrub(v, addresses) for v in value]
    if isinstance(value, tuple):
        return tuple(scrub(v, addresses) for v in value)
    if isinstance(value, dict):
        out = {k: scrub(v, addresses) for k, v in value.items()}
        if "email" in out and "contact" in out:
            out["email"] = ""
            out["contact"] = out.get("player") or ""
        return out
    return value


def _scrub_facts(model: dict[str, Any]) -> None:
    """The "Player" line of a nation's holdings names only the player."""
    for n in model.get("nations", []):
        for fact in n.get("facts", []):
            if fact.get("label") == "Player":
                fact["value"] = n.get("player") or "—"


# -- one entry ----------------------------------------------------------------------------


def _number(at: Game, index: int) -> tuple[int, int | None]:
    """The turn number and own entry number of the report for entry ``index`` (as
    :func:`pbem.report.prepare` gives them)."""
    last = at.history[-1]
    kind = last.get("kind")
    own = None if kind in TURN_KINDS or kind == "new" else index
    number = last["turn"] if kind in TURN_KINDS else (0 if kind == "new" else at.state.status.turn - 1)
    return number, own


def board_name(index: int, entry: dict[str, Any]) -> str:
    """``board-NNN-HASH.svg``: named by the entry and its hash, so it never changes."""
    digest = re.sub(r"[^0-9a-f]", "", str(entry.get("hash", "")).lower().rpartition(":")[2])[:12] or "0"
    return f"board-{index:03d}-{digest}.svg"


def page_name(index: int) -> str:
    return f"entry-{index:03d}.html"


def _svg_size(svg: bytes) -> tuple[int, int]:
    head = svg[:2000].decode("utf-8", "replace")
    m = re.search(r'viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"', head)
    if m:
        return round(float(m.group(1))), round(float(m.group(2)))
    w = re.search(r'\swidth="([\d.]+)', head)
    h = re.search(r'\sheight="([\d.]+)', head)
    return (round(float(w.group(1))) if w else 1152, round(float(h.group(1))) if h else 864)


def _colour(value: Any) -> str:
    """A colour safe to put in a style attribute (#rrggbb), grey otherwise."""
    return value if isinstance(value, str) and _COLOUR.fullmatch(value) else "#888888"


def _summary(model: dict[str, Any]) -> dict[str, str]:
    """The entry's own block of the log: its title and first line, for the lists."""
    block = model["log"][-1] if model.get("log") else {"title": model.get("title", ""), "lines": []}
    lines = [line for line in block.get("lines", []) if not line.startswith("Round ")] or block.get("lines", [])
    return {"title": block.get("title", ""), "line": lines[0] if lines else ""}


# -- rendering -----------------------------------------------------------------------------


@cache
def _environment():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates") / "site")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.filters["colour"] = _colour
    return env


def render_page(template: str, **context: Any) -> bytes:
    return _environment().get_template(template).render(**context).encode("utf-8")


def _write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` atomically unless the file already holds exactly that;
    True if written."""
    try:
        if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    store.write_in(path.parent, path.name, data, 0o644, durable=False)  # replaced whole, a planted link too
    return True


def _read_manifest(folder: Path) -> tuple[list[str], dict[str, str]]:
    """The files the folder's manifest lists, and for each picture the hash of the entry
    it was drawn for."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        files = data.get("files", []) if isinstance(data, dict) else []
        pictures = data.get("pictures", {}) if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return [], {}
    if not isinstance(files, list) or not isinstance(pictures, dict):
        return [], {}
    return ([f for f in files if isinstance(f, str) and _SAFE_NAME.fullmatch(f)],
            {k: v for k, v in pictures.items() if isinstance(k, str) and isinstance(v, str)})


def build_site(game: Game, folder: Path | str, force: bool = False, *,
               deadline: Deadline | None = None, press: list[dict[str, Any]] | None = None) -> SiteResult:
    """Write (or update) the website of ``game`` into ``folder``.

    ``force`` renders every board image again (after the board drawing changed); without
    it an image that exists is kept, since an entry's board never changes.

    ``deadline``: the current turn's (:meth:`pbem.service.clock.TurnClock.deadline`); the index
    page names it, without a time left (a page is read later), the entries' pages do not.
    """
    folder = make_folder(Path(folder))
    files = _SiteFiles(folder, SiteResult(folder, len(game.history)), force)
    addresses = known_addresses(game)
    previous, drawn_for = _read_manifest(folder)
    for name in STATIC:
        files.put(name, (data_dir("templates") / "site" / name).read_bytes())
    entries, latest, size = _entry_pages(game, files, addresses, drawn_for)
    shown = {**latest, "deadline": scrub(deadline_sentence(game, deadline), addresses)}
    files.put("index.html", render_page("index.html.j2", m=shown, entries=list(reversed(entries)),
                                    current=entries[-1], board_size=size, game_title=_game_title(latest),
                                    press=_press(game, press or [], addresses)))
    files.prune(previous)
    files.write_manifest()
    return files.result


class _SiteFiles:
    """The files of one site as they are written: every name the site needs (the manifest
    lists them), each counted in the result as written or unchanged; ``pictures``: each
    picture's name -> the hash of the entry it shows."""

    def __init__(self, folder: Path, result: SiteResult, force: bool):
        self.folder = folder
        self.result = result
        self.force = force
        self.wanted: list[str] = []
        self.pictures: dict[str, str] = {}

    def counted(self, name: str, written: bool) -> None:
        (self.result.written if written else self.result.unchanged).append(name)

    def put(self, name: str, data: bytes) -> None:
        """A file rendered every time, written only when its bytes changed."""
        self.wanted.append(name)
        self.counted(name, _write_if_changed(self.folder / name, data))

    def board(self, image: str, report: Report, need_svg: bool) -> bytes:
        """An entry's board image, rendered only when it is missing (or ``force``); its SVG
        if it was rendered or ``need_svg`` (else nothing)."""
        path = self.folder / image
        self.wanted.append(image)
        if self.force or not path.is_file():
            svg = report.render("svg")
            self.counted(image, _write_if_changed(path, svg))
            self.result.boards_rendered += 1
            return svg
        self.result.unchanged.append(image)
        return path.read_bytes() if need_svg else b""

    def picture(self, picture: str, entry_hash: str, report: Report, drawn_for: dict[str, str]) -> None:
        """An entry's picture, drawn only when it is missing, was drawn for another entry
        (after an ``undo``) or ``force``."""
        self.wanted.append(picture)
        self.pictures[picture] = entry_hash
        if self.force or drawn_for.get(picture) != entry_hash or not (self.folder / picture).is_file():
            self.counted(picture, _write_if_changed(self.folder / picture, report.render("png")))
            self.result.pictures_drawn += 1
        else:
            self.result.unchanged.append(picture)

    def prune(self, previous: list[str]) -> None:
        """Remove each file the last manifest listed that the site no longer needs."""
        keep = set(self.wanted)
        for name in previous:
            if name not in keep and (self.folder / name).is_file():
                try:
                    (self.folder / name).unlink()
                except OSError as exc:
                    raise CannotWrite(str(self.folder / name), f"cannot remove it: {exc.strerror or exc}") from None
                self.result.removed.append(name)

    def write_manifest(self) -> None:
        manifest = json.dumps({"generator": "antike-ref site", "files": sorted(set(self.wanted)),
                               "pictures": self.pictures}, indent=1, sort_keys=True) + "\n"
        _write_if_changed(self.folder / MANIFEST, manifest.encode("utf-8"))


def _entry_pages(game: Game, files: _SiteFiles, addresses,
                 drawn_for: dict[str, str]) -> tuple[list[dict[str, Any]], dict[str, Any], tuple[int, int] | None]:
    """Each history entry's page, board image and picture; the entries for the index,
    the model of the latest and the size of the boards."""
    entries: list[dict[str, Any]] = []
    size: tuple[int, int] | None = None
    count = len(game.history)
    for index, at in enumerate(games_after_each_entry(game)):
        entry = game.history[index]
        number, own = _number(at, index)
        image = board_name(index, entry)
        model = scrub(build_model(at, png_name=image), addresses)
        _scrub_facts(model)
        report = Report(at, number, model, own)
        svg = files.board(image, report, need_svg=size is None)
        if size is None:
            size = _svg_size(svg)
        picture = report_name(game.game_id, number, "png", own)
        files.picture(picture, str(entry.get("hash", "")), report, drawn_for)
        info = {"index": index, "page": page_name(index), "board": image, "picture": picture,
                "kind": entry.get("kind", ""), "turn": number, "round": at.state.status.round, **_summary(model)}
        entries.append(info)
        nav = {"prev": page_name(index - 1) if index else None,
               "next": page_name(index + 1) if index + 1 < count else None}
        files.put(info["page"], render_page("entry.html.j2", m=model, e=info, nav=nav, board_size=size,
                                        game_title=_game_title(model), latest=index + 1 == count))
        if index + 1 == count:
            latest = model
    return entries, latest, size


PRESS_SHOWN = 50
"""The index shows the latest public press messages, at most this many."""


def _press(game: Game, items: list[dict[str, Any]], addresses) -> list[dict[str, str]]:
    """The public press (messages to all) for the index, newest first, every address
    scrubbed: who, when and what."""
    out = []
    for item in reversed(items[-PRESS_SHOWN:]):
        if not item.get("public") or not isinstance(item.get("text"), str):
            continue
        nation = item.get("from")
        who = game.edition.nation_name(nation) if nation in game.meta else str(nation)
        out.append({"who": who, "at": str(item.get("at", ""))[:16].replace("T", " "),
                    "text": scrub(item["text"][:4000], addresses)})
    return out


def _game_title(model: dict[str, Any]) -> str:
    g = model["game"]
    return f"{g['edition']} · {g['id']}"
