"""Boards benchmark: what a board costs to check, outline, draw, and play on, per board.

For every shipped board: reading and checking its map file (schema and consistency),
generating outlines from the city positions (the West board has no drawn shapes), the
board picture for ``map render`` (SVG, PNG), a report page in every format after 40 bot
turns, and whole bot games (turns per second, nations as in the board's 4-nation line).
Medians of ``--runs`` runs, each in this process after one warm-up.

    .venv/bin/python bench/bench_boards.py [--runs 5] [--games 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.kernel.board import Board  # noqa: E402
from pbem.paths import map_path  # noqa: E402
from pbem.play.selfplay import bot_turn, play_game, start_game  # noqa: E402
from pbem.service.boards import known_boards, load_board, load_map_file, read_map  # noqa: E402


def timed(fn, runs: int) -> float:
    """Median milliseconds of ``runs`` calls after one warm-up call."""
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    from pbem.report import prepare
    from pbem.report.boardmap import board_pictures

    print(f"{'board':<13} {'check ms':>9} {'outline ms':>11} {'map svg ms':>11} {'map png ms':>11} "
          f"{'report ms':>10} {'turns/s':>8}")
    for board_id in known_boards():
        path = map_path(board_id)
        board = load_board(board_id)
        check = timed(lambda path=path: load_map_file(path), args.runs)
        data, _, _ = read_map(path)
        bare = {k: v for k, v in data.items() if k != "shapes"}
        outline = timed(lambda bare=bare: Board(bare).shapes, args.runs)
        svg = timed(lambda data=data: board_pictures(Board(data), ["svg"]), args.runs)
        png = timed(lambda data=data: board_pictures(Board(data), ["png"]), args.runs)
        lineup = list(board.nations[4])
        game, plain = start_game("bench", lineup, "bench-boards", board=board_id)
        for _ in range(40):
            game, _ = bot_turn(game, plain)
        report = timed(lambda game=game: [prepare(game).render(f)
                                          for f in ("svg", "png", "pdf", "txt", "md", "bbcode")],
                       args.runs)
        turns, start = 0, time.perf_counter()
        for k in range(args.games):
            _, record = play_game(f"b{k}", nations=4, board=board_id, lineup=lineup, check_every_turn=False,
                                  verify_at_end=False)
            turns += record.turns
        rate = turns / (time.perf_counter() - start)
        print(f"{board_id:<13} {check:>9.1f} {outline:>11.1f} {svg:>11.1f} {png:>11.1f} {report:>10.0f} {rate:>8.0f}")


if __name__ == "__main__":
    main()
