"""The size of an Antike Duellum report mail that carries the player's copy of the game
(``attach = "png,copy"``), turn by turn through a long game (docs/mail.md, "Antike
Duellum: private reports"): the copy grows with the history, and a report mail with it is
to stay at most 150 KB through turn 60.

A Duellum game on the Rome/Carthage side, both nations played by the greedy bot (with
``--turns`` turns, default 60; a game won before is played on from a fresh one: the
sizes are those of each turn's mails), every turn reported by the real mail cycle into an
outbox, as ``mail run`` does; prints, at the turns ``--at`` names, the largest report mail
to a player, the copy it carries (its bytes as a file, and as the mail encodes it) and the
board picture.

    .venv/bin/python bench/bench_copy_mail.py                 # turns 20, 40, 60
    .venv/bin/python bench/bench_copy_mail.py --turns 80 --at 20,40,60,80
"""

from __future__ import annotations

import argparse
import email
import os
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from email.policy import default as default_policy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("ANTIKE_REF_KDF_ITERATIONS", "1000")

from pbem.cli import app  # noqa: E402

LIMIT = 150 * 1024
T0 = datetime(2026, 11, 23, 10, 0, tzinfo=timezone.utc)


def cli(*args) -> None:
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exit_code != 0:
        raise SystemExit(f"antike-ref {' '.join(map(str, args))}: {result.stdout}{result.stderr}")


def new_game(folder: Path) -> Path:
    game = folder / "duel.json"
    cli("new", game, "--edition", "duellum", "--board", "duellum-rome-carthage", "--nations",
        "carthaginians,romans", "--id", "duel", "--seed", "bench-copy",
        "--player", "romans=Ann <ann@players.example>", "--player", "carthaginians=Ben <ben@players.example>")
    return game


def measure(outbox: Path) -> dict[str, int]:
    """The largest report mail to a player in ``outbox`` and its parts."""
    best: dict[str, int] = {}
    for path in outbox.glob("*-report-*.eml"):
        data = path.read_bytes()
        msg = email.message_from_bytes(data, policy=default_policy)
        if "players.example" not in str(msg["To"]):
            continue
        parts = {p.get_filename(): p for p in msg.iter_attachments()}
        copy = next((p for name, p in parts.items() if name.endswith(".json")), None)
        png = next((p for name, p in parts.items() if name.endswith(".png")), None)
        if len(data) > best.get("mail", 0):
            best = {"mail": len(data), "copy": len(copy.get_content()) if copy is not None else 0,
                    "copy_encoded": len(copy.as_bytes()) if copy is not None else 0,
                    "png": len(png.get_content()) if png is not None else 0}
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--at", default="20,40,60", help="the turns whose mails are measured")
    args = parser.parse_args()
    wanted = sorted(int(t) for t in args.at.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cfg = folder / "mail.toml"
        game = new_game(folder)
        cfg.write_text('[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "gm@referee.example"\n'
                       '[defaults]\nattach = "png,copy"\n[[game]]\nfile = "duel.json"\n', encoding="utf-8")
        now = T0
        cli("mail", "run", "--config", cfg, "--outbox", folder / "out-0", "--now", now.strftime("%Y-%m-%dT%H:%M:%SZ"))
        print(f"{'turn':>5} {'mail':>9} {'copy file':>10} {'copy in mail':>13} {'png':>8}")
        for turn in range(1, args.turns + 1):
            if '"winner": null' not in game.read_text():
                break
            cli("bot", game, "--apply")
            now += timedelta(minutes=5)
            out = folder / f"out-{turn}"
            cli("mail", "run", "--config", cfg, "--outbox", out, "--now", now.strftime("%Y-%m-%dT%H:%M:%SZ"))
            if turn in wanted:
                size = measure(out)
                flag = "" if size.get("mail", 0) <= LIMIT else "  over 150 KB"
                print(f"{turn:>5} {size.get('mail', 0):>9,} {size.get('copy', 0):>10,} "
                      f"{size.get('copy_encoded', 0):>13,} {size.get('png', 0):>8,}{flag}", flush=True)


if __name__ == "__main__":
    main()
