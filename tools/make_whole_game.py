"""Write the order files of a whole bot game, for the end-to-end CLI test.

A greedy bot for every nation plays a 3-nation game from the
first turn to a win; each turn's orders (with the test password) become one order file
under tests/data/wholegame/, named by turn and nation. Deterministic: the same seed
writes the same files.

    .venv/bin/python tools/make_whole_game.py
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.play.selfplay import bot_turn, start_game  # noqa: E402

OUT = ROOT / "tests" / "data" / "wholegame"
NATIONS = ["greeks", "persians", "arabs"]
SEED = "whole-game"
GAME_ID = "whole"


def main() -> None:
    game, plain = start_game(GAME_ID, NATIONS, SEED)
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    while game.state.status.winner is None:
        game, orders = bot_turn(game, plain)
        turn = orders["turn"]
        (OUT / f"{turn:03d}-{orders['nation']}.json").write_text(json.dumps(orders, indent=1) + "\n")
        if turn > 400:
            raise SystemExit("no winner after 400 turns; pick another seed")
    meta = {"nations": NATIONS, "seed": SEED, "game": GAME_ID, "winner": game.state.status.winner,
            "turns": game.state.status.turn - 1, "scores": {n: game.score(n) for n in NATIONS}}
    (OUT / "expected.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"wrote {meta['turns']} order files to {OUT}; {meta['winner']} wins")


if __name__ == "__main__":
    main()
