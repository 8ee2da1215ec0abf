"""The mail cycle: what cron pays when nothing happened, and what one order mail costs.

Builds ten 4-nation games that share one Maildir holding 300 old, already-handled mails
(120 turns of a bot game each), then times, as a separate process like cron runs it:

- an idle `mail run` over the ten games (no new mail, no deadline due);
- one order mail in the body (text syntax), applied and answered, with the reports of the
  turn for every player, with and without the PDF and PNG attached;
- the same in-process (what the cycle itself costs, without Python's start-up).

    .venv/bin/python bench/bench_mail.py
"""

from __future__ import annotations

import mailbox
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("ANTIKE_REF_KDF_ITERATIONS", "1000")

from pbem.play.bot import play_turn  # noqa: E402
from pbem.play.selfplay import bot_turn, start_game  # noqa: E402
from pbem.service.store import game_text  # noqa: E402

EXE = str(Path(sys.executable).with_name("antike-ref"))
NATIONS = ["persians", "phoenicians", "arabs", "greeks"]
GAMES = 10
RUNS = 5


def order_mail(game, n: int) -> bytes:
    from pbem.service.textorders import format_text_orders

    nation = game.state.status.active
    orders = {**play_turn(game, "greedy"), "password": f"pw-{nation}"}
    msg = EmailMessage()
    msg["From"] = f"{nation}@{game.game_id}.example"
    msg["To"] = "referee@example.org"
    msg["Subject"] = "orders"
    msg["Message-ID"] = f"<bench-{game.game_id}-{n}@example>"
    msg.set_content(format_text_orders(orders, game.edition, game.board))
    return msg.as_bytes()


def build(folder: Path) -> tuple[list[Path], Path]:
    from pbem.service.game import NationMeta

    box = mailbox.Maildir(folder / "Maildir", create=True)
    files = []
    for k in range(GAMES):
        game, plain = start_game(f"g{k}", NATIONS, f"bench-{k}")
        game.meta = {n: NationMeta(n, f"{n}@g{k}.example", m.colour, m.password) for n, m in game.meta.items()}
        for _ in range(120):
            game, _ = bot_turn(game, plain)
        for n in range(30):
            msg = EmailMessage()
            msg["From"] = "someone@example.org"
            msg["Message-ID"] = f"<old-{k}-{n}@example>"
            msg.set_content("chat, not orders")
            box.add(msg.as_bytes())
        path = folder / f"g{k}.json"
        path.write_text(game_text(game), encoding="utf-8")
        files.append(path)
    box.close()
    return files, folder / "Maildir"


def config(folder: Path, files: list[Path], attach: str) -> Path:
    text = '[mail]\nfrom = "Referee <referee@example.org>"\n\n[defaults]\ndeadline = "48h"\n'
    text += f'attach = "{attach}"\n'
    text += "".join(f'\n[[game]]\nfile = "{f}"\n' for f in files)
    path = folder / f"mail-{attach or 'none'}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def run(cfg: Path, box: Path, outbox: Path, now: datetime) -> float:
    start = time.perf_counter()
    subprocess.run([EXE, "mail", "run", "--config", str(cfg), "--source", str(box), "--outbox", str(outbox),
                    "--now", now.strftime("%Y-%m-%dT%H:%M:%SZ")], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    from pbem.mail.config import load_config
    from pbem.mail.cycle import Cycle
    from pbem.mail.transport import Transport
    from pbem.service.service import GameService

    folder = Path(tempfile.mkdtemp(prefix="bench-mail-"))
    try:
        files, box = build(folder)
        outbox = folder / "out"
        now = datetime(2026, 11, 23, 10, tzinfo=timezone.utc)
        cfg = config(folder, files, "")
        run(cfg, box, outbox, now)  # first contact: ledgers, clocks
        idle = [run(cfg, box, outbox, now + timedelta(minutes=k + 1)) for k in range(RUNS)]
        print(f"idle mail run, {GAMES} games, {GAMES * 30} old mails:  {statistics.median(idle) * 1000:7.0f} ms")
        for attach in ("", "pdf,png"):
            cfg = config(folder, files, attach)
            times = []
            for k in range(RUNS):
                game = GameService(files[0]).load()
                mailbox.Maildir(box).add(order_mail(game, len(game.history) + k * 1000 + len(attach)))
                times.append(run(cfg, box, outbox, now + timedelta(hours=1, minutes=k)))
            label = "with PDF+PNG" if attach else "no attachments"
            print(f"mail run applying one order mail ({label}): {statistics.median(times) * 1000:7.0f} ms")
        config_obj = load_config(config(folder, files, ""))
        times = []
        for k in range(RUNS):
            game = GameService(files[1]).load()
            mailbox.Maildir(box).add(order_mail(game, 50_000 + k))
            start = time.perf_counter()
            Cycle(config_obj, now + timedelta(hours=2, minutes=k), Transport(outbox=outbox), lambda _: None).run(
                [config_obj.game(files[1])], source=str(box))
            times.append(time.perf_counter() - start)
        print(f"in-process cycle applying one order mail:   {statistics.median(times) * 1000:7.0f} ms")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
