"""Website benchmark: ``antike-ref site`` for the demo game and for a long bot game.

For each game: the first build into an empty folder (every board drawn, as an SVG for the
pages and as a PNG picture for forum posts and mails: ``GAME-turn-NNN.png``), the build
after one more turn (one new board and picture), a build with nothing changed (pages
rendered and compared, nothing written) and one with ``--force``. The long game is a
random-bot game of ``--turns`` turns, or to its end (same seed, same game every run). It
also times one board of each kind: the PNG pictures are most of a first build.

    .venv/bin/python bench/bench_site.py [--turns 300] [--demo out/demo/demo.json]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.play.selfplay import bot_turn, start_game  # noqa: E402

NATIONS = ["persians", "phoenicians", "arabs", "greeks"]


def long_game(turns: int):
    """The bot game after ``turns`` turns (or at its end), and the game one turn before."""
    game, plain = start_game("bench", NATIONS, "bench-site")
    previous = game
    for _ in range(turns):
        if game.state.status.winner:
            break
        previous = game
        game, _ = bot_turn(game, plain, mode="random")
    return game, previous


def timed(label: str, fn):
    t0 = time.perf_counter()
    result = fn()
    ms = (time.perf_counter() - t0) * 1000
    extra = ""
    if result is not None:
        extra = (f"  ({result.entries} entries: {len(result.written)} files written, "
                 f"{result.boards_rendered} boards, {result.pictures_drawn} pictures drawn)")
    print(f"  {label:34} {ms:8.0f} ms{extra}")
    return result


def bench_game(title: str, game, previous=None) -> None:
    """``previous``: the game one turn earlier, to time the update after a turn."""
    from pbem.report.site import build_site

    print(f"\n{title}: {len(game.history)} history entries")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "site"
        if previous is not None:
            timed("first build, one turn earlier", lambda: build_site(previous, folder))
            timed("after one more turn", lambda: build_site(game, folder))
        else:
            timed("first build (empty folder)", lambda: build_site(game, folder))
        timed("again, nothing changed", lambda: build_site(game, folder))
        timed("--force (every board again)", lambda: build_site(game, folder, force=True))
        size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
        boards = sum(p.stat().st_size for p in folder.glob("board-*.svg"))
        print(f"  folder: {size / 1e6:.1f} MB, of which the SVG boards {boards / 1e6:.1f} MB")


def bench_png(game, count: int = 3) -> None:
    from pbem.report import prepare

    report = prepare(game)
    report.render("png")  # warm: fonts, templates
    t0 = time.perf_counter()
    for _ in range(count):
        report._cache.clear()
        data = report.render("png")
    png_ms = (time.perf_counter() - t0) * 1000 / count
    t0 = time.perf_counter()
    for _ in range(count):
        report._cache.clear()
        svg = report.render("svg")
    svg_ms = (time.perf_counter() - t0) * 1000 / count
    print(f"\none board: svg {svg_ms:.0f} ms, {len(svg) / 1e3:.0f} kB; png {png_ms:.0f} ms, {len(data) / 1e3:.0f} kB"
          f" (the PNG pictures of {len(game.history)} entries take {png_ms * len(game.history) / 1000:.0f} s of a "
          "first build)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=300)
    ap.add_argument("--demo", type=Path, default=ROOT / "out" / "demo" / "demo.json")
    args = ap.parse_args()

    t0 = time.perf_counter()
    import cairosvg  # noqa: F401
    import jinja2  # noqa: F401
    print(f"importing jinja2 + cairosvg: {(time.perf_counter() - t0) * 1000:.0f} ms (once per process)")

    if args.demo.is_file():
        from pbem.service.store import load_game

        bench_game(f"demo game ({args.demo})", load_game(args.demo))
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [str(ROOT / ".venv" / "bin" / "antike-ref"), "site", str(args.demo), str(Path(tmp) / "site")]
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            print(f"  the whole command, first build:   {(time.perf_counter() - t0) * 1000:8.0f} ms")
    else:
        print(f"\n(no demo game at {args.demo}: run `make demo` first to time it)")

    t0 = time.perf_counter()
    game, previous = long_game(args.turns)
    print(f"\n(bot game of {len(game.history) - 1} turns played in {time.perf_counter() - t0:.1f} s)")
    bench_game("long bot game", game, previous)
    bench_png(game)


if __name__ == "__main__":
    main()
