"""``antike-ref site``: the static website of a game (pbem/report/site.py, docs/site.md).

The game played here has every kind of history entry (set-up, turns, a standing-orders
change, GM edits, a player change), a player named ``<b>&"x"`` and e-mail addresses in
the identities and in a GM edit's reason. The unit tests read the files; the browser
tests open them in Debian's chromium, headless: screenshots at desktop and phone width
(kept in out/site-screens/), and a run through a recording proxy that proves the pages
ask for nothing but their own files.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import threading
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import PASSWORDS, cli_run, edit, make_game, play
from pbem.play.selfplay import bot_turn
from pbem.service import turns
from pbem.service.store import save_game

pytestmark = pytest.mark.slow  # the website built, rebuilt and compared: make test-all and CI run it

ROOT = Path(__file__).resolve().parent.parent.parent
SCREENS = ROOT / "out" / "site-screens"
CHROMIUM = "/usr/bin/chromium"
NAME = '<b>&"x"'
ADDRESS = re.compile(rb"[\w.+-]+@[\w-]+\.[\w.-]+")


def _play(game, bot_turns):
    for _ in range(bot_turns):
        game, _ = bot_turn(game, PASSWORDS)
    return game


def site_game():
    """Entries: new, a player change, turns, a standing-orders change, a GM edit whose
    reason names addresses, more turns."""
    game = make_game(game_id="site-test")
    old = game.meta["persians"]
    game = turns.replace_player(game, "persians", NAME, "ann@example.org", old.password,
                                "Ann <ann@example.org> takes over")
    game = _play(game, 5)
    game, _ = play(game, nation="arabs", standing={"coin_substitute": "gold"})
    game = edit(game, {"nation": "greeks", "resources": {"marble": 2, "iron": 1, "gold": 1}},
                reason="Dora <dora@example.org> asked; copy to dora@example.org")
    return _play(game, 4)


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("site-game") / "game.json"
    save_game(site_game(), path)
    return path


def build(game_file, folder):
    result = cli_run("site", game_file, folder)
    assert result.exit_code == 0, result.stderr
    return result


@pytest.fixture(scope="module")
def site(game_file, tmp_path_factory):
    folder = tmp_path_factory.mktemp("site") / "www"
    build(game_file, folder)
    return folder


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def pages(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.html"))


class Links(HTMLParser):
    """Every href and src in a page."""

    def __init__(self):
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src", "srcset", "poster", "data", "action", "formaction"):
                self.refs.append(value or "")


def refs_of(page: Path) -> list[str]:
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    parser.close()
    return parser.refs


# -- the files ----------------------------------------------------------------------------


def test_a_page_for_every_entry_linked_from_the_index(site, game_file):
    from pbem.service.store import load_game

    history = load_game(game_file).history
    kinds = {e["kind"] for e in history}
    assert {"new", "turn", "standing", "gm-edit"} <= kinds
    index_refs = refs_of(site / "index.html")
    for i in range(len(history)):
        page = site / f"entry-{i:03d}.html"
        assert page.is_file(), page
        assert page.name in index_refs
    assert len(pages(site)) == len(history) + 1
    text = (site / "index.html").read_text(encoding="utf-8")
    assert "Standings" in text and "History" in text
    # whose turn it is, with the round
    assert re.search(r"Round \d+ · <strong>next: \w+</strong>", text)


def test_each_entry_page_shows_its_report(site, game_file):
    from pbem.service.store import load_game

    kinds = [e["kind"] for e in load_game(game_file).history]
    gm = (site / f"entry-{len(kinds) - 1 - kinds[::-1].index('gm-edit'):03d}.html").read_text(encoding="utf-8")
    standing = (site / f"entry-{kinds.index('standing'):03d}.html").read_text(encoding="utf-8")
    assert "GM edit" in gm and "Standing orders: Arabs" in standing
    for text in (gm, standing):
        assert "<img " in text and "What happened" in text and "Provinces" in text and "Score card" in text


def test_player_names_are_escaped(site):
    for page in pages(site):
        assert NAME not in page.read_text(encoding="utf-8"), page.name
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;&amp;&#34;x&#34;" in index
    # the board drawing escapes it too (XML)
    board = next(site.glob("board-*.svg")).read_bytes()
    assert NAME.encode() not in board


def png_chunks(data: bytes) -> list[bytes]:
    """The chunk types of a PNG file, in order."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    out, at = [], 8
    while at < len(data):
        size = int.from_bytes(data[at:at + 4], "big")
        out.append(data[at + 4:at + 8])
        at += 12 + size
    return out


def test_no_address_anywhere(site):
    for name, data in files(site).items():
        if name.endswith(".png"):
            # a picture is pixels (drawn from the scrubbed model, as the SVG checked here
            # is): it carries no text chunk, and compressed pixels may hold any bytes
            assert not {b"tEXt", b"zTXt", b"iTXt"} & set(png_chunks(data)), name
            continue
        assert not ADDRESS.search(data), (name, ADDRESS.search(data))
        assert b"@example.org" not in data, name


def test_every_reference_is_a_file_in_the_folder(site):
    for page in pages(site):
        refs = refs_of(page)
        assert refs, page.name
        for ref in refs:
            parts = urlsplit(ref)
            assert not parts.scheme and not parts.netloc and not ref.startswith("//"), (page.name, ref)
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_relative_to(site.resolve()) and target.is_file(), (page.name, ref)


def test_nothing_refers_outside(site):
    for path in [*pages(site), *site.glob("*.css")]:
        text = path.read_text(encoding="utf-8")
        for bad in ("http://", "https://", "//", "@import", "url("):
            assert bad not in text, (path.name, bad)


def test_the_same_game_gives_the_same_bytes(site, game_file, tmp_path):
    other = tmp_path / "again"
    build(game_file, other)
    assert files(other) == files(site)


def test_rerun_writes_nothing_new_and_an_update_keeps_what_it_did_not_write(game_file, tmp_path):
    from pbem.service.store import load_game

    folder = tmp_path / "www"
    folder.mkdir()
    (folder / "notes.txt").write_text("the GM's own file\n")
    (folder / "entry-900.html").write_text("not written by antike-ref\n")
    build(game_file, folder)
    boards = {p.name: p.stat().st_mtime_ns for p in folder.glob("board-*.svg")}
    result = build(game_file, folder)
    assert "0 files written" in result.stdout

    # one more turn: the new entry's page and board appear, old boards are not rendered again
    game = load_game(game_file)
    longer = tmp_path / "longer.json"
    save_game(_play(game, 1), longer)
    result = build(longer, folder)
    assert (folder / f"entry-{len(game.history):03d}.html").is_file()
    for name, mtime in boards.items():
        assert (folder / name).stat().st_mtime_ns == mtime, name

    # an undo: the pages and boards of the entries taken back go, files of others stay
    from pbem.service.replay import game_after

    shorter = tmp_path / "shorter.json"
    save_game(game_after(game, 3), shorter)
    result = build(shorter, folder)
    assert "removed" in result.stdout
    assert sorted(p.name for p in folder.glob("entry-*.html")) == [
        "entry-000.html", "entry-001.html", "entry-002.html", "entry-003.html", "entry-900.html"]
    assert len(list(folder.glob("board-*.svg"))) == 4
    assert (folder / "notes.txt").read_text() == "the GM's own file\n"


def test_the_sites_pictures_are_the_files_render_and_post_name(game_file, tmp_path):
    """Each entry's picture is on the site under the name `render --format png` gives it,
    with the same bytes, so `post --image-base URL-OF-THE-SITE` shows the site's own file; an
    undo that gives a name to another entry has its picture drawn again."""
    from pbem.report import report_name
    from pbem.service.replay import game_after
    from pbem.service.store import load_game

    folder = tmp_path / "www"
    build(game_file, folder)
    game = load_game(game_file)
    pictures = sorted(p.name for p in folder.glob("*.png"))
    assert len(pictures) == len(game.history)
    rendered = tmp_path / "rendered"
    for turn in (0, 3):
        assert cli_run("render", game_file, "--turn", turn, "--format", "png", "--out", rendered).exit_code == 0
    for picture in rendered.iterdir():
        assert (folder / picture.name).read_bytes() == picture.read_bytes(), picture.name
    post = cli_run("post", game_file, "--turn", 3, "--image-base", "https://example.org/site")
    (link,) = re.findall(r"https://example\.org/site/([^\]\s)]+\.png)", post.stdout)
    assert (folder / link).is_file()
    page = (folder / "entry-003.html").read_text()
    assert f'href="{link}"' in page or 'href="site-test-turn-' in page
    # an undo, then a different entry under the same number: its picture is drawn again
    from pbem.errors import Refused

    earlier = game_after(game, len(game.history) - 2)
    dropped = game.history[-1]
    assert dropped["kind"] == "turn"
    for wedge in ("iron", "gold", "marble", "temple", "arming", "knowhow"):
        if wedge == dropped["orders"]["rondel"]["to"]:
            continue
        try:
            again, _ = play(earlier, rondel=wedge)
            break
        except Refused:
            continue
    other = tmp_path / "other.json"
    save_game(again, other)
    last = report_name("site-test", dropped["turn"], "png")
    before = (folder / last).read_bytes()
    build(other, folder)
    assert cli_run("render", other, "--format", "png", "--out", tmp_path / "r2").exit_code == 0
    assert (folder / last).read_bytes() == (tmp_path / "r2" / last).read_bytes() != before
    manifest = json.loads((folder / ".antike-ref-site.json").read_text())
    assert manifest["pictures"][last] == load_game(other).history[-1]["hash"]


def test_usage_and_input_errors(game_file, tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    result = cli_run("site", game_file, not_a_folder)
    assert result.exit_code == 2, result.stderr
    assert cli_run("site", tmp_path / "missing.json", tmp_path / "www").exit_code == 3
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert cli_run("site", broken, tmp_path / "www").exit_code == 3
    assert cli_run("site", game_file).exit_code == 2


# -- a real browser -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing (CI installs it: make test installs SYSTEM_PACKAGES)")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium, or make test)")
    return CHROMIUM


def run_chromium(binary, url, tmp_path, width, height, screenshot, *extra):
    profile = tmp_path / f"profile-{hashlib.sha1(f'{url}{width}{screenshot}'.encode()).hexdigest()[:8]}"
    args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-default-apps", "--disable-extensions", "--no-default-browser-check",
            "--disable-features=NetworkTimeServiceQuerying,OptimizationHints,MediaRouter,Translate",
            f"--user-data-dir={profile}", "--hide-scrollbars", "--virtual-time-budget=5000",
            f"--window-size={width},{height}", f"--screenshot={screenshot}", *extra, url]
    result = subprocess.run(args, capture_output=True, text=True, timeout=90)
    assert screenshot.is_file(), f"chromium wrote no screenshot (exit {result.returncode}): {result.stderr[-2000:]}"
    return result


def assert_not_blank(png: Path, width: int):
    from PIL import Image

    with Image.open(png) as img:
        assert img.size[0] == width, img.size
        rgb = img.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 20) or []
        assert len(colours) > 200, f"{png.name}: only {len(colours)} colours"
        # the board is in the upper half on every page and width: it must be drawn
        w, h = rgb.size
        band = rgb.crop((0, h // 8, w, h // 2)).getcolors(maxcolors=1 << 20) or []
        assert len(band) > 100, f"{png.name}: the board area has only {len(band)} colours"


@pytest.mark.slow
@pytest.mark.parametrize("width,height", [(1280, 1600), (390, 2400)], ids=["desktop", "phone"])
def test_screenshots_at_desktop_and_phone_width(chromium, site, tmp_path, width, height):
    SCREENS.mkdir(parents=True, exist_ok=True)
    for page in ("index.html", "entry-004.html"):
        shot = tmp_path / f"{Path(page).stem}-{width}.png"
        run_chromium(chromium, (site / page).as_uri(), tmp_path, width, height, shot)
        assert_not_blank(shot, width)
        shutil.copyfile(shot, SCREENS / shot.name)


class Recorder(BaseHTTPRequestHandler):
    """An HTTP proxy that serves the site for http://site.invalid/ and nothing else, and
    notes every request it sees (CONNECT included)."""

    seen: list[tuple[str, str, str]]
    root: Path

    def log_message(self, *args):
        pass

    def _note(self) -> tuple[str, str]:
        if self.command == "CONNECT":
            host, path = self.path, ""
        else:
            parts = urlsplit(self.path)
            host = parts.netloc or self.headers.get("Host", "")
            path = parts.path
        self.seen.append((self.command, host, path))
        return host, path

    def do_GET(self):
        host, path = self._note()
        target = (self.root / unquote(path).lstrip("/")).resolve()
        if host != "site.invalid" or not target.is_relative_to(self.root) or not target.is_file():
            self.send_error(404)
            return
        data = target.read_bytes()
        kind = {".html": "text/html; charset=utf-8", ".css": "text/css", ".svg": "image/svg+xml"}
        self.send_response(200)
        self.send_header("Content-Type", kind.get(target.suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_CONNECT(self):
        self._note()
        self.send_error(403)

    do_POST = do_HEAD = do_PUT = do_OPTIONS = do_CONNECT


def through_proxy(binary, site, tmp_path, urls):
    """Open each of ``urls`` in chromium through a recording proxy. Returns every request
    the proxy saw, and every request chromium's net log says it started, with who started
    it (``initiator``: the page's origin, or "not an origin" for the browser itself)."""
    seen: list[tuple[str, str, str]] = []
    started: list[tuple[str, str]] = []
    handler = type("Handler", (Recorder,), {"seen": seen, "root": site.resolve()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        proxy = f"--proxy-server=http://127.0.0.1:{server.server_address[1]}"
        for i, url in enumerate(urls):
            netlog = tmp_path / f"netlog-{i}.json"
            run_chromium(binary, url, tmp_path, 390, 1200, tmp_path / f"proxied-{i}.png",
                         proxy, "--proxy-bypass-list=<-loopback>", f"--log-net-log={netlog}")
            for event in json.loads(netlog.read_text(encoding="utf-8"))["events"]:
                params = event.get("params") or {}
                if "url" in params and "initiator" in params:
                    started.append((params["url"], params["initiator"]))
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
    return seen, started


@pytest.mark.slow
def test_the_pages_ask_for_nothing_but_their_own_files(chromium, site, tmp_path):
    """Every request the pages cause is for site.invalid and a file in the folder.

    Chromium (156, Debian) asks a few Google services on its own at start-up even with the
    background-networking flags (the component updater, accounts.google.com/ListAccounts).
    Those are told apart by chromium's own net log, which names who started each request:
    a request to another host passes only if the browser itself started it ("not an
    origin"), never one a page started; and the pages start none."""
    pages_ = ["index.html", "entry-004.html"]
    seen, started = through_proxy(chromium, site, tmp_path, [f"http://site.invalid/{p}" for p in pages_])
    asked = {path for _, host, path in seen if host == "site.invalid"}
    assert {"/index.html", "/entry-004.html", "/style.css"} <= asked, seen
    assert any(p.startswith("/board-") for p in asked), seen
    for command, host, path in seen:
        if host == "site.invalid":
            assert command == "GET" and (site / path.lstrip("/")).is_file(), (command, path)
    # what the pages started: only files of the site
    from_pages = [(url, who) for url, who in started if "site.invalid" in who]
    assert from_pages, started
    for url, who in from_pages:
        parts = urlsplit(url)
        assert parts.scheme == "http" and parts.netloc == "site.invalid", (url, who)
        assert (site / unquote(parts.path).lstrip("/")).is_file(), url
    # every other host the proxy saw was asked for by the browser itself
    browser_hosts = {urlsplit(url).hostname for url, who in started if who == "not an origin"}
    for command, host, path in seen:
        if host != "site.invalid":
            assert host.rpartition(":")[0] in browser_hosts or host in browser_hosts, (command, host, path)
